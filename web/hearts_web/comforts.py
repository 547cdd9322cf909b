"""What players ask for beyond the rules: take back a card while practising, claim the rest of a
decided hand, review a hand, and play the same deal as a friend (challenge links).

The engine decides each of them (:mod:`hearts.undo`, ``Match.can_claim``, :mod:`hearts.review`,
:mod:`hearts.challenge`); this module offers them on the page.
"""

from __future__ import annotations

from typing import Any, Protocol

from hearts import Claim, Match, Seat, match_from_record, match_to_record
from hearts.challenge import Challenge, ChallengeError, challenge_match, challenge_rngs, compare, decode, encode
from hearts.daily import share_markers
from hearts.table import Player

from .daily_html import SHARE_GLYPH
from .dialogs import Dialogs
from .dom import by_id, qs, window
from .i18n import t
from .players import HumanPlayer
from .table_html import esc
from .review_dialog import ReviewUI
from .session import Mode, Session, SessionState
from .store import CHALLENGE_GAME_KEY, Store
from .table_view import TableView

__all__ = ["Comforts", "ComfortHost"]

ME = Seat.SOUTH


class ComfortHost(Protocol):
    store: Store
    dialogs: Dialogs
    view: TableView
    human: HumanPlayer

    @property
    def session(self) -> Session | None: ...

    def enter(self, session: Session, players: list[Player] | None = None, extra: Any = None) -> None: ...

    def save(self) -> None: ...

    def render_badge(self) -> None: ...

    def guard(self, coro: Any) -> None: ...

    def challenge_players(self, challenge: Challenge) -> list[Player]: ...

    def resume_or_new(self) -> None: ...

    def load_session(self, key: str) -> Session | None: ...


def _markers_line(markers: tuple[str, ...] | None) -> str:
    return "".join(SHARE_GLYPH.get(m, "○") for m in markers or ())


