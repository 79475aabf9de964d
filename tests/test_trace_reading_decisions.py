"""A new reading is found, by one test, at every place in the model where it must be decided.

The engines dispatch on readings (members of :class:`regelverk.engine.Reading` subclasses) by
comparing with members: ``options.x is Enum.MEMBER``, ``is not``, ``==``, ``!=``, membership in
a tuple or set of members (``in (A.X, A.Y)``, or in a module constant holding them), a
``match``/``case`` on members, and aliases of members bound at module level
(``FRESH_THREE = AceAgainDraws.FRESH_THREE``), imported from another module, or bound in the
function itself. :func:`scan` parses every module of ``model/regelverk`` and finds every such
*decision site*: per module, enclosing function (or class) and Reading enum, the members the code
compares with. Names are resolved in the module's own namespace as imported (``__main__``
modules, which run when imported, get a namespace built from their import statements only), so
every alias resolves to the member it stands for.

The manifest ``tests/reading_decisions.json`` lists every site with the enum's full member set at
the time the site was last decided. When an enum gains a member (a new reading), every site of
that enum is listed with the new member until someone has looked at each one and re-recorded;
a site that is new or gone (code added, removed or moved) is listed too. An exhaustive
``match`` whose last case is ``case _: assert_never(...)`` is left out: mypy checks it. Re-record
after deciding with :data:`RECORD`.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import enum
import functools
import importlib
import json
import re
import sys
import typing
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
PACKAGE = ROOT / "model" / "regelverk"
MANIFEST = TESTS / "reading_decisions.json"
RECORD = "python tests/test_trace_reading_decisions.py --record"
"""The command that re-records the manifest (run from the project's root)."""

if __name__ == "__main__":  # run as a script: import the model from this checkout
    sys.path[:0] = [str(ROOT / "model")]

from regelverk.engine import Reading  # noqa: E402

_MISSING = object()
_NEVER: list[object] = [typing.assert_never]
try:  # the backport, where installed, counts as well
    import typing_extensions

    _NEVER.append(typing_extensions.assert_never)
except ImportError:  # pragma: no cover - only without typing_extensions
    pass


# --- sites ----------------------------------------------------------------------------------


@dataclass(frozen=True, order=True, slots=True)
class Site:
    """One place where a reading is decided: a file, the function or class around the
    comparisons (``<module>`` at module level), and the Reading enum compared with."""

    file: str
    """The module's path from the project's root, with ``/``."""
    scope: str
    """The qualified name of the enclosing function or class (``Class.method``,
    ``outer.inner``)."""
    enum: str
    """The enum's module and qualified name (``regelverk.vandatta.options.RestartFallback``)."""


@dataclass(slots=True)
class Found:
    """What the scan found at a site: the lines of its comparisons and the members compared."""

    site: Site
    lines: list[int] = field(default_factory=list)
    compares: set[str] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class Recorded:
    """A site as the manifest holds it: every member its enum had when the site was last
    decided."""

    site: Site
    decided_with: tuple[str, ...]


def _enum_name(kind: type[enum.Enum]) -> str:
    return f"{kind.__module__}.{kind.__qualname__}"


def _members(value: object) -> list[enum.Enum] | None:
    """The Reading members ``value`` stands for (one member, or a collection of members of one
    enum), or ``None`` if it is anything else."""
    if isinstance(value, Reading):
        return [value]
    if isinstance(value, tuple | list | set | frozenset) and value:
        items = list(value)
        if all(isinstance(v, Reading) for v in items) and len({type(v) for v in items}) == 1:
            return items
    return None


# --- resolving names ------------------------------------------------------------------------


def _bound_names(node: ast.AST) -> dict[str, list[ast.expr | None]]:
    """The names a function binds itself (parameters, assignments, loop and ``with`` targets,
    imports, nested definitions), each with the values simply assigned to it (``None`` where a
    binding is not a plain ``name = value``)."""
    bound: dict[str, list[ast.expr | None]] = {}
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        arguments = node.args
        for arg in (
            *arguments.posonlyargs,
            *arguments.args,
            *arguments.kwonlyargs,
            *(a for a in (arguments.vararg, arguments.kwarg) if a is not None),
        ):
            bound.setdefault(arg.arg, []).append(None)
    body: Iterable[ast.AST] = (
        [node.body] if isinstance(node, ast.Lambda) else getattr(node, "body", [])
    )
    stack = list(body)
    while stack:
        child = stack.pop()
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.setdefault(child.name, []).append(None)
            continue  # their own bodies are their own scopes
        if isinstance(child, ast.Lambda):
            continue
        simple = (
            (child.targets[0], child.value)
            if isinstance(child, ast.Assign) and len(child.targets) == 1
            else (child.target, child.value)
            if isinstance(child, ast.AnnAssign) and child.value is not None
            else None
        )
        if simple is not None and isinstance(simple[0], ast.Name):
            bound.setdefault(simple[0].id, []).append(simple[1])
            stack.append(simple[1])
            continue
        if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store | ast.Del):
            bound.setdefault(child.id, []).append(None)
        elif isinstance(child, ast.alias):
            name = child.asname or child.name.split(".")[0]
            bound.setdefault(name, []).append(None)
        elif isinstance(child, ast.arg):
            bound.setdefault(child.arg, []).append(None)
        stack.extend(ast.iter_child_nodes(child))
    return bound


