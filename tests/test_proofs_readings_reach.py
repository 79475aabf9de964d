"""Every reading of every option reaches at least one binding universe and one state-machine run.

A *reading* is a member of an options field typed by a :class:`regelverk.engine.Reading` enum;
each rulebook has every reading of its options type (vvv8 and vandatta share the Vändåtta
options). What reaches what is observed, never read from source text: :class:`Observer` wraps the
engines' entry points (every function of the family packages ``regelverk.<family>``, wherever a
module of the model or of the proofs holds it, and every method of each family's game class) and
records each options object passed to one, directly or as the ``options`` of a state or table.
That sees the options a caller builds on the way (``with_options``, ``dataclasses.replace``) as
well as presets built at import time, and nothing an encoding builds without running the engine
on it.

* Bindings: every binding of every theorem about a family's rulebooks is checked, as ``regelverk
  prove`` checks it, at the CI bound, under the observer. The readings no binding universe
  reaches must be exactly those of :data:`UNREACHED_BY_BINDINGS`, each with its reason: a reading
  newly unreached fails, and so does one that a binding has come to reach (remove it from the
  table).
* State-machine runs: the covering-array soak, as ``tests/test_soak.py`` plans it (every row of
  the pairwise array at every player count; only the games are cut to one step, which does not
  change the options dealt), and the Hypothesis state machines, run as their own tests run them
  (:data:`MACHINE_RUNS`), must each play every reading.

The binding runs take as long as ``regelverk prove``'s (about two minutes on one core), split by
family so that ``pytest -n 2`` runs them side by side.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib
import itertools
import os
import pkgutil
import sys
import types
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from regelverk import soak
from regelverk.books import RULEBOOKS, families
from regelverk.engine import Reading
from regelverk.games import game_for
from regelverk.optionspace import combinations

Key = tuple[str, str, str]
"""A reading of a rulebook: (rulebook, option, reading name)."""

TESTS = Path(__file__).resolve().parent

# --- what is to be reached ------------------------------------------------------------------


def options_type(rulebook: str) -> type[Any]:
    """The options type of ``rulebook``'s engine."""
    return type(game_for(rulebook).options(rulebook))


def readings_of(kind: type[Any]) -> set[tuple[str, str]]:
    """Every (field, reading) of an options type: each member of each Reading-typed field."""
    preset = next(
        game_for(r).options(r) for r in RULEBOOKS if isinstance(game_for(r).options(r), kind)
    )
    found: set[tuple[str, str]] = set()
    for field in dataclasses.fields(preset):
        value = getattr(preset, field.name)
        if isinstance(value, Reading):
            found.update((field.name, member.value) for member in type(value))
    return found


def universe(rulebook: str) -> set[Key]:
    """Every reading of ``rulebook``."""
    return {(rulebook, o, r) for o, r in readings_of(options_type(rulebook))}


def held(objects: Iterator[Any] | list[Any], kind: type[Any]) -> set[tuple[str, str]]:
    """The (field, reading) pairs the options objects of type ``kind`` among ``objects`` hold."""
    found: set[tuple[str, str]] = set()
    for options in objects:
        if type(options) is not kind:
            continue
        for field in dataclasses.fields(options):
            value = getattr(options, field.name)
            if isinstance(value, Reading):
                found.add((field.name, value.value))
    return found


# --- the observer -----------------------------------------------------------------------------


