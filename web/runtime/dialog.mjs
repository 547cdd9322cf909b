// Where a dialog opens (web/hearts_web/screen/dialogs.py asks for it as "dialogFocus" once its
// content is in): at its top, with the focus on the control it asks for ([autofocus], scrolled to
// if need be), else on its first button if the top shows it, else on its close button (the
// statistics' first button is far down). Layout only: the page measures, the worker cannot.
//
// WebKit scrolls a modal dialog to its focused element at its next frame, preventScroll or not
// (every dialog opened 14 px down, its first line cut off): a scroll before the player has
// touched, scrolled or pressed a key in the dialog is nobody's wish, and is undone.
export function makeDialogFocus(doc) {
  let held = null; // the scrollTop a new dialog keeps until the player acts
  let watched = null;

  function watch(dialog, content) {
    if (watched === dialog) return;
    watched = dialog;
    content.addEventListener("scroll", () => {
      if (held !== null && Math.abs(content.scrollTop - held) > 0.5) content.scrollTop = held;
    });
    const letGo = () => { held = null; };
    for (const name of ["wheel", "touchstart", "pointerdown", "keydown"]) {
      dialog.addEventListener(name, letGo, { passive: true });
    }
    dialog.addEventListener("close", letGo);
  }

  // the dialog shows ``control``: its top, and its bottom too unless it is taller than the dialog
  function inView(control, content) {
    const box = control.getBoundingClientRect(), view = content.getBoundingClientRect();
    const tall = box.height > view.height;
    return box.top >= view.top && box.top < view.bottom && (tall || box.bottom <= view.bottom);
  }

  function focus(control, content, scroll) {
    const shown = inView(control, content);
    control.focus({ preventScroll: true });
    if (control.localName === "textarea" && control.readOnly) control.select(); // a text to copy by hand
    if (scroll && !shown) control.scrollIntoView({ block: "nearest" });
  }

  return function dialogFocus() {
    const dialog = doc.getElementById("dlg"), content = doc.getElementById("dlg-body");
    if (!dialog || !content || !dialog.open) return false;
    watch(dialog, content);
    content.scrollTop = 0; // new content starts at its top: an element keeps its scroll while hidden
    const chosen = content.querySelector("[autofocus]");
    const first = content.querySelector("button");
    if (chosen) focus(chosen, content, true);
    else if (first && inView(first, content)) focus(first, content, false);
    else {
      const close = dialog.querySelector(".dlg-x");
      if (close) focus(close, content, false);
    }
    held = content.scrollTop;
    return true;
  };
}
