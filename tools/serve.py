#!/usr/bin/env python3
"""Serve the built game locally with the same headers as production (stdlib only).

The ``[[headers]]`` rules of ``netlify.toml`` are parsed and applied to every response, so the
local server and the host can never drift apart (CSP, caching, MIME types).  Like Netlify, it
sends no directory listings and has no SPA fallback: a missing file is a 404 (with
``Cache-Control: no-cache`` whatever the path's rule says: an error is never cached for a year).

Usage: ``python3 tools/serve.py [--port 8000] [--dir dist] [--quiet]``

From Python (tests, benchmarks)::

    from tools.serve import start_server    # from the repository's root
    server = start_server("dist")           # free port, background thread
    print(server.url)                       # http://127.0.0.1:PORT/
    server.stop()
"""

from __future__ import annotations

import argparse
import http.server
import os
import re
import sys
import threading
import tomllib
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
NETLIFY_TOML = ROOT / "netlify.toml"
HOST = "127.0.0.1"
ERROR_CACHE_CONTROL = "no-cache"

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".zst": "application/zstd",
    ".toml": "application/toml; charset=utf-8",
    ".py": "text/x-python; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webp": "image/webp",
    ".woff2": "font/woff2",
}


@dataclass(frozen=True)
class HeaderRule:
    pattern: str
    regex: re.Pattern[str]
    values: dict[str, str] = field(default_factory=dict)


def _pattern_to_regex(pattern: str) -> re.Pattern[str]:
    """Netlify path pattern -> regex: ``*`` matches anything (also ``/``), ``:name`` one segment."""
    out = []
    for token in re.split(r"(\*|:[A-Za-z_][A-Za-z0-9_]*)", pattern):
        if token == "*":
            out.append(".*")
        elif token.startswith(":"):
            out.append("[^/]+")
        else:
            out.append(re.escape(token))
    body = "".join(out)
    if body.endswith("/") and body != "/":
        body = body[:-1]
    return re.compile("^" + body + ("/?$" if body != "/" else "$"))


def load_header_rules(path: Path = NETLIFY_TOML) -> list[HeaderRule]:
    with open(path, "rb") as fh:
        config = tomllib.load(fh)
    rules = []
    for entry in config.get("headers", []):
        pattern = entry["for"]
        values = {str(k): str(v) for k, v in entry.get("values", {}).items()}
        rules.append(HeaderRule(pattern, _pattern_to_regex(pattern), values))
    return rules


def headers_for(path: str, rules: list[HeaderRule]) -> dict[str, str]:
    """Headers for a URL path: every matching rule, in file order; later rules win (as on Netlify)."""
    merged: dict[str, str] = {}
    names: dict[str, str] = {}
    for rule in rules:
        if rule.regex.match(path):
            for name, value in rule.values.items():
                old = names.get(name.lower())
                if old is not None:
                    del merged[old]
                names[name.lower()] = name
                merged[name] = value
    return merged


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: closer to a real host than one connection per file
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    rules: list[HeaderRule] = []
    quiet = False
    extra_connect: tuple[str, ...] = ()  # loopback relays a local test or developer adds to connect-src

    def _url_path(self) -> str:
        return unquote(urlsplit(self.path).path) or "/"

    def send_header(self, keyword: str, value: str) -> None:
        # A Content-Type from netlify.toml replaces the guessed one.
        if keyword.lower() == "content-type":
            override = {k.lower(): v for k, v in headers_for(self._url_path(), self.rules).items()}
            value = override.get("content-type", value)
        super().send_header(keyword, value)

    def send_response(self, code: int, message: str | None = None) -> None:
        self._status = code
        super().send_response(code, message)

    def end_headers(self) -> None:
        for name, value in headers_for(self._url_path(), self.rules).items():
            if name.lower() == "content-type":
                continue
            if name.lower() == "content-security-policy" and self.extra_connect:
                value = re.sub(
                    r"connect-src ([^;]*)", lambda m: f"connect-src {m.group(1)} {' '.join(self.extra_connect)}", value
                )
            if name.lower() == "cache-control" and getattr(self, "_status", 200) >= 400:
                value = (
                    ERROR_CACHE_CONTROL  # a missing file may appear with the next deploy: never cache a 404 for a year
                )
            super().send_header(name, value)
        super().end_headers()

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        self.send_error(404, "Not Found")  # no directory listings, like a static host
        return None

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request: object, client_address: object) -> None:
        """A browser that dropped its connection (a closed tab, a reset keep-alive connection) is
        not the server's error: no traceback for it, as for any other."""
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/" if isinstance(host, str) else f"http://{host.decode()}:{port}/"

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


LOOPBACK_WS = re.compile(r"^ws://(127\.0\.0\.1|localhost):\d{1,5}/?$")


def make_server(
    directory: str | Path,
    port: int = 0,
    quiet: bool = False,
    netlify_toml: Path = NETLIFY_TOML,
    connect: tuple[str, ...] = (),
) -> Server:
    """``connect``: local relays (``ws://127.0.0.1:PORT/`` only) added to the CSP's connect-src,
    for the online table's tests and for development (see README)."""
    directory = Path(directory).resolve()
    if not (directory / "index.html").is_file():
        raise FileNotFoundError(f"{directory}/index.html not found: run `python3 tools/build.py` first")
    for url in connect:
        if not LOOPBACK_WS.match(url):
            raise ValueError(f"--connect-src takes a loopback relay such as ws://127.0.0.1:8001/, not {url!r}")
    handler = type(
        "ConfiguredHandler",
        (Handler,),
        {"rules": load_header_rules(netlify_toml), "quiet": quiet, "extra_connect": tuple(connect)},
    )
    return Server((HOST, port), partial(handler, directory=str(directory)))


def start_server(
    directory: str | Path = ROOT / "dist",
    port: int = 0,
    quiet: bool = True,
    netlify_toml: Path = NETLIFY_TOML,
    connect: tuple[str, ...] = (),
) -> Server:
    """Start a server on a background thread (port 0 = a free port); call ``.stop()`` when done."""
    server = make_server(directory, port, quiet, netlify_toml, connect)
    threading.Thread(target=server.serve_forever, name="serve", daemon=True).start()
    return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve dist/ with the headers of netlify.toml.")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", type=Path, default=ROOT / "dist")
    parser.add_argument("--quiet", action="store_true", help="do not log requests")
    parser.add_argument(
        "--connect-src",
        action="append",
        default=[],
        metavar="WS_URL",
        help="allow a local relay for the online table (ws://127.0.0.1:PORT/; see README)",
    )
    args = parser.parse_args(argv)
    try:
        server = make_server(args.dir, args.port, args.quiet, connect=tuple(args.connect_src))
    except (FileNotFoundError, OSError, ValueError) as exc:
        print(f"serve: ERROR: {exc}", file=sys.stderr)
        return 1
    print(f"Serving {args.dir} at {server.url}  (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