class Observer:
    """Records every options object the engines are called with while it is installed.

    Installed, every function defined in a module of a family package ``regelverk.<family>``
    is replaced by a recording wrapper in every module of ``regelverk`` and ``regelverk_proofs``
    that holds it (so calls by module attribute, by a name imported earlier, and by an import
    inside a function all pass through it), and so is every method of each family's game class.
    A wrapper records each argument that is an options object, or has one as its ``options``
    attribute (a state, a table), then calls the original. Removed, every original is put back.
    """

    def __init__(self) -> None:
        self.kinds = tuple({options_type(r) for r in RULEBOOKS})
        self.seen: dict[int, Any] = {}
        self.active = False
        self._wrappers: dict[Callable[..., Any], Callable[..., Any]] = {}
        self._methods: list[tuple[type[Any], str, Any]] = []

    def objects(self) -> list[Any]:
        """The options objects recorded so far."""
        return list(self.seen.values())

    def clear(self) -> None:
        """Forget what was recorded."""
        self.seen.clear()

    def _note(self, values: tuple[Any, ...]) -> None:
        for value in values:
            if isinstance(value, self.kinds):
                self.seen.setdefault(id(value), value)
            else:
                inner = getattr(value, "options", None)
                if isinstance(inner, self.kinds):
                    self.seen.setdefault(id(inner), inner)

    def _wrap(self, function: Callable[..., Any]) -> Callable[..., Any]:
        note = self._note

        @functools.wraps(function)
        def observed(*args: Any, **kwargs: Any) -> Any:
            if self.active:
                note(args)
                if kwargs:
                    note(tuple(kwargs.values()))
            return function(*args, **kwargs)

        return observed

    def install(self) -> None:
        """Put the wrappers in place."""
        family_names = tuple(families())
        engine_modules = []
        for family in family_names:
            package = importlib.import_module(f"regelverk.{family}")
            engine_modules.append(package)
            for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
                engine_modules.append(importlib.import_module(info.name))
        prefixes = tuple(f"regelverk.{f}." for f in family_names)
        for module in engine_modules:
            for value in vars(module).values():
                if (
                    isinstance(value, types.FunctionType)
                    and f"{value.__module__}.".startswith(prefixes)
                    and value not in self._wrappers
                ):
                    self._wrappers[value] = self._wrap(value)
        self._swap(self._wrappers)
        for game in {type(game_for(r)) for r in RULEBOOKS}:
            for name, value in list(vars(game).items()):
                if isinstance(value, types.FunctionType) and not name.startswith("__"):
                    self._methods.append((game, name, value))
                    setattr(game, name, self._wrap(value))
        self.active = True

    def remove(self) -> None:
        """Put every original back."""
        self.active = False
        self._swap({wrapper: original for original, wrapper in self._wrappers.items()})
        for game, name, value in self._methods:
            setattr(game, name, value)
        self._wrappers.clear()
        self._methods.clear()

    @staticmethod
    def _swap(table: Mapping[Callable[..., Any], Callable[..., Any]]) -> None:
        """Replace, in every loaded module of the model and the proofs, each value that is a key
        of ``table`` by its value."""
        for name, module in list(sys.modules.items()):
            if not name.startswith("regelverk") or module is None:
                continue
            for attribute, value in list(vars(module).items()):
                if isinstance(value, types.FunctionType) and value in table:
                    setattr(module, attribute, table[value])


@contextmanager
def observing() -> Iterator[Observer]:
    """An installed :class:`Observer`, removed on the way out."""
    observer = Observer()
    try:
        observer.install()
        yield observer
    finally:
        observer.remove()


# --- bindings ---------------------------------------------------------------------------------

