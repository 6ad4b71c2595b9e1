"""Command line of the vision companion: `python -m vision read|score PHOTO --game GAME`.

Each command is one function taking its argparse sub-parser: it adds its
arguments and returns the function that runs it (returning the exit code).
A new command is one such function added to COMMANDS. The app's server is
its own package: `python -m server`.
"""

from __future__ import annotations

import argparse
import sys

from .cli import COMMANDS, Runner


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
