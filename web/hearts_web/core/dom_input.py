"""Input: DOM events become commands. Taps and clicks are delegated from the document (the table
is redrawn all the time), keys give keyboard players the same commands.

A click on a ``[data-action]`` control becomes a :class:`~hearts_web.core.commands.Press` for the
registry (this module knows no feature); a changed field of a ``[data-form]`` becomes a
:class:`~hearts_web.core.commands.FieldChange`; a tap on a card of the hand goes to :class:`CardTaps`.
This is the only module that reads event objects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from hearts import Card

from .commands import Commands, FieldChange, Press
from .dom import Element, JsEvent, by_id, closest, document, is_none, listen, qs, qsa

__all__ = ["CardTaps", "bind", "press_of", "TABLE_KEYS", "REVIEW_KEYS"]

# Keys outside text fields and dialogs: the command each one runs.
TABLE_KEYS = {"h": "hint", "l": "last-trick"}
# Keys in the hand review (a dialog): step through the hand.
REVIEW_KEYS = {"ArrowLeft": "review-prev", "ArrowRight": "review-next", "Home": "review-first", "End": "review-last"}


class CardTaps(Protocol):
    """What a tap on a card of the hand does (hearts_web.table.hand_controls implements it)."""

    def tap_card(self, card: Card) -> None: ...

    def tap_refused_card(self, card: Card) -> None: ...


def bind(
    commands: Commands,
    cards: CardTaps,
    fail: Callable[[BaseException], None],
    player_here: Callable[[], None] = lambda: None,
) -> None:
    """Listen for the page's input; ``player_here()`` on every key and touch (the page may move the
    focus from then on)."""

    def guarded(handler: Callable[[JsEvent], None]) -> Callable[[JsEvent], None]:
        def run(event: JsEvent) -> None:
            try:
                handler(event)
            except Exception as exc:  # noqa: BLE001 - a friendly message, never a dead page
                fail(exc)

        return run

    listen(document, "click", guarded(lambda event: _on_click(commands, cards, event)))
    listen(document, "change", guarded(lambda event: _on_change(commands, event)))
    listen(by_id("hand"), "focusin", guarded(_on_hand_focus))
    listen(document, "keydown", guarded(lambda event: _on_key(commands, event)))
    listen(document, "keydown", lambda _event: player_here())
    listen(document, "pointerdown", lambda _event: player_here())


def press_of(el: Element) -> Press:
    """The press of a ``[data-action]`` element: its action and its other ``data-*`` values."""
    data = {}
    for name in el.getAttributeNames():
        name = str(name)
        if name.startswith("data-") and name != "data-action":
            data[name[5:]] = str(el.getAttribute(name))
    return Press(str(el.getAttribute("data-action")), data)


def _card_of(el: Element) -> Card:
    return Card.parse(str(el.getAttribute("data-card")))


def _on_click(commands: Commands, cards: CardTaps, event: JsEvent) -> None:
    card_el = closest(event, "#hand button[data-card]")
    if card_el is not None:
        if card_el.getAttribute("aria-disabled") == "true":
            cards.tap_refused_card(_card_of(card_el))  # a tap or Enter on it says why
        else:
            cards.tap_card(_card_of(card_el))
        return
    el = closest(event, "[data-action]")
    if el is not None:
        if str(el.tagName).lower() == "a":
            event.preventDefault()  # a link that runs a command (the skip link) does not navigate
        commands.run(press_of(el))


def _on_change(commands: Commands, event: JsEvent) -> None:
    el = event.target
    if is_none(el) or not hasattr(el, "closest"):
        return
    form = el.closest("#dlg-body [data-form]")
    if is_none(form):
        return
    checked = str(el.type) == "checkbox" and bool(el.checked)
    commands.change(
        FieldChange(str(form.getAttribute("data-form")), str(el.getAttribute("name") or ""), str(el.value), checked)
    )


def _on_hand_focus(event: JsEvent) -> None:
    """The hand is one Tab stop: the card that has the focus keeps it (a roving tabindex)."""
    el = closest(event, "#hand button[data-card]")
    if el is None:
        return
    for card in qsa("#hand button[data-card]"):
        index = "0" if card == el else "-1"
        if card.getAttribute("tabindex") != index:
            card.setAttribute("tabindex", index)


def _on_key(commands: Commands, event: JsEvent) -> None:
    """Shortcuts outside text fields: H hint, L last trick, P pass; in the hand review the arrow
    keys, Home and End step through the hand."""
    tag = str(getattr(event.target, "tagName", "") or "").lower()
    if tag in ("input", "select", "textarea") or event.ctrlKey or event.metaKey or event.altKey:
        return
    if by_id("dlg").open:
        step = REVIEW_KEYS.get(str(event.key or ""))
        if step is not None and qs("#review-stage") is not None:  # the hand review: step with the keys
            commands.run(Press(step))
            event.preventDefault()
        return
    key = str(event.key or "").lower()
    if key in TABLE_KEYS:
        commands.run(Press(TABLE_KEYS[key]))
    elif key == "p" and not by_id("pass-btn").disabled:
        commands.run(Press("pass"))