_VANDATTA_UNREACHED: dict[tuple[str, str], str] = {
    ("blocked_deal", "play-on"): (
        "a blocked deal never ends under it; the end-of-deal encoding refuses the reading "
        "(vandatta_end_bind) and the bindings compare the readings that end the deal"
    ),
    ("comment_own_hand", "others-only"): (
        "the penalty steps compare remarks under includes-own-hand only; no bound option set "
        "changes which remarks are offences"
    ),
    ("comment_penalty_text", "unfinished"): (
        "changes only the words of the remark penalty's ruling, not the cards it moves; no "
        "bound option set selects it"
    ),
    ("draw_tie_scope", "any-identical"): (
        "no encoding models the draw for the deal (who deals the first deal), so no binding "
        "compares a tie in it"
    ),
    ("eight_on_own_ace", "only-without-suit"): (
        "no bound option set uses it: it only forbids some eights, so it moves no card the "
        "covered readings do not (theorem statement, vandatta_cards)"
    ),
    ("exception_below", "eights"): (
        "the moves of play are bound under free-order and single-card only; no bound option "
        "set selects eights"
    ),
    ("game_end", "single-deal"): (
        "the end-of-match encodings cover a points limit and the leap day; no binding plays a "
        "match of one deal"
    ),
    ("hidden_bundle_penalty", "standard-penalty"): (
        "no binding compares a bundle laid with only its top card showing"
    ),
    ("look_back_depth", "one-card"): (
        "the penalty steps compare looking back through the pile under latest-play only"
    ),
    ("next_dealer", "winner-deals"): (
        "the end-of-deal model has a branch for it (vandatta_end_model), but no bound option "
        "set selects it, so the branch is never compared with the engine"
    ),
    ("overdraw_could_play", "standard-penalty"): (
        "no bound option set uses it: its overdraw is the encoded standard penalty plus the "
        "locked card (theorem statement, vandatta_cards)"
    ),
    ("overdraw_other_draws", "put-back"): (
        "the overdraw steps are bound under same-as-overdraw and standard-penalty; no bound "
        "option set puts the extra card back"
    ),
    ("restart_fallback", "ace-needs-follow"): (
        "not encoded: the moves-of-play rules refuse a table holding it "
        "(vandatta_cards_play.NOT_ENCODED)"
    ),
    ("same_breath_window", "before-turn-passes"): (
        "no bound option set uses it: a late withdrawal is the encoded standard penalty "
        "followed by the play or pass (theorem statement, vandatta_cards)"
    ),
    ("same_rank_group", "all-or-one"): (
        "no bound option set uses it: it only refuses plays and so moves no card (theorem "
        "statement, vandatta_cards)"
    ),
    ("scoring", "loss-count"): (
        "the scoring encodings cover card points and the win-and-loss tally; a champion by "
        "fewest losses is not encoded"
    ),
    ("scoring", "net-score"): (
        "the scoring encodings cover card points and the win-and-loss tally; a champion by net "
        "score is not encoded"
    ),
    ("several_eights", "together"): (
        "not encoded: the moves-of-play rules refuse a table holding it "
        "(vandatta_cards_play.NOT_ENCODED)"
    ),
    ("start_ace_take", "may-decline"): (
        "not encoded: no bound option set uses it, and a declined card simply stays in the "
        "stock (theorem statement, vandatta_cards)"
    ),
}
"""The Vändåtta readings no binding reaches, for vvv8 and vandatta alike (one options type)."""

UNREACHED_BY_BINDINGS: dict[Key, str] = {
    **{("vvv8", o, r): why for (o, r), why in _VANDATTA_UNREACHED.items()},
    **{("vandatta", o, r): why for (o, r), why in _VANDATTA_UNREACHED.items()},
    ("uno", "dealer_tie", "all-redraw"): (
        "no encoding models the draw for the first dealer, so no binding compares a tie in it"
    ),
    ("uno", "first_reverse_start", "dealer-right-first"): (
        "the new hands the bindings deal from stacked packs never turn up a Reverse first"
    ),
    ("uno", "two_player_first_reverse", "non-dealer-first"): (
        "the new hands the bindings deal from stacked packs never turn up a Reverse first"
    ),
    ("uno", "first_wild_play", "play-without-naming"): (
        "the new hands the bindings deal from stacked packs never turn up a plain Wild first"
    ),
    ("uno", "first_shuffle_hands", "redraw"): (
        "a first Shuffle Hands is compared under as-dealer-play only (option set card-returns); "
        "no option set of uno_bind selects redraw"
    ),
    ("uno", "next_dealer", "draw-again"): (
        "the new-hand encoding has a branch for it (uno_steps.next_dealer), but no option set "
        "of uno_bind selects it, so the branch is never compared with the engine"
    ),
    ("uno", "scoring", "holder-tally"): (
        "not encoded: the hand-end theorem covers winner-collects only (its statement says so)"
    ),
}
"""Every reading that no binding universe reaches today, with the reason in words. The test
fails if a reading is unreached and not here, or here and reached: keep it exact."""


@functools.cache
def _theorems(rulebook: str) -> tuple[Any, ...]:
    import regelverk_proofs

    return regelverk_proofs.theorems(rulebook)


