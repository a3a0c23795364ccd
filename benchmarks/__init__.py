"""Throughput measurements and tournaments; the numbers in the README come from here."""
