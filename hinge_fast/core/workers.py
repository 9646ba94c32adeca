"""Interruptible work on threads or worker processes: start it, poll it, stop it on
Ctrl-C or when asked (a deadline passed, a searcher told to stop), collect what it
returns. Perft and playouts (``parallel.py``), alpha-beta's depths and its Lazy SMP
helpers, MCTS's trees and the prover's threads run here on threads; the jobs of
matches, tournaments and counts (``jobs/executor.py``) on worker processes or Ray
actors, through the same loop (:func:`finished`).

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

Worker processes (:func:`process_pool`) run jobs that hold the GIL (a game's Python
parts); their ``stop`` is :func:`end_processes`, which ends them at once, so that
Ctrl-C leaves no process running.

Ctrl-C and SIGTERM are held back while the waiting thread is inside the loop's waits and
stops (:func:`signals_held`), and raised as soon as it leaves them. Python runs a signal's
handler between any two steps of the main thread, so a KeyboardInterrupt raised there
could leave a lock of a future or of a pool taken for good; the thread that finishes
the task (or the pool's manager thread, which the stop then waits for) would block on
it, and the command with it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    Future,
    InvalidStateError,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from concurrent.futures import wait as _wait_futures
from concurrent.futures.process import BrokenProcessPool

from ..errors import HingeError

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


def finished(
    running: dict,
    stop: Callable[[], None],
    poll: float | None = POLL,
    should_stop: Callable[[], bool] | None = None,
    tick: Callable[[], None] | None = None,
    refill: Callable[[], None] | None = None,
) -> Iterator[tuple[object, Future]]:
    """The one waiting loop: ``(running[f], f)`` for each future ``f`` of ``running``
    (``{future: key}``) as it finishes, in the order they finish (``f`` is taken out of
    ``running``). Before each wait ``refill()`` may start more tasks and add them to
    ``running`` (until ``stop``); the loop ends when nothing is running after it.
    Every ``poll`` seconds (None: no polling without ``should_stop`` and ``tick``), and
    on the main thread at least every ``POLL`` seconds (so that a held signal is seen),
    ``should_stop()`` is asked (true: ``stop()``, once) and ``tick()`` called while tasks
    run. An exception while waiting (Ctrl-C: KeyboardInterrupt) calls ``stop()``, waits
    until every running task has ended (a second Ctrl-C does not cut that short), and
    is raised. Closing the loop early cancels the tasks that have not begun and stops
    (``stop()``) the ones running."""
    stopped = False
    timeout = poll if should_stop is not None or tick is not None else None
    if threading.current_thread() is threading.main_thread():
        timeout = POLL if timeout is None else min(timeout, POLL)  # a held signal is seen
    try:
        while True:
            try:
                with signals_held():
                    if refill is not None and not stopped:
                        refill()
                    if not running:
                        return
                    if should_stop is not None and not stopped and should_stop():
                        stopped = True
                        stop()
                    done, pending = _wait_futures(
                        running, timeout=timeout, return_when=FIRST_COMPLETED
                    )
                    if tick is not None and pending:
                        tick()
            except BaseException:
                _stop_and_drain(stop, running)
                raise
            for future in done:
                yield running.pop(future), future
    finally:
        with signals_held():
            for future in running:
                future.cancel()
        if not all(future.done() for future in running):
            # Closed early with tasks under way (the consumer stopped taking results, or
            # raised between two of them: Ctrl-C while it saved a game): nothing will take
            # their results, so they are stopped, not waited for.
            _stop_and_drain(stop, running)


def _stop_and_drain(stop: Callable[[], None], running: dict) -> None:
    """``stop()``, then wait until every future of ``running`` is done (cancelled ones
    included); a further Ctrl-C or SIGTERM meanwhile is raised once they are."""
    with signals_held():
        stop()
        while not all(future.done() for future in running):
            _wait_futures(running, timeout=POLL)


#: The signals whose handlers :func:`signals_held` holds back.
_HELD = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGALRM") if hasattr(signal, name)
)


@contextlib.contextmanager
def signals_held():
    """Within, on the main thread: Ctrl-C, SIGTERM and SIGALRM, where a Python handler is
    set for them, are noted rather than handled; on the way out each noted one's handler
    runs (and raises, if it does), in the order they came. Elsewhere nothing changes:
    Python runs handlers on the main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list = []

    def note(signum, frame):
        came.append((signum, frame))

    handlers = {}
    try:
        for signum in _HELD:
            handler = signal.getsignal(signum)
            if callable(handler):
                handlers[signum] = handler
                signal.signal(signum, note)
        yield
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
        for signum, frame in came:
            handlers[signum](signum, frame)


