"""An engine that misbehaves on purpose, for the tests of the match runner and the client.

    python tests/misbehaving_engine.py MODE [N] [--hold FIFO]

Speaks the engine protocol well enough to play (its move: the first legal one) until
its mode says otherwise:

* ``good``: never misbehaves;
* ``crash N``: exits with status 3 when asked for its N-th move (counted from its start);
* ``stderr-flood N``: the same after writing 20,000 long lines on stderr;
* ``hang N``: never answers its N-th ``bestmove`` (nor anything after it);
* ``illegal N``: answers its N-th ``bestmove`` with a move that is not legal;
* ``garbage N``: answers its N-th ``bestmove`` with text that is no move;
* ``flood N``: answers its N-th ``bestmove`` with endless ``info`` lines;
* ``slow-start N``: waits N tenths of a second before reading any command;
* ``no-quit``: answers ``quit`` with nothing and keeps running.

``--hold FIFO``: open the named pipe FIFO for writing, write one byte to it (and one
more when it starts to hang), and start a child process holding it too, so that a test sees an engine start (a byte) and sees
when all of them and their children are gone (end of file on FIFO).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

from hinge_fast import Board


def main(argv: list[str]) -> int:
    hold = fd = None
    if "--hold" in argv:
        at = argv.index("--hold")
        hold = argv[at + 1]
        argv = argv[:at] + argv[at + 2 :]
    mode = argv[0]
    n = int(argv[1]) if len(argv) > 1 else 1
    if hold is not None:
        fd = os.open(hold, os.O_WRONLY)
        os.write(fd, b"+")  # one engine started
        subprocess.Popen(
            [sys.executable, "-c", "import sys; sys.stdin.read()"],
            stdin=subprocess.PIPE,
            pass_fds=(fd,),
        )
    Board(4).legal_moves  # load the compiled move generator before answering anything
    if mode == "slow-start":
        threading.Event().wait(n / 10)
    out = sys.stdout
    board = None
    searches = 0

    def say(*lines):
        out.write("".join(line + "\n" for line in lines))
        out.flush()

    for line in sys.stdin:
        words = line.split(None, 1)
        if not words:
            continue
        command, rest = words[0], (words[1].strip() if len(words) > 1 else "")
        if command == "info":
            say(f"id misbehaving {mode}", "sizes=4-9;engines=misbehaving", "ok")
        elif command == "newgame":
            fields = rest.split(";")
            board = (
                Board(int(fields[0]))
                if fields[0].isdigit()
                else Board.from_fen(fields[0])
                if fields[0]
                else Board()
            )
            for move in fields[2:]:
                board.push_str(move)
            say(board.fen(), "ok")
        elif command == "play":
            board.push_str(rest)
            say(board.fen(), "ok")
        elif command == "options":
            parts = rest.split()
            say(
                f"{parts[1]};int;{parts[2]};0;0;99999999999"
                if parts[:1] == ["set"]
                else "seed;int;0;0;0;99999999999",
                "ok",
            )
        elif command == "bestmove":
            searches += 1
            if searches == n and mode == "stderr-flood":
                for number in range(20_000):
                    sys.stderr.write(f"complaint {number} " + "x" * 2000 + "\n")
                sys.stderr.flush()
                os._exit(3)
            if searches == n and mode == "crash":
                os._exit(3)  # at once, as a crash does (no clean-up of the interpreter)
            if searches >= n and mode == "hang":
                if fd is not None:
                    os.write(fd, b"h")  # hanging now
                threading.Event().wait()
            if searches == n and mode == "illegal":
                say(str(board.move_stack[-1]) if board.move_stack else "Z99", "ok")
            elif searches == n and mode == "garbage":
                say("info depth 1", "not a move at all", "ok")
            elif searches == n and mode == "flood":
                while True:
                    say("info depth 1 score cp 0 nodes 1 nps 1 time 0.001 pv " + "A1 " * 200)
            else:
                say(
                    "info depth 1 score cp 0 nodes 1 nps 1 time 0.001 pv",
                    str(board.legal_moves[0]),
                    "ok",
                )
        elif command == "quit":
            if mode == "no-quit":
                threading.Event().wait()
            say("ok")
            return 0
        elif command != "stop":
            say(f"err unknown command {command}", "ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
