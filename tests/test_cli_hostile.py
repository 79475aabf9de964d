"""Hostile input to the command line: every bad file, argument or output is one line on
standard error with exit status 2, never a traceback, a hang or a silent acceptance."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from regelverk.cli import main
from regelverk.console import EXIT_REFUSED, EXIT_USAGE
from regelverk.referee import play

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *args: str, says: str) -> None:
    code, _, err = run(capsys, *args)
    assert code == EXIT_USAGE
    assert err.count("\n") == 1, err
    assert err.startswith("regelverk: error: ")
    assert says in err
    assert len(err) < 700


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"\xff\xfe{\x00}\x00", "UTF-16"),
        (b'{"rulebook": "uno\xff"}', "not UTF-8 text (byte 0xff at offset 17)"),
        (b"[" * 10_000 + b"]" * 10_000, "too deeply"),
        (b'{"a":' * 100 + b"1" + b"}" * 100, "more than 64 deep"),
        (b'{"rulebook": "uno", "players": ' + b"9" * 5000 + b"}", "4300 digits"),
        (b"[1, 2]", "must hold a table"),
        (b'{"rulebook": "' + b"u" * 100_000 + b'"}', "(100002 characters)"),
    ],
)
def test_a_malformed_question_file_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, says: str
) -> None:
    path = tmp_path / "question.json"
    path.write_bytes(content)
    refused(capsys, "ask", str(path), says=says)


def test_a_deeply_nested_toml_file_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "question.toml"
    path.write_text("a = " + "[" * 10_000 + "]" * 10_000 + "\n", encoding="utf-8")
    refused(capsys, "ask", str(path), says="too deeply")


def test_an_endless_file_is_read_only_up_to_its_limit(capsys: pytest.CaptureFixture[str]) -> None:
    refused(capsys, "ask", "/dev/zero", says="larger than 4 MiB")


def test_a_byte_order_mark_is_allowed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "question.json"
    path.write_bytes(b'\xef\xbb\xbf{"rulebook": "uno", "can": "challenged"}')
    code, _, err = run(capsys, "ask", str(path))
    assert "UTF" not in err and code in {0, 2}


@pytest.mark.parametrize(
    ("question", "says"),
    [
        ({"rulebook": "uno", "actions": [], "seed": 1, "players": 3, "sede": 2}, "'seed'"),
        ({"rulebook": "uno", "positon": {}, "action": {}}, "did you mean 'position'"),
        ({"rulebook": "uno", "actions": [], "seed": 1, "players": 2**70}, "from 1 to 100"),
        ({"rulebook": "uno", "actions": [], "seed": -(2**70), "players": 3}, "'seed'"),
    ],
)
def test_a_misspelt_or_outsized_field_is_refused_by_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, question: dict[str, object], says: str
) -> None:
    path = tmp_path / "question.json"
    path.write_text(json.dumps(question), encoding="utf-8")
    refused(capsys, "ask", str(path), says=says)


@pytest.mark.clause("UNO-SETUP-PLAYERS")
@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("play", "uno", "--players", "1" * 20), "at most 100 players"),
        (("play", "uno", "--players", "²"), "UNO-SETUP-PLAYERS"),
        (("play", "uno", "--seed", str(2**70)), "'seed'"),
        (("ask", "--rulebook", "vvv8", "--can", "(" * 5000 + "goes-out" + ")" * 5000), "longer"),
        (("ask", "--rulebook", "vvv8", "--can", "not " * 60 + "goes-out"), "40 deep"),
        (("ask", "--rulebook", "vvv8", "--can", "hand = " + "9" * 5000), "longer"),
        (("ask", "--rulebook", "vvv8", "--can", "hand = " + "9" * 40), "at most 18 digits"),
    ],
)
def test_hostile_arguments_are_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], says: str
) -> None:
    refused(capsys, *args, says=says)


def test_writing_the_results_into_a_folder_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    refused(
        capsys,
        "prove",
        "--theorem",
        "vvv8.official-result-needs-three",
        "--write-json",
        str(tmp_path),
        says="that is a folder, not a file",
    )


def _cli(*args: str, env: dict[str, str] | None = None, stdin: bytes = b"") -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "regelverk", *args],
        input=stdin,
        capture_output=True,
        env={**os.environ, **(env or {})},
        check=False,
    )
    return done.returncode, done.stderr.decode("utf-8", "replace")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_is_one_line() -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "regelverk", "rules"],
            stdout=full,
            stderr=subprocess.PIPE,
            check=False,
        )
    err = done.stderr.decode()
    assert done.returncode == EXIT_USAGE
    assert err == "regelverk: error: cannot use the output: No space left on device\n"


def test_a_console_that_cannot_show_the_suits_gets_escapes() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "regelverk", "play", "vvv8", "--seed", "1", "--players", "3"],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert b"\\u26" in done.stdout  # the suit symbols, escaped


def test_a_question_comes_from_standard_input() -> None:
    record = play("uno", 3, 5).record
    code, err = _cli("ask", "-", stdin=json.dumps(record).encode())
    assert code == 0, err


def test_a_replay_that_reaches_a_refused_action_has_its_own_status(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = play("uno", 3, 5).record
    actions = record["actions"]
    assert isinstance(actions, list)
    record["actions"] = [actions[1], *actions]  # the second player moves first
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code, out, _ = run(capsys, "ask", str(path))
    assert code == EXIT_REFUSED
    assert "the replay stops at action 1: the rules refuse it" in out
    assert run(capsys, "ask", "--json", str(path))[0] == EXIT_REFUSED


def test_names_with_terminal_escapes_are_shown_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "viggo", "--players", "Bo\x1b[2J,Al,Ci", "--seed", "2")
    assert code == 0
    assert "\x1b" not in out
    assert "Bo\\x1b[2J" in out


def test_the_escaping_writer_leaves_ordinary_text_alone() -> None:
    from regelverk.console import EscapingWriter

    buffer = io.StringIO()
    writer = EscapingWriter(buffer)
    writer.write("10♥ and\ttab\n\x07bell\x9b")
    assert buffer.getvalue() == "10♥ and\ttab\n\\x07bell\\x9b"


@pytest.mark.parametrize(
    ("example", "typo"),
    [
        ("uno/skip-wrong-colour.json", ("position", "hnads", "hands")),
        ("uno/skip-wrong-colour.json", ("action", "plyer", "player")),
        ("viggo/equal-pair-refused.json", ("position", "turn_", "turn")),
        ("vandatta/ace-off-suit.json", ("position", "pille", "pile")),
    ],
)
def test_a_misspelt_field_in_a_position_or_action_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, example: str, typo: tuple[str, str, str]
) -> None:
    part, field, meant = typo
    question = json.loads((EXAMPLES / example).read_text(encoding="utf-8"))
    question[part][field] = question[part].get(meant, 1)
    path = tmp_path / "question.json"
    path.write_text(json.dumps(question), encoding="utf-8")
    refused(capsys, "ask", str(path), says=f"{part} has a field '{field}'")
    refused(capsys, "ask", str(path), says=f"did you mean '{meant}'?")