class _Resolver:
    """Resolves expressions of a module to the objects they name, where they are constants: a
    name of the module's namespace not bound locally (or bound locally once, to something that
    resolves), and attributes of modules and classes."""

    def __init__(self, namespace: Mapping[str, Any]) -> None:
        self.namespace = namespace
        self.scopes: list[dict[str, list[ast.expr | None]]] = []

    def resolve(self, node: ast.expr) -> object:
        """The object ``node`` names, or :data:`_MISSING`."""
        if isinstance(node, ast.Name):
            return self._name(node.id, len(self.scopes))
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            if isinstance(base, ModuleType | type):
                return getattr(base, node.attr, _MISSING)
            return _MISSING
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            items = [self.resolve(e) for e in node.elts]
            return _MISSING if any(i is _MISSING for i in items) else tuple(items)
        return _MISSING

    def _name(self, name: str, depth: int) -> object:
        for level in range(depth - 1, -1, -1):
            values = self.scopes[level].get(name)
            if values is None:
                continue
            if len(values) != 1 or values[0] is None:
                return _MISSING  # a parameter, or bound more than once: not a constant
            saved, self.scopes = self.scopes, self.scopes[:level]
            try:
                return self.resolve(values[0])
            finally:
                self.scopes = saved
        value = self.namespace.get(name, _MISSING)
        if value is _MISSING:
            value = getattr(builtins, name, _MISSING)
        return value


# --- the scan ---------------------------------------------------------------------------------


