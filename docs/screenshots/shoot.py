"""Phone screenshots of every game, as a player sees them (the viewport, not the whole page).

    python docs/screenshots/shoot.py before|after|a11y [--desktop] [--dark] [--letters] [--games rings,...]
    python docs/screenshots/shoot.py languages

Each game is a seeded position a few moves in, every seat a person, opened the
way a reload opens a saved game; the shot is what a 390×844 touch screen shows
then (`--dark`: with the system's dark theme; `--letters`: the colour-blind letters on).
`languages` shoots the home screen and morris in each of the page's languages
(languages/<lang>-home.png, languages/<lang>-morris.png). PNGs are quantised to a
small palette so the set stays a few hundred kB.
"""

from __future__ import annotations

import argparse
import random
import struct
import sys
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for path in (ROOT, ROOT / "e2e", ROOT / "web"):
    sys.path.insert(0, str(path))

from e2e_support import CHROMIUM, CHROMIUM_ARGS, DIST, ensure_built, serving  # noqa: E402

PLIES = {"three-stones": 14, "morris": 15, "rings": 14, "sage-stones": 40, "triple-domino": 9}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 1}
DESKTOP = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1}
COLOURS = 64  # palette size: enough for the boards' wood and stones, small files


def saved_game(game_id: str) -> str:
    """A position PLIES[game_id] moves into a seeded random game, every seat a person, as the page saves it."""
    from ui.session import Session, saved_json

    rng = random.Random(game_id)
    session = Session.new(game_id, {}, 7, {})
    while session.state.ply < PLIES[game_id] and not session.state.is_over():
        session.play(rng.choice(list(session.state.legal_moves())))
    return saved_json(session)


def indexed_png(png: bytes) -> bytes:
    """The screenshot with its colours reduced to a COLOURS-entry palette (k-means), as an indexed PNG."""
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    pixels = image.reshape(-1, 3).astype(np.float32)
    sample = pixels[:: max(1, len(pixels) // 40_000)]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(1)
    _, _, centres = cv2.kmeans(sample, COLOURS, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    index = np.empty(len(pixels), np.uint8)
    for start in range(0, len(pixels), 65_536):
        chunk = pixels[start:start + 65_536]
        index[start:start + 65_536] = ((chunk[:, None, :] - centres[None]) ** 2).sum(2).argmin(1)
    height, width = image.shape[:2]
    rows = np.hstack([np.zeros((height, 1), np.uint8), index.reshape(height, width)])
    palette = centres.round().clip(0, 255).astype(np.uint8)[:, ::-1].tobytes()  # BGR → RGB

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"PLTE", palette)
            + chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)) + chunk(b"IEND", b""))


def open_saved(browser, base: str, device: dict, game_id: str, letters: bool = False):
    """A new page on `device` opened on a saved game (saved_game), as a reload opens it; its context and page."""
    context = browser.new_context(**device)
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    page.evaluate("text => localStorage.setItem('stones/current-game', text)", saved_game(game_id))
    page.evaluate("on => localStorage.setItem('stones/settings', JSON.stringify({letters: on}))", letters)
    page.reload()
    page.wait_for_selector("#board svg", timeout=60_000)
    return context, page


def save_shot(page, out: Path) -> None:
    """The page as it shows once its animations settle, written small to `out`."""
    page.wait_for_timeout(1200)
    scrolled = page.evaluate("window.scrollY")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(indexed_png(page.screenshot()))
    print(f"{out.relative_to(ROOT)}: {out.stat().st_size // 1024} kB, page scrolled by {scrolled:.0f} px")


def shoot(playwright, base: str, label: str, device: dict, suffix: str, games: list[str], letters: bool = False) -> None:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        for game_id in games:
            context, page = open_saved(browser, base, device, game_id, letters)
            save_shot(page, HERE / label / f"{game_id}{suffix}.png")
            context.close()
    finally:
        browser.close()


def shoot_languages(playwright, base: str) -> None:
    """The home screen and a morris game in each language the page speaks (picked as the header's menu keeps it)."""
    from ui.i18n import LANGUAGES

    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        for language in LANGUAGES:
            context = browser.new_context(**PHONE)
            page = context.new_page()
            page.goto(base + "/")
            page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
            page.evaluate("code => localStorage.setItem('stones/language', code)", language)
            for name, game in (("home", None), ("morris", saved_game("morris"))):
                if game is not None:
                    page.evaluate("text => localStorage.setItem('stones/current-game', text)", game)
                page.reload()
                page.wait_for_selector("#board svg" if game else "#home-title", timeout=60_000)
                save_shot(page, HERE / "languages" / f"{language}-{name}.png")
            context.close()
    finally:
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("label", choices=("before", "after", "a11y", "languages"), help="the folder the shots go to")
    parser.add_argument("--desktop", action="store_true", help="also 1280×800 desktop shots (…-desktop.png)")
    parser.add_argument("--dark", action="store_true", help="the dark theme (…-dark.png)")
    parser.add_argument("--letters", action="store_true", help="the colour-blind letters on (…-letters.png)")
    parser.add_argument("--games", default=",".join(PLIES), help="comma-separated games (default: all five)")
    args = parser.parse_args()
    games = args.games.split(",")
    look = {"color_scheme": "dark"} if args.dark else {}
    tail = ("-dark" if args.dark else "") + ("-letters" if args.letters else "")
    from playwright.sync_api import sync_playwright

    from server.app import create_app

    ensure_built()
    with sync_playwright() as playwright, serving(create_app(DIST)) as base:
        if args.label == "languages":
            shoot_languages(playwright, base)
            return
        shoot(playwright, base, args.label, {**PHONE, **look}, tail, games, args.letters)
        if args.desktop:
            shoot(playwright, base, args.label, {**DESKTOP, **look}, "-desktop" + tail, games, args.letters)


if __name__ == "__main__":
    main()
