"""Work on a Dask cluster: ``simulate --scheduler ADDRESS`` (or ``local``).

:func:`ordered_map` applies a function to many items on the workers of a
`Dask <https://distributed.dask.org>`_ cluster and yields the results in the items' order, so
what a simulation writes never depends on where or in which order its games were played. It
keeps only a window of items in flight, so a sweep of millions of games streams through it.
Before the first item it asks every worker which regelverk it runs (:func:`code_identity`) and
refuses a worker whose engine differs from this process's: its games would differ.

The scheduler is ``local`` (a ``LocalCluster`` of worker processes on this machine, started
and stopped with the run) or the address of a running scheduler, ``tcp://host:8786``. Dask is
not a dependency of the engine: it is the ``cluster`` extra, ``pip install 'regelverk[cluster]'``,
and is imported only here, only when asked for.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from regelverk.errors import RegelverkError

__all__ = ["LOCAL", "ClusterError", "code_identity", "ordered_map"]

LOCAL = "local"
"""The scheduler that asks for a ``LocalCluster`` on this machine."""

T = TypeVar("T")
R = TypeVar("R")


class ClusterError(RegelverkError):
    """A cluster that cannot be used: Dask missing, no scheduler there, a worker unlike us."""


def code_identity() -> str:
    """Which regelverk runs here: its version and a digest of its sources (every ``.py`` file
    of the package, by path) and of its spec, so two processes that agree play the same games."""
    import regelverk
    from regelverk.paths import spec_dir

    package = Path(regelverk.__file__).resolve().parent
    digest = hashlib.sha256()
    for root, pattern in ((package, "*.py"), (spec_dir(), "*.toml")):
        for path in sorted(root.rglob(pattern)):
            name = path.relative_to(root).as_posix()
            digest.update(f"{name}\0{hashlib.sha256(path.read_bytes()).hexdigest()}\n".encode())
    return f"regelverk {regelverk.__version__} ({digest.hexdigest()[:12]})"


def _distributed() -> Any:
    try:
        import distributed
    except ModuleNotFoundError:
        raise ClusterError(
            "running on a Dask cluster needs Dask: pip install 'regelverk[cluster]'"
        ) from None
    return distributed


@contextlib.contextmanager
def _client(scheduler: str, workers: int) -> Iterator[Any]:
    """A Dask client of the scheduler, or of a ``LocalCluster`` of ``workers`` processes."""
    distributed = _distributed()
    with contextlib.ExitStack() as stack:
        if scheduler == LOCAL:
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            )
            client = stack.enter_context(distributed.Client(cluster))
        else:
            try:
                client = stack.enter_context(distributed.Client(scheduler, timeout="10s"))
            except (OSError, TimeoutError, ValueError) as error:
                raise ClusterError(
                    f"no Dask scheduler answers at {scheduler!r}: {error}; start one with "
                    "'dask scheduler', or give --scheduler local"
                ) from None
        yield client


def _same_code(client: Any) -> None:
    """Refuse a cluster with a worker whose regelverk differs from this process's."""
    here = code_identity()
    there: dict[str, Any] = client.run(code_identity, on_error="return")
    if not there:
        raise ClusterError("the Dask cluster has no workers")
    unlike = sorted(
        f"{worker} runs {identity}"
        if isinstance(identity, str)
        else f"{worker} cannot say which regelverk it runs ({identity})"
        for worker, identity in there.items()
        if identity != here
    )
    if unlike:
        raise ClusterError(
            f"this process runs {here}, but {'; '.join(unlike)}: its games would differ; "
            "install the same regelverk on every worker"
        )


def ordered_map(
    function: Callable[[T], R],
    items: Iterable[T],
    *,
    scheduler: str,
    workers: int,
    window: int = 0,
) -> Iterator[R]:
    """``function(item)`` for every item, computed on the cluster, yielded in the items' order.

    At most ``window`` items are in flight at once (0: four per worker). ``workers`` is the
    number of processes of a ``LocalCluster``; a running scheduler has its own. Closing the
    iterator early (Ctrl-C) cancels what is in flight and, for ``local``, stops the cluster.
    """
    with _client(scheduler, workers) as client:
        _same_code(client)
        limit = window or 4 * max(1, len(client.scheduler_info()["workers"]))
        pending: deque[Any] = deque()
        source = iter(items)
        try:
            for item in source:
                pending.append(client.submit(function, item, pure=False))
                if len(pending) >= limit:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            if pending:
                client.cancel(list(pending))
