"""Computer opponents in the page: whole games against the hard level (searched in the Web Worker),
a page that stays responsive while it thinks, hints, undo and reload during a think, offline play,
and the words and the fallback when the worker cannot start."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from e2e_support import legal_targets, menu_action, open_app, set_up

from engine import load_record

pytestmark = pytest.mark.browser

HUMAN_TURN = (
    "document.body.dataset.state === 'over' || !!document.querySelector('button[data-action=hint]:not([disabled])')"
)
THINKING = "[data-thinking]"
WORKER_READY = "window.stonesAI.status === 'ready'"
AI_TIMEOUT = 60_000  # ms: the worker's first start (Pyodide in a worker) on two busy cores


def start_game(
    page: Any, game: str, seats: dict[str, str], think: float, seed: int = 1, options: dict[str, str] | None = None
) -> None:
    set_up(page, game, seats, seed, options, think)


def saved(page: Any) -> dict[str, Any]:
    return json.loads(page.evaluate("localStorage.getItem('stones/current-game')"))


def plies(page: Any) -> int:
    return len(saved(page)["moves"])


def click_move(page: Any, game: str, rng: random.Random) -> None:
    """The person's move: morris from the engine's legal moves (taking when it can), three-stones a legal pocket."""
    if game == "morris":
        state = load_record(saved(page))
        moves = list(state.legal_moves())
        move = rng.choice([m for m in moves if m.take is not None] or moves)
        for point in re.findall(r"[a-g][1-7]", str(move)):
            page.click(f'#board [data-target="{point}"]')
    else:
        page.click(f'#board [data-target="{rng.choice(legal_targets(page))}"]')


def human_moves_then_ai_thinks(page: Any, game: str = "morris") -> int:
    """Play one move of the person's; returns the plies after it, with the computer thinking."""
    before = plies(page)
    click_move(page, game, random.Random(before))
    page.wait_for_function(f"JSON.parse(localStorage.getItem('stones/current-game')).moves.length > {before}")
    page.wait_for_selector(THINKING)
    return plies(page)


@pytest.mark.parametrize("game, options", [("morris", {}), ("three-stones", {"mode": "pure-skill"})])
def test_whole_game_against_the_hard_computer(page, base_url, shot, console_errors, game, options) -> None:
    open_app(page, base_url)
    page.wait_for_function(WORKER_READY, timeout=AI_TIMEOUT)  # every reply from the worker (none on the page)
    start_game(page, game, {"black": "hard"}, think=0.2, seed=3, options=options)
    rng = random.Random(3)
    thought = 0
    while True:
        page.wait_for_function(HUMAN_TURN, timeout=AI_TIMEOUT)
        if page.evaluate("document.body.dataset.state") == "over":
            break
        before = plies(page)
        click_move(page, game, rng)
        page.wait_for_function(f"JSON.parse(localStorage.getItem('stones/current-game')).moves.length > {before}")
        thought += 1
    record = saved(page)
    state = load_record(record)  # every move the page played, the computer's included, replays in the engine
    assert state.is_over()
    assert record["app"]["seats"]["black"] == "hard"
    assert (
        page.eval_on_selector_all("#moves .words b", "els => els.filter(b => b.textContent === 'Black').length")
        >= thought - 1
    )
    assert page.evaluate("window.stonesAI.status") == "ready"
    assert page.evaluate("window.stonesAI.answered") >= thought - 1  # one answer per reply (the last move may end it)
    outcome = state.outcome()
    assert outcome is not None
    assert page.get_attribute(".turn.over", "data-outcome") == (outcome.winner or "draw")
    shot(page)
    assert not console_errors


def test_the_page_stays_responsive_while_the_computer_thinks(page, base_url, shot) -> None:
    open_app(page, base_url)
    page.evaluate(
        "() => { window.painted = 0; const tick = () => { window.painted++; requestAnimationFrame(tick); }; tick(); }"
    )
    # 6 s: the checks below (a download, a click, ten frames) take 1-3 s on two cores loaded several times over
    start_game(page, "morris", {"black": "hard"}, think=6.0, seed=4)
    page.wait_for_function(WORKER_READY, timeout=AI_TIMEOUT)
    human_moves_then_ai_thinks(page)
    frames = page.evaluate("window.painted")
    answered = page.evaluate("window.stonesAI.answered")
    # a click is handled by the page's Python while the worker searches: export the game so far
    with page.expect_download() as download:
        menu_action(page, "export")
    assert json.loads(open(download.value.path(), encoding="utf-8").read())["moves"] == saved(page)["moves"]
    assert "Exported the game" in page.text_content("#message")
    page.click("#rules summary")
    assert page.get_attribute("#rules", "open") is not None
    page.wait_for_function(f"window.painted > {frames} + 10")  # frames are drawn during the think
    assert page.query_selector(THINKING) is not None, "the think ended before the page was checked"
    assert page.evaluate("window.stonesAI.answered") == answered
    shot(page, "thinking")
    page.wait_for_function(HUMAN_TURN, timeout=AI_TIMEOUT)
    assert plies(page) == 2 and page.query_selector(THINKING) is None


