"""``regelverk simulate``: seeded, reproducible tables of games per reading, counted honestly."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from regelverk.books import RULEBOOKS
from regelverk.books import rulebook as described
from regelverk.cli import main
from regelverk.console import EXIT_USAGE
from regelverk.errors import UnknownRulebookError
from regelverk.referee import play
from regelverk.simulate import (
    SimulationError,
    play_one,
    rate,
    readings_of,
    simulate,
    table_from_csv,
    table_to_csv,
    table_to_data,
    variants,
    wilson,
)

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "docs" / "players" / "simulation.csv"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_simulated_game_is_the_game_play_plays() -> None:
    for book in ("vandatta", "viggo"):
        played = play(book, 4, 3)
        result = play_one(book, {}, 4, 3)
        assert result.actions == len(played.record["actions"])
        assert result.finished is played.over


def test_the_same_seed_gives_the_same_table_and_another_seed_another() -> None:
    first = simulate(("vandatta",), games=3, seed=11, jobs=1, choices=("ace_off_suit",))
    again = simulate(("vandatta",), games=3, seed=11, jobs=1, choices=("ace_off_suit",))
    other = simulate(("vandatta",), games=3, seed=12, jobs=1, choices=("ace_off_suit",))
    assert table_to_csv(first) == table_to_csv(again)
    assert table_to_csv(first) != table_to_csv(other)


def test_one_job_and_two_jobs_give_the_same_table() -> None:
    one = simulate(("viggo", "vvv8"), games=3, seed=4, jobs=1, choices=("pass_is_final",))
    two = simulate(("viggo", "vvv8"), games=3, seed=4, jobs=2, choices=("pass_is_final",))
    assert table_to_data(one) == table_to_data(two)


def test_the_preset_row_comes_first_and_readings_follow() -> None:
    table = simulate(("vandatta",), games=2, seed=1, jobs=1, choices=("empty_stock",))
    assert [(r.option, r.reading) for r in table.rows] == [
        ("", ""),
        ("empty_stock", "rebuild-unshuffled"),
        ("empty_stock", "no-rebuild"),
    ]
    preset = table.rows[0]
    assert preset.diverged == 0 and preset.changed == 0
    assert preset.finished == 2 and preset.mean_actions > 0 and preset.mean_rounds >= 1
    # a Vändåtta match names its champions: every finished game has one, or a tie of several
    assert sum(preset.wins) + preset.tied_wins == preset.outcomes == 2
    assert all(0 <= n <= row.outcomes for row in table.rows for n in (*row.wins, *row.losses))


def test_viggo_names_a_loser_and_a_reading_that_changes_play_diverges() -> None:
    table = simulate(("viggo",), games=4, seed=2, jobs=1, choices=("pass_is_final",))
    preset, final = table.rows
    assert preset.wins == (0, 0, 0, 0) and preset.tied_wins == 0
    assert sum(preset.losses) + preset.tied_losses == preset.finished == 4
    assert final.diverged == 4  # a pass ends a player's trick at once: every game goes otherwise
    assert final.changed <= final.diverged


def test_csv_and_json_have_the_documented_shape() -> None:
    table = simulate(("uno",), games=2, seed=5, players=3, jobs=1, choices=("stack_draw_two=true",))
    text = table_to_csv(table)
    assert text.splitlines()[0] == "# seed=5 games=2 players=3 policy=random format=2"
    rows = list(csv.DictReader(io.StringIO("\n".join(text.splitlines()[1:]))))
    assert list(rows[0]) == [
        "rulebook",
        "option",
        "reading",
        "games",
        "finished",
        "mean_actions",
        "mean_rounds",
        "diverged",
        "changed",
        "outcome",
        "outcomes",
        "tied_wins",
        "tied_losses",
        "wins_P1",
        "wins_P2",
        "wins_P3",
        "losses_P1",
        "losses_P2",
        "losses_P3",
    ]
    assert [(r["option"], r["reading"]) for r in rows] == [("", ""), ("stack_draw_two", "true")]
    assert table_from_csv(text) == table
    data = table_to_data(table)
    assert set(data) == {"seed", "games", "players", "policy", "complete", "rows"}
    assert data["complete"] is True
    assert len(data["rows"][1]["wins"]) == 3 and data["rows"][1]["option"] == "stack_draw_two"
    preset = table.rows[0]
    assert data["rows"][0]["rates"]["wins"] == [list(rate(n, preset.outcomes)) for n in preset.wins]
    assert data["rows"][1]["rates"]["diverged"] == list(rate(table.rows[1].diverged, 2))


def test_a_table_of_the_old_format_is_refused_saying_why() -> None:
    old = "# seed=1 games=2 players=2 policy=random\nrulebook,option\nuno,\n"
    with pytest.raises(SimulationError, match="format 1, which counted a tie as a win"):
        table_from_csv(old)
    new = table_to_csv(simulate(("uno",), games=1, seed=1, players=2, jobs=1))
    with pytest.raises(SimulationError, match="malformed"):
        table_from_csv(new.replace(",game,", ",game,x", 1))


def test_wilson_intervals_match_the_hand_worked_figures() -> None:
    """Worked by hand from the score interval's formula, z = 1.96 (to four decimals)."""
    assert [round(x, 4) for x in wilson(5, 10)] == [0.2366, 0.7634]
    assert [round(x, 4) for x in wilson(0, 20)] == [0.0, 0.1611]
    assert [round(x, 4) for x in wilson(20, 20)] == [0.8389, 1.0]
    assert wilson(0, 0) == (0.0, 1.0)
    assert rate(1, 4) == (0.25, 0.0456, 0.6994)
    assert rate(0, 0) == (0.0, 0.0, 1.0)


