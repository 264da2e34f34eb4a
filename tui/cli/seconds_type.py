"""The argparse type of the options that take a number of seconds, 0 or more."""

from __future__ import annotations

import argparse


def seconds(value: str) -> float:
    """`value` as seconds; an argparse error naming it unless it is a finite number, 0 or more."""
    try:
        number = float(value)
    except ValueError:
        number = float("nan")
    if not 0 <= number < float("inf"):  # NaN fails every comparison, so it lands here too
        raise argparse.ArgumentTypeError(f"not a number of seconds, 0 or more: {value!r}")
    return number
