"""A stdio MCP server that speaks only the 2025-11-25 handshake protocol, as older servers do.

Raw JSON-RPC, no SDK: it answers `initialize`, `tools/list` and `tools/call` in 2025-11-25
shapes whatever version a request claims, and refuses `server/discover` as unknown.
"""

from __future__ import annotations

import json
import sys
from typing import Any

TOOLS = [{"name": "hello", "inputSchema": {"type": "object", "properties": {}}}]


def answer(method: str, params: dict[str, Any]) -> dict[str, Any]:
    if method == "initialize":
        return {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "legacy-only", "version": "1.0"},
        }
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        return {"content": [{"type": "text", "text": "hello"}]}
    raise LookupError(method)


for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    try:
        reply: dict[str, Any] = {"result": answer(message["method"], message.get("params") or {})}
    except LookupError:
        reply = {"error": {"code": -32601, "message": "Method not found"}}
    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], **reply}), flush=True)
