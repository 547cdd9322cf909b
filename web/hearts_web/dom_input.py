"""Input: DOM events become commands. Taps and clicks are delegated from the document (the table
is redrawn all the time), keys give keyboard players the same commands."""

from __future__ import annotations

from typing import Any, Protocol

from hearts import Card

from .dom import by_id, closest, document, is_none, listen, qs, qsa

__all__ = ["TableCommands", "Commands", "bind"]


class TableCommands(Protocol):
    """What the player does at the table (hearts_web.hand_controls implements it)."""

    def tap_card(self, card: Card) -> None: ...

    def tap_refused_card(self, card: Card) -> None: ...

    def pass_cards(self) -> None: ...

    def hint(self) -> None: ...


class Commands(Protocol):
    """What the page can be asked to do (the controller implements it)."""

    def action(self, name: str, el: Any) -> None: ...

    def set_lang(self, lang: str) -> None: ...

    def setting_changed(self, el: Any) -> None: ...

    def fail(self, exc: BaseException) -> None: ...


def bind(table: TableCommands, commands: Commands) -> None:
    def guarded(handler: Any) -> Any:
        def run(event: Any) -> None:
            try:
                handler(event)
            except Exception as exc:  # noqa: BLE001 - a friendly message, never a dead page
                commands.fail(exc)

        return run

    listen(document, "click", guarded(lambda event: _on_click(table, commands, event)))
    listen(document, "change", guarded(lambda event: _on_change(commands, event)))
    listen(by_id("hand"), "pointerup", guarded(lambda event: _on_hand_pointerup(table, event)))
    listen(by_id("hand"), "keydown", guarded(_on_hand_key))
    listen(document, "keydown", guarded(lambda event: _on_key(table, commands, event)))


def _card_of(el: Any) -> Card:
    return Card.parse(str(el.getAttribute("data-card")))


def _on_click(table: TableCommands, commands: Commands, event: Any) -> None:
    card_el = closest(event, "#hand button[data-card]")
    if card_el is not None:
        if not card_el.disabled:
            table.tap_card(_card_of(card_el))
        return
    lang_el = closest(event, "[data-lang]")
    if lang_el is not None:
        commands.set_lang(str(lang_el.getAttribute("data-lang")))
        return
    el = closest(event, "[data-action]")
    if el is None:
        return
    name = str(el.getAttribute("data-action"))
    if name == "pass":
        table.pass_cards()
    elif name == "hint":
        table.hint()
    else:
        commands.action(name, el)


def _on_change(commands: Commands, event: Any) -> None:
    el = event.target
    if not is_none(el) and el.closest("#dlg-body [data-settings]"):
        commands.setting_changed(el)


def _on_hand_pointerup(table: TableCommands, event: Any) -> None:
    """Disabled cards get no click; a tap on one still explains why it cannot be played."""
    el = closest(event, "button[data-card]")
    if el is not None and el.disabled:
        table.tap_refused_card(_card_of(el))


def _on_hand_key(event: Any) -> None:
    """Arrow keys, Home and End move between the playable cards."""
    key = event.key
    if key not in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"):
        return
    cards = [el for el in qsa("#hand button[data-card]") if not el.disabled]
    if not cards:
        return
    current = document.activeElement
    idx = -1
    for i, el in enumerate(cards):
        if not is_none(current) and el.getAttribute("data-card") == current.getAttribute("data-card"):
            idx = i
    if key in ("ArrowLeft", "ArrowUp"):
        idx = (idx - 1) % len(cards) if idx >= 0 else len(cards) - 1
    elif key in ("ArrowRight", "ArrowDown"):
        idx = (idx + 1) % len(cards)
    else:
        idx = 0 if key == "Home" else len(cards) - 1
    cards[idx].focus()
    event.preventDefault()


REVIEW_KEYS = {"ArrowLeft": "review-prev", "ArrowRight": "review-next", "Home": "review-first", "End": "review-last"}


def _on_key(table: TableCommands, commands: Commands, event: Any) -> None:
    """Shortcuts outside text fields: H hint, L last trick, P pass; in the hand review the arrow
    keys, Home and End step through the hand."""
    tag = str(getattr(event.target, "tagName", "") or "").lower()
    if tag in ("input", "select", "textarea") or event.ctrlKey or event.metaKey or event.altKey:
        return
    if by_id("dlg").open:
        step = REVIEW_KEYS.get(str(event.key or ""))
        if step is not None and qs("#review-stage") is not None:  # the hand review: step with the keys
            commands.action(step, None)
            event.preventDefault()
        return
    key = str(event.key or "").lower()
    if key == "h":
        table.hint()
    elif key == "l":
        commands.action("last-trick", None)
    elif key == "p" and not by_id("pass-btn").disabled:
        table.pass_cards()
