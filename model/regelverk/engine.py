"""The protocol every game engine follows, and the referee built on it.

A game family (Vändåtta, Viggo, UNO) implements :class:`Game` once; its rulebooks are presets of
its options. Everything is immutable: a state is a frozen dataclass of tuples, an action is a
frozen dataclass, and :meth:`Game.apply` returns a new state with the events that happened, each
naming the clauses that produced it.

The habits are those of PokerKit and python-chess, kept immutable:

* ``check(state, action)`` raises :class:`IllegalActionError` naming the broken rule in words and
  by clause id; :func:`is_allowed` asks it; ``apply`` always checks first.
* ``problems(state)`` lists every invariant a state breaks (cards lost or duplicated, a turn with
  nobody who may act, …): the Hypothesis tests and ``regelverk ask`` use it.
* Options are keyword-only frozen dataclasses. A field that selects a reading of an ambiguity has
  the ambiguity's ``option`` name and takes its reading names as values, so :func:`adjudicate`
  can say what every reading would give.
"""

from __future__ import annotations

import dataclasses
import enum
import random
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from regelverk.errors import RegelverkError

__all__ = [
    "SEED_LIMIT",
    "ActionError",
    "Attempting",
    "Event",
    "Game",
    "IllegalActionError",
    "InvariantError",
    "Listed",
    "OptionError",
    "Outcome",
    "PositionError",
    "Reading",
    "ReadingResult",
    "Ruling",
    "adjudicate",
    "best_of",
    "is_allowed",
    "opening",
    "option_values",
    "position_seed",
    "readings_of_clauses",
    "with_options",
]

S = TypeVar("S")
A = TypeVar("A")
Opts = TypeVar("Opts")
A_contra = TypeVar("A_contra", contravariant=True)


class Reading(enum.Enum):
    """The base of an options field that selects a reading of an ambiguity in the register.

    Member values are the register's kebab-case reading names; the repr is valid Python (the
    class and member name), so a failing example pastes straight into a test.
    """

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class IllegalActionError(RegelverkError):
    """An action the rules forbid in this state; ``clauses`` are the ids that forbid it.

    The message says the rule in words, e.g. ``Bo may not go out on 8♦: the last card may never
    be an ace or an eight (V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT)``.
    """

    def __init__(self, message: str, clauses: Sequence[str]) -> None:
        self.clauses = tuple(clauses)
        cited = f" ({', '.join(self.clauses)})" if self.clauses else ""
        super().__init__(f"{message}{cited}")


class InvariantError(RegelverkError):
    """The engine reached a state that breaks one of its own invariants (``problems(state)`` is
    not empty) by legal play from a sound position: a defect in regelverk, never in the input.

    ``where`` says how the state was reached (the rulebook, options, seed and action number);
    ``problems`` are the invariants broken, in words. The command line exits with status 4.
    """

    def __init__(self, where: str, problems: Sequence[str]) -> None:
        self.where = where
        self.problems = tuple(problems)
        super().__init__(f"broken invariant {where}: {'; '.join(self.problems)}")

    def __reduce__(self) -> tuple[type[InvariantError], tuple[str, tuple[str, ...]]]:
        return (InvariantError, (self.where, self.problems))


class PositionError(RegelverkError):
    """An explicit position that cannot be: a bad field, or cards that do not add up to the deck."""


SEED_LIMIT = 2**64
"""Seeds are whole numbers above ``-SEED_LIMIT`` and below ``SEED_LIMIT``, in games, records and
positions alike."""


def position_seed(data: Mapping[str, Any], default: int = 0) -> int:
    """A position's ``seed`` field (``default`` where it is absent), checked as every seed is:
    a whole number above -2**64 and below 2**64, so that a game's own final position, whatever
    seed it was played with, reads back.

    >>> position_seed({"seed": -1})
    -1
    >>> position_seed({"seed": 2**64})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    regelverk.engine.PositionError: 'seed' must be a whole number above -2**64 ...
    """
    value = data.get("seed", default)
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) >= SEED_LIMIT:
        shown = repr(value) if len(repr(value)) <= 40 else f"{repr(value)[:40]}…"
        raise PositionError(
            f"'seed' must be a whole number above -2**64 and below 2**64, not {shown}"
        )
    return value


