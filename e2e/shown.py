"""What a page of the online table told its player, in order: every toast, notice card and line of
the online dialogs as it appeared (an init script records it from the first paint), so that a test
can read back everything a host or a guest was told over a whole match and check that none of it
was false.

``SHOWN_SCRIPT`` goes into a context's init scripts; ``shown(page)`` returns the record:
``[(seconds since the page's start, what, text)]``, ``what`` one of ``toast``, ``notice``,
``trouble`` (``[data-online-trouble]``: no relay, no path), ``relays`` (the relays' line),
``search`` (what a guest's search is doing), ``lobby`` (the first line of a lobby).
"""

from __future__ import annotations

from playwright.sync_api import Page

__all__ = ["SHOWN_SCRIPT", "shown", "warnings_in", "CONNECTION_WARNINGS"]

SHOWN_SCRIPT = """
(() => {
  const record = window.__heartsShown = [];
  const last = {};
  const WATCHED = [
    ["toast", "#toast:not([hidden])"],
    ["notice", "#notices > *"],
    ["trouble", "#dlg-body [data-online-trouble]"],
    ["relays", "#dlg-body [data-relay-status]"],
    ["search", "#dlg-body [data-online-search]"],
    ["lobby", "#dlg-body [data-online-lobby] > p:first-child"],
  ];
  const look = () => {
    for (const [what, selector] of WATCHED) {
      const text = [...document.querySelectorAll(selector)].map((e) => e.textContent.trim()).join(" | ");
      if (text !== (last[what] ?? "")) {
        last[what] = text;
        if (text) record.push([performance.now() / 1000, what, text]);
      }
    }
  };
  const start = () => {
    new MutationObserver(look).observe(document.documentElement,
      { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["hidden"] });
    look();
  };
  if (document.documentElement) start(); else document.addEventListener("DOMContentLoaded", start);
})();
"""

# What a page may say about the connection only when the sockets and ICE say so (both languages)
CONNECTION_WARNINGS = (
    "online_no_relay",
    "online_no_relay_host",
    "online_no_path",
    "online_no_path_host",
    "online_host_away",
    "online_searching_host",
)


def shown(page: Page) -> list[tuple[float, str, str]]:
    return [(float(t), str(what), str(text)) for t, what, text in page.evaluate("window.__heartsShown || []")]


def warnings_in(record: list[tuple[float, str, str]]) -> list[tuple[float, str, str]]:
    """The entries of ``record`` that say something is wrong with the connection, in either language."""
    from hearts_web.core import i18n  # (the lab's tools use the record alone, without the page's code)

    words = [table[key].split("{")[0].strip()[:40] for table in (i18n.EN, i18n.DE) for key in CONNECTION_WARNINGS]
    return [row for row in record if row[1] == "trouble" or any(w and w in row[2] for w in words)]
