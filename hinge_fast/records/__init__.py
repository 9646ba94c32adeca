"""Records and files: game records (``record.py``); reading input files and writing output files whole (``files.py``)."""
