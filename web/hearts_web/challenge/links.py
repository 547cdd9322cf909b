"""Challenge links: a deal sent to a friend (the same cards, passes and bot seeds, and this
player's result), opened by ``?challenge=<token>``, played as a one-hand game and compared.

The engine makes and checks the token (:mod:`hearts.challenge`); this module offers it on the page.
Registers ``challenge`` (the hand summary's "Play this deal with a friend"), ``challenge-copy`` and
``challenge-replace`` (a second link while a challenge game is unfinished: play the new one), says
what the friend faces (hand, rules, bots), and ends a challenge game with both results side by side.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from hearts import Seat
from hearts.challenge import Challenge, ChallengeError, challenge_match, compare, decode, encode
from hearts.daily import share_markers
from hearts.rules import preset_name

from ..core.commands import Commands, Press
from ..core.dom import by_id, call, qs, window
from ..core.html import esc
from ..core.i18n import t
from ..daily.html import SHARE_GLYPH
from ..data.registry import CHALLENGE_GAME, SavedData
from ..data.session import Mode, Session, SessionState
from ..screen import page
from ..screen.dialogs import Dialogs
from ..table.door import SessionDoor
from ..table.view import TableView

__all__ = ["ChallengeLinks", "TableDoor"]

ME = Seat.SOUTH


class TableDoor(SessionDoor, Protocol):
    """What challenge links need of the table (:class:`~hearts_web.table.loop.TableLoop`)."""

    def enter(self, session: Session) -> None: ...

    def save(self) -> None: ...

    def ending(self, mode: Mode, end: Callable[[Session, bool], Awaitable[None]]) -> None: ...


def _markers_line(markers: tuple[str, ...] | None) -> str:
    return "".join(SHARE_GLYPH.get(m, "○") for m in markers or ())


def _address(token: str) -> None:
    """The page's address names the challenge ``token`` (its other parameters stay)."""
    url = window.URL.new(window.location.href)
    url.searchParams.set("challenge", token)
    window.history.replaceState(None, "", url.href)


def faces(challenge: Challenge) -> str:
    """What the friend plays: the hand, the rules and the bots (who answer alike for everyone)."""
    preset = preset_name(challenge.rules) or "custom"
    return t(
        "challenge_faces", n=challenge.hand + 1, rules=t(f"preset_short_{preset}"), level=t(f"diff_{challenge.level}")
    )


def to_beat(challenge: Challenge) -> str:
    """The sender's result, when the link carries one."""
    if challenge.points is None:
        return ""
    return t("challenge_to_beat", by=challenge.by or t("challenge_friend"), points=challenge.points)


