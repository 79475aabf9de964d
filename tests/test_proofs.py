"""The proof framework: the typed Z3 door, theorems and their checks, the question language,
and the ``prove`` and ``ask --can`` commands (with a stand-in theorem and scenario), plus the
shape of every real theorem and scenario."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import regelverk_proofs as proofs
from regelverk.books import RULEBOOKS
from regelverk.cli import main
from regelverk.referee import ask as ask_file
from regelverk.referee import load_question
from regelverk.registry import default_registry
from regelverk.trace import links_from_proofs
from regelverk_proofs import scenarios, theorems
from regelverk_proofs.binding import Binding, BindingError, Comparison
from regelverk_proofs.binding import check as check_binding
from regelverk_proofs.binding import clear as clear_bindings
from regelverk_proofs.query import (
    Fact,
    QueryError,
    Scenario,
    Situation,
    ask,
    choose,
    facts_of,
    parse,
)
from regelverk_proofs.theorem import (
    Finding,
    Kind,
    Outcome,
    Theorem,
    TheoremError,
    Weakening,
    decide,
    run,
)
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Model,
    Solver,
    Verdict,
    all_of,
    exactly_one,
    implies,
    ite,
    sum_of,
)

ROOT = Path(__file__).resolve().parent.parent

# A stand-in rulebook fragment: a hand of 0..7 cards; a player goes out with an empty hand,
# and never on an eight. Real clause ids are borrowed so that --weaken can name them.
HAND, EIGHT_RULE = "V8-DEAL-SEVEN-ROUNDS", "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT"


def _toy_rules(solver: Solver, weaken: frozenset[str]) -> tuple[Int, Int, Bool]:
    hand, last, out = Int.var("hand"), Int.var("last"), Bool.var("out")
    solver.add(hand.between(0, 7), clause=HAND)
    solver.add(last.between(2, 14))
    solver.add(out.eq(hand.eq(0)))
    if EIGHT_RULE not in weaken:
        solver.add(implies(out, last.ne(8)), clause=EIGHT_RULE)
    return hand, last, out


def _toy_check(weaken: frozenset[str]) -> Finding:
    solver = Solver(5_000)
    _hand, last, out = _toy_rules(solver, weaken)
    solver.add(out & last.eq(8))
    verdict = solver.check()
    if verdict is Verdict.UNSAT:
        return Finding(Outcome.PROVED, "")
    model = solver.model()
    return Finding(Outcome.COUNTEREXAMPLE, f"goes out on rank {model.int(last)}")


def _toy_engine_may_go_out(last: int) -> bool:
    """The stand-in engine: a player may lay his last card unless it is an eight."""
    return last != 8


def _toy_compare() -> Iterator[Comparison]:
    """Every last rank: the encoding lets a hand empty on it exactly where the engine does."""
    for last in range(2, 15):
        solver = Solver(5_000)
        hand, lst, _out = _toy_rules(solver, frozenset())
        solver.add(hand.eq(0) & lst.eq(last))
        allowed = _toy_engine_may_go_out(last)
        agrees = (solver.check() is Verdict.SAT) == allowed
        yield Comparison("allowed" if allowed else "refused", agrees, f"last rank {last}")


TOY_BINDING = Binding(
    name="toy.going-out",
    statement="the stand-in engine goes out exactly where the encoding says",
    kinds=("allowed", "refused"),
    compare=_toy_compare,
    claims=13,
)


TOY = Theorem(
    name="toy.never-out-on-eight",
    rulebooks=("vvv8",),
    title="nobody goes out on an eight (stand-in)",
    statement="A player with no cards left did not finish on an eight.",
    clauses=(HAND, EIGHT_RULE),
    check=_toy_check,
    weakenings=(Weakening(EIGHT_RULE, "the last card may be an eight"),),
    bindings=(TOY_BINDING,),
)


def _toy_build(solver: Solver) -> Situation:
    hand, last, out = _toy_rules(solver, frozenset())

    def render(model: Model) -> str:
        return f"hand {model.int(hand)}, last rank {model.int(last)}"

    return Situation(
        facts=(
            Fact("goes-out", "the player goes out", out),
            Fact("last-rank", "the rank of the last card", last),
            Fact("hand", "cards left in hand", hand),
        ),
        render=render,
    )


SCENARIO = Scenario(
    name="toy-going-out",
    rulebook="vvv8",
    description="a stand-in going out",
    build=_toy_build,
    constants={"eight": 8, "ace": 14},
)


class _ToyFamily:
    THEOREMS = (TOY,)
    SCENARIOS = (SCENARIO,)


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(proofs.SERVES, "toy", ("vvv8",))
    monkeypatch.setattr(
        proofs,
        "_modules",
        lambda rulebook: (("toy", _ToyFamily),) if rulebook in (None, "vvv8") else (),
    )


# --- z3api ----------------------------------------------------------------------------------


def test_terms_refuse_to_be_python_truth_values() -> None:
    x = Int.var("x")
    with pytest.raises(TypeError, match="Z3 term"):
        bool(x.eq(1))
    with pytest.raises(TypeError, match="Z3 term"):
        _ = x == 1
    with pytest.raises(TypeError, match="Z3 term"):
        _ = Bool.var("b") == Bool.var("c")


def test_the_core_names_only_tracked_clauses() -> None:
    x = Int.var("x")
    solver = Solver()
    solver.add(x >= 0)
    solver.add(x < 0, clause="A-CLAUSE")
    solver.add(x.eq(3), clause="B-CLAUSE")
    assert solver.check() is Verdict.UNSAT
    assert solver.core() == ("A-CLAUSE",)


def test_models_read_back_plain_values_and_booleans_count_as_one() -> None:
    flags = [Bool.var(f"f{i}") for i in range(4)]
    y = Int.var("y")
    solver = Solver()
    solver.add(exactly_one(flags))
    solver.add(flags[2])
    solver.add(y.eq(ite(flags[0], 10, 20) + sum_of(flags)))
    assert solver.check() is Verdict.SAT
    model = solver.model()
    assert [model.bool(f) for f in flags] == [False, False, True, False]
    assert model.int(y) == 21
    assert model.int(y.mod(4)) == 1


def test_an_empty_conjunction_is_true() -> None:
    solver = Solver()
    solver.add(~all_of([]))
    assert solver.check() is Verdict.UNSAT


# --- theorems -------------------------------------------------------------------------------


def test_the_stand_in_theorem_holds_and_fails_when_its_clause_is_weakened() -> None:
    (held,) = run([TOY])
    assert held.holds
    assert held.finding.outcome is Outcome.PROVED
    (weak,) = run([TOY], frozenset({EIGHT_RULE}))
    assert not weak.holds
    assert weak.finding.outcome is TOY.failure
    assert weak.finding.detail == "goes out on rank 8"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"clauses": ()}, "cites no clause"),
        ({"weakenings": ()}, "names no weakening"),
        ({"weakenings": (Weakening("UNO-DECK-108", "x"),)}, "does not cite"),
        ({"bindings": ()}, "names no binding"),
    ],
)
def test_a_malformed_theorem_is_refused(changes: dict[str, object], message: str) -> None:
    fields = {
        "name": "t",
        "rulebooks": ("vvv8",),
        "title": "t",
        "statement": "s",
        "clauses": (HAND,),
        "check": _toy_check,
        "weakenings": (Weakening(HAND, "h"),),
        "bindings": (TOY_BINDING,),
        **changes,
    }
    with pytest.raises(TheoremError, match=message):
        Theorem(**fields)  # type: ignore[arg-type]


@pytest.fixture
def fresh_bindings() -> Iterator[None]:
    clear_bindings()
    yield
    clear_bindings()


@pytest.mark.usefixtures("fresh_bindings")
def test_a_bound_theorem_is_checked_against_its_engine_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    result = decide(TOY)
    assert result.holds
    assert [r.agrees for r in result.bindings] == [True]
    assert dict(result.bindings[0].counts) == {"allowed": 12, "refused": 1}
    clear_bindings()
    # an engine that lets a player go out on an eight: the encoding no longer says what the
    # engine does, so the theorem fails whatever Z3 says about the encoding
    monkeypatch.setattr(sys.modules[__name__], "_toy_engine_may_go_out", lambda _last: True)
    result = decide(TOY)
    assert result.finding.outcome is Outcome.DISAGREES
    assert not result.holds
    assert "allowed: last rank 8" in result.finding.detail


@pytest.mark.usefixtures("fresh_bindings")
def test_a_binding_that_never_compares_a_kind_it_names_fails() -> None:
    narrow = Binding(
        name="toy.narrow",
        statement="compares only hands that cannot go out",
        kinds=("allowed", "refused"),
        compare=lambda: (c for c in _toy_compare() if c.kind == "allowed"),
        claims=2,
    )
    report = check_binding(narrow)
    assert not report.agrees
    assert report.missing == ("refused",)
    assert "never compared refused" in report.summary()


@pytest.mark.usefixtures("fresh_bindings")
def test_a_binding_refuses_a_kind_it_does_not_declare() -> None:
    sloppy = Binding(
        name="toy.sloppy",
        statement="declares one kind, compares two",
        kinds=("refused",),
        compare=_toy_compare,
        claims=1,
    )
    with pytest.raises(BindingError, match="does not declare"):
        check_binding(sloppy)


@pytest.mark.usefixtures("fresh_bindings")
def test_a_binding_that_compares_fewer_cases_than_it_claims_fails() -> None:
    boastful = Binding(
        name="toy.boastful",
        statement="claims one case more than the toy universe holds",
        kinds=("allowed", "refused"),
        compare=_toy_compare,
        claims=14,
    )
    report = check_binding(boastful)
    assert report.disagreement is None
    assert report.missing == ()
    assert report.short
    assert not report.agrees
    assert "compared only 13 of the 14 cases it claims" in report.summary()


def test_a_binding_must_claim_at_least_one_case_per_kind() -> None:
    with pytest.raises(BindingError, match="claims 1 cases, fewer than the 2 kinds"):
        Binding(
            name="toy.modest",
            statement="s",
            kinds=("allowed", "refused"),
            compare=_toy_compare,
            claims=1,
        )


def test_an_existential_theorem_holds_when_witnessed() -> None:
    theorem = Theorem(
        name="t",
        rulebooks=("uno",),
        title="t",
        statement="s",
        clauses=(HAND,),
        check=lambda weaken: Finding(Outcome.WITNESSED, "w"),
        weakenings=(Weakening(HAND, "h"),),
        kind=Kind.EXISTS,
        bindings=(TOY_BINDING,),
    )
    assert theorem.holds(Finding(Outcome.WITNESSED, "w"))
    assert not theorem.holds(Finding(Outcome.PROVED, ""))
    assert theorem.failure is Outcome.NO_WITNESS


# --- the question language ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("goes-out and", "ends too early"),
        ("(goes-out", "ends too early"),
        ("(goes-out hand", "not closed"),
        ("goes-out goes-out", "unexpected"),
        ("goes-out & hand", "cannot read"),
        ("and goes-out", "expected a fact"),
    ],
)
def test_a_badly_formed_question_says_where(text: str, message: str) -> None:
    with pytest.raises(QueryError, match=message):
        parse(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("goes-oot", "did you mean goes-out"),
        ("hand", "is a number"),
        ("goes-out = 1", "true or false"),
        ("last-rank = nine", "no value called 'nine'"),
    ],
)
def test_a_question_about_unknown_facts_or_values_is_refused(text: str, message: str) -> None:
    with pytest.raises(QueryError, match=message):
        ask(SCENARIO, text)


def test_a_possible_condition_gets_a_witness() -> None:
    answer = ask(SCENARIO, "goes-out and last-rank = ace")
    assert answer.possible is True
    assert answer.witness == "hand 0, last rank 14"


def test_the_least_model_takes_each_unknown_as_low_as_it_goes_in_name_order() -> None:
    """false before true, the least integer, the unknowns in the order of their names; the
    tracked clauses still hold, and the solver's assertions are as before afterwards."""
    x, y, a, b = Int.var("lm.x"), Int.var("lm.y"), Bool.var("lm.a"), Bool.var("lm.b")
    z = Int.var("lm.z")  # only in a tracked assertion
    solver = Solver()
    solver.add((x + y).eq(10), clause=HAND)
    solver.add(x >= 3)
    solver.add(y >= 2)
    solver.add(a | b, clause=EIGHT_RULE)
    solver.add((z >= 40) & (z <= 90), clause=HAND)
    assert solver.check() is Verdict.SAT
    least = solver.least_model()
    found = (least.int(x), least.int(y), least.bool(a), least.bool(b), least.int(z))
    assert found == (3, 7, False, True, 40)
    solver.add(x.eq(8))  # nothing pinned is left behind: x may still be 8
    assert solver.check() is Verdict.SAT


