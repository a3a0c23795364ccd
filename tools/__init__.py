"""Regression tools for working on this repository: same numbers, reproductions, before/after
throughput and training seeds. Run from a checkout (``python -m tools.NAME``); not installed."""
