"""Game files: export the game on screen as a record (a download), open one a person chooses."""

from __future__ import annotations

import json
import time
from typing import Any

from pyodide.ffi import create_proxy, to_js
from pyscript import document, window

from engine import StonesError
from ui.catalogue import game_title
from ui.i18n import _, ngettext
from ui.session import Session
from ui.words import reason

LINK_LIFETIME_MS = 10_000  # the download's object URL outlives the click that starts the download


def export_game(session: Session) -> str:
    """Download the game as `stones-<game>-<time>.json`; what to tell the person."""
    text = json.dumps(session.to_record(), indent=1)
    blob = window.Blob.new(to_js([text]), to_js({"type": "application/json"}, dict_converter=window.Object.fromEntries))
    url = window.URL.createObjectURL(blob)
    link = document.createElement("a")
    link.href = url
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(window.Date.now() / 1000))
    link.download = f"stones-{session.game.id}-{stamp}.json"
    document.body.appendChild(link)
    link.click()
    link.remove()
    window.setTimeout(create_proxy(lambda: window.URL.revokeObjectURL(url)), LINK_LIFETIME_MS)
    count = len(session.state.history)
    words = ngettext("Exported the game ({count} move) as {file}", "Exported the game ({count} moves) as {file}", count)
    return words.format(count=count, file=link.download)


async def open_game(file: Any) -> tuple[Session | None, str]:
    """The game in a file a person chose, and what to tell them; None (with the reason) when it cannot be played."""
    name = file.name
    try:
        text = await file.text()
        session = Session.from_record(text)
    except StonesError as exc:
        why = reason(exc)
    except Exception as exc:  # an unreadable file
        why = f"{type(exc).__name__}: {exc}"
    else:
        count = len(session.move_rows())
        words = ngettext("Opened {file}: {game}, {count} move", "Opened {file}: {game}, {count} moves", count)
        return session, words.format(file=name, game=game_title(session.game.id), count=count)
    return None, _("Could not open {file}: {reason}. Your current game is unchanged.").format(file=name, reason=why)
