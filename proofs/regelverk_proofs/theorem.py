"""Theorems, their findings, and the suite that ``regelverk prove`` runs.

A :class:`Theorem` is a statement in words, the clauses it rests on (``clauses=``, which the
trace reads), the clauses among them whose own property the statement says (``states=``: the
trace counts a clause as proved only by a theorem that states it), and a ``check`` that encodes
those clauses in Z3 and decides the statement. The
``check`` takes the set of clause ids to *weaken*: the encoding leaves out (or loosens, as its
:class:`Weakening` says) the assertions of those clauses. Every theorem names at least one
weakening under which it must fail, and the tests run each one: a theorem that still held
with a clause it cites taken away would not be resting on that clause.

Every theorem also names the :class:`~regelverk_proofs.binding.Binding` entries that tie its
encoding to the engine (``bindings=``); :func:`run` checks them first, and a theorem whose
encoding the engine does not follow fails with :attr:`Outcome.DISAGREES`, whatever Z3 would say
about the encoding.

Two kinds of statement:

* ``forall``: the statement holds in every case; Z3 finds the negation unsatisfiable
  (:attr:`Outcome.PROVED`), or a case that breaks it (:attr:`Outcome.COUNTEREXAMPLE`).
* ``exists``: something can happen (a never-ending game, say); Z3 finds an instance
  (:attr:`Outcome.WITNESSED`), or none within the encoding's bound (:attr:`Outcome.NO_WITNESS`).

Only :attr:`Outcome.PROVED` (for ``forall``) and :attr:`Outcome.WITNESSED` (for ``exists``) mean
a theorem holds; :attr:`Outcome.UNKNOWN` never does.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from regelverk.errors import RegelverkError
from regelverk_proofs.binding import Binding, Report
from regelverk_proofs.binding import check as check_binding

__all__ = [
    "Finding",
    "Kind",
    "Outcome",
    "Result",
    "Theorem",
    "TheoremError",
    "Weakening",
    "decide",
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
    """Z3 gave no answer in time: never counted as holding."""
    DISAGREES = "engine disagrees"
    """A binding found the engine doing something the encoding does not say (or never compared
    a kind of step it must): the encoding is not the engine's, so nothing it proves counts."""


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
    bindings: tuple[Binding, ...] = ()
    states: tuple[str, ...] = ()
    """The cited clauses whose property the statement itself says (a scoring table the theorem
    spells out), as against those it only rests on (a rule that makes a deal end, where the
    statement says only that it ends). Only a theorem stating a clause can prove it."""

    def __post_init__(self) -> None:
        if not self.clauses:
            raise TheoremError(f"theorem {self.name} cites no clause")
        if not self.weakenings:
            raise TheoremError(f"theorem {self.name} names no weakening that must break it")
        if not self.bindings:
            raise TheoremError(f"theorem {self.name} names no binding to the engine")
        unstated = [c for c in self.states if c not in self.clauses]
        if unstated:
            raise TheoremError(
                f"theorem {self.name} states {', '.join(unstated)}, which it does not cite"
            )
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
    """A theorem, what checking it found, the reports of its bindings, and the time it took in
    seconds (bindings included)."""

    theorem: Theorem
    finding: Finding
    seconds: float
    bindings: tuple[Report, ...] = ()

    @property
    def holds(self) -> bool:
        """Whether the theorem holds."""
        return self.theorem.holds(self.finding)


def decide(theorem: Theorem, weaken: frozenset[str] = frozenset()) -> Result:
    """Check ``theorem``'s bindings, then (if the engine follows its encoding) the theorem
    itself with the clauses in ``weaken`` weakened; time both."""
    start = time.perf_counter()
    reports = tuple(check_binding(b) for b in theorem.bindings)
    broken = [r for r in reports if not r.agrees]
    if broken:
        finding = Finding(
            Outcome.DISAGREES,
            "; ".join(r.summary() for r in broken),
            sum(r.cases for r in reports),
        )
    else:
        finding = theorem.check(weaken)
    return Result(theorem, finding, time.perf_counter() - start, reports)


def run(
    theorems: Iterable[Theorem],
    weaken: frozenset[str] = frozenset(),
    done: Callable[[Result], None] | None = None,
) -> tuple[Result, ...]:
    """Check each theorem (bindings first; then with the clauses in ``weaken`` weakened),
    telling ``done`` of each result as it comes (a progress bar counts them)."""
    results = []
    for theorem in theorems:
        result = decide(theorem, weaken)
        if done is not None:
            done(result)
        results.append(result)
    return tuple(results)
