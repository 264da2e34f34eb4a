"""Keys in long lists with a filter (a choice's, a checklist's, a batch question's): the
highlighted option stays highlighted as the filter changes, a digit filters where the options
hold it (ports, versions) and picks only a number on screen, and a checklist answers what was
ticked, shown or filtered out.

Keys are pressed with no pause between them, with Pilot and all posted at once (`burst`).
"""

from __future__ import annotations

from typing import Any

from app_driver import SIZE, error_line, screen_text, wait_for, wait_for_modal
from asking import SENDERS, Asker, Send, answer
from textual.pilot import Pilot
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from tui import ElicitationApp, ElicitationQueue, parse_request
from tui.core.models import Request


def footer(pilot: Pilot[Any]) -> str:
    """The keys the footer shows, as it shows them."""
    return "  ".join(
        f"{key.key_display} {key.description}"
        for key in pilot.app.screen.query(FooterKey)
        if key.display and not key.has_class("-command-palette")
    )


async def footer_of(request: Request) -> str:
    """The footer of `request`'s dialog as it opens."""
    app = ElicitationApp(ElicitationQueue(), Asker(request), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot)
        await wait_for(pilot, lambda: "esc" in footer(pilot))
        return footer(pilot)


REGIONS = [
    *("eu-west-1", "eu-west-2", "eu-west-3", "eu-north-1", "eu-south-1"),
    *("us-east-1", "us-east-2", "us-west-1", "us-west-2", "ap-south-1"),
]
REGION = {"kind": "choice", "message": "Which region?", "options": REGIONS, "default": "us-west-2"}

MANY = {
    "kind": "choice",
    "message": "Which one?",
    "options": [f"region-{n:05}" for n in range(10_000)],
    "default": "region-05000",
}

PORTS = {"kind": "choice", "message": "Which port?", "options": [str(p) for p in range(8000, 8012)]}

VERSIONS = {
    "kind": "choice",
    "message": "Which Python?",
    "options": [f"3.{n}" for n in range(5, 15)],
}

WORDS = [
    *("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"),
    *("lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon"),
    *("phi", "chi", "psi", "omega"),
]
GREEK = {"kind": "choice", "message": "Which letter?", "options": WORDS}


# -- the highlight as the filter changes -----------------------------------------------------


@SENDERS
async def test_the_default_is_highlighted_again_once_the_filter_is_cleared(send: Send) -> None:
    assert (await answer(REGION, (*"ap", "escape", "enter"), send)).content == "us-west-2"
    assert (await answer(MANY, ("z", "backspace", "enter"), send)).content == "region-05000"


@SENDERS
async def test_the_highlighted_option_stays_while_the_filter_shows_it(send: Send) -> None:
    # us-west-2 is the 4th "us" shown; the first was highlighted instead.
    assert (await answer(REGION, (*"us", "enter"), send)).content == "us-west-2"
    # a filter that hides it highlights its first match
    assert (await answer(REGION, (*"us-e", "enter"), send)).content == "us-east-1"


@SENDERS
async def test_the_option_moved_to_while_filtering_stays_once_it_is_cleared(send: Send) -> None:
    keys = (*"eu", "down", "escape", "enter")
    assert (await answer(REGION, keys, send)).content == "eu-west-2"
    keys = (*"eu", "down", "backspace", "backspace", "enter")
    assert (await answer(REGION, keys, send)).content == "eu-west-2"


# -- digits ----------------------------------------------------------------------------------


@SENDERS
async def test_a_digit_the_options_hold_goes_into_the_filter(send: Send) -> None:
    assert (await answer(PORTS, (*"8011", "enter"), send)).content == "8011"
    assert (await answer(VERSIONS, (*"3.12", "enter"), send)).content == "3.12"
    # around the default, far down the list: 3 filters, Enter takes its first match
    assert (await answer(MANY, ("3", "enter"), send)).content == "region-00003"


@SENDERS
async def test_a_digit_picks_among_words_only_by_a_number_on_screen(send: Send) -> None:
    assert (await answer(GREEK, ("3",), send)).content == "gamma"
    # scrolled to "omega": no number on screen, the 3 does nothing
    data = {**GREEK, "default": "omega"}
    assert (await answer(data, ("3", "enter"), send)).content == "omega"
    # the filter shows a few: numbered again
    assert (await answer(data, (*"ta", "2"), send)).content == "delta"


async def test_the_footer_offers_digits_only_where_they_pick() -> None:
    assert "1-9 Pick" in await footer_of(parse_request(GREEK))
    assert "1-9 Pick" not in await footer_of(parse_request(PORTS))
    assert "1-9 Pick" not in await footer_of(parse_request({**GREEK, "default": "omega"}))


# -- a batch's long lists --------------------------------------------------------------------


def batch(*questions: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "questions", "questions": list(questions)}


AREAS = {
    "question": "Which area?",
    "allow_other": False,
    "options": [f"{area}-{n}" for area in ("eu", "us", "ap", "sa") for n in (1, 2, 3)],
}


@SENDERS
async def test_a_batch_keeps_the_highlighted_option_as_its_filter_changes(send: Send) -> None:
    # us-2 moved to; "ap" hides it, clearing the filter shows it highlighted again; Enter in
    # the filter goes to the options, Enter there answers
    keys = ("down", "down", "down", "down", *"ap", "escape", "enter", "enter")
    assert (await answer(batch(AREAS), keys, send)).content["answers"] == {"Which area?": "us-2"}
    keys = ("down", "down", "down", "down", *"-2", "enter", "enter")
    assert (await answer(batch(AREAS), keys, send)).content["answers"] == {"Which area?": "us-2"}


