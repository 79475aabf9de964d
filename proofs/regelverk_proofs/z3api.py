"""The one typed door to Z3: terms that cannot be mistaken for Python values, and a solver
whose assertions carry the clause ids they encode.

z3-solver ships no type information, and its terms overload ``==`` and ``bool`` in ways that
silently compare syntax. Every encoding in :mod:`regelverk_proofs` goes through this module
instead of importing ``z3``:

* :class:`Bool` and :class:`Int` wrap z3 terms; ``==`` is replaced by :meth:`Int.eq` (and
  ``bool(term)`` raises :class:`TypeError`), so no encoding can branch on a term in Python.
* :class:`Solver` records each assertion under the clause it encodes, so an unsatisfiable
  question yields the clauses that forbid it (:meth:`Solver.core`), and a satisfiable one a
  :class:`Model` that reads back plain ``int`` and ``bool`` values.

``import z3`` costs tens of milliseconds and z3-solver is an optional dependency (the ``prove``
extra), so this module imports it on first use; :class:`ProverMissingError` says how to get it.

>>> x, y = Int.var("x"), Int.var("y")
>>> solver = Solver()
>>> solver.add((x + y).eq(10), clause="EXAMPLE-SUM")
>>> solver.add(x > y, clause="EXAMPLE-ORDER")
>>> solver.add(y >= 5, clause="EXAMPLE-FLOOR")
>>> solver.check()
<Verdict.UNSAT: 'unsat'>
>>> solver.core()
('EXAMPLE-FLOOR', 'EXAMPLE-ORDER', 'EXAMPLE-SUM')
"""

from __future__ import annotations

import ctypes
import enum
import importlib
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from types import ModuleType
from typing import Any, NoReturn

from regelverk.errors import RegelverkError

__all__ = [
    "Z3_VERSION",
    "Bool",
    "Int",
    "Model",
    "ProverMissingError",
    "Solver",
    "Verdict",
    "all_of",
    "any_of",
    "at_most_one",
    "exactly_one",
    "false",
    "implies",
    "ite",
    "ite_bool",
    "sum_of",
    "true",
    "z3_version",
]

Z3_VERSION = "4.16.0"
"""The z3-solver release the proofs are checked with (pinned in the ``prove`` extra)."""


class ProverMissingError(RegelverkError):
    """z3-solver is not installed, so nothing can be proved."""


@cache
def _z3() -> ModuleType:
    """The z3 module, loaded once, with Z3's own Ctrl-C handling turned off.

    By default Z3 takes Ctrl-C for itself while it solves: the check stops and answers
    ``unknown``, and the interrupt never reaches the program, so a run would go on with a
    theorem left undecided. With ``ctrl_c`` off, Ctrl-C reaches Python as it does elsewhere.
    """
    try:
        z3 = importlib.import_module("z3")
    except ImportError:
        raise ProverMissingError(
            "the proofs need z3-solver: install regelverk with its 'prove' extra "
            "(pip install 'regelverk[prove]')"
        ) from None
    z3.set_param("ctrl_c", False)
    return z3


class _Build:
    """Z3's C functions that make terms, called directly.

    ``z3.And(a, b)`` and ``a + b`` first coerce every argument (checking its kind and sort, a
    Python call or more each), then call the one C function that makes the term. The terms
    here are always Z3 booleans and integers of the main context, so that work is wasted:
    building the terms took most of ``prove``'s time. These make the very same terms (the same
    C function on the same arguments), without it.
    """

    __slots__ = ("ast", "bool_ref", "core", "ctx", "int_ref", "ref")

    def __init__(self, z3: ModuleType) -> None:
        self.ctx = z3.main_ctx()
        self.ref = self.ctx.ref()
        self.core = z3.z3core
        self.ast = z3.Ast
        self.bool_ref = z3.BoolRef
        self.int_ref = z3.ArithRef

    def many(self, make: Any, refs: Sequence[Any]) -> Any:
        """``make(ctx, n, [refs])``: a term of any number of arguments."""
        return make(self.ref, len(refs), (self.ast * len(refs))(*(r.as_ast() for r in refs)))

    def boolean(self, ast: Any) -> Any:
        return self.bool_ref(ast, self.ctx)

    def integer(self, ast: Any) -> Any:
        return self.int_ref(ast, self.ctx)


