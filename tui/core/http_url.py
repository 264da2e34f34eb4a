"""The check every client makes of a server URL it is given, before connecting or showing anything."""

from __future__ import annotations

from urllib.parse import SplitResult, urlsplit


def http_url_parts(url: str) -> SplitResult:
    """`url` split into its parts; raises ValueError naming it unless it is an http(s) URL
    with a host and a port in range, and no space or control character, so that no client
    starts with a URL no connection can be made from; or, not naming it, if it holds a user
    or a password, which error messages would then show."""
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 -- reading it checks it: a port out of range raises
    except ValueError as error:
        raise ValueError(f"not an http(s) URL: {url!r} ({error})") from None
    if parts.username is not None or parts.password is not None:
        # Not quoted: it holds a credential, and an error message may end up in a log.
        raise ValueError(
            "the URL holds a user or a password (user:password@): leave it out; an inbox's "
            "token goes with --token or ELICIT_TUI_TOKEN"
        )
    if parts.scheme not in ("http", "https") or not parts.hostname or not one_word(url.strip()):
        raise ValueError(f"not an http(s) URL: {url!r}")
    try:
        parts.hostname.encode("idna")
    except UnicodeError:
        raise ValueError(
            f"not an http(s) URL: {url!r} (its host is no name DNS can look up)"
        ) from None
    return parts


def one_word(text: str) -> bool:
    """No space nor control character in `text` (HTTP sends a URL's path as it is)."""
    return text.isprintable() and not any(c.isspace() for c in text)
