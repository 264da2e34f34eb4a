"""A form's yes/no field: Textual's Switch, with the key that flips it shown in the footer."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Switch


class YesNoSwitch(Switch):
    """A Switch whose footer offers Space: the form takes Enter (to the next field), and a
    person tabbing onto "no" should not have to guess how to say "yes"."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("space", "toggle_switch", "Yes/no")]
    """
    | Key(s) | Description |
    | :- | :- |
    | space | Flip the answer between yes and no. |
    """
