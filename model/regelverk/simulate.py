"""``regelverk simulate``: many seeded games, measured per reading.

Every seat plays by one policy (:mod:`regelverk.policies`): ``random`` takes any legal action,
``keen`` lays a card whenever one may be laid; the table says which. Each game is played exactly
as ``regelverk play RULEBOOK --seed S --players N --policy P`` plays it (the same deal, the same
seeded choices among the legal actions), so any game of a table can be replayed and read move
by move. Game ``k`` of a run with seed ``S`` has seed ``S + k``; a reading
of an option plays the very same seeds, so each of its games has a twin under the preset.

For each rulebook the table has a row for its preset and one for every other reading asked
for. A row gives

* ``games`` and ``finished`` (a game stops unfinished after :data:`MAX_ACTIONS` actions);
* ``mean_actions`` and ``mean_rounds``: how long a finished game is, in actions and in deals
  (Vändåtta), rounds (Viggo) or hands (UNO);
* ``diverged``: the games that did not end exactly as their twin under the preset (the reading
  came into play at least once);
* ``changed``: the games whose result (the winners and the losers, and for vvv8 every deal's)
  differs from their twin's. Once a reading has changed anything, the players' later choices
  differ too, so this is about how often the reading comes into play, times the chance that a
  different game has a different result;
* ``outcomes``, and ``wins`` and ``losses`` per seat: the results counted (the finished games,
  or for vvv8 the official deals of its finished sessions: :attr:`regelverk.books.Rulebook.
  outcome`) and how many of them each seat won (lost) alone. A result shared by two or more
  seats is a tie, counted once in ``tied_wins`` (``tied_losses``) and for no seat, so the seat
  counts and the ties add up to the results that name a winner (loser). Vändåtta names the
  match's champions, UNO its winner, Viggo its loser (and a winner only under ``game_winner =
  'lowest-total-wins'``), and a vvv8 deal one official winner and one official loser.

Every figure is a count; :func:`rate` gives its share with a 95% Wilson interval, and the JSON
and text tables print both.

Games run in parallel on ``jobs`` processes; the table does not depend on ``jobs``. Nothing here
needs matplotlib: the rulebook's plots are drawn from the table by the docs.

>>> table = simulate(("viggo",), games=2, seed=5, players=4, jobs=1)
>>> [(row.rulebook, row.games, row.finished) for row in table.rows]
[('viggo', 2, 2)]
"""

from __future__ import annotations

import csv
import dataclasses
import difflib
import enum
import hashlib
import io
import itertools
import json
import math
import multiprocessing
import os
import random
import signal
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from regelverk.books import RULEBOOKS
from regelverk.books import rulebook as described
from regelverk.cluster import ordered_map
from regelverk.engine import (
    Game,
    InvariantError,
    OptionError,
    opening,
    option_values,
    with_options,
)
from regelverk.errors import RegelverkError, UnknownRulebookError
from regelverk.games import game_for
from regelverk.policies import POLICIES, policy_for
from regelverk.referee import MAX_ACTIONS, MAX_PLAYERS, checked_seed

__all__ = [
    "MAX_GAMES",
    "GameResult",
    "Row",
    "SimulationError",
    "Table",
    "Variant",
    "checked_request",
    "play_one",
    "rate",
    "readings_of",
    "results_of",
    "simulate",
    "table_from_csv",
    "table_to_csv",
    "table_to_data",
    "variants",
    "wilson",
]

MAX_GAMES = 1_000_000
"""The most games one run may ask for per reading."""

MAX_JOBS = 256
"""The most worker processes one run may ask for."""


class SimulationError(RegelverkError):
    """A simulation asked for that cannot run: a bad count, option or reading."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Variant:
    """A rulebook's preset, or the preset with one option set to another reading."""

    rulebook: str
    option: str | None = None
    """The option changed, or ``None`` for the preset itself."""
    reading: Any = None
    """The option's value under this variant (a reading name, a switch or a number)."""

    def overrides(self) -> dict[str, Any]:
        """The options changed from the preset, as ``regelverk play --option`` takes them."""
        return {} if self.option is None else {self.option: self.reading}


