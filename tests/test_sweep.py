"""``regelverk simulate --sweep`` and ``--scheduler``: every combination of readings, one row
per game, the same on one process, on every core and on a Dask cluster."""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path
from typing import Any

import pytest

from regelverk.cli import main
from regelverk.cluster import ClusterError, _same_code, code_identity
from regelverk.console import EXIT_USAGE
from regelverk.engine import OptionError
from regelverk.simulate import SimulationError, play_one, simulate, table_to_csv
from regelverk.sweep import COLUMNS, SweepInterrupted, combinations, sweep, swept_options

SMALL: dict[str, Any] = {"games": 2, "seed": 7, "players": 3, "policy": "sensible"}
OPTIONS = ["stack_draw_two", "number_match", "ace_off_suit"]


def _rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def test_a_sweep_plays_every_combination_in_order(tmp_path: Path) -> None:
    out = tmp_path / "sweep.csv"
    swept = sweep(("uno", "vandatta"), OPTIONS, out, jobs=1, **SMALL)
    rows = _rows(out)
    assert swept.complete and swept.games == len(rows) == (4 + 2) * 2
    assert swept.combinations == 6 and swept.refused == ()
    assert list(rows[0]) == [*COLUMNS, "stack_draw_two", "number_match", "ace_off_suit"]
    uno = [(r["stack_draw_two"], r["number_match"], r["seed"]) for r in rows[:8]]
    assert uno == [
        (stack, match, seed)
        for stack in ("true", "false")
        for match in ("number-matches", "colour-only")
        for seed in ("7", "8")
    ]
    assert {r["ace_off_suit"] for r in rows[:8]} == {""}  # UNO has no such option
    assert [r["ace_off_suit"] for r in rows[8:]] == ["forbidden"] * 2 + ["allowed"] * 2


def test_each_row_is_the_game_play_one_plays(tmp_path: Path) -> None:
    out = tmp_path / "sweep.csv"
    sweep(("vvv8",), ["ace_off_suit"], out, jobs=1, **SMALL)
    for row in _rows(out):
        game = play_one(
            "vvv8", {"ace_off_suit": row["ace_off_suit"]}, 3, int(row["seed"]), policy="sensible"
        )
        assert row["digest"] == game.digest and int(row["actions"]) == game.actions
        assert row["deal_losses"] == " ".join(map(str, game.deal_losses))
        assert sum(map(int, row["deal_losses"].split())) == sum(map(int, row["deal_wins"].split()))


def test_a_sweep_on_a_local_dask_cluster_writes_the_same_bytes(tmp_path: Path) -> None:
    """The CI check of deliverable 3: two worker processes of a LocalCluster, against this
    process alone, for a sweep (CSV and Parquet) and for a table."""
    pytest.importorskip("distributed")
    pytest.importorskip("pyarrow")
    for suffix in (".csv", ".parquet"):
        alone, cluster = tmp_path / f"alone{suffix}", tmp_path / f"cluster{suffix}"
        sweep(("uno", "vvv8"), OPTIONS, alone, jobs=1, **SMALL)
        sweep(("uno", "vvv8"), OPTIONS, cluster, jobs=2, scheduler="local", **SMALL)
        assert alone.read_bytes() == cluster.read_bytes()
    table = {"games": 3, "seed": 2, "players": 4, "choices": ("pass_is_final",)}
    here = simulate(("viggo",), jobs=1, **table)  # type: ignore[arg-type]
    there = simulate(("viggo",), jobs=2, scheduler="local", **table)  # type: ignore[arg-type]
    assert table_to_csv(here) == table_to_csv(there)


def test_a_sweep_on_every_local_core_writes_the_same_bytes(tmp_path: Path) -> None:
    alone, pooled = tmp_path / "alone.csv", tmp_path / "pooled.csv"
    sweep(("viggo", "uno"), ["pass_is_final", "stack_draw_two"], alone, jobs=1, **SMALL)
    sweep(("viggo", "uno"), ["pass_is_final", "stack_draw_two"], pooled, jobs=2, **SMALL)
    assert alone.read_bytes() == pooled.read_bytes()


def test_the_parquet_file_holds_the_rows_of_the_csv(tmp_path: Path) -> None:
    parquet = pytest.importorskip("pyarrow.parquet")
    sweep(("uno",), ["stack_draw_two"], tmp_path / "a.csv", jobs=1, **SMALL)
    sweep(("uno",), ["stack_draw_two"], tmp_path / "a.parquet", jobs=1, **SMALL)
    rows = parquet.read_table(tmp_path / "a.parquet").to_pylist()
    text = _rows(tmp_path / "a.csv")
    assert len(rows) == len(text) == 4
    for typed, written in zip(rows, text, strict=True):
        assert {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in typed.items()} == (
            written
        )


