"""Pictures drawn with matplotlib (an optional extra): its pyplot, off screen, and a
figure written to a PNG file, with the project's errors."""

from __future__ import annotations

import os

from ..core.atomic import write_atomic
from ..errors import HingeError


def pyplot(what: str):
    """matplotlib's pyplot on the off-screen backend; HingeError "WHAT needs
    matplotlib: ..." when it is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        from hinge_fast.core.text import install_hint

        raise HingeError(f"{what} needs matplotlib: {install_hint('plot')}") from None
    return plt


def save_figure(fig, path) -> None:
    """Write ``fig`` to ``path`` (100 dpi) and close it; HingeError "cannot write PATH:
    ..." if it cannot be written."""
    import matplotlib.pyplot as plt

    kind = (
        os.path.splitext(os.fspath(path))[1][1:].lower() or None
    )  # the picture's format, from its name
    try:
        write_atomic(path, lambda f: fig.savefig(f, dpi=100, format=kind))
    finally:
        plt.close(fig)
