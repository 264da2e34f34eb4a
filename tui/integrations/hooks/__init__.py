"""Permission hooks of coding-agent CLIs: their hook JSON in, a tool approval asked, their verdict out.

`flow` holds what every CLI shares (the approval built from a call, the answer turned into a
verdict, nothing decided on any fault); `claude_code`, `codex` and `gemini` each read and
write one CLI's documented hook format.
"""