class Comforts:
    def __init__(self, host: ComfortHost) -> None:
        self.host = host
        self.review = ReviewUI(host)

    def local(self) -> Session | None:
        """The session on this screen's own table (not a guest's seat at someone else's)."""
        session = self.host.session
        return session if session is not None and session.state.mode is not Mode.ONLINE else None

    def on_action(self, name: str, el: Any) -> bool:
        if name == "undo":
            self.undo()
        elif name == "undo-now":
            self.host.dialogs.close()
            self.undo(confirmed=True)
        elif name == "claim":
            self.claim()
        elif name == "review":
            picked = qs("#review-hand")
            raw = el.getAttribute("data-hand") if el is not None and el.hasAttribute("data-hand") else (
                picked.value if picked is not None else "-1")
            self.open_review(int(str(raw)) if str(raw).lstrip("-").isdigit() else -1)
        elif name.startswith("review-"):
            self.review.on_action(name, el)
        elif name == "challenge":
            self.make_challenge(int(el.getAttribute("data-hand") or -1) if el is not None else -1)
        elif name == "challenge-copy":
            self.host.guard(self._copy(str(by_id("challenge-link").getAttribute("href"))))
        else:
            return False
        return True

    # ------------------------------------------------------------------ undo
    def can_undo(self) -> bool:
        from hearts.undo import undo_last

        session = self.local()
        return (session is not None and not session.state.counted
                and undo_last(match_to_record(session.match), ME) is not None)

    def undo(self, confirmed: bool = False) -> None:
        """Take back the player's last card or pass, and the bots' replies after it. A game that
        still counts asks first: it becomes practice (not counted, a challenge result not sent)."""
        from hearts.undo import undo_last

        if self.host.session is not None and self.host.session.state.mode is Mode.ONLINE:
            self.host.view.show_error(t("undo_online"))
            return
        session = self.local()
        if session is not None and session.state.counted:
            self.host.view.show_error(t("undo_counted"))  # a counted result is never taken back
            return
        record = undo_last(match_to_record(session.match), ME) if session is not None else None
        if session is None or record is None:
            self.host.view.show_error(t("undo_nothing"))
            return
        if not session.state.practice and not confirmed:
            self.host.dialogs.open(t("undo"), f'<p>{esc(t("undo_confirm"))}</p><div class="dlg-actions">'
                                   f'<button type="button" class="secondary" data-action="close-dialog" autofocus>{esc(t("undo_keep"))}</button>'
                                   f'<button type="button" class="primary" data-action="undo-now">{esc(t("undo"))}</button></div>')
            return
        session.match = match_from_record(record)
        if not session.state.practice:
            session.state.practice = True
            self.host.view.toast(t("undo_practice"), seconds=4)
        self.host.save()
        players = self.host.challenge_players(decode(session.state.challenge)) \
            if session.state.mode is Mode.CHALLENGE and session.state.challenge else None
        self.host.enter(session, players)

    # ------------------------------------------------------------------ claim
    def claimable(self) -> bool:
        session = self.local()
        return session is not None and self.host.human.waiting and session.match.can_claim(ME)

    def claim(self) -> None:
        if self.claimable() and self.host.human.submit(Claim(ME)):
            self.host.view.lock_hand()

    # ------------------------------------------------------------------ review
    def open_review(self, hand_number: int) -> None:
        session = self.host.session
        if session is None:
            return
        m = session.match
        finished = [h for h in m.hands if h.result is not None]
        if not finished:
            self.host.view.show_error(t("review_none"))
            return
        hand = next((h for h in finished if h.hand_number == hand_number), finished[-1])
        self.review.open(hand, ME, t("review_title", n=hand.hand_number + 1))

    # ------------------------------------------------------------------ challenge links
    def challenge_of(self, session: Session, hand_number: int) -> Challenge:
        m = session.match
        hand = next((h for h in m.hands if h.hand_number == hand_number and h.result is not None),
                    next(h for h in reversed(m.hands) if h.result is not None))
        if session.state.mode is Mode.CHALLENGE and session.state.challenge:
            base = decode(session.state.challenge)
            seed, number, rules, level = base.seed, base.hand, base.rules, base.level
        else:
            seed, number, rules, level = m.seed or "", hand.hand_number, m.rules, session.state.difficulty
        assert hand.result is not None
        if session.state.practice:  # hints or undo were used: the deal only, no result to beat
            return Challenge(seed=seed, hand=number, rules=rules, level=level)
        return Challenge(seed=seed, hand=number, rules=rules, level=level, by=None,
                         points=hand.result.points[ME], markers=share_markers(hand))

    def make_challenge(self, hand_number: int) -> None:
        """A link for a friend: the same deal, passes and bot seeds, and this player's result."""
        session = self.host.session
        if session is None or not self.can_challenge(session):
            self.host.view.show_error(t("challenge_unavailable"))
            return
        try:
            challenge = self.challenge_of(session, hand_number)
            token = encode(challenge)
        except ChallengeError as exc:  # e.g. a ?seed= too long for a link
            window.console.warn(f"hearts: no challenge link: {exc}")
            self.host.view.show_error(t("challenge_unavailable"))
            return
        loc = window.location
        link = f"{loc.origin}{loc.pathname}?challenge={token}"
        intro = t("challenge_send_practice") if challenge.points is None else t("challenge_send")
        html = (f'<div class="challenge-out"><p>{esc(intro)}</p>'
                f'<p class="invite"><a id="challenge-link" data-challenge-link href="{esc(link)}">{esc(link)}</a></p>'
                f'<div class="dlg-actions"><button type="button" class="secondary" data-action="challenge-copy">{esc(t("online_copy"))}</button></div></div>')
        out = qs("#dlg-body .challenge-slot")
        if out is not None:
            out.innerHTML = html
        else:
            self.host.dialogs.open(t("challenge_title"), html)

    @staticmethod
    def can_challenge(session: Session) -> bool:
        """A deal a friend can get: from a seeded match of this screen or a challenge game (not
        an online table: its deals come from all players' contributions)."""
        if session.state.mode is Mode.CHALLENGE:
            return bool(session.state.challenge)
        return session.state.mode is not Mode.ONLINE and bool(session.match.seed)

    async def _copy(self, text: str) -> None:
        try:
            await window.navigator.clipboard.writeText(text)
            self.host.view.toast(t("online_copied"))
        except Exception:  # noqa: BLE001 - the link is on screen to copy by hand
            self.host.view.toast(t("copy_manual"), seconds=6)

    def open_challenge(self, token: str) -> bool:
        """``?challenge=<token>``: play that deal; a bad or tampered link says so, then the normal table."""
        try:
            challenge = decode(token)
            match = challenge_match(challenge)
        except ChallengeError as exc:
            window.console.warn(f"hearts: challenge link refused: {exc}")
            self.host.view.toast(t("challenge_bad"), warn=True, seconds=9)
            window.history.replaceState(None, "", window.location.pathname)
            return False
        token = encode(challenge)
        saved = self.host.load_session(CHALLENGE_GAME_KEY)
        if saved is not None and saved.state.challenge == token:  # a reload: go on where it was
            self.host.enter(saved, self.host.challenge_players(challenge))
            return True
        state = SessionState(mode=Mode.CHALLENGE, difficulty=challenge.level, challenge=token)
        self.host.enter(Session(match, state), self.host.challenge_players(challenge))
        self.host.save()
        return True

    def challenge_done(self, session: Session) -> None:
        """After the hand: both results side by side, and a link that carries this one back."""
        m = session.match
        theirs = decode(session.state.challenge) if session.state.challenge else None
        hand = m.hands[0]
        assert hand.result is not None
        mine = hand.result.points[ME]
        rows = [f'<tr><td>{esc(t("seat_name_0"))}</td><td data-challenge-mine>{mine}</td><td>{esc(_markers_line(share_markers(hand)))}</td></tr>']
        if theirs is not None and theirs.points is not None:
            rows.append(f'<tr><td>{esc(theirs.by or t("challenge_friend"))}</td><td data-challenge-theirs>{theirs.points}</td>'
                        f'<td>{esc(_markers_line(theirs.markers))}</td></tr>')
        verdict = ""
        if theirs is not None and theirs.points is not None:
            verdict = {-1: t("challenge_won"), 0: t("challenge_tie"), 1: t("challenge_lost")}[compare(mine, theirs.points)]
        note = f'<p class="note">{esc(t("challenge_practice"))}</p>' if session.state.practice else ""
        body = (f'<p class="result-big">{esc(verdict)}</p>{note}<table class="sheet"><tbody>{"".join(rows)}</tbody></table>'
                '<div class="challenge-slot"></div><div class="dlg-actions">'
                f'<button type="button" class="secondary" data-action="review" data-hand="0">{esc(t("review"))}</button>'
                f'<button type="button" class="secondary" data-action="back-to-match">{esc(t("back_to_match"))}</button>'
                f'<button type="button" class="primary" data-action="challenge" data-hand="0" autofocus>{esc(t("challenge_reply"))}</button></div>')
        self.host.dialogs.open(t("challenge_title"), body, "dlg-end")