class ChallengeLinks:
    def __init__(
        self, commands: Commands, table: TableDoor, saved: SavedData, view: TableView, dialogs: Dialogs
    ) -> None:
        self.table, self.saved, self.view, self.dialogs = table, saved, view, dialogs
        commands.add("challenge", self.make)
        commands.add(
            "challenge-copy", lambda _: page.guard(self._copy(str(by_id("challenge-link").getAttribute("href"))))
        )
        commands.add("challenge-replace", lambda _: self._replace())
        table.ending(Mode.CHALLENGE, self.game_over)
        self._waiting: str | None = None  # a link opened while another challenge game is unfinished

    def challenge_of(self, session: Session, hand_number: int) -> Challenge:
        m = session.match
        hand = next(
            (h for h in m.hands if h.hand_number == hand_number and h.result is not None),
            next(h for h in reversed(m.hands) if h.result is not None),
        )
        if session.state.mode is Mode.CHALLENGE and session.state.challenge:
            base = decode(session.state.challenge)
            seed, number, rules, level = base.seed, base.hand, base.rules, base.level
        else:
            seed, number, rules, level = m.seed or "", hand.hand_number, m.rules, session.state.difficulty
        assert hand.result is not None
        if session.state.practice:  # hints or undo were used: the deal only, no result to beat
            return Challenge(seed=seed, hand=number, rules=rules, level=level)
        return Challenge(
            seed=seed,
            hand=number,
            rules=rules,
            level=level,
            by=None,
            points=hand.result.points[ME],
            markers=share_markers(hand),
        )

    def make(self, press: Press) -> None:
        """A link for a friend: the same deal, passes and bot seeds, and this player's result."""
        hand_number = press.number("hand")
        if hand_number is None:
            hand_number = -1
        session = self.table.session
        if session is None or not session.deal_can_be_shared:
            self.view.show_error(t("challenge_unavailable"))
            return
        try:
            challenge = self.challenge_of(session, hand_number)
            token = encode(challenge)
        except ChallengeError as exc:  # e.g. a ?seed= too long for a link
            window.console.warn(f"hearts: no challenge link: {exc}")
            self.view.show_error(t("challenge_unavailable"))
            return
        loc = window.location
        link = f"{loc.origin}{loc.pathname}?challenge={token}"
        intro = t("challenge_send_practice") if challenge.points is None else t("challenge_send")
        html = (
            f'<div class="challenge-out"><p>{esc(intro)}</p><p class="note" '
            f"data-challenge-faces>{esc(faces(challenge))}</p>"
            f'<p class="invite"><a id="challenge-link" data-challenge-link href="{esc(link)}">{esc(link)}</a></p>'
            '<div class="dlg-actions"><button type="button" class="secondary" '
            f'data-action="challenge-copy">{esc(t("online_copy"))}</button></div></div>'
        )
        out = qs("#dlg-body .challenge-slot")
        if out is not None:
            out.innerHTML = html
        else:
            self.dialogs.open(t("challenge_title"), html)

    async def _copy(self, text: str) -> None:
        try:
            await call("clipboard", text)
            self.view.toast(t("online_copied"))
        except RuntimeError:  # the link is on screen to copy by hand
            self.view.toast(t("copy_manual"), seconds=6)

    def open(self, token: str) -> bool:
        """``?challenge=<token>``: play that deal; a bad or tampered link says so, then the normal table."""
        try:
            challenge = decode(token)
        except ChallengeError as exc:
            window.console.warn(f"hearts: challenge link refused: {exc}")
            self.view.toast(t("challenge_bad"), warn=True, seconds=9)
            window.history.replaceState(None, "", window.location.pathname)
            return False
        token = encode(challenge)
        saved = self.saved.load(CHALLENGE_GAME)
        if saved is not None and saved.state.challenge == token:  # a reload: go on where it was
            self.table.enter(saved)  # its bots decide with the original match's seeds
            return True
        if saved is not None and saved.state.challenge and not saved.match.is_over:
            self._ask(saved, token)
            return True
        self._start(challenge, token)
        return True

    def _start(self, challenge: Challenge, token: str) -> None:
        state = SessionState(mode=Mode.CHALLENGE, difficulty=challenge.level, challenge=token)
        self.table.enter(Session(challenge_match(challenge), state))
        self.table.save()
        told = " ".join(x for x in (to_beat(challenge), faces(challenge)) if x)
        self.view.toast("", seconds=8, html=f"<div data-challenge-intro>{esc(told)}</div>")

    def _ask(self, saved: Session, token: str) -> None:
        """Another challenge game is unfinished: it goes on, and the player is asked whether to
        play the new link's deal instead (which ends the unfinished one without a result)."""
        self._waiting = token
        self.table.enter(saved)
        assert saved.state.challenge is not None
        _address(saved.state.challenge)  # a reload goes on with the game on the table
        new = decode(token)
        body = (
            f'<p>{esc(t("challenge_unfinished"))}</p><p class="note">{esc(faces(new))}</p>'
            '<div class="dlg-actions">'
            '<button type="button" class="secondary" '
            f'data-action="challenge-replace">{esc(t("challenge_play_new"))}</button>'
            '<button type="button" class="primary" data-action="close-dialog" '
            f"autofocus>{esc(t('challenge_keep'))}</button></div>"
        )
        self.dialogs.open(t("challenge_title"), body)

    def _replace(self) -> None:
        token, self._waiting = self._waiting, None
        self.dialogs.close()
        if token is not None:
            _address(token)
            self._start(decode(token), token)

    async def game_over(self, session: Session, resumed: bool) -> None:
        """After the hand: both results side by side, and a link that carries this one back."""
        self.view.show(session.snapshot())
        m = session.match
        theirs = decode(session.state.challenge) if session.state.challenge else None
        hand = m.hands[0]
        assert hand.result is not None
        mine = hand.result.points[ME]
        rows = [
            f"<tr><td>{esc(t('seat_name_0'))}</td><td "
            f"data-challenge-mine>{mine}</td><td>{esc(_markers_line(share_markers(hand)))}</td></tr>"
        ]
        if theirs is not None and theirs.points is not None:
            rows.append(
                f"<tr><td>{esc(theirs.by or t('challenge_friend'))}</td><td data-challenge-theirs>{theirs.points}</td>"
                f"<td>{esc(_markers_line(theirs.markers))}</td></tr>"
            )
        verdict = ""
        if theirs is not None and theirs.points is not None:
            verdict = {-1: t("challenge_won"), 0: t("challenge_tie"), 1: t("challenge_lost")}[
                compare(mine, theirs.points)
            ]
        note = f'<p class="note">{esc(t("challenge_practice"))}</p>' if session.state.practice else ""
        body = (
            f'<p class="result-big">{esc(verdict)}</p>{note}<table class="sheet"><tbody>{"".join(rows)}</tbody></table>'
            '<div class="challenge-slot"></div><div class="dlg-actions">'
            f'<button type="button" class="secondary" data-action="review" data-hand="0">{esc(t("review"))}</button>'
            f'<button type="button" class="secondary" data-action="back-to-match">{esc(t("back_to_match"))}</button>'
            '<button type="button" class="primary" data-action="challenge" data-hand="0" '
            f"autofocus>{esc(t('challenge_reply'))}</button></div>"
        )
        self.dialogs.open(t("challenge_title"), body, "dlg-end")
