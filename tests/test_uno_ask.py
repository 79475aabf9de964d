"""UNO through ``regelverk ask`` and ``regelverk play``: the worked question files, game records,
and bad input refused in words."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from regelverk.cli import main
from regelverk.paths import source_root
from regelverk.referee import QuestionError, ask, load_question, play
from regelverk.uno import GAME, Catch, Draw

ROOT = source_root()
EXAMPLES = sorted((ROOT / "examples" / "uno").glob("*.json")) if ROOT else []


@pytest.mark.skipif(not EXAMPLES, reason="the examples are not at hand")
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.clause("UNO-WD4-CHALLENGE-SUCCESS", "UNO-WD4-CHALLENGE-FAILED-SIX", "UNO-CALL-PENALTY")
def test_question_files_get_the_expected_ruling(path: Path) -> None:
    question = load_question(path)
    expect: dict[str, Any] = question["expect"]
    answer = ask(question)
    assert answer["allowed"] is expect["allowed"], answer["message"]
    assert set(expect["clauses"]) <= set(answer["clauses"]), answer["clauses"]
    assert answer["problems"] == []
    if "verdict" in expect:
        assert answer["verdict"] == expect["verdict"]
        return
    final = answer["position"]
    for name, size in expect.get("hand_sizes", {}).items():
        assert len(final["hands"][name]) == size, name
    if "turn" in expect:
        assert final["turn"] == expect["turn"]
    if "phase" in expect:
        assert final["phase"] == expect["phase"]
    for option, wanted in expect.get("readings", {}).items():
        got = {r["reading"]: r["allowed"] for r in answer["readings"] if r["option"] == option}
        assert got == wanted, option


def test_a_played_game_replays_through_ask() -> None:
    played = play("uno", 4, 3)
    assert played.over
    record = json.loads(json.dumps(played.record))
    answer = ask(record)
    assert answer["allowed"] and answer["over"] and answer["problems"] == []
    assert len(answer["steps"]) == len(played.record["actions"])
    assert answer["position"] == played.record["final"]


def test_play_and_ask_on_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["play", "uno", "--seed", "3", "--players", "4"]) == 0
    out = capsys.readouterr().out
    assert "UNO-" in out and out.rstrip().endswith("game over")
    assert main(["play", "uno", "--seed", "3", "--players", "4", "--json"]) == 0
    record = tmp_path / "game.json"
    record.write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["ask", str(record)]) == 0
    assert "the record ends with the game over" in capsys.readouterr().out


def test_options_reach_play() -> None:
    played = play("uno", ["Anna", "Bo"], 8, {"deck": 112, "stack_draw_two": True})
    assert played.record["preset"]["deck"] == 112
    assert ask(json.loads(json.dumps(played.record)))["allowed"]


BASE = {
    "players": ["Anna", "Bo"],
    "hands": {"Anna": ["R1"], "Bo": ["B2"]},
    "discard": ["R3"],
    "turn": "Anna",
}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"players": ["Anna"]}, "2 to 10"),
        ({"hands": {"Anna": ["R1"]}}, "no entry for 'Bo'"),
        ({"hands": {"Anna": ["X9"], "Bo": []}}, "hands.Anna[0]"),
        ({"discard": []}, "top card"),
        ({"turn": "Cia"}, "'turn' must name a player"),
        ({"colour": "purple"}, "'colour'"),
        ({"phase": "dance"}, "'phase'"),
        ({"direction": "up"}, "'direction'"),
        ({"scores": {"Anna": -3}}, "scores.Anna"),
        ({"draw_pile": ["R1"]}, "cannot occur"),
    ],
)
def test_bad_positions_are_refused_in_words(change: dict[str, Any], words: str) -> None:
    with pytest.raises(QuestionError, match="position") as caught:
        ask({"rulebook": "uno", "position": {**BASE, **change}, "action": {"action": "draw"}})
    assert words in str(caught.value)


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ({"action": "fly"}, "'action' must be one of"),
        ({"action": "play", "card": "Q9"}, "'card'"),
        ({"action": "play", "card": "W", "colour": "pink"}, "'colour'"),
        ({"action": "play", "card": "R1", "uno": "yes"}, "'uno'"),
        ({"action": "catch", "target": "Bo"}, "catching 'player'"),
        ({"action": "draw", "player": "Eve"}, "'player'"),
    ],
)
def test_bad_actions_are_refused_in_words(action: dict[str, Any], words: str) -> None:
    with pytest.raises(QuestionError, match="action") as caught:
        ask({"rulebook": "uno", "position": BASE, "action": action})
    assert words in str(caught.value)


def test_positions_round_trip() -> None:
    state = GAME.deal(GAME.options("uno"), ["Anna", "Bo", "Cia"], 11)
    chooser = random.Random(11)
    for _ in range(1500):
        data = GAME.position_to_data(state)
        assert GAME.position_from_data(data, state.options) == state
        legal = GAME.legal_actions(state)
        plays = [a for a in legal if not isinstance(a, Draw | Catch)]
        action = chooser.choice(plays or legal)
        assert GAME.action_from_data(GAME.action_to_data(action), state) == action
        state = GAME.apply(state, action).state
        if GAME.is_over(state):
            break
    assert state.results
