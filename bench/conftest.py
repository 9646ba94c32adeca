"""pytest-benchmark suite: ``python -m pytest bench --benchmark-enable``.

Kept out of the test run (``testpaths = tests``); nothing here asserts a speed.
"""
