"""Theorems, their findings, and the suite that ``regelverk prove`` runs.

A :class:`Theorem` is a statement in words, the clauses it rests on (``clauses=``, which the
trace reads), and a ``check`` that encodes those clauses in Z3 and decides the statement. The
``check`` takes the set of clause ids to *weaken*: the encoding leaves out (or loosens, as its
:class:`Weakening` says) the assertions of those clauses. Every theorem names at least one
weakening under which it must fail, and the tests run each one: a theorem that still held
with a clause it cites taken away would not be resting on that clause.

Two kinds of statement:

* ``forall``: the statement holds in every case; Z3 finds the negation unsatisfiable
  (:attr:`Outcome.PROVED`), or a case that breaks it (:attr:`Outcome.COUNTEREXAMPLE`).
* ``exists``: something can happen (a never-ending game, say); Z3 finds an instance
  (:attr:`Outcome.WITNESSED`), or none within the encoding's bound (:attr:`Outcome.NO_WITNESS`).
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from regelverk.errors import RegelverkError

__all__ = [
    "Finding",
    "Kind",
    "Outcome",
    "Result",
    "Theorem",
    "TheoremError",
    "Weakening",
    "run",
]


class TheoremError(RegelverkError):
    """A theorem that is malformed, or asked for by a name that does not exist."""


class Kind(enum.Enum):
    """Whether a theorem says something always holds or that something can happen."""

    FORALL = "forall"
    EXISTS = "exists"


class Outcome(enum.Enum):
    """What checking a theorem found."""

    PROVED = "proved"
    """A ``forall`` statement holds in every case the theorem covers."""
    WITNESSED = "witnessed"
    """An ``exists`` statement: Z3 found the instance the finding shows."""
    COUNTEREXAMPLE = "counterexample"
    """A ``forall`` statement fails: the finding shows a case that breaks it."""
    NO_WITNESS = "no witness"
    """An ``exists`` statement: no instance within the encoding's bound."""
    UNKNOWN = "unknown"
    """Z3 gave no answer in time."""


@dataclass(frozen=True, slots=True)
class Finding:
    """What one check found: the outcome, in words, and how many cases it covered.

    ``detail`` is a readable counterexample or witness (a position or a game, as the theorem
    renders it), or for a proof what was covered; ``cases`` counts the option sets, player
    counts and transitions that were decided separately.
    """

    outcome: Outcome
    detail: str
    cases: int = 1


@dataclass(frozen=True, slots=True)
class Weakening:
    """Weakening clause ``clause`` in the encoding, as ``how`` says, must break the theorem."""

    clause: str
    how: str


@dataclass(frozen=True, slots=True)
class Theorem:
    """A statement about a rulebook, the clauses it rests on, and how Z3 decides it."""

    name: str
    rulebooks: tuple[str, ...]
    title: str
    statement: str
    clauses: tuple[str, ...]
    check: Callable[[frozenset[str]], Finding] = field(repr=False, compare=False)
    weakenings: tuple[Weakening, ...] = ()
    kind: Kind = Kind.FORALL

    def __post_init__(self) -> None:
        if not self.clauses:
            raise TheoremError(f"theorem {self.name} cites no clause")
        if not self.weakenings:
            raise TheoremError(f"theorem {self.name} names no weakening that must break it")
        stray = [w.clause for w in self.weakenings if w.clause not in self.clauses]
        if stray:
            raise TheoremError(
                f"theorem {self.name} weakens {', '.join(stray)}, which it does not cite"
            )

    @property
    def success(self) -> Outcome:
        """The outcome that means the statement holds."""
        return Outcome.PROVED if self.kind is Kind.FORALL else Outcome.WITNESSED

    @property
    def failure(self) -> Outcome:
        """The outcome that means the statement does not hold."""
        return Outcome.COUNTEREXAMPLE if self.kind is Kind.FORALL else Outcome.NO_WITNESS

    def holds(self, finding: Finding) -> bool:
        """Whether ``finding`` means the statement holds."""
        return finding.outcome is self.success


@dataclass(frozen=True, slots=True)
class Result:
    """A theorem, what checking it found, and the time it took in seconds."""

    theorem: Theorem
    finding: Finding
    seconds: float

    @property
    def holds(self) -> bool:
        """Whether the theorem holds."""
        return self.theorem.holds(self.finding)


def run(theorems: Iterable[Theorem], weaken: frozenset[str] = frozenset()) -> tuple[Result, ...]:
    """Check each theorem (with the clauses in ``weaken`` weakened) and time it."""
    results = []
    for theorem in theorems:
        start = time.perf_counter()
        finding = theorem.check(weaken)
        results.append(Result(theorem, finding, time.perf_counter() - start))
    return tuple(results)
