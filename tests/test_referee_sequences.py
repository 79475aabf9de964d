"""Questions that play a sequence of actions from a position, and records whose answer shows
the deal itself: every step ruled on with its events, its clauses and its readings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from regelverk.cli import main
from regelverk.console import EXIT_OK, EXIT_REFUSED
from regelverk.referee import QuestionError, ask, play

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

_BLUFF: dict[str, Any] = json.loads(
    (EXAMPLES / "uno" / "sequence-bluff-then-challenge.json").read_text(encoding="utf-8")
)


@pytest.mark.clause("UNO-WD4-CONDITION", "UNO-WD4-CHALLENGE-SUCCESS", "UNO-PLAY-MATCH")
def test_a_sequence_is_ruled_step_by_step_from_the_position() -> None:
    answer = ask(_BLUFF)
    assert answer["kind"] == "sequence"
    assert [s["allowed"] for s in answer["steps"]] == [True, True, True]
    challenge = answer["steps"][1]
    assert "UNO-WD4-CHALLENGE-SUCCESS" in challenge["clauses"]
    assert any("draws 4 cards" in e["text"] for e in challenge["events"])
    assert len(answer["position"]["hands"]["Anna"]) == 6
    assert answer["problems"] == []


@pytest.mark.clause("UNO-WD4-CONDITION", "UNO-WD4-CHALLENGE-SUCCESS")
def test_a_later_step_says_which_readings_never_reach_it() -> None:
    challenge = ask(_BLUFF)["steps"][1]
    by_reading = {(r["option"], r["reading"]): r for r in challenge["readings"]}
    refused = by_reading["illegal_wd4", "refused"]
    assert refused["allowed"] is False
    assert refused["summary"].startswith("the position is not reached")
    six = by_reading["challenge_success_penalty", "guilty-draws-six"]
    assert six["allowed"] is True and "draws 6 cards" in six["summary"]


@pytest.mark.clause("VA-PLAY-MATCH-RANK-OR-SUIT", "VA-DRAW-PASS-AFTER-THREE")
def test_a_sequence_stops_at_the_first_refused_action(capsys: pytest.CaptureFixture[str]) -> None:
    path = EXAMPLES / "vandatta" / "sequence-three-draws-then-pass.json"
    answer = ask(json.loads(path.read_text(encoding="utf-8")))
    assert [s["allowed"] for s in answer["steps"]] == [True, True, False]
    assert answer["clauses"] == answer["steps"][-1]["clauses"]
    assert main(["ask", str(path)]) == EXIT_REFUSED
    out = capsys.readouterr().out
    assert "2. " in out and "event: P4 ends his turn without laying a card" in out
    assert "the replay stops at action 3" in out


def test_an_empty_or_malformed_sequence_is_refused_in_words() -> None:
    with pytest.raises(QuestionError, match="empty"):
        ask({**_BLUFF, "actions": []})
    with pytest.raises(QuestionError, match=r"actions\[2\] must be a table"):
        ask({**_BLUFF, "actions": [_BLUFF["actions"][0], "challenge"]})
    with pytest.raises(QuestionError, match="unknown field"):
        ask({**_BLUFF, "action": {"action": "draw"}})


@pytest.mark.clause("UNO-DEAL-CHOOSE-DEALER", "UNO-DEAL-SEVEN", "UNO-SETUP-DISCARD-PILE")
def test_a_uno_record_answers_with_the_deal_and_its_first_card() -> None:
    record = json.loads(json.dumps(play("uno", 3, 5).record))
    answer = ask(record)
    assert answer["kind"] == "record"
    cited = {c for e in answer["opening"] for c in e["clauses"]}
    assert {"UNO-DEAL-CHOOSE-DEALER", "UNO-DEAL-SEVEN", "UNO-SETUP-DISCARD-PILE"} <= cited
    assert all(e["clauses"] for e in answer["opening"])


@pytest.mark.clause("UNO-FIRST-CARD-REVERSE", "UNO-FIRST-CARD-SKIP", "UNO-FIRST-CARD-DRAW-TWO")
def test_the_first_cards_clauses_are_cited_by_some_deal() -> None:
    firsts = {"UNO-FIRST-CARD-REVERSE", "UNO-FIRST-CARD-SKIP", "UNO-FIRST-CARD-DRAW-TWO"}
    found: set[str] = set()
    for seed in range(60):
        found |= {c for e in play("uno", 3, seed).opening for c in e.clauses} & firsts
    assert found == firsts


@pytest.mark.clause("VG-DEAL-ROUND-THE-TABLE", "VG-DEAL-THIRTEEN-EACH")
def test_viggo_play_prints_the_deal_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "viggo", "--seed", "2", "--players", "3"]) == EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "0. the deal"
    assert "VG-DEAL-ROUND-THE-TABLE" in lines[1]


def test_vandatta_deals_by_an_action_so_its_record_has_no_opening() -> None:
    answer = ask(json.loads(json.dumps(play("vandatta", 3, 1).record)))
    assert answer["opening"] == []
    assert answer["steps"][0]["action"] == {"action": "deal"}


_DEAL: dict[str, Any] = json.loads(
    (EXAMPLES / "uno" / "deal-first-card-draw-two.json").read_text(encoding="utf-8")
)


@pytest.mark.clause("UNO-DEAL-SEVEN", "UNO-FIRST-CARD-DRAW-TWO", "UNO-SETUP-DISCARD-PILE")
def test_a_deal_with_given_cards_rules_on_its_first_card_then_the_actions() -> None:
    answer = ask(_DEAL)
    assert answer["kind"] == "deal"
    cited = {c for e in answer["opening"] for c in e["clauses"]}
    assert {"UNO-DEAL-SEVEN", "UNO-FIRST-CARD-DRAW-TWO"} <= cited
    hands = answer["position"]["hands"]
    assert hands["Anna"][:7] == _DEAL["deal"]["hands"]["Anna"] and len(hands["Anna"]) == 9
    assert "Y7" not in hands["Bo"] and answer["position"]["turn"] == "Cia"
    assert answer["steps"][0]["allowed"] and answer["problems"] == []


@pytest.mark.clause("UNO-FIRST-CARD-WD4-REDRAW", "UNO-FIRST-CARD-AS-DEALER-PLAY")
def test_a_given_first_wild_draw_four_follows_the_reading_in_force() -> None:
    deal = {**_DEAL["deal"], "first": "W+4"}
    sent_back = ask({"rulebook": "uno", "deal": deal})
    assert sent_back["steps"] == [] and "UNO-FIRST-CARD-WD4-REDRAW" in sent_back["clauses"]
    assert sent_back["position"]["discard"][0] != "W+4"
    laid = ask(
        {"rulebook": "uno", "options": {"first_wild_draw_four": "as-dealer-play"}, "deal": deal}
    )
    assert laid["position"]["discard"] == ["W+4"]
    assert len(laid["position"]["hands"]["Anna"]) == 11


def test_a_given_deal_is_checked_in_words() -> None:
    short = {**_DEAL["deal"], "hands": {**_DEAL["deal"]["hands"], "Bo": ["B1"]}}
    with pytest.raises(QuestionError, match="each player is dealt 7"):
        ask({"rulebook": "uno", "deal": short})
    twice = {**_DEAL["deal"], "first": "R1", "draw_pile": ["R1", "R1"]}
    with pytest.raises(QuestionError, match="cards the pack has not"):
        ask({"rulebook": "uno", "deal": twice})
    with pytest.raises(QuestionError, match="did you mean 'first'"):
        ask({"rulebook": "uno", "deal": {**_DEAL["deal"], "frist": "R1"}})
    with pytest.raises(QuestionError, match="'deal' is for UNO"):
        ask({"rulebook": "viggo", "deal": {}})