def binding_reach(family: str) -> tuple[set[tuple[str, str]], list[str]]:
    """The (field, reading) pairs of ``family``'s options that the binding universes of the
    theorems about its rulebooks run the engine under, and one line per binding (what it
    reached, and whether it agreed)."""
    from regelverk_proofs import binding

    books = [b.name for b in families()[family]]
    kind = options_type(books[0])
    chosen: dict[str, Any] = {}
    for book in books:
        for theorem in _theorems(book):
            for bound in theorem.bindings:
                chosen.setdefault(bound.name, bound)
    reached: set[tuple[str, str]] = set()
    lines = []
    saved = os.environ.get(binding.SCALE_VARIABLE)
    os.environ[binding.SCALE_VARIABLE] = "ci"  # the bound CI runs, whatever the shell says
    binding.clear()
    try:
        with observing() as observer:
            for name, bound in chosen.items():
                observer.clear()
                report = binding.check(bound)
                here = held(observer.objects(), kind)
                reached |= here
                verdict = "agrees" if report.agrees else f"DOES NOT AGREE: {report.summary()}"
                lines.append(
                    f"{name}: {len(observer.seen)} option sets, {len(here)} readings; {verdict}"
                )
    finally:
        binding.clear()
        if saved is None:
            del os.environ[binding.SCALE_VARIABLE]
        else:
            os.environ[binding.SCALE_VARIABLE] = saved
    return reached, lines


def _summary(books: list[str], reached: Mapping[str, set[Key]], what: str) -> str:
    rows = []
    for book in books:
        total = len(universe(book))
        got = len(reached[book])
        rows.append(f"{book}: {total} readings, {got} reached by {what}, {total - got} unreached")
    return "\n  ".join(rows)


FAMILIES = tuple(families())


@pytest.mark.parametrize("family", FAMILIES)
def test_every_reading_reaches_a_binding_universe_or_is_listed_with_its_reason(
    family: str,
) -> None:
    """The readings of the family's rulebooks that no binding universe runs the engine under
    (observed while every binding of their theorems is checked) are exactly the entries of
    :data:`UNREACHED_BY_BINDINGS` for those rulebooks."""
    books: list[str] = [b.name for b in families()[family]]
    pairs, lines = binding_reach(family)
    reached: dict[str, set[Key]] = {b: {k for k in universe(b) if k[1:] in pairs} for b in books}
    unreached = {k for book in books for k in universe(book) - reached[book]}
    listed = {k for k in UNREACHED_BY_BINDINGS if k[0] in books}
    new = sorted(unreached - listed)
    now_reached = sorted(listed - unreached)
    print(_summary(books, reached, "bindings"))
    assert not new and not now_reached, (
        f"binding reach of {family}:\n  {_summary(books, reached, 'bindings')}\n"
        f"  ({len(listed)} listed in UNREACHED_BY_BINDINGS)\n"
        + (
            "unreached by every binding and not listed (bind them, or list them with a "
            "reason):\n    " + "\n    ".join(" ".join(k) for k in new) + "\n"
            if new
            else ""
        )
        + (
            "listed as unreached but reached now (remove them from UNREACHED_BY_BINDINGS):\n    "
            + "\n    ".join(" ".join(k) for k in now_reached)
            + "\n"
            if now_reached
            else ""
        )
        + "the bindings:\n  "
        + "\n  ".join(lines)
    )


def test_the_unreached_table_names_real_readings_with_reasons() -> None:
    """Each entry of :data:`UNREACHED_BY_BINDINGS` is a reading of its rulebook (a registered
    rulebook, a Reading field of its options, a member of that field's enum), with a reason."""
    wrong = [
        " ".join(key)
        for key, why in UNREACHED_BY_BINDINGS.items()
        if key[0] not in RULEBOOKS or key not in universe(key[0]) or len(why.split()) < 4
    ]
    assert not wrong, "entries that are no reading of their rulebook, or give no reason: " + (
        ", ".join(wrong)
    )


# --- state-machine runs -----------------------------------------------------------------------


def _fast_plan() -> soak.Plan:
    """The plan ``tests/test_soak.py`` plays, its games cut to one step (the options dealt, row
    by row and player count by player count, are the same)."""
    from test_soak import FAST

    return dataclasses.replace(FAST, steps=1)


