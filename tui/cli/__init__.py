"""The `elicit-tui` command: main.py and one module per subcommand; the only layer that may import every other."""
