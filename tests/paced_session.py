"""The full app on a real terminal, its agent thinking between two questions.

`python paced_session.py SECONDS OUT`: the agent asks "First?", thinks for SECONDS, asks
"Second?" and returns; the app stays until quit (Ctrl+Q), then writes the two answers'
contents to OUT as JSON.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from tui import ChoiceRequest, ElicitationApp, ElicitationQueue

THINKING, OUT = float(sys.argv[1]), Path(sys.argv[2])


def agent(queue: ElicitationQueue) -> list[object]:
    first = queue.ask(ChoiceRequest(message="First?", options=["alpha", "beta"]))
    time.sleep(THINKING)
    second = queue.ask(ChoiceRequest(message="Second?", options=["gamma", "delta"]))
    return [first.content, second.content]


if __name__ == "__main__":
    answers = ElicitationApp(ElicitationQueue(), agent).run()
    OUT.write_text(json.dumps(answers))