@pytest.mark.parametrize("rulebook", RULEBOOKS)
def test_the_soak_plays_every_reading(rulebook: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every reading of the rulebook is held by an options object the covering-array soak
    deals and plays (observed at :func:`regelverk.soak.play_one`), as tests/test_soak.py plans
    it; a reading missing is named, with whether the array's rows hold it at all."""
    played: list[Any] = []
    original = soak.play_one

    def recording(game: Any, options: Any, players: int, seed: int, steps: int) -> Any:
        result = original(game, options, players, seed, steps)  # raises if not dealt
        played.append(options)
        return result

    monkeypatch.setattr(soak, "play_one", recording)
    plan = _fast_plan()
    report = soak.soak(rulebook, plan)
    kind = options_type(rulebook)
    reached = {(rulebook, *pair) for pair in held(played, kind)}
    missing = sorted(universe(rulebook) - reached)
    rows = combinations(game_for(rulebook).options(rulebook), plan.strength)
    in_rows = {(field, value) for row in rows for field, value in row.items()}
    preset = held([game_for(rulebook).options(rulebook)], kind)
    assert not missing, (
        f"{rulebook}: {len(universe(rulebook))} readings, {len(reached)} played by the soak "
        f"({report.summary()}); not played:\n  "
        + "\n  ".join(
            f"{o} = {r} ({'in a row of the array' if (o, r) in in_rows | preset else 'in no row'})"
            for _, o, r in missing
        )
    )
    assert report.games >= report.rows > 0


MACHINE_RUNS: dict[str, tuple[tuple[str, str], ...]] = {
    "vandatta": (
        ("test_vandatta_stateful", "TestVandattaMatch"),
        ("test_vandatta_table_stateful", "test_vvv8_table_with_absences_and_mistakes"),
    ),
    "viggo": (("test_viggo_machine", "test_whole_matches_under_drawn_options"),),
    "uno": (("test_uno_stateful", "test_whole_games_keep_every_invariant"),),
}
"""The tests that run each family's Hypothesis state machines under whole drawn options: a
state-machine test case or a test function (run once per parameter set of its marks)."""


def _calls(target: Any) -> Iterator[Callable[[], None]]:
    """How to run a test as the suite runs it: a test case's ``runTest``, or the function once
    per combination of its ``parametrize`` marks."""
    if isinstance(target, type):
        yield target().runTest
        return
    axes: list[list[dict[str, Any]]] = []
    for mark in getattr(target, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        given = mark.args[0]
        names = [n.strip() for n in given.split(",")] if isinstance(given, str) else list(given)
        rows = []
        for entry in mark.args[1]:
            values = getattr(entry, "values", entry)  # a pytest.param, or the values
            rows.append(dict(zip(names, values if len(names) > 1 else (values,), strict=True)))
        axes.append(rows)
    for combination in itertools.product(*axes):
        arguments = {k: v for part in combination for k, v in part.items()}
        yield functools.partial(target, **arguments)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_state_machines_play_every_reading(family: str) -> None:
    """Every reading of the family's options is held by options the engine is called with
    while the family's state-machine tests (:data:`MACHINE_RUNS`) run as the suite runs them."""
    kind = options_type(families()[family][0].name)
    lines = []
    reached: set[tuple[str, str]] = set()
    with observing() as observer:
        for module_name, test_name in MACHINE_RUNS[family]:
            target = getattr(importlib.import_module(module_name), test_name)
            for call in _calls(target):
                observer.clear()
                try:
                    call()
                except Exception as error:
                    raise AssertionError(
                        f"{module_name}.{test_name}: the state machine's own run failed, so "
                        "the readings it plays cannot be counted; run that test alone to see why"
                    ) from error
                here = held(observer.objects(), kind)
                reached |= here
                lines.append(f"{module_name}.{test_name}: {len(here)} readings")
    missing = sorted(readings_of(kind) - reached)
    assert lines, f"no state-machine test of {family} ran"
    assert not missing, (
        f"{family}: {len(readings_of(kind))} readings, {len(reached)} played by the state "
        f"machines ({'; '.join(lines)}); not played:\n  "
        + "\n  ".join(f"{o} = {r}" for o, r in missing)
    )


def test_every_state_machine_module_is_observed() -> None:
    """Every test module that defines a Hypothesis state machine is one :data:`MACHINE_RUNS`
    runs (a new machine must be added there to count)."""
    defining = set()
    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(base, ast.Name) and base.id == "RuleBasedStateMachine"
                for base in node.bases
            ):
                defining.add(path.stem)
    observed = {module for runs in MACHINE_RUNS.values() for module, _ in runs}
    assert defining, "no state machine found under tests/"
    assert defining <= observed, f"state machines not observed: {sorted(defining - observed)}"
