"""Evaluation: duplicate-deal tournaments between agents (:mod:`evaluation.duplicate`, which runs
them; :mod:`evaluation.seating`, :mod:`evaluation.record`, :mod:`evaluation.report` and
:mod:`evaluation.progress`, their seating, resumable record, report and progress bar) and the
checked values every configuration and command-line flag uses (:mod:`evaluation.flags`).

Dependencies point one way: ``hearts_env`` <- ``agents`` <- ``evaluation`` <- ``training``,
``benchmarks`` <- ``hearts_cli``.
"""
