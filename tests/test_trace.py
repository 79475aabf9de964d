"""The trace: links are computed from code, tests and proofs, and every cited id exists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from regelverk.errors import UnknownClauseError
from regelverk.marks import implements
from regelverk.registry import default_registry
from regelverk.trace import (
    Link,
    LinkKind,
    Status,
    backed_proofs,
    links_from_code,
    links_from_proofs,
    links_from_tests,
    missed_by_tests,
    stated_in_proofs,
    trace,
    weakened_in_proofs,
)

REGISTRY = default_registry()


def test_every_id_cited_by_code_tests_and_proofs_is_a_clause() -> None:
    links = (*links_from_code(), *links_from_tests(), *links_from_proofs())
    assert links, "the trace found no links at all"
    for link in links:
        REGISTRY.clause(link.clause)


def test_the_deck_builders_are_linked_to_their_clauses() -> None:
    targets = {(link.clause, link.target) for link in links_from_code()}
    assert ("UNO-DECK-108", "regelverk.cards.uno_deck") in targets


def test_an_unknown_citation_fails_the_trace() -> None:
    ghost = Link(clause="V8-GHOST-RULE", kind=LinkKind.CODE, target="x", path="x.py", line=1)
    with pytest.raises(UnknownClauseError, match="V8-GHOST-RULE"):
        trace(REGISTRY, [ghost])


def test_status_follows_the_links() -> None:
    clause = REGISTRY.clauses("viggo")[0]

    def link(kind: LinkKind) -> Link:
        return Link(clause=clause.id, kind=kind, target="t", path="p.py", line=1)

    def status(
        *kinds: LinkKind,
        backed: frozenset[tuple[str, str]] = frozenset(),
        missed: tuple[str, ...] = (),
    ) -> Status:
        items = trace(REGISTRY, [link(k) for k in kinds], backed, {clause.id: missed})
        return next(i.status for i in items if i.clause.id == clause.id)

    everything = (LinkKind.CODE, LinkKind.TEST, LinkKind.PROOF)
    assert status() is Status.PENDING
    assert status(LinkKind.CODE) is Status.IMPLEMENTED
    assert status(LinkKind.CODE, LinkKind.TEST) is Status.TESTED
    assert status(*everything) is Status.CITED_BY_PROOF
    assert status(*everything, backed=frozenset({(clause.id, "other")})) is Status.CITED_BY_PROOF
    assert status(*everything, backed=frozenset({(clause.id, "t")})) is Status.PROVED
    assert status(LinkKind.TEST) is Status.PENDING
    # a recorded mutant of the clause that no ordinary test kills: cited by tests is not enough
    assert status(LinkKind.CODE, LinkKind.TEST, missed=("m-1",)) is Status.IMPLEMENTED
    assert status(*everything, missed=("m-1",)) is Status.IMPLEMENTED
    proved = status(*everything, backed=frozenset({(clause.id, "t")}), missed=("m-1",))
    assert proved is Status.PROVED


def test_a_clause_is_proved_only_where_a_theorem_states_it_and_a_weakening_and_a_mutant_break_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "mutants").mkdir()
    (tmp_path / "thm.py").write_text(
        "T = Theorem(name='a.b', clauses=('X-1', 'X-2', 'X-4'), states=('X-1', 'X-2'),\n"
        "    weakenings=(Weakening('X-1', 'gone'), Weakening('X-2', 'gone'),\n"
        "                Weakening('X-4', 'gone')))\n",
        encoding="utf-8",
    )
    (tmp_path / "mutants" / "killed.json").write_text(
        json.dumps(
            {
                "mutants": [
                    {"id": "m-1", "clauses": ["X-1"], "theorems": ["a.b"], "tests": []},
                    {"id": "m-3", "clauses": ["X-3"], "theorems": ["a.b"], "tests": ["t::x"]},
                    {"id": "m-2", "clauses": ["X-2"], "theorems": [], "tests": ["t::y"]},
                    {"id": "m-4", "clauses": ["X-4"], "theorems": ["a.b"], "tests": ["t::z"]},
                ]
            }
        ),
        encoding="utf-8",
    )
    assert weakened_in_proofs(tmp_path) == {("X-1", "a.b"), ("X-2", "a.b"), ("X-4", "a.b")}
    assert stated_in_proofs(tmp_path) == {("X-1", "a.b"), ("X-2", "a.b")}
    # no mutant breaks the theorem; X-4: a mutant does, but the theorem does not state it
    assert backed_proofs(tmp_path) == {("X-1", "a.b")}


def test_only_an_ordinary_test_killing_by_assertion_makes_a_mutant_count_for_tested(
    tmp_path: Path,
) -> None:
    (tmp_path / "mutants").mkdir()
    rows = [
        {"id": "m-1", "clauses": ["X-1"], "theorems": ["a.b"], "tests": []},
        {"id": "m-2", "clauses": ["X-2"], "theorems": [], "tests": ["tests/test_x.py::t"]},
        {
            "id": "m-3",
            "clauses": ["X-2", "X-3"],
            "theorems": ["a.b"],
            "tests": ["tests/test_proofs_x.py::binding"],
        },
        {"id": "m-4", "clauses": ["X-5"], "theorems": [], "tests": [], "stillborn": "boom"},
    ]
    (tmp_path / "mutants" / "killed.json").write_text(json.dumps({"mutants": rows}), "utf-8")
    assert missed_by_tests(tmp_path) == {"X-1": ("m-1",), "X-2": ("m-3",), "X-3": ("m-3",)}


def test_not_modelled_clauses_carry_their_reason() -> None:
    items = trace(REGISTRY, [])
    for item in items:
        if item.clause.not_modelled is not None:
            assert item.status is Status.NOT_MODELLED
            assert item.reason == item.clause.not_modelled


def test_test_markers_are_read_from_functions_classes_and_modules(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text(
        "import pytest\n"
        "pytestmark = pytest.mark.clause('A-ONE')\n"
        "@pytest.mark.clause('A-TWO', 'A-THREE')\n"
        "def test_f():\n    pass\n"
        "@pytest.mark.clause('A-FOUR')\n"
        "class TestG:\n    def test_h(self):\n        pass\n"
        "def helper():\n    pass\n",
        encoding="utf-8",
    )
    found = {(link.clause, link.target.split("::")[-1]) for link in links_from_tests(tmp_path)}
    assert found == {
        ("A-ONE", "test_f"),
        ("A-TWO", "test_f"),
        ("A-THREE", "test_f"),
        ("A-ONE", "test_h"),
        ("A-FOUR", "test_h"),
    }


def test_proof_citations_are_read_from_theorem_fields(tmp_path: Path) -> None:
    (tmp_path / "theorems.py").write_text(
        "T = Theorem(name='conservation', clauses=('B-ONE', 'B-TWO'))\n", encoding="utf-8"
    )
    found = {(link.clause, link.target) for link in links_from_proofs(tmp_path)}
    assert found == {("B-ONE", "theorems.py::conservation"), ("B-TWO", "theorems.py::conservation")}


def test_implements_marks_without_changing_the_function() -> None:
    @implements("X-ONE")
    @implements("X-TWO")
    def rule() -> int:
        return 7

    assert rule() == 7
    assert rule.__regelverk_clauses__ == ("X-TWO", "X-ONE")  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="one or more clause ids"):
        implements()
