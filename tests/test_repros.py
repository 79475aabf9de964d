"""Question files that once crashed the referee or led legal play into an impossible position
(``tests/repros/``): each now gets a clean answer or a one-line error, and no answer reaches a
position its own invariant check calls impossible."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from regelverk.cli import EXIT_OK, EXIT_REFUSED, EXIT_USAGE, main

REPROS = sorted((Path(__file__).resolve().parent / "repros").glob("*.json"))


@pytest.mark.clause(
    "V8-PEN-VETO-RIGHT", "UNO-WD4-CHALLENGE-EXISTS", "VA-DEAL-SEVEN-CARDS", "VA-EIGHT-TURNS-PILE"
)
@pytest.mark.parametrize("path", REPROS, ids=lambda p: p.stem)
def test_a_repro_gets_a_clean_answer_or_a_one_line_error(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["ask", "--json", str(path)])
    out, err = capsys.readouterr()
    if code == EXIT_USAGE:
        assert err.startswith("regelverk: error: ") and err.count("\n") == 1, err
        return
    assert code in {EXIT_OK, EXIT_REFUSED}, err
    assert json.loads(out)["problems"] == []
