"""The smoke path in three browser engines: Chromium, Firefox ESR and WebKitGTK (Safari's engine).

``./scripts/test engines`` runs ``test_smoke.py`` in each, inside a network namespace with loopback
only (WebRTC in Firefox and Chromium), alongside the online and nat steps. Playwright drives
Chromium and Firefox (Debian's firefox-esr over WebDriver BiDi: ``playwright_engines.py``,
``firefox_shim.mjs``); WebKitGTK is driven over W3C WebDriver (``webkit.py``, ``webdriver.py``,
``webkit_browser.py``). The tests speak one small interface (``driver.py``), so a step is written
once for all three.
"""
