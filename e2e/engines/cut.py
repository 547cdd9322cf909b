"""A connection to the site that can be cut, as when a phone goes offline.

Stopping the test server is not enough: its threads keep answering on the connections the
browser keeps alive. The browser talks to this forwarder instead; :meth:`Forwarder.cut` closes
every connection and stops listening on the same address, so the page's origin stays the same
and nothing answers there any more (the service worker must).
"""

from __future__ import annotations

import socket
import threading

__all__ = ["Forwarder"]


class Forwarder:
    """127.0.0.1:<port> forwarded to 127.0.0.1:<target>, byte for byte."""

    def __init__(self, target: int) -> None:
        self.target = target
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._cut = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._cut:
                    client.close()
                    upstream.close()
                    return
                self._open.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                self._close(end)

    def _close(self, end: socket.socket) -> None:
        with self._lock:
            self._open.discard(end)
        try:
            end.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        end.close()

    def cut(self) -> None:
        """Nothing answers at this address any more."""
        with self._lock:
            self._cut = True
            ends = list(self._open)
        try:
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the thread waiting in accept()
        except OSError:
            pass
        self._listener.close()
        for end in ends:
            self._close(end)
