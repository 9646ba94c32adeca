"""Tools for people working on the engine; run each as a module from the project folder: ``python -m scripts.make_perft_table --check``."""