class _Scanner(ast.NodeVisitor):
    """Walks one module, collecting the Reading members each scope compares with."""

    def __init__(self, file: str, namespace: Mapping[str, Any]) -> None:
        self.file = file
        self.resolver = _Resolver(namespace)
        self.names: list[str] = []
        self.found: dict[Site, Found] = {}
        self.exempt: list[tuple[int, str]] = []

    # scopes

    def _scoped(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)
        if not isinstance(node, ast.ClassDef):
            for default in (*node.args.defaults, *node.args.kw_defaults):
                if default is not None:
                    self.visit(default)
        self.names.append(node.name)
        functional = not isinstance(node, ast.ClassDef)
        if functional:
            self.resolver.scopes.append(_bound_names(node))
        for statement in node.body:
            self.visit(statement)
        if functional:
            self.resolver.scopes.pop()
        self.names.pop()

    visit_FunctionDef = _scoped  # noqa: N815
    visit_AsyncFunctionDef = _scoped  # noqa: N815
    visit_ClassDef = _scoped  # noqa: N815

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.resolver.scopes.append(_bound_names(node))
        self.generic_visit(node)
        self.resolver.scopes.pop()

    def _note(self, node: ast.AST, members: Sequence[enum.Enum]) -> None:
        kind = type(members[0])
        site = Site(self.file, ".".join(self.names) or "<module>", _enum_name(kind))
        found = self.found.setdefault(site, Found(site))
        found.lines.append(node.lineno)  # type: ignore[attr-defined]
        found.compares.update(m.name for m in members)

    # decisions

    def visit_Compare(self, node: ast.Compare) -> None:
        left = node.left
        for op, right in zip(node.ops, node.comparators, strict=True):
            for side in (left, right):
                members = _members(self.resolver.resolve(side))
                if members is not None and (
                    isinstance(op, ast.Is | ast.IsNot | ast.Eq | ast.NotEq)
                    or (isinstance(op, ast.In | ast.NotIn) and (side is right or len(members) == 1))
                ):
                    self._note(node, members)
            left = right
        self.generic_visit(node)

    def visit_Dict(self, node: ast.Dict) -> None:
        for key in node.keys:
            if key is not None:
                members = _members(self.resolver.resolve(key))
                if members is not None and len(members) == 1:
                    self._note(key, members)
        self.generic_visit(node)

    def visit_Match(self, node: ast.Match) -> None:
        self.visit(node.subject)
        if self._exhaustive(node):
            self.exempt.append((node.lineno, ".".join(self.names) or "<module>"))
            for case in node.cases:
                if case.guard is not None:
                    self.visit(case.guard)
                for statement in case.body:
                    self.visit(statement)
            return
        for case in node.cases:
            for value in _pattern_values(case.pattern):
                members = _members(self.resolver.resolve(value))
                if members is not None:
                    self._note(value, members)
            if case.guard is not None:
                self.visit(case.guard)
            for statement in case.body:
                self.visit(statement)

    def _exhaustive(self, node: ast.Match) -> bool:
        """Whether the match ends in ``case _: assert_never(...)`` (``typing``'s, or the
        backport's): mypy then proves every member handled, so no record is needed."""
        last = node.cases[-1]
        pattern = last.pattern
        if not (isinstance(pattern, ast.MatchAs) and pattern.pattern is None):
            return False
        if last.guard is not None:
            return False
        for statement in last.body:
            call = statement.value if isinstance(statement, ast.Expr) else None
            if isinstance(call, ast.Call):
                function = self.resolver.resolve(call.func)
                if any(function is never for never in _NEVER):
                    return True
        return False


def _pattern_values(pattern: ast.pattern) -> Iterator[ast.expr]:
    """The value expressions a case pattern compares the subject with."""
    if isinstance(pattern, ast.MatchValue):
        yield pattern.value
    elif isinstance(pattern, ast.MatchOr):
        for option in pattern.patterns:
            yield from _pattern_values(option)
    elif isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
        yield from _pattern_values(pattern.pattern)
    elif isinstance(pattern, ast.MatchSequence):
        for item in pattern.patterns:
            yield from _pattern_values(item)
    elif isinstance(pattern, ast.MatchMapping):
        yield from pattern.keys
        for item in pattern.patterns:
            yield from _pattern_values(item)
    elif isinstance(pattern, ast.MatchClass):
        for item in (*pattern.patterns, *pattern.kwd_patterns):
            yield from _pattern_values(item)


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root / "model").with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _namespace(path: Path, root: Path, tree: ast.Module) -> Mapping[str, Any]:
    """The namespace names in ``path`` resolve in: the module as imported, or, for a
    ``__main__`` module (which runs when imported), only what its import statements bind."""
    name = _module_name(path, root)
    if path.name != "__main__.py":
        module = importlib.import_module(name)
        where = getattr(module, "__file__", None)
        if where is None or Path(where).resolve() != path.resolve():
            raise RuntimeError(
                f"{name} is imported from {where}, not from the scanned {path.name} in model/: "
                "install the project editable (pip install -e .) or run from the checkout"
            )
        return vars(module)
    namespace: dict[str, Any] = {"__name__": name, "__package__": name.rpartition(".")[0]}
    imports: list[ast.stmt] = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    exec(compile(ast.Module(body=imports, type_ignores=[]), str(path), "exec"), namespace)
    return namespace


