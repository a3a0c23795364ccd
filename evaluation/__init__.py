"""Evaluation: duplicate-deal tournaments between agents (:mod:`evaluation.duplicate`) and the
checked values every configuration and command-line flag uses (:mod:`evaluation.flags`).

Dependencies point one way: ``hearts_env`` <- ``agents`` <- ``evaluation`` <- ``training``,
``benchmarks`` <- ``hearts_cli``.
"""
