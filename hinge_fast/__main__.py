"""``python -m hinge_fast``: the ``hinge-fast`` command."""

from .cli import run

if __name__ == "__main__":
    run()
