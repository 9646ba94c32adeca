"""Pictures drawn with matplotlib (an optional extra): its pyplot, off screen, and a
figure written to a PNG file, with the project's errors."""

from __future__ import annotations

from ..errors import HingeError


def pyplot(what: str):
    """matplotlib's pyplot on the off-screen backend; HingeError "WHAT needs
    matplotlib: ..." when it is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise HingeError(f"{what} needs matplotlib: pip install 'hinge-fast[plot]'") from None
    return plt


def save_figure(fig, path) -> None:
    """Write ``fig`` to ``path`` (100 dpi) and close it; HingeError "cannot write PATH:
    ..." if it cannot be written."""
    import matplotlib.pyplot as plt

    try:
        fig.savefig(path, dpi=100)
    except OSError as e:
        raise HingeError(f"cannot write {path}: {e.strerror or e}") from None
    finally:
        plt.close(fig)