class ActionError(RegelverkError):
    """An action written in a way that cannot be read (not: a readable action the rules forbid)."""


class OptionError(RegelverkError):
    """An option name or value that the game's options type does not have."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Something that happened, in words, with the clauses that made it happen."""

    kind: str
    text: str
    clauses: tuple[str, ...]
    player: str | None = None
    cards: tuple[str, ...] = ()

    def to_data(self) -> dict[str, Any]:
        """The event as plain data for JSON."""
        return {
            "kind": self.kind,
            "player": self.player,
            "cards": list(self.cards),
            "text": self.text,
            "clauses": list(self.clauses),
        }


if TYPE_CHECKING:

    @dataclass(frozen=True, slots=True, kw_only=True)
    class Outcome(Generic[S]):
        """The state after an action, and the events on the way there."""

        state: S
        events: tuple[Event, ...]

else:

    @dataclass(frozen=True, slots=True, kw_only=True)
    class Outcome:
        """The state after an action, and the events on the way there.

        The type checker reads ``Outcome`` as generic in its state (the declaration above); at
        run time it is a plain record on ``object``, written ``Outcome[S]`` as ``list[int]`` is,
        so that :func:`regelverk.records.builder` fills the one made on every action the quick
        way (a ``Generic`` base would send it through the slot descriptors)."""

        state: S
        events: tuple[Event, ...]

        __class_getitem__ = classmethod(types.GenericAlias)


class Listed(Generic[S, A]):
    """The actions ``legal_actions`` last listed, and the state it listed them for.

    ``apply`` checks every action first, except one that is, object for object, an action
    ``legal_actions`` has just listed for this very state object: judging it again could only
    repeat the judgement that listed it (states are immutable, and the listing is a function of
    the state). An equal action built anew is checked as usual. Only the last listing is kept,
    so the memory it holds is one state and its actions; the pair is replaced in one step, so a
    reader never sees one state with another state's actions. The tests hold every listed action
    to ``check`` directly, so this shortcut cannot hide a listing that ``check`` would refuse.
    """

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: tuple[S, tuple[A, ...]] | None = None

    def remember(self, state: S, actions: tuple[A, ...]) -> tuple[A, ...]:
        """Keep ``actions`` as the listing for ``state``, and return them."""
        self._last = (state, actions)
        return actions

    def listed(self, state: S, action: A) -> bool:
        """Whether ``action`` is one of the very objects last listed for this very ``state``."""
        last = self._last
        if last is None or last[0] is not state:
            return False
        for candidate in last[1]:  # noqa: SIM110 (a plain loop: no generator on every apply)
            if candidate is action:
                return True
        return False


class Game(Protocol[S, A, Opts]):
    """What a game family provides; ``regelverk ask`` and ``regelverk play`` use only this."""

    @property
    def family(self) -> str:
        """The family's name (vandatta, viggo or uno)."""
        ...

    @property
    def rulebooks(self) -> tuple[str, ...]:
        """The rulebooks this family serves."""
        ...

    def options(self, rulebook: str) -> Opts:
        """The named preset of a rulebook this family serves."""
        ...

    def deal(self, options: Opts, players: Sequence[str], seed: int) -> S:
        """A new game for the players named, the deck shuffled by ``seed``."""
        ...

    def legal_actions(self, state: S) -> tuple[A, ...]:
        """Every action the rules allow now (empty when the game is over)."""
        ...

    def check(self, state: S, action: A) -> None:
        """Raise :class:`IllegalActionError` unless the rules allow ``action`` now."""
        ...

    def apply(self, state: S, action: A) -> Outcome[S]:
        """Check, then play ``action``: the next state and the events, with their clauses."""
        ...

    def is_over(self, state: S) -> bool:
        """Whether the game (the whole match) has ended."""
        ...

    def problems(self, state: S) -> tuple[str, ...]:
        """Every invariant ``state`` breaks, in words; empty for a sound state."""
        ...

    def position_from_data(self, data: Mapping[str, Any], options: Opts) -> S:
        """Build a state from plain data; :class:`PositionError` names the bad field."""
        ...

    def position_to_data(self, state: S) -> dict[str, Any]:
        """A state as plain data that :meth:`position_from_data` reads back."""
        ...

    def action_from_data(self, data: Mapping[str, Any], state: S) -> A:
        """Read an action from plain data; :class:`ActionError` names the field."""
        ...

    def action_to_data(self, action: A) -> dict[str, Any]:
        """An action as plain data that :meth:`action_from_data` reads back."""
        ...


