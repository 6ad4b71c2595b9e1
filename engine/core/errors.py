"""The engine's error types: every refusal is one of these, never a bare exception.

Each carries a one-line message meant for a person, so the CLI, the web page and
the vision companion can show it as it is.
"""

from __future__ import annotations


class StonesError(Exception):
    """Base of every error the engine raises on purpose."""


class IllegalMoveError(StonesError, ValueError):
    """A move that is malformed or breaks a rule; `rule` names the rule broken."""

    def __init__(self, message: str, rule: str = "notation") -> None:
        super().__init__(message)
        self.rule = rule


class OptionError(StonesError, ValueError):
    """A rule option that does not exist or has a value outside its range."""


class PositionError(StonesError, ValueError):
    """A position JSON that does not describe a possible board of its game."""


class RecordError(StonesError, ValueError):
    """A game record that is corrupt, of another format, or does not replay."""
