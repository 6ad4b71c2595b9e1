"""What the browser keeps between visits: the game in progress (saved after every move), the language."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ui.session import Session

STORE_KEY = "stones/current-game"
LANGUAGE_KEY = "stones/language"


class LanguageStore:
    """The language a person picked, in a Web Storage; none kept means the browser's languages decide."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage

    def picked(self) -> str:
        try:
            return str(self.storage.getItem(LANGUAGE_KEY) or "")
        except Exception:  # storage disabled: the browser's languages decide each visit
            return ""

    def remember(self, language: str) -> None:
        try:
            self.storage.setItem(LANGUAGE_KEY, language)
        except Exception:  # storage full or disabled: the language holds for this visit only
            pass


class GameStore:
    """One saved game in a Web Storage (`window.localStorage`, or any object with its three methods)."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage

    def has_game(self) -> bool:
        return bool(self.storage.getItem(STORE_KEY))

    def save(self, session: Session) -> str:
        """Save the game; "" when saved, else why not (storage full or disabled: playing goes on)."""
        from ui.session import saved_json  # here, not above: the first screen imports no engine (main.py)

        try:
            self.storage.setItem(STORE_KEY, saved_json(session))
        except Exception as exc:  # the browser refused: say so, lose nothing on screen
            from ui.i18n import _

            return _("the game could not be saved in this browser ({reason})").format(reason=exc)
        return ""

    def restore(self) -> tuple[Session | None, str]:
        """The saved game, or None and why it could not be restored (then it is forgotten)."""
        from engine import StonesError
        from ui.i18n import _
        from ui.session import restore
        from ui.words import reason

        text = self.storage.getItem(STORE_KEY)
        if not text:
            return None, ""
        try:
            return restore(text), ""
        except StonesError as exc:
            self.storage.removeItem(STORE_KEY)
            return None, _("Your saved game could not be restored: {reason}").format(reason=reason(exc))


SETTINGS_KEY = "stones/settings"


class Settings:
    """The person's display choices (the colour-blind letters on stones), kept in the browser for every game."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage

    def _all(self) -> dict[str, Any]:
        try:
            saved = json.loads(self.storage.getItem(SETTINGS_KEY) or "{}")
        except ValueError:  # an edited or broken entry: the defaults, and the next change writes it anew
            return {}
        return saved if isinstance(saved, dict) else {}

    def get(self, name: str) -> bool:
        return bool(self._all().get(name, False))

    def set(self, name: str, value: bool) -> str:
        """Remember a choice; "" when kept, else why not (it still holds for this visit)."""
        settings = self._all()
        settings[name] = value
        try:
            self.storage.setItem(SETTINGS_KEY, json.dumps(settings))
        except Exception as exc:  # the browser refused: the choice holds until the page is closed
            from ui.i18n import _

            return _("the setting could not be saved in this browser ({reason})").format(reason=exc)
        return ""
