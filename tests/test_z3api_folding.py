"""The typed Z3 door works out constants as it builds (``x & true`` is ``x``), keeps a count of
booleans as the booleans it counts (so comparing it with a constant is a cardinality
constraint), and lends one solver to small questions in turn (:meth:`Solver.scratch`).

Every one of these is a shortcut that must give the very answer Z3 gives on the term built
without it, so the tests build random terms over a few unknowns and constants, and compare,
for random values of the unknowns, the term's value in a Z3 model with the value worked out
in plain Python from the same recipe."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regelverk_proofs.evaluate import Compiled
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Solver,
    Verdict,
    all_of,
    any_of,
    at_most_one,
    exactly_one,
    implies,
    ite,
    ite_bool,
    sum_of,
)

BOOLS = tuple(Bool.var(f"fold.b{i}") for i in range(4))
INTS = tuple(Int.var(f"fold.x{i}") for i in range(3))


@dataclass(frozen=True)
class Values:
    """Values of the unknowns."""

    bools: tuple[bool, ...]
    ints: tuple[int, ...]


@dataclass(frozen=True)
class Recipe:
    """A term as two things made from the same recipe: the z3api term, and its value in
    Python for given values of the unknowns."""

    term: Callable[[], Bool | Int]
    value: Callable[[Values], bool | int]
    text: str

    def __repr__(self) -> str:
        return self.text


def _bool_leaf() -> st.SearchStrategy[Recipe]:
    constant = st.booleans().map(
        lambda v: Recipe(lambda: Bool.const(v), lambda _: v, f"const({v})")
    )
    unknown = st.integers(0, len(BOOLS) - 1).map(
        lambda i: Recipe(lambda: BOOLS[i], lambda vs: vs.bools[i], f"b{i}")
    )
    return st.one_of(constant, unknown)


def _int_leaf() -> st.SearchStrategy[Recipe]:
    constant = st.integers(-3, 5).map(
        lambda v: Recipe(lambda: Int.const(v), lambda _: v, f"const({v})")
    )
    unknown = st.integers(0, len(INTS) - 1).map(
        lambda i: Recipe(lambda: INTS[i], lambda vs: vs.ints[i], f"x{i}")
    )
    return st.one_of(constant, unknown)


def _bools(children: st.SearchStrategy[tuple[Recipe, Recipe]]) -> st.SearchStrategy[Recipe]:
    """Boolean terms from boolean terms (``b``) and integer terms (``i``)."""

    def _and(b: Recipe, c: Recipe) -> Recipe:
        return Recipe(
            lambda: b.term() & c.term(),  # type: ignore[operator]
            lambda vs: bool(b.value(vs)) and bool(c.value(vs)),
            f"({b} & {c})",
        )

    def _or(b: Recipe, c: Recipe) -> Recipe:
        return Recipe(
            lambda: b.term() | c.term(),  # type: ignore[operator]
            lambda vs: bool(b.value(vs)) or bool(c.value(vs)),
            f"({b} | {c})",
        )

    def _not(b: Recipe, _: Recipe) -> Recipe:
        return Recipe(lambda: ~b.term(), lambda vs: not b.value(vs), f"~{b}")  # type: ignore[operator]

    def _eq(b: Recipe, c: Recipe) -> Recipe:
        return Recipe(
            lambda: b.term().eq(c.term()),  # type: ignore[arg-type]
            lambda vs: b.value(vs) == c.value(vs),
            f"{b}.eq({c})",
        )

    def _implies(b: Recipe, c: Recipe) -> Recipe:
        return Recipe(
            lambda: implies(b.term(), c.term()),  # type: ignore[arg-type]
            lambda vs: (not b.value(vs)) or bool(c.value(vs)),
            f"implies({b}, {c})",
        )

    return st.tuples(st.sampled_from((_and, _or, _not, _eq, _implies)), children).map(
        lambda fc: fc[0](*fc[1])
    )


def _compare(make: str) -> Callable[[Recipe, Recipe], Recipe]:
    ops: dict[str, Callable[[int, int], bool]] = {
        "<": lambda a, b: a < b,
        "<=": lambda a, b: a <= b,
        ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b,
        "eq": lambda a, b: a == b,
        "ne": lambda a, b: a != b,
    }

    def term(left: Int, right: Int) -> Bool:
        if make == "<":
            return left < right
        if make == "<=":
            return left <= right
        if make == ">":
            return left > right
        if make == ">=":
            return left >= right
        return left.eq(right) if make == "eq" else left.ne(right)

    def recipe(i: Recipe, j: Recipe) -> Recipe:
        return Recipe(
            lambda: term(i.term(), j.term()),  # type: ignore[arg-type]
            lambda vs: ops[make](int(i.value(vs)), int(j.value(vs))),
            f"({i} {make} {j})",
        )

    return recipe


def _ints(children: st.SearchStrategy[tuple[Recipe, Recipe]]) -> st.SearchStrategy[Recipe]:
    def _add(i: Recipe, j: Recipe) -> Recipe:
        return Recipe(
            lambda: i.term() + j.term(),  # type: ignore[operator]
            lambda vs: int(i.value(vs)) + int(j.value(vs)),
            f"({i} + {j})",
        )

    def _sub(i: Recipe, j: Recipe) -> Recipe:
        return Recipe(
            lambda: i.term() - j.term(),  # type: ignore[operator]
            lambda vs: int(i.value(vs)) - int(j.value(vs)),
            f"({i} - {j})",
        )

    def _neg(i: Recipe, _: Recipe) -> Recipe:
        return Recipe(lambda: -i.term(), lambda vs: -int(i.value(vs)), f"-{i}")  # type: ignore[operator]

    def _mod(i: Recipe, _: Recipe) -> Recipe:
        return Recipe(lambda: i.term().mod(3), lambda vs: int(i.value(vs)) % 3, f"{i}.mod(3)")  # type: ignore[union-attr]

    return st.tuples(st.sampled_from((_add, _sub, _neg, _mod)), children).map(
        lambda fc: fc[0](*fc[1])
    )


def _count(bools: list[Recipe], ints: list[Recipe]) -> Recipe:
    """``sum_of`` over booleans and integers (a count of booleans where there are no
    integers)."""
    parts = [*bools, *ints]
    return Recipe(
        lambda: sum_of([p.term() for p in parts]),
        lambda vs: sum(int(p.value(vs)) for p in parts),
        f"sum_of({parts})",
    )


@st.composite
def _terms(draw: st.DrawFn, depth: int = 3) -> tuple[Recipe, Recipe]:
    """A boolean and an integer term."""
    if depth == 0:
        return draw(_bool_leaf()), draw(_int_leaf())
    below = _terms(depth - 1)
    b, i = draw(below)
    c, j = draw(below)
    count = _count(
        draw(
            st.lists(st.sampled_from([b, c, *[draw(_bool_leaf()) for _ in range(3)]]), max_size=5)
        ),
        draw(st.lists(st.sampled_from([i, j]), max_size=1)),
    )
    k = draw(st.integers(-1, 6))
    constant = Recipe(lambda: Int.const(k), lambda _: k, f"const({k})")
    left, right = draw(st.sampled_from([(count, constant), (constant, count), (i, j), (count, j)]))
    compared = _compare(draw(st.sampled_from(["<", "<=", ">", ">=", "eq", "ne"])))(left, right)
    new_b = draw(
        st.one_of(
            _bools(st.just((b, c))),
            st.just(compared),
            st.just(
                Recipe(
                    lambda: ite_bool(b.term(), c.term(), compared.term()),  # type: ignore[arg-type]
                    lambda vs: c.value(vs) if b.value(vs) else compared.value(vs),
                    f"ite_bool({b}, {c}, {compared})",
                )
            ),
            st.just(
                Recipe(
                    lambda: all_of([b.term(), c.term(), compared.term()]),  # type: ignore[list-item]
                    lambda vs: all((b.value(vs), c.value(vs), compared.value(vs))),
                    f"all_of({b}, {c}, {compared})",
                )
            ),
            st.just(
                Recipe(
                    lambda: any_of([b.term(), c.term(), compared.term()]),  # type: ignore[list-item]
                    lambda vs: any((b.value(vs), c.value(vs), compared.value(vs))),
                    f"any_of({b}, {c}, {compared})",
                )
            ),
        )
    )
    new_i = draw(
        st.one_of(
            _ints(st.just((i, j))),
            st.just(count),
            st.just(
                Recipe(
                    lambda: ite(b.term(), i.term(), j.term()),  # type: ignore[arg-type]
                    lambda vs: i.value(vs) if b.value(vs) else j.value(vs),
                    f"ite({b}, {i}, {j})",
                )
            ),
        )
    )
    return new_b, new_i


VALUES = st.builds(
    Values,
    st.tuples(*(st.booleans() for _ in BOOLS)),
    st.tuples(*(st.integers(-4, 6) for _ in INTS)),
)


def _z3_value(term: Bool | Int, values: Values) -> bool | int:
    """The term's value where the unknowns have ``values``, read from a Z3 model."""
    solver = Solver(cores=False)
    for unknown, v in zip(BOOLS, values.bools, strict=True):
        solver.add(unknown.eq(v))
    for number, n in zip(INTS, values.ints, strict=True):
        solver.add(number.eq(n))
    if isinstance(term, Bool):
        solver.add(term)
        return solver.check() is Verdict.SAT
    probe = Int.var("fold.probe")
    solver.add(probe.eq(term))
    assert solver.check() is Verdict.SAT
    return solver.model().int(probe)


