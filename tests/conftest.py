"""Test configuration: the ``clause`` marker is checked against ``spec/`` at collection.

A test cites the clauses it exercises with ``@pytest.mark.clause("ID", ...)``; citing an id that
``spec/`` does not define as a clause stops the run before any test executes.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from regelverk.errors import UnknownClauseError
from regelverk.registry import default_registry

sys.path.insert(0, str(Path(__file__).resolve().parent))  # shared helpers: tests/strategies.py

settings.register_profile("ci", derandomize=True, database=None, deadline=None)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Refuse to run when a test cites a clause id that the spec does not define."""
    registry = default_registry()
    bad = []
    for item in items:
        for marker in item.iter_markers("clause"):
            if not marker.args:
                bad.append(f"{item.nodeid}: @pytest.mark.clause needs at least one id")
            for ident in marker.args:
                try:
                    registry.clause(ident)
                except UnknownClauseError as error:
                    bad.append(f"{item.nodeid}: {error}")
    if bad:
        raise pytest.UsageError("tests cite unknown clauses:\n  " + "\n  ".join(bad))
