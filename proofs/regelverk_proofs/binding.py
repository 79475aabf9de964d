"""Bindings: what ties a theorem's encoding to the engine it speaks about.

A theorem decides its statement over a Z3 encoding of the rules. The encoding is only worth
something while it says what the engine does, so every theorem names one or more
:class:`Binding` entries, and ``regelverk prove`` checks them before the theorem itself: a
binding walks a bounded universe of engine positions and steps (every option set it names,
seeded games, boundary scores, rebuilt stocks, challenges, …), runs the engine's own rule
functions on each, and compares what the engine did with what the encoding allows. A change to
the engine's rules that the encoding does not share makes the binding disagree, and the theorem
fails with :attr:`~regelverk_proofs.theorem.Outcome.DISAGREES` and the first case that differs.

A binding also says which *kinds* of step it must compare (``kinds``): a run that never compared
one of them (no rebuild of the stock, say) fails too, so a bounded universe that has drifted
away from a step cannot pass by not looking at it. And it says how many cases its statement
claims (``claims``): the size of the small universe it enumerates, or the floor its stated
bound reaches. A run that compared fewer fails, so a universe that shrank (a loop cut short, a
filter that drops most positions) cannot pass under a statement that still claims the whole.

Some universes are too dear to walk whole in every CI run (a UNO card move costs Z3 about
half a second to build and decide). Such a binding states two bounds: the one ``regelverk
prove`` and the tests run, and a larger one run with the environment variable
``REGELVERK_BINDINGS=full`` set (``REGELVERK_BINDINGS=full regelverk prove``); :func:`full`
says which applies, and the binding's ``claims`` follow it.

Bindings compare the encoding as written, never a weakened one: weakenings
(:class:`~regelverk_proofs.theorem.Weakening`) show that a theorem rests on a clause, bindings
show that the encoding is the engine's.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from regelverk.errors import RegelverkError

__all__ = [
    "SCALE_VARIABLE",
    "Binding",
    "BindingError",
    "Comparison",
    "Report",
    "check",
    "clear",
    "full",
]

SCALE_VARIABLE = "REGELVERK_BINDINGS"
"""The environment variable that selects the larger bound of the bindings that state two."""


def full() -> bool:
    """Whether the bindings run at their full bound (``REGELVERK_BINDINGS=full``) rather than
    the bound CI runs; any other value than ``full`` or ``ci`` is refused."""
    value = os.environ.get(SCALE_VARIABLE, "ci").strip().lower() or "ci"
    if value not in ("ci", "full"):
        raise BindingError(
            f"{SCALE_VARIABLE} is {value!r}: it selects the bindings' bound and must be "
            "'ci' (the default) or 'full'"
        )
    return value == "full"


class BindingError(RegelverkError):
    """A binding that is malformed, or that compared a kind of step it does not declare."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """One case a binding compared: its kind, whether engine and encoding agree, and what was
    compared (shown when they do not)."""

    kind: str
    agrees: bool
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Binding:
    """A comparison of the engine with an encoding over a bounded universe.

    ``compare`` yields one :class:`Comparison` per case; ``kinds`` lists every kind of case that
    a run must include at least once; ``claims`` is how many cases the statement claims (a run
    that compares fewer fails).
    """

    name: str
    statement: str
    kinds: tuple[str, ...]
    compare: Callable[[], Iterable[Comparison]] = field(repr=False, compare=False)
    claims: int = field(kw_only=True)

    def __post_init__(self) -> None:
        if not self.kinds:
            raise BindingError(f"binding {self.name} names no kind of step it must compare")
        if len(set(self.kinds)) != len(self.kinds):
            raise BindingError(f"binding {self.name} names a kind of step twice")
        if self.claims < len(self.kinds):
            raise BindingError(
                f"binding {self.name} claims {self.claims} cases, fewer than the "
                f"{len(self.kinds)} kinds it must compare"
            )


@dataclass(frozen=True, slots=True)
class Report:
    """What checking a binding found: cases compared per kind, and the first disagreement, the
    kinds never compared, or a count short of the cases the binding claims."""

    binding: Binding
    counts: tuple[tuple[str, int], ...]
    disagreement: str | None
    missing: tuple[str, ...]
    seconds: float

    @property
    def agrees(self) -> bool:
        """Whether every case agreed, every kind was compared, and at least as many cases as
        the binding claims."""
        return self.disagreement is None and not self.missing and not self.short

    @property
    def short(self) -> bool:
        """Whether the run compared fewer cases than the binding claims (a run stopped by a
        disagreement is not short: it is wrong)."""
        return self.disagreement is None and self.cases < self.binding.claims

    @property
    def cases(self) -> int:
        """How many cases were compared."""
        return sum(n for _, n in self.counts)

    def summary(self) -> str:
        """One line: the binding, and what it compared or where it broke."""
        if self.disagreement is not None:
            return f"{self.binding.name}: engine and encoding disagree: {self.disagreement}"
        if self.missing:
            return (
                f"{self.binding.name}: never compared {', '.join(self.missing)} "
                f"({self.cases} cases)"
            )
        shown = ", ".join(f"{kind} {n}" for kind, n in self.counts)
        if self.short:
            return (
                f"{self.binding.name}: compared only {self.cases} of the "
                f"{self.binding.claims} cases it claims ({shown})"
            )
        return (
            f"{self.binding.name}: {self.cases} cases agree, {self.binding.claims} claimed "
            f"({shown})"
        )


_DONE: dict[str, Report] = {}


def check(binding: Binding) -> Report:
    """Compare engine and encoding as ``binding`` says, stopping at the first disagreement.

    A binding is checked once per process (several theorems share one); :func:`clear` forgets
    the reports.
    """
    known = _DONE.get(binding.name)
    if known is not None and known.binding is binding:
        return known
    start = time.perf_counter()
    counts: Counter[str] = Counter()
    disagreement = None
    for case in binding.compare():
        if case.kind not in binding.kinds:
            raise BindingError(
                f"binding {binding.name} compared a kind of step it does not declare: {case.kind}"
            )
        counts[case.kind] += 1
        if not case.agrees:
            disagreement = f"{case.kind}: {case.detail}"
            break
    missing = () if disagreement else tuple(k for k in binding.kinds if not counts[k])
    report = Report(
        binding=binding,
        counts=tuple((k, counts[k]) for k in binding.kinds if counts[k]),
        disagreement=disagreement,
        missing=missing,
        seconds=time.perf_counter() - start,
    )
    _DONE[binding.name] = report
    return report


def clear() -> None:
    """Forget every binding report, so that the next :func:`check` compares again."""
    _DONE.clear()
