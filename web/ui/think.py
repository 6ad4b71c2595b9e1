"""What the computer players' worker runs: a request (game record, level, budget) → an answer.

The page never searches on its own thread: it sends a request to the Web
Worker (`ai-worker.js`), which loads Pyodide with the same engine.zip and calls
`answer_json`. Requests and answers are JSON text, so they cross `postMessage`
as plain strings. The same function is the fallback on the page's own thread
when the worker cannot start (the page is busy for the budget's length then).

A request carries the whole game record, so the worker keeps no game of its
own: it rebuilds the state, looks at it through the mover's eyes
(`state.view(player)` hides what that player cannot see) and answers with the
move's text. The page checks the move with its own engine before playing it.
"""

from __future__ import annotations

import json
import time
from typing import Any

from engine import StonesError, load_record
from engine.ai import Budget, get_player, suggest

KINDS = ("move", "hint")
HINT_LEVEL = "hard"  # hints always come from the strongest player
MIN_SEARCH = 0.02  # seconds: the least a search gets, however long the replay took


class RequestError(ValueError):
    """A request the worker cannot answer (bad JSON, a finished game, an unknown level)."""


def make_request(kind: str, record: dict[str, Any], level: str, seconds: float, seed: int) -> dict[str, Any]:
    """The message for the worker: `kind` is "move" (an AI seat plays) or "hint" (advice for a person)."""
    if kind not in KINDS:
        raise ValueError(f"unknown request kind {kind!r}")
    return {
        "kind": kind,
        "record": record,
        "level": level,
        "seconds": seconds,
        "seed": seed,
        "ply": len(record.get("moves", [])),
    }


def search_seconds(request: dict[str, Any], seconds: float, started: float) -> float:
    """What is left for the search. The budget is for the whole answer: replaying the record and loading
    the player (since `started`, a perf_counter time) come out of it, and so does anything before the
    request: its "deadline" (wall-clock seconds, time.time(), shared by the page and its worker) is when
    the answer must leave for the page to play and draw it within the budget of the player's turn."""
    left = seconds - (time.perf_counter() - started)
    deadline = request.get("deadline")
    if isinstance(deadline, (int, float)) and not isinstance(deadline, bool):
        left = min(left, deadline - time.time())
    return max(MIN_SEARCH, left)


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """Rebuild the game from the record and let the level's player (or the hint) choose a move."""
    started = time.perf_counter()
    kind = request.get("kind")
    if kind not in KINDS:
        raise RequestError(f"unknown request kind {kind!r}")
    try:
        seconds = float(request.get("seconds") or 1.0)
        state = load_record(request["record"])
    except (KeyError, TypeError, ValueError, StonesError) as exc:
        raise RequestError(f"the request cannot be read: {exc}") from None
    if state.is_over():
        raise RequestError("the game is over: there is no move to choose")
    if state.is_chance_node():
        raise RequestError("a draw or a roll comes next, not a player's decision")
    player = state.current_player
    view = state.view(player)
    seed = int(request.get("seed") or 0)
    level = str(request.get("level")) if kind == "move" else HINT_LEVEL
    try:
        chooser = get_player(state.game.id, level, seed)  # the game's AI modules load here, the first time
    except ValueError as exc:
        raise RequestError(str(exc)) from None
    budget = Budget(seconds=search_seconds(request, seconds, started))
    if kind == "move":
        move = chooser.choose(view, budget)
        out: dict[str, Any] = {"move": str(move)}
    else:
        analysis = suggest(view, level=HINT_LEVEL, budget=budget, seed=seed)
        out = {
            "move": str(analysis.move),
            "text": analysis.text,
            "win_chance": analysis.win_chance,
            "margin": analysis.margin,
        }
    out.update(kind=kind, player=player, ply=state.ply, seconds=round(time.perf_counter() - started, 3))
    return out


def answer_json(text: str) -> str:
    """The worker's entry point: JSON in, JSON out; a failure comes back as {"error": reason}."""
    try:
        request = json.loads(text)
        if not isinstance(request, dict):
            raise RequestError("a request is a JSON object")
        return json.dumps(answer(request))
    except (RequestError, ValueError) as exc:
        return json.dumps({"error": str(exc)})
    except Exception as exc:  # an engine bug must come back as words, not a silent worker
        return json.dumps({"error": f"{type(exc).__name__}: {exc}"})
