"""The page's words for the engine's codes: why a game ended and why an action was refused.

The page decides by the code (`Outcome.termination`, an error's `rule`), never by reading
the engine's sentences, and says the result in a player's words, in the language in use.
In English the engine's own sentence follows a refusal: it names the square, the stone,
the rule's detail. In another language the rule's words stand alone (the engine's
sentences are English, and a refusal half in English helps nobody at the table).
"""

from __future__ import annotations

from typing import Any

from engine import Outcome, StonesError, Termination
from engine.core import FLAG_FALLEN

from .i18n import DEFAULT, N_, _, language

ENDINGS: dict[Termination, str] = {  # {loser}: the one player who did not win (the others won)
    Termination.TIME_FORFEIT: N_("{loser} ran out of time"),
    Termination.BOARD_FILLED: N_("the last stone is played"),
    Termination.DOWN_TO_TWO: N_("{loser} is down to two men"),
    Termination.BLOCKED: N_("{loser} is blocked and cannot move"),
    Termination.THREEFOLD_REPETITION: N_("the same position came up a third time"),
    Termination.NO_REMOVAL_LIMIT: N_("too many moves without a man taken"),
    Termination.ALL_PASSED: N_("every player passed in turn"),
    Termination.LAST_STONE_PLACED: N_("the last stone is placed"),
    Termination.TARGET_SCORE: N_("the target score is reached"),
    Termination.SOLITAIRE_OVER: N_("no tile can be laid or drawn"),
}

REFUSALS: dict[str, str] = {  # an error's rule → the page's first words, where "Not allowed" would mislead
    "turn": N_("Not your turn"),
    "ai": N_("The computer could not answer"),
}
REFUSED = N_("Not allowed")  # the first words for any other rule: the engine's reason says the rest

RULE_WORDS: dict[str, str] = {  # an error's rule → the reason in a player's words (any language but English)
    # moves and turns, every game
    "notation": N_("That is not a move in this game."),
    "legal move": N_("That move is not allowed here."),
    "game over": N_("The game is over: start a new one or undo."),
    "turn": N_("It is not your turn."),
    "view": N_("You are looking at an earlier position: go back to the game to play."),
    "undo": N_("There is no move of yours to undo."),
    "redo": N_("There is nothing to redo."),
    "hint": N_("A hint is for the person whose turn it is, in the live game."),
    "ai": N_("The computer player could not find a move."),
    "stale": N_("The game has moved on since the computer started thinking."),
    "clock": N_("This game has no clock, or the time given is not a number of seconds."),
    "flag fallen": N_("Your time ran out."),
    "chance": N_("Nothing is being drawn or dealt now."),
    "occupied": N_("That place is taken."),
    "own piece": N_("First pick one of your own pieces."),
    "player": N_("There is no such player in this game."),
    "players": N_("This game is not for that many players."),
    "hand": N_("That is not in your hand."),
    "draw": N_("Draw first, or play what you drew."),
    # morris
    "placing phase": N_("Place all your men before you move one."),
    "moving phase": N_("All your men are placed: move one along a line."),
    "adjacent": N_("A man moves along a line to the next point (only three men left may fly)."),
    "must remove": N_("This closes a mill: take one of your opponent's men."),
    "remove opponent": N_("Take one of your opponent's men, not your own."),
    "mill protection": N_("That man stands in a mill and is protected."),
    "blocked man": N_("That man cannot move: every point next to it is taken."),
    "two pieces": N_("Both sides are down to two men: no game reaches this."),
    "nine pieces": N_("Each side has nine men, no more."),
    "no mill": N_("A man can only be taken after closing a mill."),
    # rings
    "partial circle": N_("The part circles at the edge never convert."),
    "converted twice": N_("That circle is already converted this turn."),
    "majority": N_("Your influence on that circle is not enough to convert it."),
    "nothing to convert": N_("There is no circle to convert."),
    "ring": N_("Play in the same row or column as the last stone (the ring)."),
    # sage stones
    "dice": N_("Roll the dice first, or play the column they show."),
    "lost turn": N_("A roll of 1-2-3 loses the turn: pass."),
    "wipe": N_("The board is wiped only when the rolled column and column 6 are both full."),
    "column": N_("Place the stone in the column the dice show."),
    "stones per colour": N_("More stones than a colour has."),
    "finished": N_("That player has placed every stone and has finished."),
    "last stone": N_("The game ends when a colour's last stone is placed."),
    # three stones
    "pouch": N_("Play the stone you drew from the pouch."),
    "board": N_("That is not a pocket: the centre and the corners stay empty."),
    "stone set": N_("More stones than the set holds."),
    # triple domino
    "pool": N_("That tile is not in the pool."),
    "deal": N_("The tiles are dealt only at the start of a round."),
    "start": N_("The round opens with the highest triple, in the middle."),
    "three draws": N_("You have drawn three tiles: lay the last one if it fits, or pass."),
    "empty pool": N_("The pool is empty: pass."),
    "draw limit": N_("No draws are left in this solitaire game."),
    "pass": N_("Lay a tile or draw before you pass."),
    "must lay": N_("The pool is empty and a tile fits: lay it."),
    "after draw": N_("After drawing you may lay only the tile just drawn."),
    "contact": N_("A tile must share a whole edge with a laid tile."),
    "match": N_("Both numbers of a shared edge must match."),
    "corner": N_("Every corner that touches a laid tile must match."),
    # options, records and positions
    "option": N_("That option does not exist in this game."),
    "option type": N_("An option has a value of the wrong kind."),
    "choice": N_("Choose one of the values offered."),
    "minimum": N_("A number is below the smallest allowed."),
    "maximum": N_("A number is above the largest allowed."),
    "colour": N_("A colour is not one of the stone colours, or is listed twice."),
    "colour count": N_("List one colour for each player."),
    "clock pair": N_("Give both sides a clock or neither."),
    "think": N_("The computer's time per move is a number of seconds from 0.1 to 30."),
    "seed": N_("The seed is a whole number."),
    "record": N_("The file is not a game record of this app, or it does not replay."),
    "position": N_("The position is not one this game can have."),
    "decided": N_("This position is already decided: the game is over."),
}


