"""Text from an agent, a server or a file, made safe to print on a terminal as it is.

A terminal acts on the control characters in what it is given: an escape sequence in a
question, a tool call's command or a keyring service name could clear the screen, move the
cursor over what was printed, retitle the window or hide text. Printed through these, each
control character shows as its picture from Unicode's Control Pictures block (ESC as ␛, BEL
as ␇), so the person reads exactly what was sent and the terminal does nothing with it.
"""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f\x80-\x9f]")
_KEPT_IN_TEXT = "\n\t"


def _picture(character: str) -> str:
    code = ord(character)
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"\\x{code:02x}"  # C1 controls have no pictures


def literal_text(text: str) -> str:
    """`text` with its control characters shown, not acted on; line breaks (`\r\n` too)
    and tabs kept."""
    if text.isprintable():
        return text  # most text: one quick check (a list of 10,000 options passes each here)
    text = text.replace("\r\n", "\n")
    return _CONTROL.sub(lambda m: m[0] if m[0] in _KEPT_IN_TEXT else _picture(m[0]), text)


def literal_line(text: str) -> str:
    """`text` on one line, every control character (line breaks too) shown, not acted on."""
    return text if text.isprintable() else _CONTROL.sub(lambda m: _picture(m[0]), text)
