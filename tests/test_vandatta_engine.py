"""The Vändåtta engine as a whole: options, presets, determinism, errors, ``ask``, ``play``."""

from __future__ import annotations

import dataclasses
import enum
import itertools
import json
from pathlib import Path

import pytest

from regelverk.cli import main
from regelverk.engine import ActionError, IllegalActionError, OptionError, PositionError
from regelverk.games import game_for
from regelverk.referee import QuestionError, ask, load_question, play
from regelverk.registry import default_registry
from regelverk.vandatta import GAME, VANDATTA, VVV8, VandattaOptions
from regelverk.vandatta.options import PRESETS

REGISTRY = default_registry()
FIELDS = {f.name: f for f in dataclasses.fields(VandattaOptions)}
EXAMPLES = sorted((Path(__file__).parent.parent / "examples" / "vandatta").glob("*.json"))


def test_every_ambiguity_option_that_is_a_field_takes_its_readings_and_default() -> None:
    checked = 0
    for book in ("vvv8", "vandatta"):
        for ambiguity in REGISTRY.rulebook(book).ambiguities:
            if ambiguity.option not in FIELDS:
                continue
            value = getattr(PRESETS[book], ambiguity.option)
            assert isinstance(value, enum.Enum), ambiguity.option
            values = {m.value for m in type(value)}
            assert {r.name for r in ambiguity.readings} <= values, ambiguity.id
            assert value.value == ambiguity.default, ambiguity.id
            checked += 1
    assert checked >= 40


def test_every_comparison_row_names_a_field_of_the_options() -> None:
    for row in REGISTRY.comparison:
        if row.option is not None:
            assert row.option in FIELDS, row.topic


def test_every_field_docstring_cites_a_clause_or_ambiguity() -> None:
    import ast
    import inspect

    from regelverk.vandatta import options as module

    tree = ast.parse(inspect.getsource(module.VandattaOptions))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs: dict[str, str] = {}
    for node, after in itertools.pairwise(body):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            text = after.value if isinstance(after, ast.Expr) else None
            docs[node.target.id] = str(text.value) if isinstance(text, ast.Constant) else ""
    known = {c.id for c in REGISTRY.clauses()} | {
        a.id for b in ("vvv8", "vandatta") for a in REGISTRY.rulebook(b).ambiguities
    }
    for name in FIELDS:
        assert any(ident in docs[name] for ident in known), name


def test_presets_differ_only_where_the_comparison_or_register_says() -> None:
    differing = {n for n in FIELDS if getattr(VVV8, n) != getattr(VANDATTA, n)}
    explained = {r.option for r in REGISTRY.comparison} | {
        a.option for b in ("vvv8", "vandatta") for a in REGISTRY.rulebook(b).ambiguities
    }
    extra = {"session", "coffee_break_max_players", "dealer_draw", "min_active_for_result"}
    assert differing <= explained | extra


def test_options_are_checked_when_made() -> None:
    with pytest.raises(OptionError, match="varning_cards"):
        dataclasses.replace(VANDATTA, varning_cards=5)
    played = dataclasses.replace(VANDATTA, start_ace=type(VANDATTA.start_ace)("as-dealers-ace"))
    assert played.start_ace.value == "as-dealers-ace"  # a register reading the engine plays
    with pytest.raises(OptionError, match="max_players must be between 2 and 14"):
        dataclasses.replace(VANDATTA, max_players=15)


def test_bad_positions_and_actions_name_the_field() -> None:
    state = GAME.deal(VANDATTA, ["A", "B"], 1)
    with pytest.raises(PositionError, match="'players'"):
        GAME.position_from_data({"players": "AB"}, VANDATTA)
    with pytest.raises(PositionError, match=r"'hands.A', card 1"):
        GAME.position_from_data({"players": ["A", "B"], "hands": {"A": ["ZZ"]}}, VANDATTA)
    with pytest.raises(PositionError, match="more cards"):
        GAME.position_from_data(
            {"players": ["A", "B"], "hands": {"A": ["9H"]}, "pile": ["9H"]}, VANDATTA
        )
    with pytest.raises(ActionError, match="'action'"):
        GAME.action_from_data({"action": "jump"}, state)
    with pytest.raises(ActionError, match="'cards'"):
        GAME.action_from_data({"action": "play", "cards": "9H"}, state)


def test_too_many_players_for_a_coffee_break() -> None:
    with pytest.raises(IllegalActionError, match="coffee break"):
        GAME.deal(VVV8, [f"P{n}" for n in range(6)], 0)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_question_files(path: Path) -> None:
    data = load_question(path)
    answer = ask(data)
    expect = data["expect"]
    assert answer["allowed"] is expect["allowed"]
    for ident in expect.get("clauses", []):
        assert ident in answer["clauses"]
    assert answer["problems"] == []
    if "verdict" in expect:
        assert answer["verdict"] == expect["verdict"]


def test_a_malformed_question_is_an_error_in_words() -> None:
    with pytest.raises(QuestionError, match="position"):
        ask({"rulebook": "vandatta", "position": {"players": ["A"]}, "action": {}})


@pytest.mark.parametrize("book", ["vvv8", "vandatta"])
def test_play_and_replay_through_the_command_line(
    book: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", book, "--seed", "3", "--players", "4"]) == 0
    out = capsys.readouterr().out
    assert "game over" in out and "[" in out
    assert main(["play", book, "--seed", "3", "--players", "Ann,Bo,Cy", "--json"]) == 0
    record = capsys.readouterr().out
    path = tmp_path / "record.json"
    path.write_text(record, encoding="utf-8")
    assert main(["ask", str(path), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["allowed"] and answer["over"] and answer["problems"] == []
    assert answer["position"] == json.loads(record)["final"]


@pytest.mark.clause("V8-LOSS-PLAYER-BEFORE-WINNER")
def test_a_finished_deal_keeps_its_loser_through_a_position_file() -> None:
    for seed in range(40):
        final = play("vvv8", 3, seed=seed).record["final"]
        if final.get("loser") is not None:
            break
    else:
        pytest.fail("no random vvv8 deal among 40 ended with an official loser")
    game = game_for("vvv8")
    state = game.position_from_data(final, game.options("vvv8"))
    assert game.position_to_data(state) == final
    assert game.problems(state) == ()
