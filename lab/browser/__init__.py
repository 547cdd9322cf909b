"""Benchmarks in a real Chromium: start-up, Hard on the page and in its worker, the review, the online table."""
