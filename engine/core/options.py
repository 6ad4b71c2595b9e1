"""Typed, validated rule options shared by every game.

A game's options are a frozen dataclass deriving from `RuleOptions`; each field
carries its help text and allowed values in `option(...)` metadata, so the CLI,
the web set-up screen and the record loader all validate and describe options
from the same single declaration.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Mapping, TypeVar

from .errors import OptionError, shown

T = TypeVar("T", bound="RuleOptions")


def option(
    default: Any,
    help: str,
    *,
    choices: tuple[Any, ...] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
) -> Any:
    """Declare one rule option: its default, a sentence for people, its allowed values."""
    meta = {"help": help, "choices": choices, "minimum": minimum, "maximum": maximum}
    return dataclasses.field(default=default, metadata=meta)


@dataclasses.dataclass(frozen=True)
class RuleOptions:
    """Base of every game's options: validation, (de)serialisation and a schema."""

    game_id: ClassVar[str] = ""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            _check_value(self.game_id, f, getattr(self, f.name))
        self.validate()

    def validate(self) -> None:
        """Cross-field checks; a game overrides this when its options depend on each other."""

    @classmethod
    def from_dict(cls: type[T], data: Mapping[str, Any] | None) -> T:
        """Build options from JSON-like data; unknown names and bad values raise OptionError."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise OptionError(f"options must be an object of name: value, not {type(data).__name__}")
        known = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for name, value in data.items():
            key = name.replace("-", "_") if isinstance(name, str) else name
            if key not in known:
                allowed = ", ".join(sorted(known)) or "none"
                raise OptionError(f"{cls.game_id} has no option {shown(name)} (options: {allowed})")
            values[key] = value
        return cls(**values)

    @classmethod
    def parse_assignments(cls: type[T], pairs: list[str]) -> T:
        """Options from command-line `NAME=VALUE` words, converting each value to its field's type."""
        known = {f.name: f for f in dataclasses.fields(cls)}
        data: dict[str, Any] = {}
        for pair in pairs:
            name, sep, text = pair.partition("=")
            key = name.strip().replace("-", "_")
            if not sep:
                raise OptionError(f"option {shown(pair)} must look like NAME=VALUE")
            if key not in known:
                allowed = ", ".join(sorted(known)) or "none"
                raise OptionError(f"{cls.game_id} has no option {shown(name)} (options: {allowed})")
            data[key] = _convert_text(key, known[key], text.strip())
        return cls.from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def replace(self: T, **changes: Any) -> T:
        return dataclasses.replace(self, **changes)

    @classmethod
    def schema(cls) -> list[dict[str, Any]]:
        """Every option with its type, default, allowed values and help, for set-up screens."""
        out = []
        for f in dataclasses.fields(cls):
            out.append(
                {
                    "name": f.name,
                    "type": _type_name(f),
                    "default": f.default,
                    "choices": list(f.metadata["choices"]) if f.metadata.get("choices") else None,
                    "minimum": f.metadata.get("minimum"),
                    "maximum": f.metadata.get("maximum"),
                    "help": f.metadata.get("help", ""),
                }
            )
        return out


def _type_name(f: dataclasses.Field) -> str:
    kind = type(f.default)
    return {bool: "bool", int: "int", str: "str", float: "float"}.get(kind, kind.__name__)


def _convert_text(name: str, f: dataclasses.Field, text: str) -> Any:
    kind = type(f.default)
    if kind is bool:
        lowered = text.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise OptionError(f"option {name} takes true or false, not {shown(text)}", rule="option type")
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise OptionError(f"option {name} takes a whole number, not {shown(text)}", rule="option type") from None
    return text


def _check_value(game_id: str, f: dataclasses.Field, value: Any) -> None:
    kind = type(f.default)
    meta = f.metadata
    # bool is a subclass of int: keep the two apart in both directions.
    if kind is bool:
        ok = isinstance(value, bool)
    elif kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind)
    if not ok:
        raise OptionError(f"{game_id} option {f.name} takes a {_type_name(f)}, not {shown(value)}", rule="option type")
    choices = meta.get("choices")
    if choices and value not in choices:
        allowed = ", ".join(str(c) for c in choices)
        raise OptionError(f"{game_id} option {f.name} must be one of {allowed}, not {shown(value)}", rule="choice")
    lo, hi = meta.get("minimum"), meta.get("maximum")
    if lo is not None and value < lo:
        raise OptionError(f"{game_id} option {f.name} must be at least {lo}, not {value}", rule="minimum")
    if hi is not None and value > hi:
        raise OptionError(f"{game_id} option {f.name} must be at most {hi}, not {value}", rule="maximum")
