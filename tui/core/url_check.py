"""What a person should know about a web link before opening it: its real domain, and warnings.

`check_url` refuses what must not be opened (no scheme, not http/https, no domain) with a
message saying what is wrong, and reports the rest: the domain the browser will contact,
how it reads, and why to be wary (no TLS, an internationalised domain, a user name before
the domain). Nothing is fetched. Pure Python: nothing here imports Textual.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import urlsplit

__all__ = ["OPENABLE_SCHEMES", "LinkReport", "check_url"]

OPENABLE_SCHEMES = ("https", "http")
"""Links of other schemes (file:, javascript:, app handlers) are never opened."""

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):(?!\d)")
"""A scheme at the start; `host:8080` is a host and a port, not a scheme."""

_SHOWN_LETTERS = 4
"""How many unusual letters of a domain a warning names."""


@dataclass(frozen=True)
class LinkReport:
    """A link that may be opened, and what to tell the person about it."""

    url: str
    scheme: str
    domain: str
    """The host the browser contacts, in ASCII (punycode for an internationalised domain)."""
    shown_domain: str
    """The host as it reads (Unicode); the same as `domain` for a plain ASCII domain."""
    warnings: tuple[str, ...]
    """Sentences to show before the person decides, most important first; may be empty."""

    @property
    def internationalised(self) -> bool:
        """True for a domain with non-ASCII letters, written as such or as `xn--` punycode."""
        return self.domain != self.shown_domain or _has_punycode(self.domain)


def check_url(url: str) -> LinkReport:
    """The report on `url`; ValueError says why a link cannot be opened at all."""
    if not url:
        raise ValueError("url must not be empty")
    odd = next((c for c in url if c.isspace() or unicodedata.category(c) == "Cc"), None)
    if odd is not None:
        raise ValueError(f"url must not contain spaces or control characters (found {odd!r})")
    match = _SCHEME.match(url)
    if match is None:
        raise ValueError(f"url {url!r} has no scheme: write it in full, like https://{url}")
    scheme = match.group(1).lower()
    if scheme not in OPENABLE_SCHEMES:
        raise ValueError(f"url scheme {scheme!r} is not allowed: only http and https links open")
    parts = urlsplit(url)
    host = parts.hostname
    if not host:
        raise ValueError(f"url {url!r} has no domain after '{scheme}://'")
    try:
        parts.port  # noqa: B018 - reading it is what checks it
    except ValueError:
        raise ValueError(f"url {url!r} has an invalid port") from None
    domain, shown = _ascii_domain(host), _unicode_domain(host)
    warnings: list[str] = []
    if scheme != "https":
        warnings.append(
            "Not https: the page travels unencrypted, so others on the network "
            "can read or change it."
        )
    if domain != shown or _has_punycode(domain):
        warnings.append(_idn_warning(domain, shown))
    if "@" in parts.netloc:
        before = parts.netloc.rpartition("@")[0]
        warnings.append(f"The link puts {before!r} before an @, but it leads to {domain}.")
    return LinkReport(
        url=url, scheme=scheme, domain=domain, shown_domain=shown, warnings=(*warnings,)
    )


def _has_punycode(domain: str) -> bool:
    return any(label.startswith("xn--") for label in domain.split("."))


def _ascii_domain(host: str) -> str:
    if host.isascii():
        return host
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        # IDNA 2003 cannot spell every name; show it as it is rather than hide it
        return host


def _unicode_domain(host: str) -> str:
    labels = []
    for label in host.split("."):
        try:
            labels.append(
                label.encode("ascii").decode("idna") if label.startswith("xn--") else label
            )
        except UnicodeError:
            labels.append(label)
    return ".".join(labels)


def _idn_warning(domain: str, shown: str) -> str:
    unusual = list(dict.fromkeys(c for c in shown if not c.isascii()))
    named = ", ".join(
        f"{c} ({unicodedata.name(c, 'unnamed').lower()})" for c in unusual[:_SHOWN_LETTERS]
    )
    more = f" and {len(unusual) - _SHOWN_LETTERS} more" if len(unusual) > _SHOWN_LETTERS else ""
    letters = f" It contains {named}{more}." if named else ""
    return (
        f"Internationalised domain: {shown} is really {domain}; letters of other alphabets "
        f"can imitate a familiar name.{letters}"
    )
