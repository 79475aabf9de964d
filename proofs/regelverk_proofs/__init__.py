"""Z3 proofs over the rulebooks: encodings, theorems, and "can it ever happen?" questions.

Each engine family with theorems has a folder here of the same shape (``vandatta/``,
``viggo/``, ``uno/``): ``text`` (the small tables the encodings read, derived from ``spec/``),
``encoding`` (the rules as Z3 terms, at the granularity the theorems need), ``binding`` (each
encoding held to the engine) and ``theorems``. The theorem modules the rulebook descriptors name
in ``proofs`` (:attr:`regelverk.books.Rulebook.proofs`) hold a tuple ``THEOREMS`` of
:class:`~regelverk_proofs.theorem.Theorem` (each citing the clauses it rests on in
``clauses=``, which the trace reads) and a tuple ``SCENARIOS`` of
:class:`~regelverk_proofs.query.Scenario` for ``regelverk ask --can``. All of them reach Z3
through :mod:`regelverk_proofs.z3api` only.

The encodings are tied to the running model by bindings (:mod:`regelverk_proofs.binding`),
which ``regelverk prove`` and the tests (``tests/test_proofs_*``) run: over a bounded universe
of positions and steps, stated in each binding and counted, the engine and the encoding must
agree on whether each action is allowed and on the state it leads to. No encoding imports the
engine function it is compared with: the small tables the encodings need (packs, hand sizes,
draw counts, rank orders, points) are derived from ``spec/`` in each family's ``text``
module, and the ``*.text-tables`` bindings compare each with the engine's.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from regelverk.books import descriptors
from regelverk_proofs.query import Scenario
from regelverk_proofs.theorem import Theorem, TheoremError

__all__ = ["FAMILIES", "SERVES", "scenarios", "theorems"]

SERVES: dict[str, tuple[str, ...]] = {
    module: tuple(b.name for b in descriptors().values() if module in b.proofs)
    for module in dict.fromkeys(m for b in descriptors().values() for m in b.proofs)
}
"""The modules of :mod:`regelverk_proofs` that hold theorems and scenarios, in rulebook order,
and the rulebooks each one's theorems and scenarios may be about (each rulebook's
:attr:`~regelverk.books.Rulebook.proofs`): a question about one rulebook imports only the
modules that serve it."""

FAMILIES: tuple[str, ...] = tuple(SERVES)
"""The modules of :data:`SERVES`."""


def _modules(rulebook: str | None) -> tuple[tuple[str, ModuleType], ...]:
    names = [n for n in FAMILIES if rulebook is None or rulebook in SERVES[n]]
    return tuple((n, importlib.import_module(f"regelverk_proofs.{n}")) for n in names)


def _served(module: str, books: tuple[str, ...], what: str) -> None:
    stray = sorted(set(books) - set(SERVES[module]))
    if stray:
        raise TheoremError(
            f"regelverk_proofs.{module} holds {what} about {', '.join(stray)}, which SERVES "
            f"does not list for it (it lists {', '.join(SERVES[module])})"
        )


def theorems(rulebook: str | None = None) -> tuple[Theorem, ...]:
    """Every theorem, or those about ``rulebook`` (importing only the modules serving it);
    names are unique."""
    found: list[Theorem] = []
    for name, module in _modules(rulebook):
        for theorem in module.THEOREMS:
            _served(name, theorem.rulebooks, f"the theorem {theorem.name}")
            found.append(theorem)
    names = [t.name for t in found]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise TheoremError(f"theorem names used twice: {', '.join(twice)}")
    return tuple(t for t in found if rulebook is None or rulebook in t.rulebooks)


def scenarios(rulebook: str | None = None) -> tuple[Scenario, ...]:
    """Every scenario for questions, or those of ``rulebook`` (importing only the modules
    serving it)."""
    found: list[Scenario] = []
    for name, module in _modules(rulebook):
        for scenario in module.SCENARIOS:
            _served(name, (scenario.rulebook,), f"the scenario {scenario.name}")
            found.append(scenario)
    return tuple(s for s in found if rulebook is None or s.rulebook == rulebook)