def opening(game: Game[S, A, Opts], options: Opts, players: Sequence[str], seed: int) -> Outcome[S]:
    """The state :meth:`Game.deal` gives and the events of the deal.

    A game whose deal is not an action of its own (UNO, Viggo) has a method ``opening`` with the
    arguments of ``deal`` that returns an :class:`Outcome`: the same state, and what happened on
    the way (the dealer chosen, the cards dealt, the first card turned up and what it does). A
    game whose deal is an action (Vändåtta's ``deal``) has no events before it, and says them
    when that action is played."""
    opener = getattr(game, "opening", None)
    if opener is not None:
        outcome: Outcome[S] = opener(options, players, seed)
        return outcome
    return Outcome(state=game.deal(options, players, seed), events=())


def best_of(legal: Sequence[A], key: Callable[[A], Any], chooser: random.Random) -> A:
    """One of the actions that ``key`` ranks highest, chosen uniformly among them by
    ``chooser``: how the simulated players (:mod:`regelverk.policies`) break a tie, so that a
    seed still gives one game.

    >>> best_of([3, 1, 3, 2], lambda n: n, random.Random(0))
    3
    """
    keys = [key(action) for action in legal]
    top = max(keys)
    return chooser.choice([a for a, k in zip(legal, keys, strict=True) if k == top])


def is_allowed(game: Game[S, A, Opts], state: S, action: A) -> bool:
    """Whether the rules allow ``action`` in ``state``."""
    try:
        game.check(state, action)
    except IllegalActionError:
        return False
    return True


def option_values(options: object) -> dict[str, Any]:
    """An options object's fields as plain data (enum members by value)."""
    if not dataclasses.is_dataclass(options) or isinstance(options, type):
        raise OptionError(f"{options!r} is not an options object")
    return {f.name: _plain(getattr(options, f.name)) for f in dataclasses.fields(options)}


def _plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | frozenset):
        return [_plain(v) for v in value]
    return value


def with_options(options: Opts, overrides: Mapping[str, Any]) -> Opts:
    """A copy of ``options`` with fields replaced, each value checked against its field.

    An enum field takes the member or its value (a reading name); other fields take a value of
    the default's type, and an optional field also ``None`` (or, when it is ``None``, a value
    that the options type's own validation then checks). :class:`OptionError` names the bad
    field or value.
    """
    if not overrides:
        return options
    if not dataclasses.is_dataclass(options) or isinstance(options, type):
        raise OptionError(f"{options!r} is not an options object")
    fields = {f.name: f for f in dataclasses.fields(options)}
    changes: dict[str, Any] = {}
    for name, raw in overrides.items():
        if name not in fields:
            import difflib  # only for the message of a fault

            near = difflib.get_close_matches(str(name), sorted(fields), n=1)
            hint = f"did you mean {near[0]!r}? " if near else ""
            raise OptionError(
                f"{name!r} is not an option of {type(options).__name__}; {hint}"
                f"the options are {', '.join(sorted(fields))}"
            )
        current = getattr(options, name)
        optional = "None" in str(fields[name].type)
        if raw is None and optional:
            changes[name] = None
        elif current is None and isinstance(raw, int | float | str):
            changes[name] = raw
        else:
            changes[name] = _coerce(name, current, raw)
    try:
        return dataclasses.replace(options, **changes)
    except (ValueError, TypeError) as error:
        raise OptionError(str(error)) from None


def _coerce(name: str, current: Any, raw: Any) -> Any:
    if isinstance(current, enum.Enum):
        kind = type(current)
        if isinstance(raw, kind):
            return raw
        try:
            return kind(raw)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in kind)
            raise OptionError(f"option {name!r} takes {allowed}, not {raw!r}") from None
    if isinstance(current, bool) != isinstance(raw, bool) or not isinstance(raw, type(current)):
        raise OptionError(
            f"option {name!r} takes a {type(current).__name__} such as {current!r}, not {raw!r}"
        )
    return raw


