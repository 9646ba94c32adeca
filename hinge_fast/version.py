"""The package's version, for every layer (``hinge_fast.__version__``)."""

__version__ = "0.3.0.dev0"
