"""``regelverk ask`` and ``regelverk play``: question files, rulings, and games by random play.

A question file (JSON, or TOML when its name ends in ``.toml``) is one of:

* a position and an attempted action::

      {"rulebook": "viggo", "options": {...}, "position": {...}, "action": {...}}

  ``options`` is optional and overrides fields of the rulebook's preset; ``position`` and
  ``action`` are written as the rulebook page's worked examples show.
* a record printed by ``regelverk play --json``::

      {"rulebook": "uno", "players": [...], "seed": 7, "options": {...}, "actions": [...]}

  The game is dealt again from the seed and every action is replayed and ruled on in turn; the
  replay stops at the first action the rules refuse.
* a "can it ever happen?" question, in the condition language of
  :mod:`regelverk_proofs.query`::

      {"rulebook": "vvv8", "can": "goes-out and last-rank = eight"}

  optionally with ``"scenario"`` when several of the rulebook's scenarios name those facts.
  Z3 answers yes with a witness, or no with the clauses that forbid it.
"""

from __future__ import annotations

import json
import random
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from regelverk.engine import (
    ActionError,
    Event,
    Game,
    OptionError,
    PositionError,
    Ruling,
    adjudicate,
    option_values,
    with_options,
)
from regelverk.errors import RegelverkError
from regelverk.games import game_for
from regelverk.registry import RULEBOOKS

__all__ = ["QuestionError", "ask", "load_question", "play", "ruling_to_data"]

MAX_ACTIONS = 20_000
"""A random game stops after this many actions if it has not ended (and says so)."""


class QuestionError(RegelverkError):
    """A question file that cannot be read, or that lacks a field."""


def load_question(path: Path) -> dict[str, Any]:
    """Read a question file; :class:`QuestionError` says what is wrong and where."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise QuestionError(f"cannot read {path}: {error.strerror}") from None
    try:
        data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as error:
        raise QuestionError(
            f"{path.name} is not valid {path.suffix[1:] or 'JSON'}: {error}"
        ) from None
    if not isinstance(data, dict):
        raise QuestionError(f"{path.name} must hold a table (an object), not {type(data).__name__}")
    return data


def _field(data: Mapping[str, Any], name: str, kind: type, where: str = "the file") -> Any:
    if name not in data:
        raise QuestionError(f"{where} has no field {name!r}")
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise QuestionError(f"{where}: {name!r} must be a {kind.__name__}, not {value!r}")
    return value


def _game_and_options(data: Mapping[str, Any]) -> tuple[Game[Any, Any, Any], Any, str]:
    rulebook = _field(data, "rulebook", str)
    if rulebook not in RULEBOOKS:
        raise QuestionError(f"'rulebook' is {rulebook!r}; it must be one of {', '.join(RULEBOOKS)}")
    game = game_for(rulebook)
    overrides = data.get("options", {})
    if not isinstance(overrides, dict):
        raise QuestionError("'options' must be a table of option names and values")
    try:
        options = with_options(game.options(rulebook), overrides)
    except OptionError as error:
        raise QuestionError(f"options: {error}") from None
    return game, options, rulebook


def ruling_to_data(game: Game[Any, Any, Any], ruling: Ruling[Any]) -> dict[str, Any]:
    """A ruling in its stable machine form (allowed, clauses, events, position, readings)."""
    return {
        "allowed": ruling.allowed,
        "message": ruling.message,
        "clauses": list(ruling.clauses),
        "events": [e.to_data() for e in ruling.events],
        "position": game.position_to_data(ruling.state),
        "problems": list(game.problems(ruling.state)),
        "readings": [
            {
                "ambiguity": r.ambiguity,
                "option": r.option,
                "reading": r.reading,
                "default": r.is_default,
                "allowed": r.allowed,
                "summary": r.summary,
            }
            for r in ruling.readings
        ],
    }


def _can(data: Mapping[str, Any]) -> dict[str, Any]:
    """A "can it ever happen?" question, answered by Z3 over the rulebook's scenarios."""
    from regelverk_proofs import scenarios
    from regelverk_proofs.query import answer_to_data, choose
    from regelverk_proofs.query import ask as ask_can

    rulebook = _field(data, "rulebook", str)
    if rulebook not in RULEBOOKS:
        raise QuestionError(f"'rulebook' is {rulebook!r}; it must be one of {', '.join(RULEBOOKS)}")
    question = _field(data, "can", str)
    name = data.get("scenario")
    if name is not None and not isinstance(name, str):
        raise QuestionError(f"'scenario' must be a string, not {name!r}")
    stray = sorted(set(data) - {"rulebook", "can", "scenario", "expect"})
    if stray:
        raise QuestionError(
            f"a 'can' question takes rulebook, can and scenario, not {', '.join(stray)}: "
            "a scenario fixes the readings it encodes"
        )
    return answer_to_data(ask_can(choose(scenarios(), rulebook, question, name), question))


