"""What people expect of a command-line tool: a progress bar on a terminal and nowhere else,
``NO_COLOR``, shell completion for bash, zsh and fish installed by one command, and "did you
mean" for a misspelt rulebook."""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import io
import json
import os
import pty
import select
import shutil
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from regelverk import progress
from regelverk.cli import build_parser, main
from regelverk.errors import UnknownRulebookError
from regelverk.referee import QuestionError, ask

pytest.importorskip("tqdm", reason="the progress bar needs the cli extra")
pytest.importorskip("argcomplete", reason="shell completion needs the cli extra")

ROOT = Path(__file__).resolve().parent.parent
SIMULATE = ["simulate", "--rulebook", "uno", "--games", "3", "--jobs", "1", "--players", "3"]


def _environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"NO_COLOR", "_ARGCOMPLETE"}}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "model"), str(ROOT / "proofs")])
    return {**env, **extra}


def _on_a_terminal(args: list[str], **extra: str) -> tuple[int, bytes, bytes]:
    """Run ``python -m regelverk ARGS`` with standard error on an 80-column pseudo-terminal;
    its exit status, standard output and what reached the terminal."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    child = subprocess.Popen(
        [sys.executable, "-m", "regelverk", *args],
        stdout=subprocess.PIPE,
        stderr=slave,
        env=_environment(**extra),
    )
    os.close(slave)
    seen = []
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen.append(chunk)
        elif child.poll() is not None:
            break
    assert child.stdout is not None
    out = child.stdout.read()
    child.stdout.close()
    status = child.wait(timeout=60)
    os.close(master)
    return status, out, b"".join(seen)


def test_simulate_draws_a_green_bar_of_games_on_a_terminal() -> None:
    status, out, terminal = _on_a_terminal(SIMULATE)
    assert status == 0
    # the bar counts to the games asked for (how far it is drawn before it is cleared away
    # depends on how quickly the games go)
    assert b"simulate:" in terminal and b"/3 [" in terminal and b"game/s" in terminal
    assert b"\x1b[32m" in terminal  # green
    assert out.startswith(b"3 games per reading")  # the table itself is untouched


def test_no_color_keeps_the_bar_and_drops_its_colour() -> None:
    status, _, terminal = _on_a_terminal(SIMULATE, NO_COLOR="1")
    assert status == 0
    assert b"/3 [" in terminal
    assert b"\x1b[" not in terminal.replace(b"\x1b[A", b"")  # no colour escape at all


@pytest.mark.parametrize("flag", ["--quiet", "-q", "--json"])
def test_quiet_and_json_draw_no_bar(flag: str) -> None:
    status, out, terminal = _on_a_terminal([*SIMULATE, flag])
    assert status == 0 and out
    assert terminal == b""


def test_no_bar_when_standard_error_is_not_a_terminal() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "regelverk", *SIMULATE],
        check=False,
        capture_output=True,
        env=_environment(),
        timeout=120,
    )
    assert done.returncode == 0
    assert done.stderr == b""


def test_prove_counts_its_theorems_on_a_terminal() -> None:
    status, out, terminal = _on_a_terminal(["prove", "--theorem", "viggo.seats"])
    assert status == 0
    assert b"prove:" in terminal and b"1/1" in terminal and b"theorem" in terminal
    assert b"viggo.seats: proved" in out


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_line_said_during_a_bar_goes_to_standard_output_above_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``mutate`` prints a line per mutant while its bar runs."""
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with progress.bar(2, "mutant", "mutate", quiet=False) as bar:
        assert bar.drawn
        bar.say("M-1: killed")
        bar.advance()
    assert capsys.readouterr().out == "M-1: killed\n"
    assert "mutate:" in terminal.getvalue() and "mutant" in terminal.getvalue()


def test_without_a_terminal_the_progress_only_prints_the_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with progress.bar(2, "mutant", "mutate", quiet=False) as bar:
        assert not bar.drawn
        bar.say("M-1: killed")
        bar.advance()
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("M-1: killed\n", "")