@dataclass(slots=True)
class Scan:
    """Every decision site of the model, and the exhaustive matches left out."""

    sites: dict[Site, Found]
    exempt: list[str]


def scan_source(
    text: str, file: str, namespace: Mapping[str, Any], into: Scan | None = None
) -> Scan:
    """The decision sites of one module's source, its names resolved in ``namespace``."""
    scanner = _Scanner(file, namespace)
    scanner.visit(ast.parse(text, filename=file))
    result = into or Scan({}, [])
    result.sites.update(scanner.found)
    result.exempt += [f"{file}:{line} {scope}" for line, scope in scanner.exempt]
    return result


def scan(root: Path = ROOT) -> Scan:
    """Every decision site of ``model/regelverk`` under ``root``."""
    result = Scan({}, [])
    for path in sorted((root / "model" / "regelverk").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, filename=str(path))
        scan_source(text, path.relative_to(root).as_posix(), _namespace(path, root, tree), result)
    return result


def enum_members(name: str) -> tuple[str, ...]:
    """The member names of the enum ``module.Qualified.Name``, in definition order."""
    module_name, _, qualname = name.rpartition(".")
    while module_name and module_name not in sys.modules:
        try:
            importlib.import_module(module_name)
            break
        except ModuleNotFoundError:
            module_name, _, outer = module_name.rpartition(".")
            qualname = f"{outer}.{qualname}"
    kind: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        kind = getattr(kind, part)
    return tuple(kind.__members__)


# --- the manifest -----------------------------------------------------------------------------


def manifest_data(found: Scan) -> dict[str, Any]:
    """The manifest for the sites of ``found``, each decided with its enum's members now."""
    members: dict[str, tuple[str, ...]] = {}
    sites = []
    for site in sorted(found.sites):
        decided = members.setdefault(site.enum, enum_members(site.enum))
        sites.append(
            {"file": site.file, "scope": site.scope, "enum": site.enum, "decided_with": decided}
        )
    return {
        "about": (
            "Every place in model/regelverk that compares with a member of a Reading enum, "
            "with every member the enum had when the place was last decided. Written by "
            f"`{RECORD}`; checked by tests/test_trace_reading_decisions.py."
        ),
        "sites": sites,
    }


def read_manifest(path: Path = MANIFEST) -> dict[Site, Recorded]:
    """The sites the manifest at ``path`` records."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        (site := Site(row["file"], row["scope"], row["enum"])): Recorded(
            site, tuple(row["decided_with"])
        )
        for row in data["sites"]
    }


def differences(
    found: Mapping[Site, Found],
    recorded: Mapping[Site, Recorded],
    members: Mapping[str, Sequence[str]],
) -> list[str]:
    """One line per site to look at: a site whose enum has members it was not decided with
    (a new reading), a site the manifest lacks (new code, or code moved), and a recorded site
    the code no longer has, in the order of the files and lines. ``members`` gives each
    enum's members now."""
    lines: list[tuple[str, int, str]] = []
    for site in sorted(set(found) | set(recorded)):
        here = found.get(site)
        named = f"{_short(site.enum)} ({site.enum})"
        if here is None:
            lines.append(
                (
                    site.file,
                    0,
                    f"{site.file} {site.scope}: {named}: the recorded site is gone (code "
                    "removed or moved)",
                )
            )
            continue
        line = min(here.lines)
        where = f"{site.file}:{line} {site.scope}: {named}"
        compares = ", ".join(sorted(here.compares))
        was = recorded.get(site)
        if was is None:
            lines.append((site.file, line, f"{where}: a new site, comparing with {compares}"))
            continue
        new = [m for m in members[site.enum] if m not in was.decided_with]
        if new:
            lines.append(
                (
                    site.file,
                    line,
                    f"{where}: new member(s) {', '.join(new)} (compares with {compares})",
                )
            )
    return [text for _, _, text in sorted(lines)]


