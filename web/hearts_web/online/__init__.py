"""The online table: a host's browser runs the match; guests join by link (see docs/online.md).

Pure modules (no DOM, testable in CPython): :mod:`.protocol` (the versioned message schema and its
checks), :mod:`.host` (seats, remote players, what each guest may see, the fair deal), :mod:`.guest`
(a guest's side). Browser modules: :mod:`.link` (the WebRTC transport, loaded on demand) and
:mod:`.panel` (the panels)."""
