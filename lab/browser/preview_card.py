"""The link preview's image, ``web/icons/preview.png`` (1200 x 630, what a chat or a social site shows
for a link to the game: Open Graph and Twitter card, see ``tools/pages.py``), drawn by Chromium
from the HTML and CSS below and committed: the game's felt, its name, a fan of its cards. No words
but the game's name, which is the same in English and German, so one image serves both pages.

    .venv/bin/python -m lab.browser.preview_card            # writes web/icons/preview.png
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from playwright.sync_api import sync_playwright

from tools.chromium import launch_options

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "web" / "icons" / "preview.png"
WIDTH, HEIGHT = 1200, 630
# (rank, suit, red, angle in degrees): the fan, left to right
FAN = [("J", "♦", True, -20), ("2", "♣", False, -10), ("Q", "♠", False, 0), ("A", "♥", True, 10), ("K", "♥", True, 20)]

PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>
body { margin: 0; width: %(w)dpx; height: %(h)dpx; overflow: hidden; font-family: "DejaVu Sans", sans-serif;
  background: radial-gradient(ellipse at 62%% 50%%, #1b7656 0%%, #0f4d3a 48%%, #093326 100%%); color: #f4f1e8; }
.name { position: absolute; left: 70px; top: 206px; }
.name h1 { margin: 0; font-size: 112px; line-height: 1; letter-spacing: -2px; }
.name h1 span { color: #e2324a; }
.name p { margin: 30px 0 0 8px; font-size: 52px; letter-spacing: 24px; }
.name p .r { color: #e2324a; }
.fan { position: absolute; left: 905px; top: 455px; }
.card { position: absolute; left: -95px; top: -262px; width: 190px; height: 266px; border-radius: 18px;
  background: #fffdf7; border: 2px solid #d9d2c0; box-shadow: 0 14px 34px rgba(0,0,0,.45);
  transform-origin: 50%% 150%%; color: #1b1b1f; font-family: "DejaVu Serif", serif; }
.card.red { color: #c8102e; }
.card b { position: absolute; left: 18px; top: 12px; font-size: 58px; line-height: 1; }
.card i { position: absolute; left: 20px; top: 72px; font-size: 44px; font-style: normal; }
.card .pip { position: absolute; left: 50%%; top: 54%%; transform: translate(-50%%, -50%%); font-size: 120px; }
</style></head><body>
<div class="name"><h1><span>♥</span> Hearts</h1><p><span class="r">♥</span>♠<span class="r">♦</span>♣</p></div>
<div class="fan">%(cards)s</div>
</body></html>"""


def page() -> str:
    cards = "".join(
        f'<div class="card{" red" if red else ""}" style="transform: rotate({angle}deg)">'
        f'<b>{rank}</b><i>{suit}</i><span class="pip">{suit}</span></div>'
        for rank, suit, red, angle in FAN
    )
    return PAGE % {"w": WIDTH, "h": HEIGHT, "cards": cards}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**launch_options())
        tab = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        tab.set_content(page())
        tab.screenshot(path=str(args.out))
        browser.close()
    print(f"{args.out}: {args.out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
