"""The settings dialog: its HTML, and how a tap or a changed field updates :class:`Settings`.

Pure functions (no DOM): :mod:`hearts_web.settings.dialog` hands a tap or a changed field to
:func:`on_click` or :func:`on_change` and applies what changed (look, speed, language, the bots' level).
"""

from __future__ import annotations

from hearts import PASS_CYCLES, PRESETS, FirstTrick, MoonScoring, PassDirection, Rules, TieRule

from ..core import i18n
from ..core.html import esc
from ..core.i18n import t
from ..data.settings import DECKS, DIFFICULTIES, LOOKS, SPEEDS, Settings
from ..transfer.html import data_section_html

__all__ = ["settings_html", "on_click", "on_change"]

MOON_ORDER = (MoonScoring.ADD_TO_OTHERS, MoonScoring.SHOOTERS_CHOICE, MoonScoring.SUBTRACT_FROM_SHOOTER)


def _seg(action: str, current: str, options: list[tuple[str, str]], label: str) -> str:
    buttons = "".join(
        f'<button type="button" data-action="{action}" data-value="{esc(v)}" '
        f'aria-pressed="{"true" if v == current else "false"}">{esc(text)}</button>'
        for v, text in options
    )
    return f'<div class="seg" role="group" aria-label="{esc(label)}">{buttons}</div>'


def _select(name: str, current: str, options: list[tuple[str, str]]) -> str:
    opts = "".join(
        f'<option value="{esc(v)}"{" selected" if v == current else ""}>{esc(text)}</option>' for v, text in options
    )
    return f'<select name="{name}" id="set-{name}">{opts}</select>'


def _cycle_key(cycle: tuple[PassDirection, ...]) -> str:
    return next((key for key, value in PASS_CYCLES.items() if tuple(value) == cycle), "custom")


def settings_html(s: Settings, storage: str = "unknown") -> str:
    r = s.rules
    lang_seg = _seg("set-lang", i18n.lang(), [("de", "Deutsch"), ("en", "English")], t("language"))
    diff = _seg("set-difficulty", s.difficulty, [(d, t(f"diff_{d}")) for d in DIFFICULTIES], t("difficulty"))
    look = _seg("set-look", s.look, [(v, t(f"look_{v}")) for v in LOOKS], t("look"))
    deck = _seg("set-deck", s.deck, [(v, t(f"deck_{v}")) for v in DECKS], t("deck"))
    autoplay = "checked" if s.autoplay else ""
    speed = _select("speed", s.speed, [(v, t(f"speed_{v}")) for v in SPEEDS])
    preset = _select("preset", s.preset, [(k, t(f"preset_{k}")) for k in PRESETS] + [("custom", t("preset_custom"))])
    target = _select("target", str(r.target), [(str(n), t("points_n", n=n)) for n in sorted({100, 50, r.target})])
    ck = _cycle_key(r.pass_cycle)
    cycle = _select(
        "pass_cycle",
        ck,
        [(k, t(f"cycle_{k}")) for k in PASS_CYCLES] + ([("custom", t("cycle_custom"))] if ck == "custom" else []),
    )
    first = _select("first_trick", r.first_trick.value, [(v.value, t(f"ft_{v.value}")) for v in FirstTrick])
    moon = _select("moon", r.moon.value, [(v.value, t(f"moon_{v.value}")) for v in MOON_ORDER])
    tie = _select("tie", r.tie.value, [(v.value, t(f"tie_{v.value}")) for v in TieRule])
    qb = "checked" if r.queen_breaks_hearts else ""
    jd = "checked" if r.jack_of_diamonds else ""
    return f"""<div class="form" data-settings data-form="settings">
<fieldset><legend>{esc(t("language"))}</legend>{lang_seg}</fieldset>
<fieldset><legend>{esc(t("difficulty"))}</legend>{diff}</fieldset>
<fieldset><legend>{esc(t("look"))}</legend>{look}
<div class="seg-row"><span>{esc(t("deck"))}</span>{deck}</div>
<label for="set-speed">{esc(t("speed"))} {speed}</label>
<label class="check"><input type="checkbox" name="autoplay" {autoplay}> {esc(t("opt_autoplay"))}</label></fieldset>
<fieldset><legend>{esc(t("rules"))}</legend>
<label for="set-preset">{esc(t("preset"))} {preset}</label>
<label for="set-target">{esc(t("opt_target"))} {target}</label>
<label for="set-pass_cycle">{esc(t("opt_pass_cycle"))} {cycle}</label>
<label for="set-first_trick">{esc(t("opt_first_trick"))} {first}</label>
<label class="check"><input type="checkbox" name="queen_breaks_hearts" {qb}> {esc(t("opt_queen_breaks"))}</label>
<label class="check"><input type="checkbox" name="jack_of_diamonds" {jd}> {esc(t("opt_jack"))}</label>
<label for="set-moon">{esc(t("opt_moon"))} {moon}</label>
<label for="set-tie">{esc(t("opt_tie"))} {tie}</label>
<p class="note">{esc(t("rules_next_match"))}</p>
</fieldset>
{data_section_html(storage)}
<div class="dlg-actions">
<button type="button" class="secondary" data-action="apply-rules">{esc(t("apply_new_match"))}</button>
<button type="button" class="primary" data-action="close-dialog">{esc(t("save"))}</button></div>
</div>"""


def on_click(s: Settings, action: str, value: str) -> str | None:
    """A tap on a choice (``set-lang``, ``set-difficulty``, ``set-look``): the setting's name if it
    changed (the language is applied by the dialog: it returns ``"lang"`` unapplied)."""
    if action == "set-lang" and value in i18n.LANGS:
        return "lang"
    if action == "set-difficulty" and value in DIFFICULTIES and value != s.difficulty:
        s.difficulty = value
        return "difficulty"
    if action == "set-look" and value in LOOKS and value != s.look:
        s.look = value
        return "look"
    if action == "set-deck" and value in DECKS and value != s.deck:
        s.deck = value
        return "look"
    return None


def on_change(s: Settings, name: str, value: str, checked: bool) -> str | None:
    """A changed field of the form: the setting's name if it changed. A rule option the engine
    refuses leaves the rules as they were."""
    if name == "autoplay":
        s.autoplay = checked
        return "autoplay"
    if name == "speed":
        if value in SPEEDS:
            s.speed = value
            return "speed"
        return None
    if name == "preset":
        if value in PRESETS:
            s.rules = PRESETS[value]
            return "rules"
        return None
    rules = s.rules.to_dict()
    if name in ("queen_breaks_hearts", "jack_of_diamonds"):
        rules[name] = checked
    elif name == "target":
        if not value.isdigit():
            return None
        rules[name] = int(value)
    elif name == "pass_cycle":
        if value not in PASS_CYCLES:
            return None
        rules[name] = value
    elif name in ("first_trick", "moon", "tie"):
        rules[name] = value
    else:
        return None
    try:
        s.rules = Rules.from_dict(rules)
    except ValueError:
        return None
    return "rules"
