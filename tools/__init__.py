"""Project tools that are not part of the spec or the reference implementation."""