@dataclass(frozen=True, slots=True, kw_only=True)
class ReadingResult:
    """What one reading of an ambiguity gives for the action asked about."""

    ambiguity: str
    option: str
    reading: str
    is_default: bool
    allowed: bool
    summary: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruling(Generic[S]):
    """The referee's answer: allowed or not, the deciding clauses, the events, the new state."""

    allowed: bool
    message: str
    clauses: tuple[str, ...]
    events: tuple[Event, ...]
    state: S
    readings: tuple[ReadingResult, ...] = ()


class Attempting(Protocol[S, A_contra]):
    """A game whose rulebook gives penalties for mistakes (vvv8's "Brott och straff").

    ``attempt`` rules on any action a real player might make, mistakes included: a legal action
    is applied; a mistake the rulebook penalises gives ``allowed=False`` with the penalty's
    events and the resulting state (penalty cards dealt, a wrong card taken back); a mistake it
    does not penalise gives ``allowed=False`` and the state unchanged.
    """

    def attempt(self, state: S, action: A_contra) -> Ruling[S]:
        """The ruling on ``action`` as a referee at the table gives it."""
        ...


def _judge(game: Game[S, A, Opts], state: S, action: A) -> Ruling[S]:
    attempt = getattr(game, "attempt", None)
    if attempt is not None:
        ruling: Ruling[S] = attempt(state, action)
        return ruling
    try:
        outcome = game.apply(state, action)
    except IllegalActionError as error:
        return Ruling(
            allowed=False, message=str(error), clauses=error.clauses, events=(), state=state
        )
    cited = tuple(dict.fromkeys(c for e in outcome.events for c in e.clauses))
    text = "; ".join(e.text for e in outcome.events) or "allowed"
    return Ruling(
        allowed=True, message=text, clauses=cited, events=outcome.events, state=outcome.state
    )


def adjudicate(
    game: Game[S, A, Opts],
    options: Opts,
    state: S,
    action: A,
    *,
    rebuild: Callable[[Opts], S] | None = None,
) -> Ruling[S]:
    """Rule on ``action`` in ``state``, and say what each reading of the deciding ambiguities gives.

    The ambiguities considered are those of the registry that name a deciding clause and whose
    option is a field of ``options``. ``rebuild(options)`` must return ``state`` under other
    options (states carry their options); without it, readings are not explored.
    """
    ruling = _judge(game, state, action)
    if rebuild is None:
        return ruling

    def judge(other: Opts) -> tuple[bool, str]:
        try:
            result = _judge(game, rebuild(other), action)
        except IllegalActionError as error:
            return False, f"the position is not reached: {error}"
        return result.allowed, result.message

    found = readings_of_clauses(options, ruling.clauses, judge)
    return dataclasses.replace(ruling, readings=found)


def readings_of_clauses(
    options: Opts, clauses: Iterable[str], judge: Callable[[Opts], tuple[bool, str]]
) -> tuple[ReadingResult, ...]:
    """What each reading of the ambiguities of ``clauses`` gives: ``judge`` under ``options``
    with that reading (allowed, and the ruling in words), for every ambiguity of the registry
    that names one of the clauses and whose option is a field of ``options``; a reading the
    options refuse to combine with is left out."""
    from regelverk.registry import registry_for

    fields = {f.name for f in dataclasses.fields(options)}  # type: ignore[arg-type]
    found: list[ReadingResult] = []
    seen: set[str] = set()
    for ident in dict.fromkeys(clauses):
        for ambiguity in registry_for(ident).ambiguities_of(ident):
            if ambiguity.id in seen or ambiguity.option not in fields:
                continue
            seen.add(ambiguity.id)
            for reading in ambiguity.readings:
                try:
                    other = with_options(options, {ambiguity.option: reading.name})
                except OptionError:
                    continue
                allowed, summary = judge(other)
                found.append(
                    ReadingResult(
                        ambiguity=ambiguity.id,
                        option=ambiguity.option,
                        reading=reading.name,
                        is_default=reading.name == ambiguity.default,
                        allowed=allowed,
                        summary=summary,
                    )
                )
    return tuple(found)