def ask(data: Mapping[str, Any]) -> dict[str, Any]:
    """Answer a question file: the ruling on one action, on every action of a record, or
    (with a ``can`` field) whether a condition can ever hold."""
    if "can" in data:
        return _can(data)
    game, options, rulebook = _game_and_options(data)
    if "actions" in data:
        return _replay(game, options, rulebook, data)
    position = _field(data, "position", dict)
    raw_action = _field(data, "action", dict)
    try:
        state = game.position_from_data(position, options)
    except PositionError as error:
        raise QuestionError(f"position: {error}") from None
    broken = game.problems(state)
    if broken:
        raise QuestionError("position: the position cannot occur: " + "; ".join(broken))
    try:
        action = game.action_from_data(raw_action, state)
    except ActionError as error:
        raise QuestionError(f"action: {error}") from None

    def rebuild(other: Any) -> Any:
        return game.position_from_data(position, other)

    ruling = adjudicate(game, options, state, action, rebuild=rebuild)
    return {"rulebook": rulebook, **ruling_to_data(game, ruling)}


def _players(raw: Any) -> tuple[str, ...]:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return tuple(f"P{n}" for n in range(1, raw + 1))
    if isinstance(raw, list) and all(isinstance(p, str) and p for p in raw):
        if len(set(raw)) != len(raw):
            raise QuestionError("'players' names someone twice")
        return tuple(raw)
    raise QuestionError(f"'players' must be a count or a list of names, not {raw!r}")


def _replay(
    game: Game[Any, Any, Any], options: Any, rulebook: str, data: Mapping[str, Any]
) -> dict[str, Any]:
    players = _players(data.get("players"))
    seed = _field(data, "seed", int)
    actions = _field(data, "actions", list)
    state = game.deal(options, players, seed)
    steps = []
    for number, raw in enumerate(actions, 1):
        if not isinstance(raw, dict):
            raise QuestionError(f"actions[{number}] must be a table, not {raw!r}")
        try:
            action = game.action_from_data(raw, state)
        except ActionError as error:
            raise QuestionError(f"actions[{number}]: {error}") from None
        ruling = adjudicate(game, options, state, action)
        steps.append(
            {
                "number": number,
                "action": game.action_to_data(action),
                "allowed": ruling.allowed,
                "message": ruling.message,
                "clauses": list(ruling.clauses),
                "events": [e.to_data() for e in ruling.events],
            }
        )
        if not ruling.allowed:
            break
        state = ruling.state
    return {
        "rulebook": rulebook,
        "allowed": all(step["allowed"] for step in steps),
        "steps": steps,
        "position": game.position_to_data(state),
        "over": game.is_over(state),
        "problems": list(game.problems(state)),
    }


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayedGame:
    """A whole game by random legal moves: the record and the log."""

    record: dict[str, Any]
    log: tuple[tuple[dict[str, Any], tuple[Event, ...]], ...]
    over: bool


def play(
    rulebook: str,
    players: int | Sequence[str],
    seed: int,
    overrides: Mapping[str, Any] | None = None,
) -> PlayedGame:
    """Play a game by random legal moves (the move choice seeded by ``seed`` too)."""
    names = _players(players if isinstance(players, int) else list(players))
    game, options, _ = _game_and_options({"rulebook": rulebook, "options": dict(overrides or {})})
    state = game.deal(options, names, seed)
    chooser = random.Random(f"regelverk-play-{seed}")
    actions: list[dict[str, Any]] = []
    log = []
    while not game.is_over(state) and len(actions) < MAX_ACTIONS:
        legal = game.legal_actions(state)
        if not legal:
            break
        action = chooser.choice(legal)
        outcome = game.apply(state, action)
        data = game.action_to_data(action)
        actions.append(data)
        log.append((data, outcome.events))
        state = outcome.state
    record = {
        "rulebook": rulebook,
        "players": list(names),
        "seed": seed,
        "options": dict(overrides or {}),
        "preset": option_values(options),
        "actions": actions,
        "final": game.position_to_data(state),
    }
    return PlayedGame(record=record, log=tuple(log), over=game.is_over(state))
