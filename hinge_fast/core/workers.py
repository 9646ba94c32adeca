"""Interruptible work on threads: start it, poll it, stop it on Ctrl-C or when asked,
collect what it returns. Perft and playouts (``parallel.py``), alpha-beta's depths and
its Lazy SMP helpers, MCTS's trees and the prover's threads all run through here.

    >>> import threading
    >>> stop = threading.Event()
    >>> work = run([lambda: 1 + 1, lambda: 2 * 3], stop.set)
    >>> work.results, work.interrupted
    ([2, 6], False)

A task is a function of no arguments that returns when its work is done or soon after
``stop()`` was called (a kernel reads a flag or deadline that ``stop`` sets: the kernels
are compiled ``nogil``, so the threads run at once). The calling thread waits in
``Work.wait``, which every ``poll`` seconds calls ``should_stop()`` (true: ``stop()``)
and ``tick()`` (progress); Ctrl-C there (KeyboardInterrupt in the waiting thread) calls
``stop()`` and marks the work ``interrupted``, and the wait goes on until every task
has returned, so no thread is left running a kernel. A task that raises stops the
others; its exception is raised by ``wait`` once all have returned. The threads come
from one pool for the process and are reused: starting a thread cost about 0.4 ms, a
lot of a 0.01 s search.
"""

from __future__ import annotations

import threading
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor
from concurrent.futures import wait as _wait_futures

#: Seconds between two looks at ``should_stop`` and two ``tick`` calls.
POLL = 0.02
#: Most tasks running at once in the process (idle threads are reused).
MAX_WORKERS = 1024

_POOL_LOCK = threading.Lock()
_POOL: ThreadPoolExecutor | None = None
_BUSY = [0]


def pool() -> ThreadPoolExecutor:
    """The process's worker threads (started on first use)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=MAX_WORKERS, thread_name_prefix="hinge-fast")
        return _POOL


def busy() -> int:
    """Tasks running now, in the whole process."""
    with _POOL_LOCK:
        return _BUSY[0]


def _counted(task):
    def run():
        with _POOL_LOCK:
            _BUSY[0] += 1
        try:
            return task()
        finally:
            with _POOL_LOCK:
                _BUSY[0] -= 1

    return run


class Work:
    """Tasks started on the worker threads (``start``)."""

    def __init__(self, tasks, stop):
        self._stop = stop
        self.stopped = False
        self.interrupted = False
        self.results: list = []
        executor = pool()
        self.futures = [executor.submit(_counted(task)) for task in tasks]

    def stop(self) -> None:
        """Make every task end soon (the ``stop`` given to ``start``)."""
        self.stopped = True
        self._stop()

    def done(self) -> bool:
        return all(f.done() for f in self.futures)

    def wait(self, poll: float = POLL, should_stop=None, tick=None) -> list:
        """Wait for every task (module docstring); their results, in order."""
        failure = None
        while True:
            try:
                if should_stop is not None and not self.stopped and should_stop():
                    self.stop()
                finished, pending = _wait_futures(
                    self.futures, timeout=poll, return_when=FIRST_EXCEPTION
                )
                if any(f.exception() is not None for f in finished) and not self.stopped:
                    self.stop()  # a task failed: the others end too
                if not pending:
                    break
                if tick is not None:
                    tick()
            except KeyboardInterrupt:
                self.interrupted = True
                self.stop()
            except BaseException as error:  # noqa: BLE001  (raised once the tasks ended)
                failure = failure or error
                self.stop()
        if tick is not None and failure is None and not self.interrupted:
            tick()
        for f in self.futures:
            if f.exception() is not None:
                raise f.exception()
        if failure is not None:
            raise failure
        self.results = [f.result() for f in self.futures]
        return self.results


def start(tasks, stop) -> Work:
    """Start ``tasks`` on the worker threads; ``stop()`` makes them end soon."""
    return Work(tasks, stop)


def run(tasks, stop, poll: float = POLL, should_stop=None, tick=None) -> Work:
    """``start(tasks, stop)`` and wait for them (``Work.wait``): the finished ``Work``,
    with ``results`` and ``interrupted`` (Ctrl-C arrived while waiting)."""
    work = start(tasks, stop)
    work.wait(poll, should_stop, tick)
    return work
