"""The one exception type users of hinge_fast ever need to catch."""


class HingeError(ValueError):
    """Anything a user can get wrong: a malformed position string, an illegal or
    unparsable move, an unsupported board size, a bad option.

    The message is one line that names the problem; the command line prints it as
    ``error: <message>`` and exits with status 2.

    >>> from hinge_fast import Board
    >>> Board.from_fen("6/7 g")
    Traceback (most recent call last):
    ...
    hinge_fast.errors.HingeError: position string has 2 rows; a board of side S has 2S-1 rows (7 to 17)
    """
