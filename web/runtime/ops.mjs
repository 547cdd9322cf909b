// What the page does with the operations of the game's worker (hearts_web/core/vdom.py writes them):
// the worker keeps the page's document and sends every change it makes, in order; the page applies
// them to its real document and to localStorage, and runs the calls only a page can make. No game
// rules here, no decisions: each operation says exactly what to do.
//
// An element is named once, by a number, when an operation first needs it ("b": its path of
// element children from an anchor: a number named before, an id, or ":root"); the page checks that
// the element there has the tag the worker expects, and says so in the console when it does not
// (the tests fail on that: the two documents went apart).

const PROBE = "hearts-probe"; // a probe's test write (removed at once; not a key of the game's)

// ``doc``: the document; ``storage``: localStorage (or null); ``call(number, name, args)``: a call
// for the page's services; ``measure(name, ms, detail)``; ``onStorageFailed(key, error, now,
// kept)``: a write refused; ``onStorageProbed(fits)``: a probe's answer; ``touched(element)``:
// told of every element changed (the toolbar's fit). Returns apply(ops).

export function makeApplier({
  doc, storage, call, measure, onStorageFailed = () => {}, onStorageProbed = () => {}, touched = () => {},
}) {
  const nodes = new Map();
  const anchorOf = (anchor) => (typeof anchor === "number" ? nodes.get(anchor)
    : anchor === ":root" ? doc.documentElement : doc.getElementById(anchor));

  function bind(vid, anchor, path, tag) {
    let el = anchorOf(anchor);
    for (const i of path) el = el?.children[i];
    if (!el || el.localName !== tag) {
      console.error(`hearts: the page and the worker went apart: no <${tag}> at ${JSON.stringify([anchor, path])}`
        + (el ? ` (a <${el.localName}>)` : ""));
      return;
    }
    nodes.set(vid, el);
  }

  // New content keeps the focus where it was: on the element with the same data-card or id (the
  // worker's document does the same: hearts_web/core/vdom.py, Element._focus_key), so that a hand
  // drawn again keeps the card the player moved to, however late the worker heard of the move.
  function focusKey(el) {
    const active = doc.activeElement;
    if (!active || active === el || !el.contains(active)) return null;
    if (active.dataset?.card) return ["data-card", active.dataset.card];
    return active.id ? ["id", active.id] : null;
  }
  const keyed = (el, [name, value]) => Array.from(el.querySelectorAll(`[${name}]`))
    .find((candidate) => candidate.getAttribute(name) === value);

  // New content is laid over the old (the "h" operation): an element that stays in its place (the
  // same tag, and the same data-card or id) is kept and only its attributes, text and children
  // change, so that a tap that began on a card ends on the same card however the hand was drawn
  // meanwhile (a new element under the finger would lose the click), a card's style transitions
  // from its old state, and the browser lays out only what changed. Where the children differ in
  // number or kind, they are replaced, as innerHTML would; form fields and dialogs always are
  // (their state is more than their attributes).
  const REPLACED = new Set(["INPUT", "SELECT", "TEXTAREA", "DIALOG"]);
  const sameKind = (a, b) => a.nodeType === b.nodeType && a.nodeName === b.nodeName && (a.nodeType !== 1
    || (a.getAttribute("data-card") === b.getAttribute("data-card") && a.id === b.id));

  function layOver(el, fresh) {
    const olds = Array.from(el.childNodes);
    const news = Array.from(fresh.childNodes);
    if (olds.length !== news.length || !olds.every((old, i) => sameKind(old, news[i]))) {
      el.replaceChildren(...news);
      return;
    }
    olds.forEach((old, i) => {
      const now = news[i];
      if (old.nodeType !== 1) {
        if (old.data !== now.data) old.data = now.data;
      } else if (REPLACED.has(old.nodeName)) {
        old.replaceWith(now);
      } else {
        for (const { name } of Array.from(old.attributes)) if (!now.hasAttribute(name)) old.removeAttribute(name);
        for (const { name, value } of Array.from(now.attributes)) if (old.getAttribute(name) !== value) old.setAttribute(name, value);
        layOver(old, now);
      }
    });
  }

  function setHtml(el, html) {
    if (el.namespaceURI !== "http://www.w3.org/1999/xhtml") {
      el.innerHTML = html; // (an SVG's content is parsed as SVG)
      return;
    }
    const template = doc.createElement("template");
    template.innerHTML = html;
    layOver(el, template.content);
  }

  const METHODS = new Set(["focus", "blur", "showModal", "close", "requestFullscreen", "click"]);
  const PROPERTIES = new Set(["value", "checked", "scrollTop"]);

  function element(op) {
    const el = nodes.get(op[1]);
    if (!el) console.error(`hearts: the worker named no element ${op[1]} before ${op[0]}`);
    else touched(el);
    return el;
  }

  const kinds = {
    b: (op) => bind(op[1], op[2], op[3], op[4]),
    h: (op) => {
      const el = element(op);
      if (!el) return;
      const kept = focusKey(el);
      setHtml(el, op[2]);
      if (kept && !el.contains(doc.activeElement)) keyed(el, kept)?.focus({ preventScroll: true });
    },
    t: (op) => { const el = element(op); if (el) el.textContent = op[2]; },
    o: (op) => { const el = element(op); if (el) el.outerHTML = op[2]; nodes.delete(op[1]); },
    r: (op) => { const el = element(op); if (el) el.remove(); nodes.delete(op[1]); },
    i: (op) => { const el = element(op); if (el) el.insertAdjacentHTML(op[2], op[3]); },
    a: (op) => {
      const el = element(op);
      if (!el) return;
      if (op[3] == null) el.removeAttribute(op[2]);
      else el.setAttribute(op[2], op[3]);
    },
    c: (op) => { const el = element(op); if (el) el.classList.toggle(op[2], Boolean(op[3])); },
    p: (op) => {
      const el = element(op);
      if (el && PROPERTIES.has(op[2])) el[op[2]] = op[3];
    },
    s: (op) => { const el = element(op); if (el) el.style.setProperty(op[2], op[3]); },
    m: (op) => {
      const el = element(op);
      if (!el || !METHODS.has(op[2])) return;
      if (op[2] === "focus") {
        el.focus({ preventScroll: el.localName === "button" && el.closest("dialog") !== null });
        if (el.localName === "textarea" && el.readOnly) el.select(); // a text to copy by hand: selected
      }
      else if (op[2] === "close") { if (el.open) el.close(); }
      else if (op[2] === "showModal") { if (!el.open) el.showModal(); }
      else el[op[2]]();
    },
    f: (op) => { for (const vid of op[1]) nodes.delete(vid); },
    // ["ls", key, value | null, source?]: write (or remove) an item; with a source, a copy of it,
    // and the source is removed only once the copy is stored. A refusal (a full storage) is told
    // with what the storage holds now under the key (and still under the source).
    ls: (op) => {
      if (!storage) return;
      const [, key, value, source] = op;
      try {
        if (value == null) storage.removeItem(key);
        else storage.setItem(key, value);
      } catch (err) {
        const kept = source ? [source, storage.getItem(source)] : null;
        onStorageFailed(key, String(err && err.message || err), storage.getItem(key), kept);
        return;
      }
      if (source) storage.removeItem(source);
    },
    // ["probe", size]: does a write of that size fit now? (nothing is kept: a test item, removed)
    probe: (op) => {
      if (!storage) return;
      let fits = true;
      try {
        storage.setItem(PROBE, "x".repeat(Math.max(0, op[1] - PROBE.length)));
      } catch (err) {
        fits = false; // still full: the worker asks again with its next write
      }
      try { storage.removeItem(PROBE); } catch (err) { /* nothing stored */ }
      onStorageProbed(fits);
    },
    hist: (op) => { if (op[1] !== location.href) history.replaceState(null, "", op[1]); },
    call: (op) => call(op[1], op[2], op[3]),
    perf: (op) => measure(op[1], op[2], op[3]),
    log: (op) => (console[op[1]] || console.log)(op[2]),
  };

  function apply(ops) {
    for (const op of ops) {
      const kind = kinds[op[0]];
      if (kind) kind(op);
      else console.error(`hearts: an operation the page does not know: ${op[0]}`);
    }
  }
  apply.nodeOf = (vid) => nodes.get(vid); // the element the worker numbered ``vid``
  return apply;
}
