"""The games the home screen lists (id, title, one-line summary, a picture of the board) without importing their rules.

Importing all five game modules to describe them cost about 0.3 s of the page's
start in the browser, for a screen that shows only names. So build.py writes
the list as `catalogue.json` beside this module (made from the same engine in
the same build), with each game's picture drawn by its own board module
(`boards.thumbnail`); the page reads that and imports a game's module only when
the game is set up or played. Without the file (the tests, a source checkout)
the list is made from the engine and the boards directly, the same way.

The engine names and sums up each game in English; the page shows its own words for
them, by the game's id, through the catalog of the language in use.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .i18n import N_, _

CATALOGUE = Path(__file__).with_name("catalogue.json")
GAME_WORDS = {  # a game's id → its name and its card's one line, as the page says them
    "three-stones": (
        N_("Three Stones"),
        N_(
            "Draw a stone from the pouch (or choose one in pure skill) and play it in an empty pocket in the same "
            "row or column as the last stone played (the ring); if there is none, anywhere."
        ),
    ),
    "morris": (
        N_("Nine Men's Morris"),
        N_(
            "Place your nine pieces, then move them along the lines: three in a row on a line (a mill) takes one "
            "of the opponent's pieces."
        ),
    ),
    "rings": (
        N_("Rings"),
        N_(
            "On your turn place a stone on an empty point, where three circles meet (or pass), then convert as "
            "many circles as you like, one after another."
        ),
    ),
    "sage-stones": (
        N_("Sage Stones"),
        N_(
            "Roll three dice with faces 1-3; the sum (3-9) is the column where you place a stone of your colour, "
            "in any empty pocket."
        ),
    ),
    "triple-domino": (
        N_("Triple Domino"),
        N_("Lay triangular tiles so that both numbers of every shared edge and every touching corner match."),
    ),
}


def title_of(game_id: str) -> str:
    return game_id.replace("-", " ").title()


def game_title(game_id: str, english: str = "") -> str:
    """A game's name in the language in use (a game the page has no words for: the engine's, or its id)."""
    return _(GAME_WORDS[game_id][0]) if game_id in GAME_WORDS else english or title_of(game_id)


def game_summary(game_id: str, english: str = "") -> str:
    """A game's one line in the language in use (a game the page has no words for: the engine's)."""
    return _(GAME_WORDS[game_id][1]) if game_id in GAME_WORDS else english


def summary_of(rules: str) -> str:
    """The rules' first sentence: one line for the game's card."""
    return rules.split(". ")[0].rstrip(".") + "." if rules else ""


def describe_games() -> list[dict[str, Any]]:
    """Every game as the engine describes it; one whose module fails to import is 'coming soon'."""
    from boards.thumbnail import sample_state, thumbnail  # only without the built catalogue, like the engine
    from engine import GAME_IDS, get_game  # only without the built catalogue: the page's start imports no engine

    out = []
    for game_id in GAME_IDS:
        try:
            game = get_game(game_id)
            info = game.describe()
            out.append(
                {
                    "id": game_id,
                    "title": info["title"],
                    "summary": summary_of(info["rules"]),
                    "ready": True,
                    "picture": thumbnail(sample_state(game)),
                }
            )
        except Exception as exc:  # a module being written must not take the page down
            out.append(
                {
                    "id": game_id,
                    "title": title_of(game_id),
                    "summary": "",
                    "ready": False,
                    "why": f"{type(exc).__name__}: {exc}",
                }
            )
    return out


def catalogue_json() -> str:
    """What build.py writes as catalogue.json."""
    return json.dumps(describe_games(), indent=1, ensure_ascii=False) + "\n"


def games() -> list[dict[str, Any]]:
    """The home screen's list: the built catalogue when there is one, else described now."""
    if CATALOGUE.exists():
        return json.loads(CATALOGUE.read_text(encoding="utf-8"))
    return describe_games()
