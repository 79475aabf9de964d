"""Viggo through the referee: the worked question files, and ``regelverk play`` replayed by ask."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from regelverk.cli import main
from regelverk.referee import QuestionError, ask, load_question, play

EXAMPLES = sorted((Path(__file__).parent.parent / "examples" / "viggo").glob("*.json"))


@pytest.mark.clause("VG-RANK-THREE-BEATS-THREE", "VG-PLAY-PASS-NOT-FINAL")
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_question_files(path: Path) -> None:
    question = load_question(path)
    answer = ask(question)
    expect = question["expect"]
    assert answer["allowed"] == expect["allowed"], answer["message"]
    assert set(expect["clauses"]) <= set(answer["clauses"])
    assert answer["problems"] == []


def test_there_are_question_files() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.clause("VG-WIN-ROUND-FIRST-OUT", "VG-LOSS-FIRST-TO-53")
def test_play_record_replays_through_ask(capsys: pytest.CaptureFixture[str]) -> None:
    played = play("viggo", 4, 3)
    assert played.over
    answer = ask(played.record)
    assert answer["allowed"] and answer["over"] and answer["problems"] == []
    assert len(answer["steps"]) == len(played.record["actions"])
    assert main(["play", "viggo", "--seed", "3", "--players", "4", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["actions"] == played.record["actions"]


def test_bad_positions_are_named() -> None:
    base = {"rulebook": "viggo", "action": {"action": "pass"}}
    with pytest.raises(QuestionError, match="'turn'"):
        ask({**base, "position": {"players": ["A", "B"], "hands": {}}})
    with pytest.raises(QuestionError, match=r"hands\.A"):
        ask({**base, "position": {"players": ["A", "B"], "turn": "A", "hands": {"A": ["ZZ"]}}})
    twice = {"players": ["A", "B"], "turn": "A", "hands": {"A": ["5C"], "B": ["5C"]}}
    with pytest.raises(QuestionError, match="cannot occur"):
        ask({**base, "position": twice})
    sound = {"players": ["A", "B"], "turn": "A", "hands": {"A": ["5C"], "B": ["6C"]}}
    with pytest.raises(QuestionError, match="'action'"):
        ask({**base, "position": sound, "action": {"action": "fold"}})
