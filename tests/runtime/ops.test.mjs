// web/runtime/ops.mjs and input.mjs on a document (linkedom): the operations the game's worker
// writes (hearts_web/core/vdom.py, run here through python3 for the same page) make the page's
// document what the worker's is; an event names its element the way the worker finds it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { parseHTML } from "linkedom";
import { makeApplier } from "../../web/runtime/ops.mjs";
import { address, describe, moveInHand, shouldPrevent } from "../../web/runtime/input.mjs";

const PAGE = `<!doctype html><html lang="en"><head><title>Hearts</title></head><body>
<main id="app"><nav class="tools"><button class="tool" data-action="hint">?</button></nav>
<section id="table"><div class="seat" data-seat="1"><span class="name">Pip</span></div>
<div id="hand"><button data-card="QS">Q</button><button data-card="2C">2</button></div></section>
<dialog id="dlg"><div id="dlg-body"></div></dialog><div id="toast" hidden></div></main></body></html>`;

// Python's worker document: run ``script`` (Python, with ``d`` the Document of PAGE) and return
// [the operations it wrote, the body's HTML it ends with].
function python(script) {
  const code = `
import json, sys
sys.path[:0] = ["web"]
from hearts_web.core.vdocument import Document
d = Document(sys.argv[1])
${script}
print(json.dumps([d.patch.take(), d.body.innerHTML]))`;
  return JSON.parse(execFileSync("python3", ["-c", code, PAGE], { encoding: "utf8" }));
}

function page() {
  const { document } = parseHTML(PAGE);
  const stored = new Map();
  const storage = {
    setItem: (k, v) => stored.set(k, String(v)),
    removeItem: (k) => stored.delete(k),
  };
  const calls = [];
  const errors = [];
  const apply = makeApplier({ doc: document, storage, call: (...a) => calls.push(a), measure: () => {} });
  return { document, apply, stored, calls, errors };
}

// A tree as [tag, sorted attributes, children] (text trimmed), to compare two documents' bodies.
function canon(node) {
  if (node.nodeType === 3) return node.textContent.trim() || null;
  const attrs = [...node.attributes].map((a) => [a.name, a.value]).sort();
  return [node.localName, attrs, [...node.childNodes].map(canon).filter((c) => c !== null)];
}
const body = (html) => canon(parseHTML(`<html><body>${html}</body></html>`).document.body);
global.Element = parseHTML("<html></html>").window.Element;

test("the worker's operations make the page's document the worker's", () => {
  const [ops, html] = python(`
d.querySelector(".seat .name").textContent = "Hops"
d.querySelector(".seat").classList.add("thinking")
d.getElementById("hand").innerHTML = '<button data-card="AH" aria-disabled="true">A</button><button data-card="KD">K</button>'
d.querySelector('[data-card="KD"]').setAttribute("aria-pressed", "true")
d.getElementById("toast").hidden = False
d.getElementById("toast").textContent = "Hearts are broken"
d.querySelector("[data-card='AH']").remove()
bar = d.createElement("div")
bar.id = "online-bar"
bar.innerHTML = "<button>Mute</button>"
d.getElementById("table").appendChild(bar)
bar.querySelector("button").classList.add("on")
d.documentElement.dataset.dealVerified = "true"`);
  const { document, apply } = page();
  apply(ops);
  assert.deepEqual(canon(document.body), body(html));
  assert.equal(document.documentElement.getAttribute("data-deal-verified"), "true");
});

test("a hand drawn again keeps the cards that stay: a tap begun on one ends on it", () => {
  const [ops, html] = python(`
d.getElementById("hand").innerHTML = '<button data-card="QS" aria-pressed="true">Q</button><button data-card="2C" class="x">2</button>'`);
  const { document, apply } = page();
  const [queen, two] = document.querySelectorAll("#hand button");
  apply(ops);
  assert.deepEqual(canon(document.body), body(html));
  const now = document.querySelectorAll("#hand button");
  assert.ok(now[0] === queen && now[1] === two, "the same elements, changed");
  assert.equal(queen.getAttribute("aria-pressed"), "true");
  const [other, otherHtml] = python(`
d.getElementById("hand").innerHTML = '<button data-card="2C">2</button><button data-card="QS">Q</button>'`);
  const again = page();
  const before = again.document.querySelector('[data-card="QS"]');
  again.apply(other);
  assert.deepEqual(canon(again.document.body), body(otherHtml));
  assert.notEqual(again.document.querySelector('[data-card="QS"]'), before, "other cards in other places: new ones");
});

