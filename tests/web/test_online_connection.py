"""hearts_web.online.connection: what a page says about its connection to the table."""

from __future__ import annotations

from hearts_web.core.i18n import set_lang
from hearts_web.online.connection import RELAY_WAIT, ConnectionWatch, RelayState, Trouble, status_html, trouble_html


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_no_relay_is_said_after_the_wait_or_at_once_when_every_relay_refused() -> None:
    clock = Clock()
    watch = ConnectionWatch(clock)
    assert watch.trouble() is Trouble.NONE
    watch.relays_changed(RelayState(0, 8))
    clock.now += RELAY_WAIT - 0.1
    assert watch.trouble() is Trouble.NONE  # still connecting
    clock.now += 0.2
    assert watch.trouble() is Trouble.NO_RELAY
    watch.relays_changed(RelayState(1, 8))
    assert watch.trouble() is Trouble.NONE  # one is enough
    watch.relays_changed(RelayState(0, 8, all_failed=True))
    assert watch.trouble() is Trouble.NO_RELAY  # every one refused: at once


def test_the_wait_starts_again_when_the_last_relay_closes() -> None:
    clock = Clock()
    watch = ConnectionWatch(clock)
    watch.relays_changed(RelayState(2, 3))
    clock.now += 100
    watch.relays_changed(RelayState(0, 3))
    assert watch.trouble() is Trouble.NONE  # it may come back: give it the wait
    clock.now += RELAY_WAIT
    assert watch.trouble() is Trouble.NO_RELAY


def test_no_path_until_connected() -> None:
    watch = ConnectionWatch(Clock())
    watch.relays_changed(RelayState(3, 3))
    watch.path_failed()
    assert watch.trouble() is Trouble.NO_PATH
    watch.connected()
    assert watch.trouble() is Trouble.NONE


def test_the_words_in_both_languages() -> None:
    try:
        assert "Connected to 5 of 8 relays" in status_html(RelayState(5, 8))
        assert 'data-relays-open="5"' in status_html(RelayState(5, 8))
        assert "no relay server (TURN)" in trouble_html(Trouble.NO_PATH, has_turn=False, host=False)
        assert "relay server (TURN) could be reached" in trouble_html(Trouble.NO_PATH, has_turn=True, host=False)
        assert "cannot reach your table" in trouble_html(Trouble.NO_RELAY, has_turn=False, host=True)
        assert trouble_html(Trouble.NONE, has_turn=False, host=False) == ""
        set_lang("de")
        assert "Mit 5 von 8 Relays verbunden" in status_html(RelayState(5, 8))
        assert "keine direkte Verbindung" in trouble_html(Trouble.NO_PATH, has_turn=False, host=False)
        assert "Kein Relay antwortet" in trouble_html(Trouble.NO_RELAY, has_turn=False, host=False)
    finally:
        set_lang("en")
