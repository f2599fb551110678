"""Step definitions, grouped by domain; each module is loaded as a pytest plugin by conftest.py."""
