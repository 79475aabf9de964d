"""The trace: which code implements each clause, which tests exercise it, which proofs cite it.

The trace is computed, never typed by hand:

* code cites clauses with the :func:`~regelverk.marks.implements` decorator, which marks the
  function or class; :func:`links_from_code` reads every module of the package (it parses
  them, it does not import them) and collects the marks;
* tests cite clauses with the marker ``@pytest.mark.clause("ID", ...)``;
  :func:`links_from_tests` reads the test files (it parses them, it does not run them);
* proofs cite clauses in the ``clauses=`` field of their theorems, which
  :func:`links_from_proofs` reads.

Each clause then has a status: ``not-modelled`` (with the spec's reason), ``proved``,
``cited-by-proof``, ``tested``, ``implemented``, or ``pending`` (nothing implements it yet: its
engine has not landed). ``proved`` is earned, not claimed: a theorem *states* the clause (its
``states=`` field: the statement says the clause's own property, not just something that rests
on it), the theorem names a weakening of the clause that must break it, *and* the recorded
mutation run (:func:`killed_by_mutants`) shows an engine mutant of the clause breaking that
theorem. A clause a theorem merely cites is ``cited-by-proof``. ``tested`` is earned too: a test
cites the clause and, where the catalogue holds mutants of the clause, an ordinary test (not a
proof-binding test) kills each of them by a failing assertion (:func:`missed_by_tests`); a
clause whose mutant the ordinary tests miss is only ``implemented`` (or, if a theorem proves
it, ``proved``, with the miss in its reason).
"""

from __future__ import annotations

import ast
import enum
import functools
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regelverk.paths import cached_json, data_dir, proofs_dir, source_root
from regelverk.records import record

if TYPE_CHECKING:
    from regelverk.registry import Clause, Registry

__all__ = [
    "ClauseTrace",
    "Link",
    "LinkKind",
    "Status",
    "backed_proofs",
    "cited_ids",
    "killed_by_mutants",
    "links_from_code",
    "links_from_proofs",
    "links_from_tests",
    "missed_by_tests",
    "stated_in_proofs",
    "trace",
    "trace_of",
    "weakened_in_proofs",
]


class LinkKind(enum.Enum):
    """What a link points at."""

    CODE = "code"
    """A function or class that implements the clause."""
    TEST = "test"
    """A test that exercises the clause."""
    PROOF = "proof"
    """A theorem that cites the clause."""


class Status(enum.Enum):
    """Where a clause stands."""

    PENDING = "pending"
    """Nothing implements the clause yet: its engine has not landed."""
    IMPLEMENTED = "implemented"
    """Code implements it, but no test cites it."""
    TESTED = "tested"
    """Code implements it, a test exercises it, and an ordinary test kills every recorded
    engine mutant of it."""
    CITED_BY_PROOF = "cited-by-proof"
    """Implemented, tested and cited by a theorem, but no theorem proves it: none states it with
    both a weakening of the clause and a recorded engine mutant of the clause that breaks it."""
    PROVED = "proved"
    """Implemented, cited by a test, and stated by a theorem that rests on it: weakening the
    clause in the encoding breaks the theorem, and so does an engine mutant of the clause (as
    recorded by ``regelverk mutate --record``)."""
    NOT_MODELLED = "not-modelled"
    """The spec says why the clause has no behaviour to model."""


@record
class Link:
    """One link from a clause to code, a test or a proof: its name and where it is."""

    clause: str
    kind: LinkKind
    target: str
    path: str
    line: int


@record
class ClauseTrace:
    """A clause with its status, the reason for it, and its links."""

    clause: Clause
    status: Status
    reason: str
    links: tuple[Link, ...]

    def of_kind(self, kind: LinkKind) -> tuple[Link, ...]:
        """The links of one kind."""
        return tuple(link for link in self.links if link.kind is kind)


@functools.cache
def _relative(path: Path) -> str:
    root = source_root()
    resolved = path.resolve()
    for base in (root, Path(__file__).resolve().parent.parent):
        if base is not None and resolved.is_relative_to(base):
            return resolved.relative_to(base).as_posix()
    return resolved.name


