// The player's input, from the page to the game's worker: every event the game listens for, with
// where it happened (the element's path of element children from its nearest ancestor with an id,
// which names the same element in the worker's document), the key and its modifiers, and what a
// field holds now. What the browser must decide at once (a link that runs a command does not
// navigate; the arrow keys that move over the hand or through a hand's review do not scroll) is
// decided here, by the element alone: no game rules. The arrow keys, Home and End move the focus
// over the hand's cards here too, at once (every card, the ones that cannot be played included:
// each says why when chosen); the worker hears the focus move and keeps the hand's one tab stop.

export const FORWARDED = ["click", "change", "input", "keydown", "focusin", "pointerdown"];
const REVIEW_KEYS = new Set(["ArrowLeft", "ArrowRight", "Home", "End"]);
const HAND_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"]);

// Where ``el`` is: [anchor, path] (anchor: the nearest ancestor's id, or ":root").
export function address(el) {
  const path = [];
  const root = el.ownerDocument.documentElement;
  while (el !== root && !el.id) {
    const parent = el.parentElement;
    if (!parent) return null; // not in the document any more
    path.push(Array.prototype.indexOf.call(parent.children, el));
    el = parent;
  }
  return [el === root ? ":root" : el.id, path.reverse()];
}

// What the browser would do by itself and the game does instead.
export function shouldPrevent(event) {
  const target = event.target;
  if (!(target instanceof Element)) return false;
  if (event.type === "click") return target.closest("a[data-action]") !== null;
  if (event.type !== "keydown" || event.ctrlKey || event.metaKey || event.altKey) return false;
  if (HAND_KEYS.has(event.key) && target.closest("#hand") !== null) return true;
  const dialog = target.ownerDocument.getElementById("dlg");
  return REVIEW_KEYS.has(event.key) && Boolean(dialog?.open) && dialog.querySelector("#review-stage") !== null
    && !target.closest("input, select, textarea");
}

// The hand's arrow keys: the focus to the next or previous card, the first or the last (true: moved).
export function moveInHand(event) {
  const target = event.target;
  if (event.type !== "keydown" || !HAND_KEYS.has(event.key) || event.ctrlKey || event.metaKey || event.altKey
      || !(target instanceof Element)) return false;
  const hand = target.closest("#hand");
  if (!hand) return false;
  const cards = Array.from(hand.querySelectorAll("button[data-card]"));
  if (!cards.length) return false;
  let index = cards.indexOf(target.closest("button[data-card]"));
  if (event.key === "ArrowLeft" || event.key === "ArrowUp") index = index >= 0 ? (index - 1 + cards.length) % cards.length : cards.length - 1;
  else if (event.key === "ArrowRight" || event.key === "ArrowDown") index = (index + 1) % cards.length;
  else index = event.key === "Home" ? 0 : cards.length - 1;
  cards[index].focus();
  return true;
}

// The message for ``event`` (null: nothing the game can use).
export function describe(event) {
  const target = event.target instanceof Element ? event.target
    : event.target === event.target?.ownerDocument ? event.target.documentElement : null;
  if (!target) return null;
  const at = address(target);
  if (!at) return null;
  const message = { t: "event", type: event.type, at };
  if (event.type === "keydown") {
    Object.assign(message, { key: event.key, ctrl: event.ctrlKey, meta: event.metaKey, alt: event.altKey,
      shift: event.shiftKey });
  }
  if ((event.type === "input" || event.type === "change") && "value" in target) {
    message.value = String(target.value);
    if (target.type === "checkbox" || target.type === "radio") message.checked = Boolean(target.checked);
  }
  return message;
}

// Listen on ``doc`` and send each event with ``post(message)``. The dialog's "close" (the player
// pressed Escape) is sent too; a close the worker asked for is sent as well and the worker ignores
// it (its dialog is closed already).
export function forwardInput(doc, post) {
  // the page's address goes along when it changed since the worker last heard it (the history's
  // back and forward, or a script of the page's): the worker's Location follows
  const view = doc.defaultView;
  let href = view?.location.href;
  const send = (message) => {
    const now = view?.location.href;
    if (now !== href) {
      href = now;
      message.href = now;
    }
    post(message);
  };
  for (const type of FORWARDED) {
    doc.addEventListener(type, (event) => {
      if (shouldPrevent(event)) event.preventDefault();
      moveInHand(event);
      const message = describe(event);
      if (message) send(message);
    }, { capture: type === "pointerdown" || type === "keydown" });
  }
  // the focus that goes nowhere (a click on the table's felt, a focused button hidden): the worker's
  // document stops naming the element it left
  doc.addEventListener("focusout", (event) => {
    if (event.relatedTarget) return;
    const message = describe(event);
    if (message) send(message);
  }, { capture: true });
  doc.addEventListener("close", (event) => {
    const message = describe(event);
    if (message) send(message);
  }, { capture: true });
}
