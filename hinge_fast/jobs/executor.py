"""Run a list of jobs one at a time, C at a time on this machine, or on a Ray cluster.

    >>> from hinge_fast.jobs.executor import Executor, in_order
    >>> with Executor() as ex:
    ...     list(in_order(ex.run(abs, [-3, 1, -2])))
    [(0, 3), (1, 1), (2, 2)]

A job is ``fn(job)``: ``fn`` a function defined at the top level of a module (it is
sent to other processes by name) and ``job`` a picklable value that holds everything
the function needs, its seed included, so that a job gives the same answer wherever
it runs. ``Executor.run(fn, jobs)`` yields ``(index, result)`` pairs as jobs finish,
``index`` being the job's position in ``jobs``; :func:`in_order` puts them back in
order when the caller needs that (a match stopped by an SPRT, a tally merged game by
game), so that a run gives the same answer on one core, on C, or on a cluster.

Backends, chosen when the Executor is made:

* ``Executor()``: in this process, one job at a time;
* ``Executor(concurrency=C)``: a pool of C worker processes (``concurrent.futures``),
  each importing the kernels once and keeping them for the pool's life. Processes, not
  threads: the MCTS kernel and the Python parts of a game (Board, the greedy and random
  players, the referee) hold the GIL;
* ``Executor(ray=ADDRESS)``: long-lived Ray actors, one per CPU of the cluster (or C of
  them with ``concurrency=C``), each loading the kernels once. ``ray=ADDRESS`` connects to
  a running cluster (``ray start --head`` prints the address; ``"auto"`` finds one
  started on this machine); ``ray=LOCAL`` starts a Ray on this machine with one CPU per
  core, its services listening on 127.0.0.1 only (out of the network's reach). If Ray is already initialised in this process, that Ray is used as it is. A
  job whose actor dies (killed, its machine lost) goes to another actor, a new one is
  started in its place, and the run still ends with every job; a job that kills
  ``MAX_ATTEMPTS`` actors in a row is an error.

A generator returned by ``run`` may be closed early (an SPRT decided): jobs not yet
started are dropped. The pool or the actors are made on first use and kept for later
``run`` calls until ``close()`` (or the end of a ``with`` block).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import threading
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..core import workers
from ..errors import HingeError
from ..protocol.client import stop_running_engines

#: ``ray=LOCAL``: start a Ray on this machine instead of connecting to a cluster.
LOCAL = "local"
#: The address a local Ray (``ray=LOCAL``) binds its services to.
LOOPBACK = "127.0.0.1"
#: Ray's switch that makes this machine's node address the loopback one (see _start_ray).
LOCAL_ONLY_SWITCH = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
#: Jobs kept waiting per worker, so that no worker idles between two jobs.
QUEUE_PER_WORKER = 2
#: A job that is running on this many actors when they die is given up.
MAX_ATTEMPTS = 3


@contextlib.contextmanager
def _loopback_only(on: bool):
    """With ``on``, Ray's own switch for a node that is never part of a cluster, set
    while Ray is imported and started (its processes inherit it): the node's address
    is then the loopback one, and Ray's services listen on it only."""
    saved = os.environ.get(LOCAL_ONLY_SWITCH)
    if on:
        os.environ[LOCAL_ONLY_SWITCH] = "0"
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(LOCAL_ONLY_SWITCH, None)
        else:
            os.environ[LOCAL_ONLY_SWITCH] = saved


def load_kernels() -> None:
    """Import the kernels and the searchers (numba loads compiled code from its cache
    when a kernel is first called; importing is what a worker does once)."""
    from .. import search  # noqa: F401
    from ..core import kernels  # noqa: F401


def _worker_start(owner: int) -> None:
    # Ctrl-C goes to the whole process group: the parent decides what happens.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _ended)  # the parent stopping its pool at once
    _end_with(owner)
    load_kernels()


def _ended(signum=None, frame=None) -> None:
    """End this worker process now, with the external engines it started."""
    stop_running_engines()
    os._exit(1)


