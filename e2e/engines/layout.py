"""What a phone-sized window must keep, as a check every engine runs in the page (``CONTROLS``):
no control cut off or outside the window, every target at least 24×24 CSS pixels (WCAG 2.2,
2.5.8), the toolbar's at least 44×44 where the layout allows (a phone held upright), no sideways
scroll, the mode badge whole, and every tool of the toolbar in reach: in its row, or in the "More"
menu whose button is in the row."""

from __future__ import annotations

__all__ = ["CONTROLS", "LANDSCAPE", "PORTRAIT", "TOOLS"]

# Phones 320 to 430 CSS pixels wide, upright and sideways
PORTRAIT = [(320, 568), (360, 640), (375, 667), (390, 844), (414, 896), (430, 932)]
LANDSCAPE = [(h, w) for w, h in PORTRAIT]
TOOLS = [
    "hint", "undo", "last-trick", "scores", "daily", "online", "stats", "rules", "settings", "new-match", "fullscreen",
]  # fmt: skip

# () => list of problems (empty: all is well). A control is any visible button, link, field or
# select outside a closed dialog; "cut" means an ancestor that clips (overflow other than visible)
# and does not scroll does not hold its whole box (one that scrolls may hold it out of sight);
# "covered", that another element is on top of its middle (an open dialog, or a notice until it is
# closed, may cover the table: that is what they are for; so may the card under the mouse pointer,
# which rises).
CONTROLS = """() => {
  const problems = [];
  const root = document.documentElement, vw = root.clientWidth, vh = window.innerHeight;
  if (root.scrollWidth > vw + 1) problems.push(`sideways scroll: the page is ${root.scrollWidth} px wide in ${vw}`);
  const name = (e) => (e.dataset.action || e.id || e.dataset.card || e.className || e.tagName) + '';
  const upright = vh > 500 && vw <= 640;
  for (const e of document.querySelectorAll('button, a[href], input, select, textarea')) {
    if (!e.getClientRects().length || e.closest('.skip-link, .visually-hidden, dialog:not([open]), [popover]:not(:popover-open)')) continue;
    const r = e.getBoundingClientRect();
    if (r.width < 24 - 0.5 || r.height < 24 - 0.5) problems.push(`${name(e)}: ${r.width.toFixed(1)}x${r.height.toFixed(1)} px, under 24x24`);
    if (upright && e.matches('.tools > .tool') && (r.width < 44 - 0.5 || r.height < 44 - 0.5))
      problems.push(`toolbar ${name(e)}: ${r.width.toFixed(1)}x${r.height.toFixed(1)} px, under 44x44`);
    if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5)
      problems.push(`${name(e)}: outside the window (${r.left.toFixed(0)},${r.top.toFixed(0)} to ${r.right.toFixed(0)},${r.bottom.toFixed(0)})`);
    // the nearest ancestor that clips: one that scrolls may hold the control out of sight (it is
    // reached by scrolling); one that does not must hold it whole
    let clip = e.parentElement;
    while (clip && clip !== document.body) {
      const style = getComputedStyle(clip);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') break;
      clip = clip.parentElement;
    }
    const b = clip && clip !== document.body ? clip.getBoundingClientRect() : null;
    const scrolls = b && (clip.scrollHeight > clip.clientHeight + 1 || clip.scrollWidth > clip.clientWidth + 1);
    const outside = b && (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5);
    if (outside && !scrolls) problems.push(`${name(e)}: cut off by ${clip.id || clip.className || clip.tagName}`);
    if (outside && scrolls) continue;  // scrolled out of sight: reached by scrolling
    const x = Math.min(Math.max((r.left + r.right) / 2, 0), vw - 1), y = Math.min(Math.max((r.top + r.bottom) / 2, 0), vh - 1);
    const hit = document.elementFromPoint(x, y);
    const overlay = hit && e.closest('dialog[open], .notice') === null && hit.closest('dialog[open], .notice');
    const lifted = hit && hit.closest('.card:hover');  // the card under the mouse rises over its neighbour
    if (hit && hit !== e && !e.contains(hit) && !overlay && !lifted)
      problems.push(`${name(e)}: covered by ${hit.id || hit.className || hit.tagName}`);
  }
  const badge = document.getElementById('mode-badge');
  if (badge && !badge.hidden && (badge.scrollWidth > badge.clientWidth + 1 || badge.scrollHeight > badge.clientHeight + 1))
    problems.push(`the badge is cut: "${badge.textContent}"`);
  const more = document.getElementById('more-btn');
  const moreShown = more && !more.hidden && more.getClientRects().length;
  for (const action of %s) {
    const tool = document.querySelector(`.tool[data-action="${action}"]`);
    if (!tool || tool.hidden) continue;
    const inRow = tool.parentElement.matches('.tools') && tool.getClientRects().length;
    const inMenu = tool.parentElement.id === 'more-menu' && moreShown;
    if (!inRow && !inMenu) problems.push(`toolbar ${action}: neither in the row nor in the menu`);
  }
  return problems;
}""" % (TOOLS,)
