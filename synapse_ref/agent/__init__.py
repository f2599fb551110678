"""Agent layer: the tool-calling loop, its guards and the sandbox permission round trip."""
