"""Pools of worker processes (``core/workers.process_pool``, behind ``--concurrency``)
start whole: every worker started and answering before the first job."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from hinge_fast.core import workers
from hinge_fast.errors import HingeError

#: Seconds the late worker of the test below takes to start unless released earlier.
LATE = 2.0


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else None)


def _second_starts_late(counter, released) -> None:
    """A worker initializer: the second worker to start waits until ``released`` is set
    (at most ``LATE`` seconds), the first is free meanwhile."""
    with counter.get_lock():
        order = counter.value
        counter.value += 1
    if order == 1:
        released.wait(LATE)


def _dies() -> None:
    os._exit(3)


def test_each_worker_answers_one_start_job_even_when_one_starts_late(monkeypatch):
    """While one worker is slow to start, the other must not take every start job in
    turn: a loop of quick jobs until each worker had answered once spun on while the
    first worker kept winning the next job (on a loaded machine it ran for ever). The
    pool is ready after exactly one start job per worker, from two processes."""
    context = _context()
    counter, released = context.Value("i", 0), context.Event()
    submitted = []
    submit = ProcessPoolExecutor.submit

    def counted(self, fn, /, *args, **kwargs):
        submitted.append(fn)
        if len(submitted) > 2:
            released.set()  # more start jobs than workers: the test has failed already
        return submit(self, fn, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", counted)
    pool = workers.process_pool(2, _second_starts_late, (counter, released))
    try:
        assert len(submitted) == 2, f"{len(submitted)} start jobs for 2 workers"
        assert counter.value == 2
        answers = {pool.submit(os.getpid).result() for _ in range(20)}
        assert os.getpid() not in answers and 1 <= len(answers) <= 2
    finally:
        pool.shutdown()


def test_a_worker_that_dies_as_it_starts_is_one_line():
    with pytest.raises(HingeError, match="a worker process died as it started; the run stopped"):
        workers.process_pool(2, _dies)
    assert not multiprocessing.active_children()
