"""The home screen as README shows it: each game by a drawing of its board, a game in progress to resume.

    python docs/screenshots/shoot_home.py

Writes home-desktop.png (1280×800) and home-phone.png (390×844, the top of the page) here, with a
seeded morris game saved in the browser (shoot.py's open_saved) so the resume button shows its position.
"""

from __future__ import annotations

from shoot import DESKTOP, HERE, PHONE, open_saved, save_shot

from e2e_support import CHROMIUM, CHROMIUM_ARGS, DIST, ensure_built, serving

RESUMED_GAME = "morris"


def main() -> None:
    from playwright.sync_api import sync_playwright

    from server.app import create_app

    ensure_built()
    with sync_playwright() as playwright, serving(create_app(DIST)) as base:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for name, device in (("desktop", DESKTOP), ("phone", PHONE)):
                context, page = open_saved(browser, base, device, RESUMED_GAME)
                page.click("[data-action=home]")
                page.wait_for_selector(".game-card svg")
                save_shot(page, HERE / f"home-{name}.png")
                context.close()
        finally:
            browser.close()


if __name__ == "__main__":
    main()
