"""Run a benchmark's own script again in a fresh Python process and read what it printed."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any


def run_child(script: str, *args: str) -> Any:
    """Run `script` with `args` in a fresh process of this interpreter and return the JSON of
    the last line it printed (a child prints its figures as one JSON line last)."""
    out = subprocess.run(
        [sys.executable, script, *args], capture_output=True, text=True, check=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])
