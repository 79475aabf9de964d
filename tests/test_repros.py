"""Question files that once crashed the referee or led legal play into an impossible position
(``tests/repros/``): each now gets a clean answer or a one-line error, and no answer reaches a
position its own invariant check calls impossible."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from regelverk.cli import main
from regelverk.console import EXIT_OK, EXIT_REFUSED, EXIT_USAGE

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


@pytest.mark.clause(
    "VA-DEAL-SEVEN-CARDS",
    "V8-DEAL-SEVEN-ROUNDS",
    "VA-SETUP-DECK-AND-PLAYERS",
    "V8-SETUP-COFFEE-BREAK-MAX-FIVE",
)
@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("vandatta-deal-hand-size-18", "needs 55 cards, but the pack has 52 (VA-DEAL-SEVEN-CARDS)"),
        ("vvv8-redeal-hand-size-18", "needs 55 cards, but the pack has 52 (V8-DEAL-SEVEN-ROUNDS)"),
        ("vandatta-44-players", "at most 6 players may take part, not 44"),
        ("vvv8-coffee-break-7-players", "at most 5 players may take part in a coffee break, not 7"),
    ],
)
def test_a_position_beyond_its_rulebook_limits_is_refused_where_it_enters(
    name: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A position is held to its rulebook's limits as it is read: no more players than the
    rules seat, and a pack that serves the next deal (it used to be ruled on, or to crash with
    IndexError at the deal)."""
    path = Path(__file__).resolve().parent / "repros" / f"{name}.json"
    code = main(["ask", str(path)])
    err = capsys.readouterr().err
    assert code == EXIT_USAGE
    assert err.startswith("regelverk: error: position: ") and said in err, err
