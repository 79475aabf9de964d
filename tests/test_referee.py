"""The referee behind 'regelverk ask' and 'regelverk play', driven by a small stand-in game.

The stand-in has one rule that an ambiguity of the register decides (who deals the next UNO
hand, UNO-AMB-NEXT-DEALER), so the ruling's readings can be checked against the register.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from regelverk import referee
from regelverk.books import RULEBOOKS
from regelverk.cli import main
from regelverk.engine import (
    ActionError,
    Event,
    IllegalActionError,
    OptionError,
    Outcome,
    PositionError,
    Ruling,
    adjudicate,
    is_allowed,
    option_values,
    with_options,
)
from regelverk.games import EngineMissingError, game_for


class NextDealer(enum.Enum):
    ROTATE_LEFT = "rotate-left"
    WINNER_DEALS = "winner-deals"
    DRAW_AGAIN = "draw-again"


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyOptions:
    next_dealer: NextDealer = NextDealer.ROTATE_LEFT
    target: int = 3
    limit: int | None = None

    def __post_init__(self) -> None:
        if self.limit is not None and not isinstance(self.limit, int):
            raise ValueError(f"the limit must be a whole number, not {self.limit!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyState:
    options: ToyOptions
    players: tuple[str, ...]
    count: int
    dealer: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyAction:
    kind: str


class ToyGame:
    """Count up to a target; passing the deal on is allowed only under 'rotate-left'."""

    family = "toy"
    rulebooks = ("uno",)

    def options(self, rulebook: str) -> ToyOptions:
        return ToyOptions()

    def deal(self, options: ToyOptions, players: Sequence[str], seed: int) -> ToyState:
        return ToyState(options=options, players=tuple(players), count=0, dealer=seed % 2)

    def legal_actions(self, state: ToyState) -> tuple[ToyAction, ...]:
        return () if self.is_over(state) else (ToyAction(kind="count"),)

    def check(self, state: ToyState, action: ToyAction) -> None:
        if action.kind == "pass-deal" and state.options.next_dealer is not NextDealer.ROTATE_LEFT:
            raise IllegalActionError("the deal does not pass to the left", ["UNO-DEAL-ROTATE"])
        if self.is_over(state):
            raise IllegalActionError("the game is over", ["UNO-WIN-GAME-500"])

    def apply(self, state: ToyState, action: ToyAction) -> Outcome[ToyState]:
        self.check(state, action)
        if action.kind == "pass-deal":
            event = Event(kind="deal", text="the deal passes left", clauses=("UNO-DEAL-ROTATE",))
            return Outcome(state=replace(state, dealer=state.dealer + 1), events=(event,))
        event = Event(kind="count", text=f"count {state.count + 1}", clauses=("UNO-DEAL-SEVEN",))
        return Outcome(state=replace(state, count=state.count + 1), events=(event,))

    def is_over(self, state: ToyState) -> bool:
        return state.count >= state.options.target

    def problems(self, state: ToyState) -> tuple[str, ...]:
        return ("the count is negative",) if state.count < 0 else ()

    def position_from_data(self, data: Mapping[str, Any], options: ToyOptions) -> ToyState:
        count = data.get("count")
        if not isinstance(count, int):
            raise PositionError(f"'count' must be a whole number, not {count!r}")
        return ToyState(options=options, players=("A", "B"), count=count, dealer=0)

    def position_to_data(self, state: ToyState) -> dict[str, Any]:
        return {"count": state.count}

    def action_from_data(self, data: Mapping[str, Any], state: ToyState) -> ToyAction:
        kind = data.get("kind")
        if kind not in ("count", "pass-deal"):
            raise ActionError(f"'kind' must be 'count' or 'pass-deal', not {kind!r}")
        return ToyAction(kind=kind)

    def action_to_data(self, action: ToyAction) -> dict[str, Any]:
        return {"kind": action.kind}


TOY = ToyGame()


@pytest.fixture(autouse=True)
def _toy_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(referee, "game_for", lambda rulebook: TOY)


def question(tmp_path: Path, data: object, name: str = "q.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_an_allowed_action_gives_events_clauses_and_position() -> None:
    answer = referee.ask({"rulebook": "uno", "position": {"count": 1}, "action": {"kind": "count"}})
    assert answer["allowed"] is True
    assert answer["clauses"] == ["UNO-DEAL-SEVEN"]
    assert answer["events"][0]["text"] == "count 2"
    assert answer["position"] == {"count": 2}
    assert answer["problems"] == []


def test_a_refused_action_names_its_clause_and_what_each_reading_gives() -> None:
    answer = referee.ask(
        {
            "rulebook": "uno",
            "options": {"next_dealer": "winner-deals"},
            "position": {"count": 0},
            "action": {"kind": "pass-deal"},
        }
    )
    assert answer["allowed"] is False
    assert answer["clauses"] == ["UNO-DEAL-ROTATE"]
    assert "does not pass to the left (UNO-DEAL-ROTATE)" in answer["message"]
    readings = {r["reading"]: (r["allowed"], r["default"]) for r in answer["readings"]}
    assert readings == {
        "rotate-left": (True, True),
        "winner-deals": (False, False),
        "draw-again": (False, False),
    }


def test_a_record_is_replayed_and_stops_at_the_first_refused_action() -> None:
    answer = referee.ask(
        {
            "rulebook": "uno",
            "players": ["A", "B"],
            "seed": 4,
            "actions": [{"kind": "count"}, {"kind": "count"}, {"kind": "count"}, {"kind": "count"}],
        }
    )
    assert [s["allowed"] for s in answer["steps"]] == [True, True, True, False]
    assert answer["allowed"] is False
    assert answer["steps"][-1]["clauses"] == ["UNO-WIN-GAME-500"]


def test_play_is_reproducible_and_its_record_replays() -> None:
    first = referee.play("uno", 2, seed=9)
    assert first.over
    assert first.record == referee.play("uno", 2, seed=9).record
    replayed = referee.ask(first.record)
    assert replayed["allowed"] is True and replayed["over"] is True


@pytest.mark.parametrize(
    ("data", "complaint"),
    [
        ({}, "no field 'rulebook'"),
        ({"rulebook": "poker"}, "'rulebook' is 'poker'"),
        ({"rulebook": "uno", "options": []}, "'options' must be a table"),
        ({"rulebook": "uno", "options": {"colour": 1}}, "'colour' is not an option"),
        ({"rulebook": "uno", "options": {"next_dealer": "oldest"}}, "takes 'rotate-left'"),
        ({"rulebook": "uno", "options": {"target": "3"}}, "takes a int such as 3"),
        ({"rulebook": "uno", "action": {}}, "no field 'position'"),
        ({"rulebook": "uno", "position": {"count": "x"}, "action": {}}, "position: 'count'"),
        ({"rulebook": "uno", "position": {"count": -1}, "action": {}}, "cannot occur"),
        ({"rulebook": "uno", "position": {"count": 0}, "action": {"kind": 5}}, "action: 'kind'"),
        ({"rulebook": "uno", "players": "x", "seed": 1, "actions": []}, "'players' must be"),
        ({"rulebook": "uno", "players": 2, "seed": "1", "actions": []}, "'seed' must be a int"),
        ({"rulebook": "uno", "players": ["A", "A"], "seed": 1, "actions": []}, "twice"),
        ({"rulebook": "uno", "players": 2, "seed": 1, "actions": [3]}, r"actions\[1\]"),
    ],
)
def test_bad_questions_are_refused_naming_the_field(data: object, complaint: str) -> None:
    with pytest.raises(referee.QuestionError, match=complaint):
        referee.ask(data)  # type: ignore[arg-type]


def test_question_files_in_json_and_toml(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toml = tmp_path / "q.toml"
    toml.write_text(
        'rulebook = "uno"\n[position]\ncount = 2\n[action]\nkind = "count"\n', encoding="utf-8"
    )
    assert main(["ask", str(toml)]) == 0
    assert capsys.readouterr().out.startswith("Allowed: count 3")
    bad = question(tmp_path, [1, 2])
    assert main(["ask", str(bad)]) == 2
    assert "must hold a table" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert main(["ask", str(broken)]) == 2
    assert "is not valid JSON" in capsys.readouterr().err
    assert main(["ask", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_play_prints_a_log_and_a_record(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "uno", "--seed", "2", "--players", "Ann,Bo"]) == 0
    out = capsys.readouterr().out
    assert "count 1  [UNO-DEAL-SEVEN]" in out and out.rstrip().endswith("game over")
    assert (
        main(["play", "uno", "--seed", "2", "--players", "2", "--option", "target=5", "--json"])
        == 0
    )
    record = json.loads(capsys.readouterr().out)
    assert len(record["actions"]) == 5 and record["options"] == {"target": 5}
    assert main(["play", "uno", "--option", "target"]) == 2
    assert "NAME=VALUE" in capsys.readouterr().err


def test_options_are_replaced_field_by_field_and_checked() -> None:
    options = with_options(ToyOptions(), {"next_dealer": "draw-again", "target": 7})
    assert options == ToyOptions(next_dealer=NextDealer.DRAW_AGAIN, target=7)
    assert option_values(options) == {"next_dealer": "draw-again", "target": 7, "limit": None}
    with pytest.raises(OptionError, match="takes a int"):
        with_options(ToyOptions(), {"target": True})
    assert with_options(options, {}) is options
    assert with_options(ToyOptions(), {"limit": 4}).limit == 4
    assert with_options(ToyOptions(limit=4), {"limit": None}).limit is None
    with pytest.raises(OptionError, match="whole number"):
        with_options(ToyOptions(), {"limit": "many"})


def test_is_allowed_and_adjudicate_without_readings() -> None:
    state = TOY.deal(ToyOptions(target=1), ("A", "B"), 0)
    assert is_allowed(TOY, state, ToyAction(kind="count"))
    ruling = adjudicate(TOY, state.options, state, ToyAction(kind="count"))
    assert ruling.allowed and ruling.readings == ()
    after = ruling.state
    assert not is_allowed(TOY, after, ToyAction(kind="count"))


def test_a_rulebook_without_an_engine_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("regelverk.games.ENGINE", "regelverk.{family}.no_such")
    with pytest.raises(EngineMissingError, match="has not been built yet"):
        game_for("uno")


class PenalisingToy(ToyGame):
    """The stand-in with a rulebook that penalises a wrong 'pass-deal' by adding to the count."""

    def attempt(self, state: ToyState, action: ToyAction) -> Ruling[ToyState]:
        if action.kind == "pass-deal":
            penalty = Event(
                kind="penalty", text="three penalty counts", clauses=("UNO-CALL-PENALTY",)
            )
            return Ruling(
                allowed=False,
                message="a wrong pass is penalised",
                clauses=("UNO-CALL-PENALTY",),
                events=(penalty,),
                state=replace(state, count=state.count + 3),
            )
        outcome = self.apply(state, action)
        return Ruling(
            allowed=True, message="allowed", clauses=(), events=outcome.events, state=outcome.state
        )


def test_a_penalised_attempt_changes_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(referee, "game_for", lambda rulebook: PenalisingToy())
    answer = referee.ask(
        {"rulebook": "uno", "position": {"count": 0}, "action": {"kind": "pass-deal"}}
    )
    assert answer["allowed"] is False
    assert answer["position"] == {"count": 3}
    assert answer["events"][0]["clauses"] == ["UNO-CALL-PENALTY"]


@pytest.mark.parametrize("rulebook", RULEBOOKS)
def test_every_reading_option_has_a_valid_python_repr(rulebook: str) -> None:
    import dataclasses

    from regelverk.engine import Reading

    options = game_for(rulebook).options(rulebook)
    readings = [
        getattr(options, f.name)
        for f in dataclasses.fields(options)
        if isinstance(getattr(options, f.name), Reading)
    ]
    assert readings
    for value in readings:
        kind = type(value)
        assert eval(repr(value), {kind.__name__: kind}) is value
        assert all(isinstance(m.value, str) and m.value == m.value.lower() for m in kind)