@cache
def _build() -> _Build:
    return _Build(_z3())


@cache
def _numeral(value: int) -> Any:
    """The Z3 integer constant ``value`` (made once: terms are immutable)."""
    return _z3().IntVal(value)


def z3_version() -> str:
    """The version string of the z3 that is installed."""
    return str(_z3().get_version_string())


def _no_truth(term: object) -> NoReturn:
    raise TypeError(
        f"{term!r} is a Z3 term, not a Python truth value: assert it in a Solver instead"
    )


class Bool:
    """A boolean Z3 term. Combine with ``&``, ``|``, ``~``; never test it with ``if``.

    A constant (:meth:`const`, or a term that folds to one) knows its ``value``, and the
    operators fold it away as they build: ``x & true`` is ``x``, ``x | true`` is ``true``,
    ``false.eq(x)`` is ``~x``. The terms stay equivalent to what Z3 would have built; they are
    only smaller, which matters where a binding pins a whole table of a hundred cards to
    constants and asks about one step.
    """

    __slots__ = ("_negation", "ref", "value")

    def __init__(self, ref: Any, value: bool | None = None) -> None:
        self.ref = ref
        self.value = value
        self._negation: Bool | None = None

    @classmethod
    def var(cls, name: str) -> Bool:
        """A fresh boolean unknown called ``name`` (the same name is the same unknown)."""
        return _bool_var(name)

    @classmethod
    def const(cls, value: bool) -> Bool:
        """The constant ``value``."""
        return _bool_const(bool(value))

    def __and__(self, other: Bool) -> Bool:
        if self.value is not None:
            return other if self.value else self
        if other.value is not None:
            return self if other.value else other
        b = _build()
        return Bool(b.boolean(b.many(b.core.Z3_mk_and, (self.ref, other.ref))))

    def __or__(self, other: Bool) -> Bool:
        if self.value is not None:
            return self if self.value else other
        if other.value is not None:
            return other if other.value else self
        b = _build()
        return Bool(b.boolean(b.many(b.core.Z3_mk_or, (self.ref, other.ref))))

    def __invert__(self) -> Bool:
        if self.value is not None:
            return _bool_const(not self.value)
        negation = self._negation  # made once: encodings negate the same unknown many times
        if negation is None:
            b = _build()
            negation = self._negation = Bool(b.boolean(b.core.Z3_mk_not(b.ref, self.ref.as_ast())))
        return negation

    def eq(self, other: Bool | bool) -> Bool:
        """The term ``self == other`` (both true or both false)."""
        right = other if isinstance(other, Bool) else _bool_const(other)
        if self.value is not None:
            return right if self.value else ~right
        if right.value is not None:
            return self if right.value else ~self
        return Bool(_compare("Z3_mk_eq", self.ref, right.ref))

    def __bool__(self) -> bool:  # noqa: PLE0304 (it raises: a term has no truth value)
        _no_truth(self)

    def __eq__(self, other: object) -> NoReturn:
        _no_truth(self)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Bool({self.ref})"


@cache
def _bool_var(name: str) -> Bool:
    """The boolean unknown ``name``: Z3 makes the same term for the same name, so it is made
    once (making it costs several calls into Z3, and encodings name the same unknowns for
    every case they build)."""
    return Bool(_z3().Bool(name))


@cache
def _bool_const(value: bool) -> Bool:
    """The constant ``value`` (made once: terms are immutable)."""
    return Bool(_z3().BoolVal(value), value)


def _int(value: Int | int) -> Int:
    return value if isinstance(value, Int) else _int_const(value)


