"""Verdicts in a player's words: the first words of every ruling, in ``regelverk ask``'s text and
``--json``, reached by the worked question files."""

from __future__ import annotations

import copy
import glob
import json
from pathlib import Path
from typing import Any

import pytest

from regelverk.cli import main
from regelverk.referee import ask, load_question
from regelverk.verdicts import Verdict, first_words

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
BLUFF = EXAMPLES / "uno" / "wild-draw-four-bluff.json"


def answer_to(rel: str) -> dict[str, Any]:
    return ask(load_question(EXAMPLES / rel))


def text_of(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    main(["ask", *args])
    return capsys.readouterr().out.splitlines()


@pytest.mark.clause("UNO-WD4-CONDITION", "UNO-WD4-CHALLENGE-EXISTS")
def test_the_wild_draw_four_bluff_begins_with_words_true_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    first = text_of(capsys, str(BLUFF))[0]
    assert not first.lower().startswith("allowed")
    assert first.startswith(
        "It depends on how the rules are read; by default, against the rules, but it stands "
        "unless challenged: Anna lays W+4"
    )
    answer = ask(load_question(BLUFF))
    assert answer["verdict"] == "depends-on-reading"
    assert answer["verdict_as_asked"] == "stands-unless-challenged"
    assert answer["allowed"] is True  # kept for compatibility: the engine plays the card on


def _step(answer: dict[str, Any], number: int) -> dict[str, Any]:
    step: dict[str, Any] = answer["steps"][number - 1]
    return step


REACHED: list[tuple[Verdict, str, str]] = [
    (Verdict.ALLOWED, "uno/no-stacking-draw-two.json", "verdict"),
    (Verdict.STANDS_UNLESS_CHALLENGED, "uno/wild-draw-four-bluff.json", "verdict_as_asked"),
    (Verdict.PENALISED, "vandatta/wrong-card-penalty.json", "verdict_as_asked"),
    (Verdict.REFUSED, "uno/challenge-by-a-bystander.json", "verdict"),
    (Verdict.DEPENDS_ON_READING, "vandatta/ace-off-suit.json", "verdict"),
    (Verdict.ALWAYS, "uno/partial-challenge-an-unseen-hand.json", "verdict"),
    (Verdict.DEPENDS_ON_UNSEEN_CARDS, "vandatta/partial-was-he-stuck.json", "verdict"),
]
"""A worked file for each verdict, and the field of its answer that gives it."""


@pytest.mark.parametrize(("verdict", "rel", "field"), REACHED, ids=str)
@pytest.mark.clause("UNO-WD4-CONDITION", "V8-PEN-WRONG-CARD-THREE")
def test_each_verdict_is_reached_by_a_worked_file(verdict: Verdict, rel: str, field: str) -> None:
    assert answer_to(rel)[field] == verdict.token


@pytest.mark.clause("V8-PEN-FALSE-CALL-CAUGHT")
def test_a_false_utgang_stands_unless_caught() -> None:
    step = _step(answer_to("vandatta/sequence-false-call-caught-later.json"), 1)
    assert step["allowed"] is False
    assert step["verdict_as_asked"] == Verdict.STANDS_UNLESS_CHALLENGED.token


@pytest.mark.clause("UNO-WD4-CHALLENGE-ONLY-VICTIM")
def test_a_partial_position_refused_whatever_the_cards_is_never_allowed() -> None:
    question = load_question(EXAMPLES / "uno" / "partial-challenge-an-unseen-hand.json")
    known = copy.deepcopy(question)
    known["position"]["hands"]["Bo"] = ["B5", "?"]
    known["action"] = {"action": "challenge", "player": "Cia"}
    del known["expect"]
    answer = ask(known)
    assert answer["verdict"] == Verdict.NEVER.token
    assert [k["verdict"] for k in answer["kinds"]] == [Verdict.REFUSED.token]


@pytest.mark.clause("VA-ACE-SAME-SUIT")
def test_a_position_not_reached_under_a_reading_cannot_occur() -> None:
    step = _step(answer_to("vandatta/sequence-three-draws-then-pass.json"), 2)
    found = {r["reading"]: r["verdict"] for r in step["readings"] if r["option"] == "ace_off_suit"}
    assert found == {"forbidden": "allowed", "allowed": Verdict.CANNOT_OCCUR.token}
    assert step["verdict"] == Verdict.DEPENDS_ON_READING.token


def test_every_verdict_is_reached() -> None:
    reached = {v for v, _, _ in REACHED}
    reached |= {Verdict.NEVER, Verdict.CANNOT_OCCUR}  # the two tests above
    assert reached == set(Verdict)


def _tokens(value: Any) -> list[str]:
    """Every ``verdict`` and ``verdict_as_asked`` anywhere in an answer."""
    if isinstance(value, dict):
        found = [v for k, v in value.items() if k in ("verdict", "verdict_as_asked")]
        return found + [t for v in value.values() for t in _tokens(v)]
    if isinstance(value, list):
        return [t for v in value for t in _tokens(v)]
    return []


QUESTIONS = sorted(
    p for p in glob.glob(str(EXAMPLES / "*" / "*.json")) if Path(p).parent.name != "can"
)


@pytest.mark.parametrize("path", QUESTIONS, ids=lambda p: Path(p).stem)
def test_every_verdict_in_the_json_is_a_token_of_the_vocabulary(path: str) -> None:
    answer = ask(load_question(Path(path)))
    tokens = _tokens(json.loads(json.dumps(answer)))
    assert tokens
    for token in tokens:
        Verdict.from_token(token)
    for ruling in [answer, *answer.get("steps", [])]:
        if "verdict_as_asked" in ruling:
            words = first_words(ruling)
            assert words.startswith(Verdict.from_token(ruling["verdict"]).phrase)
            assert words.startswith("Allowed") is (ruling["verdict"] == "allowed")


@pytest.mark.clause("UNO-WD4-CONDITION")
def test_only_the_readings_that_change_the_ruling_are_printed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = text_of(capsys, str(BLUFF))
    assert "  under illegal_wd4 = 'refused' (UNO-AMB-ILLEGAL-WD4-REMEDY):" in lines
    assert not any("card-returns" in line for line in lines)  # it changes nothing here
    assert not any(line.startswith("  reading ") for line in lines)
    readings = ask(load_question(BLUFF))["readings"]
    assert lines[-1] == (
        f"  the other {len(readings) - 1} readings rule as above (--verbose lists every reading)"
    )


@pytest.mark.clause("UNO-WD4-CONDITION")
def test_verbose_prints_every_reading(capsys: pytest.CaptureFixture[str]) -> None:
    lines = text_of(capsys, "--verbose", str(BLUFF))
    readings = ask(load_question(BLUFF))["readings"]
    listed = [line for line in lines if line.startswith("  reading ")]
    assert len(listed) == len(readings)
    assert any("challenge_success_card = 'card-returns'" in line for line in listed)
    assert any(
        "illegal_wd4 = 'refused'" in line and ": not allowed: taken back, without penalty:" in line
        for line in listed
    )


@pytest.mark.clause("UNO-WD4-CHALLENGE-SUCCESS")
def test_readings_that_give_the_same_ruling_are_listed_together(
    capsys: pytest.CaptureFixture[str],
) -> None:
    question = load_question(EXAMPLES / "uno" / "challenge-succeeds.json")
    answer = ask(question)
    groups: dict[tuple[str, str], list[str]] = {}
    for r in answer["readings"]:
        if (r["verdict"], r["summary"]) != (answer["verdict_as_asked"], answer["message"]):
            groups.setdefault((r["verdict"], r["summary"]), []).append(r["option"])
    lines = text_of(capsys, str(EXAMPLES / "uno" / "challenge-succeeds.json"))
    under = [line for line in lines if line.startswith("  under ")]
    assert len(under) == len(groups)
    for options in groups.values():
        assert any(all(f"{o} = " in line for o in options) for line in under)


def test_every_reading_ruling_alike_is_said_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    lines = text_of(capsys, str(EXAMPLES / "uno" / "challenge-by-a-bystander.json"))
    assert lines[0].startswith("Not allowed: taken back, without penalty: Cia may not challenge")
    assert lines[-1].startswith("  every reading of the unclear rules here rules the same")


def test_an_unknown_token_names_the_vocabulary() -> None:
    with pytest.raises(ValueError, match="the verdicts are allowed, stands-unless-challenged"):
        Verdict.from_token("ALLOWED")


def test_the_vocabulary_is_documented_from_the_members() -> None:
    doc = Verdict.__doc__ or ""
    for verdict in Verdict:
        assert f"``{verdict.token}``: **{verdict.phrase}.**" in doc
        assert verdict.__doc__ and verdict.__doc__ in doc


def _players_extension() -> Any:
    import importlib.util
    import sys

    path = Path(__file__).resolve().parent.parent / "docs" / "_ext" / "players.py"
    spec = importlib.util.spec_from_file_location("players", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["players"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.clause("UNO-WD4-CONDITION", "UNO-WD4-CHALLENGE-EXISTS")
def test_the_site_begins_the_wild_draw_four_bluff_with_the_same_words() -> None:
    rel = "examples/uno/wild-draw-four-bluff.json"
    text = "\n".join(_players_extension().referee_lines(BLUFF, rel))
    assert "**Allowed.**" not in text
    assert f"**{first_words(ask(load_question(BLUFF)))}.** Anna lays W+4" in text