def test_hint_shows_the_move_on_the_board(page, base_url, shot) -> None:
    open_app(page, base_url)
    start_game(page, "morris", {"black": "hard"}, think=0.3, seed=6)
    page.click("button[data-action=hint]")
    page.wait_for_selector(".hint-found", timeout=AI_TIMEOUT)
    move = page.get_attribute(".hint-found", "data-hint")
    assert re.fullmatch(r"[a-g][1-7]", move), move  # the first move places a man
    assert re.search(r"\d+% to win|points", page.text_content("#hint"))
    marked = page.eval_on_selector_all("#board .hint-target", "els => els.map(e => e.getAttribute('data-target'))")
    assert marked == [move]
    shot(page)
    page.click(f'#board [data-target="{move}"]')  # following the hint clears it
    assert page.query_selector(".hint-found") is None and page.query_selector("#board .hint-target") is None
    assert saved(page)["moves"][0] == move


def test_undo_while_the_computer_thinks_drops_its_move(page, base_url) -> None:
    open_app(page, base_url)
    start_game(page, "morris", {"black": "hard"}, think=2.0, seed=7)
    page.wait_for_function(WORKER_READY, timeout=AI_TIMEOUT)
    answered = page.evaluate("window.stonesAI.answered")
    human_moves_then_ai_thinks(page)
    page.click("button[data-action=undo]")
    assert page.query_selector(THINKING) is None and plies(page) == 0
    page.wait_for_function(f"window.stonesAI.answered > {answered}", timeout=AI_TIMEOUT)  # the stale answer came
    page.wait_for_function(HUMAN_TURN)
    assert plies(page) == 0 and page.eval_on_selector_all("#moves .mv", "els => els.length") == 0


def test_reload_during_a_think_restores_the_game_and_the_computer_moves(page, base_url, shot) -> None:
    open_app(page, base_url)
    page.wait_for_function(WORKER_READY, timeout=AI_TIMEOUT)
    start_game(page, "morris", {"black": "hard"}, think=2.0, seed=8)
    human_moves_then_ai_thinks(page)
    open_app(page, base_url)  # reload mid-think: the page thinks the move itself while its worker starts again
    assert page.query_selector("svg.board-morris") is not None and plies(page) >= 1
    page.wait_for_function(HUMAN_TURN, timeout=AI_TIMEOUT)
    assert plies(page) == 2 and saved(page)["app"]["seats"]["black"] == "hard"
    shot(page)


def test_offline_a_game_against_the_computer_still_plays(page, context, base_url) -> None:
    open_app(page, base_url)
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=60_000)
    context.set_offline(True)
    try:
        open_app(page, base_url)  # every file from the service worker, the AI worker's too
        start_game(page, "three-stones", {"black": "hard"}, think=0.2, seed=9)
        for _ in range(2):
            before = plies(page)
            click_move(page, "three-stones", random.Random(before))
            page.wait_for_function(HUMAN_TURN, timeout=AI_TIMEOUT)
            assert plies(page) >= before + 3  # the person's move, the draw, the computer's reply (and a draw)
        page.wait_for_function(WORKER_READY, timeout=AI_TIMEOUT)  # its files came from the cache too
    finally:
        context.set_offline(False)


def test_a_worker_that_cannot_start_is_explained_and_the_page_can_think_instead(browser, live_server, shot) -> None:
    context = browser.new_context(service_workers="block")  # so the route below sees the worker's script
    context.route("**/ai-worker.js", lambda route: route.fulfill(status=404, body="not here"))
    page = context.new_page()
    try:
        worker_cannot_start(page, live_server + "/", shot)
    finally:
        context.close()


def worker_cannot_start(page: Any, base_url: str, shot: Any) -> None:
    open_app(page, base_url)
    start_game(page, "morris", {"black": "hard"}, think=0.2, seed=10)
    click_move(page, "morris", random.Random(1))
    page.wait_for_selector("[data-ai-problem]", timeout=AI_TIMEOUT)
    assert "cannot think in the background: it could not start" in page.text_content("#message")
    assert plies(page) == 1 and page.query_selector(THINKING) is None  # nothing hangs, nothing is played
    shot(page)
    page.click("button[data-action=ai-here]")
    page.wait_for_function(HUMAN_TURN, timeout=AI_TIMEOUT)
    assert plies(page) == 2 and page.query_selector("[data-ai-problem]") is None


def test_until_its_worker_is_ready_the_page_thinks_the_reply_itself(browser, live_server) -> None:
    """A worker slow to start (a phone, a busy machine) does not hold up the reply: the page thinks it."""
    context = browser.new_context(service_workers="block")  # so the route below sees the worker's script
    context.route(
        "**/ai-worker.js",
        lambda route: route.fulfill(
            status=200, content_type="text/javascript", body="// a worker that never gets ready"
        ),
    )
    page = context.new_page()
    try:
        open_app(page, live_server + "/")
        start_game(page, "morris", {"black": "hard"}, think=0.3, seed=12)
        for _ in range(2):
            before = plies(page)
            click_move(page, "morris", random.Random(before))
            page.wait_for_function(HUMAN_TURN, timeout=AI_TIMEOUT)
            assert plies(page) == before + 2  # the person's move and the computer's reply
        assert page.evaluate("window.stonesAI.status") == "starting" and page.evaluate("window.stonesAI.answered") == 0
        assert page.evaluate("window.stonesAIMoves.length") == 2 and page.query_selector("[data-ai-problem]") is None
    finally:
        context.close()
