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

import enum
import importlib
from collections.abc import Iterable, Sequence
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
    """A boolean Z3 term. Combine with ``&``, ``|``, ``~``; never test it with ``if``."""

    __slots__ = ("ref",)

    def __init__(self, ref: Any) -> None:
        self.ref = ref

    @classmethod
    def var(cls, name: str) -> Bool:
        """A fresh boolean unknown called ``name``."""
        return cls(_z3().Bool(name))

    @classmethod
    def const(cls, value: bool) -> Bool:
        """The constant ``value``."""
        return cls(_z3().BoolVal(value))

    def __and__(self, other: Bool) -> Bool:
        b = _build()
        return Bool(b.boolean(b.many(b.core.Z3_mk_and, (self.ref, other.ref))))

    def __or__(self, other: Bool) -> Bool:
        b = _build()
        return Bool(b.boolean(b.many(b.core.Z3_mk_or, (self.ref, other.ref))))

    def __invert__(self) -> Bool:
        b = _build()
        return Bool(b.boolean(b.core.Z3_mk_not(b.ref, self.ref.as_ast())))

    def eq(self, other: Bool | bool) -> Bool:
        """The term ``self == other`` (both true or both false)."""
        right = other.ref if isinstance(other, Bool) else _z3().BoolVal(other)
        return Bool(_compare("Z3_mk_eq", self.ref, right))

    def __bool__(self) -> bool:  # noqa: PLE0304 (it raises: a term has no truth value)
        _no_truth(self)

    def __eq__(self, other: object) -> NoReturn:
        _no_truth(self)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Bool({self.ref})"


def _int_ref(value: Int | int) -> Any:
    return value.ref if isinstance(value, Int) else _numeral(value)


def _arith(make: str, left: Any, right: Any) -> Any:
    """The integer term ``make(left, right)`` for Z3_mk_add, _sub or _mul."""
    b = _build()
    return b.integer(b.many(getattr(b.core, make), (left, right)))


def _compare(make: str, left: Any, right: Any) -> Any:
    """The boolean term ``make(left, right)`` for Z3_mk_lt, _le, _gt, _ge or _eq."""
    b = _build()
    return b.boolean(getattr(b.core, make)(b.ref, left.as_ast(), right.as_ast()))


class Int:
    """An integer Z3 term (mathematical integers: no overflow). ``eq``/``ne`` for equality."""

    __slots__ = ("ref",)

    def __init__(self, ref: Any) -> None:
        self.ref = ref

    @classmethod
    def var(cls, name: str) -> Int:
        """A fresh integer unknown called ``name``."""
        return cls(_z3().Int(name))

    @classmethod
    def const(cls, value: int) -> Int:
        """The constant ``value``."""
        return cls(_z3().IntVal(value))

    def __add__(self, other: Int | int) -> Int:
        return Int(_arith("Z3_mk_add", self.ref, _int_ref(other)))

    def __radd__(self, other: int) -> Int:
        return Int(_arith("Z3_mk_add", _int_ref(other), self.ref))

    def __sub__(self, other: Int | int) -> Int:
        return Int(_arith("Z3_mk_sub", self.ref, _int_ref(other)))

    def __rsub__(self, other: int) -> Int:
        return Int(_arith("Z3_mk_sub", _int_ref(other), self.ref))

    def __mul__(self, other: Int | int) -> Int:
        return Int(_arith("Z3_mk_mul", self.ref, _int_ref(other)))

    def __rmul__(self, other: int) -> Int:
        return Int(_arith("Z3_mk_mul", _int_ref(other), self.ref))

    def __neg__(self) -> Int:
        return Int(-self.ref)

    def mod(self, other: int) -> Int:
        """``self`` modulo a positive constant (Euclidean: never negative)."""
        if other <= 0:
            raise ValueError(f"mod needs a positive constant, not {other}")
        return Int(self.ref % _z3().IntVal(other))

    def __lt__(self, other: Int | int) -> Bool:
        return Bool(_compare("Z3_mk_lt", self.ref, _int_ref(other)))

    def __le__(self, other: Int | int) -> Bool:
        return Bool(_compare("Z3_mk_le", self.ref, _int_ref(other)))

    def __gt__(self, other: Int | int) -> Bool:
        return Bool(_compare("Z3_mk_gt", self.ref, _int_ref(other)))

    def __ge__(self, other: Int | int) -> Bool:
        return Bool(_compare("Z3_mk_ge", self.ref, _int_ref(other)))

    def eq(self, other: Int | int) -> Bool:
        """The term ``self == other``."""
        return Bool(_compare("Z3_mk_eq", self.ref, _int_ref(other)))

    def ne(self, other: Int | int) -> Bool:
        """The term ``self != other``."""
        return Bool(self.ref != _int_ref(other))

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


