"""The mutant catalogue: well formed, still fitting the engine's code, and its recorded run
(the one the trace and the Proofs page read) a run of this very catalogue on this very code;
a kill is a failing assertion of an ordinary test or a theorem that no longer holds."""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from regelverk.books import RULEBOOKS
from regelverk.cli import main
from regelverk.errors import UnknownClauseError
from regelverk.paths import source_root
from regelverk_proofs import mutate, theorems
from regelverk_proofs.mutate import (
    FAMILIES,
    RERECORD,
    Mutant,
    MutantError,
    catalogue,
    check_fits,
    code_hash,
    reach,
    recorded,
    score,
)

ROOT = source_root()
MUTANTS = catalogue()


def test_the_catalogue_has_a_hundred_mutants_across_the_four_rulebooks() -> None:
    assert len(MUTANTS) >= 100
    assert {b for m in MUTANTS for b in m.rulebooks} == set(RULEBOOKS)


@pytest.mark.skipif(ROOT is None, reason="needs the source checkout")
def test_every_mutant_still_fits_the_code_it_changes() -> None:
    assert ROOT is not None
    check_fits(MUTANTS, ROOT)


@pytest.mark.skipif(ROOT is None, reason="needs the source checkout")
def test_every_mutated_file_names_only_what_it_defines_or_imports(tmp_path: Path) -> None:
    """A mutant whose change calls a name its file does not have (a function that moved to
    another module, say) would be "killed" by the NameError, not by a test or a theorem: every
    mutated file must pass ruff's undefined-name checks (F821-F823)."""
    import subprocess
    import sys

    assert ROOT is not None
    files = []
    for mutant in MUTANTS:
        text = (ROOT / mutant.file).read_text(encoding="utf-8")
        mutated = tmp_path / f"{mutant.id}.py"
        mutated.write_text(text.replace(mutant.find, mutant.replace, 1), encoding="utf-8")
        files.append(str(mutated))
    ruff = [sys.executable, "-m", "ruff", "check", "--no-cache", "--isolated"]
    found = subprocess.run(
        [*ruff, "--select", "F821,F822,F823", "--output-format", "concise", *files],
        capture_output=True,
        text=True,
        check=False,
    )
    assert found.returncode == 0, found.stdout + found.stderr


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
    assert data is not None, f"no recorded run: '{RERECORD}'"
    rows = data["mutants"]
    assert isinstance(rows, list)
    assert [r["id"] for r in rows] == [m.id for m in MUTANTS], f"re-record with '{RERECORD}'"
    for row, mutant in zip(rows, MUTANTS, strict=True):
        assert row["clauses"] == list(mutant.clauses)
        assert row["what"] == mutant.what
    names = {t.name for t in theorems()}
    assert {t for r in rows for t in r["theorems"]} <= names
    assert data["score"] == score(rows).line()
    assert data["scores"] == score(rows).to_json()


@pytest.mark.skipif(ROOT is None, reason="the record belongs to the source checkout")
def test_the_recorded_run_ran_on_this_very_code() -> None:
    data = recorded()
    assert data is not None, f"no recorded run: '{RERECORD}'"
    assert data.get("code") == code_hash(), (
        "the engine, the proofs or the catalogue have changed since the mutation run was "
        f"recorded: run '{RERECORD}' from the checkout to record it again"
    )


def test_no_test_kill_in_the_record_is_a_proof_binding_test() -> None:
    data = recorded()
    assert data is not None
    for row in data["mutants"]:
        assert not [t for t in row["tests"] if t.startswith("tests/test_proofs_")], row["id"]
        assert not row.get("stillborn"), f"{row['id']} does not import: {row['stillborn']}"


def test_the_new_kinds_of_mutant_are_spread_over_the_four_rulebooks() -> None:
    books = Counter(b for m in MUTANTS for b in dict.fromkeys(m.rulebooks))
    assert min(books.values()) >= 10, books


# --- the catalogue file and the command line ---------------------------------------------


