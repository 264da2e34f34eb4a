"""Snapshots of the url modal: a plain https link, and a punycode domain on http with warnings."""

from __future__ import annotations

from typing import Any

from snapshot_app import modal_app

from tui.core.models import UrlRequest


class TestUrlModal:
    def test_https_link(self, snap_compare: Any) -> None:
        request = UrlRequest(
            message="Sign in to GitHub so the server can open pull requests for you.",
            url="https://github.com/login/oauth/authorize?client_id=Iv1.8a61f9b3a7aba766&scope=repo&state=5f2e0c7a9d",
            source="mcp-elicit-example",
        )
        app, ready = modal_app(request)
        assert snap_compare(app, run_before=ready)

    def test_punycode_domain_on_http_warns(self, snap_compare: Any) -> None:
        request = UrlRequest(
            message="Pay the open invoice to continue.",
            url="http://xn--pple-43d.com/billing/pay?invoice=12345",
            source="shady-server",
        )
        app, ready = modal_app(request)
        assert snap_compare(app, run_before=ready)
