"""The engine's error types: every refusal is one of these, never a bare exception.

Each carries a one-line message meant for a person, so the CLI, the web page and
the vision companion can show it as it is, and a `rule`: a short code a program reads
(the web page says the reason in its own words, in the player's language, by the code).
"""

from __future__ import annotations

import reprlib
from typing import Any


class StonesError(Exception):
    """Base of every error the engine raises on purpose."""


class IllegalMoveError(StonesError, ValueError):
    """A move that is malformed or breaks a rule; `rule` names the rule broken."""

    def __init__(self, message: str, rule: str = "notation") -> None:
        super().__init__(message)
        self.rule = rule


class OptionError(StonesError, ValueError):
    """A rule option that does not exist or has a value outside its range; `rule` names what is wrong
    ("option", "option type", "choice", "minimum", "maximum", or a game's own check)."""

    def __init__(self, message: str, rule: str = "option") -> None:
        super().__init__(message)
        self.rule = rule


class PositionError(StonesError, ValueError):
    """A position JSON that is malformed: a field missing, of the wrong type or naming what is not there."""

    def __init__(self, message: str, rule: str = "position") -> None:
        super().__init__(message)
        self.rule = rule


class UnreachablePositionError(PositionError):
    """A well-formed position that no game under its rules reaches (more stones than the set holds,
    two winners at once, ...); `rule` names the rule it breaks, as `IllegalMoveError.rule` does."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message, rule)


class RecordError(StonesError, ValueError):
    """A game record that is corrupt, of another format, or does not replay."""

    def __init__(self, message: str, rule: str = "record") -> None:
        super().__init__(message)
        self.rule = rule


_QUOTED = reprlib.Repr()
_QUOTED.maxlevel = 2  # a 100,000-deep list is quoted as [[...]], never walked
_QUOTED.maxstring = 60  # a message stays one short line whatever the input holds (a move's text fits)
_QUOTED.maxother = 60
_QUOTED.maxlist = _QUOTED.maxtuple = _QUOTED.maxdict = _QUOTED.maxset = 4


def shown(value: Any) -> str:
    """A value from outside (a file, a request) quoted in an error message: short, one line, any depth."""
    try:
        return _QUOTED.repr(value)
    except ValueError:  # an integer past Python's 4,300-digit limit for text
        return f"<a {type(value).__name__} too long to show>"
