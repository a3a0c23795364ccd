"""What a user runs to benchmark: the throughput table beside OpenSpiel (``hearts-env bench``,
:mod:`benchmarks.throughput`), training's rate (:mod:`benchmarks.training_rate`) and the demo
(``make demo``, :mod:`benchmarks.demo`)."""
