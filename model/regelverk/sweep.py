"""``regelverk simulate --sweep``: every combination of readings, one row per game, streamed.

Where :func:`regelverk.simulate.simulate` changes one option at a time, a sweep plays every
combination of the readings of the options named (``--sweep all``: every option with a choice
of readings), ``games`` seeded games each, and writes one row per game to a CSV or Parquet file
as the games finish, in a fixed order: rulebook, then combination (the first option named
changes slowest), then seed. A combination the engine refuses (two readings that cannot hold
together) is skipped and counted. The rows of a file are the same wherever the games were
played: one process, every local core, or a Dask cluster (:mod:`regelverk.cluster`).

A row has the columns :data:`COLUMNS`, then one column per option swept (the reading played,
as text; empty for a rulebook without that option). Seats are named ``P1`` … as in
``regelverk play``; ``winners`` and ``losers`` list the seats the final position names
(several: a tie), ``deal_wins`` and ``deal_losses`` the official deals each seat won and lost
where the results are deals (vvv8), else they are empty. Parquet needs pyarrow (the ``cluster``
extra).
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import enum
import itertools
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from regelverk.engine import OptionError, with_options
from regelverk.games import game_for
from regelverk.simulate import (
    GameResult,
    SimulationError,
    Task,
    checked_request,
    readings_of,
    results_of,
)

__all__ = [
    "ALL",
    "COLUMNS",
    "FORMATS",
    "MAX_COMBINATIONS",
    "SweepInterrupted",
    "Swept",
    "combinations",
    "sweep",
    "swept_options",
]

ALL = "all"
"""The name that sweeps every option of a rulebook with a choice of readings."""

MAX_COMBINATIONS = 100_000
"""The most combinations one sweep may play per rulebook."""

FORMATS = {".csv": "csv", ".parquet": "parquet"}
"""The files a sweep writes, by their suffix."""

COLUMNS = (
    "rulebook",
    "seed",
    "players",
    "policy",
    "finished",
    "actions",
    "rounds",
    "winners",
    "losers",
    "deal_wins",
    "deal_losses",
    "digest",
)
"""The columns of every row, before the options swept."""

PARQUET_ROWS = 10_000
"""Rows per Parquet row group: the file is written a group at a time as the games finish."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Swept:
    """What a sweep played and wrote."""

    path: Path
    games: int
    """Rows written: games played to the end or stopped at the action limit."""
    combinations: int
    """Combinations played, over every rulebook."""
    refused: tuple[str, ...]
    """The combinations the engine refused, each as ``rulebook: name=reading, …``."""
    complete: bool = True
    """False for a sweep stopped by Ctrl-C: the file holds the games finished before it."""


def swept_options(rulebook: str, names: Sequence[str]) -> tuple[str, ...]:
    """The options of ``rulebook`` that ``names`` sweeps, in order: ``all`` stands for every
    option with a choice of readings (an enum or a switch); a name the rulebook lacks is left
    out (another rulebook of the sweep may have it)."""
    preset = game_for(rulebook).options(rulebook)
    fields = [f.name for f in dataclasses.fields(preset)]
    found: list[str] = []
    for name in names:
        if name == ALL:
            found += [
                f
                for f in fields
                if isinstance(getattr(preset, f), bool | enum.Enum)
                and len(readings_of(rulebook, f)) > 1
            ]
        elif name in fields:
            found.append(name)
    return tuple(dict.fromkeys(found))


def combinations(
    rulebook: str, options: Sequence[str]
) -> tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]]:
    """Every combination of the readings of ``options`` for ``rulebook`` (the first option
    changes slowest): those the engine accepts, and those it refuses."""
    preset = game_for(rulebook).options(rulebook)
    each = [readings_of(rulebook, name) for name in options]
    count = 1
    for readings in each:
        count *= len(readings)
    if count > MAX_COMBINATIONS:
        named = ", ".join(options) if len(options) <= 4 else f"{len(options)} options"
        raise SimulationError(
            f"{rulebook}: sweeping {named} is {count:,} combinations, more than "
            f"{MAX_COMBINATIONS:,}: sweep fewer options"
        )
    accepted: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    for values in itertools.product(*each):
        combination = dict(zip(options, values, strict=True))
        try:
            with_options(preset, combination)
        except OptionError:
            refused.append(combination)
            continue
        accepted.append(combination)
    return tuple(accepted), tuple(refused)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _row(
    task: Task, result: GameResult, combination: Mapping[str, Any], swept: Sequence[str]
) -> dict[str, Any]:
    """A game's row: what was asked for (``task``), what happened, and the readings played."""
    rulebook, _, players, seed, _, policy = task

    def seats(found: Sequence[int]) -> str:
        return " ".join(f"P{seat + 1}" for seat in found)

    return {
        "rulebook": rulebook,
        "seed": seed,
        "players": players,
        "policy": policy,
        "finished": result.finished,
        "actions": result.actions,
        "rounds": result.rounds,
        "winners": seats(result.winners),
        "losers": seats(result.losers),
        "deal_wins": " ".join(map(str, result.deal_wins)),
        "deal_losses": " ".join(map(str, result.deal_losses)),
        "digest": result.digest,
        **{name: _text(combination[name]) if name in combination else "" for name in swept},
    }