def _short(name: str) -> str:
    return name.rpartition(".")[2]


def record(path: Path = MANIFEST, found: Scan | None = None) -> int:
    """Write the manifest of ``found`` (by default, a scan of the model now); the number of
    sites written."""
    data = manifest_data(found or scan())
    path.write_text(_dumps(data), encoding="utf-8")
    return len(data["sites"])


def _dumps(data: Mapping[str, Any]) -> str:
    """The manifest as JSON with one site a line (so that a re-record's diff shows the sites
    that changed)."""
    rows = ",\n".join(f"  {json.dumps(row, ensure_ascii=False)}" for row in data["sites"])
    about = json.dumps(data["about"], ensure_ascii=False)
    return f'{{\n "about": {about},\n "sites": [\n{rows}\n ]\n}}\n'


# --- the tests --------------------------------------------------------------------------------


@functools.cache
def _scanned() -> Scan:
    """The scan of the model, once per test process."""
    return scan()


KNOWN = re.compile(r"\brestart_fallback is(?: not)? (?:RestartFallback\.)?ACE_NEEDS_FOLLOW\b")
"""A comparison the model has long held: ``options.restart_fallback is not
RestartFallback.ACE_NEEDS_FOLLOW`` (the prepared moves of play, the restart rules), written out
or through a module alias of the member."""

DIRECT = re.compile(r"\bis(?: not)? ([A-Z]\w*)\.([A-Z][A-Z0-9_]*)\b")
"""A comparison written out with the enum's own name: what a text search finds."""

NEVER_CASE = re.compile(r"^[ \t]*case _:[ \t]*\n[ \t]*assert_never\(", re.MULTILINE)
"""The last case of an exhaustive ``match``, as a text search finds it."""


def test_the_scanner_finds_the_known_site_and_every_written_out_comparison() -> None:
    """The scan finds sites at all: each comparison of ``restart_fallback`` with
    ``ACE_NEEDS_FOLLOW`` outside an exhaustive match (wherever it lives now, by name or by alias)
    is a site of ``RestartFallback`` comparing that member; every line a plain text search finds
    comparing with ``Enum.MEMBER`` of a Reading enum is a line the scan records, for that
    member; and the matches left out are as many as the ``case _: assert_never(...)`` endings a
    text search finds."""
    found = _scanned()
    by_line: dict[tuple[str, int], set[str]] = {}
    for site, here in found.sites.items():
        for line in here.lines:
            by_line.setdefault((site.file, line), set()).update(
                f"{_short(site.enum)}.{m}" for m in here.compares
            )
    known = []
    searched = 0
    missed = []
    endings = 0
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "__main__.py":
            continue
        file = path.relative_to(ROOT).as_posix()
        module = importlib.import_module(_module_name(path, ROOT))
        source = path.read_text(encoding="utf-8")
        endings += len(NEVER_CASE.findall(source))
        for number, text in enumerate(source.splitlines(), 1):
            if KNOWN.search(text):
                known.append((file, number))
            for match in DIRECT.finditer(text):
                kind = getattr(module, match.group(1), None)
                if not (isinstance(kind, type) and issubclass(kind, Reading)):
                    continue
                searched += 1
                wanted = f"{match.group(1)}.{match.group(2)}"
                if wanted not in by_line.get((file, number), set()):
                    missed.append(f"{file}:{number}: {text.strip()}")
    assert known, "no line of model/regelverk compares restart_fallback with ACE_NEEDS_FOLLOW"
    for file, number in known:
        assert "RestartFallback.ACE_NEEDS_FOLLOW" in by_line.get((file, number), set()), (
            f"{file}:{number}: the known comparison is not a site of the scan"
        )
    assert searched > 100, f"the text search found only {searched} comparisons"
    assert not missed, "comparisons the scan does not record:\n  " + "\n  ".join(missed)
    assert len(found.exempt) == endings, (
        f"{endings} matches end in case _: assert_never(...), the scan leaves out "
        f"{len(found.exempt)}: {found.exempt}"
    )