def _arith(make: str, left: Any, right: Any) -> Any:
    """The integer term ``make(left, right)`` for Z3_mk_add, _sub or _mul."""
    b = _build()
    return b.integer(b.many(getattr(b.core, make), (left, right)))


def _compare(make: str, left: Any, right: Any) -> Any:
    """The boolean term ``make(left, right)`` for Z3_mk_lt, _le, _gt, _ge or _eq."""
    b = _build()
    return b.boolean(getattr(b.core, make)(b.ref, left.as_ast(), right.as_ast()))


class Int:
    """An integer Z3 term (mathematical integers: no overflow). ``eq``/``ne`` for equality.

    Like :class:`Bool`, a constant knows its ``value``: arithmetic and comparisons of constants
    are worked out in Python, and adding or subtracting 0 leaves a term as it is.
    """

    __slots__ = ("_ref", "counted", "offset", "value")

    def __init__(
        self,
        ref: Any,
        value: int | None = None,
        counted: tuple[Bool, ...] | None = None,
        offset: int = 0,
    ) -> None:
        self._ref = ref
        self.value = value
        self.counted = counted
        self.offset = offset

    @property
    def ref(self) -> Any:
        """The Z3 term (a count of booleans is made into a sum only when it is needed)."""
        if self._ref is None:
            self._ref = _count_ref(self.counted or (), self.offset)
        return self._ref

    @classmethod
    def var(cls, name: str) -> Int:
        """A fresh integer unknown called ``name`` (the same name is the same unknown)."""
        return _int_var(name)

    @classmethod
    def const(cls, value: int) -> Int:
        """The constant ``value``."""
        return _int_const(value)

    def __add__(self, other: Int | int) -> Int:
        return _add(self, _int(other))

    def __radd__(self, other: int) -> Int:
        return _add(_int(other), self)

    def __sub__(self, other: Int | int) -> Int:
        return _sub(self, _int(other))

    def __rsub__(self, other: int) -> Int:
        return _sub(_int(other), self)

    def __mul__(self, other: Int | int) -> Int:
        return _mul(self, _int(other))

    def __rmul__(self, other: int) -> Int:
        return _mul(_int(other), self)

    def __neg__(self) -> Int:
        if self.value is not None:
            return _int_const(-self.value)
        return Int(-self.ref)

    def mod(self, other: int) -> Int:
        """``self`` modulo a positive constant (Euclidean: never negative)."""
        if other <= 0:
            raise ValueError(f"mod needs a positive constant, not {other}")
        if self.value is not None:
            return _int_const(self.value % other)
        return Int(self.ref % _numeral(other))

    def __lt__(self, other: Int | int) -> Bool:
        return _order("Z3_mk_lt", self, _int(other))

    def __le__(self, other: Int | int) -> Bool:
        return _order("Z3_mk_le", self, _int(other))

    def __gt__(self, other: Int | int) -> Bool:
        return _order("Z3_mk_gt", self, _int(other))

    def __ge__(self, other: Int | int) -> Bool:
        return _order("Z3_mk_ge", self, _int(other))

    def eq(self, other: Int | int) -> Bool:
        """The term ``self == other``."""
        return _order("Z3_mk_eq", self, _int(other))

    def ne(self, other: Int | int) -> Bool:
        """The term ``self != other``."""
        return ~self.eq(other)

    def between(self, low: Int | int, high: Int | int) -> Bool:
        """``low <= self <= high``."""
        return (self >= low) & (self <= high)

    def __bool__(self) -> bool:  # noqa: PLE0304 (it raises: a term has no truth value)
        _no_truth(self)

    def __eq__(self, other: object) -> NoReturn:
        _no_truth(self)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Int({self.ref})"


@cache
def _int_var(name: str) -> Int:
    """The integer unknown ``name``, made once (see :func:`_bool_var`)."""
    return Int(_z3().Int(name))


@cache
def _int_const(value: int) -> Int:
    """The constant ``value`` (made once: terms are immutable)."""
    return Int(_numeral(value), value)