PLAYER_NAMES = {  # the engine's player names (colours, seats) → the words shown for them
    "white": N_("white"),
    "black": N_("black"),
    "red": N_("red"),
    "blue": N_("blue"),
    "green": N_("green"),
    "yellow": N_("yellow"),
    "orange": N_("orange"),
    "purple": N_("purple"),
    "clear": N_("clear"),  # a stone colour (three stones), never a player
}


def colour_word(player: str) -> str:
    """A player's colour (or seat) as a word in the language in use: "black", "schwarz"."""
    return _(PLAYER_NAMES.get(player, player))


def name_of(player: str) -> str:
    """A player's name as the page shows it: the colour (or seat), capitalised, in the language in use."""
    return capitalised(colour_word(player))


def capitalised(text: str) -> str:
    """`text` with its first letter upper case and the rest as it is ("Steine auf dem Brett", not "brett")."""
    return text[:1].upper() + text[1:]


def loser_of(outcome: Outcome) -> str:
    """The one player who did not win (a flag, a blocked side), or "" when that is not one player."""
    losers = [player for player in outcome.scores if player not in outcome.winners]
    return losers[0] if len(losers) == 1 and outcome.winners else ""


def ending(outcome: Outcome) -> str:
    """ "White ran out of time: Black wins." — why the game ended, from its termination, and who won."""
    loser = loser_of(outcome)
    why = _(ENDINGS[outcome.termination]).format(loser=name_of(loser) if loser else _("a player"))
    if outcome.winner is not None:
        result = _("{player} wins").format(player=name_of(outcome.winner))
    elif outcome.winners:
        names = [name_of(p) for p in outcome.winners]
        together = _("{players} and {last}").format(players=", ".join(names[:-1]), last=names[-1])
        result = _("{players} share the win").format(players=together)
    else:
        result = _("a draw")
    places = ""
    if outcome.places:
        places = " " + _("Places: {players}.").format(players=", ".join(name_of(p) for p in outcome.places))
    return f"{capitalised(why)}: {result}.{places}"


def reason(error: StonesError) -> str:
    """Why the engine (or the page) refused, in the language in use: its own sentence in English, else the
    words for its rule code."""
    rule: Any = getattr(error, "rule", None)
    if language() == DEFAULT or rule not in RULE_WORDS:
        return str(error)
    return _(RULE_WORDS[rule])


def refusal(error: StonesError) -> str:
    """A refused action in words: the rule's words first, then the reason."""
    rule: Any = getattr(error, "rule", None)
    return f"{_(REFUSALS.get(rule, REFUSED))}: {reason(error)}"


def flag_fell(error: StonesError) -> bool:
    """The engine refused a move because its player's time ran out (the page then plays `time`)."""
    return getattr(error, "rule", None) == FLAG_FALLEN
