"""`python -m server [--lan] [--port N] [--dist DIR]`: serve the built app and the photo API."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .serve import DEFAULT_PORT, serve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m server", description="Serve the built Stones web app and the photo API over HTTP"
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT})")
    parser.add_argument(
        "--lan",
        action="store_true",
        help="also listen on this machine's network addresses (and print them) so phones can connect",
    )
    parser.add_argument("--dist", type=Path, default=Path("dist"), help="the built web app (default: dist)")
    args = parser.parse_args(argv)
    try:
        serve(args.dist, port=args.port, lan=args.lan)
    except FileNotFoundError as exc:
        print(f"server: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