def test_a_witness_is_the_same_whatever_was_asked_before() -> None:
    """Z3's own model of a question depends on what the process built and solved before; the
    witness, read from the least model, does not: the same question, asked again after every
    other 'can' example, gets the same instance."""
    examples = sorted((ROOT / "examples" / "can").glob("*.json"))
    first = {path.name: ask_file(load_question(path)) for path in examples}
    again = {path.name: ask_file(load_question(path)) for path in reversed(examples)}
    assert first == again
    assert sum(answer["possible"] is True for answer in first.values()) >= 3


def test_an_impossible_condition_gets_the_clauses_that_forbid_it() -> None:
    answer = ask(SCENARIO, "goes-out and (last-rank = eight or hand > 7)")
    assert answer.possible is False
    assert answer.forbidding in {(EIGHT_RULE,), (HAND, EIGHT_RULE), (EIGHT_RULE, HAND)}
    assert EIGHT_RULE in answer.forbidding


def test_a_scenario_is_chosen_by_the_facts_a_question_names() -> None:
    assert choose([SCENARIO], "vvv8", "goes-out", None) is SCENARIO
    with pytest.raises(QueryError, match="no vvv8 scenario has all of the facts"):
        choose([SCENARIO], "vvv8", "official", None)
    with pytest.raises(QueryError, match="did you mean toy-going-out"):
        choose([SCENARIO], "vvv8", "goes-out", "toy-going-ot")
    with pytest.raises(QueryError, match="no scenarios"):
        choose([SCENARIO], "uno", "goes-out", None)