@dataclass(frozen=True, slots=True, kw_only=True)
class GameResult:
    """One game, as measured."""

    seed: int
    actions: int
    rounds: int
    finished: bool
    winners: tuple[int, ...]
    """Seats (0 = the first player named) among the winners the final position names."""
    losers: tuple[int, ...]
    deal_wins: tuple[int, ...] = ()
    """Official deals each seat won, for a rulebook whose results are deals (vvv8); else
    empty."""
    deal_losses: tuple[int, ...] = ()
    """Official deals each seat lost, likewise."""
    digest: str
    """A digest of the final position: equal digests mean the game ended the same way."""


Task = tuple[str, tuple[tuple[str, Any], ...], int, int, str, str]
"""One game to play: rulebook, options changed, players, seed, check and policy."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Row:
    """The measures of one variant over all its games."""

    rulebook: str
    option: str
    """The option changed; empty for the preset."""
    reading: str
    """The option's value as text (JSON for a switch or a number); empty for the preset."""
    games: int
    finished: int
    mean_actions: float
    mean_rounds: float
    diverged: int
    """Games that went otherwise than their twin under the preset (of ``games``)."""
    changed: int
    """Games whose result differs from their twin's (of ``games``)."""
    outcome: str
    """What one result is: ``game`` or ``deal`` (:attr:`regelverk.books.Rulebook.outcome`)."""
    outcomes: int
    """Results counted: the finished games, or the official deals of the finished games."""
    wins: tuple[int, ...]
    """Results each seat won alone."""
    losses: tuple[int, ...]
    """Results each seat lost alone."""
    tied_wins: int
    """Results won by two or more seats together."""
    tied_losses: int
    """Results lost by two or more seats together."""


Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


def wilson(count: int, of: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95%) of a share of ``count`` in ``of``: unlike the share plus
    or minus its standard error, it stays between 0 and 1 and does not shrink to nothing at a
    share of 0 or 1. Nothing counted: the whole of 0 to 1.

    >>> [round(x, 4) for x in wilson(5, 10)]
    [0.2366, 0.7634]
    """
    if of <= 0:
        return 0.0, 1.0
    share = count / of
    spread = z * z / of
    centre = (share + spread / 2) / (1 + spread)
    half = z * math.sqrt(share * (1 - share) / of + spread / (4 * of)) / (1 + spread)
    low = 0.0 if count == 0 else max(0.0, centre - half)  # exact at the ends, not 1 - 1e-16
    high = 1.0 if count == of else min(1.0, centre + half)
    return low, high


def rate(count: int, of: int) -> tuple[float, float, float]:
    """``count`` of ``of`` as a share and its 95% Wilson interval, each to four decimals:
    ``(share, low, high)``; nothing counted is ``(0.0, 0.0, 1.0)``.

    >>> rate(1, 4)
    (0.25, 0.0456, 0.6994)
    """
    low, high = wilson(count, of)
    return (round(count / of, 4) if of else 0.0), round(low, 4), round(high, 4)


@dataclass(frozen=True, slots=True, kw_only=True)
class Table:
    """A simulation's table, with what produced it."""

    seed: int
    games: int
    players: int
    rows: tuple[Row, ...]
    policy: str = "random"
    """The player every seat played by (:data:`regelverk.policies.POLICIES`)."""
    complete: bool = True
    """False for a run stopped early (Ctrl-C): the rows are the readings played so far, the last
    of them with the games finished before the stop (its ``games`` says how many), and the
    readings after them are missing."""


class SimulationInterrupted(KeyboardInterrupt):
    """A simulation stopped by Ctrl-C: ``table`` holds what had finished (``complete`` false)."""

    def __init__(self, table: Table) -> None:
        super().__init__("interrupted")
        self.table = table


