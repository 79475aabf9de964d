"""Every engine family sits in its layer, whether or not pyproject.toml names it.

The ``model-layers`` contract of ``lint-imports`` (pyproject.toml) names the three families it
holds, so a family registered later would be held to no layer until someone added it there.
Here the families are read from their descriptors (:func:`regelverk.books.families`) and each
one's imports, taken from the same import graph ``lint-imports`` builds (grimp), must stay
inside the family or reach only the modules below the families' layer: a family that imports
the referee, the command line or another family fails, named with the line that does it.
The rows above and below the families are read from the contract itself, not copied here.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import grimp
import pytest

from regelverk.books import families


def _layers() -> list[set[str]]:
    """The rows of the ``model-layers`` contract in pyproject.toml, top first, each the set of
    modules it names (``a : b`` and ``a | b`` alike)."""
    config = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c["layers"] for c in contracts if c["id"] == "model-layers")
    return [{m.strip() for m in re.split(r"[:|]", row)} for row in layers]


def _split_at_the_families() -> tuple[frozenset[str], frozenset[str]]:
    """The modules the contract puts above the engine families' row, and those below it."""
    rows = _layers()
    engines = {f"regelverk.{family}" for family in families()}
    at = next(n for n, row in enumerate(rows) if row <= engines)
    return frozenset().union(*rows[:at]), frozenset().union(*rows[at + 1 :])


ABOVE_THE_FAMILIES, BELOW_THE_FAMILIES = _split_at_the_families()
"""The modules above and below the engine families' row (``vandatta | viggo | uno``) of the
``model-layers`` contract, read from pyproject.toml."""


def _outside_imports(graph: grimp.ImportGraph, family: str) -> list[str]:
    """Each import from the family's modules of a ``regelverk`` module that is neither the
    family's own nor below the families' layer, as ``importer:line -> imported``."""
    package = f"regelverk.{family}"
    own = {package, *graph.find_descendants(package)}
    wrong = []
    for importer in sorted(own):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if imported in own or imported in BELOW_THE_FAMILIES:
                continue
            if imported != "regelverk" and not imported.startswith("regelverk."):
                continue
            for detail in graph.get_import_details(importer=importer, imported=imported):
                wrong.append(f"{importer}:{detail['line_number']} -> {imported}")
    return wrong


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    """The import graph of the model, imports inside functions and under TYPE_CHECKING
    included (as ``lint-imports`` reads it)."""
    return grimp.build_graph("regelverk", cache_dir=None)


def test_every_top_level_module_is_a_family_or_placed_above_or_below_them(
    graph: grimp.ImportGraph,
) -> None:
    """Every top-level module of the model is placed by the contract: a family, or in a row
    above or below the families' row (a new module placed nowhere would be checked by neither
    lint-imports nor this test)."""
    top = set(graph.find_children("regelverk"))
    named = {f"regelverk.{family}" for family in families()}
    assert top - named - ABOVE_THE_FAMILIES == BELOW_THE_FAMILIES


@pytest.mark.parametrize("family", list(families()))
def test_a_family_imports_only_itself_and_the_layers_below(
    graph: grimp.ImportGraph, family: str
) -> None:
    assert _outside_imports(graph, family) == []


def test_a_family_importing_upwards_or_sideways_is_found() -> None:
    """The check can fail: an import of the referee and of another family, added to a graph of
    its own, is reported with its line."""
    broken = grimp.build_graph("regelverk", cache_dir=None)
    broken.add_import(
        importer="regelverk.uno.rules",
        imported="regelverk.referee",
        line_number=1,
        line_contents="from regelverk import referee",
    )
    broken.add_import(
        importer="regelverk.uno.rules",
        imported="regelverk.viggo.combos",
        line_number=2,
        line_contents="from regelverk.viggo import combos",
    )
    assert _outside_imports(broken, "uno") == [
        "regelverk.uno.rules:1 -> regelverk.referee",
        "regelverk.uno.rules:2 -> regelverk.viggo.combos",
    ]


# --- one skeleton for every family ---------------------------------------------------------

MODEL_ROLES = ("__init__", "book", "options", "state", "position", "invariants", "game")
"""The modules every engine family has, by role (``docs/developing.rst``): the public names,
the descriptors, the options, the state and actions, positions as data, the invariants, and
``GAME``. The rules themselves are in modules named by topic (``rules``, ``talon``, ``play``…)."""

PROOFS_ROLES = frozenset({"__init__.py", "text.py", "encoding", "binding", "theorems"})
"""What every family's folder under ``regelverk_proofs/`` holds, and nothing else."""

PROOFS = Path(__file__).resolve().parents[1] / "proofs" / "regelverk_proofs"


def _contract(name: str) -> dict[str, Any]:
    config = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    found: dict[str, Any] = next(
        c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == name
    )
    return found


def _proved() -> list[str]:
    """The families with theorems (a descriptor naming proof modules)."""
    return [f for f, books in families().items() if any(b.proofs for b in books)]


@pytest.mark.parametrize("family", list(families()))
def test_every_engine_family_has_the_modules_of_every_role(family: str) -> None:
    folder = Path(__file__).resolve().parents[1] / "model" / "regelverk" / family
    assert [r for r in MODEL_ROLES if not (folder / f"{r}.py").is_file()] == []


def test_every_family_with_theorems_has_the_proofs_skeleton_and_nothing_else() -> None:
    proved = _proved()
    folders = {p.name for p in PROOFS.iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    assert folders == set(proved)
    for family in proved:
        held = {p.name for p in (PROOFS / family).iterdir() if p.name != "__pycache__"}
        assert held == PROOFS_ROLES, family
        for role in ("encoding", "binding", "theorems"):
            assert (PROOFS / family / role / "__init__.py").is_file(), (family, role)
        for book in families()[family]:
            stray = [m for m in book.proofs if not m.startswith(f"{family}.theorems.")]
            assert stray == [], book.name


def test_the_proofs_contracts_hold_every_family_with_theorems() -> None:
    """``proofs-skeleton`` layers each family's roles and ``proofs-layers`` puts the families
    on one row: both must name exactly the families that have theorems."""
    proved = {f"regelverk_proofs.{f}" for f in _proved()}
    assert set(_contract("proofs-skeleton")["containers"]) == proved
    rows = [{m.strip() for m in re.split(r"[:|]", r)} for r in _contract("proofs-layers")["layers"]]
    assert proved in rows


def test_every_top_level_proofs_module_is_placed() -> None:
    graph = grimp.build_graph("regelverk_proofs", cache_dir=None)
    rows = [{m.strip() for m in re.split(r"[:|]", r)} for r in _contract("proofs-layers")["layers"]]
    assert set(graph.find_children("regelverk_proofs")) == set().union(*rows)
