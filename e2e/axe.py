"""axe-core (npm, pinned in package.json) in the page: the accessibility rules a state breaks.

    from axe import serious_violations
    assert serious_violations(page) == []

The script is evaluated through the DevTools protocol, so the page's CSP (no inline scripts, no
eval) stays in force and the guard sees no violation. Rules: WCAG 2.0/2.1 A and AA plus axe's best
practices; a result lists each violated rule with its impact and the first elements it found.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[1] / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def violations(
    page: Page, impacts: tuple[str, ...] = ("critical", "serious", "moderate", "minor"), context: str | None = None
) -> list[dict[str, Any]]:
    """The violated rules of the page (or of the elements matching ``context``) at these impacts."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate(
        """async ([context, tags]) => {
            const result = await axe.run(context ? document.querySelectorAll(context) : document,
                                         {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
            return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 5).map(n => ({target: n.target.join(" "), summary: n.failureSummary}))}));
        }""",
        [context, TAGS],
    )
    return [v for v in found if v["impact"] in impacts]


def serious_violations(page: Page, context: str | None = None) -> list[dict[str, Any]]:
    """The critical and serious violations (the acceptance bar), as readable dicts."""
    return violations(page, ("critical", "serious"), context)


def describe(found: list[dict[str, Any]]) -> str:
    """One line per rule and element: for an assertion message."""
    return "\n".join(f"{v['impact']}: {v['id']} ({v['help']}): {n['target']}" for v in found for n in v["nodes"])
