"""The command line: every command works, speaks JSON, and fails without a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from regelverk.books import RULEBOOKS
from regelverk.cli import main
from regelverk.registry import default_registry

REGISTRY = default_registry()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_lists_every_rulebook_with_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--json")
    assert code == 0
    books = json.loads(out)
    assert [b["id"] for b in books] == list(RULEBOOKS)
    for book in books:
        assert book["clauses"] == len(REGISTRY.clauses(book["id"]))
        assert sum(book["by_tag"].values()) == book["clauses"]
        assert sum(book["by_status"].values()) == book["clauses"]
    code, out, _ = run(capsys, "rules")
    assert code == 0 and "vvv8" in out and "by tag:" in out


def test_clause_shows_source_rule_and_status(capsys: pytest.CaptureFixture[str]) -> None:
    clause = REGISTRY.clause("UNO-DECK-108")
    code, out, _ = run(capsys, "clause", clause.id.lower())
    assert code == 0
    assert clause.rule in out and clause.source in out and "regelverk.cards.uno_deck" in out
    code, out, _ = run(capsys, "clause", clause.id, "--json")
    data = json.loads(out)
    assert data["id"] == clause.id and data["status"] in {
        "implemented",
        "tested",
        "cited-by-proof",
        "proved",
    }
    assert data["links"] and data["rule"] == clause.rule


def test_clause_shows_ambiguities_notes_and_examples(capsys: pytest.CaptureFixture[str]) -> None:
    book = REGISTRY.rulebook("vandatta")
    for ident in (book.ambiguities[0].id, book.notes[0].id if book.notes else None):
        if ident is None:
            continue
        code, out, _ = run(capsys, "clause", ident)
        assert code == 0 and ident in out
    ambiguity = book.ambiguities[0]
    code, out, _ = run(capsys, "clause", ambiguity.id, "--json")
    assert json.loads(out)["default"] == ambiguity.default


def test_an_unknown_id_is_an_error_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "clause", "V8-NOTHING-LIKE-THIS")
    assert code == 2 and out == ""
    assert err.startswith("regelverk: error: 'V8-NOTHING-LIKE-THIS' is not an id")
    assert "Traceback" not in err


def test_trace_lists_every_clause_with_its_locator(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "trace", "--json")
    assert code == 0
    data = json.loads(out)
    assert len(data["clauses"]) == len(REGISTRY.clauses())
    for item in data["clauses"]:
        assert item["locator"] or item["official"], item["id"]
        assert item["status"] in {
            "pending",
            "implemented",
            "tested",
            "cited-by-proof",
            "proved",
            "not-modelled",
        }


def test_trace_strict_fails_exactly_when_a_clause_is_pending_or_untested(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for rulebook in RULEBOOKS:
        code, out, err = run(capsys, "trace", "--rulebook", rulebook, "--strict", "--json")
        clauses = json.loads(out)["clauses"]
        failing = [
            c
            for c in clauses
            if c["status"] == "pending"
            or (c["status"] == "implemented" and not any(k["kind"] == "test" for k in c["links"]))
        ]
        assert json.loads(out)["strict_failures"] == [c["id"] for c in failing]
        assert code == (1 if failing else 0), rulebook
        assert ("pending or lack a test link" in err) == bool(failing)


def test_ambiguities_and_check(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ambiguities", "--rulebook", "uno", "--json")
    assert code == 0
    assert len(json.loads(out)) == len(REGISTRY.rulebook("uno").ambiguities)
    code, out, _ = run(capsys, "check", "--json")
    result = json.loads(out)
    assert code == (1 if result["problems"] else 0)
    assert result["problems"] == []


def test_check_with_a_missing_seeds_folder_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", "--seeds", "/nonexistent/seeds")
    assert code == 2 and "does not exist" in err


def test_bad_usage_exits_2() -> None:
    with pytest.raises(SystemExit) as caught:
        main(["trace", "--rulebook", "poker"])
    assert caught.value.code == 2


def test_the_console_script_works_from_another_directory(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "REGELVERK_SPEC"}
    done = subprocess.run(
        [sys.executable, "-m", "regelverk", "clause", "UNO-DECK-108"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "UNO-DECK-108" in done.stdout
