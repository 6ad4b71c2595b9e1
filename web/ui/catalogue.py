"""The games the home screen lists (id, title, one-line summary, a picture of the board) without importing their rules.

Importing all five game modules to describe them cost about 0.3 s of the page's
start in the browser, for a screen that shows only names. So build.py writes
the list as `catalogue.json` beside this module (made from the same engine in
the same build), with each game's picture drawn by its own board module
(`boards.thumbnail`); the page reads that and imports a game's module only when
the game is set up or played. Without the file (the tests, a source checkout)
the list is made from the engine and the boards directly, the same way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CATALOGUE = Path(__file__).with_name("catalogue.json")


def title_of(game_id: str) -> str:
    return game_id.replace("-", " ").title()


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
