"""`python -m tui.cli ARGS`: the `elicit-tui` command, run as its console script runs it."""

from tui.cli.entry import main

main()