def _module_name(package: Path, path: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _marks(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> list[str]:
    """The clause ids of the ``@implements("ID", ...)`` decorators on ``node``."""
    ids: list[str] = []
    for deco in node.decorator_list:
        if (
            isinstance(deco, ast.Call)
            and isinstance(deco.func, ast.Name)
            and deco.func.id == "implements"
        ):
            ids.extend(_string_args(deco))
    return ids


def _defined(
    body: Iterable[ast.stmt],
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]]:
    """A module's own functions and classes, and the methods of its classes, by dotted name."""
    kinds = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    for node in body:
        if isinstance(node, kinds):
            yield node.name, node
        if isinstance(node, ast.ClassDef):
            for inner in node.body:
                if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield f"{node.name}.{inner.name}", inner


def links_from_code(*, mentioning: str | None = None) -> tuple[Link, ...]:
    """Read every module of the package for its :func:`implements` marks (it parses the
    source, it does not import it); with ``mentioning``, only the modules whose text holds
    that id. A link's line is the first line of the marked definition, decorators included."""
    package = Path(__file__).resolve().parent
    links: list[Link] = []
    for path, text in _sources(package, mentioning):
        if path.name != "__main__.py":
            links += _as_links(
                _per_file("code", path, text, lambda p, t: _code_links(package, p, t))
            )
    return tuple(links)


def _code_links(package: Path, path: Path, text: str) -> Rows:
    module = _module_name(package, path)
    links: Rows = []
    for name, node in _defined(ast.parse(text, filename=str(path)).body):
        line = min((d.lineno for d in node.decorator_list), default=node.lineno)
        links += [
            [ident, LinkKind.CODE.value, f"{module}.{name}", _relative(path), line]
            for ident in _marks(node)
        ]
    return links


@functools.cache
def _extractor() -> str:
    """A digest of this module's source: a cached reading is valid only for the code that
    made it."""
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]


Rows = list[list[Any]]
"""What one file's reading gives, as JSON-ready rows (so that it can be cached)."""


def _per_file(kind: str, path: Path, text: str, read: Callable[[Path, str], Rows]) -> Rows:
    """The rows ``read`` finds in one file, from the cache when this very text was read before
    by this very code (:func:`regelverk.paths.cached_json`)."""
    where = _relative(path)
    key = hashlib.sha256(f"{kind}\0{where}\0{_extractor()}\0{text}".encode()).hexdigest()[:32]
    rows: Rows = cached_json(f"trace-{key}.json", lambda: read(path, text), list)
    return rows


def _as_links(rows: Rows) -> list[Link]:
    return [Link(clause=c, kind=LinkKind(k), target=t, path=p, line=n) for c, k, t, p, n in rows]


def _string_args(call: ast.Call) -> Iterator[str]:
    for arg in call.args:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            yield arg.value


def _is_clause_marker(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "clause"
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr == "mark"
    )


def _sources(folder: Path | None, mentioning: str | None = None) -> Iterator[tuple[Path, str]]:
    """The Python files under ``folder`` with their text; with ``mentioning``, only those whose
    text holds that string (a link to a clause is written with its id, so no other file can
    hold one)."""
    if folder is None:
        return
    for path in sorted(folder.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if mentioning is None or mentioning in text:
            yield path, text


def links_from_tests(
    folder: Path | None = None, *, mentioning: str | None = None
) -> tuple[Link, ...]:
    """Read the test files for ``@pytest.mark.clause(...)`` markers (on tests, classes, modules);
    with ``mentioning``, only the files whose text holds that id."""
    links: list[Link] = []
    for path, text in _sources(folder or data_dir("tests"), mentioning):
        links += _as_links(_per_file("tests", path, text, _test_links))
    return tuple(links)


def _test_links(path: Path, text: str) -> Rows:
    tree = ast.parse(text, filename=str(path))
    module_ids: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            values = node.value.elts if isinstance(node.value, ast.List) else [node.value]
            for value in values:
                if _is_clause_marker(value) and isinstance(value, ast.Call):
                    module_ids.extend(_string_args(value))
    links: Rows = []
    for node, owner in _tests_in(tree.body, ""):
        ids = [*module_ids]
        for deco in (*owner, *node.decorator_list):
            if _is_clause_marker(deco) and isinstance(deco, ast.Call):
                ids.extend(_string_args(deco))
        target = f"{_relative(path)}::{node.name}"
        where = _relative(path)
        links += [[i, LinkKind.TEST.value, target, where, node.lineno] for i in dict.fromkeys(ids)]
    return links


def _tests_in(
    body: Iterable[ast.stmt], prefix: str, owner: tuple[ast.expr, ...] = ()
) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, tuple[ast.expr, ...]]]:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            yield node, owner
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            yield from _tests_in(node.body, node.name, (*owner, *node.decorator_list))


def links_from_proofs(
    folder: Path | None = None, *, mentioning: str | None = None
) -> tuple[Link, ...]:
    """Read the proof files for theorems' ``clauses=("ID", ...)`` fields; with ``mentioning``,
    only the files whose text holds that id."""
    links: list[Link] = []
    for path, text in _sources(folder or proofs_dir(), mentioning):
        links += _as_links(_per_file("proofs", path, text, _proof_links))
    return tuple(links)