def test_a_combination_the_engine_refuses_is_left_out_and_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from regelverk.engine import with_options as real

    def refusing(options: Any, changes: dict[str, Any]) -> Any:
        if changes == {"stack_draw_two": False, "number_match": "colour-only"}:
            raise OptionError("these two readings cannot hold together")
        return real(options, changes)

    monkeypatch.setattr("regelverk.sweep.with_options", refusing)
    accepted, refused = combinations("uno", ("stack_draw_two", "number_match"))
    assert len(accepted) == 3 and refused == (
        {"stack_draw_two": False, "number_match": "colour-only"},
    )
    swept = sweep(("uno",), ["stack_draw_two", "number_match"], tmp_path / "s.csv", jobs=1, **SMALL)
    assert swept.refused == ("uno: stack_draw_two=false, number_match=colour-only",)
    assert swept.games == 3 * 2


def test_all_names_every_option_with_a_choice_and_too_many_is_refused() -> None:
    every = swept_options("viggo", ["all"])
    assert "pass_is_final" in every and len(every) == len(set(every))
    assert swept_options("viggo", ["stack_draw_two", "pass_is_final"]) == ("pass_is_final",)
    with pytest.raises(SimulationError, match=r"uno: sweeping \d+ options is [\d,]+ combinations"):
        combinations("uno", swept_options("uno", ["all"]))


def test_ctrl_c_keeps_the_games_finished_in_a_valid_file(tmp_path: Path) -> None:
    out = tmp_path / "cut.csv"

    def stopping(total: int) -> Any:
        seen = [0]

        def one(_: int) -> None:
            seen[0] += 1
            if seen[0] == 3:
                raise KeyboardInterrupt

        return one

    with pytest.raises(SweepInterrupted) as stopped:
        sweep(("uno",), ["stack_draw_two"], out, jobs=1, progress=stopping, **SMALL)
    assert not stopped.value.swept.complete and stopped.value.swept.games == 3
    assert len(_rows(out)) == 3
    assert not list(tmp_path.glob(".*.part"))  # no scratch file left behind


def test_a_worker_running_other_code_is_refused() -> None:
    class Client:
        def __init__(self, answers: dict[str, Any]) -> None:
            self.answers = answers

        def run(self, function: Any, on_error: str) -> dict[str, Any]:
            assert function is code_identity and on_error == "return"
            return self.answers

    _same_code(Client({"tcp://a:1": code_identity()}))
    with pytest.raises(ClusterError, match=r"tcp://b:2 runs regelverk 0\.0\.9 \(x\)"):
        _same_code(Client({"tcp://a:1": code_identity(), "tcp://b:2": "regelverk 0.0.9 (x)"}))
    with pytest.raises(ClusterError, match="tcp://c:3 cannot say which regelverk it runs"):
        _same_code(Client({"tcp://c:3": OSError("no spec")}))
    with pytest.raises(ClusterError, match="no workers"):
        _same_code(Client({}))


def test_without_dask_the_cluster_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ClusterError, match=r"pip install 'regelverk\[cluster\]'"):
        simulate(("uno",), games=1, seed=0, jobs=1, scheduler="local")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--sweep", "stack_draw_two"], "give --out FILE.csv or .parquet"),
        (["--sweep", "stack_draw_two", "--out", "x.txt"], "a .csv or a .parquet file"),
        (["--sweep", "stack_draw_two", "--out", "x.csv", "--option", "number_match"], "--option"),
        (["--sweep", "stack_draw_two", "--out", "x.csv", "--json"], "leave out --format"),
        (["--sweep", "nothing_like_it", "--out", "x.csv"], "'nothing_like_it' is not an option"),
        (["--sweep", "all", "--rulebook", "uno", "--out", "x.csv"], "sweep fewer options"),
        (["--sweep", "stack_draw_two", "--out", "x.csv", "--games", "0"], "number of games"),
    ],
)
def test_bad_sweeps_are_one_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    args: list[str],
    says: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code = main(["simulate", *args])
    out, err = capsys.readouterr()
    assert code == EXIT_USAGE and out == ""
    assert err.startswith("regelverk: error: ") and err.count("\n") == 1
    assert says in err, err
    assert not list(tmp_path.iterdir())  # nothing written


def test_the_command_sweeps_and_says_what_it_wrote(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "s.csv"
    args = ["simulate", "--rulebook", "viggo", "--sweep", "pass_is_final", "--games", "2"]
    code = main([*args, "--jobs", "1", "--out", str(out), "--policy", "keen"])
    said = capsys.readouterr().out
    assert code == 0 and said.startswith("4 games of 2 combinations in ")
    assert said.endswith(f"one row per game in {out}\n")
    assert {r["policy"] for r in _rows(out)} == {"keen"}
