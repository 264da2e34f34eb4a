"""Text from an agent, a server or a file, made safe to print on a terminal as it is.

A terminal acts on the control characters in what it is given: an escape sequence in a
question, a tool call's command or a keyring service name could clear the screen, move the
cursor over what was printed, retitle the window or hide text. Printed through these, each
control character shows as its picture from Unicode's Control Pictures block (ESC as ␛, BEL
as ␇), so the person reads exactly what was sent and the terminal does nothing with it.

Some characters are not controls but still keep the person from reading what was sent: the
bidirectional overrides and isolates reorder the text after them where a terminal or a
browser lays text out both ways (a command that reads `rm -rf ./cache` can run something
else), and zero-width spaces, tag characters and their kin draw nothing, so text can hide in
them. These show as their code point, `\\u202e`. The zero-width joiners (U+200C, U+200D) are
left alone: emoji sequences and several scripts need them, and they hide nothing. So do the
Hangul fillers, blank letters that the layout measures as no cells and a terminal draws one
or two wide: a run of them pushes the rest of a line past a dialog's edge, unseen. A run of
skin-tone modifiers does the same; the one after its emoji is kept. Other blank letters and
marks (the braille blank, the combining grapheme joiner) draw a space or nothing where there
is a letter: shown as code points too.

Spaces other than the ASCII one are what they seem in prose (French puts one before `?`),
but not in a command or a path, where `a<NBSP>b` is one word that reads as two:
`literal_spaces` shows them as code points there.
"""

from __future__ import annotations

import re

_CONTROL = "\x00-\x1f\x7f\x80-\x9f"
_HIDING = (
    "\u00ad"  # soft hyphen
    "\u061c"  # Arabic letter mark
    "\u180e"  # Mongolian vowel separator
    "\u200b"  # zero-width space
    "\u200e\u200f"  # left-to-right and right-to-left marks
    "\u2028\u2029"  # line and paragraph separators
    "\u202a-\u202e"  # bidirectional embeddings and overrides
    "\u2060-\u2064"  # word joiner, invisible operators
    "\u2066-\u206f"  # bidirectional isolates, deprecated format characters
    "\ufeff"  # zero-width no-break space (byte order mark)
    "\ufff9-\ufffb"  # interlinear annotation
    "\U000e0001\U000e0020-\U000e007f"  # tag characters
)
_FILLERS = (  # printable, blank
    "\u034f"  # combining grapheme joiner
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers
    "\u17b4\u17b5"  # Khmer inherent vowels
    "\u180b-\u180d\u180f"  # Mongolian free variation selectors
    "\u2800"  # braille pattern blank
)
_MODIFIER = "\U0001f3fb-\U0001f3ff"  # skin tones: drawn on their emoji, or on their own
_MODIFIER_RUN = f"(?<=[{_MODIFIER}])[{_MODIFIER}]"
_SHOWN = re.compile(f"[{_CONTROL}{_HIDING}{_FILLERS}]|{_MODIFIER_RUN}")
_PRINTABLE_SHOWN = re.compile(f"[{_FILLERS}]|{_MODIFIER_RUN}")
_KEPT_IN_TEXT = "\n\t"
_SPACES = re.compile("[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")
"""Every space character (Unicode's Zs) but the ASCII one."""


def _picture(character: str) -> str:
    code = ord(character)
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟
    if code == 0x7F:
        return "\u2421"  # ␡
    if code < 0x100:
        return f"\\x{code:02x}"  # C1 controls and the soft hyphen have no pictures
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def literal_text(text: str) -> str:
    """`text` with its control characters shown, not acted on, and the characters that
    reorder or hide text shown as code points; line breaks (`\r\n` too) and tabs kept."""
    if text.isprintable() and not _PRINTABLE_SHOWN.search(text):
        return text  # most text: quick checks (a list of 10,000 options passes each here)
    text = text.replace("\r\n", "\n")
    return _SHOWN.sub(lambda m: m[0] if m[0] in _KEPT_IN_TEXT else _picture(m[0]), text)


def literal_line(text: str) -> str:
    """`text` on one line, every control character (line breaks too) shown, not acted on,
    and the characters that reorder or hide text shown as code points."""
    if text.isprintable() and not _PRINTABLE_SHOWN.search(text):
        return text
    return _SHOWN.sub(lambda m: _picture(m[0]), text)


def literal_spaces(text: str) -> str:
    """`text` with every space but the ASCII one shown as its code point (`\\xa0`,
    `\\u3000`): for a command, a path, a tool call's arguments, where `rm -rf a<NBSP>b`
    names one file."""
    return _SPACES.sub(lambda m: _picture(m[0]), text)
