"""The examples in the engine's docstrings run (they are the API documentation's first examples)."""

import doctest
import importlib

import pytest

MODULES = [
    "hearts",
    "hearts.cards",
    "hearts.rules",
    "hearts.deal",
    "hearts.hand",
    "hearts.match",
    "hearts.actions",
    "hearts.table",
    "hearts.fairdeal",
    "hearts.wire",
    "hearts.daily",
    "hearts.undo",
    "hearts.challenge",
    "hearts.tally",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0


def test_engine_document_examples():
    import pathlib

    path = pathlib.Path(__file__).parent.parent / "docs" / "engine.md"
    failed, attempted = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert attempted > 10 and failed == 0