def _add(left: Int, right: Int) -> Int:
    if left.value is not None and right.value is not None:
        return _int_const(left.value + right.value)
    counted = _counted_sum(left, right)
    if counted is not None:
        return counted
    if right.value == 0:
        return left
    if left.value == 0:
        return right
    return Int(_arith("Z3_mk_add", left.ref, right.ref))


def _counted_sum(left: Int, right: Int) -> Int | None:
    """``left + right`` kept as a count of booleans, where one is a count and the other a
    count or a constant; else None."""
    parts = (left, right)
    if all(p.counted is None for p in parts) or any(
        p.counted is None and p.value is None for p in parts
    ):
        return None
    counted = tuple(b for p in parts for b in (p.counted or ()))
    offset = sum(p.offset if p.value is None else p.value for p in parts)
    return Int(None, counted=counted, offset=offset)


def _sub(left: Int, right: Int) -> Int:
    if left.value is not None and right.value is not None:
        return _int_const(left.value - right.value)
    if left.counted is not None and right.value is not None:
        return Int(None, counted=left.counted, offset=left.offset - right.value)
    if right.value == 0:
        return left
    return Int(_arith("Z3_mk_sub", left.ref, right.ref))


def _mul(left: Int, right: Int) -> Int:
    if left.value is not None and right.value is not None:
        return _int_const(left.value * right.value)
    return Int(_arith("Z3_mk_mul", left.ref, right.ref))


_ORDERS: dict[str, Callable[[int, int], bool]] = {
    "Z3_mk_lt": operator.lt,
    "Z3_mk_le": operator.le,
    "Z3_mk_gt": operator.gt,
    "Z3_mk_ge": operator.ge,
    "Z3_mk_eq": operator.eq,
}


_MIRRORED = {
    "Z3_mk_lt": "Z3_mk_gt",
    "Z3_mk_le": "Z3_mk_ge",
    "Z3_mk_gt": "Z3_mk_lt",
    "Z3_mk_ge": "Z3_mk_le",
    "Z3_mk_eq": "Z3_mk_eq",
}


def _order(make: str, left: Int, right: Int) -> Bool:
    """The comparison ``make`` of two integers, worked out where both are constants, and made
    a pseudo-boolean constraint where a count of booleans meets a constant."""
    if left.value is not None and right.value is not None:
        return _bool_const(_ORDERS[make](left.value, right.value))
    if left.counted is not None and right.value is not None:
        return _count_order(make, left.counted, right.value - left.offset)
    if right.counted is not None and left.value is not None:
        return _count_order(_MIRRORED[make], right.counted, left.value - right.offset)
    return Bool(_compare(make, left.ref, right.ref))


def _count_order(make: str, counted: tuple[Bool, ...], k: int) -> Bool:
    """How many of ``counted`` hold, compared by ``make`` with ``k``: Z3's cardinality
    constraints (at most, at least, exactly), which its solver decides without arithmetic."""
    if make == "Z3_mk_lt":
        make, k = "Z3_mk_le", k - 1
    elif make == "Z3_mk_gt":
        make, k = "Z3_mk_ge", k + 1
    if make == "Z3_mk_le":
        return _at_most(counted, k)
    if make == "Z3_mk_ge":
        return _at_least(counted, k)
    return _exactly(counted, k)


def _at_most(counted: tuple[Bool, ...], k: int) -> Bool:
    if k < 0 or k >= len(counted):
        return _bool_const(k >= 0)
    return Bool(_cardinality("Z3_mk_atmost", counted, k))


def _at_least(counted: tuple[Bool, ...], k: int) -> Bool:
    if k <= 0 or k > len(counted):
        return _bool_const(k <= 0)
    return Bool(_cardinality("Z3_mk_atleast", counted, k))


