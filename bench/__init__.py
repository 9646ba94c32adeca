"""Benchmarks: the pytest-benchmark suite (``python -m pytest bench --benchmark-enable``), ``python -m bench.compare`` and ``python -m bench.concurrency``."""
