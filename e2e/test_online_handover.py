"""A table that outlives its host, in real browsers (WebRTC over loopback inside a network
namespace, see e2e/online_harness.py): the host leaves mid-match, a guest carries the table on with
the scores so far, the other guest follows and checks the new deal, and the former host comes back
as a guest at its own seat (told by the new host itself: the other guest has gone by then)."""

from __future__ import annotations

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
    relay,
)
from playwright.sync_api import Page, expect
from test_online_table import act_once, play_until_summary

pytestmark = needs_netns
HANDOVER_AFTER = 8  # seconds (the page's ?handover-after= seam; a minute for players)


def phone_shot(page: Page, name: str) -> None:
    """A screenshot at a phone's size (the players' taps happen at the desktop size)."""
    size = page.viewport_size
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    shot(page, name)
    if size is not None:
        page.set_viewport_size(size)


def totals_by_name(page: Page, me: str) -> dict[str, int]:
    """Each person's total as this page shows it ("You" is the page's own player)."""
    rows = page.eval_on_selector_all(
        ".seat[data-seat]", "e => e.map(x => [x.querySelector('.name').innerText, +x.querySelector('.pts').innerText])"
    )
    return {(me if name in ("You", "Du") else name): pts for name, pts in rows}


def test_a_guest_carries_the_table_on_and_the_host_comes_back_as_a_guest(player) -> None:  # type: ignore[no-untyped-def]
    ada = player("Ada")
    link = host_table(ada, "Ada")
    link = link.replace("#", f"&handover-after={HANDOVER_AFTER}#")
    ben, cleo = player("Ben"), player("Cleo", locale="de-DE")
    join_table(ben, link, "Ben", "west")
    join_table(cleo, link, "Cleo", "east")
    host_sees_seated(ada, "west", ben)
    host_sees_seated(ada, "east", cleo)
    ada.click("[data-action='online-start']")
    ben.wait_for_selector("#pass-btn:not([hidden])", timeout=CONNECT_MS)
    play_until_summary([ada, ben, cleo])
    before = totals_by_name(ada, "Ada")
    assert before == totals_by_name(ben, "Ben") == totals_by_name(cleo, "Cleo")
    ada.click("dialog[open] [data-action='continue']")
    for page in (ben, cleo):  # the second hand: the guests pass, then the host's browser goes away for good
        page.wait_for_selector("#pass-btn:not([hidden])", timeout=CONNECT_MS)
        assert act_once(page)
    host_url = ada.url
    ada.close()

    offer = ben.locator("[data-online-handover]")
    expect(offer).to_be_visible(timeout=CONNECT_MS)
    expect(offer).to_contain_text("Ada, the host, has been gone")
    expect(cleo.locator("[data-online-handover]")).to_contain_text("Ada hat den Tisch eröffnet", timeout=CONNECT_MS)
    shot(ben, "online-handover-offer-en")
    phone_shot(cleo, "online-handover-offer-de-phone")
    ben.click("[data-action='online-carry-on']")

    expect(cleo.locator("#toast")).to_contain_text("Ben leitet den Tisch", timeout=CONNECT_MS)
    phone_shot(cleo, "online-handover-followed-de-phone")
    for page in (ben, cleo):  # the hand under way is dealt afresh, the scores so far kept
        page.wait_for_selector("#pass-btn:not([hidden])", timeout=CONNECT_MS)
    assert totals_by_name(ben, "Ben") == before == totals_by_name(cleo, "Cleo")
    kinds = ben.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.seat[data-seat]')]"
        ".map(e => [e.querySelector('.name').innerText, e.dataset.seatKind]))"
    )
    assert kinds["Ada"] == "bot" and kinds["Cleo"] == "remote", kinds  # a bot plays the old host's seat
    play_until_summary([ben, cleo])
    expect(cleo.locator("html")).to_have_attribute("data-deal-verified", "true", timeout=CONNECT_MS)

    cleo.close()  # only the new host is left to tell the former host what happened
    back = ada.context.new_page()  # the former host comes back: its saved table, in the same browser
    back.goto(host_url)
    back.wait_for_selector("html.ready", state="attached", timeout=CONNECT_MS)
    expect(back.locator("#toast")).to_contain_text("Ben carried your table on", timeout=CONNECT_MS)
    expect(ben.locator(".seat[data-seat='3']")).to_have_attribute("data-seat-kind", "remote", timeout=CONNECT_MS)
    expect(back.locator(".seat[data-seat='0']")).to_have_attribute("data-seat-kind", "local", timeout=CONNECT_MS)
    assert "#online=" in back.url  # a reload now joins as the guest it is
    shot(back, "online-handover-host-back-en")