def _check_count(value: int, name: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SimulationError(f"{name} must be a whole number from {low} to {high}, not {value!r}")


def readings_of(rulebook: str, option: str) -> tuple[Any, ...]:
    """Every value of a rulebook's option that its engine plays as a single change: each reading
    of an enum option, both values of a switch. Other options (numbers) take ``NAME=VALUE``."""
    game = game_for(rulebook)
    preset = game.options(rulebook)
    fields = {f.name for f in dataclasses.fields(preset)}
    if option not in fields:
        near = difflib.get_close_matches(option, sorted(fields), n=3)
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        raise SimulationError(f"{option!r} is not an option of {rulebook}{hint}")
    current = getattr(preset, option)
    if isinstance(current, bool):
        values: list[Any] = [True, False]
    elif isinstance(current, enum.Enum):
        values = [member.value for member in type(current)]
    else:
        raise SimulationError(
            f"option {option!r} of {rulebook} is a {type(current).__name__}, not a choice of "
            f"readings: give a value, as in --option {option}=VALUE"
        )
    accepted = []
    for value in values:
        try:
            with_options(preset, {option: value})
        except OptionError:
            continue
        accepted.append(value)
    return tuple(accepted)


def _parse_choice(text: str) -> tuple[str, Any, bool]:
    """``NAME`` or ``NAME=VALUE`` (the value read as JSON where it parses, else as text)."""
    name, sep, raw = text.partition("=")
    name = name.strip()
    if not name:
        raise SimulationError(f"--option takes NAME or NAME=VALUE, not {text!r}")
    if not sep:
        return name, None, False
    try:
        return name, json.loads(raw), True
    except json.JSONDecodeError:
        return name, raw, True


def variants(rulebook: str, choices: Sequence[str]) -> tuple[Variant, ...]:
    """The preset of ``rulebook`` and the variants ``choices`` ask for: ``NAME`` gives every
    other reading of that option, ``NAME=VALUE`` that one value (the preset's own value adds
    nothing). A choice naming an option the rulebook does not have, or a value its engine
    refuses, is an error."""
    if rulebook not in RULEBOOKS:
        raise UnknownRulebookError(rulebook, RULEBOOKS)
    game = game_for(rulebook)
    preset = game.options(rulebook)
    values = option_values(preset)
    found = [Variant(rulebook=rulebook)]
    for choice in choices:
        name, value, given = _parse_choice(choice)
        readings = readings_of(rulebook, name) if not given else None
        if given:
            if name not in values:
                readings_of(rulebook, name)  # raises, naming the option
            try:
                with_options(preset, {name: value})
            except OptionError as error:
                raise SimulationError(f"{rulebook}: {error}") from None
            readings = (value,)
        for reading in readings or ():
            variant = Variant(rulebook=rulebook, option=name, reading=reading)
            if reading != values[name] and variant not in found:
                found.append(variant)
    return tuple(found)


def _seats(names: Iterable[str], players: Sequence[str]) -> tuple[int, ...]:
    index = {name: seat for seat, name in enumerate(players)}
    return tuple(sorted(index[name] for name in names if name in index))


def _result(
    final: Mapping[str, Any], players: Sequence[str]
) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """The rounds played, the winners and the losers a final position names."""
    record = final.get("record")
    if isinstance(record, Mapping):  # Vändåtta: the match record
        return int(record.get("deals", 0)), _seats(record.get("champions", ()), players), ()
    rounds = int(final.get("round", final.get("hand_number", 0)))
    winners = _seats(final.get("winners", ()), players)
    losers = _seats(final.get("losers", ()), players)
    return rounds, winners, losers


def _deal_tally(
    final: Mapping[str, Any], players: Sequence[str]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The official deals each seat won and lost, from a Vändåtta match record."""
    record = final.get("record")
    if not isinstance(record, Mapping):
        raise SimulationError("a rulebook whose results are deals keeps a match record")
    wins, losses = record.get("wins", {}), record.get("losses", {})
    return (
        tuple(int(wins.get(name, 0)) for name in players),
        tuple(int(losses.get(name, 0)) for name in players),
    )


CHECKS = ("every-step", "end")
"""How often :func:`play_one` holds a game to the engine's invariants: after every action (the
default), or only its last position (faster: with random players, 2.1 times for UNO, 4.3 for
Vändåtta and 9.4 for Viggo, measured on 2026-12-07; and blind to a state that breaks an
invariant and is then left behind)."""


def play_one(
    rulebook: str,
    overrides: Mapping[str, Any],
    players: int,
    seed: int,
    check: str = "every-step",
    *,
    policy: str = "random",
) -> GameResult:
    """One game, every seat playing by ``policy``: the same game ``regelverk play`` plays for
    this seed and policy.

    :class:`~regelverk.engine.InvariantError` names the first state (by ``check``, see
    :data:`CHECKS`) that breaks one of the engine's invariants."""
    game: Game[Any, Any, Any] = game_for(rulebook)
    options = with_options(game.options(rulebook), overrides)
    names = tuple(f"P{n}" for n in range(1, players + 1))
    state = opening(game, options, names, seed).state
    chooser = random.Random(f"regelverk-play-{seed}")
    choose = policy_for(rulebook, policy)
    every_step = check == "every-step"
    chosen = "".join(f" --option {k}={_reading_text(v)}" for k, v in sorted(overrides.items()))
    game_of = f"{rulebook}{chosen} with {players} players, seed {seed}"
    actions = 0
    while not game.is_over(state) and actions < MAX_ACTIONS:
        if every_step or actions == 0:
            _hold(game, state, game_of, actions)
        legal = game.legal_actions(state)
        if not legal:
            break
        state = game.apply(state, choose(state, legal, chooser)).state
        actions += 1
    _hold(game, state, game_of, actions)
    finished = game.is_over(state)
    final = game.position_to_data(state)
    rounds, winners, losers = _result(final, names)
    deal_wins: tuple[int, ...] = ()
    deal_losses: tuple[int, ...] = ()
    if finished and described(rulebook).outcome == "deal":
        deal_wins, deal_losses = _deal_tally(final, names)
    text = json.dumps(final, sort_keys=True, ensure_ascii=True, default=str)
    return GameResult(
        seed=seed,
        actions=actions,
        rounds=rounds,
        finished=finished,
        winners=winners if finished else (),
        losers=losers if finished else (),
        deal_wins=deal_wins,
        deal_losses=deal_losses,
        digest=hashlib.sha256(text.encode()).hexdigest()[:16],
    )


def _hold(game: Game[Any, Any, Any], state: Any, game_of: str, actions: int) -> None:
    """Raise :class:`~regelverk.engine.InvariantError` if ``state`` breaks an invariant;
    ``game_of`` names the game (rulebook, options, players, seed)."""
    broken = game.problems(state)
    if broken:
        where = f"in {game_of}, after {actions} action{'s' if actions != 1 else ''}"
        raise InvariantError(where, broken)


def _task(task: Task) -> GameResult:
    rulebook, overrides, players, seed, check, policy = task
    return play_one(rulebook, dict(overrides), players, seed, check, policy=policy)


def _reading_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _row(
    variant: Variant, results: Sequence[GameResult], base: Sequence[GameResult], seats: int
) -> Row:
    done = [r for r in results if r.finished]
    pairs = list(zip(results, base[: len(results)], strict=True))
    outcome = described(variant.rulebook).outcome
    if outcome == "deal":  # every official deal has one winner and one loser: no ties
        wins = tuple(sum(r.deal_wins[seat] for r in done) for seat in range(seats))
        losses = tuple(sum(r.deal_losses[seat] for r in done) for seat in range(seats))
        outcomes, tied_wins, tied_losses = sum(losses), 0, 0
    else:
        wins, tied_wins = _alone_and_tied([r.winners for r in done], seats)
        losses, tied_losses = _alone_and_tied([r.losers for r in done], seats)
        outcomes = len(done)
    return Row(
        rulebook=variant.rulebook,
        option=variant.option or "",
        reading="" if variant.option is None else _reading_text(variant.reading),
        games=len(results),
        finished=len(done),
        mean_actions=round(sum(r.actions for r in done) / len(done), 2) if done else 0.0,
        mean_rounds=round(sum(r.rounds for r in done) / len(done), 2) if done else 0.0,
        diverged=sum(a.digest != b.digest for a, b in pairs),
        changed=sum(_outcome_of(a) != _outcome_of(b) for a, b in pairs),
        outcome=outcome,
        outcomes=outcomes,
        wins=wins,
        losses=losses,
        tied_wins=tied_wins,
        tied_losses=tied_losses,
    )


def _outcome_of(result: GameResult) -> tuple[tuple[int, ...], ...]:
    return result.winners, result.losers, result.deal_wins, result.deal_losses


def _alone_and_tied(named: Sequence[tuple[int, ...]], seats: int) -> tuple[tuple[int, ...], int]:
    """How many of the results each seat holds alone, and how many two or more seats share."""
    alone = [0] * seats
    tied = 0
    for result in named:
        if len(result) == 1:
            alone[result[0]] += 1
        elif result:
            tied += 1
    return tuple(alone), tied


def checked_request(
    rulebooks: Sequence[str],
    *,
    games: int,
    seed: int,
    players: int,
    jobs: int,
    check: str,
    policy: str,
) -> tuple[str, ...]:
    """The rulebooks a simulation plays (all of them for none), once each, after checking every
    number and name it was given; a bad one is a :class:`SimulationError` saying which."""
    if check not in CHECKS:
        raise SimulationError(f"check must be one of {', '.join(CHECKS)}, not {check!r}")
    if policy not in POLICIES:
        raise SimulationError(f"the player is one of {', '.join(POLICIES)}, not {policy!r}")
    _check_count(games, "the number of games", 1, MAX_GAMES)
    _check_count(jobs, "the number of jobs", 0, MAX_JOBS)
    _check_count(players, "the number of players", 1, MAX_PLAYERS)
    checked_seed(seed, "simulate")
    checked_seed(seed + games - 1, "simulate (the last game's seed)")
    books = tuple(dict.fromkeys(rulebooks)) or RULEBOOKS
    for book in books:
        if book not in RULEBOOKS:
            raise UnknownRulebookError(book, RULEBOOKS)
    return books


def simulate(
    rulebooks: Sequence[str],
    *,
    games: int,
    seed: int,
    players: int = 4,
    choices: Sequence[str] = (),
    jobs: int = 0,
    check: str = "every-step",
    policy: str = "random",
    progress: Callable[[int], Callable[[int], None]] | None = None,
    scheduler: str | None = None,
) -> Table:
    """Play ``games`` seeded games of each variant of each rulebook and measure them.

    ``choices`` are ``NAME`` or ``NAME=VALUE`` (see :func:`variants`); a choice is applied to
    every rulebook asked for that has the option, and a choice none of them has is an error.
    ``jobs`` processes play the games (0: one per core); the table is the same for any ``jobs``.
    ``check`` (one of :data:`CHECKS`) says how often each game is held to the engine's
    invariants; the first broken state raises :class:`~regelverk.engine.InvariantError`.
    ``policy`` (one of :data:`regelverk.policies.POLICIES`) is the player at every seat.
    ``progress``, if given, is called once with the number of games to play, just before the
    first, and returns the function then told of each finished game (``1``). ``scheduler``
    plays the games on a Dask cluster instead (:func:`results_of`): the table is the same.
    """
    books = checked_request(
        rulebooks, games=games, seed=seed, players=players, jobs=jobs, check=check, policy=policy
    )
    plan: list[Variant] = []
    for choice in choices:
        name = _parse_choice(choice)[0]
        if not any(name in option_values(game_for(b).options(b)) for b in books):
            readings_of(books[0], name)  # raises, naming the option and near names
    for book in books:
        fields = option_values(game_for(book).options(book))
        own = [c for c in choices if _parse_choice(c)[0] in fields]
        plan += variants(book, own)
    names = tuple(f"P{n}" for n in range(1, players + 1))
    for book in books:  # a player count the rulebook refuses is one error, before any game
        game = game_for(book)
        try:
            opening(game, game.options(book), names, seed)
        except RegelverkError as error:
            raise SimulationError(f"{book} with {players} players: {error}") from None
    tasks: list[Task] = [
        (
            variant.rulebook,
            tuple(sorted(variant.overrides().items())),
            players,
            seed + k,
            check,
            policy,
        )
        for variant in plan
        for k in range(games)
    ]
    workers = min(jobs or os.cpu_count() or 1, len(tasks))
    results: list[GameResult] = []
    finished = progress(len(tasks)) if progress is not None else None
    try:
        _play_all(tasks, workers, results, finished, scheduler)
    except KeyboardInterrupt:
        done = plan[: -(-len(results) // games)]  # the last may have fewer games
        partial = Table(
            seed=seed,
            games=games,
            players=players,
            rows=_rows(done, results, games, players),
            policy=policy,
            complete=False,
        )
        raise SimulationInterrupted(partial) from None
    return Table(
        seed=seed,
        games=games,
        players=players,
        rows=_rows(plan, results, games, players),
        policy=policy,
    )


def _quiet_worker() -> None:
    """A worker leaves Ctrl-C to the parent, which stops it: no traceback from each worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunk(tasks: tuple[Task, ...]) -> list[GameResult]:
    """Several games in one piece of work for a cluster's worker (fewer round trips)."""
    return [_task(task) for task in tasks]


def results_of(
    tasks: Iterable[Task], total: int, workers: int, scheduler: str | None = None
) -> Iterator[GameResult]:
    """Play every task and yield its game, in the tasks' order, whoever plays them: this
    process (``workers`` 1), ``workers`` local processes, or the Dask cluster ``scheduler``
    (:mod:`regelverk.cluster`; ``local`` for a LocalCluster of ``workers`` processes). The
    games are the same in every case. Closing the iterator (Ctrl-C) stops the workers at once."""
    size = _piece_size(total, workers)
    if scheduler is not None:
        pieces = _pieces(tasks, size)
        for played in ordered_map(_chunk, pieces, scheduler=scheduler, workers=workers):
            yield from played
        return
    if workers <= 1:
        for task in tasks:
            yield _task(task)
        return
    pool = multiprocessing.get_context().Pool(workers, initializer=_quiet_worker)
    try:
        yield from pool.imap(_task, tasks, chunksize=size)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _piece_size(total: int, workers: int) -> int:
    """Games handed to a worker at a time: about eight pieces per worker, at most 32 games, so
    that a long run still shows its progress and a Ctrl-C loses little."""
    return max(1, min(32, total // (max(1, workers) * 8)))


def _pieces(tasks: Iterable[Task], size: int) -> Iterator[tuple[Task, ...]]:
    """The tasks in order, ``size`` at a time (the last piece may be smaller)."""
    source = iter(tasks)
    while piece := tuple(itertools.islice(source, size)):
        yield piece


def _play_all(
    tasks: Sequence[Task],
    workers: int,
    results: list[GameResult],
    finished: Callable[[int], None] | None = None,
    scheduler: str | None = None,
) -> None:
    """Play ``tasks`` in order (:func:`results_of`), adding each result to ``results`` as it
    comes: on Ctrl-C the workers are stopped at once (no queued game is finished first) and
    ``results`` holds the games finished in order before it. ``finished``, if given, is told of
    each game as it is added."""
    for result in results_of(tasks, len(tasks), workers, scheduler):
        results.append(result)
        if finished is not None:
            finished(1)


def _rows(
    plan: Sequence[Variant], results: Sequence[GameResult], games: int, players: int
) -> tuple[Row, ...]:
    rows: list[Row] = []
    base: Sequence[GameResult] = ()
    for number, variant in enumerate(plan):
        played = results[number * games : (number + 1) * games]
        if variant.option is None:
            base = played
        rows.append(_row(variant, played, base, players))
    return tuple(rows)


FORMAT = 2
"""The table's CSV format: 2 counts results (ties apart); 1, which counted shares and a tie as
a win for every seat in it, is no longer read."""

COLUMNS = (
    "rulebook",
    "option",
    "reading",
    "games",
    "finished",
    "mean_actions",
    "mean_rounds",
    "diverged",
    "changed",
    "outcome",
    "outcomes",
    "tied_wins",
    "tied_losses",
)
"""The CSV columns before the per-seat ones (``wins_P1`` …, then ``losses_P1`` …)."""

_COUNTS = ("games", "finished", "diverged", "changed", "outcomes", "tied_wins", "tied_losses")


def _rates(row: Row) -> dict[str, Any]:
    """Every rate of a row: ``[share, low, high]``, the interval Wilson's at 95%."""
    return {
        "finished": list(rate(row.finished, row.games)),
        "diverged": list(rate(row.diverged, row.games)),
        "changed": list(rate(row.changed, row.games)),
        "wins": [list(rate(count, row.outcomes)) for count in row.wins],
        "losses": [list(rate(count, row.outcomes)) for count in row.losses],
        "tied_wins": list(rate(row.tied_wins, row.outcomes)),
        "tied_losses": list(rate(row.tied_losses, row.outcomes)),
    }


def table_to_data(table: Table) -> dict[str, Any]:
    """The table as plain data for JSON: each row's counts, and under ``rates`` each count as a
    share of what it counts with its 95% Wilson interval, ``[share, low, high]``."""
    return {
        "seed": table.seed,
        "games": table.games,
        "players": table.players,
        "policy": table.policy,
        "complete": table.complete,
        "rows": [
            {
                **{name: getattr(row, name) for name in COLUMNS},
                "wins": list(row.wins),
                "losses": list(row.losses),
                "rates": _rates(row),
            }
            for row in table.rows
        ],
    }


def table_to_csv(table: Table) -> str:
    """The table as CSV: a header, then one line per row; per-seat counts in columns
    ``wins_P1`` … and ``losses_P1`` …. The run's seed, games, players, player and format are in
    a comment line before the header, ``# seed=S games=N players=P policy=keen format=2`` (and
    ``complete=false`` for a run stopped by Ctrl-C)."""
    buffer = io.StringIO()
    seats = [f"P{n}" for n in range(1, table.players + 1)]
    buffer.write(
        f"# seed={table.seed} games={table.games} players={table.players} policy={table.policy}"
        f" format={FORMAT}" + ("" if table.complete else " complete=false") + "\n"
    )
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*COLUMNS, *(f"wins_{s}" for s in seats), *(f"losses_{s}" for s in seats)])
    for row in table.rows:
        writer.writerow(
            [
                *(getattr(row, name) for name in COLUMNS),
                *_padded(row.wins, table.players),
                *_padded(row.losses, table.players),
            ]
        )
    return buffer.getvalue()


def _padded(values: tuple[int, ...], count: int) -> list[int]:
    return [*values, *([0] * (count - len(values)))][:count]


def table_from_csv(text: str) -> Table:
    """Read back a table that :func:`table_to_csv` wrote; a table of an older format is refused,
    saying so."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# "):
        raise SimulationError("a simulation table starts with '# seed=S games=N players=P'")
    head = dict(part.split("=", 1) for part in lines[0][2:].split() if "=" in part)
    if head.get("format") != str(FORMAT):
        raise SimulationError(
            f"this simulation table is of format {head.get('format', '1')}, which counted a "
            f"tie as a win for every seat in it; this version reads format {FORMAT}: write the "
            "table again with 'regelverk simulate'"
        )
    players = int(head["players"])
    rows = []
    try:
        for record in csv.DictReader(lines[1:]):
            rows.append(
                Row(
                    rulebook=record["rulebook"],
                    option=record["option"],
                    reading=record["reading"],
                    mean_actions=float(record["mean_actions"]),
                    mean_rounds=float(record["mean_rounds"]),
                    outcome=record["outcome"],
                    **{name: int(record[name]) for name in _COUNTS},
                    wins=tuple(int(record[f"wins_P{n}"]) for n in range(1, players + 1)),
                    losses=tuple(int(record[f"losses_P{n}"]) for n in range(1, players + 1)),
                )
            )
    except (KeyError, ValueError) as error:
        raise SimulationError(f"a row of the simulation table is malformed: {error}") from None
    return Table(
        seed=int(head["seed"]),
        games=int(head["games"]),
        players=players,
        rows=tuple(rows),
        policy=head.get("policy", "random"),
        complete=head.get("complete", "true") == "true",
    )
