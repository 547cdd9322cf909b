"""The settings dialog: difficulty, look, speed, language, rules presets and options."""

from __future__ import annotations

from typing import Any

from hearts import PASS_CYCLES, PRESETS, Rules, preset_name

from . import i18n
from .dom import by_id, esc
from .i18n import t
from .settings import DIFFICULTIES, LOOKS, SPEEDS, Settings


def _seg(action: str, current: str, options: list[tuple[str, str]], label: str) -> str:
    buttons = "".join(
        f'<button type="button" data-action="{action}" data-value="{esc(v)}" aria-pressed="{"true" if v == current else "false"}">{esc(text)}</button>'
        for v, text in options
    )
    return f'<div class="seg" role="group" aria-label="{esc(label)}">{buttons}</div>'


def _select(name: str, current: str, options: list[tuple[str, str]]) -> str:
    opts = "".join(
        f'<option value="{esc(v)}"{" selected" if v == current else ""}>{esc(text)}</option>' for v, text in options
    )
    return f'<select name="{name}" id="set-{name}">{opts}</select>'


def _cycle_key(rules: dict[str, Any]) -> str:
    cycle = tuple(rules.get("pass_cycle") or ())
    for key, value in PASS_CYCLES.items():
        if tuple(d.value for d in value) == cycle:
            return key
    return "custom"


def settings_html(s: Settings) -> str:
    r = s.rules
    lang_seg = _seg("set-lang", i18n.lang(), [("de", "Deutsch"), ("en", "English")], t("language"))
    diff = _seg("set-difficulty", s.difficulty, [(d, t(f"diff_{d}")) for d in DIFFICULTIES], t("difficulty"))
    look = _seg("set-look", s.look, [(v, t(f"look_{v}")) for v in LOOKS], t("look"))
    speed = _select("speed", s.speed, [(v, t(f"speed_{v}")) for v in SPEEDS])
    preset = _select(
        "preset", s.preset, [(k, t(f"preset_{k}")) for k in PRESETS] + [("custom", t("preset_custom"))]
    )
    targets = sorted({100, 50, int(r.get("target", 100))})
    target = _select("target", str(r.get("target", 100)), [(str(n), t("points_n", n=n)) for n in targets])
    ck = _cycle_key(r)
    cycles = [(k, t(f"cycle_{k}")) for k in PASS_CYCLES] + ([("custom", t("cycle_custom"))] if ck == "custom" else [])
    cycle = _select("pass_cycle", ck, cycles)
    first = _select("first_trick", r.get("first_trick", "hearts_and_queen"), [(v, t(f"ft_{v}")) for v in ("hearts_and_queen", "queen_only", "none")])
    moon = _select("moon", r.get("moon", "add_to_others"), [(v, t(f"moon_{v}")) for v in ("add_to_others", "shooters_choice", "subtract_from_shooter")])
    tie = _select("tie", r.get("tie", "play_on"), [(v, t(f"tie_{v}")) for v in ("play_on", "shared_win")])
    qb = "checked" if r.get("queen_breaks_hearts") else ""
    jd = "checked" if r.get("jack_of_diamonds") else ""
    return f"""<div class="form">
<fieldset><legend>{esc(t("language"))}</legend>{lang_seg}</fieldset>
<fieldset><legend>{esc(t("difficulty"))}</legend>{diff}</fieldset>
<fieldset><legend>{esc(t("look"))}</legend>{look}
<label for="set-speed">{esc(t("speed"))} {speed}</label></fieldset>
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
<div class="dlg-actions"><button type="button" class="secondary" data-action="apply-rules">{esc(t("apply_new_match"))}</button>
<button type="button" class="primary" data-action="close-dialog">{esc(t("save"))}</button></div>
</div>"""


def _refresh(app: Any) -> None:
    app.settings.save()
    focused = app_focus_name()
    by_id("dlg-body").innerHTML = settings_html(app.settings)
    if focused:
        from .dom import qs

        el = qs(f'#dlg-body [name="{focused}"]') or qs(f'#dlg-body [data-action="{focused}"][aria-pressed="true"]')
        if el is not None:
            el.focus()


def app_focus_name() -> str:
    from .dom import document, is_none

    el = document.activeElement
    if is_none(el):
        return ""
    name = el.getAttribute("name") if el.getAttribute else None
    if name and not is_none(name):
        return str(name)
    action = el.getAttribute("data-action")
    return "" if is_none(action) or not action else str(action)


def on_setting_click(app: Any, action: str, el: Any) -> None:
    value = str(el.getAttribute("data-value"))
    s: Settings = app.settings
    if action == "set-lang":
        app.set_lang(value)
        return
    if action == "set-difficulty" and value in DIFFICULTIES:
        s.difficulty = value
        if app.meta.get("mode") == "match":
            app.meta["difficulty"] = value
            app.make_bots()
            app.save()
    elif action == "set-look" and value in LOOKS:
        s.look = value
        app.apply_look()
    _refresh(app)


def on_setting_change(app: Any, event: Any) -> None:
    el = event.target
    name = str(el.getAttribute("name") or "")
    if not name or not el.closest("#dlg-body .form"):
        return
    s: Settings = app.settings
    if name == "speed":
        if el.value in SPEEDS:
            s.speed = str(el.value)
            app.speed_override = None
            app.apply_speed()
    elif name == "preset":
        if el.value in PRESETS:
            s.preset = str(el.value)
            s.rules = PRESETS[s.preset].to_dict()
    else:
        rules = dict(s.rules)
        if name in ("queen_breaks_hearts", "jack_of_diamonds"):
            rules[name] = bool(el.checked)
        elif name == "target":
            rules[name] = int(el.value)
        elif name == "pass_cycle":
            if el.value in PASS_CYCLES:
                rules[name] = [d.value for d in PASS_CYCLES[str(el.value)]]
        else:
            rules[name] = str(el.value)
        try:
            r = Rules.from_dict(rules)
        except ValueError:
            return
        s.rules = r.to_dict()
        s.preset = preset_name(r) or "custom"
    _refresh(app)
