"""The fast slice of the covering-array soak (:mod:`regelverk.soak`): every row of each
rulebook's pairwise array, at every player count, in a short game of random legal moves with
every invariant checked after every step. The full run, every triple in longer games, is
``python -m regelverk.soak --strength 3``."""

from __future__ import annotations

import pytest

from regelverk.books import RULEBOOKS
from regelverk.books import rulebook as described
from regelverk.games import game_for
from regelverk.optionspace import combinations
from regelverk.soak import Plan, main, play_one, soak

FAST = Plan(strength=2, steps=250, seeds=1)
"""The slice the normal test run plays: about 150 games and 40,000 steps per rulebook."""


@pytest.mark.clause(
    "VA-EIGHT-TURNS-PILE", "V8-PEN-VETO-RIGHT", "UNO-PLAY-MATCH", "VG-PLAY-PASS-NOT-FINAL"
)
@pytest.mark.parametrize("rulebook", RULEBOOKS)
def test_every_pair_of_option_values_plays_without_breaking_an_invariant(rulebook: str) -> None:
    report = soak(rulebook, FAST)
    print(report.summary())
    assert report.broken == []
    assert report.refused == []
    assert report.rows == len(combinations(game_for(rulebook).options(rulebook), 2))
    # every row is played at least at one count, and most deals are seated
    assert report.games >= report.rows
    assert report.games >= 0.8 * report.rows * len(described(rulebook).seats)
    assert report.steps >= 50 * report.games
    assert report.finished > 0


def test_the_soak_reports_a_broken_game() -> None:
    """A game whose invariants break is reported with its problems (a stand-in game whose
    ``problems`` always finds one)."""
    game = game_for("viggo")

    class Broken:
        def __getattr__(self, name: str) -> object:
            return getattr(game, name)

        def problems(self, state: object) -> tuple[str, ...]:
            return ("a card is in two places",)

    taken, problems = play_one(Broken(), game.options("viggo"), 3, 0, 10)  # type: ignore[arg-type]
    assert (taken, problems) == (0, ["a card is in two places"])


def test_the_command_prints_the_array_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--rulebook", "viggo", "--strength", "1", "--steps", "20"]) == 0
    out = capsys.readouterr().out
    assert "viggo: strength 1: 3 rows over 29 options" in out
