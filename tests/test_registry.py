"""The clause registry: the shipped spec is complete and well formed, and bad specs are refused."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from regelverk.books import RULEBOOKS
from regelverk.errors import SpecError, UnknownClauseError, UnknownRulebookError
from regelverk.paths import spec_dir
from regelverk.registry import TAGS, Clause, default_registry, load
from regelverk.source import shared_runs

REGISTRY = default_registry()


def test_every_rulebook_is_loaded_in_order() -> None:
    assert tuple(b.id for b in REGISTRY.rulebooks) == RULEBOOKS


@pytest.mark.parametrize("rulebook", RULEBOOKS)
def test_no_paragraph_index_is_skipped(rulebook: str) -> None:
    """Every paragraph 1..N of every section is covered by a clause, note or example step."""
    book = REGISTRY.rulebook(rulebook)
    covered: set[tuple[int, int]] = set()
    for clause in book.clauses:
        covered.update((a.section, a.paragraph) for a in (clause.at, *clause.also_at) if a)
    covered.update((n.at.section, n.at.paragraph) for n in book.notes)
    for example in book.examples:
        covered.update((a.section, a.paragraph) for a in example.at)
        covered.update((s.at.section, s.at.paragraph) for s in example.steps)
    expected = {
        (section.number, index)
        for section in book.sections
        for index in range(1, len(section.paragraph_lines) + 1)
    }
    assert expected - covered == set()
    assert covered <= expected
    numbers = [s.number for s in book.sections]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))


@pytest.mark.parametrize("rulebook", RULEBOOKS)
def test_every_clause_is_well_formed(rulebook: str) -> None:
    book = REGISTRY.rulebook(rulebook)
    assert book.clauses
    for clause in book.clauses:
        assert clause.id.startswith(book.prefix + "-")
        assert clause.tag in TAGS
        assert len(clause.rule.split()) >= 4, clause.id
        if clause.origin == "official":
            assert clause.at is None and clause.official
        else:
            assert clause.at is not None and clause.at.seed == book.seed


def test_ids_are_unique_across_rulebooks() -> None:
    ids = [e.id for b in REGISTRY.rulebooks for e in b.entries()]
    assert len(ids) == len(set(ids))


def test_uno_official_rules_are_clauses_marked_as_such() -> None:
    official = [c for c in REGISTRY.clauses("uno") if c.origin == "official"]
    assert len(official) >= 10
    assert all(c.source.startswith("official UNO rules") for c in official)


def test_every_rulebook_has_an_ambiguity_register() -> None:
    for book in REGISTRY.rulebooks:
        assert len(book.ambiguities) >= 3, book.id
        for ambiguity in book.ambiguities:
            assert ambiguity.default in {r.name for r in ambiguity.readings}
            assert all(isinstance(REGISTRY.clause(c), Clause) for c in ambiguity.clauses)


def test_comparison_covers_the_points_the_two_vandatta_texts_differ_on() -> None:
    topics = " ".join(row.topic.lower() for row in REGISTRY.comparison)
    for point in ("eight", "ace", "draw", "call", "going out", "scor", "deck"):
        assert point in topics, point


def test_lookup_by_id_and_suggestions_for_a_typo() -> None:
    clause = REGISTRY.clauses("vvv8")[0]
    assert REGISTRY.clause(clause.id) is clause
    with pytest.raises(UnknownClauseError, match="did you mean") as caught:
        REGISTRY.clause(clause.id + "X")
    assert clause.id in caught.value.suggestions
    with pytest.raises(UnknownClauseError, match="not an id defined"):
        REGISTRY.clause("V8-NO-SUCH-RULE-AT-ALL-ANYWHERE")
    with pytest.raises(UnknownRulebookError, match="the rulebooks are vvv8"):
        REGISTRY.rulebook("poker")


def _copy_spec(tmp_path: Path) -> Path:
    target = tmp_path / "spec"
    shutil.copytree(spec_dir(), target)
    return target


def _spoil(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_duplicated_id_is_refused(tmp_path: Path) -> None:
    spec = _copy_spec(tmp_path)
    first, second = REGISTRY.clauses("viggo")[:2]
    _spoil(spec / "viggo.toml", f'id = "{second.id}"', f'id = "{first.id}"')
    with pytest.raises(SpecError, match=f"the id {first.id} is used twice"):
        load(spec)


def test_an_uncovered_paragraph_is_refused(tmp_path: Path) -> None:
    spec = _copy_spec(tmp_path)
    book = REGISTRY.rulebook("vandatta")
    section = book.sections[-1]
    lines = ", ".join(str(n) for n in section.paragraph_lines)
    extra = ", ".join(str(n) for n in (*section.paragraph_lines, 9999))
    prints = ", ".join(f'"{p}"' for p in section.fingerprints)
    _spoil(spec / "vandatta.toml", f"paragraph_lines = [{lines}]", f"paragraph_lines = [{extra}]")
    _spoil(spec / "vandatta.toml", f"fingerprints = [{prints}]", f'fingerprints = [{prints}, "x"]')
    last = len(section.paragraph_lines) + 1
    with pytest.raises(SpecError, match=rf"§{section.number} ¶{last} is covered by no clause"):
        load(spec)


def test_a_dangling_reference_and_a_bad_tag_are_refused(tmp_path: Path) -> None:
    spec = _copy_spec(tmp_path)
    clause = next(c for c in REGISTRY.clauses("uno") if not c.refs)
    _spoil(spec / "uno.toml", f'id = "{clause.id}"', f'id = "{clause.id}"\nrefs = ["UNO-GHOST"]')
    _spoil(spec / "uno.toml", f'tag = "{clause.tag}"', 'tag = "cheating"')
    with pytest.raises(SpecError) as caught:
        load(spec)
    problems = "\n".join(caught.value.problems)
    assert "'UNO-GHOST', which uno does not define" in problems
    assert "'tag' is 'cheating'" in problems


def test_a_locator_outside_its_section_is_refused(tmp_path: Path) -> None:
    spec = _copy_spec(tmp_path)
    clause = next(c for c in REGISTRY.clauses("vvv8") if c.at is not None)
    assert clause.at is not None
    old = f"section = {clause.at.section}, paragraph = {clause.at.paragraph} }}"
    _spoil(spec / "vvv8.toml", old, f"section = {clause.at.section}, paragraph = 999 }}")
    with pytest.raises(SpecError, match="has paragraphs 1 to"):
        load(spec)


def test_malformed_toml_is_reported_with_the_file(tmp_path: Path) -> None:
    spec = _copy_spec(tmp_path)
    (spec / "viggo.toml").write_text("[rulebook\n", encoding="utf-8")
    with pytest.raises(SpecError, match=r"viggo\.toml: cannot be read as TOML"):
        load(spec)


@pytest.mark.parametrize("name", ["comparison.toml", "glossary.toml"])
def test_malformed_table_files_are_reported_not_raised(tmp_path: Path, name: str) -> None:
    spec = _copy_spec(tmp_path)
    (spec / name).write_text("[[row]\n", encoding="utf-8")
    with pytest.raises(SpecError, match=f"{re.escape(name)}: cannot be read as TOML"):
        load(spec)


def test_the_own_words_check_catches_a_pasted_sentence() -> None:
    text = "alpha bravo charlie delta echo foxtrot golf hotel india juliett"
    assert shared_runs(text, "Quoted: bravo charlie delta echo foxtrot golf.") == (
        "bravo charlie delta echo foxtrot golf",
    )
    assert shared_runs(text, "bravo charlie delta echo foxtrot, then kilo.") == ()
    assert shared_runs("10 9 8 7 6 5 4", "cards 10 9 8 7 6 5") == ()
