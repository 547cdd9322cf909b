"""Build and serve tools of the site (``python3 tools/build.py``, ``python3 tools/serve.py``).

One package, imported from the repository's root under one name everywhere (``from tools import
build, serve``, ``tools.chromium``): by the e2e tests, the lab's browser benchmarks and the tests.
"""
