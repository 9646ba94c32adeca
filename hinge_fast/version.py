"""The package's version, for every layer (``hinge_fast.__version__``)."""

__version__ = "0.2.0"
