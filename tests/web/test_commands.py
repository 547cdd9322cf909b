"""hearts_web.core.commands: each action and form runs the handler one feature registered; a press or a
change nobody registered is a warning, never a silent no-op."""

from __future__ import annotations

import pytest
from hearts_web.core.commands import Commands, DuplicateCommand, FieldChange, Press


def test_a_press_runs_its_handler_with_its_values() -> None:
    seen: list[Press] = []
    commands = Commands(warn=lambda text: pytest.fail(text))
    commands.add("review", seen.append)
    assert commands.run(Press("review", {"hand": "2"})) and seen[0].number("hand") == 2 and seen[0].text("x") is None


def test_an_unknown_action_or_form_is_reported() -> None:
    said: list[str] = []
    commands = Commands(warn=said.append)
    assert not commands.run(Press("ghost")) and not commands.change(FieldChange("nowhere", "name", "value"))
    assert said == [
        "hearts: no command is registered for the action 'ghost'",
        "hearts: no command is registered for the form 'nowhere'",
    ]
    with pytest.warns(RuntimeWarning, match="ghost"):  # by default: a Python warning
        Commands().run(Press("ghost"))


def test_an_action_is_registered_once_unless_it_was_a_placeholder() -> None:
    commands = Commands()
    commands.add("review", print, placeholder=True)
    commands.add("review", print)
    assert not commands.is_placeholder("review") and commands.knows("review")
    with pytest.raises(DuplicateCommand):
        commands.add("review", print)
