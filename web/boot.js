// Boot helpers that must run before Python is ready (the CSP forbids inline scripts):
// loading bar from PyScript's progress events, service worker registration and a friendly
// error banner instead of PyScript's stack trace. Everything else lives in Python.
(function () {
  "use strict";
  var root = document.documentElement;
  var de = /^de\b/i.test(navigator.language || "");
  var text = document.getElementById("loader-text");
  var bar = document.getElementById("loader-bar");
  var loader = document.getElementById("loader");
  if (de) {
    root.lang = "de";
    if (text) text.textContent = "Lädt…";
    var ft = document.getElementById("fatal-text");
    if (ft) ft.textContent = "Etwas ist schiefgegangen. Dein Spiel wird nach jedem Zug gespeichert; lade die Seite neu, um weiterzuspielen.";
    var fr = document.getElementById("fatal-reload");
    if (fr) fr.textContent = "Neu laden";
  }

  // PyScript reports about eight loading steps ("Loading Pyodide", "Loaded Pyodide", files, ...).
  var steps = 0;
  var EXPECTED = 8;
  function setProgress(p) {
    p = Math.max(0, Math.min(100, p));
    if (bar) bar.style.width = p + "%";
    if (loader) loader.setAttribute("aria-valuenow", String(Math.round(p)));
  }
  setProgress(4);
  window.addEventListener("py:progress", function () {
    steps += 1;
    setProgress(8 + (88 * steps) / EXPECTED);
  });

  // A Python exception becomes a .py-error element: show a friendly message instead.
  function showFatal() {
    var fatal = document.getElementById("fatal");
    if (fatal && fatal.hidden) {
      fatal.hidden = false;
      root.classList.add("has-fatal");
    }
  }
  new MutationObserver(function (records) {
    for (var i = 0; i < records.length; i++) {
      var added = records[i].addedNodes;
      for (var j = 0; j < added.length; j++) {
        var n = added[j];
        if (n.nodeType === 1 && (n.classList.contains("py-error") || n.querySelector(".py-error"))) {
          showFatal();
          return;
        }
      }
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
  document.addEventListener("click", function (ev) {
    var t = ev.target;
    if (t && t.id === "fatal-reload") location.reload();
  });

  // The online table's JavaScript is imported only when a player goes online (from Python:
  // `await window.heartsImport("./web/online.js")`), relative to the page, not to this script.
  window.heartsImport = function (url) {
    return import(new URL(url, document.baseURI).href);
  };

  // Offline support: the build generates ./sw.js next to index.html.
  if ("serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("./sw.js", { scope: "./" }).catch(function (err) {
        console.warn("service worker not registered:", err && err.message);
      });
    });
  }
})();
