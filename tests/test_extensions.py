"""The proofs plug into the model as an extension (:mod:`regelverk.extensions`): the entry point
is registered and loads, the model never imports the proofs, and without the extension the
commands that need it say in one line how to install it."""

from __future__ import annotations

import argparse
import ast
from collections.abc import Iterator, Mapping
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

import pytest

from regelverk import extensions
from regelverk.cli import build_parser, main
from regelverk.console import EXIT_USAGE
from regelverk.errors import RegelverkError
from regelverk.extensions import AddCommand
from regelverk.referee import ask
from regelverk_proofs import commands

MODEL = Path(extensions.__file__).resolve().parent


@pytest.fixture
def found(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[EntryPoint]]:
    """The entry points the lookup finds: none, until a test adds some."""
    points: list[EntryPoint] = []
    monkeypatch.setattr("importlib.metadata.entry_points", lambda group: tuple(points))
    extensions.installed.cache_clear()
    yield points
    extensions.installed.cache_clear()


def test_the_proofs_register_their_extension_and_it_loads() -> None:
    points = entry_points(group=extensions.GROUP)
    assert [(p.name, p.value) for p in points] == [
        ("proofs", "regelverk_proofs.commands:EXTENSION")
    ]
    assert extensions.installed() == (commands.EXTENSION,)
    assert isinstance(commands.EXTENSION, extensions.Extension)
    assert extensions.required("a test") is commands.EXTENSION


def _imported(tree: ast.AST) -> Iterator[str]:
    """Every module an import statement names, at any depth (inside functions too)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module


def test_the_model_never_imports_the_proofs() -> None:
    files = sorted(MODEL.rglob("*.py"))
    assert MODEL / "cli.py" in files and MODEL / "referee.py" in files
    offending = [
        f"{path.relative_to(MODEL)}: {name}"
        for path in files
        for name in _imported(ast.parse(path.read_text(encoding="utf-8")))
        if name.split(".")[0] == "regelverk_proofs"
    ]
    assert offending == []


@pytest.mark.usefixtures("found")
@pytest.mark.parametrize(
    ("argv", "needs"),
    [
        (["prove"], "'regelverk prove'"),
        (["prove", "--rulebook", "uno", "--help"], "'regelverk prove'"),
        (["mutate", "--list", "--json"], "'regelverk mutate'"),
        (["ask", "--facts", "uno"], "'regelverk ask --facts'"),
        (["ask", "--rulebook", "vvv8", "--can", "goes-out"], "a 'can' question"),
    ],
)
def test_without_the_extension_a_command_needing_it_says_how_to_install_it(
    argv: list[str], needs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"regelverk: error: {needs} needs the proofs part of regelverk (regelverk_proofs), "
        "which is not installed: install regelverk with its 'prove' extra "
        "(pip install 'regelverk[prove]')\n"
    )


@pytest.mark.usefixtures("found")
def test_without_the_extension_the_commands_keep_their_place() -> None:
    parser = build_parser()
    (commands_action,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    names = list(commands_action.choices)
    assert names[names.index("ask") :][:4] == ["ask", "prove", "mutate", "play"]
    assert main(["rules", "--json"]) == 0


class _Asked:
    """A stand-in extension that keeps the questions it is asked."""

    def __init__(self) -> None:
        self.questions: list[dict[str, Any]] = []

    def add_commands(self, add: AddCommand) -> None:
        """No commands of its own."""

    def can(self, question: Mapping[str, Any]) -> dict[str, Any]:
        """Keep the question; answer that it cannot happen."""
        self.questions.append(dict(question))
        return {"possible": False}

    def facts(self, rulebook: str) -> list[dict[str, Any]]:
        """No scenarios."""
        return []


def test_a_can_question_is_checked_by_the_model_and_answered_by_the_extension(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked = _Asked()
    monkeypatch.setattr(extensions, "installed", lambda: (asked,))
    assert ask({"rulebook": "uno", "can": "challenged", "scenario": "wild-draw-four"}) == {
        "possible": False
    }
    assert asked.questions == [
        {"rulebook": "uno", "can": "challenged", "scenario": "wild-draw-four"}
    ]
    with pytest.raises(RegelverkError, match="takes rulebook, can and scenario"):
        ask({"rulebook": "uno", "can": "challenged", "options": {}})
    assert len(asked.questions) == 1


def test_an_entry_point_whose_module_is_gone_is_no_extension(found: list[EntryPoint]) -> None:
    found.append(EntryPoint("gone", "regelverk_no_such_module.x:EXTENSION", extensions.GROUP))
    assert extensions.installed() == ()


def test_an_entry_point_naming_no_extension_is_an_error(found: list[EntryPoint]) -> None:
    found.append(EntryPoint("odd", "regelverk.errors:RegelverkError", extensions.GROUP))
    with pytest.raises(RegelverkError, match="lacks add_commands, can or facts"):
        extensions.installed()