class _CsvRows:
    """Rows written to a CSV file one at a time."""

    def __init__(self, stream: TextIO, header: Sequence[str]) -> None:
        self._writer = csv.DictWriter(stream, fieldnames=list(header), lineterminator="\n")
        self._writer.writeheader()

    def add(self, row: dict[str, Any]) -> None:
        self._writer.writerow({k: _text(v) for k, v in row.items()})

    def close(self) -> None:
        """Nothing is held back."""


class _ParquetRows:
    """Rows written to a Parquet file, :data:`PARQUET_ROWS` to a row group."""

    def __init__(self, path: Path, header: Sequence[str]) -> None:
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ModuleNotFoundError:
            raise SimulationError(
                "writing Parquet needs pyarrow: pip install 'regelverk[cluster]', or write CSV"
            ) from None
        kinds = {"seed": pa.int64(), "players": pa.int64(), "finished": pa.bool_()}
        kinds |= {"actions": pa.int64(), "rounds": pa.int64()}
        self._schema = pa.schema([(name, kinds.get(name, pa.string())) for name in header])
        self._table = pa.Table
        self._writer = pq.ParquetWriter(path, self._schema)
        self._rows: list[dict[str, Any]] = []

    def add(self, row: dict[str, Any]) -> None:
        self._rows.append(row)
        if len(self._rows) >= PARQUET_ROWS:
            self._flush()

    def _flush(self) -> None:
        if self._rows:
            self._writer.write_table(self._table.from_pylist(self._rows, schema=self._schema))
            self._rows = []

    def close(self) -> None:
        """Write the last row group and the file's footer."""
        self._flush()
        self._writer.close()


def _plan(
    books: Sequence[str], names: Sequence[str]
) -> tuple[list[tuple[str, dict[str, Any]]], list[str], tuple[str, ...]]:
    """The combinations to play, in order, with the options swept and those refused."""
    plan: list[tuple[str, dict[str, Any]]] = []
    refused: list[str] = []
    swept: list[str] = []
    for book in books:
        options = swept_options(book, names)
        swept += options
        accepted, refusals = combinations(book, options)
        plan += [(book, combination) for combination in accepted]
        refused += [
            f"{book}: " + ", ".join(f"{k}={_text(v)}" for k, v in combination.items())
            for combination in refusals
        ]
    for name in names:
        if name != ALL and name not in swept:
            readings_of(books[0], name)  # raises, naming the option and near names
    return plan, refused, tuple(dict.fromkeys(swept))


def sweep(
    rulebooks: Sequence[str],
    names: Sequence[str],
    out: Path,
    *,
    games: int,
    seed: int,
    players: int = 4,
    jobs: int = 0,
    check: str = "every-step",
    policy: str = "random",
    scheduler: str | None = None,
    progress: Callable[[int], Callable[[int], None]] | None = None,
) -> Swept:
    """Play ``games`` games of every combination of the readings of the options ``names`` (see
    :func:`swept_options`) of each rulebook, writing one row per game to ``out`` (``.csv`` or
    ``.parquet``) as they finish. The file is written beside ``out`` and put in its place when
    the sweep ends, or is stopped by Ctrl-C (then :class:`Swept` says ``complete`` false).
    ``jobs``, ``check``, ``policy``, ``scheduler`` and ``progress`` are as for
    :func:`regelverk.simulate.simulate`."""
    kind = FORMATS.get(out.suffix.lower())
    if kind is None:
        raise SimulationError(f"a sweep writes a .csv or a .parquet file, not {out.name!r}")
    if not names:
        raise SimulationError("a sweep needs at least one option to sweep, or 'all'")
    books = checked_request(
        rulebooks, games=games, seed=seed, players=players, jobs=jobs, check=check, policy=policy
    )
    plan, refused, swept = _plan(books, names)
    total = len(plan) * games

    def tasks() -> Iterator[tuple[Task, dict[str, Any]]]:
        for book, combination in plan:
            for k in range(games):
                overrides = tuple(sorted(combination.items()))
                yield (book, overrides, players, seed + k, check, policy), combination

    header = (*COLUMNS, *swept)
    scratch = out.with_name(f".{out.name}.{os.getpid()}.part")
    written = 0
    complete = False
    finished = progress(total) if progress is not None else None
    try:
        with contextlib.ExitStack() as stack:
            if kind == "csv":
                stream = stack.enter_context(scratch.open("w", encoding="utf-8", newline=""))
                rows: _CsvRows | _ParquetRows = _CsvRows(stream, header)
            else:
                rows = _ParquetRows(scratch, header)
                stack.callback(rows.close)
            played = results_of(
                (task for task, _ in tasks()), total, jobs or os.cpu_count() or 1, scheduler
            )
            try:
                for result, (task, combination) in zip(played, tasks(), strict=False):
                    rows.add(_row(task, result, combination, swept))
                    written += 1
                    if finished is not None:
                        finished(1)
                complete = True
            except KeyboardInterrupt:
                pass
        scratch.replace(out)
    finally:
        with contextlib.suppress(OSError):
            scratch.unlink()
    found = Swept(
        path=out, games=written, combinations=len(plan), refused=tuple(refused), complete=complete
    )
    if not complete:
        raise SweepInterrupted(found)
    return found


class SweepInterrupted(KeyboardInterrupt):
    """A sweep stopped by Ctrl-C: ``swept`` says what the file holds."""

    def __init__(self, swept: Swept) -> None:
        super().__init__("interrupted")
        self.swept = swept
