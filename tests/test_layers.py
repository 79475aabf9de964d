"""Every engine family sits in its layer, whether or not pyproject.toml names it.

The ``model-layers`` contract of ``lint-imports`` (pyproject.toml) names the three families it
holds, so a family registered later would be held to no layer until someone added it there.
Here the families are read from their descriptors (:func:`regelverk.books.families`) and each
one's imports, taken from the same import graph ``lint-imports`` builds (grimp), must stay
inside the family or reach only the modules below the families' layer: a family that imports
the referee, the command line or another family fails, named with the line that does it.
"""

from __future__ import annotations

import grimp
import pytest

from regelverk.books import families

BELOW_THE_FAMILIES = frozenset(
    {
        "regelverk.engine",
        "regelverk.registry",
        "regelverk.cards",
        "regelverk.source",
        "regelverk.books",
        "regelverk.marks",
        "regelverk.memo",
        "regelverk.records",
        "regelverk.paths",
        "regelverk.extensions",
        "regelverk.progress",
        "regelverk.lazy",
        "regelverk.errors",
    }
)
"""The modules below the engine families' layer (the rows under ``vandatta | viggo | uno`` in
the ``model-layers`` contract)."""


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


def test_the_families_below_are_every_module_the_contract_puts_below_them(
    graph: grimp.ImportGraph,
) -> None:
    """The set of modules below the families is the model's top-level modules minus those above
    them and the families themselves: a new top-level module must be placed on one side."""
    above = {
        "regelverk.__main__",
        "regelverk.cli",
        "regelverk.simulate",
        "regelverk.soak",
        "regelverk.disputes",
        "regelverk.referee",
        "regelverk.partial",
        "regelverk.games",
        "regelverk.optionspace",
        "regelverk.trace",
    }
    top = set(graph.find_children("regelverk"))
    named = {f"regelverk.{family}" for family in families()}
    assert top - named - above == BELOW_THE_FAMILIES


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
