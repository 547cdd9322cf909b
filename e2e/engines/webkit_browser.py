#!/usr/bin/python3
"""The smallest WebKitGTK browser WebKitWebDriver can drive: one web view per window, nothing else.

WebKitWebDriver starts the browser named in the session's ``webkitgtk:browserOptions`` and drives it
through WebKit's automation session. Debian's MiniBrowser would do, but under automation it keeps no
data between sessions and ignores ``--enable-write-console-messages-to-stdout``; this one keeps its
data (localStorage, Cache Storage, the service worker) in ``--profile=DIR`` and writes every
console message to stdout (``CONSOLE JS ERROR ...``), which the smoke harness reads.

Run by Debian's python3 (PyGObject: python3-gi, gir1.2-webkit2-4.1, gir1.2-gtk-3.0), not the
project's virtual environment; under X (Xvfb in the tests).
"""

import io
import sys
from typing import Any

import gi  # type: ignore[import-not-found]

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import Gtk, WebKit2  # type: ignore[import-not-found]  # noqa: E402

WINDOW = (1280, 720)


def profile_dir(argv: list[str]) -> str:
    return next((arg.split("=", 1)[1] for arg in argv if arg.startswith("--profile=")), "")


def make_context(profile: str) -> Any:
    if profile:
        manager = WebKit2.WebsiteDataManager(
            base_data_directory=f"{profile}/data", base_cache_directory=f"{profile}/cache"
        )
    else:
        manager = WebKit2.WebsiteDataManager.new_ephemeral()
    context = WebKit2.WebContext(website_data_manager=manager)
    context.set_automation_allowed(True)
    context.connect("automation-started", on_automation_started)
    return context


def new_view(context: Any) -> Any:
    settings = WebKit2.Settings()
    settings.set_enable_write_console_messages_to_stdout(True)
    view = WebKit2.WebView(web_context=context, settings=settings, is_controlled_by_automation=True)
    window = Gtk.Window()
    window.set_default_size(*WINDOW)
    window.add(view)
    view.connect("close", lambda _view: window.destroy())
    window.show_all()
    return view


def on_automation_started(context: Any, session: Any) -> None:
    info = WebKit2.ApplicationInfo()
    info.set_name("hearts-webkit")
    info.set_version(WebKit2.get_major_version(), WebKit2.get_minor_version(), WebKit2.get_micro_version())
    session.set_application_info(info)
    session.connect("create-web-view", lambda _session: new_view(context))


def main(argv: list[str]) -> None:
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(line_buffering=True)
    context = make_context(profile_dir(argv))  # kept while the main loop runs
    Gtk.main()
    del context


if __name__ == "__main__":
    main(sys.argv[1:])
