"""hearts_web.online.connection: what a page says about its connection to the table."""

from __future__ import annotations

from hearts_web.core.i18n import set_lang
from hearts_web.online.connection import (
    RELAY_WAIT,
    SILENT_AFTER,
    ConnectionWatch,
    RelayState,
    Search,
    Trouble,
    search_html,
    search_phase,
    status_html,
    trouble_html,
)


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


def test_nothing_is_wrong_before_the_relays_first_report_however_long_the_page_waited() -> None:
    """The watch starts with the page (a guest may read the invitation for minutes before Join):
    the wait for a relay counts from the relays' first report, and relays on their first try have
    not failed."""
    clock = Clock()
    watch = ConnectionWatch(clock)
    clock.now += 10 * RELAY_WAIT
    assert watch.trouble() is Trouble.NONE
    watch.relays_changed(RelayState(0, 8, trying=8))
    assert watch.trouble() is Trouble.NONE
    clock.now += RELAY_WAIT - 0.1
    assert watch.trouble() is Trouble.NONE
    clock.now += 0.2
    assert watch.trouble() is Trouble.NO_RELAY  # none answered in the wait: that is known now


def test_relays_on_their_first_try_read_as_connecting_not_as_none_connected() -> None:
    assert "Connecting to the relays" in status_html(RelayState(0, 1, trying=1))
    assert "Connecting to the relays" in status_html(None)
    assert "Connected to 0 of 3 relays" in status_html(RelayState(0, 3, trying=0, all_failed=True))
    assert "Connected to 1 of 3 relays" in status_html(RelayState(1, 3, trying=2))


def test_a_search_names_what_it_tries_and_says_the_host_is_silent_only_when_nobody_answered() -> None:
    up = RelayState(1, 1)
    assert search_phase(None, answered=False, looked_for=-1) is Search.RELAYS
    assert search_phase(RelayState(0, 1, trying=1), answered=False, looked_for=-1) is Search.RELAYS
    assert search_phase(RelayState(0, 1, trying=1), answered=False, looked_for=SILENT_AFTER) is Search.SILENT
    assert search_phase(up, answered=False, looked_for=0.0) is Search.LOOKING
    assert search_phase(up, answered=False, looked_for=SILENT_AFTER) is Search.SILENT
    # a browser answered: the host is there, a path is being tried (never "has not answered")
    assert search_phase(up, answered=True, looked_for=10 * SILENT_AFTER) is Search.CONNECTING
    assert "Looking for the table" in search_html(Search.LOOKING, Trouble.NONE, False)
    assert "connecting directly" in search_html(Search.CONNECTING, Trouble.NONE, False)
    assert "has not answered yet" in search_html(Search.SILENT, Trouble.NONE, False)
    assert 'data-online-trouble="no-path"' in search_html(Search.CONNECTING, Trouble.NO_PATH, False)
    assert search_html(Search.RELAYS, Trouble.NONE, False) == ""  # the relays' own line says it
    try:
        set_lang("de")
        assert "Tisch gefunden" in search_html(Search.CONNECTING, Trouble.NONE, False)
        assert "Suche den Tisch" in search_html(Search.LOOKING, Trouble.NONE, False)
        assert "Verbinde mit den Relays" in status_html(RelayState(0, 2, trying=2))
    finally:
        set_lang("en")
