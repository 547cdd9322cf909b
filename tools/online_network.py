"""The online table's network as the build reads it: ``web/hearts_web/online/network.json``.

The page's ``hearts_web.online.config`` reads the same file (the relays, the STUN servers, the rules
of an ICE server list); the build reads it as data and imports nothing of the page's. It checks the
site's TURN servers (``HEARTS_TURN``) by the file's rules before it writes them into the page, as
the page checks them when it reads them (tests/web/test_online_config.py holds both checks to the
same answers).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

NETWORK_FILE = Path("web") / "hearts_web" / "online" / "network.json"  # from the repository's root


def load(root: Path) -> dict[str, Any]:
    """network.json of the repository at ``root``."""
    data: dict[str, Any] = json.loads((root / NETWORK_FILE).read_text(encoding="utf-8"))
    return data


def ice_servers(value: object, rules: dict[str, Any]) -> tuple[dict[str, object], ...]:
    """``value`` (parsed JSON) as a list of ``RTCIceServer`` objects, checked by ``rules`` (the file's
    ``ice_servers``: at most ``most`` servers, each with ``urls`` matching ``url``, a single URL or a
    list, and for TURN a ``username`` and a ``credential`` of at most ``text_most`` characters).
    Raises ``ValueError`` with the reason, in the page's words."""
    most, url, text_most = int(rules["most"]), re.compile(str(rules["url"])), int(rules["text_most"])
    if not isinstance(value, list) or len(value) > most:
        raise ValueError(f"a list of at most {most} ICE servers is needed")
    servers: list[dict[str, object]] = []
    for i, item in enumerate(value):
        if not isinstance(item, dict) or not set(item) <= {"urls", "username", "credential"}:
            raise ValueError(f"server {i + 1}: an object with urls, username and credential only")
        urls = item.get("urls")
        urls = [urls] if isinstance(urls, str) else urls
        if not isinstance(urls, list) or not urls or not all(isinstance(u, str) and url.match(u) for u in urls):
            raise ValueError(f"server {i + 1}: urls must be stun:, turn: or turns: URLs")
        turn = any(u.startswith("turn") for u in urls)
        extra = {k: item[k] for k in ("username", "credential") if k in item}
        texts = all(isinstance(v, str) and 0 < len(v) <= text_most for v in extra.values())
        if not texts or (turn and len(extra) != 2):
            raise ValueError(f"server {i + 1}: a TURN server needs a username and a credential (text)")
        servers.append({"urls": list(urls), **extra})
    return tuple(servers)