def test_a_catalogue_file_outside_the_package_is_read(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(_GOOD, encoding="utf-8")
    assert [m.id for m in catalogue(path)] == ["uno-trial"]
    with pytest.raises(MutantError, match="no catalogue file at"):
        catalogue(tmp_path / "missing.toml")
    (tmp_path / "bad.toml").write_text("[[mutant]\nid = ", encoding="utf-8")
    with pytest.raises(MutantError, match="not a TOML file"):
        catalogue(tmp_path / "bad.toml")
    (tmp_path / "empty.toml").write_text("title = 'x'\n", encoding="utf-8")
    with pytest.raises(MutantError, match=r"\[\[mutant\]\] tables only"):
        catalogue(tmp_path / "empty.toml")


def test_mutate_lists_a_catalogue_file_as_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(_GOOD, encoding="utf-8")
    assert main(["mutate", "--list", "--json", "--catalogue", str(path)]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed == [
        {
            "id": "uno-trial",
            "rulebooks": ["uno"],
            "clauses": ["UNO-WIN-GAME-500"],
            "file": "model/regelverk/uno/table.py",
            "what": "a trial",
        }
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [(None, "no catalogue file at"), ("[[mutant]\n", "is not a TOML file")],
)
def test_mutate_refuses_a_missing_or_malformed_catalogue_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | None, message: str
) -> None:
    path = tmp_path / "cat.toml"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    assert main(["mutate", "--list", "--catalogue", str(path)]) != 0
    err = capsys.readouterr().err.strip()
    assert message in err
    assert len(err.splitlines()) == 1


# --- what counts as a kill -----------------------------------------------------------------

_KINDS = """
import pytest

def test_an_assertion():
    assert 1 + 1 == 3

def test_a_raises_that_did_not():
    with pytest.raises(KeyError):
        pass

def test_a_crash():
    {}["missing"]

@pytest.fixture
def broken():
    raise RuntimeError("set-up")

def test_a_broken_setup(broken):
    pass

def test_a_pass():
    pass
"""


def _trial(tmp_path: Path) -> Path:
    (tmp_path / "_plugin").mkdir()
    (tmp_path / "_plugin" / "regelverk_mutant_report.py").write_text(mutate._PLUGIN, "utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_kinds.py").write_text(_KINDS, encoding="utf-8")
    (tmp_path / "tests" / "test_unborn.py").write_text("import no_such_module\n", "utf-8")
    return tmp_path


def test_a_kill_is_a_failing_assertion_and_a_crash_is_not(tmp_path: Path) -> None:
    root = _trial(tmp_path)
    files = ["tests/test_kinds.py", "tests/test_unborn.py"]
    kills, crashes, error = mutate._test(files, root, every_failure=True)
    assert error is None
    assert kills == (
        "tests/test_kinds.py::test_an_assertion",
        "tests/test_kinds.py::test_a_raises_that_did_not",
    )
    assert dict(crashes) == {
        "tests/test_kinds.py::test_a_crash": "call: KeyError",
        "tests/test_kinds.py::test_a_broken_setup": "setup: RuntimeError",
        "tests/test_unborn.py": "collection error",
    }


def test_a_mutant_run_stops_at_its_first_kill(tmp_path: Path) -> None:
    root = _trial(tmp_path)
    kills, _, error = mutate._test(["tests/test_kinds.py"], root)
    assert error is None
    assert kills == ("tests/test_kinds.py::test_an_assertion",)


def test_a_mutant_whose_code_does_not_import_is_stillborn(tmp_path: Path) -> None:
    (tmp_path / "model" / "regelverk").mkdir(parents=True)
    (tmp_path / "model" / "regelverk" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "model" / "regelverk" / "ok.py").write_text("X = 1\n", encoding="utf-8")
    (tmp_path / "model" / "regelverk" / "bad.py").write_text("X = Y\n", encoding="utf-8")
    assert mutate._imports("model/regelverk/ok.py", tmp_path) is None
    assert "NameError" in str(mutate._imports("model/regelverk/bad.py", tmp_path))


def test_stillborn_mutants_are_counted_apart() -> None:
    rows: list[dict[str, Any]] = [
        {"theorems": ["t"], "tests": ["a"], "stillborn": None},
        {"theorems": [], "tests": ["a"], "stillborn": None},
        {"theorems": [], "tests": [], "stillborn": None},
        {"theorems": [], "tests": [], "stillborn": "SyntaxError"},
    ]
    counted = score(rows)
    assert (counted.total, counted.stillborn) == (3, 1)
    assert (counted.by_proofs, counted.by_tests, counted.by_either) == (1, 2, 2)
    assert "1 stillborn (not counted)" in counted.line()
    assert "the proofs kill 1/3 (33%), the ordinary tests 2/3 (67%)" in counted.line()


# --- the code a record ran on --------------------------------------------------------------


def test_the_code_hash_follows_the_sources_and_the_catalogue_only(tmp_path: Path) -> None:
    engine = tmp_path / "model" / "regelverk"
    proofs = tmp_path / "proofs" / "regelverk_proofs"
    (proofs / "mutants").mkdir(parents=True)
    engine.mkdir(parents=True)
    (engine / "rules.py").write_text("LIMIT = 500\n", encoding="utf-8")
    (proofs / "thm.py").write_text("T = 1\n", encoding="utf-8")
    (proofs / "mutants" / "a.toml").write_text(_GOOD, encoding="utf-8")
    packages = (engine, proofs)
    first = code_hash(packages)
    assert first == code_hash(packages)
    (proofs / "mutants" / "killed.json").write_text("{}", encoding="utf-8")
    (engine / "notes.txt").write_text("not code", encoding="utf-8")
    assert code_hash(packages) == first
    (engine / "rules.py").write_text("LIMIT = 501\n", encoding="utf-8")
    assert code_hash(packages) != first
    (engine / "rules.py").write_text("LIMIT = 500\n", encoding="utf-8")
    (proofs / "mutants" / "a.toml").write_text(_GOOD.replace("a trial", "b"), encoding="utf-8")
    assert code_hash(packages) != first


# --- which tests and theorems a mutant runs ------------------------------------------------


@pytest.mark.skipif(ROOT is None, reason="needs the source checkout")
def test_a_family_mutant_runs_its_own_theorems_and_every_test_that_can_reach_it() -> None:
    assert ROOT is not None
    suite = theorems()
    uno = next(m for m in MUTANTS if m.file.startswith("model/regelverk/uno/"))
    names, files = reach(uno, ROOT, suite)
    assert set(names) == {t.name for t in suite if "uno" in t.rulebooks}
    assert "tests/test_cli.py" in files
    assert files[-1] == uno.file
    assert any(f.startswith("tests/test_uno_") for f in files)
    for f in files:
        assert not f.startswith("tests/test_proofs_"), f
        assert not f.startswith(("tests/test_viggo_", "tests/test_vandatta_")) or (
            "uno" in (ROOT / f).read_text(encoding="utf-8")
        ), f
    shared = dataclasses.replace(uno, file="model/regelverk/cards.py")
    names, files = reach(shared, ROOT, suite)
    assert set(names) == {t.name for t in suite}
    assert "tests/test_viggo_rules.py" in files


def test_each_proof_module_reaches_only_its_own_family_engine() -> None:
    """What :func:`reach` rests on: a theorem of one family cannot run another family's engine,
    since its proof modules (under ``regelverk_proofs/<family>/``) import only their own
    family's package (and the shared proof modules none, nor the registry of games)."""
    folder = Path(mutate.__file__).resolve().parent

    def owner(path: Path) -> str | None:
        first = path.relative_to(folder).parts[0]
        return first if first in FAMILIES else None

    families = {book: family for family, books in FAMILIES.items() for book in books}
    modules = sorted(folder.rglob("*.py"))
    assert {owner(p) for p in modules} >= {"vandatta", "viggo", "uno", None}
    for path in modules:
        text = path.read_text(encoding="utf-8")
        named = {f for f in FAMILIES if f"regelverk.{f}" in text}
        own = owner(path)
        assert named <= ({own} if own else set()), (path.name, named)
        assert "regelverk.games" not in text, path.name
    for theorem in theorems():
        module = Path(inspect.getfile(theorem.check)).resolve()
        assert {families[b] for b in theorem.rulebooks} == {owner(module)}, theorem.name


# --- choosing a mutant's tests by the baseline's coverage -----------------------------------

_RULES = '''"""A module."""


def verdict(total):
    if total > 10:
        return "over"
    return (
        "under"
    )


def spare():
    return 0


def allowed(phase, strict, hand):
    if (
        phase == "play"
        and strict
        and hand > 0
    ):
        return False
    return True
'''

_RULE_TESTS = """
import subprocess, sys

from pkg.rules import allowed, verdict, spare


def test_over():
    assert verdict(11) == "over"


def test_under():
    assert verdict(3) == "under"


def test_spare():
    assert spare() == 0


def test_allowed_loosely():
    assert allowed("play", False, 1)


def test_allowed_strictly():
    assert not allowed("play", True, 1)


def test_elsewhere():
    done = subprocess.run([sys.executable, "-c", "pass"], check=True)
    assert done.returncode == 0
"""


def _coverage_trial(tmp_path: Path) -> tuple[mutate.Baseline, list[str]]:
    root = _trial(tmp_path)
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "rules.py").write_text(_RULES, encoding="utf-8")
    (root / "tests" / "test_rules.py").write_text(_RULE_TESTS, encoding="utf-8")
    found: dict[str, Any] = {}
    files = ["tests/test_rules.py"]
    _, _, error = mutate._test(
        files, root, every_failure=True, cover=["pkg/rules.py"], covered=found
    )
    assert error is None
    rows = found["files"]["pkg/rules.py"]
    cover = mutate.Coverage(
        file="pkg/rules.py",
        statements=tuple(sorted(rows["statements"])),
        lines=tuple(sorted((int(n), tuple(ts)) for n, ts in rows["lines"].items())),
    )
    return mutate.Baseline(covered=(cover,), spawners=tuple(found["spawners"])), files


