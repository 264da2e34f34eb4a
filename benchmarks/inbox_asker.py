"""One asker process for the inbox load benchmark: asks COUNT text questions at once.

`python benchmarks/inbox_asker.py BASE TOKEN INDEX COUNT` submits "asker INDEX question J"
for J in 0..COUNT-1 through `tui.RemoteQueue`, waits for every answer, and prints one JSON
line: how many came back as the scripted front end answers them ("re: <message>"), which
did not, and each question's seconds from submit to result.
"""

from __future__ import annotations

import json
import sys
import time

import tui


def main(base: str, token: str, index: int, count: int) -> None:
    queue = tui.RemoteQueue(base, token)
    started = time.perf_counter()
    messages = [f"asker {index} question {n}" for n in range(count)]
    futures = [queue.submit(tui.TextRequest(message=message)) for message in messages]
    right, wrong, seconds = 0, [], []
    for message, future in zip(messages, futures, strict=True):
        result = future.result()
        seconds.append(time.perf_counter() - started)
        if result.action == "accept" and result.content == f"re: {message}":
            right += 1
        else:
            wrong.append([message, result.action, result.content, result.reason])
    print(json.dumps({"right": right, "wrong": wrong, "seconds": seconds}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
