"""The set-up screen's words for the engine's rule options, by the option's name.

The engine declares each option once (name, type, range, an English help line) for the
CLI, the set-up screen and record loading alike; the page shows its own label, help and
choice words for it, through the catalog of the language in use. An option the page has
no words for yet shows its name and the engine's help (tests/test_i18n.py lists them).
"""

from __future__ import annotations

from typing import Any

from .i18n import N_, _

OPTION_WORDS: dict[str, tuple[str, str]] = {  # option name → (label, help)
    # three stones
    "mode": (
        N_("Mode"),
        N_(
            "pouch: draw a random stone and play it; pure skill: each side holds 15 white, 15 black, 6 clear and chooses"
        ),
    ),
    "first_player": (N_("First player"), N_("which side plays the first stone")),
    "handicap_white": (N_("Handicap white"), N_("points white starts with (handicap)")),
    "handicap_black": (N_("Handicap black"), N_("points black starts with (handicap)")),
    "clock_white_minutes": (
        N_("Clock white (minutes)"),
        N_("chess clock for white in minutes, 0 = no clock (suggested: 30 pouch, 60 pure skill)"),
    ),
    "clock_black_minutes": (N_("Clock black (minutes)"), N_("chess clock for black in minutes, 0 = no clock")),
    # morris
    "mill_protection": (
        N_("Mill protection"),
        N_("men in a closed mill may not be taken unless all the opponent's men are in mills"),
    ),
    "flying": (N_("Flying"), N_("a player with exactly three men, none in hand, may jump to any empty point")),
    "repetition_draw": (
        N_("Repetition draw"),
        N_("the same position (board, side to move, men in hand) a third time is a draw"),
    ),
    "no_removal_draw": (
        N_("No removal draw"),
        N_(
            "draw after this many moves by each player without a man taken, counted once both hands are empty (0 = off)"
        ),
    ),
    # rings, sage stones, triple domino
    "players": (N_("Players"), N_("number of players, seated clockwise; the first seat starts")),
    "colours": (
        N_("Colours"),
        N_("the players' colours in turn order, comma separated (the first moves first); empty = the usual colours"),
    ),
    "converting_pass_counts": (
        N_("Converting pass counts"),
        N_(
            "a pass that converts circles still counts towards the run of passes that ends the game "
            "(off: only a pass with no conversion counts)"
        ),
    ),
    "random_first": (
        N_("Random first"),
        N_("the first player is drawn at random; off: the first colour listed moves first"),
    ),
    "two_colours": (
        N_("Two colours"),
        N_("with 2 players each plays two colours (4 seats), as the rule book advises; ignored with more players"),
    ),
    "stones_per_colour": (N_("Stones per colour"), N_("stones of each colour; a seat that has placed them all wins")),
    "wrap_diagonals": (
        N_("Wrap diagonals"),
        N_("diagonal lines wrap between row 9 and row 1 like vertical lines (columns never wrap)"),
    ),
    "after_wipe": (
        N_("After a wipe"),
        N_(
            "who rolls after the board is wiped: the next seat (the turn just ends) or the first seat (the game starts over)"
        ),
    ),
    "play_for_places": (
        N_("Play for places"),
        N_("the family variant: after the winner, play on for second place, third and so on (3 or more players)"),
    ),
    "target_score": (N_("Target score"), N_("the game ends after the round in which someone reaches this score")),
    "hexagon_bonus": (
        N_("Hexagon bonus"),
        N_("bonus for closing a hexagon (40 in every bonus table, 50 in the prose)"),
    ),
    "empty_pool_penalty": (
        N_("Empty pool penalty"),
        N_("penalty for having to draw from an empty pool (the German text says 10)"),
    ),
    "lay_after_draw": (
        N_("Lay after a draw"),
        N_(
            "after drawing, which tiles may be laid: the tile just drawn, any tile drawn this turn, or any tile in hand"
        ),
    ),
    "multi_hexagon": (N_("Several hexagons"), N_("a tile closing two hexagons scores the bonus for each, or once")),
    "blocked_tie": (N_("Blocked tie"), N_("blocked round with several lowest hands: all of them score, or none")),
    "solitaire_hand_size": (N_("Solitaire hand size"), N_("tiles in the solitaire hand")),
    "solitaire_draw_limit": (
        N_("Solitaire draw limit"),
        N_("draws allowed in a whole solitaire game (0 = no limit)"),
    ),
}

CHOICE_WORDS: dict[str, str] = {  # a choice's value (the engine's word) → the words shown for it
    "pouch": N_("pouch"),
    "pure-skill": N_("pure skill"),
    "white": N_("white"),
    "black": N_("black"),
    "next-seat": N_("next seat"),
    "first-seat": N_("first seat"),
    "last": N_("the tile just drawn"),
    "drawn": N_("any tile drawn this turn"),
    "any": N_("any tile in hand"),
    "each": N_("each hexagon"),
    "once": N_("once"),
    "all": N_("all of them"),
    "none": N_("none"),
}


def option_label(name: str) -> str:
    """An option's label: the page's words, else its name as words ("no_removal_draw" → "No removal draw")."""
    if name in OPTION_WORDS:
        return _(OPTION_WORDS[name][0])
    return name.replace("_", " ").capitalize()


def option_help(name: str, english: str) -> str:
    """An option's help line: the page's words, else the engine's (`english`)."""
    return _(OPTION_WORDS[name][1]) if name in OPTION_WORDS else english


def option_choice(value: Any) -> str:
    """A choice as shown (its value stays the engine's word: what the form sends)."""
    text = str(value)
    return _(CHOICE_WORDS[text]) if text in CHOICE_WORDS else text
