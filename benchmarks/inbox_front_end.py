"""A scripted front end for the inbox: reads /v1/events and answers each text request.

`python benchmarks/inbox_front_end.py BASE TOKEN COUNT` answers COUNT text requests, each with
"re: <its message>", then prints one JSON line: how many answers were applied and refused.
Used by the load tests and benchmarks, as a process of its own.
"""

from __future__ import annotations

import json
import sys

import httpx2


def main(base: str, token: str, count: int) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    applied = refused = 0
    with (
        httpx2.Client(base_url=base, headers=headers, timeout=None) as events,
        httpx2.Client(base_url=base, headers=headers, timeout=30) as answers,
        events.stream("GET", "/v1/events", params={"front_end": "script"}) as stream,
    ):
        kind = None
        for line in stream.iter_lines():
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: ") and kind == "requested":
                request = json.loads(line.removeprefix("data: "))["request"]
                response = answers.post(
                    f"/v1/requests/{request['id']}/answer",
                    json={
                        "result": {"action": "accept", "content": f"re: {request['message']}"},
                        "front_end": "script",
                    },
                )
                if response.status_code == 200:
                    applied += 1
                else:
                    refused += 1
                if applied + refused >= count:
                    break
    print(json.dumps({"applied": applied, "refused": refused}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