# --- the commands ---------------------------------------------------------------------------


@pytest.mark.usefixtures("toy")
def test_prove_prints_each_theorem_with_its_clauses_and_result(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["prove"]) == 0
    out = capsys.readouterr().out
    assert "toy.never-out-on-eight: proved (1 case," in out
    assert f"rests on: {HAND}, {EIGHT_RULE}" in out
    assert re.search(r"1 theorem: 1 hold, 0 do not \(1 proved\) in [\d.]+ s with z3", out)


@pytest.mark.usefixtures("toy")
def test_prove_fails_with_a_counterexample_when_a_clause_is_weakened(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["prove", "--json", "--weaken", EIGHT_RULE.lower()]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["weakened"] == [EIGHT_RULE]
    assert data["holds"] is False
    (theorem,) = data["theorems"]
    assert theorem["outcome"] == "counterexample"
    assert theorem["detail"] == "goes out on rank 8"
    assert theorem["clauses"] == [HAND, EIGHT_RULE]


@pytest.mark.usefixtures("toy")
def test_prove_refuses_unknown_theorems_and_clauses(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "--theorem", "toy.nope"]) == 2
    assert "no theorem called toy.nope" in capsys.readouterr().err
    assert main(["prove", "--weaken", "V8-NOPE"]) == 2
    assert main(["prove", "--list", "--rulebook", "uno"]) == 0
    assert capsys.readouterr().out == ""


