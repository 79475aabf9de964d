"""Against the texts themselves: locators point where they should, and no sentence is pasted.

These tests need the four rule texts; they look for them where ``regelverk check`` does
(``REGELVERK_SEEDS``, else ``shared/seeds`` beside the checkout) and are skipped without them.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from regelverk.cli import find_seeds
from regelverk.paths import source_root
from regelverk.registry import default_registry, problems_against_text
from regelverk.source import shared_runs

SEEDS = find_seeds(None)
pytestmark = pytest.mark.skipif(SEEDS is None, reason="the rule texts are not at hand")
REGISTRY = default_registry()


def _seed(name: str) -> str:
    assert SEEDS is not None
    return (SEEDS / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("book", REGISTRY.rulebooks, ids=lambda b: b.id)
def test_every_locator_points_at_its_paragraph(book: object) -> None:
    from regelverk.registry import Rulebook

    assert isinstance(book, Rulebook)
    assert problems_against_text(book, _seed(book.seed)) == []


def _project_files() -> list[Path]:
    root = source_root()
    assert root is not None
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    names = listed.stdout.split() if listed.returncode == 0 else []
    if not names:
        names = [str(p.relative_to(root)) for p in root.rglob("*") if ".venv" not in p.parts]
    return [root / n for n in names if (root / n).is_file()]


def test_no_sentence_of_any_text_is_pasted_into_the_project() -> None:
    """No file of the project shares six words in a row with any of the four texts."""
    texts = {book.seed: _seed(book.seed) for book in REGISTRY.rulebooks}
    found = []
    for path in _project_files():
        try:
            content = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for seed, text in texts.items():
            found += [f"{path.name} ~ {seed}: {run}" for run in shared_runs(text, content)]
    assert found == []
