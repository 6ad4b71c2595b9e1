"""The layout drawn as text for the terminal: corner numbers joined by edges, open triangles lettered."""

from __future__ import annotations

from typing import Iterable, Mapping

from .grid import OFFSET, STRIDE, triangle_coords

OPEN_KEYS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def label_open(triangles: Iterable[int]) -> dict[int, str]:
    """A letter for each open triangle in id order (`+` once the letters run out)."""
    return {t: OPEN_KEYS[i] if i < len(OPEN_KEYS) else "+" for i, t in enumerate(sorted(triangles))}


def draw_layout(
    layout: Mapping[int, tuple[int, int]],
    vertex_number: Mapping[int, int],
    keys: Mapping[int, str] | None = None,
    mark: int | None = None,
) -> list[str]:
    """The layout as text: corner numbers joined by edges, open triangles marked by `keys`, `*` the last tile."""
    if not layout:
        return ["(no tile laid yet)"]
    grid: dict[int, dict[int, str]] = {}

    def put(line: int, col: int, ch: str) -> None:
        row = grid.setdefault(line, {})
        if ch != " " or col not in row:
            row[col] = ch

    def point(q: int, r: int) -> None:
        v = (q + OFFSET) * STRIDE + (r + OFFSET)
        grid.setdefault(2 * r, {})[4 * q + 2 * r] = str(vertex_number[v])

    for t in layout:
        q, r, down = triangle_coords(t)
        c = 4 * q + 2 * r
        if down:
            for k in (3, 4, 5):
                put(2 * r + 2, c + k, "-")
            put(2 * r + 1, c + 3, "\\")
            put(2 * r + 1, c + 5, "/")
            put(2 * r + 1, c + 4, "*" if t == mark else " ")
        else:
            for k in (1, 2, 3):
                put(2 * r, c + k, "-")
            put(2 * r + 1, c + 1, "/")
            put(2 * r + 1, c + 3, "\\")
            put(2 * r + 1, c + 2, "*" if t == mark else " ")
    for t, key in (keys or {}).items():
        q, r, down = triangle_coords(t)
        grid.setdefault(2 * r + 1, {})[4 * q + 2 * r + (4 if down else 2)] = key
    for t in layout:
        q, r, down = triangle_coords(t)
        for dq, dr in ((1, 0), (0, 1), (1, 1)) if down else ((0, 0), (1, 0), (0, 1)):
            point(q + dq, r + dr)
    low = min(col for row in grid.values() for col in row)
    lines = []
    for line in range(max(grid), min(grid) - 1, -1):
        row = grid.get(line, {})
        text = [" "] * (max(row) - low + 1 if row else 0)
        for col, ch in row.items():
            text[col - low] = ch
        lines.append("  " + "".join(text).rstrip())
    return lines