def _rule_mutant(find: str, replace: str) -> Mutant:
    return Mutant(
        id="pkg-rule",
        rulebooks=("uno",),
        clauses=("UNO-WIN-GAME-500",),
        file="pkg/rules.py",
        find=find,
        replace=replace,
        what="a trial change",
    )


def test_a_mutant_runs_the_tests_that_executed_the_lines_it_changes(tmp_path: Path) -> None:
    """Only the tests that executed the changed statement on the unchanged code, and those that
    start other processes (whose lines the coverage does not see), can notice the change."""
    base, files = _coverage_trial(tmp_path)
    assert base.spawners == ("tests/test_rules.py::test_elsewhere",)
    over = _rule_mutant('        return "over"', '        return "under"')
    assert mutate.selected(over, _RULES, files, base) == [
        "tests/test_rules.py::test_over",
        "tests/test_rules.py::test_elsewhere",
    ]
    # a change inside a statement of several lines belongs to the statement it is part of
    inner = _rule_mutant('        "under"', '        "over"')
    assert mutate._span(_RULES, inner.find) == (8, 8)
    assert mutate.selected(inner, _RULES, files, base) == [
        "tests/test_rules.py::test_under",
        "tests/test_rules.py::test_elsewhere",
    ]
    # a change to the third line of a condition: the tracer reports that line as it runs, not
    # the statement's first line, and only the test that got so far can notice it
    third = _rule_mutant("        and hand > 0", "        and hand > 1")
    assert "tests/test_rules.py::test_allowed_strictly" in (
        mutate.selected(third, _RULES, files, base) or ()
    )
    # tests of other files are not chosen
    assert mutate.selected(over, _RULES, ["tests/test_other.py"], base) == []