def _proof_links(path: Path, text: str) -> Rows:
    links: Rows = []
    for node in ast.walk(ast.parse(text, filename=str(path))):
        if not isinstance(node, ast.Call):
            continue
        for keyword in node.keywords:
            if keyword.arg == "clauses" and isinstance(keyword.value, ast.Tuple | ast.List):
                found = _theorem_name(node)
                name = f"line {node.lineno}" if found is None else found
                where = _relative(path)
                links += [
                    [e.value, LinkKind.PROOF.value, f"{where}::{name}", where, node.lineno]
                    for e in keyword.value.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                ]
    return links


def _theorem_name(node: ast.Call) -> str | None:
    for keyword in node.keywords:
        if (
            keyword.arg == "name"
            and isinstance(keyword.value, ast.Constant)
            and isinstance(keyword.value.value, str)
        ):
            return keyword.value.value
    return None


def weakened_in_proofs(
    folder: Path | None = None, *, mentioning: str | None = None
) -> frozenset[tuple[str, str]]:
    """The (clause, theorem) pairs where a theorem names a ``Weakening`` of the clause that
    must break it, read from the proof files' ``weakenings=(Weakening("ID", ...), ...)``;
    with ``mentioning``, only the files whose text holds that id."""
    return frozenset(
        (clause, theorem)
        for path, text in _sources(folder or proofs_dir(), mentioning)
        for clause, theorem in _per_file("weakenings", path, text, _weakenings)
    )


def _weakenings(path: Path, text: str) -> Rows:
    pairs: Rows = []
    for node in ast.walk(ast.parse(text, filename=str(path))):
        name = _theorem_name(node) if isinstance(node, ast.Call) else None
        if name is None or not isinstance(node, ast.Call):
            continue
        for keyword in node.keywords:
            if keyword.arg != "weakenings" or not isinstance(keyword.value, ast.Tuple):
                continue
            pairs += [
                [call.args[0].value, name]
                for call in keyword.value.elts
                if isinstance(call, ast.Call)
                and call.args
                and isinstance(call.args[0], ast.Constant)
                and isinstance(call.args[0].value, str)
            ]
    return pairs


def stated_in_proofs(
    folder: Path | None = None, *, mentioning: str | None = None
) -> frozenset[tuple[str, str]]:
    """The (clause, theorem) pairs where a theorem states the clause, read from the proof
    files' ``states=("ID", ...)`` fields; with ``mentioning``, only the files whose text holds
    that id."""
    return frozenset(
        (clause, theorem)
        for path, text in _sources(folder or proofs_dir(), mentioning)
        for clause, theorem in _per_file("states", path, text, _states)
    )


def _states(path: Path, text: str) -> Rows:
    pairs: Rows = []
    for node in ast.walk(ast.parse(text, filename=str(path))):
        name = _theorem_name(node) if isinstance(node, ast.Call) else None
        if name is None or not isinstance(node, ast.Call):
            continue
        for keyword in node.keywords:
            if keyword.arg == "states" and isinstance(keyword.value, ast.Tuple | ast.List):
                pairs += [
                    [e.value, name]
                    for e in keyword.value.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                ]
    return pairs


def _recorded_rows(folder: Path | None) -> list[dict[str, Any]]:
    """The rows of the recorded mutation run (``mutants/killed.json``) that imported (stillborn
    mutants prove and test nothing); none when no run is recorded."""
    base = folder or proofs_dir()
    path = base / "mutants" / "killed.json" if base is not None else None
    if path is None or not path.is_file():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return [row for row in data.get("mutants", []) if not row.get("stillborn")]


def killed_by_mutants(folder: Path | None = None) -> frozenset[tuple[str, str]]:
    """The (clause, theorem) pairs where a recorded engine mutant of the clause broke the
    theorem, read from ``mutants/killed.json`` (``regelverk mutate --record``); empty when no
    run is recorded."""
    return frozenset(
        (clause, theorem)
        for row in _recorded_rows(folder)
        for clause in row.get("clauses", [])
        for theorem in row.get("theorems", [])
    )


def _ordinary(test: str) -> bool:
    """Whether a test id names an ordinary test, not one rerunning the proofs' bindings."""
    return not test.startswith("tests/test_proofs_")


def missed_by_tests(folder: Path | None = None) -> dict[str, tuple[str, ...]]:
    """For each clause with a recorded mutant that no ordinary test kills, those mutants' ids."""
    missed: dict[str, list[str]] = {}
    for row in _recorded_rows(folder):
        if not any(_ordinary(t) for t in row.get("tests", [])):
            for clause in row.get("clauses", []):
                missed.setdefault(clause, []).append(row["id"])
    return {clause: tuple(ids) for clause, ids in missed.items()}


