"""`run_hook` driven from a plain test: the inbox stood in for by a function."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from tui.core.models import ElicitationResult, Request
from tui.integrations.hooks.flow import HookFormat, HookRun, run_hook


def run_hook_answering(
    hook: HookFormat, stdin: str, answer: Callable[[Request], ElicitationResult], *, wait: float
) -> HookRun:
    """`run_hook` on `stdin`, each request answered by `answer` (which may raise, as an
    inbox that cannot be reached does)."""

    async def ask(request: Request) -> ElicitationResult:
        return answer(request)

    return asyncio.run(run_hook(hook, stdin, ask, wait=wait))
