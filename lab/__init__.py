"""The lab: what measures or explores the game rather than ships it.

Benchmarks, tournaments between bots, analysis of their runs and the generators of test fixtures.
Run from the repository root as ``python3 -m lab.<module>`` (see ``lab/README.md``); run outputs go
to ``lab/out/`` (ignored by git) and what a run decided goes to ``lab/RESULTS.md``.
"""
