"""Structure-aware fuzzing of what a user can hand the referee: question files and the
condition language of "can it ever happen?" questions.

Each input starts from a real question (the worked examples, and records of seeded random
games) and is bent the way real files go wrong: a value swapped for another type or an
outsized one, a field dropped, misspelt or added, a list cut short, doubled or reordered, a
string with control characters. Whatever comes in, only the project's own errors
(:class:`~regelverk.errors.RegelverkError`) may come out, and a position the referee accepts and
rules on must never lead to a position its own invariant check calls impossible.

The CI run is short and derandomized (Hypothesis's ``ci`` profile); set
``REGELVERK_FUZZ_EXAMPLES`` (say to 100000) for a long run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regelverk.errors import RegelverkError
from regelverk.referee import ask, parse_question, play
from regelverk_proofs.query import QueryError, parse

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
BUDGET = int(os.environ.get("REGELVERK_FUZZ_EXAMPLES", "0"))
FUZZ = settings(
    max_examples=BUDGET or 150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _position_questions() -> list[dict[str, Any]]:
    found = [
        json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(EXAMPLES.glob("*/*.json"))
        if path.parent.name != "can"
    ]
    return [q for q in found if isinstance(q, dict)]


def _records() -> list[dict[str, Any]]:
    games = [("vvv8", 3, 1), ("vandatta", 4, 2), ("viggo", 2, 3), ("uno", 3, 4)]
    records = []
    for rulebook, players, seed in games:
        record = play(rulebook, players, seed).record
        actions = record["actions"]
        assert isinstance(actions, list)
        records.append({**record, "actions": actions[:40]})  # short replays keep it quick
    return records


SEEDS: list[dict[str, Any]] = [*_position_questions(), *_records()]

NAMES = ("rulebook", "position", "action", "actions", "players", "seed", "options", "hands")
hostile_strings = st.one_of(
    st.sampled_from(["", "uno", "vvv8", "10H", "W+4", "P1", "\x1b[2J", "AS", "8♦", "-1"]),
    st.text(max_size=12),
    st.just("x" * 5000),
)
hostile_numbers = st.one_of(
    st.integers(-3, 60),
    st.sampled_from([-(2**63), 2**63, 2**70, 10**200, 1000]),
)
leaves = st.one_of(st.none(), st.booleans(), hostile_numbers, hostile_strings, st.floats())
values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(hostile_strings, inner, max_size=4)
    ),
    max_leaves=8,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a question (as keys and indices from the top)."""
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*prefix, index))
    return found


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _bend(question: Any, data: st.DataObject) -> Any:
    """One change at one place of ``question`` (a copy through JSON; the seed stays intact)."""
    bent = json.loads(json.dumps(question))
    path = data.draw(st.sampled_from(_paths(bent)), label="where")
    how = data.draw(
        st.sampled_from(["replace", "drop", "add", "rename", "cut", "double", "reverse"]),
        label="how",
    )
    if not path:
        return data.draw(values) if how == "replace" else bent
    parent, key = _at(bent, path[:-1]), path[-1]
    target = parent[key]
    if how == "replace":
        parent[key] = data.draw(values, label="value")
    elif how == "drop":
        del parent[key]
    elif how == "add" and isinstance(target, dict):
        target[data.draw(st.sampled_from(NAMES) | hostile_strings)] = data.draw(values)
    elif how == "rename" and isinstance(parent, dict):
        parent[str(key)[::-1] or "x"] = parent.pop(key)
    elif how == "cut" and isinstance(target, list):
        del target[data.draw(st.integers(0, len(target))) :]
    elif how == "double" and isinstance(target, list):
        target.extend(target)
    elif how == "reverse" and isinstance(target, list):
        target.reverse()
    return bent


def _rule_on(question: Any) -> None:
    """Ask; only the project's own errors may escape, and an answer leaves no problem."""
    try:
        answer = ask(question) if isinstance(question, dict) else None
    except RegelverkError:
        return
    if answer is not None and "steps" not in answer and answer.get("allowed"):
        assert answer["problems"] == [], (question, answer["problems"])


@FUZZ
@given(st.sampled_from(SEEDS), st.data())
def test_a_bent_question_gets_an_answer_or_a_project_error(
    question: dict[str, Any], data: st.DataObject
) -> None:
    bent = question
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        bent = _bend(bent, data)
    _rule_on(bent)


@FUZZ
@given(st.binary(max_size=200) | st.sampled_from([b"\xef\xbb\xbf{}", b"\xff\xfe{}", b"[" * 3000]))
def test_any_bytes_read_as_a_question_are_a_table_or_a_project_error(raw: bytes) -> None:
    for toml in (False, True):
        try:
            data = parse_question(raw, "fuzz", toml=toml)
        except RegelverkError:
            continue
        assert isinstance(data, dict)


WORDS = ("goes-out", "last-rank", "hand", "eight", "ace", "not", "and", "or", "(", ")")
tokens = st.one_of(
    st.sampled_from([*WORDS, "=", "!=", "<", "<=", ">", ">=", "-", "9" * 30]),
    st.integers(-100, 100).map(str),
    st.text(max_size=4),
)


@FUZZ
@given(st.lists(tokens, max_size=60))
def test_any_condition_parses_or_says_why(words: list[str]) -> None:
    text = " ".join(words)
    try:
        condition = parse(text)
    except QueryError:
        return
    assert parse(condition.render()).render() == condition.render()