def _end_with(owner: int) -> None:
    """End this worker process when the process ``owner`` (the one that made the pool)
    ends. A pool worker waits for its next job on a queue whose write end it holds
    itself, so it never sees the owner go: an owner stopped by Ctrl-C before its pool
    told the workers to stop (seen once in a test: an interrupted ``match --concurrency
    2`` left both workers and the fork server behind) would otherwise leave them
    waiting forever. A thread blocks on a pidfd of the owner (Linux 5.3+; elsewhere
    nothing is done) and exits the process when it becomes readable."""
    try:
        watched = os.pidfd_open(owner)
    except (AttributeError, OSError):
        return

    def wait_then_exit():
        select.select([watched], [], [])
        _ended()

    threading.Thread(target=wait_then_exit, name="end-with-owner", daemon=True).start()


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """HingeError unless something listens at ``host:port`` (``ray://host:port`` too):
    Ray itself would retry an unreachable address for minutes."""
    rest = address.split("://", 1)[-1]
    host, _, port = rest.rpartition(":")
    if not host or not port.isdigit():
        raise HingeError(
            f"--ray takes HOST:PORT (as 'ray start --head' prints it), 'auto' or nothing, not {address!r}"
        )
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as e:
        raise HingeError(f"cannot reach the Ray cluster at {address}: {e.strerror or e}") from None


def in_order(results: Iterable[tuple[int, Any]], start: int = 0) -> Iterator[tuple[int, Any]]:
    """``(index, result)`` pairs from ``results`` (any order) in index order, from
    ``start``. Should ``results`` skip an index, what comes after it is yielded at the
    end, in order."""
    waiting: dict[int, Any] = {}
    expected = start
    for index, result in results:
        waiting[index] = result
        while expected in waiting:
            yield expected, waiting.pop(expected)
            expected += 1
    for index in sorted(waiting):  # only when the caller's indices have holes
        yield index, waiting[index]