@pytest.mark.usefixtures("toy")
def test_ask_can_answers_from_the_command_line_and_from_a_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["ask", "--rulebook", "vvv8", "--can", "goes-out and last-rank = eight"]) == 0
    out = capsys.readouterr().out
    assert "no; these clauses together forbid it:" in out
    assert f"  {EIGHT_RULE}: " in out
    assert main(["ask", "--facts", "vvv8"]) == 0
    assert "last-rank: the rank of the last card" in capsys.readouterr().out
    assert main(["ask", "--can", "goes-out"]) == 2
    assert "--can needs --rulebook" in capsys.readouterr().err
    assert main(["ask"]) == 2


@pytest.mark.usefixtures("toy")
def test_a_can_question_file_is_answered_and_checked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    question = tmp_path / "q.json"
    question.write_text(json.dumps({"rulebook": "vvv8", "can": "goes-out and hand = 0"}))
    assert main(["ask", "--json", str(question)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["answer"], data["scenario"]) == ("yes", "toy-going-out")
    question.write_text(json.dumps({"rulebook": "vvv8", "can": "goes-out", "options": {}}))
    assert main(["ask", str(question)]) == 2
    assert "a scenario fixes the readings it encodes" in capsys.readouterr().err


# --- every real theorem and scenario --------------------------------------------------------


def test_every_theorem_is_well_formed() -> None:
    registry = default_registry()
    found = theorems()
    for theorem in found:
        assert re.fullmatch(r"[a-z0-9]+\.[a-z0-9-]+", theorem.name), theorem.name
        assert set(theorem.rulebooks) <= set(RULEBOOKS), theorem.name
        assert theorem.statement.strip() and theorem.title.strip(), theorem.name
        for ident in theorem.clauses:
            registry.clause(ident)


def test_every_scenario_names_its_facts_plainly() -> None:
    for scenario in scenarios():
        assert scenario.rulebook in RULEBOOKS
        names = [f.name for f in facts_of(scenario)]
        assert len(names) == len(set(names)), scenario.name
        for name in names:
            assert re.fullmatch(r"[a-z][a-z0-9-]*", name), name


CAN_QUESTIONS = sorted((Path(__file__).parent.parent / "examples" / "can").glob("*.json"))


@pytest.mark.parametrize("path", CAN_QUESTIONS, ids=lambda p: p.stem)
def test_every_can_question_gets_its_expected_answer(path: Path) -> None:
    question = json.loads(path.read_text(encoding="utf-8"))
    expect = question["expect"]
    answer = ask_file(question)
    assert answer["answer"] == expect["answer"], answer
    assert set(expect.get("forbidding", ())) <= set(answer["forbidding"]), answer
    if expect["answer"] == "yes":
        assert answer["witness"]


def test_a_solver_without_cores_decides_the_same_but_keeps_no_clause_ids() -> None:
    x = Int.var("x")
    solver = Solver(cores=False)
    solver.add(x < 0, clause="A-CLAUSE")
    solver.add(x > 0, clause="B-CLAUSE")
    assert solver.check() is Verdict.UNSAT
    with pytest.raises(TypeError, match="cores=False"):
        solver.core()


def test_every_theorem_the_trace_sees_is_run_by_prove() -> None:
    """A theorem that cites clauses (and so marks them proved in the trace) but sits in a module
    missing from FAMILIES would never be checked: every cited theorem name must be one that
    ``regelverk prove`` runs."""
    cited = {link.target.rpartition("::")[2] for link in links_from_proofs()}
    run_by_prove = {t.name for t in theorems()}
    assert cited <= run_by_prove, sorted(cited - run_by_prove)
    assert run_by_prove <= cited, sorted(run_by_prove - cited)


def test_a_proof_module_may_hold_only_what_it_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(proofs.SERVES, "toy", ("uno",))
    monkeypatch.setattr(proofs, "_modules", lambda rulebook: (("toy", _ToyFamily),))
    with pytest.raises(TheoremError, match="about vvv8, which SERVES does not list"):
        proofs.theorems()


def test_each_rulebook_imports_the_proof_modules_serving_it() -> None:
    for book in RULEBOOKS:
        served = {n for n, books in proofs.SERVES.items() if book in books}
        assert {n for n, _ in proofs._modules(book)} == served
        assert proofs.theorems(book), book


# --- encodings take no rule from the engine ----------------------------------------------------

_NOT_ENCODINGS = frozenset(
    {"__init__", "binding", "theorem", "query", "z3api", "mutate", "viggo_eval", "commands"}
)
"""Modules of regelverk_proofs that hold no encoding: the framework, the mutation tool, and the
command-line commands the proofs add (regelverk.extensions)."""
_DATA_MODULES = ("regelverk.books", "regelverk.cards", "regelverk.errors", "regelverk.registry")
"""Engine modules an encoding may import: the rulebooks' descriptors, cards, errors, and the
spec's registry."""
_DATA_SUFFIXES = (".options", ".state")
"""Engine submodules of data types an encoding may import (options, states, actions)."""
_DATA_NAMES = frozenset({"Event", "Outcome", "Ruling", "IllegalActionError", "with_options"})
"""Names of ``regelverk.engine`` an encoding may import: data types, and building options."""
_ENGINE_SIDE = {("uno_score", "card_points")}
"""Engine functions an encoding holds on purpose as the engine's side of its theorem:
``uno_score.ending`` sets what the engine credits (card_points) against the official table
written from the clauses, and uno.legal-ending proves the two equal."""


def _engine_imports(path: Path) -> list[tuple[str, str]]:
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom) or node.module is None:
            continue
        module = node.module
        if not module.startswith("regelverk.") or module.startswith("regelverk_proofs"):
            continue
        if module in _DATA_MODULES or module.endswith(_DATA_SUFFIXES):
            continue
        for alias in node.names:
            if module == "regelverk.engine" and alias.name in _DATA_NAMES:
                continue
            if (path.stem, alias.name) not in _ENGINE_SIDE:
                found.append((module, alias.name))
    return found