class Work:
    """Tasks started on the worker threads (``start``)."""

    def __init__(self, tasks, stop):
        self._stop = stop
        self.stopped = False
        self.interrupted = False
        self.results: list = []
        executor = pool()
        with signals_held():  # submitting takes the pool's lock
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
        running = {future: index for index, future in enumerate(self.futures)}
        try:
            for _, future in finished(running, self.stop, poll, should_stop, tick):
                if future.exception() is not None and not self.stopped:
                    self.stop()  # a task failed: the others end too
        except KeyboardInterrupt:
            self.interrupted = True
        except BaseException as error:  # noqa: BLE001  (raised once the tasks ended)
            failure = error
        if self.interrupted or failure is not None:  # also when it came between two waits
            _stop_and_drain(self.stop, running)
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


#: Seconds a new pool's workers have to start and answer before the pool is given up.
START_TIMEOUT = 300.0

#: In a worker process of ``process_pool``: the barrier its pool's start jobs wait at.
_start_barrier = None


def process_pool(count: int, initializer=None, initargs=(), preload=()) -> ProcessPoolExecutor:
    """``count`` worker processes, each running ``initializer(*initargs)`` first, all
    started and answering before this returns. They come from a fork server where there
    is one (safe when this process runs threads), which imports the modules named in
    ``preload`` once for every process forked from it (``_worker_context``). HingeError
    if a worker dies or does not start within ``START_TIMEOUT`` seconds.

    Every worker is started now, not at its first job: Python's pool starts a worker at
    a submit only after waking its manager thread, which may then wait without watching
    the new worker until its next event, so a worker that died while every job ran long
    went unnoticed and the run waited for ever (one try in four). Each worker runs one
    start job that waits at a barrier until every worker runs one, so no worker can
    answer two. A loop of quick jobs until every worker had answered once could wait for
    ever: Python's pool starts a worker at a submit only when none is idle, so a first
    worker that answered before the next submit left the others never started (seen on
    a loaded machine: a run stuck for half an hour with one worker of two), and a late
    worker could lose every next job to the first."""
    context = _worker_context(preload)
    pool = ProcessPoolExecutor(
        max_workers=count,
        mp_context=context,
        initializer=_start_worker,
        initargs=(context.Barrier(count), initializer, initargs),
    )
    with signals_held():
        starts = [pool.submit(_all_started) for _ in range(count)]
    try:
        _, late = _wait_futures(starts, timeout=START_TIMEOUT)
    except BaseException:  # Ctrl-C while the workers start
        end_processes(pool)
        raise
    failed = next((f.exception() for f in starts if f.done() and f.exception()), None)
    if late or failed is not None:
        end_processes(pool)
        raise HingeError(
            "a worker process died as it started; the run stopped"
            if isinstance(failed, BrokenProcessPool)
            else f"the {count} worker processes did not all start within {START_TIMEOUT:.0f} s"
        ) from None
    return pool


def _worker_context(preload) -> multiprocessing.context.BaseContext:
    """The fork server, preloading the modules ``preload``, where there is one and it
    starts; else new interpreters ("spawn"), each importing what it needs. The fork
    server listens on a socket in the temporary folder, whose path must be short
    (about 100 bytes): under a longer ``TMPDIR`` it cannot start."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        from multiprocessing import forkserver  # only where a pool is made, not at start-up

        server = multiprocessing.get_context("forkserver")
        server.set_forkserver_preload(list(preload))
        try:
            forkserver.ensure_running()
            return server
        except OSError:
            pass
    return multiprocessing.get_context("spawn")


def _start_worker(barrier, initializer, initargs) -> None:
    global _start_barrier
    _start_barrier = barrier
    if initializer is not None:
        initializer(*initargs)


def _all_started() -> int:
    """A pool's start job: waits until every worker runs one; the worker's pid."""
    assert _start_barrier is not None
    _start_barrier.wait(START_TIMEOUT)
    return os.getpid()


def end_processes(processes: ProcessPoolExecutor, futures=()) -> None:
    """End the worker processes of ``processes`` now and shut the pool down whole, so
    that its queues' semaphores are released before this process ends. Their jobs are
    lost: each of ``futures`` (those of the pool) not done by then fails with
    BrokenProcessPool, so that nothing waits for them."""
    for worker in multiprocessing.active_children():
        worker.terminate()
    processes.shutdown(wait=True, cancel_futures=True)
    for future in futures:
        with contextlib.suppress(InvalidStateError):  # done meanwhile
            if not future.done():
                future.set_exception(BrokenProcessPool("the worker processes were ended"))
