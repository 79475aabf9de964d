"""A broken invariant is an error: ``play``, ``simulate`` and ``ask`` exit with status 4 and name
the invariant when legal play reaches a state the engine's own ``problems`` check refuses.

The engine is sound today, so each test plants the defect the three-options repro once showed:
under ``loser_rule = last-turn-before`` the winner of a blocked deal that the cheapest hand wins
was also named its loser (V8-LOSS-PLAYER-BEFORE-WINNER). The planted rule returns the last
spelförare whoever he is, as the engine did before the fix.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from regelverk.cli import main
from regelverk.console import EXIT_BROKEN, EXIT_OK
from regelverk.engine import InvariantError
from regelverk.simulate import SimulationError, play_one, simulate
from regelverk.vandatta import GAME as VANDATTA_GAME
from regelverk.vandatta import scoring
from regelverk.vandatta.options import LoserRule
from regelverk.vandatta.state import Phase

REPRO = Path(__file__).resolve().parent / "repros" / "vvv8-loser-is-winner-3opts.json"
THREE = [
    "--option",
    "empty_stock=no-rebuild",
    "--option",
    "blocked_deal=fewest-points-wins",
    "--option",
    "loser_rule=last-turn-before",
]
BROKEN = "a loser is named without a different winner"


@pytest.fixture
def planted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The loser rule as it was before the fix: the last spelförare, even the winner himself."""
    sound = scoring.loser_of

    def last_spelforare(table: Any, winner: int) -> int | None:
        if table.options.loser_rule is LoserRule.LAST_TURN_BEFORE and table.previous is not None:
            return int(table.previous)
        return sound(table, winner)

    monkeypatch.setattr(scoring, "loser_of", last_spelforare)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.clause("V8-LOSS-PLAYER-BEFORE-WINNER", "V8-WIN-BLOCKED-DEAL-VOID")
def test_the_three_options_repro_plays_clean(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "play", "vvv8", "--seed", "0", "--players", "3", *THREE)
    assert code == EXIT_OK, err
    assert out.rstrip().endswith("game over") and "Official result" in out
    assert not re.search(r"a win for (P\d), a loss for \1\b", out)
    code, out, err = run(capsys, "ask", "--json", str(REPRO))
    assert code == EXIT_OK, err
    assert json.loads(out)["problems"] == []


@pytest.mark.clause("V8-LOSS-PLAYER-BEFORE-WINNER")
@pytest.mark.usefixtures("planted")
def test_play_stops_at_a_broken_invariant_and_exits_4(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "play", "vvv8", "--seed", "0", "--players", "3", *THREE)
    assert code == EXIT_BROKEN == 4
    assert "a broken invariant" in out.splitlines()[-1]
    assert err.startswith("regelverk: broken invariant after ") and BROKEN in err
    assert err.count("\n") == 1
    # --json still prints the record, which replays to the same broken state
    code, out, err = run(capsys, "play", "vvv8", "--seed", "0", "--players", "3", "--json", *THREE)
    assert code == EXIT_BROKEN and BROKEN in err
    assert json.loads(out)["rulebook"] == "vvv8"


@pytest.mark.clause("V8-LOSS-PLAYER-BEFORE-WINNER")
@pytest.mark.usefixtures("planted")
def test_ask_names_the_invariant_a_replay_breaks_and_exits_4(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "ask", str(REPRO))
    assert code == EXIT_BROKEN
    assert f"problem: the position reached cannot occur: {BROKEN}" in out
    assert err.startswith("regelverk: broken invariant in the position the answer reaches")
    code, out, err = run(capsys, "ask", "--json", str(REPRO))
    assert code == EXIT_BROKEN and json.loads(out)["problems"] == [BROKEN]


@pytest.mark.clause("V8-LOSS-PLAYER-BEFORE-WINNER")
@pytest.mark.usefixtures("planted")
def test_a_simulated_game_names_the_state_that_broke_an_invariant() -> None:
    three = {
        "empty_stock": "no-rebuild",
        "blocked_deal": "fewest-points-wins",
        "loser_rule": "last-turn-before",
    }
    with pytest.raises(InvariantError) as caught:
        play_one("vvv8", three, players=3, seed=0)
    assert caught.value.problems == (BROKEN,)
    assert caught.value.where.startswith(
        "in vvv8 --option blocked_deal=fewest-points-wins --option empty_stock=no-rebuild "
        "--option loser_rule=last-turn-before with 3 players, seed 0, after "
    )


@pytest.fixture
def deal_over_planted(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted invariant that every finished deal breaks."""
    sound = type(VANDATTA_GAME).problems

    def problems(self: Any, state: Any) -> tuple[str, ...]:
        planted = ("a planted problem",) if state.phase is Phase.DEAL_OVER else ()
        return (*sound(self, state), *planted)

    monkeypatch.setattr(type(VANDATTA_GAME), "problems", problems)


@pytest.mark.usefixtures("deal_over_planted")
def test_simulate_exits_4_naming_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--rulebook", "vandatta", "--games", "2", "--players", "3", "--jobs", "1"]
    code, out, err = run(capsys, *args)
    assert code == EXIT_BROKEN and out == ""
    assert err.startswith("regelverk: broken invariant in vandatta with 3 players, seed 0, after ")
    assert err.rstrip().endswith(": a planted problem") and err.count("\n") == 1
    with pytest.raises(SimulationError, match="check must be one of every-step, end, not 'al"):
        simulate(["vandatta"], games=1, seed=0, check="always")


@pytest.mark.usefixtures("deal_over_planted")
def test_simulate_checked_at_the_end_sees_only_the_last_position(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["simulate", "--rulebook", "vandatta", "--games", "2", "--players", "3", "--jobs", "1"]
    code, out, err = run(capsys, *args, "--check", "end", "--format", "json")
    assert code == EXIT_OK, err
    assert json.loads(out)["games"] == 2


def test_an_invariant_error_pickles_for_the_worker_pool() -> None:
    import pickle

    error = InvariantError("in uno with 2 players, seed 3, after 9 actions", ("cards lost",))
    again = pickle.loads(pickle.dumps(error))
    assert (again.where, again.problems, str(again)) == (error.where, error.problems, str(error))


def test_help_lists_the_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for status in ("0  done", "1  a check failed", "2  bad input", "3  'ask' replayed", "4  legal"):
        assert status in out