SYNTHETIC = """
from regelverk.vandatta.options import AceAgainDraws, RestartFallback as Fallback
from regelverk.viggo import options as opts
from regelverk.viggo.options import Direction

FRESH_THREE = AceAgainDraws.FRESH_THREE
EARLY = (Fallback.ANY_CARD, Fallback.EIGHT_OR_DRAW)

def aliases(options):
    if options.ace_again_draws is FRESH_THREE:
        return 1
    return options.restart_fallback in EARLY

class Table:
    def method(self, options):
        follow: Fallback = Fallback.ACE_NEEDS_FOLLOW
        return options.restart_fallback == follow or options.x != opts.Direction.CLOCKWISE

def shadowed(FRESH_THREE, options):
    return options.ace_again_draws is FRESH_THREE

def spelled(options):
    return options.direction in (Direction.CLOCKWISE, Direction.COUNTER_CLOCKWISE)

def matched(options):
    match options.restart_fallback:
        case Fallback.ANY_CARD | Fallback.EIGHT_OR_DRAW:
            return 1
        case _:
            return 2

def paired(options):
    match (options.restart_fallback, options.direction):
        case (Fallback.ACE_NEEDS_FOLLOW, Direction.CLOCKWISE) | (_, opts.Direction.CLOCKWISE):
            return 1
    return 0

def exhaustive(options):
    match options.restart_fallback:
        case Fallback.ANY_CARD:
            return 1
        case Fallback.EIGHT_OR_DRAW | Fallback.ACE_NEEDS_FOLLOW:
            return 2
        case _:
            assert_never(options.restart_fallback)

def raising(options):
    match options.restart_fallback:
        case Fallback.ANY_CARD:
            return 1
        case _:
            raise AssertionError(options.restart_fallback)

def impostor(options, assert_never):
    match options.restart_fallback:
        case Fallback.ANY_CARD:
            return 1
        case _:
            assert_never(options.restart_fallback)

TABLE = {Fallback.ANY_CARD: "a", Fallback.EIGHT_OR_DRAW: "b"}
"""


def _synthetic() -> Scan:
    namespace: dict[str, Any] = {}
    exec(SYNTHETIC + "\nfrom typing import assert_never\n", namespace)
    return scan_source(SYNTHETIC, "synthetic.py", namespace)


def test_aliases_tuples_and_matches_resolve_to_the_members_they_stand_for() -> None:
    """Module-level and local aliases, ``as`` imports, attributes of an imported module, tuples
    of members (written out or held in a constant), ``==``/``!=``, ``match`` patterns (nested
    in sequences too) and keys of a dict of members all count, per scope and enum; a parameter
    that shadows an alias does not; an exhaustive ``match`` ending in ``assert_never`` from
    ``typing`` is left out, one ending otherwise, or in a local function of that name, is
    not."""
    found = _synthetic()
    fallback = "regelverk.vandatta.options.RestartFallback"
    sites = {(s.scope, _short(s.enum)): sorted(f.compares) for s, f in found.sites.items()}
    assert sites == {
        ("aliases", "AceAgainDraws"): ["FRESH_THREE"],
        ("aliases", "RestartFallback"): ["ANY_CARD", "EIGHT_OR_DRAW"],
        ("Table.method", "RestartFallback"): ["ACE_NEEDS_FOLLOW"],
        ("Table.method", "Direction"): ["CLOCKWISE"],
        ("spelled", "Direction"): ["CLOCKWISE", "COUNTER_CLOCKWISE"],
        ("matched", "RestartFallback"): ["ANY_CARD", "EIGHT_OR_DRAW"],
        ("paired", "RestartFallback"): ["ACE_NEEDS_FOLLOW"],
        ("paired", "Direction"): ["CLOCKWISE"],
        ("raising", "RestartFallback"): ["ANY_CARD"],
        ("impostor", "RestartFallback"): ["ANY_CARD"],
        ("<module>", "RestartFallback"): ["ANY_CARD", "EIGHT_OR_DRAW"],
    }
    lines = SYNTHETIC.splitlines()
    exhaustive = lines.index("def exhaustive(options):") + 2  # its match statement
    assert found.exempt == [f"synthetic.py:{exhaustive} exhaustive"]
    assert Site("synthetic.py", "aliases", fallback) in found.sites