test("storage, the address and calls go where they belong, in order", () => {
  const { apply, stored, calls } = page();
  apply([["ls", "hearts.match.v1", "{}"], ["ls", "hearts.settings.v1", "1"], ["ls", "hearts.settings.v1", null],
    ["call", 7, "clipboard", ["text"]]]);
  assert.deepEqual([...stored], [["hearts.match.v1", "{}"]]);
  assert.deepEqual(calls, [[7, "clipboard", ["text"]]]);
});

test("an element the worker names at a path the page does not have is said in the console", () => {
  const { apply } = page();
  const said = [];
  const error = console.error;
  console.error = (text) => said.push(text);
  try {
    apply([["b", 5, "hand", [9], "button"], ["b", 6, "hand", [0], "span"]]);
  } finally {
    console.error = error;
  }
  assert.equal(said.length, 2);
  assert.match(said[0], /went apart/);
});

test("an event names its element the way the worker's document finds it", () => {
  const { document } = page();
  const card = document.querySelector('[data-card="2C"]');
  assert.deepEqual(address(card), ["hand", [1]]);
  const [ops] = python(`
el = d.at("hand", [1])
print(el.getAttribute("data-card"), file=sys.stderr)
el.classList.add("found")`);
  assert.equal(ops.at(-1)[2], "found"); // the worker found an element there and changed it
  const tool = document.querySelector(".tool");
  assert.deepEqual(address(tool), ["app", [0, 0]]);
  const message = describe({ type: "keydown", target: card, key: "ArrowLeft", ctrlKey: false, metaKey: false,
    altKey: false, shiftKey: true });
  assert.deepEqual(message, { t: "event", type: "keydown", at: ["hand", [1]], key: "ArrowLeft", ctrl: false,
    meta: false, alt: false, shift: true });
});

test("the page itself keeps the arrow keys in the hand and a command's link from the browser", () => {
  const { document } = page();
  const card = document.querySelector('[data-card="QS"]');
  const key = (target, k) => ({ type: "keydown", target, key: k, ctrlKey: false, metaKey: false, altKey: false });
  assert.equal(shouldPrevent(key(card, "ArrowRight")), true);
  assert.equal(shouldPrevent(key(card, "a")), false);
  assert.equal(shouldPrevent(key(document.querySelector(".tool"), "ArrowRight")), false);
  document.getElementById("app").insertAdjacentHTML("beforeend", '<a id="skip" href="#hand" data-action="skip">x</a>');
  assert.equal(shouldPrevent({ type: "click", target: document.getElementById("skip") }), true);
  assert.equal(shouldPrevent({ type: "click", target: card }), false);
});

// linkedom has no focus: the document's activeElement is what focus() last chose
function withFocus(document) {
  let active = document.body;
  Object.defineProperty(document, "activeElement", { get: () => active, configurable: true });
  const proto = Object.getPrototypeOf(document.querySelector("#hand button"));
  proto.focus = function focus() { active = this; };
  return document;
}
const key = (target, name) => ({ type: "keydown", key: name, target, ctrlKey: false, metaKey: false, altKey: false });
const focused = (document) => document.activeElement.getAttribute("data-card");

test("the hand's arrow keys move the focus on the page, over every card, round the ends", () => {
  const { document } = page();
  withFocus(document);
  const [queen, two] = document.querySelectorAll("#hand button");
  assert.equal(moveInHand(key(queen, "ArrowRight")), true);
  assert.equal(focused(document), "2C");
  moveInHand(key(two, "ArrowRight"));
  assert.equal(focused(document), "QS"); // round the end
  moveInHand(key(queen, "ArrowLeft"));
  assert.equal(focused(document), "2C");
  moveInHand(key(two, "Home"));
  assert.equal(focused(document), "QS");
  moveInHand(key(queen, "End"));
  assert.equal(focused(document), "2C");
  assert.equal(moveInHand(key(document.querySelector(".tool"), "ArrowRight")), false); // not in the hand
  assert.equal(moveInHand({ ...key(two, "ArrowLeft"), ctrlKey: true }), false);
  assert.equal(focused(document), "2C");
});

test("a hand drawn again keeps the focus on the same card, on the page and in the worker", () => {
  const [ops] = python(`
d.active = d.querySelector('#hand [data-card="2C"]')
d.querySelector("#hand").innerHTML = '<button data-card="AH">A</button><button data-card="2C">2</button>'
assert d.activeElement.getAttribute("data-card") == "2C" and d.activeElement.isConnected
d.querySelector("#hand").innerHTML = '<button data-card="AH">A</button>'
assert d.activeElement is d.body, "the card has gone: the focus with it"`);
  const { document, apply } = page();
  withFocus(document);
  document.querySelector('#hand [data-card="2C"]').focus();
  apply(ops.slice(0, 2));
  assert.equal(focused(document), "2C");
  assert.equal(document.activeElement.isConnected, true);
  assert.equal(document.querySelectorAll("#hand button").length, 2);
});
