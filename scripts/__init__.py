"""Tools for people working on the engine; run each as a module from the project folder: ``python -m scripts.make_perft_table --check``."""

import sys


def run_script(main) -> None:
    """Run a script's ``main()`` and exit with its status, as ``hinge-fast`` does: a
    HingeError, or a file that cannot be read or written, is one line on stderr and
    status 2; Ctrl-C is "interrupted" and status 130."""
    from hinge_fast.errors import HingeError

    try:
        status = main()
    except HingeError as e:
        print(f"error: {e}", file=sys.stderr)
        status = 2
    except OSError as e:  # a file named on the command line that cannot be read or written
        print(
            f"error: {e.strerror or e}: {e.filename}" if e.filename else f"error: {e}",
            file=sys.stderr,
        )
        status = 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr, flush=True)
        status = 130
    sys.exit(status or 0)
