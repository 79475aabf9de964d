"""Partial positions: a question with unknown cards ("?") is ruled on in every way they can lie
(or a seeded sample), and answered always, never or depends, with one completion of each kind."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from regelverk.cli import main
from regelverk.console import EXIT_OK
from regelverk.partial import SAMPLED, _every, _sub_multisets
from regelverk.referee import QuestionError, ask

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _example(path: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / path).read_text(encoding="utf-8"))
    return data


CHALLENGE = _example("uno/partial-challenge-an-unseen-hand.json")
STUCK = _example("vandatta/partial-was-he-stuck.json")


@pytest.mark.clause("UNO-WD4-CHALLENGE-SUCCESS", "UNO-WD4-CHALLENGE-FAILED-SIX")
def test_a_challenge_of_an_unseen_hand_is_always_allowed_but_its_outcome_depends() -> None:
    answer = ask(CHALLENGE)
    assert answer["verdict"] == "always" and answer["exhaustive"] is True
    assert answer["tried"] == answer["completions"] > 0
    outcomes = {tuple(k["clauses"]) for k in answer["kinds"]}
    assert len(outcomes) == 2
    assert sum(k["count"] for k in answer["kinds"]) == answer["tried"]
    for kind in answer["kinds"]:
        anna = kind["unknown_cards"]["Anna"]
        guilty = any(card.startswith("G") for card in anna)
        assert ("UNO-WD4-CHALLENGE-SUCCESS" in kind["clauses"]) is guilty, anna


@pytest.mark.clause("VA-DRAW-WHEN-STUCK")
def test_whether_an_unseen_hand_was_stuck_depends_and_each_kind_is_shown() -> None:
    answer = ask(STUCK)
    assert answer["verdict"] == "depends" and answer["exhaustive"] is False
    assert answer["tried"] == SAMPLED
    assert {k["allowed"] for k in answer["kinds"]} == {True, False}
    again = ask(STUCK)
    assert again["kinds"] == answer["kinds"]  # the sample is seeded: same question, same answer


@pytest.mark.clause("VA-DRAW-WHEN-STUCK")
def test_a_completed_kind_replays_as_a_full_position() -> None:
    answer = ask(STUCK)
    for kind in answer["kinds"]:
        full = copy.deepcopy(STUCK)
        hand = full["position"]["hands"]["P4"]
        full["position"]["hands"]["P4"] = [c for c in hand if c != "?"]
        full["position"]["hands"]["P4"] += kind["unknown_cards"]["P4"]
        del full["expect"]
        assert ask(full)["allowed"] is kind["allowed"]


@pytest.mark.clause("UNO-WD4-CONDITION")
def test_a_fully_known_hand_gives_never_or_always_with_one_kind() -> None:
    known = copy.deepcopy(CHALLENGE)
    known["position"]["hands"]["Bo"] = ["B5", "?"]
    known["action"] = {"action": "challenge", "player": "Cia"}
    answer = ask(known)
    assert answer["verdict"] == "never"
    assert [k["clauses"] for k in answer["kinds"]] == [["UNO-WD4-CHALLENGE-ONLY-VICTIM"]]


def test_enumeration_tells_equal_cards_apart_only_once() -> None:
    pool = ["A", "A", "B", "C"]
    fillings = list(_every(pool, [2]))
    assert sorted(fillings) == [(("A", "A"),), (("A", "B"),), (("A", "C"),), (("B", "C"),)]
    assert _sub_multisets(Counter(pool), 2) == 4
    both = list(_every(pool, [1, 1]))
    assert len(both) == len(set(both)) == 7


def test_unknown_cards_are_refused_in_words_where_they_cannot_be_filled() -> None:
    many = copy.deepcopy(CHALLENGE)
    many["position"]["hands"]["Anna"] = ["?"] * 200
    with pytest.raises(QuestionError, match="too few for its 200 unknown"):
        ask(many)
    seq = copy.deepcopy(CHALLENGE)
    seq["actions"] = [seq.pop("action")]
    with pytest.raises(QuestionError, match="one 'action'"):
        ask(seq)
    typo = copy.deepcopy(CHALLENGE)
    typo["position"]["colur"] = "blue"
    with pytest.raises(QuestionError, match="colur"):
        ask(typo)


def test_the_command_line_prints_the_verdict_and_each_kind(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["ask", str(EXAMPLES / "uno/partial-challenge-an-unseen-hand.json")]) == EXIT_OK
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Always allowed: in all")
    assert sum(line.startswith("allowed in ") for line in out) == 2