class Executor:
    """Where jobs run: see the module docstring. ``concurrency``: worker processes
    (local) or the most actors (Ray); ``ray``: None (local), an address, or
    :data:`LOCAL`."""

    def __init__(self, concurrency: int | None = None, ray: str | None = None):
        if concurrency is not None and (
            isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1
        ):
            raise HingeError(
                f"concurrency must be a whole number of at least 1, not {concurrency!r}"
            )
        self.concurrency = concurrency
        self.ray_address = ray
        self._pool = None
        self._ray = None
        self._actors: list = []
        self._actor_count = 0  # the actors a Ray run keeps
        self._started_ray = False
        self.actor_deaths = 0

    # ----- description ----------------------------------------------------------------------
    @property
    def kind(self) -> str:
        """``'serial'``, ``'processes'`` or ``'ray'``."""
        if self.ray_address is not None:
            return "ray"
        return "processes" if (self.concurrency or 1) > 1 else "serial"

    @property
    def workers(self) -> int:
        """How many jobs run at once (on Ray: the actors, known once started)."""
        if self.kind == "ray":
            return len(self._actors) or (self.concurrency or 0)
        return self.concurrency or 1

    def describe(self) -> str:
        if self.kind == "ray":
            where = (
                f"a local Ray listening on {LOOPBACK} only"
                if self.ray_address == LOCAL
                else f"the Ray cluster at {self.ray_address}"
            )
            return f"{self.workers} Ray workers on {where}"
        if self.kind == "processes":
            return f"{self.workers} worker processes"
        return "1 process"

    def start(self) -> Executor:
        """Start Ray and its actors now rather than at the first ``run`` (the worker
        processes of a local pool start with the first jobs)."""
        if self.kind == "ray" and self._ray is None:
            self._start_ray()
        return self

    # ----- running --------------------------------------------------------------------------
    def run(
        self, fn: Callable[[Any], Any], jobs: Iterable[Any]
    ) -> Generator[tuple[int, Any], None, None]:
        """Yield ``(index, fn(job))`` for every job, in the order they finish."""
        if self.kind == "serial":
            return self._run_serial(fn, jobs)
        if self.kind == "processes":
            return self._run_pool(fn, jobs)
        return self._run_ray(fn, jobs)

    @staticmethod
    def _run_serial(fn, jobs):
        for index, job in enumerate(jobs):
            yield index, fn(job)

    def _run_pool(self, fn, jobs):
        if self._pool is None:
            # the fork server imports the kernels once for every worker forked from it
            self._pool = workers.process_pool(
                self.workers,
                _worker_start,
                (os.getpid(),),
                preload=(
                    "hinge_fast.jobs.executor",
                    "hinge_fast.core.kernels",
                    "hinge_fast.search",
                    "hinge_fast.games.match",
                ),
            )
        processes = self._pool
        running: dict = {}
        todo = iter(enumerate(jobs))

        def refill():
            while len(running) < QUEUE_PER_WORKER * self.workers:
                item = next(todo, None)
                if item is None:
                    return
                running[processes.submit(fn, item[1])] = item[0]

        def stop():
            # Ctrl-C: the games running are not waited for: the workers are ended
            # (they stop the engines they started)
            self._pool = None
            workers.end_processes(processes, list(running))

        for index, future in workers.finished(running, stop, refill=refill):
            try:
                result = future.result()
            except BrokenProcessPool:
                self._pool = None
                raise HingeError(
                    "a worker process died (out of memory?); the run stopped"
                ) from None
            yield index, result

    # ----- Ray ------------------------------------------------------------------------------------
    def _start_ray(self):
        with _loopback_only(self.ray_address == LOCAL):
            self._start_ray_here()

    def _start_ray_here(self):
        try:
            import ray
            import ray.util
        except ImportError:
            from hinge_fast.core.text import install_hint

            raise HingeError(f"--ray needs Ray: {install_hint('cluster')}") from None
        if self.ray_address not in (LOCAL, "auto"):
            _check_reachable(self.ray_address)
        self._ray = ray
        if not ray.is_initialized():
            options = dict(
                include_dashboard=False,
                log_to_driver=False,
                logging_level="error",
                configure_logging=True,
            )
            os.environ.setdefault("RAY_ACCEL_ENV_VAR_OVERRIDE_ON_ZERO", "0")
            # a local Ray on the loopback address: its services (unauthenticated unless
            # Ray's token mode is on) are then out of the network's reach
            if self.ray_address == LOCAL and ray.util.get_node_ip_address() != LOOPBACK:
                raise HingeError(
                    f"cannot start a local Ray listening on {LOOPBACK} only: Ray was imported before "
                    f"{LOCAL_ONLY_SWITCH}=0 was set (set it before importing ray, or start a Ray "
                    f"yourself and use --ray ADDRESS)"
                )
            try:
                if self.ray_address == LOCAL:
                    ray.init(
                        address="local", num_cpus=cores(), _node_ip_address=LOOPBACK, **options
                    )
                else:
                    ray.init(address=self.ray_address, **options)
            except Exception as e:  # Ray raises many kinds (connection, timeout, its own)
                reason = str(e).splitlines()[0] if str(e) else type(e).__name__
                where = (
                    "start a local Ray"
                    if self.ray_address == LOCAL
                    else f"reach the Ray cluster at {self.ray_address}"
                )
                raise HingeError(f"cannot {where}: {reason}") from None
            self._started_ray = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        count = self._actor_count = max(
            1, min(cpus, self.concurrency) if self.concurrency else cpus
        )
        idle = _IDLE_ACTORS.pop(_ray_session(ray), [])
        self._actors = idle[:count] + [self._new_actor() for _ in range(count - len(idle[:count]))]
        if idle[count:]:
            _IDLE_ACTORS[_ray_session(ray)] = idle[count:]

    def _new_actor(self):
        global _ACTOR_CLASS
        if _ACTOR_CLASS is None:
            _ACTOR_CLASS = self._ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(_Worker)
        return _ACTOR_CLASS.remote()

    @property
    def actors(self) -> list:
        """The Ray actors in use (for tests that kill one)."""
        return list(self._actors)

    def _run_ray(self, fn, jobs):
        self.start()
        if not self._actors:  # a run stopped early killed them with the jobs they ran
            self._actors = [self._new_actor() for _ in range(self._actor_count)]
        ray = self._ray
        from ray.exceptions import RayActorError, RayTaskError

        todo = iter(enumerate(jobs))
        retry: list[tuple[int, Any]] = []  # jobs whose actor died, to go first
        attempts: dict[int, int] = {}
        running: dict = {}  # future -> (index, job, actor, ObjectRef)
        load = {id(a): 0 for a in self._actors}

        def refill():
            for actor in list(self._actors):
                while load.get(id(actor), 0) < QUEUE_PER_WORKER:
                    item = retry.pop() if retry else next(todo, None)
                    if item is None:
                        return
                    ref = actor.run.remote(fn, item[1])
                    running[ref.future()] = (item[0], item[1], actor, ref)
                    load[id(actor)] = load.get(id(actor), 0) + 1

        def stop():
            # Ctrl-C, or the run closed early: the actors are ended with the jobs they run
            # (not waited for); the next run starts new ones
            for actor in self._actors:
                with contextlib.suppress(Exception):
                    ray.kill(actor)
            self._actors = []

        def replace(actor):
            """A new actor in place of one that died (once, whichever job noticed)."""
            if actor in self._actors:
                self._actors.remove(actor)
                load.pop(id(actor), None)
                fresh = self._new_actor()
                self._actors.append(fresh)
                load[id(fresh)] = 0

        try:
            for (index, job, actor, _), future in workers.finished(running, stop, refill=refill):
                if id(actor) in load:
                    load[id(actor)] -= 1
                try:
                    result = future.result()
                except RayActorError:
                    self.actor_deaths += 1
                    attempts[index] = attempts.get(index, 0) + 1
                    if attempts[index] >= MAX_ATTEMPTS:
                        raise HingeError(
                            f"job {index} was running on {MAX_ATTEMPTS} Ray workers that died; the run stopped"
                        ) from None
                    retry.append((index, job))
                    replace(actor)
                    continue
                except RayTaskError as e:
                    cause = getattr(e, "cause", None)
                    if isinstance(cause, HingeError):
                        raise HingeError(str(cause)) from None
                    raise
                yield index, result
        finally:
            if running:
                # Closed early: Ray's futures of jobs not finished count as cancelled, but
                # the actors would run the jobs all the same, the next run's behind them
                stop()

    # ----- life -----------------------------------------------------------------------------------
    def close(self) -> None:
        """Stop the worker processes or actors (and a Ray this Executor started)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        if self._ray is not None:
            if self._started_ray:
                for actor in self._actors:
                    try:
                        self._ray.kill(actor)
                    except Exception:  # noqa: BLE001
                        pass
                self._ray.shutdown()
                self._started_ray = False
            elif self._ray.is_initialized():
                # a Ray this process joined earlier: keep the actors (and the kernels
                # they loaded) for the next Executor on it
                _IDLE_ACTORS.setdefault(_ray_session(self._ray), []).extend(self._actors)
            self._actors = []
            self._ray = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


#: Actors of Executors closed on a Ray that outlived them, by Ray session, for reuse.
_IDLE_ACTORS: dict[str, list] = {}
_ACTOR_CLASS = None


def _ray_session(ray) -> str:
    return ray.get_runtime_context().get_job_id()


class _Worker:
    """A Ray actor: loads the kernels once, then runs job after job."""

    def __init__(self):
        load_kernels()

    def run(self, fn, job):
        return fn(job)

    def pid(self) -> int:
        return os.getpid()
