"""The command line and the Python API on bad input, round three: each fault a new user met is
one line and exit status 2 (or a typed error from the API), found before any work is done, and
Ctrl-C stops a command at once with status 130."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from regelverk.cli import main
from regelverk.console import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from regelverk.engine import PositionError, with_options
from regelverk.referee import QuestionError, ask, play
from regelverk.vandatta import GAME as VANDATTA
from regelverk.vandatta import VVV8


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.startswith("regelverk: error: ") and err.count("\n") == 1, err
    return err


def test_an_option_number_too_long_to_read_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Python refuses to read a number of more than 4,300 digits (a ValueError that escaped as a
    traceback)."""
    code = main(["play", "uno", "--option", "target_score=" + "9" * 5000])
    assert code == EXIT_USAGE
    assert "5000 digits" in _one_line_error(capsys)


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_seed_is_checked_and_not_echoed_in_full(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["play", "uno"] if command == "play" else ["simulate", "--rulebook", "uno"]
    assert main([*argv, "--seed", "9" * 5000]) == EXIT_USAGE
    err = _one_line_error(capsys)
    assert "5000 characters" in err and len(err) < 300


@pytest.mark.parametrize("rulebook", ["uno", "vandatta", "vvv8", "viggo"])
def test_a_game_played_with_a_negative_seed_reads_back(
    rulebook: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``play --seed -1`` wrote a final position whose seed ``ask`` then refused: positions take
    the seeds games take."""
    assert main(["play", rulebook, "--seed", "-1", "--players", "3", "--json"]) == EXIT_OK
    record = json.loads(capsys.readouterr().out)
    assert record["seed"] == -1 and record["final"]["seed"] == -1
    question = tmp_path / "q.json"
    question.write_text(json.dumps(record), encoding="utf-8")
    assert main(["ask", str(question)]) == EXIT_OK, capsys.readouterr().err


def test_a_match_over_without_a_dealer_keeps_none_when_read_back() -> None:
    """Under dealer_without_loser = new-draw the match can end with the draw for the deal still
    to come: no dealer. Reading the position back gave it one."""
    options = with_options(VVV8, {"dealer_without_loser": "new-draw"})
    data = {
        "players": ["Ann", "Bo", "Cy"],
        "phase": "match-over",
        "dealer": None,
        "hands": {"Ann": [], "Bo": ["2C"], "Cy": ["3C"]},
        "pile": ["KH"],
    }
    state = VANDATTA.position_from_data(data, options)
    assert state.dealer is None
    again = VANDATTA.position_from_data(VANDATTA.position_to_data(state), options)
    assert again.dealer is None and again == state


def test_a_position_seed_beyond_64_bits_is_refused() -> None:
    data = {"players": ["Ann", "Bo", "Cy"], "seed": 2**64, "pile": ["KH"]}
    with pytest.raises(PositionError, match="'seed' must be a whole number"):
        VANDATTA.position_from_data(data, VVV8)


@pytest.mark.parametrize("content", ["[]", "{}", '{"name": "other", "value": {}}', "null"])
def test_a_cache_file_of_the_wrong_shape_is_read_again(
    content: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A cache file holding valid JSON of another shape crashed every command with
    AttributeError (or, for a table, gave a wrong reading of spec/): it is computed again."""
    monkeypatch.setenv("REGELVERK_CACHE", str(tmp_path))
    assert main(["clause", "UNO-CALL-UNO"]) == EXIT_OK
    first = capsys.readouterr().out
    files = list(tmp_path.iterdir())
    assert files
    for path in files:
        path.write_text(content, encoding="utf-8")
    assert main(["clause", "UNO-CALL-UNO"]) == EXIT_OK
    assert capsys.readouterr().out == first


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["simulate", "--rulebook", "uno", "--games", "1", "--out", "{missing}/t.txt"],
            "does not exist",
        ),
        (["simulate", "--rulebook", "uno", "--games", "1", "--out", ""], "needs a file name"),
        (["simulate", "--rulebook", "uno", "--games", "1", "--out", "{folder}"], "is a folder"),
        (
            ["prove", "--theorem", "vvv8.legal-going-out", "--write-json", "{missing}/p.json"],
            "does not exist",
        ),
        (["prove", "--theorem", "vvv8.legal-going-out", "--write-json", ""], "needs a file name"),
    ],
    ids=["simulate-missing", "simulate-empty", "simulate-folder", "prove-missing", "prove-empty"],
)
def test_an_output_path_is_checked_before_any_work(
    argv: list[str],
    said: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``simulate --out`` and ``prove --write-json`` learned of a missing folder only after the
    whole run, and wrote nothing for an empty name with exit 0. Nothing is run now: the game
    and theorem functions are replaced by ones that fail the test if called."""

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the run started before the output path was checked")

    monkeypatch.setattr("regelverk.simulate.simulate", never)
    monkeypatch.setattr("regelverk_proofs.theorem.run", never)
    filled = [
        a.format(missing=tmp_path / "missing", folder=tmp_path) if "{" in a else a for a in argv
    ]
    assert main(filled) == EXIT_USAGE
    assert said in _one_line_error(capsys)


def test_a_misspelt_option_name_gets_a_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "uno", "--option", "targte_score=5"]) == EXIT_USAGE
    assert "did you mean 'target_score'?" in _one_line_error(capsys)


def test_an_option_takes_true_and_false_as_python_spells_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["play", "uno", "--players", "3", "--option", "stack_draw_two=True"]) == EXIT_OK
    assert main(["play", "uno", "--players", "3", "--option", "stack_draw_two=False"]) == EXIT_OK
    capsys.readouterr()


def _record(tmp_path: Path, capsys: pytest.CaptureFixture[str], rulebook: str) -> dict[str, object]:
    assert main(["play", rulebook, "--seed", "4", "--players", "3", "--json"]) == EXIT_OK
    record: dict[str, object] = json.loads(capsys.readouterr().out)
    return record


@pytest.mark.parametrize("field", ["final", "preset"])
def test_a_record_whose_final_or_preset_was_edited_is_refused(
    field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``play --json`` writes the options played (``preset``) and the last position (``final``);
    a replay that does not give them back was never checked."""
    record = _record(tmp_path, capsys, "vvv8")
    written = record[field]
    assert isinstance(written, dict)
    key = "turn" if field == "final" else "deck_setup"
    written[key] = "someone else"
    question = tmp_path / "q.json"
    question.write_text(json.dumps(record), encoding="utf-8")
    assert main(["ask", str(question)]) == EXIT_USAGE
    err = _one_line_error(capsys)
    assert f"the record's {field!r}" in err and repr(key) in err


def test_the_python_api_raises_typed_errors_for_wrong_argument_types() -> None:
    with pytest.raises(QuestionError, match="a table of fields"):
        ask(None)  # type: ignore[arg-type]
    with pytest.raises(QuestionError, match="a number of players or a list of names"):
        play("uno", 3.0, 1)  # type: ignore[arg-type]
    with pytest.raises(QuestionError, match="a table from option name to value"):
        play("uno", 3, 1, [("target_score", 5)])  # type: ignore[arg-type]
    with pytest.raises(QuestionError, match="named by a string"):
        play(3, 3, 1)  # type: ignore[arg-type]


_AS_AT_A_TERMINAL = (
    "import runpy, signal, sys; "
    "signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv[0] = 'regelverk'; "
    "runpy.run_module('regelverk', run_name='__main__')"
)
"""Runs ``regelverk`` as it runs at a terminal, where Ctrl-C raises KeyboardInterrupt: a test
runner's background process may have inherited SIGINT ignored."""


def _interrupted(argv: list[str], after: float) -> subprocess.CompletedProcess[str]:
    """Run ``regelverk`` with ``argv``, send Ctrl-C (SIGINT) after ``after`` seconds."""
    process = subprocess.Popen(
        [sys.executable, "-c", _AS_AT_A_TERMINAL, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(after)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, process.returncode, out, err)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT as a terminal sends it")
def test_ctrl_c_stops_simulate_with_the_games_so_far(tmp_path: Path) -> None:
    """Ctrl-C printed a traceback, and the worker pool finished its queued games first; now the
    workers stop at once, and the table holds the games finished, marked partial."""
    out = tmp_path / "t.json"
    argv = ["simulate", "--rulebook", "vvv8", "--games", "5000", "--jobs", "2", "--json"]
    done = _interrupted([*argv, "--out", str(out)], after=4)
    assert done.returncode == EXIT_INTERRUPTED, done.stderr
    assert done.stderr.count("\n") == 1 and "interrupted" in done.stderr
    table = json.loads(out.read_text(encoding="utf-8"))
    assert table["complete"] is False
    assert all(row["games"] < 5000 for row in table["rows"])


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT as a terminal sends it")
def test_ctrl_c_stops_prove_and_writes_nothing(tmp_path: Path) -> None:
    """Z3 finalisers swallowed the KeyboardInterrupt and the run went on to the end."""
    out = tmp_path / "p.json"
    done = _interrupted(["prove", "--write-json", str(out)], after=8)
    assert done.returncode == EXIT_INTERRUPTED, done.stderr
    assert done.stderr == "regelverk: interrupted\n"
    assert list(tmp_path.iterdir()) == []


_SOLVING_AT_LENGTH = """
import signal, sys
from regelverk.console import stopping_at_once_on_ctrl_c
from regelverk_proofs.z3api import _z3

signal.signal(signal.SIGINT, signal.default_int_handler)
z3 = _z3()
holes = 13  # fourteen pigeons, thirteen holes: minutes of search
put = [[z3.Bool(f"p{i}h{j}") for j in range(holes)] for i in range(holes + 1)]
solver = z3.Solver()
for pigeon in put:
    solver.add(z3.Or(pigeon))
for j in range(holes):
    for i in range(holes + 1):
        for k in range(i + 1, holes + 1):
            solver.add(z3.Not(z3.And(put[i][j], put[k][j])))
with stopping_at_once_on_ctrl_c():
    print("solving", flush=True)
    print(solver.check(), flush=True)
print("went on", flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT as a terminal sends it")
def test_ctrl_c_during_a_long_z3_check_stops_within_a_second() -> None:
    """Z3 took Ctrl-C for itself (the check answered ``unknown`` and the run went on), and a
    Python handler runs only when Z3 returns: now the process ends at once, in the check."""
    process = subprocess.Popen(
        [sys.executable, "-c", _SOLVING_AT_LENGTH],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline() == "solving\n"
    time.sleep(0.5)  # well inside the check
    process.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    out, err = process.communicate(timeout=60)
    assert time.perf_counter() - sent < 1.0
    assert process.returncode == EXIT_INTERRUPTED
    assert (out, err) == ("", "regelverk: interrupted\n")


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_ctrl_c_stops_mutate_with_no_child_or_scratch_copy_left(tmp_path: Path) -> None:
    """mutate ended at once on Ctrl-C but left its test processes running and its scratch
    copies on disk: now both go with it."""
    scratch, cache = tmp_path / "tmp", tmp_path / "cache"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch), "REGELVERK_CACHE": str(cache)}
    argv = ["mutate", "--mutant", "uno-failed-challenge-draws-four", "--no-tests", "--jobs", "1"]
    process = subprocess.Popen(
        [sys.executable, "-c", _AS_AT_A_TERMINAL, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    deadline = time.monotonic() + 60
    children: set[int] = set()
    while not (children and any(scratch.iterdir())) and time.monotonic() < deadline:
        time.sleep(0.1)
        children = _children(process.pid)
    assert children, "mutate started no child process"
    process.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    _, err = process.communicate(timeout=60)
    assert time.perf_counter() - sent < 1.5
    assert process.returncode == EXIT_INTERRUPTED
    assert err == "regelverk: interrupted\n"
    assert not [pid for pid in children if _alive(pid)]
    assert list(scratch.iterdir()) == []


def test_a_partial_table_says_so_in_every_format() -> None:
    """A table stopped by Ctrl-C is marked partial in JSON and CSV, and reads back as such."""
    import dataclasses

    from regelverk.simulate import simulate, table_from_csv, table_to_csv, table_to_data

    table = dataclasses.replace(
        simulate(["uno"], games=2, seed=0, players=3, jobs=1), complete=False
    )
    assert table_to_data(table)["complete"] is False
    text = table_to_csv(table)
    assert text.splitlines()[0].endswith(" complete=false")
    assert table_from_csv(text) == table


def test_prove_lists_its_theorems_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    """``prove --list --json`` printed plain text. (And prove puts the Ctrl-C handler it found
    back when it returns: Python's own at a terminal, or SIGINT ignored where the test run was
    started in the background, which the process inherits.)"""
    before = signal.getsignal(signal.SIGINT)
    assert main(["prove", "--list", "--json", "--rulebook", "uno"]) == EXIT_OK
    assert signal.getsignal(signal.SIGINT) is before
    listed = json.loads(capsys.readouterr().out)
    assert listed and all(t["rulebooks"] == ["uno"] for t in listed)
    assert {"name", "title", "kind", "clauses", "bindings"} <= set(listed[0])
