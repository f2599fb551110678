"""The interactive REPL: slash commands, display helpers and the terminal front end."""
