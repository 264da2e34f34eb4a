"""Code run in a fresh interpreter from the project's root: what a process starting cold
loads and does, with nothing of this test run's modules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def fresh_json(code: str) -> Any:
    """What `code`, run in a fresh interpreter, prints as JSON on its last line."""
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])