def test_a_change_to_code_run_at_import_runs_every_test(tmp_path: Path) -> None:
    """A statement executed outside any test (a def line, a module constant) may decide what
    every test sees: the coverage cannot choose, and every test of the files runs."""
    base, files = _coverage_trial(tmp_path)
    header = _rule_mutant("def spare():", "def spare(x=1):")
    assert mutate.selected(header, _RULES, files, base) is None
    elsewhere = dataclasses.replace(header, file="pkg/other.py")
    assert mutate.selected(elsewhere, _RULES, files, base) is None


def test_every_test_of_the_built_site_is_left_out_of_a_mutant_s_run() -> None:
    """A test module that uses the built site (the fixture ``site`` of ``test_docs_site``)
    would build it again under every mutant: :data:`NOT_RUN` must name it."""
    from fnmatch import fnmatch

    from regelverk_proofs.mutate import NOT_RUN

    tests = Path(__file__).resolve().parent
    using = [
        f"tests/{path.name}"
        for path in sorted(tests.glob("test_*.py"))
        if re.search(r"^from test_docs_site import .*\bsite\b", path.read_text("utf-8"), re.M)
        or path.name == "test_docs_site.py"
    ]
    assert len(using) >= 4
    assert [u for u in using if not any(fnmatch(u, pattern) for pattern in NOT_RUN)] == []
