"""The page's words for the engine's codes: why a game ended and why an action was refused.

The page decides by the code (`Outcome.termination`, an error's `rule`), never by reading
the engine's sentences, and says the result in a player's words. The engine's own
sentence still follows a refusal: it names the square, the stone, the rule's detail.
"""

from __future__ import annotations

from typing import Any

from engine import Outcome, StonesError, Termination
from engine.core import FLAG_FALLEN

ENDINGS: dict[Termination, str] = {  # {loser}: the one player who did not win (the others won)
    Termination.TIME_FORFEIT: "{loser} ran out of time",
    Termination.BOARD_FILLED: "the last stone is played",
    Termination.DOWN_TO_TWO: "{loser} is down to two men",
    Termination.BLOCKED: "{loser} is blocked and cannot move",
    Termination.THREEFOLD_REPETITION: "the same position came up a third time",
    Termination.NO_REMOVAL_LIMIT: "too many moves without a man taken",
    Termination.ALL_PASSED: "every player passed in turn",
    Termination.LAST_STONE_PLACED: "the last stone is placed",
    Termination.TARGET_SCORE: "the target score is reached",
    Termination.SOLITAIRE_OVER: "no tile can be laid or drawn",
}

REFUSALS: dict[str, str] = {  # an error's rule → the page's first words, where "Not allowed" would mislead
    "turn": "Not your turn",
    "ai": "The computer could not answer",
}
REFUSED = "Not allowed"  # the first words for any other rule: the engine's reason says the rest


def name_of(player: str) -> str:
    return player.capitalize()


def loser_of(outcome: Outcome) -> str:
    """The one player who did not win (a flag, a blocked side), or "" when that is not one player."""
    losers = [player for player in outcome.scores if player not in outcome.winners]
    return losers[0] if len(losers) == 1 and outcome.winners else ""


def ending(outcome: Outcome) -> str:
    """ "White ran out of time: Black wins." — why the game ended, from its termination, and who won."""
    why = ENDINGS[outcome.termination].format(loser=name_of(loser_of(outcome)) or "a player")
    if outcome.winner is not None:
        result = f"{name_of(outcome.winner)} wins"
    elif outcome.winners:
        result = " and ".join(name_of(p) for p in outcome.winners) + " share the win"
    else:
        result = "a draw"
    places = f" Places: {', '.join(name_of(p) for p in outcome.places)}." if outcome.places else ""
    return f"{why[0].upper()}{why[1:]}: {result}.{places}"


def refusal(error: StonesError) -> str:
    """A refused action in words: the rule's words first, then the engine's reason."""
    rule: Any = getattr(error, "rule", None)
    return f"{REFUSALS.get(rule, REFUSED)}: {error}"


def flag_fell(error: StonesError) -> bool:
    """The engine refused a move because its player's time ran out (the page then plays `time`)."""
    return getattr(error, "rule", None) == FLAG_FALLEN
