"""Command line of the vision companion: `python -m vision COMMAND ...`.

Each command is one function taking its argparse sub-parser: it adds its
arguments and returns the function that runs it (returning the exit code).
A new command (read, score) is one such function added to COMMANDS.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable

Runner = Callable[[argparse.Namespace], int]


def server_command(parser: argparse.ArgumentParser) -> Runner:
    from .server import DEFAULT_PORT

    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT})")
    parser.add_argument("--lan", action="store_true",
                        help="listen on every interface (0.0.0.0) so phones on this network can connect")
    parser.add_argument("--dist", type=Path, default=Path("dist"), help="the built web app (default: dist)")

    def run(args: argparse.Namespace) -> int:
        from .server import serve
        try:
            serve(args.dist, port=args.port, lan=args.lan, api_routes=api_routes())
        except FileNotFoundError as exc:
            print(f"vision server: {exc}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            pass
        return 0

    return run


def api_routes() -> list:
    """The photo API (POST /api/read) when its dependencies are installed; the app is served either way."""
    try:
        from .api import routes
    except ImportError as exc:
        print(f"vision server: photo API unavailable ({exc}); serving the app only", file=sys.stderr)
        return []
    return list(routes)


COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], Runner]]] = {
    "server": ("serve the built web app (and the photo API) over HTTP", server_command),
}

from .cli import COMMANDS as PHOTO_COMMANDS  # noqa: E402  read, score (OpenCV is imported when they run)

COMMANDS.update(PHOTO_COMMANDS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision", description="Stones vision companion")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    runners: dict[str, Runner] = {}
    for name, (help_text, build) in COMMANDS.items():
        runners[name] = build(commands.add_parser(name, help=help_text, description=help_text))
    args = parser.parse_args(argv)
    return runners[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
