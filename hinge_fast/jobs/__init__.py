"""Jobs run one at a time, on this machine's cores or on a Ray cluster (``executor.py``)."""
