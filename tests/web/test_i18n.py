"""hearts_web.i18n: German and English say the same things, each key once."""

from __future__ import annotations

import ast
from pathlib import Path

from hearts_web import i18n

SOURCE = Path(i18n.__file__).read_text(encoding="utf-8")


def _dict_keys(name: str) -> list[str]:
    for node in ast.walk(ast.parse(SOURCE)):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            assert isinstance(node.value, ast.Dict)
            return [k.value for k in node.value.keys if isinstance(k, ast.Constant)]
    raise AssertionError(f"{name} not found")


def test_both_languages_have_the_same_keys_each_once() -> None:
    en, de = _dict_keys("EN"), _dict_keys("DE")
    assert len(en) == len(set(en)), sorted({k for k in en if en.count(k) > 1})
    assert len(de) == len(set(de)), sorted({k for k in de if de.count(k) > 1})
    assert set(en) == set(de)


def test_placeholders_match_between_the_languages() -> None:
    import string

    def fields(text: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}

    assert {k: fields(v) for k, v in i18n.EN.items()} == {k: fields(i18n.DE[k]) for k in i18n.EN}
