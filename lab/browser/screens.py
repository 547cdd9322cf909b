"""Every screen of the game in Chromium, Firefox ESR and WebKitGTK, at phone and laptop sizes, in
English and German: screenshots to look at (not a test; the smoke path is ``e2e/engines``).

Drives the engines as the smoke path does (``e2e/engines``: Playwright for Chromium and Firefox,
WebDriver for WebKitGTK under Xvfb), on the built game (``python3 tools/build.py`` first)::

    python3 -m lab.browser.screens                                  # all: lab/out/screens/
    python3 -m lab.browser.screens --engines webkit --langs de --sizes phone

Each engine and language is one fresh profile; each screen is reached by clicks and shot at every
size (the viewport changes, the page stays). Files: ``lab/out/screens/<engine>/<lang>-<screen>-<size>.png``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from playwright.sync_api import sync_playwright

from tools.serve import start_server

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "lab" / "out" / "screens"
SIZES = {
    "phone": (390, 844),
    "small": (320, 568),
    "phone-land": (844, 390),
    "laptop": (1280, 720),
}
if TYPE_CHECKING:
    from engines.driver import Driver, Engine


def _screens() -> list[tuple[str, Callable[[Driver], None]]]:
    """(name, how to reach it from the previous one), in order."""
    from engines.driver import wait
    from engines.player import open_tool, pass_three, play_card, play_until_dialog, state

    def close(driver: Driver) -> None:
        if driver.js("() => !!document.querySelector('dialog[open]')"):
            driver.click("#dlg .dlg-x")

    def tool(action: str) -> Callable[[Driver], None]:
        def reach(driver: Driver) -> None:
            close(driver)
            open_tool(driver, action)
            wait(driver, "() => !!document.querySelector('dialog[open]')", f"the {action} dialog")
            time.sleep(0.3)

        return reach

    def mid_hand(driver: Driver) -> None:
        driver.click("#notices [data-close-notice='welcome']")
        pass_three(driver)
        for _ in range(3):
            state(driver)
            play_card(driver)

    def summary(driver: Driver) -> None:
        play_until_dialog(driver)

    return [
        ("welcome", lambda driver: None),
        ("mid-hand", mid_hand),
        ("summary", summary),
        ("settings", tool("settings")),
        ("stats", tool("stats")),
        ("rules", tool("rules")),
        ("daily", tool("daily")),
        ("online", tool("online")),
        ("last-trick", tool("last-trick")),
    ]


def tour(engine: Engine, url: str, lang: str, sizes: list[str]) -> None:
    from engines.driver import wait_ready

    folder = OUT / engine.name
    folder.mkdir(parents=True, exist_ok=True)
    driver = engine.open()
    try:
        driver.goto(f"{url}?speed=instant&seed=screens")
        wait_ready(driver)
        if lang == "de":
            driver.click("[data-action='set-lang'][data-value='de']")
        for name, reach in _screens():
            try:
                reach(driver)
            except Exception as exc:  # noqa: BLE001 - a tour goes on: the screenshot shows what happened
                print(f"  {engine.name} {lang} {name}: {exc}")
            for size in sizes:
                driver.viewport(*SIZES[size])
                time.sleep(0.3)
                driver.screenshot(folder / f"{lang}-{name}-{size}.png")
        driver.collect()
        for problem in driver.problems.found:
            print(f"  {engine.name} {lang}: {problem}")
    finally:
        driver.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", default="chromium,firefox,webkit")
    parser.add_argument("--langs", default="en,de")
    parser.add_argument("--sizes", default=",".join(SIZES))
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "e2e"))
    from engines.playwright_engines import chromium, firefox
    from engines.webkit import WebKitEngine

    server = start_server(ROOT / "dist", quiet=True)
    sizes = [s for s in args.sizes.split(",") if s]
    with sync_playwright() as playwright:
        for name in args.engines.split(","):
            engine: Engine
            if name == "webkit":
                engine = WebKitEngine(OUT / "webkit-console.log")
            else:
                engine = chromium(playwright) if name == "chromium" else firefox(playwright)
            try:
                for lang in args.langs.split(","):
                    tour(engine, server.url, lang, sizes)
                    print(f"{name} {lang}: {OUT / name}")
            finally:
                engine.close()
    server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