def test_the_manifest_records_every_decision_site_with_its_enums_members() -> None:
    """Every decision site of the model is in the manifest, decided with every member its enum
    has now; no recorded site is gone. A failure lists each site to look at as
    ``file:line function``, with the enum and its new member(s)."""
    found = _scanned()
    assert MANIFEST.exists(), f"no manifest of decision sites: run `{RECORD}`"
    recorded = read_manifest()
    members = {s.enum: enum_members(s.enum) for s in found.sites}
    problems = differences(found.sites, recorded, members)
    assert not problems, (
        f"{len(problems)} decision site(s) of a reading to look at:\n  "
        + "\n  ".join(problems)
        + "\nDecide each one (a new member: does this place need a branch for it?), then "
        f"re-record from the project's root with `{RECORD}`."
    )
    assert len(found.sites) > 100, f"only {len(found.sites)} decision sites found"


def test_a_new_member_is_reported_at_every_site_of_its_enum_and_only_there() -> None:
    """Simulated new reading: against a manifest recorded before the enum with the most sites
    had its last member, every site of that enum is listed with that member, and no other site;
    a site missing from the manifest is listed as new, a recorded site the code lacks as gone."""
    found = _scanned()
    members = {s.enum: enum_members(s.enum) for s in found.sites}
    current = {site: Recorded(site, members[site.enum]) for site in found.sites}
    assert differences(found.sites, current, members) == []
    counts: dict[str, int] = {}
    for site in found.sites:
        counts[site.enum] = counts.get(site.enum, 0) + 1
    target = max(sorted(counts), key=lambda name: counts[name])
    newest = members[target][-1]
    older = {
        site: Recorded(site, tuple(m for m in was.decided_with if m != newest))
        if site.enum == target
        else was
        for site, was in current.items()
    }
    listed = differences(found.sites, older, members)
    expected = sorted(
        (site for site in found.sites if site.enum == target),
        key=lambda site: (site.file, min(found.sites[site].lines), site.scope),
    )
    assert len(listed) == len(expected) == counts[target] >= 2
    for line, site in zip(listed, expected, strict=True):
        assert line.startswith(f"{site.file}:{min(found.sites[site].lines)} {site.scope}: ")
        assert f"new member(s) {newest} " in line
    moved = next(iter(sorted(found.sites)))
    less = {site: was for site, was in current.items() if site != moved}
    less[Site("model/regelverk/gone.py", "vanished", moved.enum)] = current[moved]
    listed = differences(found.sites, less, members)
    assert len(listed) == 2
    assert "a new site" in listed[1 if listed[0].startswith("model/regelverk/gone.py") else 0]
    assert any(line.startswith("model/regelverk/gone.py vanished: ") for line in listed)
    assert any("is gone" in line for line in listed)


def test_the_manifest_is_written_as_the_record_command_writes_it(tmp_path: Path) -> None:
    """The record command's output reads back as the sites of the scan, each decided with its
    enum's members now (so re-recording settles every difference the check lists)."""
    written = tmp_path / "decisions.json"
    count = record(written, _scanned())
    again = read_manifest(written)
    found = _scanned()
    assert count == len(again) == len(found.sites)
    members = {s.enum: enum_members(s.enum) for s in found.sites}
    assert differences(found.sites, again, members) == []


def main(argv: Sequence[str] | None = None) -> int:
    """``--record``: scan the model and write the manifest (after deciding every site)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--record", action="store_true", help=f"write {MANIFEST.name}")
    args = parser.parse_args(argv)
    if not args.record:
        parser.print_help()
        return 2
    count = record()
    print(f"recorded {count} decision sites in {MANIFEST.relative_to(ROOT).as_posix()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
