"""A browser without WebRTC (none built in, or switched off: Lockdown Mode on an iPhone, a policy,
Firefox's ``media.peerconnection.enabled=false``) is told in plain words that it cannot join online
tables and why, when it would host and when it opens an invitation; nothing crashes and the game
goes on. Chromium with ``RTCPeerConnection`` removed before the page runs: no peer connection is
ever made, so no network namespace is needed (the smoke path checks Debian's WebKitGTK, which has
none)."""

from __future__ import annotations

import pytest
from conftest import goto_ready
from playwright.sync_api import Page, expect
from ui_helpers import pass_three, use_settings, wait_my_turn_or_dialog

NO_WEBRTC = "delete window.RTCPeerConnection; delete window.webkitRTCPeerConnection;"
# an invitation's form: a room of 20 base32 letters, the host's public key (87 base64url characters)
INVITATION = "#online=" + "a" * 20 + ".B" + "A" * 86
SAYS = {
    "en-US": ("This browser cannot join online tables", "WebRTC", "Lockdown Mode"),
    "de-DE": ("Dieser Browser kann nicht an Online-Tischen spielen", "WebRTC", "Blockierungsmodus"),
}


def without_webrtc(page: Page) -> None:
    page.add_init_script(NO_WEBRTC)
    use_settings(page)


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_hosting_or_invited_without_webrtc_the_page_says_why_and_the_game_goes_on(page: Page, locale: str) -> None:
    without_webrtc(page)
    goto_ready(page, "/?speed=instant&seed=no-webrtc")
    page.click(".tool[data-action='online']")
    body = page.locator("dialog[open] [data-no-webrtc]")
    for words in SAYS[locale]:
        expect(body).to_contain_text(words)
    assert page.locator("dialog[open] [data-action='online-host']").count() == 0  # nothing to press in vain
    page.click("dialog[open] .dlg-x")
    expect(page.locator("dialog[open]")).to_have_count(0)  # the game has taken the close
    expect(page.locator("#fatal")).to_be_hidden()
    pass_three(page)  # the game goes on
    page.wait_for_selector("#hand button[data-card]:not([aria-disabled='true'])")
    # an invitation opens the player's own game, under the same sentence
    goto_ready(page, "/?speed=instant&seed=no-webrtc-link" + INVITATION)
    for words in SAYS[locale]:
        expect(body).to_contain_text(words)
    page.click("dialog[open] .dlg-x")
    expect(page.locator("dialog[open]")).to_have_count(0)  # the game has taken the close
    expect(page.locator("#fatal")).to_be_hidden()
    assert wait_my_turn_or_dialog(page) in ("play", "pass")  # the match saved above, resumed
