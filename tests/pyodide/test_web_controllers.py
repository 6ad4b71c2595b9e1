"""The page's controllers that hold no browser (the saved game, the chess clock) and its words for the
engine's codes: the page learns why a game ended from `Outcome.termination` and why a move was refused
from the error's `rule`, never from the engine's sentences. Runs in CPython and in Pyodide."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"
if str(WEB) not in sys.path:
    sys.path.insert(0, str(WEB))

from controllers.clock import TurnClock  # noqa: E402
from controllers.store import STORE_KEY, GameStore  # noqa: E402
from engine import IllegalMoveError, Outcome, Termination  # noqa: E402
from ui import words  # noqa: E402
from ui.session import Session  # noqa: E402


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class FakeStorage:
    """Web Storage's three methods over a dict; `full` makes setItem fail as a full quota does."""

    def __init__(self) -> None:
        self.items: dict[str, str] = {}
        self.full = False

    def getItem(self, key: str) -> str | None:  # noqa: N802  (the browser's names)
        return self.items.get(key)

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        if self.full:
            raise RuntimeError("QuotaExceededError")
        self.items[key] = value

    def removeItem(self, key: str) -> None:  # noqa: N802
        self.items.pop(key, None)


def clocked_game() -> Session:
    return Session.new(
        "three-stones", {"mode": "pure-skill", "clock_white_minutes": 1, "clock_black_minutes": 1}, 3, {}
    )


def test_the_clock_runs_down_for_the_player_to_move_and_says_when_the_flag_falls() -> None:
    session, now = clocked_game(), FakeTime()
    clock = TurnClock(now)
    clock.start_turn(session)
    now.now += 20
    assert clock.spent(session) == 20.0
    assert clock.remaining(session) == {"white": 40.0, "black": 60.0}
    assert not clock.flag_fell(session)
    now.now += 41
    assert clock.flag_fell(session)


def test_a_move_after_the_flag_fell_ends_the_game_on_time_by_its_rule() -> None:
    session, now = clocked_game(), FakeTime()
    clock = TurnClock(now)
    clock.start_turn(session)
    now.now += 75
    target = str(next(iter(session.state.legal_moves()))).split("@")[1]
    with pytest.raises(IllegalMoveError) as refused:
        session.click(target, seconds=clock.spent(session))
    assert words.flag_fell(refused.value)  # decided by the rule
    session.flag()
    outcome = session.state.outcome()
    assert outcome.termination is Termination.TIME_FORFEIT
    assert words.ending(outcome) == "White ran out of time: Black wins."
    clock.start_turn(session)
    assert clock.spent(session) is None and not clock.flag_fell(session)  # a finished game's clock stops


def test_the_page_never_reads_the_engines_sentences() -> None:
    worded_alike = IllegalMoveError("white has 0 s left: the flag has fallen (play 'time')", rule="notation")
    assert not words.flag_fell(worded_alike)
    for path in WEB.rglob("*.py"):  # no engine sentence quoted to be matched
        assert '"flag has fallen"' not in path.read_text(encoding="utf-8"), path


@pytest.mark.parametrize("termination", list(Termination))
def test_every_ending_has_words(termination: Termination) -> None:
    won = Outcome(("black",), {"white": 1, "black": 2}, "the engine's reason", termination=termination)
    said = words.ending(won)
    assert said.endswith("Black wins.") and "engine's reason" not in said and "{" not in said
    drawn = Outcome((), {"white": 1, "black": 1}, "", termination=termination)
    assert words.ending(drawn).endswith("a draw.")


def test_a_refusal_says_its_rule_in_words_then_the_engines_reason() -> None:
    assert words.refusal(IllegalMoveError("it is black's turn", rule="turn")) == "Not your turn: it is black's turn"
    assert words.refusal(IllegalMoveError("c3 is taken", rule="occupied")) == "Not allowed: c3 is taken"


def test_the_saved_game_comes_back_and_a_broken_one_is_forgotten_with_a_reason() -> None:
    storage = FakeStorage()
    store = GameStore(storage)
    assert not store.has_game() and store.restore() == (None, "")
    session = Session.new("morris", {}, 1, {})
    session.play(str(next(iter(session.state.legal_moves()))))
    assert store.save(session) == "" and store.has_game()
    restored, problem = store.restore()
    assert problem == "" and restored.state.snapshot() == session.state.snapshot()
    storage.full = True
    assert "could not be saved in this browser" in store.save(session)
    storage.items[STORE_KEY] = '{"format": "nonsense"}'
    restored, problem = store.restore()
    assert restored is None and problem.startswith("Your saved game could not be restored") and not store.has_game()


# ----- the engine and the rest of the page, unpacked on first need (controllers/later.py) --------------
def test_the_later_bundles_are_unpacked_once_and_importable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import zipfile

    from controllers import later

    def bundle(files: dict[str, str]) -> bytes:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for name, text in files.items():
                archive.writestr(name, text)
        return buffer.getvalue()

    monkeypatch.setattr(later, "_unpacked", False)
    monkeypatch.syspath_prepend(str(tmp_path))
    bundles = {
        "engine.zip": bundle({"laterpkg/__init__.py": "", "laterpkg/rules.py": "ANSWER = 42\n"}),
        "ui.zip": bytearray(bundle({"laterui/__init__.py": "FROM = 'ui'\n"})),  # any bytes-like, as a JS array gives
    }
    later.unpack_later(bundles, tmp_path)
    import laterpkg.rules  # type: ignore[import-not-found]
    import laterui  # type: ignore[import-not-found]

    assert (laterpkg.rules.ANSWER, laterui.FROM) == (42, "ui")
    for name in ("laterpkg.rules", "laterpkg", "laterui"):
        monkeypatch.delitem(sys.modules, name)
    (tmp_path / "laterpkg" / "rules.py").write_text("ANSWER = 0\n")
    later.unpack_later(bundles, tmp_path)  # a second screen's need unpacks nothing again
    assert (tmp_path / "laterpkg" / "rules.py").read_text() == "ANSWER = 0\n"
