"""Commands as data: what a press on a ``[data-action]`` control asks for, and the registry that
hands it to the feature that registered that action.

Every feature registers its own actions (``commands.add("undo", self.undo)``); the input layer
(:mod:`hearts_web.core.dom_input`) turns a click or a key into a :class:`Press` and runs it, knowing no
feature. A new button is one registration in its feature's module plus the button in the HTML.
Forms work the same way: a changed field of a ``[data-form]`` goes to the handler registered for
that form as a :class:`FieldChange`. Pure: no DOM.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

__all__ = ["Press", "FieldChange", "Commands", "DuplicateCommand"]

_WHOLE = re.compile(r"^-?[0-9]{1,9}$")


@dataclass(frozen=True)
class Press:
    """A press on a control: its ``data-action`` and the other ``data-*`` values it carries
    (``data-hand="2"`` is ``data["hand"] == "2"``)."""

    action: str
    data: Mapping[str, str] = field(default_factory=dict)

    def text(self, name: str) -> str | None:
        return self.data.get(name)

    def number(self, name: str) -> int | None:
        """``data-<name>`` as a whole number (``None`` when absent or not one)."""
        raw = self.data.get(name)
        return int(raw) if raw is not None and _WHOLE.match(raw) else None


@dataclass(frozen=True)
class FieldChange:
    """A changed field of a form: its ``name``, its ``value`` and, for a checkbox, ``checked``."""

    form: str
    name: str
    value: str
    checked: bool = False


class DuplicateCommand(ValueError):
    """Two features registered the same action: one of them would never run."""


def _warn(text: str) -> None:
    warnings.warn(text, RuntimeWarning, stacklevel=3)


class Commands:
    """``warn`` reports a press or a change nobody registered (the page: its console's warnings);
    every action of the page has a handler (``tests/web/test_page_contract.py``), so one is a bug."""

    def __init__(self, warn: Callable[[str], None] = _warn) -> None:
        self.warn = warn
        self._actions: dict[str, Callable[[Press], None]] = {}
        self._forms: dict[str, Callable[[FieldChange], None]] = {}
        self._placeholders: set[str] = set()

    def add(self, action: str, handler: Callable[[Press], None], placeholder: bool = False) -> None:
        """``placeholder``: stands in for a feature loaded later (:mod:`hearts_web.screen.extras`); the
        feature's own registration replaces it."""
        if action in self._actions and action not in self._placeholders:
            raise DuplicateCommand(f"the action {action!r} is registered twice")
        self._actions[action] = handler
        if placeholder:
            self._placeholders.add(action)
        else:
            self._placeholders.discard(action)

    def is_placeholder(self, action: str) -> bool:
        return action in self._placeholders

    def add_form(self, form: str, handler: Callable[[FieldChange], None]) -> None:
        if form in self._forms:
            raise DuplicateCommand(f"the form {form!r} is registered twice")
        self._forms[form] = handler

    def knows(self, action: str) -> bool:
        return action in self._actions

    def run(self, press: Press) -> bool:
        """Hand ``press`` to its handler; False (and a warning) when no feature registered its action."""
        handler = self._actions.get(press.action)
        if handler is None:
            self.warn(f"hearts: no command is registered for the action {press.action!r}")
            return False
        handler(press)
        return True

    def change(self, change: FieldChange) -> bool:
        handler = self._forms.get(change.form)
        if handler is None:
            self.warn(f"hearts: no command is registered for the form {change.form!r}")
            return False
        handler(change)
        return True
