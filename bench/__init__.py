"""Benchmarks: the pytest-benchmark suite (``python -m pytest bench --benchmark-enable``) and ``python -m bench.compare``."""