@pytest.mark.parametrize("value", ["1", "true", "anything"])
def test_no_color_is_any_value_but_the_empty_one(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("NO_COLOR", value)
    assert not progress.colour_allowed()
    monkeypatch.setenv("NO_COLOR", "")
    assert progress.colour_allowed()


@pytest.mark.parametrize("command", ["prove", "simulate", "mutate"])
def test_every_long_command_takes_quiet(command: str) -> None:
    parser = build_parser()
    with contextlib.redirect_stdout(io.StringIO()) as out, pytest.raises(SystemExit):
        parser.parse_args([command, "--help"])
    assert "--quiet" in out.getvalue()


def test_every_command_takes_json() -> None:
    parser = build_parser()
    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in commands.choices.items():
        flags = {flag for action in command._actions for flag in action.option_strings}
        assert "--json" in flags, name


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_the_script_of_each_shell(
    shell: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    assert "regelverk" in script and "_ARGCOMPLETE" in script
    if shell == "fish":
        assert "complete --command regelverk" in script
    else:
        assert "_python_argcomplete" in script


def test_completion_install_puts_each_script_where_its_shell_looks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "ZDOTDIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    for shell in ("bash", "fish", "zsh", "zsh"):  # zsh twice: ~/.zshrc gets its line once
        assert main(["completion", shell, "--install"]) == 0
    bash = tmp_path / ".local/share/bash-completion/completions/regelverk"
    fish = tmp_path / ".config/fish/completions/regelverk.fish"
    zsh = tmp_path / ".local/share/regelverk/completion.zsh"
    assert "complete -o nospace" in bash.read_text()
    assert "complete --command regelverk" in fish.read_text()
    assert "compdef _python_argcomplete regelverk" in zsh.read_text()
    lines = (tmp_path / ".zshrc").read_text().splitlines()
    assert lines == [f"source {zsh}  # regelverk's completion"]
    assert str(fish) in capsys.readouterr().out


def test_completion_json_names_the_file_and_the_script(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert main(["completion", "fish", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["file"] == str(tmp_path / "fish/completions/regelverk.fish")
    assert "complete --command regelverk" in data["script"]


def _completions(line: str, tmp_path: Path) -> list[str]:
    """What the installed command answers a shell asking to complete ``line``."""
    answer = tmp_path / "answer"
    subprocess.run(
        [sys.executable, "-m", "regelverk"],
        env=_environment(
            _ARGCOMPLETE="1",
            COMP_LINE=line,
            COMP_POINT=str(len(line)),
            _ARGCOMPLETE_STDOUT_FILENAME=str(answer),
        ),
        check=True,
        timeout=60,
    )
    return answer.read_text().split("\x0b")


def test_the_hook_completes_commands_options_rulebooks_and_clause_ids(tmp_path: Path) -> None:
    assert [c.strip() for c in _completions("regelverk pr", tmp_path)] == ["prove"]
    assert "--rulebook" in [c.strip() for c in _completions("regelverk simulate --rul", tmp_path)]
    assert sorted(c.strip() for c in _completions("regelverk play v", tmp_path)) == [
        "vandatta",
        "viggo",
        "vvv8",
    ]
    clause = [c.strip() for c in _completions("regelverk clause uno-wd4-c", tmp_path)]
    assert "uno-wd4-condition" in clause
    assert all(c.startswith("uno-wd4-c") for c in clause)
    upper = [c.strip() for c in _completions("regelverk clause UNO-WD4-CON", tmp_path)]
    assert upper == ["UNO-WD4-CONDITION"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bash_completes_through_the_printed_script(tmp_path: Path) -> None:
    script = tmp_path / "completion.bash"
    script.write_text(
        subprocess.run(
            [sys.executable, "-m", "regelverk", "completion", "bash"],
            env=_environment(),
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "regelverk").write_text(f'#!/bin/sh\nexec {sys.executable} -m regelverk "$@"\n')
    (bin_dir / "regelverk").chmod(0o755)
    probe = (
        f"source {script}; COMP_LINE='regelverk ambiguities --rul'; COMP_POINT=${{#COMP_LINE}}; "
        "COMP_WORDS=(regelverk ambiguities --rul); COMP_CWORD=2; "
        '_python_argcomplete regelverk; echo "${COMPREPLY[@]}"'
    )
    done = subprocess.run(
        ["bash", "-c", probe],
        check=False,
        env=_environment(PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.split() == ["--rulebook"]


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("vvv9", "vvv8"), ("unoo", "uno"), ("Viggo", "viggo"), ("vandata", "vandatta")],
)
def test_a_misspelt_rulebook_in_a_question_gets_did_you_mean(typed: str, meant: str) -> None:
    with pytest.raises(QuestionError, match=f"is '{typed}' \\(did you mean '{meant}'\\?\\)"):
        ask({"rulebook": typed, "position": {}})


def test_a_rulebook_like_none_gets_no_guess() -> None:
    with pytest.raises(QuestionError) as caught:
        ask({"rulebook": "poker", "position": {}})
    assert "did you mean" not in str(caught.value)


def test_the_unknown_rulebook_error_suggests_the_nearest() -> None:
    error = UnknownRulebookError("vvv9", ("vvv8", "vandatta", "viggo", "uno"))
    assert str(error) == (
        "'vvv9' is not a rulebook (did you mean 'vvv8'?); "
        "the rulebooks are vvv8, vandatta, viggo, uno"
    )
