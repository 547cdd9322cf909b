"""The online table in real browsers: host and guests in separate contexts, WebRTC over loopback,
signalling through a local relay, inside a network namespace (see e2e/online_harness.py)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable

from axe import describe, serious_violations
from conftest import shot
from online_harness import (  # noqa: F401  (fixtures)
    CONNECT_MS,
    host_sees_seated,
    host_table,
    join_table,
    needs_netns,
    online_base_url,
    online_browser,
    player,
    received,
    relay,
)
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from shown import shown, warnings_in

pytestmark = needs_netns
CARD = re.compile(r'"([2-9TJQKA][CDSH])"')
PLAYABLE = "#hand button[data-card]:not([aria-disabled='true'])"


def act_once(page: Page) -> bool:
    """Pass (three highest cards) or play the first playable card, if this player is asked."""
    if page.query_selector("dialog[open]"):
        return False
    if page.query_selector("#pass-btn:not([hidden]):not([disabled])") or page.query_selector("#pass-btn:not([hidden])"):
        cards = page.eval_on_selector_all(
            "#hand button[data-card]:not([aria-disabled='true'])", "e => e.map(x => x.dataset.card)"
        )
        if len(cards) == 13:
            choose_three(page)
            if not page.query_selector("#pass-btn:not([hidden]):not([disabled])"):
                return False  # passed already (the button waits, disabled, for the others)
            page.click("#pass-btn")
            return True
    card = page.evaluate("(css) => document.querySelector(css)?.dataset.card ?? null", PLAYABLE)  # (one look)
    if card and not page.query_selector("#pass-btn:not([hidden])"):
        chosen = f'#hand button[data-card="{card}"]'
        try:
            page.click(chosen, timeout=5_000)
        except PlaywrightTimeoutError:  # played meanwhile (a forced card, a bot at the timer's end)?
            if page.query_selector(chosen):
                raise
        return True
    return False


def choose_three(page: Page) -> None:
    """Pick three cards to pass, from the highest down, until three are picked (a tap that a
    state drawn at that very moment swallowed is made again, as a player would)."""
    for _ in range(12):
        picked = page.eval_on_selector_all("#hand button[aria-pressed='true']", "e => e.length")
        if picked >= 3:
            return
        free = page.eval_on_selector_all(
            "#hand button[data-card][aria-pressed='false']", "e => e.map(x => x.dataset.card)"
        )
        assert free, "the hand offers no card to pick (a bot passed for this seat?)"
        card = f'#hand button[data-card="{free[-1]}"]'
        page.click(card)
        try:  # the game's answer, before the next look (a second tap on the same card would undo it)
            page.wait_for_selector(f"{card}[aria-pressed='true']", timeout=5_000)
        except PlaywrightTimeoutError:
            pass  # swallowed: picked again in the next round
    raise AssertionError("three cards could not be picked")


def play_until_summary(pages: list[Page], limit_s: float = 240) -> None:
    """Every person acts when asked until each screen shows the hand summary."""
    end = time.time() + limit_s
    while time.time() < end:
        if all(p.query_selector("dialog[open] .hand-summary") for p in pages):
            return
        moved = False
        for p in pages:
            moved |= act_once(p)
        if not moved:
            pages[0].wait_for_timeout(150)
    raise AssertionError("the hand did not end on every screen in time")


def summary_points(page: Page) -> list[int]:
    cells = page.locator("dialog[open] table.sheet tbody tr").last.locator("td")
    return [int(cells.nth(i).inner_text().split()[0]) for i in range(4)]


def kinds(page: Page) -> dict[str, str]:
    return page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.seat[data-seat]')]"
        ".map(e => [e.dataset.seat, e.dataset.seatKind]))"
    )


def host_record(host: Page) -> dict:
    return json.loads(host.evaluate("localStorage.getItem('hearts.online-match.v1')"))["record"]


def audit(guest_messages: list[dict], record: dict, seat: str) -> None:
    """Every card a guest was sent is its own, passed to it, or already played (per the host's record)."""
    for hand_no, hand in enumerate(record["hands"]):
        dealt = set(hand["deal"][seat])
        plays = hand["plays"]
        giver = {"west": "south", "north": "west", "east": "north", "south": "east"}  # passing left (hand 1)
        received_cards = set(hand.get("passes", {}).get(giver[seat], [])) if hand_no == 0 else set()
        for msg in guest_messages:
            if msg["t"] != "state" or msg["snap"]["view"]["hand_number"] != hand_no:
                continue
            view = msg["snap"]["view"]
            shown = [c for t in view["tricks"] for _, c in t["plays"]] + [c for _, c in view["current_trick"]]
            assert shown == plays[: len(shown)], "a state shows plays the host never made"
            entitled = dealt | received_cards | set(plays[: len(shown)])
            sent = set(CARD.findall(json.dumps(msg)))
            assert sent <= entitled, f"{seat} was sent {sorted(sent - entitled)}"


def test_two_people_and_two_bots_play_a_hand_with_the_same_scores_on_both_screens(player) -> None:  # type: ignore[no-untyped-def]
    """Also: the turn timer (a guest who does not act is played for, and takes the seat back with a
    tap), reactions (shown at the sender's seat, a flood refused, muted), all at this one table.
    The host's first visit: the welcome is offered, and gone once the online match is on the table."""
    host = player("Ada", first_visit=True)
    link = host_table(host, "Ada", query="&timer-speed=10")  # the timer's 30 s pass in 3 s
    assert any("Welcome!" in text for _, what, text in shown(host) if what == "notice")
    guest = player("Ben", speed="normal")  # the one guest whose page animates while states arrive
    join_table(guest, link, "Ben", "west")
    host_sees_seated(host, "west", guest)
    host.select_option("[data-setting='turn-timer']", "30")
    expect(guest.locator("[data-turn-timer-shown]")).to_contain_text("30 s", timeout=CONNECT_MS)
    shot(host, "online-host-lobby-en")
    found = serious_violations(host)
    assert found == [], describe(found)  # the lobby with the timer
    host.click("[data-action='online-start']")
    guest.wait_for_selector("#pass-btn:not([hidden])", timeout=CONNECT_MS)
    # the host passes at once (its own 3 s run too), Ben does not: after the timer a bot passes for
    # him, and his tap takes the seat back
    host.wait_for_selector("#pass-btn:not([hidden])")
    assert act_once(host)
    assert host.locator("#notices [data-notice='welcome']").count() == 0  # not over the online table
    half_open(guest)  # a guest that has its host keeps its room when another peer's join half-opens
    expect_logged(guest, "HalfOpen connected on its side only", timeout_s=5)
    assert logged(guest, "joining the room afresh") == 0
    assert kinds(host) == {"0": "local", "1": "remote", "2": "bot", "3": "bot"}
    assert kinds(guest) == {"0": "local", "1": "bot", "2": "bot", "3": "remote"}  # rotated: West at the bottom
    expect(guest.locator(".seat[data-seat='3'] .name")).to_have_text("Ada")
    expect(host.locator(".seat[data-seat='1'][data-seat-auto='true']")).to_be_visible(timeout=30_000)
    expect(guest.locator(".seat[data-seat='0'][data-seat-auto='true']")).to_be_visible(timeout=CONNECT_MS)
    expect(guest.locator("#online-auto")).to_contain_text("a bot plays for you")
    shot(guest, "online-guest-auto-en")
    guest.click(".seat[data-seat='2']")  # a tap anywhere
    expect(host.locator(".seat[data-seat='1'][data-seat-auto='true']")).to_have_count(0, timeout=CONNECT_MS)
    host.click("[data-action='online']")
    host.select_option("[data-setting='turn-timer']", "0")  # off for the rest of the hand
    host.keyboard.press("Escape")
    # the host's own turn may have come and gone meanwhile (its 3 s): its tap takes its seat back too
    host.click(".seat[data-seat='2']")
    expect(host.locator(".seat[data-seat-auto='true']")).to_have_count(0, timeout=CONNECT_MS)
    reactions(host, guest)
    shot(guest, "online-guest-table-en")
    play_until_summary([host, guest])
    assert summary_points(host) == summary_points(guest)
    assert sum(summary_points(host)) in (26, 78)
    expect(guest.locator("html")).to_have_attribute("data-deal-verified", "true", timeout=CONNECT_MS)
    shot(guest, "online-guest-summary-en")
    audit(received(guest), host_record(host), "west")
    told_the_truth(host, guest)
    joined_in_order(
        guest, "Connecting to the relays", "Connected to 1 of 1 relays", "Pick a free seat", never="Connected to 0"
    )


def told_the_truth(*pages: Page) -> None:
    """Nothing these pages told their players said the connection failed (loopback: it never did)."""
    for page in pages:
        record = shown(page)
        assert record, "the page's record is empty"
        assert warnings_in(record) == [], warnings_in(record)


def joined_in_order(page: Page, *lines: str, never: str) -> None:
    """What a guest's join dialog said, in this order (other lines between allowed); never ``never``."""
    said = [text for _, what, text in shown(page) if what in ("relays", "search", "lobby", "trouble")]
    at = 0
    for line in lines:
        found = next((i for i in range(at, len(said)) if line in said[i]), None)
        assert found is not None, f"{line!r} not said after {said[:at]}: {said}"
        at = found + 1
    assert not any(never in text for text in said), said


def reactions(host: Page, guest: Page) -> None:
    """A reaction reaches the other browser (at the sender's seat); a flood is refused; mute."""
    guest.click("[data-reaction='thumbs']")
    expect(host.locator(".seat[data-seat='1'][data-reaction-shown='👍']")).to_be_visible(timeout=CONNECT_MS)
    expect(guest.locator(".seat[data-seat='0'][data-reaction-shown='👍']")).to_be_visible()
    host.click("[data-reaction='gg']")
    expect(guest.locator(".seat[data-seat='3'][data-reaction-shown='Well played']")).to_be_visible(timeout=CONNECT_MS)
    shot(guest, "online-guest-reaction-en")
    expect(host.locator(".seat[data-seat='1'][data-reaction-shown]")).to_have_count(0, timeout=10_000)
    host.evaluate("""() => { window.__shown = 0; new MutationObserver(ms => { window.__shown += ms.length; })
        .observe(document.querySelector(".seat[data-seat='1']"), {attributes: true, attributeFilter: ['data-reaction-shown']}); }""")
    guest.evaluate(
        "() => { const b = document.querySelector(\"[data-reaction='party']\"); for (let i = 0; i "
        "< 20; i++) b.click(); }"
    )
    host.wait_for_timeout(1500)
    shown = host.evaluate("window.__shown")
    assert 1 <= shown <= 4, shown  # the host let three through (then one every 2 s), not twenty
    host.click("[data-action='online-mute']")
    expect(host.locator("[data-action='online-mute']")).to_have_attribute("aria-pressed", "true")
    assert json.loads(host.evaluate("localStorage.getItem('hearts.settings.v1')"))["mute_reactions"] is True
    host.wait_for_timeout(2500)  # the guest's reactions are let through again
    guest.click("[data-reaction='wow']")
    expect(guest.locator(".seat[data-seat='0'][data-reaction-shown='😮']")).to_be_visible()
    host.wait_for_timeout(1000)
    expect(host.locator(".seat[data-seat='1'][data-reaction-shown='😮']")).to_have_count(0)  # muted
    host.click("[data-action='online-mute']")


def test_four_people_at_one_table(player) -> None:  # type: ignore[no-untyped-def]
    host = player("Ada")
    link = host_table(host, "Ada")
    guests = []
    for name, seat, locale in (("Ben", "west", "de-DE"), ("Cleo", "north", "en-US"), ("Dan", "east", "en-US")):
        page = player(name, locale=locale)
        join_table(page, link, name, seat)
        guests.append(page)
    for seat in ("west", "north", "east"):
        host_sees_seated(host, seat, *guests)
    host.click("[data-action='online-start']")
    for page in guests:
        page.wait_for_selector("#pass-btn:not([hidden])", timeout=CONNECT_MS)
    assert kinds(host) == {"0": "local", "1": "remote", "2": "remote", "3": "remote"}
    expect(guests[0].locator("#prompt")).to_contain_text("Gib 3 Karten")  # German at Ben's screen
    play_until_summary([host, *guests])
    points = summary_points(host)
    assert all(summary_points(p) == points for p in guests)
    record = host_record(host)
    for page, seat in zip(guests, ("west", "north", "east")):
        audit(received(page), record, seat)


def test_a_guest_who_drops_is_played_by_a_bot_and_reclaims_the_seat_and_the_host_can_reload(player) -> None:  # type: ignore[no-untyped-def]
    host = player("Ada")
    link = host_table(host, "Ada")
    guest = player("Ben")
    join_table(guest, link, "Ben", "west")
    host_sees_seated(host, "west", guest)
    host.click("[data-action='online-start']")
    guest.wait_for_selector("#pass-btn:not([hidden])", timeout=CONNECT_MS)
    end = time.time() + 120
    while host.query_selector("#pass-btn:not([hidden])") or guest.query_selector("#pass-btn:not([hidden])"):
        act_once(host) or act_once(guest) or host.wait_for_timeout(200)
        assert time.time() < end
    # the guest's tab goes away: a bot plays West within a few seconds
    context = guest.context
    guest.close()
    expect(host.locator(".seat[data-seat='1']")).to_have_attribute("data-seat-kind", "bot", timeout=15_000)
    start = len(host_record(host)["hands"][0]["plays"])
    for _ in range(8):
        act_once(host)
        host.wait_for_timeout(300)
    assert len(host_record(host)["hands"][0]["plays"]) > start + 1  # West's cards were played meanwhile
    # the same person opens the link again: the seat token in its storage claims West back
    back = context.new_page()
    back.goto(link)
    expect(host.locator(".seat[data-seat='1']")).to_have_attribute("data-seat-kind", "remote", timeout=CONNECT_MS)
    expect(back.locator(".seat[data-seat='0']")).to_have_attribute("data-seat-kind", "local", timeout=CONNECT_MS)
    expect(back.locator("#hand button[data-card]")).to_have_count(
        host.locator(".seat[data-seat='1'] .backs i").count(), timeout=CONNECT_MS
    )  # West's hand, as the host sees it
    # the host reloads: the guest waits for it, then both play on from the saved match
    host.reload()
    host.wait_for_selector("html.ready", state="attached", timeout=CONNECT_MS)
    expect(host.locator(".seat[data-seat='1']")).to_have_attribute("data-seat-kind", "remote", timeout=CONNECT_MS)
    expect(back.locator("html")).not_to_have_class(re.compile("host-away"), timeout=CONNECT_MS)
    play_until_summary([host, back])
    assert summary_points(host) == summary_points(back)


def test_a_hostile_guest_changes_nothing_and_the_table_goes_on(player) -> None:  # type: ignore[no-untyped-def]
    host = player("Ada")
    link = host_table(host, "Ada")
    mallory = player("Mallory")
    join_table(mallory, link, "Mallory", "west")
    host_sees_seated(host, "west", mallory)
    host.click("[data-action='online-start']")
    mallory.wait_for_selector("#pass-btn:not([hidden])", timeout=CONNECT_MS)
    west = mallory.eval_on_selector_all("#hand button[data-card]", "e => e.map(x => x.dataset.card)")
    south = host.eval_on_selector_all("#hand button[data-card]", "e => e.map(x => x.dataset.card)")

    def raw(t: str, seq: int, **fields: object) -> str:
        return json.dumps({"v": 2, "t": t, "seq": seq, **fields})

    hostile = [
        raw("act", 10**6, action={"type": "pass", "seat": "west", "cards": [c for c in south[:3]]}),  # not in hand
        raw("act", 10**6 + 1, action={"type": "pass", "seat": "south", "cards": south[:3]}),  # another seat
        raw("act", 10**6 + 2, action={"type": "play", "seat": "west", "card": west[0]}),  # out of turn
        raw("act", 10**6 + 3, action={"type": "pass", "seat": "west", "cards": west[:2]}),  # two cards
        "garbage",
        "{",
        json.dumps({"v": 2, "t": "act"}),
        "x" * 1_000_000,  # junk, 1 MB
        raw("act", 5, action={"type": "pass", "seat": "west", "cards": west[:3]}),  # replayed
        json.dumps({"v": 99, "t": "hello", "seq": 10**7}),  # other version
        raw("state", 10**6 + 4, snap={}, events=[]),  # pretending to host
    ]
    for text in hostile:
        mallory.evaluate("t => window.__heartsOnlineSend(t)", text)
    # a flood of passes of cards West does not hold (South's: the deal is random, so fixed cards such as
    # 2C 3C 4C would be West's own legal pass in about one deal of 75)
    mallory.evaluate(
        """m => { for (let i = 0; i < 3000; i++) { m.seq = 2e6 + i; window.__heartsOnlineSend(JSON.stringify(m)); } }""",
        {"v": 2, "t": "act", "seq": 0, "action": {"type": "pass", "seat": "west", "cards": south[:3]}},
    )
    host.wait_for_timeout(1500)
    record = host_record(host)
    assert "west" not in record["hands"][0].get("passes", {}) and not record["hands"][0]["plays"]
    assert host.evaluate("document.documentElement.classList.contains('ready')")  # the host's page is fine
    # Mallory's own client is now far behind the numbers it forged (its messages count as replays,
    # so a bot soon plays West): it reloads (a new connection, the same seat token) and plays on
    mallory.reload()
    expect(host.locator(".seat[data-seat='1']")).to_have_attribute("data-seat-kind", "remote", timeout=CONNECT_MS)
    expect(mallory.locator(".seat[data-seat='0']")).to_have_attribute("data-seat-kind", "local", timeout=CONNECT_MS)
    play_until_summary([host, mallory])
    assert summary_points(host) == summary_points(mallory)


def test_a_guest_who_cannot_find_the_host_is_told_why(player) -> None:  # type: ignore[no-untyped-def]
    """The relays work but the host is gone: the join dialog says the relays are connected and that
    the host has not answered (no reload advice: a reload would not help)."""
    host = player("Ada")
    link = host_table(host, "Ada")
    host.close()  # the host is gone before anyone joins: nobody will answer
    guest = player("Ben", locale="de-DE")
    guest.goto(link)
    guest.wait_for_selector("html.ready", state="attached", timeout=CONNECT_MS)
    guest.fill("#online-name", "Ben")
    guest.click("[data-action='online-join']")
    expect(guest.locator("[data-online-connecting]")).to_be_visible()
    expect(guest.locator("[data-relay-status]")).to_have_attribute("data-relays-open", "1", timeout=CONNECT_MS)
    expect(guest.locator("[data-relay-status]")).to_contain_text("Mit 1 von 1 Relays verbunden")
    expect(guest.locator("[data-online-search='looking']")).to_contain_text("Suche den Tisch")
    slow = guest.locator("[data-online-search='silent']")
    expect(slow).to_contain_text("Gastgeber hat noch nicht geantwortet", timeout=60_000)
    expect(guest.locator("[data-online-trouble]")).to_have_count(0)
    shot(guest, "online-guest-no-host-de")
    # in order, and never a word that the relays failed: nobody answered is the only thing wrong
    joined_in_order(guest, "Verbinde mit den Relays", "Suche den Tisch", "noch nicht geantwortet", never="Mit 0 von")
    assert [row[2] for row in warnings_in(shown(guest))] == [slow.inner_text()]
    # a peer's join half-opens while the guest searches: it joins the room afresh at once, not at
    # its next scheduled try (12 s or more after the last, which is awaited first)
    tried = "nobody met us for a while: joining the room afresh"
    expect_logged(guest, tried, timeout_s=60, count=logged(guest, tried) + 1)
    guest.wait_for_timeout(1000)  # that fresh join has finished
    asked = time.time()
    half_open(guest)
    expect_logged(guest, "connected on its side only: joining the room afresh", timeout_s=5)
    assert time.time() - asked < 5


def half_open(page: Page) -> None:
    """Trystero tells this page that a peer's handshake timed out (the test seam in transport.js)."""
    error = "Trystero: handshake timed out after 5000ms"
    page.evaluate("e => window.__heartsOnlineJoinError({error: e, peerId: 'HalfOpenPeer0000'})", error)


def logged(page: Page, text: str) -> int:
    """How many lines of the page's online log (its console's "online: ..." lines) say ``text``."""
    lines: list[str] = page.context._hearts_console  # type: ignore[attr-defined]
    return sum(text in line for line in lines)


def expect_logged(page: Page, text: str, timeout_s: float, count: int = 1) -> None:
    """The page's online log says ``text`` (``count`` times in all) within ``timeout_s``."""
    end = time.time() + timeout_s
    while logged(page, text) < count:
        lines = page.context._hearts_console  # type: ignore[attr-defined]
        assert time.time() < end, f"not logged: {text!r}; the log ends {lines[-8:]}"
        page.wait_for_timeout(100)


def test_a_finished_online_match_counts_for_the_host_and_the_guest(player) -> None:  # type: ignore[no-untyped-def]
    """King of Hearts to 50: the host records its own match; the guest records the same result from
    the host's match-over state once the last deal checks out, each in their own statistics."""
    host = player("Ada")
    link = host_table(host, "Ada", preset="king")
    guest = player("Ben")
    join_table(guest, link, "Ben", "west")
    host_sees_seated(host, "west", guest)
    host.click("[data-action='online-start']")
    guest.wait_for_selector("#pass-btn:not([hidden])", timeout=CONNECT_MS)
    cleo = late_joiner(player, host, link)
    players = [host, guest]
    end = time.time() + 420
    while True:
        play_until_summary(players, limit_s=max(1.0, end - time.time()))
        if cleo in players:  # the same hand on her screen, and she checked its deal
            assert summary_points(cleo) == summary_points(host)
            expect(cleo.locator("html")).to_have_attribute("data-deal-verified", "true", timeout=CONNECT_MS)
        else:
            players.append(cleo)  # she plays North from the next hand
        totals = host.eval_on_selector_all(".seat .pts", "e => e.map(x => +x.textContent)")
        host.click(
            "dialog[open] [data-action='continue']"
        )  # the next hand (the guest's summary closes with it), or the end
        # someone reached the target and one seat alone has the fewest points: the match is over
        # (a tie for the fewest plays on: the rules' default, TieRule.PLAY_ON)
        if max(totals) >= 50 and totals.count(min(totals)) == 1:
            expect(host.locator("dialog[open] svg[data-chart='match-totals']")).to_be_visible(timeout=CONNECT_MS)
            break
        host.wait_for_selector("dialog[open] .hand-summary", state="detached")
    guest.click("dialog[open] [data-action='continue']")
    expect(guest.locator("dialog[open] svg[data-chart='match-totals']")).to_be_visible(timeout=CONNECT_MS)
    shot(guest, "online-guest-match-over-en")
    west_total = int(host.locator(".seat[data-seat='1'] .pts").inner_text())
    south_total = int(host.locator(".seat[data-seat='0'] .pts").inner_text())
    for page, total in ((host, south_total), (guest, west_total)):
        page.wait_for_function(
            "() => (JSON.parse(localStorage.getItem('hearts.stats.v1') || '{}').history || []).length",
            timeout=CONNECT_MS,
        )
        stats = json.loads(page.evaluate("localStorage.getItem('hearts.stats.v1')"))
        [entry] = stats["history"]
        assert entry["online"] and entry["preset"] == "king" and entry["points"] == total, entry
        said = page.locator("dialog[open] .result-big").inner_text()
        assert ("You win" in said) == (entry["place"] == 1), said  # each screen speaks for its own player
        assert stats["online"]["matches"] == 1 and stats["levels"] == {}
    # Cleo played from the second hand only: the same totals, and her statistics do not count the match
    cleo.click("dialog[open] [data-action='continue']")
    expect(cleo.locator("dialog[open] svg[data-chart='match-totals']")).to_be_visible(timeout=CONNECT_MS)
    assert int(cleo.locator(".seat[data-seat='0'] .pts").inner_text()) == int(
        host.locator(".seat[data-seat='2'] .pts").inner_text()
    )
    expect_logged(cleo, "this player sat down during it", timeout_s=30)
    assert "history" not in json.loads(cleo.evaluate("localStorage.getItem('hearts.stats.v1') || '{}'"))
    told_the_truth(host, guest, cleo)
    cleo.click("dialog[open] [data-action='online-leave']")  # she goes: Ben alone is asked to play again
    rematch(host, guest)
    for page in (host, guest):
        page.keyboard.press("Escape")
        page.click(".tool[data-action='stats']")
        expect(page.locator("dialog[open] [data-stats-online] [data-stats-matches]")).to_have_attribute(
            "data-stats-matches", "1"
        )


def late_joiner(player: Callable[..., Page], host: Page, link: str) -> Page:
    """Cleo (German) opens the invitation during the first hand: she reads that the match is under
    way and who plays, takes North (a bot's seat), and is told she plays it from the next hand."""
    cleo = player("Cleo", locale="de-DE")
    cleo.goto(link)
    cleo.wait_for_selector("html.ready", state="attached", timeout=CONNECT_MS)
    cleo.fill("#online-name", "Cleo")
    cleo.click("[data-action='online-join']")
    lobby = cleo.locator("[data-online-lobby][data-online-under-way]")
    expect(lobby).to_contain_text("Die Partie läuft schon", timeout=CONNECT_MS)
    expect(cleo.locator("[data-lobby-seat='north']")).to_contain_text("ein Bot spielt")
    expect(cleo.locator("[data-lobby-seat='north'] .sum-name")).not_to_have_text("Freier Platz")
    expect(cleo.locator("[data-lobby-seat='west']")).to_contain_text("Ben")
    shot(cleo, "online-late-joiner-de")
    cleo.click("[data-action='online-sit'][data-seat='north']")
    expect(lobby).to_contain_text("Du spielst Nord ab dem nächsten Spiel", timeout=CONNECT_MS)
    expect(host.locator("#toast")).to_contain_text("Cleo sits down at North", timeout=CONNECT_MS)
    assert kinds(host)["2"] == "bot"  # a bot plays North to the end of this hand
    joined_in_order(
        cleo,
        "Verbinde mit den Relays",
        "Mit 1 von 1 Relays verbunden",
        "Die Partie läuft schon",
        "Du spielst Nord",
        never="Mit 0 von",
    )
    return cleo


def rematch(host: Page, guest: Page) -> None:
    """At match over the host offers "Play again", the guest accepts: both keep their seats and
    the new match's first deal is a fresh one, checked by the guest."""
    first_deal = host_record(host)["hands"][0]["deal"]
    expect(guest.locator("dialog[open] [data-action='online-rematch']")).to_be_visible()
    host.click("dialog[open] [data-action='online-rematch']")
    expect(host.locator("[data-rematch-seat='west'][data-answer='asked']")).to_be_visible(timeout=CONNECT_MS)
    expect(guest.locator("dialog[open] [data-rematch-offer]")).to_contain_text("Ada", timeout=CONNECT_MS)
    shot(guest, "online-guest-rematch-en")
    shot(host, "online-host-rematch-en")
    for page in (host, guest):
        found = serious_violations(page)
        assert found == [], describe(found)  # match over with the rematch offered
    guest.click("dialog[open] [data-action='online-rematch']")
    for page in (host, guest):
        page.wait_for_selector("#pass-btn:not([hidden])", timeout=CONNECT_MS)
        assert page.eval_on_selector_all(".seat .pts", "e => e.map(x => +x.textContent)") == [0, 0, 0, 0]
    assert kinds(host) == {"0": "local", "1": "remote", "2": "bot", "3": "bot"}
    assert kinds(guest) == {"0": "local", "1": "bot", "2": "bot", "3": "remote"}
    play_until_summary([host, guest])
    expect(guest.locator("html")).to_have_attribute("data-deal-verified", "true", timeout=CONNECT_MS)
    record = host_record(host)
    assert len(record["hands"]) == 1 and record["hands"][0]["deal"] != first_deal
    commits = [m for m in received(guest) if m["t"] == "commit" and m["hand"] == 0]
    assert len(commits) == 2 and commits[0]["hash"] != commits[1]["hash"]  # a new commitment for the new deal


def _forced_for_west(guest: Page) -> str | None:
    """The card of a forced question to West in the last state the guest received (the page may
    still be drawing an earlier one), if it is one."""
    states = [m for m in received(guest) if m["t"] == "state"]
    view = states[-1]["snap"]["view"] if states else None
    if (
        view
        and view.get("turn") == "west"
        and len(view.get("legal") or []) == 1
        and states[-1]["snap"]["phase"] == "playing"
    ):
        return str(view["legal"][0])
    return None


def test_a_forced_card_at_an_idle_guests_seat_is_played_by_the_bot_which_keeps_the_seat(player) -> None:  # type: ignore[no-untyped-def]
    """With the turn timer on, Ben walks away and a bot plays for him. His page keeps the settings
    as they come ("Play a forced card by itself" on): when he holds a single legal card, the page
    does not play it for him (the host would take that for his tap, drop the bot and start a
    countdown at a seat nobody is at). The bot plays it and keeps the seat until Ben taps."""
    host = player("Ada")
    link = host_table(
        host, "Ada", query="&timer-speed=10&speed=slow"
    )  # slow: the host's bots take 0.6 s, more than the 0.5 s beat
    guest = player("Ben")
    guest.add_init_script(
        "localStorage.setItem('hearts.settings.v1', JSON.stringify({difficulty: 'easy'}))"
    )  # autoplay as it comes: on
    join_table(guest, link, "Ben", "west")
    host_sees_seated(host, "west", guest)
    host.select_option("[data-setting='turn-timer']", "30")
    expect(guest.locator("[data-turn-timer-shown]")).to_contain_text("30 s", timeout=CONNECT_MS)
    host.click("[data-action='online-start']")
    guest.wait_for_selector("#pass-btn:not([hidden])", timeout=CONNECT_MS)
    assert act_once(host)  # Ada passes; Ben has walked away: after 30 s (3 s here) a bot passes for him
    ben_auto = host.locator(".seat[data-seat='1'][data-seat-auto='true']")
    expect(ben_auto).to_be_visible(timeout=30_000)
    forced = None
    end = time.time() + 240
    while forced is None and time.time() < end and not host.query_selector("dialog[open] .hand-summary"):
        card = _forced_for_west(guest)
        if card is not None:  # Ben holds a single legal card: the bot plays it, his page does not
            guest.wait_for_selector(f'#hand button[data-card="{card}"]', state="detached", timeout=30_000)
            for _ in range(8):  # and for a while after it, the seat is still the bot's, with no countdown
                expect(ben_auto).to_be_visible()
                expect(host.locator(".seat[data-seat='1'][data-countdown]")).to_have_count(0)
                host.wait_for_timeout(250)
            expect(guest.locator("#online-auto")).to_contain_text("a bot plays for you")
            forced = card
        elif not act_once(host):
            host.wait_for_timeout(100)
    assert forced, "no forced card came to Ben's seat in this hand"
    shot(guest, "online-guest-forced-auto-en")
    guest.click(
        "#dlg-body" if guest.query_selector("dialog[open]") else ".seat[data-seat='2']"
    )  # his tap ends the bot's turn
    expect(ben_auto).to_have_count(0, timeout=CONNECT_MS)
