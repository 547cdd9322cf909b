"""A link to the game shows a preview card (Open Graph, Twitter card) in its page's language: the
English page at ./, the German page at ./de/ (tools/pages.py). The image is served, a 1200x630 PNG.
The German page is the same game, in German unless the player chose otherwise, offline too."""

from __future__ import annotations

import struct
from collections.abc import Callable
from html.parser import HTMLParser
from urllib.parse import urljoin

import pytest
from conftest import goto_ready, wait_ready
from playwright.sync_api import BrowserContext, Page, expect
from ui_helpers import use_settings

PAGES = {
    "/": ("en", "en_US", "de_DE", "classic card game"),
    "/de/": ("de", "de_DE", "en_US", "klassische Kartenspiel"),
}


class _Head(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.base = ""
        self.lang = ""
        self.alternates: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "html":
            self.lang = a.get("lang", "")
        elif tag == "base":
            self.base = a.get("href", "")
        elif tag == "meta" and (a.get("property") or a.get("name")):
            self.meta[a.get("property") or a.get("name", "")] = a.get("content", "")
        elif tag == "link" and a.get("rel") == "alternate":
            self.alternates[a.get("hreflang", "")] = a.get("href", "")


def head(html: str) -> _Head:
    parser = _Head()
    parser.feed(html)
    return parser


@pytest.mark.parametrize("path", list(PAGES))
def test_each_page_has_its_preview_in_its_language(page: Page, base_url: str, path: str) -> None:
    lang, locale, other, words = PAGES[path]
    url = base_url + path
    response = page.request.get(url)
    assert response.ok and response.headers["cache-control"] == "no-cache"
    found = head(response.text())
    assert found.lang == lang
    tags = found.meta
    assert words in tags["og:title"] and tags["twitter:title"] == tags["og:title"]
    assert tags["og:description"] and tags["twitter:description"] == tags["og:description"]
    assert tags["description"] == tags["og:description"] or lang == "en"
    assert (tags["og:locale"], tags["og:locale:alternate"]) == (locale, other)
    assert tags["twitter:card"] == "summary_large_image" and tags["og:image:alt"]
    assert (tags["og:image:width"], tags["og:image:height"], tags["og:image:type"]) == ("1200", "630", "image/png")
    page_base = urljoin(url, found.base)  # the German page's <base href="../">: the site's root
    assert {hl: urljoin(page_base, href) for hl, href in found.alternates.items()} == {
        "en": base_url + "/",
        "de": base_url + "/de/",
    }
    image = page.request.get(urljoin(page_base, tags["og:image"]))
    assert image.ok and image.headers["content-type"] == "image/png"
    png = image.body()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    assert struct.unpack(">II", png[16:24]) == (1200, 630)
    assert urljoin(page_base, tags["twitter:image"]) == urljoin(page_base, tags["og:image"])


def test_the_german_page_is_the_game_in_german_offline_too(
    persistent_context: Callable[..., BrowserContext],
) -> None:
    ctx = persistent_context()
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    goto_ready(page, "/de/?speed=instant&seed=german-page")
    assert page.evaluate("document.documentElement.lang") == "de"
    expect(page.locator("#notices [data-notice='welcome']")).to_contain_text("Willkommen")
    expect(page.locator("#prompt")).to_contain_text("Gib 3 Karten")
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=60_000)
    ctx.set_offline(True)
    page.reload(wait_until="commit")
    wait_ready(page)
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.url.endswith("/de/?speed=instant&seed=german-page") or "/de/" in page.url


def test_a_language_the_player_chose_wins_over_the_page(page: Page) -> None:
    use_settings(page, lang="en")
    goto_ready(page, "/de/?speed=instant&seed=german-page")
    assert page.evaluate("document.documentElement.lang") == "en"
    expect(page.locator("#prompt")).to_contain_text("Pass 3 cards")