def _exactly(counted: tuple[Bool, ...], k: int) -> Bool:
    n = len(counted)
    if k < 0 or k > n:
        return _bool_const(False)
    if k == 0:
        return ~any_of(counted)
    if k == n:
        return all_of(counted)
    b = _build()
    ones = (ctypes.c_int * n)(*([1] * n))
    refs = (b.ast * n)(*(t.ref.as_ast() for t in counted))
    return Bool(b.boolean(b.core.Z3_mk_pbeq(b.ref, n, refs, ones, k)))


def _cardinality(make: str, counted: tuple[Bool, ...], k: int) -> Any:
    b = _build()
    n = len(counted)
    refs = (b.ast * n)(*(t.ref.as_ast() for t in counted))
    return b.boolean(getattr(b.core, make)(b.ref, n, refs, k))


def _count_ref(counted: tuple[Bool, ...], offset: int) -> Any:
    """The sum counting each of ``counted`` as 1 where it holds, plus ``offset``."""
    b = _build()
    one, zero = _numeral(1), _numeral(0)
    refs = [b.integer(_ite(t.ref, one, zero)) for t in counted]
    if offset or not refs:
        refs.append(_numeral(offset))
    return b.integer(b.many(b.core.Z3_mk_add, refs))


def true() -> Bool:
    """The constant true."""
    return _bool_const(True)


def false() -> Bool:
    """The constant false."""
    return _bool_const(False)


def _joined(make: str, terms: Iterable[Bool], unit: bool) -> Bool:
    """The conjunction (``unit`` true) or disjunction (``unit`` false) of ``terms``: a term
    equal to the unit is left out, and one equal to the other constant decides it."""
    kept = []
    for t in terms:
        if t.value is None:
            kept.append(t)
        elif t.value != unit:
            return _bool_const(not unit)
    if not kept:
        return _bool_const(unit)
    if len(kept) == 1:
        return kept[0]
    b = _build()
    return Bool(b.boolean(b.many(getattr(b.core, make), [t.ref for t in kept])))


def all_of(terms: Iterable[Bool]) -> Bool:
    """The conjunction (true for no terms)."""
    return _joined("Z3_mk_and", terms, True)


def any_of(terms: Iterable[Bool]) -> Bool:
    """The disjunction (false for no terms)."""
    return _joined("Z3_mk_or", terms, False)


def implies(premise: Bool, conclusion: Bool) -> Bool:
    """``premise → conclusion``."""
    if premise.value is not None:
        return conclusion if premise.value else _bool_const(True)
    if conclusion.value is not None:
        return conclusion if conclusion.value else ~premise
    return Bool(_compare("Z3_mk_implies", premise.ref, conclusion.ref))


def _ite(condition: Any, then: Any, otherwise: Any) -> Any:
    b = _build()
    return b.core.Z3_mk_ite(b.ref, condition.as_ast(), then.as_ast(), otherwise.as_ast())


def ite(condition: Bool, then: Int | int, otherwise: Int | int) -> Int:
    """The integer ``then`` where ``condition`` holds, else ``otherwise``."""
    yes, no = _int(then), _int(otherwise)
    if condition.value is not None:
        return yes if condition.value else no
    return Int(_build().integer(_ite(condition.ref, yes.ref, no.ref)))


def ite_bool(condition: Bool, then: Bool, otherwise: Bool) -> Bool:
    """The boolean ``then`` where ``condition`` holds, else ``otherwise``."""
    if condition.value is not None:
        return then if condition.value else otherwise
    return Bool(_build().boolean(_ite(condition.ref, then.ref, otherwise.ref)))


