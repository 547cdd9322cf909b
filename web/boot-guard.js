// The boot guard: plain JavaScript, so it works when Python does not. If the game is not ready
// within a generous time, or Python dies while starting (an error before "ready"), it shows why
// and two ways on: "Try again" (reload) and "Reset saved data", which first downloads everything
// the game stored as one file (the same export format the game imports), then deletes it and
// reloads. No state of the storage can keep a player on the loading bar.
// It also loads web/notices.css (its own look and the game's notices) without blocking the first
// paint, and adds "Reset saved data" to the error banner shown after start-up.
// Tests may set window.HEARTS_BOOT_TIMEOUT_MS before this script runs.
(function () {
  "use strict";
  var root = document.documentElement;
  var TIMEOUT_MS = window.HEARTS_BOOT_TIMEOUT_MS || 90000;
  var PREFIX = "hearts.";

  var css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = "./web/notices.css";
  document.head.appendChild(css);

  function storedLang() {
    try {
      var raw = localStorage.getItem("hearts.settings.v1");
      if (raw && raw.length < 20000) {
        var lang = JSON.parse(raw).lang;
        if (lang === "de" || lang === "en") return lang;
      }
    } catch (e) { /* unreadable settings: the browser's language decides */ }
    return /^de\b/i.test(navigator.language || "") ? "de" : "en";
  }
  var TEXT = {
    en: {
      slow: "The game has not started yet.",
      slowWhy: "It may still be loading on a slow connection, or something went wrong.",
      dead: "The game could not start.",
      deadWhy: "Something went wrong while it was starting.",
      broken: "Something went wrong while playing.",
      saved: "Your saved game is kept unless you reset it.",
      retry: "Try again",
      reset: "Reset saved data",
      confirm: "First a file with everything the game saved is downloaded (you can import it later under Settings). " +
        "Then the saved data is deleted from this browser and the page reloads.",
      go: "Download and reset",
      cancel: "Cancel",
      nothing: "Nothing is saved in this browser. The page reloads."
    },
    de: {
      slow: "Das Spiel ist noch nicht gestartet.",
      slowWhy: "Vielleicht lädt es noch über eine langsame Verbindung, oder etwas ist schiefgegangen.",
      dead: "Das Spiel konnte nicht starten.",
      deadWhy: "Beim Starten ist etwas schiefgegangen.",
      broken: "Beim Spielen ist etwas schiefgegangen.",
      saved: "Dein gespeichertes Spiel bleibt erhalten, solange du es nicht zurücksetzt.",
      retry: "Erneut versuchen",
      reset: "Gespeicherte Daten zurücksetzen",
      confirm: "Zuerst wird eine Datei mit allem heruntergeladen, was das Spiel gespeichert hat (du kannst sie später " +
        "unter Einstellungen importieren). Dann werden die Daten in diesem Browser gelöscht und die Seite lädt neu.",
      go: "Herunterladen und zurücksetzen",
      cancel: "Abbrechen",
      nothing: "In diesem Browser ist nichts gespeichert. Die Seite lädt neu."
    }
  };
  var tx = TEXT[storedLang()];

  function ready() { return root.classList.contains("ready"); }

  function storedKeys() {
    var keys = [];
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var k = localStorage.key(i);
        if (k && k.indexOf(PREFIX) === 0) keys.push(k);
      }
    } catch (e) { /* storage disabled: nothing stored */ }
    return keys.sort();
  }

  function savedGame() {
    try {
      return localStorage.getItem("hearts.match.v1") !== null;
    } catch (e) {
      return false;  // storage disabled: nothing saved
    }
  }

  function exportFile(keys) {
    var data = {};
    keys.forEach(function (k) { data[k] = localStorage.getItem(k); });
    var now = new Date().toISOString().slice(0, 19) + "Z";
    var text = JSON.stringify({ format: "hearts-export", version: 1, exported: now, data: data }, null, 1);
    var url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    var a = document.createElement("a");
    a.href = url;
    a.download = "hearts-backup-" + now.slice(0, 10) + ".json";
    a.hidden = true;
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  function resetNow(panel) {
    var keys = storedKeys();
    if (keys.length) {
      exportFile(keys);
      keys.forEach(function (k) { try { localStorage.removeItem(k); } catch (e) { /* ignore */ } });
    } else {
      panel.querySelector(".guard-text").textContent = tx.nothing;
    }
    root.classList.add("guard-reset-done");
    setTimeout(function () { location.reload(); }, 800); // let the download start first
  }

  var panel = null;
  function button(label, cls, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = cls;
    b.textContent = label;
    b.addEventListener("click", onClick);
    return b;
  }
  function show(kind) {
    if (panel) return;
    panel = document.createElement("div");
    panel.id = "boot-guard";
    panel.className = "boot-guard";
    panel.setAttribute("role", "alertdialog");
    panel.setAttribute("aria-labelledby", "guard-text");
    panel.dataset.kind = kind;
    var card = document.createElement("div");
    card.className = "guard-card";
    var p = document.createElement("p");
    p.id = "guard-text";
    p.className = "guard-text";
    p.textContent = kind === "slow" ? tx.slow : kind === "fatal" ? tx.broken : tx.dead;
    var why = document.createElement("p");
    why.className = "guard-note";
    why.textContent = kind === "slow" ? tx.slowWhy : kind === "dead" ? tx.deadWhy : "";
    var note = document.createElement("p");
    note.className = "guard-note";
    note.textContent = savedGame() ? tx.saved : "";  // only where a game is saved: a true message
    var actions = document.createElement("div");
    actions.className = "guard-actions";
    var reset = button(tx.reset, "guard-secondary", function () { confirmReset(); });
    reset.dataset.guard = "reset";
    var retry = button(tx.retry, "guard-primary", function () { location.reload(); });
    retry.dataset.guard = "retry";
    actions.appendChild(reset);
    actions.appendChild(retry);
    card.appendChild(p);
    if (why.textContent) card.appendChild(why);
    if (note.textContent) card.appendChild(note);
    card.appendChild(actions);
    panel.appendChild(card);
    document.body.appendChild(panel);
    root.classList.add("has-guard");
    retry.focus();

    function confirmReset() {
      note.textContent = tx.confirm;
      if (!note.parentNode) card.insertBefore(note, actions);
      actions.textContent = "";
      var cancel = button(tx.cancel, "guard-secondary", function () {
        if (kind === "fatal") { hide(); return; }
        panel.remove(); panel = null; root.classList.remove("has-guard"); show(kind);
      });
      var go = button(tx.go, "guard-primary", function () { resetNow(panel); });
      go.dataset.guard = "confirm-reset";
      actions.appendChild(cancel);
      actions.appendChild(go);
      go.focus();
    }
    if (kind === "fatal") confirmReset();
  }
  function hide() {
    if (panel) { panel.remove(); panel = null; root.classList.remove("has-guard"); }
  }

  // Python died while starting: the game's worker failed (web/runtime/page.mjs says so), or an
  // error escaped everything on the page.
  function died() { if (!ready()) show("dead"); }
  window.addEventListener("error", died);
  window.addEventListener("unhandledrejection", died);
  window.addEventListener("hearts:failed", died);
  new MutationObserver(function () {
    if (ready() && panel && panel.dataset.kind !== "fatal") hide(); // it did start after all
  }).observe(root, { attributes: true, attributeFilter: ["class"] });
  setTimeout(function () { if (!ready()) show("slow"); }, TIMEOUT_MS);

  // After start-up the error banner (web/boot.js, page.py) offers the reset as well.
  document.addEventListener("DOMContentLoaded", function () {
    var fatal = document.getElementById("fatal");
    if (!fatal) return;
    var b = button(tx.reset, "fatal-reset", function () { show("fatal"); });
    b.id = "fatal-reset";
    fatal.appendChild(b);
  });
})();
