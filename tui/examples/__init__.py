"""Small programs that show elicit-tui at work; run them with `python -m tui.examples.<name>`."""