def test_no_encoding_imports_the_engine_rule_it_is_checked_against() -> None:
    """Every module of regelverk_proofs that encodes rules (all but the framework and the
    binding modules, which hold the engine as the other side) imports from the engine only
    data types, options and the spec's registry: its tables come from spec/ or the text."""
    import regelverk_proofs

    root = Path(regelverk_proofs.__file__).parent
    taken = {
        path.stem: imports
        for path in sorted(root.glob("*.py"))
        if path.stem not in _NOT_ENCODINGS and not path.stem.endswith("_bind")
        for imports in [_engine_imports(path)]
        if imports
    }
    assert taken == {}


# --- option covers --------------------------------------------------------------------------


def test_a_pairwise_cover_holds_every_pair_of_values() -> None:
    """Every pair of values of two different options appears in some row."""
    from itertools import combinations

    from regelverk_proofs.cover import pairwise

    values: list[tuple[str, list[object]]] = [
        ("a", [0, 1, 2]),
        ("b", [False, True]),
        ("c", ["x", "y", "z"]),
        ("d", [False, True]),
    ]
    cover = pairwise(values, dict)
    assert cover.impossible == ()
    assert cover.pairs == 3 * 2 + 3 * 3 + 3 * 2 + 2 * 3 + 2 * 2 + 3 * 2
    seen = {
        ((p, row[p]), (q, row[q])) for row in cover.rows for p, q in combinations(sorted(row), 2)
    }
    for (p, ps), (q, qs) in combinations(values, 2):
        for x in ps:
            for y in qs:
                assert ((p, x), (q, y)) in seen
    assert len(cover.rows) < 3 * 3 * 2 * 2