@pytest.mark.parametrize("book", RULEBOOKS)
@pytest.mark.parametrize("policy", ["random", "sensible"])
def test_the_seat_counts_and_the_ties_add_up_to_every_result(book: str, policy: str) -> None:
    """Every result counted names a winner (loser) alone or a tie: never a seat twice, never a
    tie as a win for each of its seats. A vvv8 deal has one official winner and one loser."""
    table = simulate((book,), games=6, seed=21, players=4, jobs=1, policy=policy)
    (row,) = table.rows
    assert row.outcome == described(book).outcome
    counted = row.losses if described(book).counted == "losses" else row.wins
    tied = row.tied_losses if described(book).counted == "losses" else row.tied_wins
    if row.outcome == "deal":
        assert sum(row.wins) == sum(row.losses) == row.outcomes > 0
        assert row.tied_wins == row.tied_losses == 0
    else:
        assert row.outcomes == row.finished == 6
        assert sum(counted) + tied == row.outcomes  # every finished game names its result
    shares = [rate(n, row.outcomes)[0] for n in counted]
    assert abs(sum(shares) + rate(tied, row.outcomes)[0] - 1) < 1e-3


def test_readings_and_variants_come_from_the_options_type() -> None:
    assert readings_of("vandatta", "ace_off_suit") == ("forbidden", "allowed")
    assert readings_of("uno", "stack_draw_two") == (True, False)
    found = variants("vandatta", ["ace_off_suit", "ace_off_suit=allowed"])
    assert [(v.option, v.reading) for v in found] == [(None, None), ("ace_off_suit", "allowed")]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--games", "-1"], "the number of games must be a whole number from 1"),
        (["--games", "0"], "the number of games must be a whole number from 1"),
        (["--jobs", "-2"], "the number of jobs must be a whole number from 0"),
        (["--players", "-3"], "the number of players must be a whole number from 1"),
        (["--rulebook", "viggo", "--players", "7"], "viggo with 7 players"),
        (["--rulebook", "viggo", "--option", "ace_of_suit"], "'ace_of_suit' is not an option"),
        (["--rulebook", "vandatta", "--option", "ace_of_suit"], "did you mean ace_off_suit"),
        (["--rulebook", "uno", "--option", "target_score"], "give a value, as in --option"),
        (["--rulebook", "vandatta", "--option", "ace_off_suit=sometimes"], "'sometimes'"),
        (["--rulebook", "vandatta", "--option", "=x"], "--option takes NAME or NAME=VALUE"),
        (["--seed", str(2**64)], "'seed' must be a whole number"),
    ],
)
def test_bad_requests_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    code, out, err = run(capsys, "simulate", *args)
    assert code == EXIT_USAGE and out == ""
    assert err.startswith("regelverk: error: ") and err.count("\n") == 1
    assert says in err, err