@settings(max_examples=200, deadline=None)
@given(_terms(), VALUES)
def test_a_folded_term_has_the_value_its_recipe_gives(
    terms: tuple[Recipe, Recipe], values: Values
) -> None:
    for recipe in terms:
        term = recipe.term()
        expected = recipe.value(values)
        assert _z3_value(term, values) == expected, recipe
        if term.value is not None:  # folded to a constant: it is that constant everywhere
            assert term.value == expected, recipe


@settings(max_examples=80, deadline=None)
@given(_terms(), VALUES)
def test_a_compiled_term_with_counts_has_the_value_its_recipe_gives(
    terms: tuple[Recipe, Recipe], values: Values
) -> None:
    for recipe in terms:
        term = recipe.term()
        function = Compiled(term, [*BOOLS, *INTS])
        assert function([*values.bools, *values.ints]) == recipe.value(values), recipe


def test_constants_fold_away_as_terms_are_built() -> None:
    b = BOOLS[0]
    true, false = Bool.const(True), Bool.const(False)
    assert (b & true) is b
    assert (b | false) is b
    assert (b & false).value is False
    assert (b | true).value is True
    assert (~true).value is False
    assert true.eq(b) is b
    assert implies(false, b).value is True
    assert implies(true, b) is b
    assert all_of([true, b, true]) is b
    assert any_of([false, false]).value is False
    assert (Int.const(2) + 3).value == 5
    assert (Int.const(7).mod(3)).value == 1
    assert (Int.const(2) < 3).value is True
    assert (INTS[0] + 0) is INTS[0]
    assert ite(true, INTS[0], 4) is INTS[0]


