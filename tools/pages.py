"""The game's pages and their link previews (stdlib; used by tools/build.py).

The game has two addresses: ``./`` (``index.html``, English) and ``./de/`` (``de/index.html``,
German). Each carries its **link preview**: the Open Graph and Twitter card tags that a chat or a
social site shows for a link (title, description, ``web/icons/preview.png``: 1200 x 630, the
game's name and a fan of its cards, no other words, so it serves both pages), in the page's
language. A site that builds a preview reads the HTML as served and runs no script, so the
language of a preview must be the page's own.

The German page is the same game: a copy of the built index.html with ``<html lang="de"
data-page-lang="de">`` (its first paint, and the game, speak German unless the player chose
otherwise), ``<base href="../">`` (every relative address is the site's root: the same files, the
same service worker and storage), and German preview texts; and ``de/pyscript.toml``, as the
root's but with ``interpreter = "../runtime.mjs"`` (PyScript resolves that path from the page's
address, not its base). The links a player shares from it (a daily, a challenge, an online table)
name it, so they preview in German.

Where the build knows the site's address (``HEARTS_SITE_URL``, else Netlify's ``URL``, which it
sets during a build), the image and the pages' addresses are absolute, as Facebook and LinkedIn
require; without one they are relative (most chat apps resolve them).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "GERMAN_PAGE",
    "IMAGE",
    "PREVIEW_MARKER",
    "PREVIEWS",
    "site_url",
    "preview_tags",
    "write_pages",
]

PREVIEW_MARKER = "<!-- link preview: written here by tools/build.py -->"
IMAGE = "web/icons/preview.png"
IMAGE_SIZE = (1200, 630)
GERMAN_PAGE = "de/index.html"
SITE_URL_VARIABLES = ("HEARTS_SITE_URL", "URL")


@dataclass(frozen=True)
class Preview:
    lang: str
    locale: str  # Open Graph's form: en_US
    path: str  # the page's address relative to the site's root
    title: str
    description: str
    image_alt: str


PREVIEWS = {
    "en": Preview(
        "en",
        "en_US",
        "",
        "Hearts: the classic card game",
        "Play Hearts against three computer opponents, or online with friends: in your browser, "
        "offline too. Daily deal, statistics, a guided first hand.",
        "The word Hearts beside a fan of playing cards on a green felt table",
    ),
    "de": Preview(
        "de",
        "de_DE",
        "de/",
        "Hearts: das klassische Kartenspiel",
        "Spiele Hearts gegen drei Computergegner oder online mit Freunden: im Browser, auch "
        "offline. Tagesspiel, Statistik, ein erstes Spiel mit Begleiter.",
        "Das Wort Hearts neben einem Fächer aus Spielkarten auf grünem Filz",
    ),
}


def site_url(environ: Mapping[str, str]) -> str:
    """The site's address for absolute preview links, with a trailing slash ("" when unknown)."""
    for name in SITE_URL_VARIABLES:
        value = environ.get(name, "").strip()
        if re.match(r"^https?://[^\s\"'<>]+$", value):
            return value.rstrip("/") + "/"
    return ""


def preview_tags(lang: str, site: str = "") -> list[str]:
    """The preview's tags of the page in ``lang`` (``site``: the site's address, or "")."""
    page = PREVIEWS[lang]
    other = next(p for p in PREVIEWS.values() if p.lang != lang)
    image = f"{site}{IMAGE}" if site else f"./{IMAGE}"
    properties = [
        ("og:type", "website"),
        ("og:site_name", "Hearts"),
        ("og:title", page.title),
        ("og:description", page.description),
        ("og:locale", page.locale),
        ("og:locale:alternate", other.locale),
        ("og:image", image),
        ("og:image:type", "image/png"),
        ("og:image:width", str(IMAGE_SIZE[0])),
        ("og:image:height", str(IMAGE_SIZE[1])),
        ("og:image:alt", page.image_alt),
    ] + ([("og:url", f"{site}{page.path}")] if site else [])
    names = [
        ("twitter:card", "summary_large_image"),
        ("twitter:title", page.title),
        ("twitter:description", page.description),
        ("twitter:image", image),
        ("twitter:image:alt", page.image_alt),
    ]
    tags = [_meta("property", key, value) for key, value in properties]
    tags += [_meta("name", key, value) for key, value in names]
    for p in PREVIEWS.values():  # each language's page, for crawlers and search engines
        tags.append(f'<link rel="alternate" hreflang="{p.lang}" href="{site or "./"}{p.path}">')
    return tags


def _meta(kind: str, key: str, value: str) -> str:
    return f'<meta {kind}="{key}" content="{html.escape(value, quote=True)}">'


def _fill(text: str, lang: str, site: str) -> str:
    if text.count(PREVIEW_MARKER) != 1:
        raise ValueError(f"index.html must contain the line {PREVIEW_MARKER!r} once (in <head>)")
    indent = re.search(r"([ \t]*)" + re.escape(PREVIEW_MARKER), text).group(1)  # type: ignore[union-attr]
    return text.replace(PREVIEW_MARKER, f"\n{indent}".join([PREVIEW_MARKER, *preview_tags(lang, site)]))


def _german(text: str) -> str:
    """The built index.html as the German page."""
    page = PREVIEWS["de"]
    swaps = [
        ('<html lang="en" class="booting">', '<html lang="de" class="booting" data-page-lang="de">'),
        ('<meta charset="utf-8">', '<meta charset="utf-8">\n  <base href="../">'),
    ]
    for old, new in swaps:
        if text.count(old) != 1:
            raise ValueError(f"index.html must contain {old!r} once (the German page changes it)")
        text = text.replace(old, new)
    text, found = re.subn(
        r'<meta name="description" content="[^"]*">',
        f'<meta name="description" content="{html.escape(page.description, quote=True)}">',
        text,
    )
    if found != 1:
        raise ValueError('index.html must contain one <meta name="description" content="...">')
    return text


def write_pages(out: Path, site: str = "") -> None:
    """``out/index.html`` (written by the build) gets its preview; ``out/de/index.html`` is made from it."""
    index = out / "index.html"
    text = index.read_text(encoding="utf-8")
    index.write_text(_fill(text, "en", site), encoding="utf-8")
    german = out / GERMAN_PAGE
    german.parent.mkdir(parents=True, exist_ok=True)
    german.write_text(_fill(_german(text), "de", site), encoding="utf-8")
