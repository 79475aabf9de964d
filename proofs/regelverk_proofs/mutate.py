"""Mutation testing: does anything notice when a rule of the engine is changed?

The catalogue (``mutants/*.toml`` beside this module) lists *mutants*: single, meaningful
changes to the engine's rule code (an ace that no longer skips, a game that ends above 500), each
citing the clauses it breaks. :func:`run_mutant` copies the source checkout to a scratch folder,
makes the change there, and runs in a fresh interpreter

* the theorems of the mutant's rulebooks, bindings included (the same :func:`theorem.run
  <regelverk_proofs.theorem.run>` that ``regelverk prove`` runs), and
* the tests of the mutant's game family (``pytest -x``),

and says which theorems and which test kill it. A mutant *killed by the proofs* is one under which
a theorem of its rulebooks no longer holds. ``regelverk mutate`` runs the catalogue and prints the
score; ``--record`` keeps the results in ``mutants/killed.json``, which the trace reads (a
clause counts as proved only where a theorem that cites it is broken by one of its mutants) and
the rulebook's Proofs page shows.

Each mutant names its change as a text to find (exactly once) and its replacement, so the
catalogue fails loudly when the code it mutates has moved on.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from regelverk.errors import RegelverkError
from regelverk.registry import RULEBOOKS, default_registry

__all__ = [
    "CATALOGUE",
    "FAMILY_TESTS",
    "RECORD",
    "Mutant",
    "MutantError",
    "Outcome",
    "catalogue",
    "recorded",
    "run_mutant",
    "score",
]

CATALOGUE = Path(__file__).resolve().parent / "mutants"
"""The folder of the catalogue files (``*.toml``) and of the recorded results."""

RECORD = CATALOGUE / "killed.json"
"""The recorded results of the last full run (``regelverk mutate --record``)."""

FAMILY_TESTS: dict[str, tuple[str, ...]] = {
    "vvv8": ("tests/test_vandatta_*.py", "tests/test_proofs_vandatta_*.py"),
    "vandatta": ("tests/test_vandatta_*.py", "tests/test_proofs_vandatta_*.py"),
    "viggo": ("tests/test_viggo_*.py", "tests/test_proofs_viggo.py"),
    "uno": ("tests/test_uno_*.py", "tests/test_proofs_uno.py"),
}
"""The test files of each rulebook's game family, which a mutant of that rulebook runs."""

_COPIED = ("model", "proofs", "spec", "tests", "examples", "pyproject.toml")
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)+$")


class MutantError(RegelverkError):
    """A catalogue entry that is malformed or no longer applies to the code."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Mutant:
    """One change to the engine's rule code and the clauses it breaks."""

    id: str
    rulebooks: tuple[str, ...]
    clauses: tuple[str, ...]
    file: str
    find: str
    replace: str
    what: str

    def apply_to(self, root: Path) -> None:
        """Make the change in the checkout at ``root``; :class:`MutantError` if the text to
        find is not there exactly once, or the changed file is no longer Python."""
        path = root / self.file
        text = path.read_text(encoding="utf-8")
        found = text.count(self.find)
        if found != 1:
            raise MutantError(
                f"mutant {self.id}: the text to change occurs {found} times in {self.file}, "
                "not once: the catalogue entry no longer fits the code"
            )
        changed = text.replace(self.find, self.replace)
        try:
            compile(changed, str(path), "exec")
        except SyntaxError as error:
            raise MutantError(
                f"mutant {self.id}: the change is not valid Python: {error}"
            ) from None
        path.write_text(changed, encoding="utf-8")


def _strings(raw: dict[str, object], key: str, where: str) -> tuple[str, ...]:
    value = raw.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise MutantError(f"{where}: '{key}' must be a non-empty list of strings")
    return tuple(str(v) for v in value)