def backed_proofs(
    folder: Path | None = None, *, mentioning: str | None = None
) -> frozenset[tuple[str, str]]:
    """The (clause, theorem) pairs where the theorem proves the clause: it states the clause,
    and a weakening of the clause and a recorded engine mutant of it both break the theorem."""
    return (
        stated_in_proofs(folder, mentioning=mentioning)
        & weakened_in_proofs(folder, mentioning=mentioning)
        & killed_by_mutants(folder)
    )


def cited_ids(links: Iterable[Link]) -> frozenset[str]:
    """The ids the links cite."""
    return frozenset(link.clause for link in links)


def _status(
    clause: Clause,
    links: tuple[Link, ...],
    backed: frozenset[tuple[str, str]] = frozenset(),
    missed: tuple[str, ...] = (),
) -> tuple[Status, str]:
    """A clause's status from its links, the (clause, theorem) pairs that prove
    (:func:`backed_proofs`) and the ids of its recorded mutants no ordinary test kills."""
    kinds = {link.kind for link in links}
    if clause.not_modelled is not None:
        return Status.NOT_MODELLED, clause.not_modelled
    if LinkKind.CODE not in kinds:
        return Status.PENDING, "no code implements this clause yet: its engine has not landed"
    if LinkKind.TEST not in kinds:
        return Status.IMPLEMENTED, "implemented, but no test cites it"
    return _evidence(clause, links, backed, missed)


def _evidence(
    clause: Clause,
    links: tuple[Link, ...],
    backed: frozenset[tuple[str, str]],
    missed: tuple[str, ...],
) -> tuple[Status, str]:
    """The status of an implemented clause that a test cites: what the proofs and the recorded
    mutants show about it."""
    gap = (
        f"no ordinary test kills its mutant{'s' if len(missed) > 1 else ''} {', '.join(missed)}"
        if missed
        else ""
    )
    theorems = sorted(
        {link.target.rpartition("::")[2] for link in links if link.kind is LinkKind.PROOF}
    )
    resting = [t for t in theorems if (clause.id, t) in backed]
    if resting:
        return Status.PROVED, (
            f"implemented, cited by tests, and proved by {', '.join(resting)}: the theorem "
            "states the clause, and weakening the clause and an engine mutant of it each break "
            "it" + (f" ({gap})" if gap else "")
        )
    if gap:
        cited = f"; cited by {', '.join(theorems)}, which proves it not" if theorems else ""
        return Status.IMPLEMENTED, f"implemented and cited by tests, but {gap}{cited}"
    if theorems:
        return Status.CITED_BY_PROOF, (
            f"implemented, tested and cited by {', '.join(theorems)}, but no theorem citing it "
            "states it with a weakening and an engine mutant of it that both break the theorem"
        )
    return Status.TESTED, "implemented and tested"


def trace(
    registry: Registry,
    links: Iterable[Link] | None = None,
    backed: frozenset[tuple[str, str]] | None = None,
    missed: dict[str, tuple[str, ...]] | None = None,
) -> tuple[ClauseTrace, ...]:
    """Every clause of the registry with its status and links.

    ``backed`` holds the (clause, theorem) pairs that count as proof (:func:`backed_proofs`,
    read from the proof files and the recorded mutants when not given); ``missed`` the recorded
    mutants of each clause that no ordinary test kills (:func:`missed_by_tests`, likewise).

    Raises :class:`~regelverk.errors.UnknownClauseError` if any link cites an id that the spec
    does not define as a clause.
    """
    if links is None:
        links = (*links_from_code(), *links_from_tests(), *links_from_proofs())
    if backed is None:
        backed = backed_proofs()
    if missed is None:
        missed = missed_by_tests()
    found = tuple(links)
    for link in found:
        registry.clause(link.clause)
    by_clause: dict[str, list[Link]] = {}
    for link in found:
        by_clause.setdefault(link.clause, []).append(link)
    result = []
    for clause in registry.clauses():
        own = tuple(by_clause.get(clause.id, ()))
        status, reason = _status(clause, own, backed, missed.get(clause.id, ()))
        result.append(ClauseTrace(clause=clause, status=status, reason=reason, links=own))
    return tuple(result)


def trace_of(registry: Registry, ident: str) -> ClauseTrace:
    """One clause's entry of :func:`trace`, read from the files that mention its id only.

    ``regelverk clause ID`` uses it: the same status, reason and links as the whole trace
    gives (a test holds the two together for every clause), without parsing every file.
    """
    clause = registry.clause(ident)
    links = tuple(
        link
        for link in (
            *links_from_code(mentioning=ident),
            *links_from_tests(mentioning=ident),
            *links_from_proofs(mentioning=ident),
        )
        if link.clause == ident
    )
    missed = missed_by_tests().get(ident, ())
    status, reason = _status(clause, links, backed_proofs(mentioning=ident), missed)
    return ClauseTrace(clause=clause, status=status, reason=reason, links=links)
