"""Mutation testing: does anything notice when a rule of the engine is changed?

The catalogue (``mutants/*.toml`` beside this module, or any catalogue file named with
``regelverk mutate --catalogue FILE``) lists *mutants*: single, meaningful changes to the
engine's rule code (an ace that no longer skips, a game that ends above 500), each citing the
clauses it breaks. :func:`run_mutant` copies the source checkout to a scratch folder, makes the
change there, and in fresh interpreters

1. imports the changed module: a mutant whose code no longer imports is *stillborn*, reported
   as such and counted neither as killed nor as surviving;
2. runs the theorems that can reach the changed code, bindings included (the same
   :func:`theorem.decide <regelverk_proofs.theorem.decide>` that ``regelverk prove`` runs), one
   at a time: a theorem *kills* the mutant when it no longer holds (a binding disagrees, or Z3
   finds a counterexample or no witness); a theorem that crashes is reported, not counted. Every
   theorem citing one of the mutant's clauses runs (the trace asks which of them kill it); the
   others run only until one kills it, since past that they can change no score and no status;
3. runs the *ordinary* tests that can reach the changed code, stopping at the first kill: of
   the test files that can reach it (below), the tests that executed a statement the change
   touches when the baseline ran them under coverage, and every test that starts another
   process (:func:`selected`; where the coverage cannot say, as for code run at import, every
   test of those files). The tests ``tests/test_proofs_*`` only rerun the bindings of step 2,
   so they are left out: the tests' score is independent of the proofs'. A test kills the
   mutant only by a failing assertion (an ``assert``, ``pytest.fail``, a ``pytest.raises`` that
   did not raise, a doctest whose output differs, a Hypothesis failure whose error is one of
   these); any other error in a test, in its set-up or in collecting it is a *crash*,
   reported and not counted.

Before the mutants, :func:`baseline` runs the same theorems and tests on the unchanged code: a
theorem or test that already fails there is left out of every mutant's run (and reported), so
that nothing is killed by a failure the mutant did not cause. The baseline's tests run under
coverage of the files the mutants change, test by test, which step 3 reads.

Which tests and theorems can reach a change (:func:`reach`): the engine of each game family lives
in its own package (``model/regelverk/uno/`` and so on). A change there is run against

* the theorems of the rulebooks that family serves (each proof module imports its own family's
  engine and no other, which a test checks), and
* every ordinary test file, except the family test files of another family
  (``tests/test_viggo_*.py`` for a UNO mutant) whose text never names the changed family's
  package or rulebooks: such a file builds its own family's games only, so it cannot execute the
  changed code. Files outside the families (the command line, the referee, conformance, fuzz,
  soak) always run.

A change outside the family packages runs every theorem and every ordinary test file. Nothing is
skipped that could execute the changed code, so the selection cannot miss a kill; it only saves
running other families' tests.

``regelverk mutate`` runs the catalogue and prints both scores; ``--record`` keeps the results
in ``mutants/killed.json`` together with :func:`code_hash` of the code they ran on. The trace
reads that record (a clause counts as proved only where a theorem that states it kills a mutant
of it, and as tested only where an ordinary test kills its mutants), and a test fails once the
code has changed since the record was made.

Each mutant names its change as a text to find (exactly once) and its replacement, so the
catalogue fails loudly when the code it mutates has moved on.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from regelverk.books import RULEBOOKS, families
from regelverk.errors import RegelverkError
from regelverk.paths import cached_json
from regelverk.registry import default_registry

__all__ = [
    "CATALOGUE",
    "FAMILIES",
    "RECORD",
    "RERECORD",
    "Baseline",
    "Coverage",
    "Mutant",
    "MutantError",
    "Outcome",
    "Score",
    "baseline",
    "catalogue",
    "check_fits",
    "code_hash",
    "reach",
    "recorded",
    "run_all",
    "run_mutant",
    "score",
    "selected",
    "stop_now",
]

CATALOGUE = Path(__file__).resolve().parent / "mutants"
"""The folder of the catalogue files (``*.toml``) and of the recorded results."""

RECORD = CATALOGUE / "killed.json"
"""The recorded results of the last full run (``regelverk mutate --record``)."""

RERECORD = "regelverk mutate --record"
"""The one command that runs the whole catalogue again and records it (from a checkout)."""

FAMILIES: dict[str, tuple[str, ...]] = {
    family: tuple(b.name for b in books) for family, books in families().items()
}
"""Each engine package under ``model/regelverk/`` and the rulebooks it serves (from their
descriptors, :func:`regelverk.books.families`)."""

NOT_RUN: tuple[str, ...] = (
    "tests/test_proofs_*.py",
    "tests/test_mutants.py",
    "tests/test_trace*.py",
    "tests/test_docs_site.py",
    "tests/test_search.py",
    "tests/test_editions.py",
    "tests/test_referee_page.py",
)
"""Test files a mutant's run leaves out: the proof-binding tests (scored as proofs, not as
tests), the tests of this record and of the trace that reads it (they would fail for every
mutant on the record's code hash, not on its rule), and the tests of the built rulebook (every
module using the site that ``test_docs_site.site`` builds: under a mutant each would build the
whole site, both editions, again)."""

_COPIED = ("model", "proofs", "spec", "tests", "examples", "bench", "docs", "pyproject.toml")
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)+$")
_KILLS = ("engine disagrees", "counterexample", "no witness")


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


def _catalogue_file(path: Path) -> list[Mutant]:
    """The mutants of one catalogue file, with a one-line error if it is missing or malformed."""
    if not path.is_file():
        raise MutantError(f"no catalogue file at {path}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise MutantError(f"{path.name} is not a TOML file: {error}") from None
    entries = data.get("mutant", [])
    if set(data) - {"mutant"} or not isinstance(entries, list) or not entries:
        raise MutantError(f"{path.name}: a catalogue file holds one or more [[mutant]] tables only")
    return [_mutant(raw, f"{path.name}, mutant {n}") for n, raw in enumerate(entries, 1)]


def catalogue(source: Path = CATALOGUE) -> tuple[Mutant, ...]:
    """Every mutant of the catalogue: of each ``*.toml`` file in the folder ``source``, or of
    the one file ``source``; ids unique."""
    if source.is_dir():
        files = sorted(source.glob("*.toml"))
    elif source.exists() or source.suffix:
        files = [source]
    else:
        raise MutantError(f"no catalogue file or folder at {source}")
    found = [m for path in files for m in _catalogue_file(path)]
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


def _hashed(folder: Path) -> Iterable[Path]:
    for path in folder.rglob("*"):
        parts = path.relative_to(folder).parts
        if "__pycache__" in parts or parts[:1] == ("_data",) or not path.is_file():
            continue
        if path.suffix == ".py" or (parts[:1] == ("mutants",) and path.suffix == ".toml"):
            yield path


def code_hash(packages: Sequence[Path] | None = None) -> str:
    """The code a mutation run ran on, as one SHA-256 digest.

    Over every ``.py`` file of the packages ``regelverk`` and ``regelverk_proofs`` (the
    checkout's ``model/regelverk`` and ``proofs/regelverk_proofs``, or the installed ones), and
    the catalogue files ``regelverk_proofs/mutants/*.toml``: in the order of their paths relative
    to the folder holding the package (``regelverk/uno/table.py``), each path, a NUL, the hex
    SHA-256 of the file's bytes and a newline are hashed. The record itself (``killed.json``),
    caches and the wheel's bundled data are not part of it.
    """
    if packages is None:
        import regelverk

        packages = (Path(regelverk.__file__).resolve().parent, CATALOGUE.parent)
    digest = hashlib.sha256()
    rows = sorted(
        (path.relative_to(package.parent).as_posix(), path)
        for package in packages
        for path in _hashed(package)
    )
    for name, path in rows:
        digest.update(f"{name}\0{hashlib.sha256(path.read_bytes()).hexdigest()}\n".encode())
    return digest.hexdigest()


def _family(mutant: Mutant) -> str | None:
    """The engine package the mutant changes, or ``None`` for code shared by every engine."""
    parts = Path(mutant.file).parts
    return parts[2] if len(parts) > 3 and parts[2] in FAMILIES else None


def _test_files(root: Path) -> list[str]:
    """The ordinary test files: every ``tests/test_*.py`` but those of :data:`NOT_RUN`."""
    left_out = {p for pattern in NOT_RUN for p in root.glob(pattern)}
    return [
        p.relative_to(root).as_posix()
        for p in sorted((root / "tests").glob("test_*.py"))
        if p not in left_out
    ]


def _names_family(text: str, family: str) -> bool:
    return f"regelverk.{family}" in text or any(f'"{b}"' in text for b in FAMILIES[family])


def reach(mutant: Mutant, root: Path, theorems: Iterable[Any]) -> tuple[list[str], list[str]]:
    """The theorems (names) and ordinary test files (relative paths) that can reach the code
    ``mutant`` changes, as the module's docstring argues; the changed module itself comes last
    among the files, so that its doctests run too."""
    family = _family(mutant)
    books = set(FAMILIES[family]) if family else set(RULEBOOKS)
    chosen = [t.name for t in theorems if set(t.rulebooks) & books]
    own: list[str] = []
    shared: list[str] = []
    for name in _test_files(root):
        owner = next((f for f in FAMILIES if name.startswith(f"tests/test_{f}_")), None)
        if owner is None:
            shared.append(name)
        elif family is None or owner == family:
            own.append(name)
        elif _names_family((root / name).read_text(encoding="utf-8"), family):
            shared.append(name)
    return chosen, [*own, *shared, mutant.file]


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    """What running one mutant found."""

    mutant: Mutant
    stillborn: str | None
    """Why the changed code does not even import, or ``None``: a stillborn mutant runs nothing
    further and is neither killed nor surviving."""
    theorems: tuple[str, ...]
    """The theorems that no longer hold under the mutant."""
    outcomes: tuple[tuple[str, str], ...]
    """Each of those theorems with the outcome it had (``engine disagrees``, ...)."""
    theorem_crashes: tuple[tuple[str, str], ...]
    """Theorems whose check raised an error under the mutant, with the error: not kills."""
    tests: tuple[str, ...]
    """The ordinary test that killed the mutant by a failing assertion (the run stops there),
    or none."""
    test_crashes: tuple[tuple[str, str], ...]
    """Tests (or test files, in collection) that failed by another error, with its type: not
    kills."""
    ran: tuple[int, int]
    """How many theorems and test files the mutant's run selected."""
    selected: int | None = None
    """How many tests of those files the baseline's coverage chose (:func:`selected`), or
    ``None`` where every test of them ran."""
    error: str | None
    """Why the run could not say (the prover or pytest did not report), or ``None``."""
    seconds: float

    @property
    def by_proofs(self) -> bool:
        """Whether a theorem no longer holds."""
        return bool(self.theorems)

    @property
    def by_tests(self) -> bool:
        """Whether an ordinary test fails by a failing assertion."""
        return bool(self.tests)

    def to_json(self) -> dict[str, Any]:
        """The outcome as JSON data, keyed by the mutant's id."""
        return {
            "id": self.mutant.id,
            "rulebooks": list(self.mutant.rulebooks),
            "clauses": list(self.mutant.clauses),
            "what": self.mutant.what,
            "file": self.mutant.file,
            "stillborn": self.stillborn,
            "theorems": list(self.theorems),
            "outcomes": dict(self.outcomes),
            "theorem_crashes": dict(self.theorem_crashes),
            "tests": list(self.tests),
            "test_crashes": dict(self.test_crashes),
            "ran": {
                "theorems": self.ran[0],
                "test_files": self.ran[1],
                "tests_selected": self.selected,
            },
            "error": self.error,
            "seconds": round(self.seconds, 1),
        }


_INSIDE = """
import json, sys, traceback
from regelverk_proofs import theorems
from regelverk_proofs.theorem import decide
every = [n for n in sys.argv[1].split(",") if n]
until = [n for n in sys.argv[2].split(",") if n]
by_name = {t.name: t for t in theorems()}
rows = []
for name in [*every, *until]:
    if name in until and any(r[1] in KILLS for r in rows):
        break
    try:
        r = decide(by_name[name])
        rows.append([name, r.finding.outcome.value, r.holds, None])
    except Exception as error:
        rows.append([name, None, False, f"{type(error).__name__}: {error}"[:300]])
print(json.dumps(rows))
""".replace("KILLS", repr(_KILLS))

_PLUGIN = '''
"""Reports each failing test of a mutant's run as a kill (a failing assertion) or a crash."""
import doctest, json, os
import pytest

_ROWS = {"kills": [], "crashes": [], "collected": 0}
_COVER = os.environ.get("REGELVERK_MUTANT_COVER")
_COV = None
_SPAWNERS = set()
_NOW = [""]
if _COVER:
    import multiprocessing.process
    import subprocess

    import coverage

    _COV = coverage.Coverage(
        data_file=None, include=_COVER.split(os.pathsep), config_file=False
    )
    _COV.start()

    def _spawning(original):
        def spawn(*args, **kwargs):
            _SPAWNERS.add(_NOW[0])
            return original(*args, **kwargs)

        return spawn

    subprocess.Popen._execute_child = _spawning(subprocess.Popen._execute_child)
    multiprocessing.process.BaseProcess.start = _spawning(
        multiprocessing.process.BaseProcess.start
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if _COV is None:
        yield
        return
    _NOW[0] = item.nodeid
    _COV.switch_context(item.nodeid)
    _clear_caches()
    yield
    _NOW[0] = ""
    _COV.switch_context("")


def _clear_caches():
    """Empty the engine's functools caches before each test of the coverage run, so that each
    test is seen executing what it would compute on its own, not what an earlier test left."""
    import sys

    for name, module in list(sys.modules.items()):
        if name.startswith("regelverk.") and module is not None:
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear) and getattr(value, "__module__", "") == name:
                    clear()


def _covered():
    _COV.stop()
    data = _COV.get_data()
    found = {}
    for path in data.measured_files():
        statements = _COV.analysis2(path)[1]
        lines = {str(n): sorted(c) for n, c in data.contexts_by_lineno(path).items()}
        found[path] = {"statements": statements, "lines": lines}
    return {"files": found, "spawners": sorted(_SPAWNERS - {""})}


def _assertion(error):
    if isinstance(error, (AssertionError, pytest.fail.Exception, doctest.DocTestFailure)):
        return True
    if isinstance(error, BaseExceptionGroup):
        return any(_assertion(e) for e in error.exceptions)
    return False


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    error = call.excinfo.value if call.excinfo is not None else None
    if call.when == "call" and _assertion(error):
        _ROWS["kills"].append(item.nodeid)
        if not os.environ.get("REGELVERK_MUTANT_ALL"):
            item.session.shouldstop = "an ordinary test kills the mutant"
    else:
        _ROWS["crashes"].append([item.nodeid, f"{call.when}: {type(error).__name__}"])


def pytest_collectreport(report):
    if report.failed:
        _ROWS["crashes"].append([report.nodeid, "collection error"])


def pytest_collection_finish(session):
    _ROWS["collected"] = len(session.items)


def pytest_sessionfinish(session, exitstatus):
    if _COV is not None:
        _ROWS["coverage"] = _covered()
    with open(os.environ["REGELVERK_MUTANT_REPORT"], "w", encoding="utf-8") as out:
        json.dump(_ROWS, out)
'''


def _environment(scratch: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(scratch / "model"), str(scratch / "proofs"), str(scratch / "_plugin")]
    )
    env.pop("REGELVERK_SPEC", None)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["CI"] = "true"  # Hypothesis's derandomized profile: the same run finds the same
    env["REGELVERK_MUTANT_REPORT"] = str(scratch / "_plugin" / "report.json")
    return env


class _Running:
    """The child processes and scratch folders of this run, so that Ctrl-C, which ends the
    process at once (:func:`stop_now`), leaves none of them behind."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.children: set[subprocess.Popen[str]] = set()
        self.folders: set[str] = set()
        self.stopping = False


_RUNNING = _Running()


def stop_now() -> None:
    """End every child process this run started (each with its own children: it leads its own
    process group) and remove every scratch folder, for a process about to end without its
    usual clean-up (Ctrl-C). A child started after this is ended as it starts."""
    with _RUNNING.lock:
        _RUNNING.stopping = True
        children, folders = tuple(_RUNNING.children), tuple(_RUNNING.folders)
    for child in children:
        _end(child)
    for child in children:
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=1)
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


def _end(child: subprocess.Popen[str]) -> None:
    """Kill ``child`` and its process group."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signal.SIGKILL)


@contextlib.contextmanager
def _scratch_folder(prefix: str) -> Iterator[Path]:
    """A temporary folder for a scratch copy, removed after the block (or by :func:`stop_now`)."""
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        with _RUNNING.lock:
            _RUNNING.folders.add(folder)
        try:
            yield Path(folder)
        finally:
            with _RUNNING.lock:
                _RUNNING.folders.discard(folder)


def _python(
    scratch: Path, *args: str, every_failure: bool = False, cover: Sequence[str] = ()
) -> subprocess.CompletedProcess[str]:
    env = _environment(scratch)
    if every_failure:
        env["REGELVERK_MUTANT_ALL"] = "1"  # the plugin goes on after a failing assertion
    if cover:
        env["REGELVERK_MUTANT_COVER"] = os.pathsep.join(cover)
    with subprocess.Popen(
        [sys.executable, *args],
        cwd=scratch,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, which stop_now ends whole
    ) as child:
        with _RUNNING.lock:
            _RUNNING.children.add(child)
            if _RUNNING.stopping:
                _end(child)
        try:
            out, err = child.communicate()
        finally:
            with _RUNNING.lock:
                _RUNNING.children.discard(child)
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


def _last_line(text: str) -> str:
    return (text.strip().splitlines() or ["no output"])[-1]


def _imports(module_file: str, scratch: Path) -> str | None:
    """Why the module at ``module_file`` does not import in ``scratch``, or ``None``."""
    module = ".".join(Path(module_file).with_suffix("").parts[1:])
    done = _python(scratch, "-c", f"import importlib; importlib.import_module({module!r})")
    return None if done.returncode == 0 else _last_line(done.stderr)


_Rows = tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...], str | None]


def _prove(names: Sequence[str], scratch: Path, until: Sequence[str] = ()) -> _Rows:
    """The theorems that fail (with their outcome), those that crash, and why the run could not
    say: every theorem of ``names``, then those of ``until`` up to the first that fails (or
    none of them, if one of ``names`` failed)."""
    if not names and not until:
        return (), (), None
    done = _python(scratch, "-c", _INSIDE, ",".join(names), ",".join(until))
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return (), (), f"the theorems could not be run: {_last_line(done.stderr)}"
    rows = json.loads(lines[-1])
    failing = tuple((n, o) for n, o, holds, crash in rows if crash is None and o in _KILLS)
    crashed = tuple((n, crash) for n, _o, _h, crash in rows if crash is not None)
    return failing, crashed, None


def _test(
    files: Sequence[str],
    scratch: Path,
    *,
    every_failure: bool = False,
    cover: Sequence[str] = (),
    covered: dict[str, Any] | None = None,
) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...], str | None]:
    """The test killing the mutant, the tests that crashed, and why pytest did not report.
    With ``cover`` (files relative to ``scratch``), the run measures which test executes which
    line of them and which tests start another process, into ``covered``."""
    report = scratch / "_plugin" / "report.json"
    report.unlink(missing_ok=True)
    done = _python(
        scratch,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:xdist",
        "-p",
        "no:cacheprovider",
        "-p",
        "regelverk_mutant_report",
        "--continue-on-collection-errors",
        "--no-header",
        *files,
        every_failure=every_failure,
        cover=[str(scratch / f) for f in cover],
    )
    if not report.is_file():
        return (), (), f"pytest did not report (exit {done.returncode}): {_last_line(done.stdout)}"
    rows = json.loads(report.read_text(encoding="utf-8"))
    crashes = tuple((str(n), str(why)) for n, why in rows["crashes"])
    if covered is not None and "coverage" in rows:
        found = rows["coverage"]
        covered["spawners"] = found["spawners"]
        covered["files"] = {
            Path(path).relative_to(scratch).as_posix(): lines
            for path, lines in found["files"].items()
        }
    return tuple(rows["kills"]), crashes, None


def _scratch_copy(root: Path, folder: Path) -> None:
    for name in _COPIED:
        source = root / name
        if source.is_dir():
            shutil.copytree(
                source,
                folder / name,
                ignore=shutil.ignore_patterns("__pycache__", "_build", ".hypothesis"),
            )
        elif source.is_file():
            shutil.copy2(source, folder / name)
    (folder / "_plugin").mkdir()
    (folder / "_plugin" / "regelverk_mutant_report.py").write_text(_PLUGIN, encoding="utf-8")


@dataclass(frozen=True, slots=True)
class Baseline:
    """The theorems and tests that fail on the unchanged code, left out of every mutant's run;
    and, for the selection of a mutant's tests (:func:`selected`), which tests execute each
    line of the files the mutants change and which tests start other processes."""

    theorems: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()
    test_files: tuple[str, ...] = ()
    covered: tuple[Coverage, ...] = ()
    spawners: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Coverage:
    """One file's coverage in the baseline: its statements (first lines) and, for each line
    executed, the tests that executed it (``""``: outside any test, at import or collection)."""

    file: str
    statements: tuple[int, ...]
    lines: tuple[tuple[int, tuple[str, ...]], ...]

    def tests_at(self, line: int) -> tuple[str, ...]:
        """The tests that executed ``line``."""
        return next((tests for at, tests in self.lines if at == line), ())


def selected(
    mutant: Mutant, source: str, files: Sequence[str], left_out: Baseline
) -> list[str] | None:
    """The tests of ``files`` that can notice ``mutant`` (``source``: the unchanged text of the
    file it changes), by the baseline's coverage: those that executed a statement the change
    touches, and those that start other processes (whose lines the coverage does not see).
    ``None`` where the coverage cannot say (none of the file, a change touching no statement it
    knows, or a touched statement that also ran outside any test, at import): then every test
    of ``files`` runs.

    The tests are deterministic (Hypothesis runs derandomized): a test that never executed the
    changed statements on the unchanged code runs the same under the mutant, and cannot kill
    it. Values cached across tests (``functools`` caches) are the one way round that; the
    coverage run empties the engine's caches before each test, so that it sees each test
    compute what it needs itself."""
    cover = next((c for c in left_out.covered if c.file == mutant.file), None)
    if cover is None or not cover.statements:
        return None
    first, last = _span(source, mutant.find)
    before = [n for n in cover.statements if n <= first]
    if not before:
        return None
    # every line from the start of the statement holding the change to the change's end: the
    # tracer reports the lines of a statement written over several lines as they run (the
    # operand on the third line of a condition under that line), not under its first line
    touched = range(before[-1], last + 1)
    tests: dict[str, None] = {}
    for line in touched:
        for test in cover.tests_at(line):
            if not test:
                return None
            tests[test] = None
    tests.update(dict.fromkeys(left_out.spawners))
    chosen = set(files)
    return [t for t in tests if t.partition("::")[0] in chosen]


def _span(source: str, find: str) -> tuple[int, int]:
    """The first and last line (from 1) of the one occurrence of ``find`` in ``source``."""
    start = source.count("\n", 0, source.index(find)) + 1
    return start, start + find.count("\n")


def _tree_hash(root: Path) -> str:
    """A digest of every file a scratch copy takes from ``root`` (paths and contents)."""
    digest = hashlib.sha256()
    for name in _COPIED:
        source = root / name
        files = sorted(source.rglob("*")) if source.is_dir() else [source]
        for path in files:
            parts = path.relative_to(root).parts
            if path.is_file() and not {"__pycache__", "_build", ".hypothesis"} & set(parts):
                digest.update(path.relative_to(root).as_posix().encode() + b"\0")
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def baseline(
    root: Path, theorem_names: Sequence[str], *, tests: bool = True, modules: Sequence[str] = ()
) -> Baseline:
    """Run ``theorem_names``, every ordinary test file and the doctests of ``modules`` (the
    files the mutants change, whose doctests their runs include) on an unchanged scratch copy of
    ``root``: what fails there is not a mutant's doing. A test file that crashes in collection
    is left out whole. The answer is kept in the cache (:func:`regelverk.paths.cached_json`)
    under a digest of every file copied, the theorems and ``tests``: the same files give the
    same baseline (Hypothesis runs derandomized)."""
    key = hashlib.sha256(
        f"{_BASELINE_FORMAT}\0{_tree_hash(root)}\0{','.join(theorem_names)}\0{tests}\0"
        f"{','.join(modules)}".encode()
    ).hexdigest()[:32]
    rows = cached_json(
        f"mutate-baseline-{key}.json",
        lambda: dataclasses.asdict(_baseline(root, theorem_names, tests=tests, modules=modules)),
        dict,
    )
    return _baseline_from(rows)


_BASELINE_FORMAT = 3
"""The form of a cached baseline (2: with the tests' coverage; 3: the cache file holds its name
beside the value)."""


def _baseline_from(rows: dict[str, Any]) -> Baseline:
    covered = tuple(
        Coverage(
            file=str(c["file"]),
            statements=tuple(int(n) for n in c["statements"]),
            lines=tuple((int(n), tuple(str(t) for t in ts)) for n, ts in c["lines"]),
        )
        for c in rows.get("covered", [])
    )
    return Baseline(
        theorems=tuple(rows["theorems"]),
        tests=tuple(rows["tests"]),
        test_files=tuple(rows["test_files"]),
        covered=covered,
        spawners=tuple(rows.get("spawners", [])),
    )


def _baseline(
    root: Path, theorem_names: Sequence[str], *, tests: bool, modules: Sequence[str]
) -> Baseline:
    with _scratch_folder("regelverk-baseline-") as scratch:
        _scratch_copy(root, scratch)
        found: dict[str, Any] = {}
        with ThreadPoolExecutor(max_workers=2) as pool:
            proving = pool.submit(_prove, theorem_names, scratch)
            measured = sorted(set(modules))
            files = [*_test_files(scratch), *measured]
            testing = (
                pool.submit(
                    _test, files, scratch, every_failure=True, cover=measured, covered=found
                )
                if tests
                else None
            )
            failing, crashed, error = proving.result()
            kills, crashes, test_error = testing.result() if testing else ((), (), None)
    if error is not None or test_error is not None:
        raise MutantError(f"the unchanged code: {error or test_error}")
    failed = [*kills, *(n for n, why in crashes if why != "collection error")]
    broken_files = [n for n, why in crashes if why == "collection error"]
    covered = tuple(
        Coverage(
            file=file,
            statements=tuple(sorted(rows["statements"])),
            lines=tuple(sorted((int(n), tuple(ts)) for n, ts in rows["lines"].items())),
        )
        for file, rows in sorted(found.get("files", {}).items())
    )
    return Baseline(
        theorems=tuple(sorted({n for n, _ in failing} | {n for n, _ in crashed})),
        tests=tuple(dict.fromkeys(failed)),
        test_files=tuple(broken_files),
        covered=covered,
        spawners=tuple(found.get("spawners", ())),
    )


def run_mutant(
    mutant: Mutant,
    root: Path,
    *,
    theorems: Iterable[Any] = (),
    tests: bool = True,
    left_out: Baseline = Baseline(),
) -> Outcome:
    """Apply ``mutant`` to a scratch copy of the checkout at ``root``; if it imports, run the
    theorems (of ``theorems``) and ordinary tests that can reach it (:func:`reach`), leaving
    out what fails on the unchanged code (``left_out``)."""
    start = time.perf_counter()
    with _scratch_folder("regelverk-mutant-") as scratch:
        _scratch_copy(root, scratch)
        suite = list(theorems)
        names, files = reach(mutant, scratch, suite)
        names = [n for n in names if n not in left_out.theorems]
        citing = {t.name for t in suite if set(t.clauses) & set(mutant.clauses)}
        every = [n for n in names if n in citing]
        until = [n for n in names if n not in citing]
        files = [f for f in files if f not in left_out.test_files] if tests else []
        source = (scratch / mutant.file).read_text(encoding="utf-8")
        chosen = selected(mutant, source, files, left_out) if files else None
        run = files if chosen is None else chosen
        mutant.apply_to(scratch)
        stillborn = _imports(mutant.file, scratch)
        failing: tuple[tuple[str, str], ...] = ()
        crashed: tuple[tuple[str, str], ...] = ()
        kills: tuple[str, ...] = ()
        crashes: tuple[tuple[str, str], ...] = ()
        error = None
        if stillborn is None:
            failing, crashed, error = _prove(every, scratch, until)
            if run:
                deselect = [a for t in left_out.tests for a in ("--deselect", t)]
                kills, crashes, test_error = _test([*deselect, *run], scratch)
                error = error or test_error
    return Outcome(
        mutant=mutant,
        stillborn=stillborn,
        theorems=tuple(name for name, _ in failing),
        outcomes=failing,
        theorem_crashes=crashed,
        tests=kills,
        test_crashes=crashes,
        ran=(len(names), len(files)),
        selected=None if chosen is None else len(chosen),
        error=error,
        seconds=time.perf_counter() - start,
    )


def run_all(
    mutants: Sequence[Mutant],
    root: Path,
    *,
    jobs: int,
    theorems: Sequence[Any] = (),
    tests: bool = True,
    left_out: Baseline = Baseline(),
    report: Callable[[Outcome], None] = lambda _: None,
) -> tuple[Outcome, ...]:
    """Run ``mutants`` ``jobs`` at a time, calling ``report`` as each one finishes; the
    outcomes come back in catalogue order."""
    check_fits(mutants, root)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [
            pool.submit(run_mutant, m, root, theorems=theorems, tests=tests, left_out=left_out)
            for m in mutants
        ]
        done = []
        for future in futures:
            outcome = future.result()
            report(outcome)
            done.append(outcome)
    return tuple(done)


@dataclass(frozen=True, slots=True)
class Score:
    """How many mutants the proofs, the ordinary tests, and both together kill, out of the
    mutants that import (``total``); stillborn mutants are counted apart."""

    total: int
    by_proofs: int
    by_tests: int
    by_either: int
    stillborn: int = 0

    def share(self, n: int) -> str:
        """``n`` out of the total, with its percentage."""
        return f"{n}/{self.total} ({100 * n / self.total:.0f}%)" if self.total else "0/0"

    def line(self) -> str:
        """The score in one line."""
        born = f", {self.stillborn} stillborn (not counted)" if self.stillborn else ""
        return (
            f"{self.total} mutant{'' if self.total == 1 else 's'}{born}: the proofs kill "
            f"{self.share(self.by_proofs)}, the ordinary tests {self.share(self.by_tests)}, "
            f"together {self.share(self.by_either)}"
        )

    def to_json(self) -> dict[str, int]:
        """The counts as JSON data."""
        return {
            "mutants": self.total,
            "stillborn": self.stillborn,
            "killed_by_proofs": self.by_proofs,
            "killed_by_tests": self.by_tests,
            "killed_by_either": self.by_either,
        }


def score(outcomes: Iterable[dict[str, Any]]) -> Score:
    """The score of outcomes in their JSON form (as :meth:`Outcome.to_json` writes them)."""
    rows = list(outcomes)
    born = [r for r in rows if not r.get("stillborn")]
    return Score(
        total=len(born),
        by_proofs=sum(1 for r in born if r["theorems"]),
        by_tests=sum(1 for r in born if r["tests"]),
        by_either=sum(1 for r in born if r["theorems"] or r["tests"]),
        stillborn=len(rows) - len(born),
    )


def recorded(path: Path = RECORD) -> dict[str, Any] | None:
    """The recorded results of the last full run, or ``None`` if there are none."""
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise MutantError(f"{path.name} is not a results object")
    return data