def true() -> Bool:
    """The constant true."""
    return Bool.const(True)


def false() -> Bool:
    """The constant false."""
    return Bool.const(False)


def all_of(terms: Iterable[Bool]) -> Bool:
    """The conjunction (true for no terms)."""
    refs = [t.ref for t in terms]
    b = _build()
    return Bool(b.boolean(b.many(b.core.Z3_mk_and, refs))) if refs else true()


def any_of(terms: Iterable[Bool]) -> Bool:
    """The disjunction (false for no terms)."""
    refs = [t.ref for t in terms]
    b = _build()
    return Bool(b.boolean(b.many(b.core.Z3_mk_or, refs))) if refs else false()


def implies(premise: Bool, conclusion: Bool) -> Bool:
    """``premise → conclusion``."""
    return Bool(_compare("Z3_mk_implies", premise.ref, conclusion.ref))


def _ite(condition: Any, then: Any, otherwise: Any) -> Any:
    b = _build()
    return b.core.Z3_mk_ite(b.ref, condition.as_ast(), then.as_ast(), otherwise.as_ast())


def ite(condition: Bool, then: Int | int, otherwise: Int | int) -> Int:
    """The integer ``then`` where ``condition`` holds, else ``otherwise``."""
    return Int(_build().integer(_ite(condition.ref, _int_ref(then), _int_ref(otherwise))))


def ite_bool(condition: Bool, then: Bool, otherwise: Bool) -> Bool:
    """The boolean ``then`` where ``condition`` holds, else ``otherwise``."""
    return Bool(_build().boolean(_ite(condition.ref, then.ref, otherwise.ref)))


def sum_of(terms: Iterable[Int | Bool]) -> Int:
    """The sum of integers, counting a boolean as 1 where it holds (0 for no terms)."""
    b = _build()
    one, zero = _numeral(1), _numeral(0)
    refs = [b.integer(_ite(t.ref, one, zero)) if isinstance(t, Bool) else t.ref for t in terms]
    return Int(b.integer(b.many(b.core.Z3_mk_add, refs))) if refs else Int.const(0)


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
        return int(self._model.eval(term.ref, model_completion=True).as_long())

    def bool(self, term: Bool) -> bool:
        """The value of a boolean term (an unconstrained unknown reads as false)."""
        return bool(_z3().is_true(self._model.eval(term.ref, model_completion=True)))


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

    def __init__(self, timeout_ms: int = 30_000, *, cores: bool = True) -> None:
        z3 = _z3()
        self._solver = z3.Solver()
        self._solver.set("timeout", timeout_ms)
        self._cores = cores
        self._labels: dict[str, str] = {}

    def add(self, term: Bool, clause: str | None = None) -> None:
        """Assert ``term``; with ``clause``, track it under that clause id. Z3 keeps what a core
        needs only from the first tracked assertion on: a solver that tracks none (a binding's
        question of fixed values) is not slowed by it."""
        if clause is None or not self._cores:
            self._solver.add(term.ref)
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

    def core(self) -> tuple[str, ...]:
        """After :attr:`Verdict.UNSAT`: the clause ids of a set of tracked assertions that is
        already unsatisfiable, sorted and without repeats."""
        if not self._cores:
            raise TypeError("this solver was made with cores=False and keeps no clause ids")
        return tuple(sorted({self._labels[str(b)] for b in self._solver.unsat_core()}))

    def reason_unknown(self) -> str:
        """Why the last check gave no answer (a timeout, say)."""
        return str(self._solver.reason_unknown())