def test_a_count_compared_with_a_constant_is_a_cardinality_constraint() -> None:
    assert "(_ at-most 1)" in at_most_one(BOOLS).ref.sexpr()
    assert "(_ at-least 2)" in (sum_of(BOOLS) >= 2).ref.sexpr()
    assert "(_ pbeq 2" in (sum_of(BOOLS).eq(2)).ref.sexpr()
    assert exactly_one([BOOLS[0]]) is BOOLS[0]
    assert (sum_of(BOOLS) > 4).value is False
    assert (sum_of(BOOLS) <= 4).value is True
    assert (sum_of([*BOOLS, Bool.const(True)]) >= 1).value is True


def test_a_count_is_a_sum_where_it_meets_an_unknown() -> None:
    solver = Solver()
    solver.add(INTS[0].eq(sum_of(BOOLS) + 1))
    solver.add(all_of(BOOLS[:3]) & ~BOOLS[3])
    assert solver.check() is Verdict.SAT
    assert solver.model().int(INTS[0]) == 4


def test_a_scratch_question_never_sees_another_s_assertions() -> None:
    x = Int.var("scratch.x")
    with Solver.scratch() as outer:
        outer.add(x.eq(1))
        with Solver.scratch() as inner:
            inner.add(x.eq(2))
            assert inner.check() is Verdict.SAT
        assert outer.check() is Verdict.SAT
        assert outer.model().int(x) == 1
    with Solver.scratch() as later:
        later.add(x.eq(3))
        assert later.check() is Verdict.SAT
        assert later.model().int(x) == 3


def test_a_scratch_solver_keeps_no_clause_ids() -> None:
    with Solver.scratch() as solver:
        solver.add(Int.var("scratch.y") < 0, clause="A-CLAUSE")
        assert solver.check() is Verdict.SAT
        with pytest.raises(TypeError, match="keeps no clause ids"):
            solver.core()
