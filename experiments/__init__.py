"""Experiments behind figures in the docs (fits, searches for test positions); run each as a module from the project folder: ``python -m experiments.texel --help``. See README.md here."""
