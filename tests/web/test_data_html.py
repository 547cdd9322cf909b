"""hearts_web.transfer.html: notice cards say exactly what happened, escape what they show, and offer
an export only when a backup could not be made."""

from __future__ import annotations

from hearts_web.core import i18n
from hearts_web.data.registry import MATCH, SETTINGS, STATS, Notice
from hearts_web.transfer.html import notice_html, overlay_html, stored_notice_html


def test_text_from_a_link_is_escaped() -> None:
    i18n.set_lang("en")
    html = notice_html("link", i18n.t("bad_daily_link", value='<img src=x onerror="alert(1)">'), [("daily", "Daily")])
    assert "<img" not in html and "&lt;img" in html and 'data-action="daily"' in html


def test_one_notice_names_its_backup_and_many_share_one_sentence() -> None:
    for lang, kept in (("en", "kept as a backup"), ("de", "als Sicherung aufbewahrt")):
        i18n.set_lang(lang)
        one = stored_notice_html([Notice(MATCH.key, MATCH.what, False, "hearts.backup.x.1")])
        assert kept in one and 'data-notice-backup="hearts.backup.x.1"' in one and "data-export" not in one
    i18n.set_lang("en")
    many = stored_notice_html(
        [Notice(SETTINGS.key, SETTINGS.what, True, "b1"), Notice(STATS.key, STATS.what, False, "b2")]
    )
    assert many.count("<li") == 2 and "originals are kept as backups" in many and "data-export" not in many


def test_a_failed_backup_is_said_per_line_and_offers_an_export() -> None:
    i18n.set_lang("en")
    html = stored_notice_html(
        [Notice(SETTINGS.key, SETTINGS.what, True, "b1"), Notice(MATCH.key, MATCH.what, False, None)]
    )
    assert "data-export" in html and html.count("could not be kept") == 1 and html.count("is kept as a backup") == 1
    assert 'data-notice-key="hearts.match.v1" data-notice-kind="replaced" data-notice-backup=""' in html


def test_the_other_tab_page_in_both_languages() -> None:
    for lang in ("en", "de"):
        i18n.set_lang(lang)
        assert i18n.t("tab_elsewhere") in overlay_html(False) and i18n.t("tab_moved") in overlay_html(True)
        assert 'data-action="tab-continue"' in overlay_html(True)


def test_every_text_exists_in_german_and_english_with_the_same_placeholders() -> None:
    import string

    assert set(i18n.EN) == set(i18n.DE)
    for key, en in i18n.EN.items():
        fields = {f for _, f, _, _ in string.Formatter().parse(en) if f}
        assert fields == {f for _, f, _, _ in string.Formatter().parse(i18n.DE[key]) if f}, key
