"""`python -m vision read|score PHOTO --game GAME [--debug OUT.png]` (SPEC section 5).

Wiring into an argparse CLI is one line: `vision.cli.add_commands(subparsers)`.
JSON goes to stdout; on failure a one-line reason goes to stderr and the exit code is
non-zero (2: bad input or unreadable photo, 3: no/wrong board, 4: other trouble).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable

from .errors import VisionError

Runner = Callable[[argparse.Namespace], int]

GAMES = ("three-stones", "morris", "rings", "sage-stones")
EXIT_CODES = {"no_board": 3, "wrong_game": 3, "too_small": 2, "too_dark": 2}


def _fail(reason: str, code: int) -> int:
    print(f"error: {reason}", file=sys.stderr)
    return code


def debug_path_problem(path: Path) -> str | None:
    """Why `--debug PATH` cannot be written (checked before the photo is read), or None."""
    import cv2

    if path.is_dir():
        return f"--debug {path} is a folder: give the image file to write, such as seen.png"
    if not cv2.haveImageWriter(str(path)):
        return f"--debug {path}: the name must end in an image type to write, such as .png or .jpg"
    if not path.parent.is_dir():
        return f"--debug {path}: the folder {path.parent} does not exist"
    return None


def _run(args, with_score: bool) -> int:
    from .pipeline import debug_image, read_board

    if getattr(args, "debug", None):
        problem = debug_path_problem(args.debug)
        if problem:
            return _fail(problem, 2)
    try:
        reading = read_board(args.photo, args.game)
        out = reading.position()
        if with_score:
            from engine import StonesError, score_position

            try:
                out["score"] = score_position({"game": reading.game, "cells": reading.cells})
            except StonesError as exc:  # no game reaches this board (a stone misread?): the reading stands
                out["score"], out["score_refused"] = None, str(exc)
        if getattr(args, "debug", None):
            import cv2

            ok = cv2.imwrite(str(args.debug), debug_image(reading))
            if not ok:
                return _fail(f"could not write debug image {args.debug}", 4)
    except VisionError as exc:
        return _fail(str(exc), EXIT_CODES.get(exc.code, 2))
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except Exception as exc:  # never a traceback on the CLI
        return _fail(f"internal error: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}", 4)
    out["seconds"] = round(reading.seconds, 3)
    json.dump(out, sys.stdout, indent=1 if getattr(args, "pretty", False) else None)
    sys.stdout.write("\n")
    return 0


def read_command(args) -> int:
    return _run(args, with_score=False)


def score_command(args) -> int:
    return _run(args, with_score=True)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("photo", type=Path, help="JPEG, PNG or WebP photo of the board")
    p.add_argument("--game", required=True, choices=GAMES)
    p.add_argument(
        "--debug",
        type=Path,
        metavar="OUT.png",
        help="write the photo with the found outline and every location's reading",
    )
    p.add_argument("--pretty", action="store_true", help="indent the JSON")


def add_commands(subparsers) -> None:
    """Add `read` and `score` to an argparse subparsers object (sets `func`)."""
    p = subparsers.add_parser("read", help="read a board photo into a position (JSON)")
    _common(p)
    p.set_defaults(func=read_command)
    p = subparsers.add_parser("score", help="read a board photo and score the position (JSON)")
    _common(p)
    p.set_defaults(func=score_command)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision")
    sub = ap.add_subparsers(dest="command", required=True)
    add_commands(sub)
    args = ap.parse_args(argv)
    return args.func(args)


# ---- the shape `python -m vision`'s COMMANDS table uses: name -> (help, builder(parser) -> runner)


def _read_builder(parser: argparse.ArgumentParser) -> Runner:
    _common(parser)
    return read_command


def _score_builder(parser: argparse.ArgumentParser) -> Runner:
    _common(parser)
    return score_command


COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], Runner]]] = {
    "read": ("read a board photo into a position (JSON on stdout)", _read_builder),
    "score": ("read a board photo and add the engine's score (JSON on stdout)", _score_builder),
}
