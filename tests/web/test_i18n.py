"""hearts_web.core.i18n: German and English say the same things, each key once."""

from __future__ import annotations

import ast
from pathlib import Path

from hearts_web.core import i18n

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


def test_every_count_takes_the_singular_for_one_in_both_languages() -> None:
    import re
    import string

    wrong = re.compile(
        r"\b1 (points|pts|cards|days|decisions|matches|backups|entries|Punkte|Karten|Tage|Entscheidungen"
        r"|Partien|Sicherungen|Einträge)\b|\(s\)|\(es\)|\(e\)|\(en\)|\(n\)|/entries|/Einträge|1 cost you|1 haben"
    )
    for lang in i18n.LANGS:
        i18n.set_lang(lang)
        for key, text in i18n.STRINGS[lang].items():
            names = {f for _, f, _, _ in string.Formatter().parse(text) if f}
            # a count is 1; an average ("avg") is always written with a decimal, never a bare 1
            out = i18n.t(key, **{name: "1.5" if name == "avg" else 1 for name in names})
            assert not wrong.search(out), (lang, key, out)
    i18n.set_lang("en")
    assert (
        i18n.t("points_n", n=1) == "1 point"
        and i18n.t("points_n", n=2) == "2 points"
        and i18n.t("points_n", n=-1) == "-1 point"
    )
    i18n.set_lang("de")
    assert i18n.t("points_n", n=1) == "1 Punkt" and i18n.t("points_n", n=0) == "0 Punkte"
    assert i18n.t("review_done", n=1, flagged=1) == "1 Entscheidung geprüft; 1 hat dich Punkte gekostet."
    i18n.set_lang("en")


def test_a_missing_text_is_reported_once_and_shows_the_english_one() -> None:
    said: list[str] = []
    i18n.report_missing_with(said.append)
    try:
        i18n.set_lang("de")
        i18n.EN["only_in_english_for_this_test"] = "English"
        assert (
            i18n.t("only_in_english_for_this_test") == "English"
            and i18n.t("only_in_english_for_this_test") == "English"
        )
        assert i18n.t("no_such_key_anywhere") == "no_such_key_anywhere"
        assert said == [
            "hearts: no DE text for 'only_in_english_for_this_test'",
            "hearts: no DE text for 'no_such_key_anywhere'",
        ]
        i18n.set_lang("en")
        assert i18n.t("only_in_english_for_this_test") == "English" and len(said) == 2  # it is there in English
    finally:
        del i18n.EN["only_in_english_for_this_test"]
        i18n.report_missing_with(None)
