"""Build and serve tools of the site (``python3 tools/build.py``, ``python3 tools/serve.py``).

A package so that the lab's browser benchmarks can reuse them (``from tools import build, serve``).
"""
