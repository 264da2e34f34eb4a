"""Snapshot tests: SVGs live in snapshots/<test module>/, and everything that moves is pinned."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest_textual_snapshot

# NO_COLOR and TEXTUAL_THEME change every colour in an SVG; snapshots use the defaults.
os.environ.pop("NO_COLOR", None)
os.environ.pop("TEXTUAL_THEME", None)


def _beside_test_module(cls: type, *, test_location: Any) -> str:
    # snapshots/test_<group>.py keeps its SVGs in snapshots/test_<group>/.
    return str(Path(test_location.filepath).parent / test_location.basename)


pytest_textual_snapshot.SVGImageExtension.dirname = classmethod(_beside_test_module)  # type: ignore[assignment, method-assign]