def _text(raw: dict[str, object], key: str, where: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value:
        raise MutantError(f"{where}: '{key}' must be a non-empty string")
    return value


def _mutant(raw: dict[str, object], where: str) -> Mutant:
    fields = {"id", "rulebooks", "clauses", "file", "find", "replace", "what"}
    stray = sorted(set(raw) - fields)
    if stray:
        raise MutantError(f"{where}: unknown field(s) {', '.join(stray)}")
    ident = _text(raw, "id", where)
    if not _ID.match(ident):
        raise MutantError(f"{where}: id {ident!r} is not lowercase words joined by '-'")
    where = f"{where} ({ident})"
    mutant = Mutant(
        id=ident,
        rulebooks=_strings(raw, "rulebooks", where),
        clauses=_strings(raw, "clauses", where),
        file=_text(raw, "file", where),
        find=_text(raw, "find", where),
        replace=_text(raw, "replace", where),
        what=_text(raw, "what", where),
    )
    for book in mutant.rulebooks:
        if book not in RULEBOOKS:
            raise MutantError(f"{where}: no rulebook {book!r}")
    registry = default_registry()
    for clause in mutant.clauses:
        registry.clause(clause)
    if not mutant.file.startswith("model/regelverk/") or not mutant.file.endswith(".py"):
        raise MutantError(f"{where}: a mutant changes engine code under model/regelverk/")
    if mutant.find == mutant.replace:
        raise MutantError(f"{where}: the change changes nothing")
    return mutant


def catalogue(folder: Path = CATALOGUE) -> tuple[Mutant, ...]:
    """Every mutant of the catalogue files in ``folder``, ids unique."""
    found: list[Mutant] = []
    for path in sorted(folder.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        entries = data.get("mutant", [])
        if set(data) - {"mutant"} or not isinstance(entries, list):
            raise MutantError(f"{path.name}: a catalogue file holds only [[mutant]] tables")
        found += [_mutant(raw, f"{path.name}, mutant {n}") for n, raw in enumerate(entries, 1)]
    ids = [m.id for m in found]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise MutantError(f"mutant ids used twice: {', '.join(twice)}")
    return tuple(found)


def check_fits(mutants: Iterable[Mutant], root: Path) -> None:
    """Check that every mutant still applies to the code at ``root`` (without changing it)."""
    for mutant in mutants:
        text = (root / mutant.file).read_text(encoding="utf-8")
        if text.count(mutant.find) != 1:
            raise MutantError(
                f"mutant {mutant.id}: the text to change occurs {text.count(mutant.find)} times "
                f"in {mutant.file}, not once"
            )


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    """What running one mutant found."""

    mutant: Mutant
    theorems: tuple[str, ...]
    """The theorems of its rulebooks that no longer hold under the mutant."""
    outcomes: tuple[tuple[str, str], ...]
    """Each of those theorems with the outcome it had (``engine disagrees``, ...)."""
    tests: tuple[str, ...]
    """The first failing test (pytest stops there), or none."""
    error: str | None
    """Why the run could not say (a crash of the prover run), or ``None``."""
    seconds: float

    @property
    def by_proofs(self) -> bool:
        """Whether a theorem no longer holds."""
        return bool(self.theorems)

    @property
    def by_tests(self) -> bool:
        """Whether a test fails."""
        return bool(self.tests)

    def to_json(self) -> dict[str, Any]:
        """The outcome as JSON data, keyed by the mutant's id."""
        return {
            "id": self.mutant.id,
            "rulebooks": list(self.mutant.rulebooks),
            "clauses": list(self.mutant.clauses),
            "what": self.mutant.what,
            "file": self.mutant.file,
            "theorems": list(self.theorems),
            "outcomes": dict(self.outcomes),
            "tests": list(self.tests),
            "error": self.error,
            "seconds": round(self.seconds, 1),
        }


_INSIDE = """
import json, sys
from regelverk_proofs import theorems
from regelverk_proofs.theorem import run
books = sys.argv[1].split(",")
chosen = [t for t in theorems() if set(t.rulebooks) & set(books)]
print(json.dumps([[r.theorem.name, r.finding.outcome.value, r.holds] for r in run(chosen)]))
"""


def _environment(scratch: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(scratch / "model"), str(scratch / "proofs")])
    env.pop("REGELVERK_SPEC", None)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["CI"] = "true"  # Hypothesis's derandomized profile: the same run finds the same
    return env


def _prove(mutant: Mutant, scratch: Path) -> tuple[tuple[tuple[str, str], ...], str | None]:
    done = subprocess.run(
        [sys.executable, "-c", _INSIDE, ",".join(mutant.rulebooks)],
        cwd=scratch,
        env=_environment(scratch),
        capture_output=True,
        text=True,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return (), f"the theorems could not be run: {tail}"
    rows = json.loads(lines[-1])
    return tuple((name, outcome) for name, outcome, holds in rows if not holds), None


def _test(mutant: Mutant, scratch: Path) -> tuple[str, ...]:
    files = sorted(
        {
            str(p.relative_to(scratch))
            for b in mutant.rulebooks
            for g in FAMILY_TESTS[b]
            for p in scratch.glob(g)
        }
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-x",
            "-q",
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
            "-rf",
            "--no-header",
            *files,
        ],
        cwd=scratch,
        env=_environment(scratch),
        capture_output=True,
        text=True,
        check=False,
    )
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", done.stdout, re.MULTILINE)
    if done.returncode != 0 and not failed:
        failed = [f"pytest exit {done.returncode}"]
    return tuple(dict.fromkeys(failed))


def run_mutant(mutant: Mutant, root: Path, *, tests: bool = True) -> Outcome:
    """Apply ``mutant`` to a scratch copy of the checkout at ``root`` and run the theorems of
    its rulebooks and (with ``tests``) its family's tests there."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="regelverk-mutant-") as folder:
        scratch = Path(folder)
        for name in _COPIED:
            source = root / name
            if source.is_dir():
                shutil.copytree(
                    source, scratch / name, ignore=shutil.ignore_patterns("__pycache__")
                )
            elif source.is_file():
                shutil.copy2(source, scratch / name)
        mutant.apply_to(scratch)
        failing, error = _prove(mutant, scratch)
        failed_tests = _test(mutant, scratch) if tests else ()
    return Outcome(
        mutant=mutant,
        theorems=tuple(name for name, _ in failing),
        outcomes=failing,
        tests=failed_tests,
        error=error,
        seconds=time.perf_counter() - start,
    )


def run_all(
    mutants: Sequence[Mutant],
    root: Path,
    *,
    jobs: int,
    tests: bool = True,
    report: Callable[[Outcome], None] = lambda _: None,
) -> tuple[Outcome, ...]:
    """Run ``mutants`` ``jobs`` at a time, calling ``report`` as each one finishes; the
    outcomes come back in catalogue order."""
    check_fits(mutants, root)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(run_mutant, m, root, tests=tests) for m in mutants]
        done = []
        for future in futures:
            outcome = future.result()
            report(outcome)
            done.append(outcome)
    return tuple(done)


@dataclass(frozen=True, slots=True)
class Score:
    """How many mutants the proofs, the tests, and both together kill."""

    total: int
    by_proofs: int
    by_tests: int
    by_either: int

    def line(self) -> str:
        """The score in one line."""

        def share(n: int) -> str:
            return f"{n}/{self.total} ({100 * n / self.total:.0f}%)" if self.total else "0/0"

        return (
            f"{self.total} mutant{'' if self.total == 1 else 's'}: the proofs kill "
            f"{share(self.by_proofs)}, the tests {share(self.by_tests)}, "
            f"together {share(self.by_either)}"
        )


def score(outcomes: Iterable[dict[str, Any]]) -> Score:
    """The score of outcomes in their JSON form (as :meth:`Outcome.to_json` writes them)."""
    rows = list(outcomes)
    return Score(
        total=len(rows),
        by_proofs=sum(1 for r in rows if r["theorems"]),
        by_tests=sum(1 for r in rows if r["tests"]),
        by_either=sum(1 for r in rows if r["theorems"] or r["tests"]),
    )


def recorded(path: Path = RECORD) -> dict[str, Any] | None:
    """The recorded results of the last full run, or ``None`` if there are none."""
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise MutantError(f"{path.name} is not a results object")
    return data