def sum_of(terms: Iterable[Int | Bool]) -> Int:
    """The sum of integers, counting a boolean as 1 where it holds (0 for no terms).

    A sum of booleans alone is kept as the booleans it counts, so that comparing it with a
    constant makes a cardinality constraint rather than arithmetic over ``if``-terms.
    """
    known = 0
    counted: list[Bool] = []
    others: list[Int] = []
    for t in terms:
        if t.value is not None:
            known += int(t.value)
        elif isinstance(t, Bool):
            counted.append(t)
        elif t.counted is not None:
            counted.extend(t.counted)
            known += t.offset
        else:
            others.append(t)
    if not counted and not others:
        return _int_const(known)
    if not others:
        return Int(None, counted=tuple(counted), offset=known)
    b = _build()
    one, zero = _numeral(1), _numeral(0)
    refs = [b.integer(_ite(t.ref, one, zero)) for t in counted] + [t.ref for t in others]
    if known:
        refs.append(_numeral(known))
    return Int(b.integer(b.many(b.core.Z3_mk_add, refs)))


def exactly_one(terms: Sequence[Bool]) -> Bool:
    """Exactly one of ``terms`` holds."""
    return sum_of(terms).eq(1)


def at_most_one(terms: Sequence[Bool]) -> Bool:
    """At most one of ``terms`` holds."""
    return sum_of(terms) <= 1