async def test_a_batch_s_filter_counts_the_options_it_shows() -> None:
    # It showed none: a filter matching nothing left an empty list and nothing else.
    asker = Asker(parse_request(batch(AREAS)))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot)
        await pilot.press(*"ap")
        await wait_for(pilot, lambda: "(3 of 12)" in screen_text(app))
        await pilot.press(*"zz")
        await wait_for(pilot, lambda: "(0 of 12)" in screen_text(app))
        await pilot.press("backspace", "backspace", "enter", "enter")
        await wait_for(pilot, lambda: bool(asker.results))
    assert asker.results[0].content["answers"] == {"Which area?": "ap-1"}


@SENDERS
async def test_a_digit_the_options_hold_is_typed_in_a_batch(send: Send) -> None:
    ports = {"question": "Which port?", "allow_other": False, "options": PORTS["options"]}
    result = await answer(batch(ports), (*"8011", "enter", "enter"), send)
    assert result.content["answers"] == {"Which port?": "8011"}
    # with "Other", it goes there as letters do: the free answer stays whole, on its question
    sign_in = {
        "question": "How do people sign in?",
        "options": [
            *("password", "passkey", "TOTP app", "SMS code", "email link"),
            *("OAuth 2", "SAML", "LDAP", "magic link", "U2F key"),
        ],
    }
    size = {"question": "Which size?", "options": ["small", "large"]}
    keys = (*"2 factor auth", "enter", "1", "enter")
    result = await answer(batch(sign_in, size), keys, send)
    assert result.content["answers"] == {
        "How do people sign in?": "2 factor auth",
        "Which size?": "small",
    }


@SENDERS
async def test_a_digit_picks_among_words_in_a_batch_by_a_number_on_screen(send: Send) -> None:
    greek = {"question": "Which letter?", "allow_other": False, "options": WORDS}
    result = await answer(batch(greek), ("3",), send)
    assert result.content["answers"] == {"Which letter?": "gamma"}
    # moved down to "phi": the first numbers scrolled away, the 3 does nothing
    result = await answer(batch(greek), (*["down"] * 20, "3", "enter"), send)
    assert result.content["answers"] == {"Which letter?": "phi"}


# -- a long checklist ------------------------------------------------------------------------


def checklist(options: list[str], **bounds: Any) -> dict[str, Any]:
    return {"kind": "multi_choice", "message": "Which ones?", "options": options, **bounds}


PACKAGES = checklist([f"pkg-{n:05}" for n in range(10_000)])


@SENDERS
async def test_a_long_checklist_filters_as_letters_and_digits_are_typed(send: Send) -> None:
    result = await answer(PACKAGES, (*"pkg-07777", "space", "enter"), send)
    assert result.content == ["pkg-07777"]
    # among words a digit ticks by the number on screen, in the filter's list too
    result = await answer(checklist(WORDS), ("3", *"ch", "1", "enter"), send)
    assert result.content == ["gamma", "chi"]


@SENDERS
async def test_what_a_checklist_ticks_stays_ticked_when_filtered_out(send: Send) -> None:
    keys = (*"07777", "space", "escape", *"00042", "space", "backspace", "space", "enter")
    result = await answer({**PACKAGES, "default": ["pkg-00001"]}, keys, send)
    # back to "0004", its first match is highlighted, pkg-00004: ticked too
    assert result.content == ["pkg-00001", "pkg-00004", "pkg-00042", "pkg-07777"]
    # nothing matches "zz": Enter answers all ticked
    keys = (*"omega", "space", *"zz", "enter")
    assert (await answer(checklist(WORDS), keys, send)).content == ["omega"]


@SENDERS
async def test_ctrl_a_ticks_what_a_long_checklist_shows(send: Send) -> None:
    result = await answer(checklist(WORDS), (*"eta", "ctrl+a", "enter"), send)
    assert result.content == ["beta", "zeta", "eta", "theta"]
    # a short one's `a` ticks all
    result = await answer(checklist(WORDS[:3]), ("a", "enter"), send)
    assert result.content == WORDS[:3]


async def test_a_long_checklist_counts_what_it_shows_and_what_is_ticked_out_of_view() -> None:
    asker = Asker(parse_request(checklist(WORDS, max_selected=2)))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot)
        await pilot.press(*"alpha", "space", "escape", *"beta", "space", "escape", *"gam")
        await pilot.press("space", *"ma", "enter")
        await wait_for(pilot, lambda: "at most 2" in error_line(modal))
        assert str(modal.query_one("#filter", Static).content) == "Filter: gamma  (1 of 24)"
        count = str(modal.query_one("#count", Static).content)
        assert count == "3 selected, 2 not shown · pick up to 2"
        # letters filter: Ctrl+A ticks all, not `a`
        assert "^a All/none" in footer(pilot).split("  ")
        assert "a All/none" not in footer(pilot).split("  ")
        await pilot.press("space", "enter")  # gamma unticked: 2 fit
        await wait_for(pilot, lambda: bool(asker.results))
    assert asker.results[0].content == ["alpha", "beta"]