def test_an_unknown_rulebook_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["simulate", "--rulebook", "poker"])
    assert stopped.value.code == 2
    assert "invalid choice: 'poker'" in capsys.readouterr().err
    with pytest.raises(UnknownRulebookError, match="'poker' is not a rulebook"):
        simulate(("poker",), games=1, seed=0, jobs=1)


def test_the_command_writes_csv_json_and_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "table.csv"
    common = ["simulate", "--rulebook", "vandatta", "--games", "2", "--seed", "9", "--jobs", "1"]
    code, out, _ = run(capsys, *common, "--format", "csv", "--out", str(target))
    assert code == 0 and "4 games" not in out and "2 games" in out and str(target) in out
    assert target.read_text(encoding="utf-8").startswith(
        "# seed=9 games=2 players=4 policy=random format=2\n"
    )
    code, out, _ = run(capsys, *common, "--json")
    assert code == 0 and json.loads(out)["rows"][0]["rulebook"] == "vandatta"
    code, out, _ = run(capsys, *common, "--option", "go_out_on")
    assert code == 0 and "vandatta (preset): 2 of 2 finished" in out
    assert "go_out_on = with-or-onto" in out


def test_the_committed_table_is_what_the_command_gives_for_its_seed() -> None:
    """The rulebook's plots are drawn from ``docs/players/simulation.csv``; each row depends
    only on its own games and the preset's, so rebuilding two of its rows checks the file."""
    committed = table_from_csv(COMMITTED.read_text(encoding="utf-8"))
    rows = {(r.rulebook, r.option, r.reading): r for r in committed.rows}
    again = simulate(
        ("vandatta",),
        games=committed.games,
        seed=committed.seed,
        players=committed.players,
        choices=("ace_off_suit",),
        jobs=1,
        policy=committed.policy,
    )
    assert committed.policy == "sensible"  # the statistics pages are played by the sensible player
    for row in again.rows:
        assert rows[(row.rulebook, row.option, row.reading)] == row


def test_the_text_table_says_which_seeds_and_how_many_games_did_not_finish() -> None:
    from regelverk.cli import _simulation_text

    rates: dict[str, Any] = {
        "diverged": [0.0, 0.0, 0.4899],
        "changed": [0.0, 0.0, 0.4899],
        "wins": [[0.5, 0.15, 0.85], [0.25, 0.0456, 0.6994]],
        "losses": [[0.0, 0.0, 0.4899], [0.0, 0.0, 0.4899]],
    }
    row: dict[str, Any] = {
        "rulebook": "uno",
        "option": "",
        "reading": "",
        "games": 4,
        "finished": 4,
        "mean_actions": 10.0,
        "mean_rounds": 1.0,
        "diverged": 0,
        "changed": 0,
        "outcome": "game",
        "outcomes": 4,
        "wins": [2, 1],
        "losses": [0, 0],
        "tied_wins": 1,
        "tied_losses": 0,
        "rates": rates,
    }
    other = {
        **row,
        "option": "number_match",
        "reading": "colour-only",
        "finished": 3,
        "diverged": 2,
        "rates": {**rates, "diverged": [0.5, 0.15, 0.85]},
    }
    text = _simulation_text({"seed": 3, "games": 4, "players": 2, "rows": [row, other]})
    assert text.splitlines()[0] == (
        "4 games per reading, 2 players, seeds 3 to 6, every seat playing random; shares with "
        "their 95% Wilson interval"
    )
    assert "uno (preset): 4 of 4 finished" in text
    assert "  wins by seat, of 4 games: 0.50 (0.15-0.85)  0.25 (0.05-0.70); 1 tie (won by " in text
    assert "losses by seat" not in text  # UNO names no loser: no line of zeros
    assert "number_match = colour-only: 50% (15%-85%) of games go otherwise" in text
    assert "(1 unfinished)" in text