def test_a_pairwise_cover_reports_a_pair_the_options_refuse() -> None:
    """A pair that every option set holding it is refused is named, not silently dropped."""
    from regelverk_proofs.cover import pairwise

    def build(chosen: dict[str, object]) -> dict[str, object]:
        if chosen["a"] == 1 and chosen["b"] is True:
            raise ValueError("a = 1 needs b = False")
        return chosen

    cover = pairwise([("a", [0, 1]), ("b", [False, True]), ("c", [0, 1])], build)
    assert cover.impossible == ("a=1, b=True",)
    assert all(not (row["a"] == 1 and row["b"] is True) for row in cover.rows)


def test_the_viggo_option_cover_holds_every_pair_of_readings() -> None:
    """The full bound of the Viggo step bindings plays option sets covering every pair of
    values of any two Viggo options, and no pair is refused by the options."""
    import dataclasses
    import enum
    from itertools import combinations

    from regelverk.viggo.options import ViggoOptions
    from regelverk_proofs.viggo.binding.rules import _option_cover

    rows = _option_cover()
    default = ViggoOptions()
    names = [
        f.name
        for f in dataclasses.fields(ViggoOptions)
        if isinstance(getattr(default, f.name), bool | enum.Enum)
    ]
    seen = {
        (a, getattr(row, a), b, getattr(row, b)) for row in rows for a, b in combinations(names, 2)
    }

    def choices(name: str) -> list[object]:
        now = getattr(default, name)
        if isinstance(now, bool):
            return [False, True]
        assert isinstance(now, enum.Enum)
        return [*type(now)]

    missing = [
        (a, x, b, y)
        for a, b in combinations(names, 2)
        for x in choices(a)
        for y in choices(b)
        if (a, x, b, y) not in seen
    ]
    assert missing == []
    assert len(rows) <= 24


def test_the_full_bound_is_chosen_by_one_environment_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """REGELVERK_BINDINGS selects the bindings' bound: ci (the default) or full; any other
    value is refused with a sentence naming it."""
    from regelverk_proofs.binding import SCALE_VARIABLE, full

    monkeypatch.delenv(SCALE_VARIABLE, raising=False)
    assert full() is False
    monkeypatch.setenv(SCALE_VARIABLE, "FULL")
    assert full() is True
    monkeypatch.setenv(SCALE_VARIABLE, "ci")
    assert full() is False
    monkeypatch.setenv(SCALE_VARIABLE, "everything")
    with pytest.raises(BindingError, match="REGELVERK_BINDINGS is 'everything'"):
        full()


def test_every_shipped_binding_claims_its_coverage() -> None:
    """Each binding of each theorem states how many cases it compares (at least one per kind
    it names), so that a run comparing fewer fails."""
    for theorem in proofs.theorems():
        for bound in theorem.bindings:
            assert bound.claims >= len(bound.kinds), bound.name
