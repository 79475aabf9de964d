"""Limits of ``regelverk ask`` taken away (issue 28): a sequence plays on past a mistake whose
ruling stands (a false utgång under ``false_call_detection = when-revealed``), a stacked stock is
used as given or refused in words (never reshuffled in silence), and the answer to a UNO deal
lists what each reading of its first card gives."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from regelverk.cli import main
from regelverk.console import EXIT_REFUSED
from regelverk.referee import QuestionError, ask

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _load(family: str, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / family / name).read_text(encoding="utf-8"))
    return data


# --- a sequence plays on where the ruling stands --------------------------------------------

_CAUGHT = _load("vandatta", "sequence-false-call-caught-later.json")


@pytest.mark.clause(
    "V8-PEN-FALSE-CALL-CAUGHT", "V8-PEN-FALSE-CALL-SELF-REPORT", "V8-CALL-ONLY-WITH-REAL-CHANCE"
)
def test_a_false_call_left_unrevealed_is_played_on_and_caught_later() -> None:
    answer = ask(_CAUGHT)
    steps = answer["steps"]
    assert [s["allowed"] for s in steps] == [False, True, True]
    assert answer["stopped"] is None and answer["allowed"] is False
    assert "false-call" in [e["kind"] for e in steps[0]["events"]]
    assert "V8-PEN-FALSE-CALL-CAUGHT" in steps[2]["clauses"]
    assert answer["clauses"] == steps[2]["clauses"]
    final = answer["position"]
    assert final["penalties"]["Ann"] and final["false_calls"] == []
    assert final["pile"][-2:] == ["5C", "2C"] and answer["problems"] == []


@pytest.mark.clause("V8-PEN-FALSE-CALL-CAUGHT")
def test_a_later_step_replays_a_standing_mistake_under_each_reading() -> None:
    catch = ask(_CAUGHT)["steps"][2]
    readings = catch["readings"]
    by_reading = {r["reading"]: r for r in readings if r["option"] == "false_call_detection"}
    assert by_reading["when-revealed"]["allowed"] is True
    at_call = by_reading["at-call"]
    # penalised as it was made, the call is reached and there is nothing left to catch
    assert at_call["allowed"] is False
    assert not at_call["summary"].startswith("the position is not reached")


@pytest.mark.clause("V8-PEN-FALSE-CALL-CAUGHT")
def test_the_same_call_penalised_at_once_plays_on_and_stops_at_the_catch() -> None:
    answer = ask({**_CAUGHT, "options": {}})
    assert [s["allowed"] for s in answer["steps"]] == [False, True, False]
    assert answer["stopped"] == 3  # nothing to catch: refused outright
    hands = answer["position"]["hands"]
    assert sorted(hands["Ann"]) == ["2S", "3S", "4S", "5H", "6H"]  # step 1's penalty stands


@pytest.mark.clause("VA-PLAY-MATCH-RANK-OR-SUIT", "VA-DRAW-PASS-AFTER-THREE")
def test_an_action_refused_outright_still_stops_the_replay() -> None:
    question = _load("vandatta", "sequence-three-draws-then-pass.json")
    question["actions"].append({"action": "draw"})
    answer = ask(question)
    assert [s["allowed"] for s in answer["steps"]] == [True, True, False]
    assert answer["stopped"] == 3


@pytest.mark.clause("V8-PEN-FALSE-CALL-CAUGHT")
def test_a_sequence_played_on_past_a_mistake_exits_as_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = EXAMPLES / "vandatta" / "sequence-false-call-caught-later.json"
    assert main(["ask", str(path)]) == EXIT_REFUSED
    out = capsys.readouterr().out
    assert "3. " in out and "Cy catches Ann's utgång" in out


# --- a stacked stock is used as given, or refused -----------------------------------------

_STACKED = _load("vandatta", "deal-from-a-stacked-stock.json")


def _stacked(rulebook: str, **changes: Any) -> dict[str, Any]:
    question = copy.deepcopy(_STACKED)
    question["rulebook"] = rulebook
    for name, value in changes.items():
        if value is None and name == "deal":
            del question["position"]["deal"]
        else:
            question["position"][name] = value
    return question


@pytest.mark.parametrize("rulebook", ["vvv8", "vandatta"])
@pytest.mark.clause("VA-DEAL-CLOCKWISE", "VA-DEAL-SEVEN-CARDS", "V8-DEAL-ONE-AT-A-TIME-CLOCKWISE")
def test_a_stacked_stock_with_its_dealer_is_dealt_as_given(rulebook: str) -> None:
    answer = ask(_stacked(rulebook))
    stock = _STACKED["position"]["stock"]
    hands = answer["position"]["hands"]
    for seat, name in enumerate(["Ann", "Bo", "Cy"]):
        assert hands[name] == stock[seat:21:3], name
    assert answer["position"]["pile"] == [stock[21]]


@pytest.mark.parametrize("rulebook", ["vvv8", "vandatta"])
@pytest.mark.clause(
    "V8-DEALER-DRAW-LOWEST-SHUFFLES", "V8-DEALER-DRAW-SHUFFLE-CUT", "V8-DEALER-DRAW-HELD"
)
def test_a_stock_given_before_the_draw_for_the_deal_is_refused(rulebook: str) -> None:
    question = _stacked(rulebook, dealer=None)
    if rulebook == "vandatta":  # no draw for the deal in 001: the dealer must be named
        with pytest.raises(QuestionError, match="do not hold"):
            ask(question)
        del question["position"]["stock"]
        with pytest.raises(QuestionError, match="name the dealer"):
            ask(question)
        return
    with pytest.raises(QuestionError, match=r"'stock' cannot be given before the draw") as caught:
        ask(question)
    message = str(caught.value)
    assert "\n" not in message and "V8-DEALER-DRAW-LOWEST-SHUFFLES" in message
    assert "give the 'dealer', or leave out the 'stock'" in message
    sequence = {**question, "actions": [question["action"]]}
    del sequence["action"]
    with pytest.raises(QuestionError, match="before the draw"):
        ask(sequence)
    # without the stock the draw is held, and the pack it deals is the engine's own
    del question["position"]["stock"]
    drawn = ask(question)
    assert drawn["allowed"] and "V8-DEALER-DRAW-HELD" in drawn["clauses"]


@pytest.mark.parametrize("rulebook", ["vvv8", "vandatta"])
@pytest.mark.clause("VA-DEAL-SHUFFLE")
def test_a_stock_given_for_a_later_deal_is_refused(rulebook: str) -> None:
    with pytest.raises(QuestionError, match=r"'stock' given would be thrown away.*the default"):
        ask(_stacked(rulebook, deal=None))  # 'deal' left out: 1 by default
    with pytest.raises(QuestionError, match=r"'hands' given would be thrown away"):
        ask(_stacked(rulebook, deal=3, stock=[], hands={"Ann": ["2C"]}))


@pytest.mark.clause("VA-DEAL-SHUFFLE")
def test_a_partial_position_with_a_discarded_stock_is_refused_too() -> None:
    question = _stacked("vvv8", deal=2, stock=["2C"], hands={"Ann": ["?"]})
    with pytest.raises(QuestionError, match="thrown away"):
        ask(question)


# --- the answer to a UNO deal lists its readings --------------------------------------------

_WILD_FIRST = _load("uno", "deal-first-wild-draw-four.json")


@pytest.mark.clause("UNO-FIRST-CARD-WD4-REDRAW", "UNO-FIRST-CARD-AS-DEALER-PLAY")
def test_a_deal_answer_lists_what_each_reading_of_its_first_card_gives() -> None:
    answer = ask(_WILD_FIRST)
    wd4 = {r["reading"]: r for r in answer["readings"] if r["option"] == "first_wild_draw_four"}
    assert set(wd4) == {"redraw", "as-dealer-play"}
    assert wd4["redraw"]["default"] and not wd4["as-dealer-play"]["default"]
    assert wd4["redraw"]["summary"] == answer["message"]  # the reading in force: the answer
    laid = ask({**_WILD_FIRST, "options": {"first_wild_draw_four": "as-dealer-play"}})
    assert wd4["as-dealer-play"]["summary"] == laid["message"] != answer["message"]
    assert "Anna draws 4 cards" in laid["message"]
    assert len(laid["position"]["hands"]["Anna"]) == 11


@pytest.mark.clause("UNO-FIRST-CARD-DRAW-TWO")
def test_a_deal_with_actions_lists_the_readings_of_the_deal_and_of_each_step() -> None:
    from regelverk.registry import registry_for

    answer = ask(_load("uno", "deal-first-card-draw-two.json"))
    assert answer["readings"] and answer["steps"][0]["readings"]
    cited = {c for e in answer["opening"] for c in e["clauses"]}
    bearing = {a.id for c in cited for a in registry_for(c).ambiguities_of(c)}
    assert {r["ambiguity"] for r in answer["readings"]} <= bearing
    assert "UNO-AMB-FIRST-DRAW-TWO-STACKING" in {r["ambiguity"] for r in answer["readings"]}


@pytest.mark.clause("UNO-FIRST-CARD-WD4-REDRAW", "UNO-FIRST-CARD-AS-DEALER-PLAY")
def test_the_text_answer_to_a_deal_shows_its_readings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", str(EXAMPLES / "uno" / "deal-first-wild-draw-four.json")]) == 0
    out = capsys.readouterr().out
    assert "under first_wild_draw_four = 'as-dealer-play'" in out and "Anna draws 4 cards" in out
    assert main(["ask", "--verbose", str(EXAMPLES / "uno" / "deal-first-wild-draw-four.json")]) == 0
    out = capsys.readouterr().out
    assert "reading first_wild_draw_four = 'as-dealer-play'" in out and "Anna draws 4 cards" in out


@pytest.mark.clause("V8-PEN-FALSE-CALL-CAUGHT")
def test_the_text_answer_says_play_went_on_past_a_mistake(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["ask", str(EXAMPLES / "vandatta" / "sequence-false-call-caught-later.json")])
    out = capsys.readouterr().out
    assert "the replay stops" not in out and "play goes on" in out
