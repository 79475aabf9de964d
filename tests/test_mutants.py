"""The mutant catalogue: well formed, still fitting the engine's code, and its recorded run
(the one the trace and the Proofs page read) a run of this very catalogue."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from regelverk.errors import UnknownClauseError
from regelverk.paths import source_root
from regelverk_proofs import theorems
from regelverk_proofs.mutate import (
    FAMILY_TESTS,
    Mutant,
    MutantError,
    catalogue,
    check_fits,
    recorded,
    score,
)

ROOT = source_root()
MUTANTS = catalogue()


def test_the_catalogue_has_forty_mutants_across_the_four_rulebooks() -> None:
    assert len(MUTANTS) >= 40
    assert {b for m in MUTANTS for b in m.rulebooks} == set(FAMILY_TESTS)


@pytest.mark.skipif(ROOT is None, reason="needs the source checkout")
def test_every_mutant_still_fits_the_code_it_changes() -> None:
    assert ROOT is not None
    check_fits(MUTANTS, ROOT)


def test_a_mutant_that_no_longer_fits_is_refused(tmp_path: Path) -> None:
    (tmp_path / "model" / "regelverk").mkdir(parents=True)
    (tmp_path / "model" / "regelverk" / "rules.py").write_text("LIMIT = 500\n", encoding="utf-8")
    mutant = Mutant(
        id="uno-trial",
        rulebooks=("uno",),
        clauses=("UNO-WIN-GAME-500",),
        file="model/regelverk/rules.py",
        find="LIMIT = 501",
        replace="LIMIT = 502",
        what="a trial",
    )
    with pytest.raises(MutantError, match="occurs 0 times"):
        check_fits([mutant], tmp_path)
    broken = dataclasses.replace(mutant, find="LIMIT = 500", replace="LIMIT = (")
    with pytest.raises(MutantError, match="not valid Python"):
        broken.apply_to(tmp_path)
    fine = dataclasses.replace(mutant, find="LIMIT = 500", replace="LIMIT = 501")
    fine.apply_to(tmp_path)
    assert "LIMIT = 501" in (tmp_path / "model/regelverk/rules.py").read_text(encoding="utf-8")


_GOOD = """
[[mutant]]
id = "uno-trial"
rulebooks = ["uno"]
clauses = ["UNO-WIN-GAME-500"]
file = "model/regelverk/uno/table.py"
find = "a"
replace = "b"
what = "a trial"
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("what = ", "wat = "), "unknown field"),
        (('id = "uno-trial"', 'id = "Uno Trial"'), "lowercase words"),
        (('["uno"]', '["unox"]'), "no rulebook"),
        (('file = "model/', 'file = "tests/'), "engine code"),
        (('replace = "b"', 'replace = "a"'), "changes nothing"),
        (('clauses = ["UNO-WIN-GAME-500"]', "clauses = []"), "non-empty list"),
    ],
)
def test_a_malformed_catalogue_entry_is_refused(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    (tmp_path / "bad.toml").write_text(_GOOD.replace(*change), encoding="utf-8")
    with pytest.raises(MutantError, match=message):
        catalogue(tmp_path)


def test_a_mutant_citing_an_unknown_clause_is_refused(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text(_GOOD.replace("GAME-500", "GAME-501"), encoding="utf-8")
    with pytest.raises(UnknownClauseError):
        catalogue(tmp_path)


def test_ids_are_unique_across_catalogue_files(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(_GOOD, encoding="utf-8")
    (tmp_path / "b.toml").write_text(_GOOD, encoding="utf-8")
    with pytest.raises(MutantError, match="used twice"):
        catalogue(tmp_path)


def test_the_recorded_run_is_a_run_of_this_catalogue() -> None:
    data = recorded()
    assert data is not None, "no recorded run: 'regelverk mutate --record'"
    rows = data["mutants"]
    assert isinstance(rows, list)
    assert [r["id"] for r in rows] == [m.id for m in MUTANTS]
    for row, mutant in zip(rows, MUTANTS, strict=True):
        assert row["clauses"] == list(mutant.clauses)
        assert row["what"] == mutant.what
    names = {t.name for t in theorems()}
    assert {t for r in rows for t in r["theorems"]} <= names
    assert data["score"] == score(rows).line()
