"""`elicit-tui secrets`: list and delete the keyring entries elicit-tui stored (never their values).

Exit status: 0 done, 1 no such entry (for `delete`), 2 the keyring or the index failed.
"""

from __future__ import annotations

import argparse
import sys

from tui.core.terminal_text import literal_line

# The keyring index (and pydantic, platformdirs) loads only when a subcommand runs: the parser
# of every `elicit-tui` command registers this one, `ask` and `hook` among them.

EXIT_NOT_FOUND = 1
EXIT_FAILED = 2


def add_secrets_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `secrets list` and `secrets delete SERVICE USERNAME` on the `elicit-tui` parser."""
    secrets = commands.add_parser(
        "secrets",
        help="list or delete the keyring entries elicit-tui stored (names only, never values)",
        description="Show or remove the secrets elicit-tui saved in the system keyring. "
        "Only names are shown; values never leave the keyring.",
        epilog="exit status: 0 done, 1 no such entry, 2 the keyring or the index failed",
    )
    actions = secrets.add_subparsers(dest="secrets_action", metavar="ACTION", required=True)
    listing = actions.add_parser(
        "list",
        help="show the stored entries, where their index lives and the keyring backend",
    )
    listing.set_defaults(handler=_list)
    delete = actions.add_parser(
        "delete",
        help="remove an entry from the keyring and from elicit-tui's index",
        description="Remove SERVICE/USERNAME from the keyring and from elicit-tui's index. "
        "Entries elicit-tui did not store are left alone unless --force is given.",
    )
    delete.add_argument("service", metavar="SERVICE")
    delete.add_argument("username", metavar="USERNAME")
    delete.add_argument(
        "--force",
        action="store_true",
        help="delete the keyring entry even if elicit-tui's index does not list it",
    )
    delete.set_defaults(handler=_delete)


def backend_name() -> str:
    """The keyring backend in use, as `module.Class` (with what a chainer chains)."""
    import keyring  # loads its backends' entry points: only for the `secrets` command
    from keyring.backends.chainer import ChainerBackend

    try:
        backend = keyring.get_keyring()
    except Exception as exc:  # PYTHON_KEYRING_BACKEND or keyringrc.cfg names a broken backend
        return f"none: it could not be loaded ({type(exc).__name__}: {exc})"
    name = f"{type(backend).__module__}.{type(backend).__qualname__}"
    if isinstance(backend, ChainerBackend) and backend.backends:
        chained = ", ".join(
            f"{type(b).__module__}.{type(b).__qualname__}" for b in backend.backends
        )
        return f"{name} ({chained})"
    return name


def _list(args: argparse.Namespace) -> int:
    from tui.secrets.keyring_store import KeyringError, index_path, keyring_status, list_stored

    print(f"Keyring backend: {backend_name()}")
    print(f"Index: {index_path()}")
    status = keyring_status()
    if status is not None:
        print(f"Warning: {status}", file=sys.stderr)
    try:
        entries = list_stored()
    except KeyringError as error:
        print(f"elicit-tui secrets: {literal_line(str(error))}", file=sys.stderr)
        return EXIT_FAILED
    if not entries:
        print("No keyring entries stored by elicit-tui.")
        return 0
    rows = [("SERVICE", "USERNAME", "STORED")]
    rows += [
        (
            literal_line(e.service),
            literal_line(e.username),
            e.stored_at.astimezone().strftime("%Y-%m-%d %H:%M"),
        )
        for e in entries
    ]
    service_width = max(len(row[0]) for row in rows)
    username_width = max(len(row[1]) for row in rows)
    print()
    for service, username, stored in rows:
        print(f"{service:<{service_width}}  {username:<{username_width}}  {stored}")
    return 0


def _delete(args: argparse.Namespace) -> int:
    from tui.secrets.keyring_store import KeyringError, delete_stored, index_path, list_stored

    name = literal_line(f"{args.service}/{args.username}")
    try:
        listed = any(
            (e.service, e.username) == (args.service, args.username) for e in list_stored()
        )
        if not listed and not args.force:
            print(
                f"elicit-tui did not store a keyring entry {name} (its index, {index_path()}, "
                "does not list it); nothing deleted. Use --force to delete it anyway.",
                file=sys.stderr,
            )
            return EXIT_NOT_FOUND
        existed = delete_stored(args.service, args.username)
    except KeyringError as error:
        print(f"elicit-tui secrets: {literal_line(str(error))}", file=sys.stderr)
        return EXIT_FAILED
    if not existed:
        print(f"No keyring entry {name}; nothing deleted.", file=sys.stderr)
        return EXIT_NOT_FOUND
    print(f"Deleted keyring entry {name}.")
    return 0