class Verdict(enum.Enum):
    """What the solver found: a model (``sat``), none (``unsat``), or no answer (``unknown``)."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"


class Model:
    """The values of one satisfying assignment, read back as plain Python values."""

    __slots__ = ("_model",)

    def __init__(self, model: Any) -> None:
        self._model = model

    def int(self, term: Int) -> int:
        """The value of an integer term (an unconstrained unknown reads as 0)."""
        if term.value is not None:
            return term.value
        return int(self._model.eval(term.ref, model_completion=True).as_long())

    def bool(self, term: Bool) -> bool:
        """The value of a boolean term (an unconstrained unknown reads as false)."""
        if term.value is not None:
            return term.value
        return bool(_z3().is_true(self._model.eval(term.ref, model_completion=True)))


def _collect_unknowns(z3: ModuleType, term: Any, into: dict[str, Any]) -> None:
    """Put the unknowns (uninterpreted constants) of ``term`` into ``into``, by name."""
    seen: set[int] = set()
    stack = [term]
    while stack:
        node = stack.pop()
        key = node.get_id()
        if key in seen:
            continue
        seen.add(key)
        if z3.is_const(node) and node.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            into[node.decl().name()] = node
        else:
            stack.extend(node.children())


_SCRATCH: list[Any] = []
"""The shared solver of :meth:`Solver.scratch` while a question is open on it."""


@cache
def _scratch_solver() -> Any:
    return _z3().Solver()


class Solver:
    """A Z3 solver whose assertions are tracked by the clause ids they encode.

    ``add(term, clause=ID)`` asserts ``term`` as part of clause ``ID``; ``add(term)`` asserts
    a fact of the encoding itself (the shape of the state, the question asked), which never
    appears in a core. ``timeout_ms`` bounds each :meth:`check`; running out gives
    :attr:`Verdict.UNKNOWN`. Tracking costs time (an order of magnitude on big problems), so a
    check that needs no core can say ``cores=False``: the clause ids are then not recorded and
    :meth:`core` refuses.
    """

    __slots__ = ("_cores", "_labels", "_solver")

    def __init__(
        self, timeout_ms: int = 30_000, *, cores: bool = True, _solver: Any = None
    ) -> None:
        self._solver = _z3().Solver() if _solver is None else _solver
        self._solver.set("timeout", timeout_ms)
        self._cores = cores
        self._labels: dict[str, str] = {}

    @classmethod
    @contextmanager
    def scratch(cls, timeout_ms: int = 30_000) -> Iterator[Solver]:
        """A solver for one small question, inside ``with``: it keeps no clause ids, and its
        assertions are gone when the block ends.

        Making a Z3 solver, and the first check of a fresh one, cost about a millisecond
        each, as much as deciding a binding's question of fixed values; so one Z3 solver
        serves every such question in turn, each in its own scope (``push`` before, ``pop``
        after). A question asked while another is open gets a solver of its own, so no
        question ever sees another's assertions.
        """
        if _SCRATCH:
            yield cls(timeout_ms, cores=False)
            return
        base = _scratch_solver()
        _SCRATCH.append(base)
        base.push()
        try:
            yield cls(timeout_ms, cores=False, _solver=base)
        finally:
            base.pop()
            _SCRATCH.pop()

    def add(self, term: Bool, clause: str | None = None) -> None:
        """Assert ``term``; with ``clause``, track it under that clause id. Z3 keeps what a core
        needs only from the first tracked assertion on: a solver that tracks none (a binding's
        question of fixed values) is not slowed by it."""
        if clause is None or not self._cores:
            if term.value is not True:  # z3's Solver.add would first check the term's sort
                b = _build()
                b.core.Z3_solver_assert(b.ref, self._solver.solver, term.ref.as_ast())
            return
        if not self._labels:
            self._solver.set("unsat_core", True)
        label = f"{clause}#{len(self._labels)}"
        self._labels[label] = clause
        self._solver.assert_and_track(term.ref, _z3().Bool(label))

    def check(self) -> Verdict:
        """Decide the assertions so far."""
        answer = str(self._solver.check())
        return Verdict(answer) if answer in {"sat", "unsat"} else Verdict.UNKNOWN

    def model(self) -> Model:
        """The model after a :attr:`Verdict.SAT` check."""
        return Model(self._solver.model())

    def least_model(self, *, steps: int = 256) -> Model:
        """After a :attr:`Verdict.SAT` check: the least model, the same however Z3 reached
        its answer.

        A model Z3 finds depends on what else it has built and solved before, in the same
        process: the same question may get another model later. The least model does not:
        each unknown of the assertions, in the order of their names, is made as small as the
        assertions and the unknowns before it allow (false before true, the least integer),
        and pinned there. An integer is lowered from the model's value one check at a time
        (at most ``steps`` of them; one whose least value is further down, or that has none,
        is pinned where it got to). The solver's assertions are as before afterwards.
        """
        z3 = _z3()
        solver = self._solver
        unknowns: dict[str, Any] = {}
        for assertion in solver.assertions():
            _collect_unknowns(z3, assertion, unknowns)
        tracked = set(self._labels)
        solver.push()
        try:
            for name in sorted(unknowns.keys() - tracked):
                term = unknowns[name]
                if z3.is_bool(term):
                    least = z3.Not(term) if self._allows(z3.Not(term)) else term
                else:
                    least = term == self._least_value(z3, term, steps)
                solver.add(least)
            if solver.check() != z3.sat:
                raise RuntimeError("the least model was lost while it was pinned")
            return Model(solver.model())
        finally:
            solver.pop()

    def _allows(self, term: Any) -> bool:
        """Whether the assertions allow ``term`` as well (an unknown answer counts as no)."""
        solver = self._solver
        solver.push()
        try:
            solver.add(term)
            return bool(solver.check() == _z3().sat)
        finally:
            solver.pop()

    def _least_value(self, z3: ModuleType, term: Any, steps: int) -> int:
        """The least value of the integer ``term`` the assertions allow, lowered from a
        model's value at most ``steps`` times."""
        solver = self._solver
        if solver.check() != z3.sat:
            raise RuntimeError("the least model was lost while it was pinned")
        value = int(solver.model().eval(term, model_completion=True).as_long())
        for _ in range(steps):
            solver.push()
            try:
                solver.add(term < value)
                if solver.check() != z3.sat:
                    return value
                value = int(solver.model().eval(term, model_completion=True).as_long())
            finally:
                solver.pop()
        return value

    def core(self) -> tuple[str, ...]:
        """After :attr:`Verdict.UNSAT`: the clause ids of a set of tracked assertions that is
        already unsatisfiable, sorted and without repeats."""
        if not self._cores:
            raise TypeError("this solver was made with cores=False and keeps no clause ids")
        return tuple(sorted({self._labels[str(b)] for b in self._solver.unsat_core()}))

    def reason_unknown(self) -> str:
        """Why the last check gave no answer (a timeout, say)."""
        return str(self._solver.reason_unknown())
