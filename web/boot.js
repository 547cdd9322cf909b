// Boot helpers that must run before Python is ready (the CSP forbids inline scripts): the
// player's language and look for the static first paint, the loading bar from the game's
// progress (web/runtime/page.mjs), a friendly error banner when the game's worker fails, and the
// service worker (registered once the game is ready). Everything else lives in Python.
// Loaded synchronously in <head>: the first part runs before <body> exists (and before the
// first paint); what needs the page's elements waits for DOMContentLoaded.
(function () {
  "use strict";
  var root = document.documentElement;

  // The player's saved settings (hearts_web/saved_data.py, key "hearts.settings.v1") decide the
  // language and the look of the first paint, as they will once Python runs.
  var saved;
  try {
    saved = JSON.parse(localStorage.getItem("hearts.settings.v1") || "{}") || {};
  } catch (err) {
    saved = {};  // unreadable or storage disabled: Python reports it
  }
  if (saved.look === "classic") root.classList.add("classic");
  // (a page of one language, de/index.html: its own unless the player chose: tools/pages.py)
  var pageLang = root.getAttribute("data-page-lang");
  var lang = saved.lang === "de" || saved.lang === "en" ? saved.lang
    : pageLang === "de" || pageLang === "en" ? pageLang
    : (/^de\b/i.test(navigator.language || "") ? "de" : "en");
  root.lang = lang;  // CSS shows the static texts of this language (.lang-en / .lang-de)

  // A first visit (nothing saved: no settings, no match; and no link to a daily, a challenge or
  // a table, which open without the welcome): index.html's welcome shows in the first paint,
  // where Python will show it (hearts_web/controller.py, _begin).
  try {
    if (localStorage.getItem("hearts.settings.v1") === null && localStorage.getItem("hearts.match.v1") === null
        && !/[?&](daily|challenge)=/.test(location.search) && !location.hash) {
      root.classList.add("first-visit");
    }
  } catch (err) { /* storage disabled: no welcome before Python decides */ }

  // A first visit (no service worker controls the page) downloads about 5 MB for Python: every
  // download of the start-up, PyScript's included, waits for the first paint, so that on a slow
  // network the page's HTML, CSS and icons have the bandwidth to themselves.
  // window.heartsFirstPaint resolves once the first paint is on the screen, to how it knew: the
  // largest-contentful-paint entry ("lcp"), else the first-contentful-paint entry ("fcp"), else
  // two animation frames after the document is parsed ("frames"); at most after a second
  // ("timeout": a hidden tab paints nothing).
  var firstVisit = !(navigator.serviceWorker && navigator.serviceWorker.controller);
  window.heartsFirstPaint = firstVisit ? new Promise(function (resolve) {
    var Observer = window.PerformanceObserver;
    var types = (Observer && Observer.supportedEntryTypes) || [];  // (an unknown type is ignored, not refused)
    if (types.indexOf("largest-contentful-paint") >= 0) {
      new Observer(function (list, observer) { observer.disconnect(); resolve("lcp"); })
        .observe({ type: "largest-contentful-paint", buffered: true });
    } else if (types.indexOf("paint") >= 0) {
      new Observer(function (list, observer) {
        if (!list.getEntriesByName("first-contentful-paint").length) return;
        observer.disconnect();
        resolve("fcp");
      }).observe({ type: "paint", buffered: true });
    } else {
      document.addEventListener("DOMContentLoaded", function () {
        requestAnimationFrame(function () { requestAnimationFrame(function () { resolve("frames"); }); });
      });
    }
    setTimeout(function () { resolve("timeout"); }, 1000);
  }) : Promise.resolve("returning");

  // Start-up preloads (written into index.html by the build), on a first visit only, after the
  // first paint: they start every download of the start-up at once instead of one after the
  // other. A returning visit has every file at hand (worker cache, HTTP cache); there the
  // preloads only competed with the first paint and the offline start (docs/development.md,
  // start-up).
  var preloads = firstVisit && document.getElementById("start-preloads");
  if (preloads) {
    var links = preloads.content.cloneNode(true).querySelectorAll("link");
    window.heartsFirstPaint.then(function () {
      Array.prototype.forEach.call(links, function (link) { document.head.appendChild(link); });
    });
  }
  // Then the game: the page's side of it (this script's data-game), a module script, once the
  // document is parsed (as a deferred script would run) and, on a first visit, the first paint is
  // on the screen.
  var game = document.currentScript.getAttribute("data-game");
  var parsed = new Promise(function (resolve) {
    if (document.readyState !== "loading") resolve();
    else document.addEventListener("DOMContentLoaded", function () { resolve(); });
  });
  Promise.all([window.heartsFirstPaint, parsed]).then(function () {
    var script = document.createElement("script");
    script.type = "module";
    script.src = game;
    document.head.appendChild(script);
  });

  // The toolbar: labelled where the labels fit its row; else icons only ("compact"); and where
  // even the icons do not fit beside the badge (a phone), the least used ones move into the "More"
  // menu (#more-menu, a popover), in FOLD's order, until the row fits: no button is squeezed, cut
  // off or pushed out, and the badge is whole. Python calls window.heartsFitToolbar again (a new
  // badge or language, a resize); here it first runs while the page is parsed, so that the first
  // frame shows the toolbar as it will stay: a MutationObserver's callback runs at the end of the
  // parser's task, before the page can be laid out for a frame, and the toolbar is whole once the
  // table (after it) is there. A browser without popovers gets a toolbar that wraps instead.
  var FOLD = ["fullscreen", "new-match", "settings", "rules", "stats", "online", "daily", "scores",
              "last-trick", "undo"];
  var hasPopover = typeof HTMLElement === "function" && HTMLElement.prototype.hasOwnProperty("popover");
  if (!hasPopover) root.classList.add("no-popover");
  var toolOrder = null;  // the tool buttons in the page's order (the menu gives them back in it)
  function fitsRow(topbar, row, badge) {
    var badgeWhole = !badge || badge.hidden ||
      (badge.scrollWidth <= badge.clientWidth + 1 && badge.scrollHeight <= badge.clientHeight + 1);
    return topbar.scrollWidth <= topbar.clientWidth + 1 && row.scrollWidth <= row.clientWidth + 1 && badgeWhole;
  }
  function fitToolbar() {
    var topbar = document.querySelector(".topbar"), row = document.querySelector(".tools");
    var more = document.getElementById("more-btn"), menu = document.getElementById("more-menu");
    if (!topbar || !row || !more || !menu) return false;
    var badge = document.getElementById("mode-badge");
    if (!toolOrder) toolOrder = Array.prototype.slice.call(row.querySelectorAll(".tool[data-action]"));
    toolOrder.forEach(function (tool) { row.insertBefore(tool, more); });  // all back, in order
    more.hidden = true;
    topbar.classList.remove("compact");
    if (!fitsRow(topbar, row, badge)) topbar.classList.add("compact");
    if (hasPopover && !fitsRow(topbar, row, badge)) {
      more.hidden = false;
      var folded = [];
      for (var i = 0; i < FOLD.length && !fitsRow(topbar, row, badge); i++) {
        var tool = row.querySelector('.tool[data-action="' + FOLD[i] + '"]');
        if (tool) { folded.push(tool); tool.remove(); }
      }
      toolOrder.forEach(function (tool) { if (folded.indexOf(tool) >= 0) menu.appendChild(tool); });
    }
    if (more.hidden && menu.matches(":popover-open")) menu.hidePopover();
    return !!document.getElementById("table");
  }
  window.heartsFitToolbar = fitToolbar;
  // (unobserved while it fits: its own moves must not call it again)
  var fitting = new MutationObserver(function () {
    fitting.disconnect();
    if (!fitToolbar()) fitting.observe(root, { childList: true, subtree: true });
  });
  fitting.observe(root, { childList: true, subtree: true });

  // The "More" menu opens under its button, at the right edge; choosing one of its buttons (the
  // game's Python runs it, as from the toolbar) closes it.
  document.addEventListener("DOMContentLoaded", function () {
    var menu = document.getElementById("more-menu"), more = document.getElementById("more-btn");
    if (!menu || !more || !hasPopover) return;
    menu.addEventListener("beforetoggle", function (ev) {
      if (ev.newState !== "open") return;
      var r = more.getBoundingClientRect();
      menu.style.top = Math.round(r.bottom + 6) + "px";
      menu.style.right = Math.max(4, Math.round(document.documentElement.clientWidth - r.right)) + "px";
      menu.style.maxHeight = Math.max(120, Math.round(window.innerHeight - r.bottom - 12)) + "px";
    });
    menu.addEventListener("click", function (ev) {
      if (ev.target.closest && ev.target.closest("[data-action]")) menu.hidePopover();
    });
  });

  var bar, loader;
  document.addEventListener("DOMContentLoaded", function () {
    fitting.disconnect();
    fitToolbar();
    bar = document.getElementById("loader-bar");
    loader = document.getElementById("loader");
    if (lang === "de") {
      var ft = document.getElementById("fatal-text");
      if (ft) ft.textContent = "Etwas ist schiefgegangen. Dein Spiel wird nach jedem Zug gespeichert; lade die Seite neu, um weiterzuspielen.";
      var fr = document.getElementById("fatal-reload");
      if (fr) fr.textContent = "Neu laden";
    }
    setProgress(Math.max(shown, 4));
  });

  // Loading bar. The game's worker reports its steps (web/runtime/page.mjs: "hearts:progress" on
  // window, detail = the step). Most of the time passes in "start" or "restore" (Pyodide starts):
  // there the bar creeps on slowly towards the next mark instead of standing still.
  var MARKS = { python: 12, restore: 30, start: 22, game: 88 };
  var shown = 0;
  function setProgress(p, creepTo) {
    p = Math.max(shown, Math.min(100, p));
    shown = p;
    if (bar) {  // (a step before DOMContentLoaded is shown then)
      bar.style.transition = "width .3s ease";
      bar.style.width = p + "%";
      if (creepTo) {
        // after this step's jump, a long ease-out towards creepTo (never reaching the next mark)
        setTimeout(function () {
          if (shown !== p) return;
          bar.style.transition = "width 2.5s cubic-bezier(.1,.6,.3,1)";
          bar.style.width = creepTo + "%";
        }, 320);
      }
    }
    if (loader) loader.setAttribute("aria-valuenow", String(Math.round(p)));
  }
  window.addEventListener("hearts:progress", function (ev) {
    var step = String(ev.detail || "");
    if (step in MARKS) setProgress(MARKS[step], step === "start" || step === "restore" ? 80 : 0);
  });

  // The game's worker failed once the game was on screen (web/runtime/page.mjs says so): a
  // friendly message instead (before, the boot guard's web/boot-guard.js says it).
  window.addEventListener("hearts:failed", function () {
    var fatal = document.getElementById("fatal");
    if (fatal && fatal.hidden && root.classList.contains("ready")) {
      fatal.hidden = false;
      root.classList.add("has-fatal");
    }
  });
  document.addEventListener("click", function (ev) {
    var t = ev.target;
    if (t && t.id === "fatal-reload") location.reload();
  });

  // The online table's JavaScript is imported only when a player goes online (from Python:
  // `await window.heartsImport("./web/online.js")`), relative to the page, not to this script.
  window.heartsImport = function (url) {
    return import(new URL(url, document.baseURI).href);
  };

  // window.heartsReady resolves once the game is on screen (html.ready, set by the game's
  // Python). What would compete with the start-up for the network and the CPU waits for it: the
  // service worker's precaching (below) and the storing of Python's snapshot (runtime.mjs).
  window.heartsReady = new Promise(function (resolve) {
    if (root.classList.contains("ready")) return resolve();
    var watch = new MutationObserver(function () {
      if (!root.classList.contains("ready")) return;
      watch.disconnect();
      resolve();
    });
    watch.observe(root, { attributes: true, attributeFilter: ["class"] });
  });

  // Offline support: the build generates ./sw.js next to index.html. Registered when the game
  // is ready, not at "load" (docs/development.md, start-up).
  function registerServiceWorker() {
    navigator.serviceWorker.register("./sw.js", { scope: "./" }).catch(function (err) {
      console.warn("service worker not registered:", err && err.message);
    });
  }
  if ("serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
    window.heartsReady.then(function () { setTimeout(registerServiceWorker, 0); });
  }
})();
