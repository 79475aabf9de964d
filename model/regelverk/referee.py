"""``regelverk ask`` and ``regelverk play``: question files, rulings, and games by random play.

A question file (JSON, or TOML when its name ends in ``.toml``) is one of:

* a position and an attempted action::

      {"rulebook": "viggo", "options": {...}, "position": {...}, "action": {...}}

  ``options`` is optional and overrides fields of the rulebook's preset; ``position`` and
  ``action`` are written as the rulebook page's worked examples show.
* a position and a sequence of actions played from it::

      {"rulebook": "vvv8", "options": {...}, "position": {...}, "actions": [{...}, ...]}

  Every action is ruled on in turn, with its events and clauses and what each reading of the
  deciding ambiguities gives (the earlier actions replayed under that reading). A mistake
  whose ruling stands (a penalty dealt, a false utgång noted as void) is played on from the
  position the ruling leaves, as an allowed action is; the replay stops at the first action
  refused outright (the position unchanged), or at a mistake that ends the game or leaves a
  position that cannot occur.
* a record printed by ``regelverk play --json``::

      {"rulebook": "uno", "players": [...], "seed": 7, "options": {...}, "actions": [...]}

  The game is dealt again from the seed (the answer gives the deal's own events: the dealer
  chosen, the first card turned up and what it does) and every action is replayed and ruled on
  in turn, stopping where a sequence stops.
* a "can it ever happen?" question, in the condition language of
  :mod:`regelverk_proofs.query`::

      {"rulebook": "vvv8", "can": "goes-out and last-rank = eight"}

  optionally with ``"scenario"`` when several of the rulebook's scenarios name those facts.
  Z3 answers yes with a witness, or no with the clauses that forbid it.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from regelverk import extensions
from regelverk.books import RULEBOOKS, descriptors
from regelverk.books import rulebook as described
from regelverk.engine import (
    SEED_LIMIT,
    ActionError,
    Event,
    Game,
    IllegalActionError,
    OptionError,
    Outcome,
    PositionError,
    ReadingResult,
    Ruling,
    adjudicate,
    opening,
    option_values,
    readings_of_clauses,
    with_options,
)
from regelverk.errors import RegelverkError
from regelverk.games import game_for
from regelverk.partial import PartialError, is_partial, rule_on_partial
from regelverk.records import record
from regelverk.verdicts import Verdict, overall, verdict_of

__all__ = [
    "MAX_PLAYERS",
    "MAX_QUESTION_BYTES",
    "QuestionError",
    "ask",
    "checked_seed",
    "load_question",
    "parse_question",
    "play",
    "ruling_to_data",
    "shown",
]

MAX_ACTIONS = 20_000
"""A random game stops after this many actions if it has not ended (and says so)."""

MAX_QUESTION_BYTES = 4 * 1024 * 1024
"""The largest question file read (4 MiB): a record of the longest random game is far smaller."""

MAX_PLAYERS = 100
"""The most players a question or a game may name; every rulebook allows far fewer."""


MAX_DEPTH = 64
"""The deepest nesting of tables and lists a question file may have."""

_FIELDS = {
    "position": ("rulebook", "options", "position", "action", "about", "expect"),
    "sequence": ("rulebook", "options", "position", "actions", "about", "expect"),
    "deal": ("rulebook", "options", "deal", "action", "actions", "about", "expect"),
    "record": (
        "rulebook",
        "players",
        "seed",
        "options",
        "preset",
        "policy",
        "actions",
        "final",
        "about",
    ),
}
"""The top-level fields of each kind of question file (``about`` and ``expect`` are notes for
people and tests; ``preset`` and ``final`` are written by ``regelverk play --json``)."""


class QuestionError(RegelverkError):
    """A question file that cannot be read, or that lacks a field."""


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)``, cut to about ``limit`` characters, for echoing input in an error."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**limit else "a huge number"
    return text if len(text) <= limit else f"{text[: limit - 1]}… ({len(text)} characters)"


def _depth(value: object) -> int:
    """How deeply ``value`` nests tables and lists (iteratively: no recursion to run out of)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            todo += [(v, level + 1) for v in (item.values() if isinstance(item, dict) else item)]
    return deepest


def _decode(raw: bytes, name: str) -> str:
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise QuestionError(f"{name} is UTF-16 text: save it as UTF-8")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise QuestionError(
            f"{name} is not UTF-8 text (byte 0x{raw[error.start]:02x} at offset {error.start})"
        ) from None


def _toml(text: str) -> Any:
    """``text`` parsed as TOML (the parser is imported by the questions written in TOML only);
    a syntax error is a :class:`ValueError`, as JSON's is."""
    import tomllib

    return tomllib.loads(text)


def parse_question(raw: bytes, name: str, *, toml: bool = False) -> dict[str, Any]:
    """Parse the bytes of a question file (JSON, or TOML with ``toml``); a UTF-8 byte-order
    mark is allowed. :class:`QuestionError` says what is wrong, in one line."""
    if len(raw) > MAX_QUESTION_BYTES:
        raise QuestionError(f"{name} is larger than {MAX_QUESTION_BYTES // 2**20} MiB")
    text = _decode(raw, name)
    kind = "TOML" if toml else "JSON"
    try:
        data = _toml(text) if toml else json.loads(text)
    except RecursionError:
        raise QuestionError(f"{name} nests tables or lists too deeply") from None
    except ValueError as error:  # JSON and TOML syntax, and integers of over 4,300 digits
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise QuestionError(f"{name} is not valid {kind}: {first[:200]}") from None
    if not isinstance(data, dict):
        raise QuestionError(f"{name} must hold a table (an object), not {type(data).__name__}")
    if _depth(data) > MAX_DEPTH:
        raise QuestionError(f"{name} nests tables or lists more than {MAX_DEPTH} deep")
    return data


def load_question(path: Path) -> dict[str, Any]:
    """Read a question file (``-`` for standard input); :class:`QuestionError` says what is
    wrong and where."""
    name = "standard input" if str(path) == "-" else path.name
    try:
        if str(path) == "-":
            raw = sys.stdin.buffer.read(MAX_QUESTION_BYTES + 1)
        else:
            with path.open("rb") as stream:
                raw = stream.read(MAX_QUESTION_BYTES + 1)
    except OSError as error:
        raise QuestionError(f"cannot read {shown(str(path), 200)}: {error.strerror}") from None
    return parse_question(raw, name, toml=path.suffix == ".toml")


def checked_seed(value: object, where: str = "the file") -> int:
    """A seed, checked: a whole number of at most 64 bits either way (as ``play`` and ``ask``
    both take it)."""
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) >= SEED_LIMIT:
        raise QuestionError(
            f"{where}: 'seed' must be a whole number above -2**64 and below 2**64, "
            f"not {shown(value)}"
        )
    return value


def _no_stray_fields(data: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
    """Refuse a field that is not one of ``allowed``, naming the nearest valid name."""
    known = tuple(allowed)
    for name in data:
        if name not in known:
            import difflib  # only for the message of a fault

            near = difflib.get_close_matches(str(name), known, n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise QuestionError(
                f"{where} has an unknown field {shown(name)}{hint}; "
                f"its fields are {', '.join(known)}"
            )


class _Watched(dict[str, Any]):
    """A table that remembers which of its fields a reader looked at, so that a field nobody
    read (a misspelt ``hnads``, say) is refused instead of silently ignored. Iterating over the
    table counts as reading every field (the reader takes whatever names it finds)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        super().__init__({k: _watched(v) for k, v in data.items()})
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.read.add(key)
        return super().__contains__(key)

    def __iter__(self) -> Iterator[str]:
        self.read.update(super().keys())
        return super().__iter__()

    def keys(self) -> Any:
        self.read.update(super().keys())
        return super().keys()

    def items(self) -> Any:
        self.read.update(super().keys())
        return super().items()

    def values(self) -> Any:
        self.read.update(super().keys())
        return super().values()


def _watched(value: Any) -> Any:
    if isinstance(value, dict):
        return _Watched(value)
    if isinstance(value, list):
        return [_watched(v) for v in value]
    return value


def _unread(value: Any, where: str) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """Each field of a watched table that was never read: where, its name, the names read."""
    if isinstance(value, _Watched):
        for key, inner in dict.items(value):
            if key not in value.read:
                yield where, key, tuple(sorted(value.read))
            else:
                yield from _unread(inner, f"{where}.{key}")
    elif isinstance(value, list):
        for number, inner in enumerate(value, 1):
            yield from _unread(inner, f"{where}[{number}]")


def _all_read(value: Any, where: str) -> None:
    """Refuse the first field of ``value`` (a watched table) that its reader never looked at."""
    for place, key, read in _unread(value, where):
        import difflib  # only for the message of a fault

        near = difflib.get_close_matches(str(key), read, n=1)
        hint = f"did you mean {near[0]!r}? " if near else ""
        raise QuestionError(
            f"{place} has a field {shown(key)} that is unknown or not used in this position "
            f"({hint}the fields read are {', '.join(read) or 'none'})"
        )


def _field(data: Mapping[str, Any], name: str, kind: type, where: str = "the file") -> Any:
    if name not in data:
        raise QuestionError(f"{where} has no field {name!r}")
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise QuestionError(f"{where}: {name!r} must be a {kind.__name__}, not {shown(value)}")
    return value


def _rulebook_of(data: Mapping[str, Any]) -> str:
    """The question's ``rulebook``, one of :data:`RULEBOOKS`, or an error naming the nearest."""
    rulebook: str = _field(data, "rulebook", str)
    if rulebook not in RULEBOOKS:
        import difflib  # only for the message of a fault

        near = difflib.get_close_matches(rulebook.lower(), RULEBOOKS, n=1, cutoff=0.5)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise QuestionError(
            f"'rulebook' is {shown(rulebook)}{hint}; it must be one of {', '.join(RULEBOOKS)}"
        )
    return rulebook


def _game_and_options(data: Mapping[str, Any]) -> tuple[Game[Any, Any, Any], Any, str]:
    rulebook = _rulebook_of(data)
    game = game_for(rulebook)
    overrides = data.get("options", {})
    if not isinstance(overrides, dict):
        raise QuestionError("'options' must be a table of option names and values")
    try:
        options = with_options(game.options(rulebook), overrides)
    except OptionError as error:
        raise QuestionError(f"options: {error}") from None
    return game, options, rulebook


def ruling_to_data(
    game: Game[Any, Any, Any],
    ruling: Ruling[Any],
    asked: Verdict | None = None,
    verdicts: Sequence[Verdict] = (),
    options: Any = None,
) -> dict[str, Any]:
    """A ruling in its stable machine form (verdict, allowed, clauses, events, position,
    readings).

    ``verdict`` is the answer in a player's words (:class:`~regelverk.verdicts.Verdict`):
    ``asked``, the verdict of the ruling under the readings the question takes (also given as
    ``verdict_as_asked``), unless another reading gives another verdict
    (``depends-on-reading``); ``verdicts`` holds the verdict of each reading, in order, and
    ``options`` the options asked (which mark the readings they take). ``allowed`` is kept from
    before verdicts existed, for compatibility: whether the engine allows the action as
    made."""
    if asked is None:  # the state before is not known: a mistake counts as refused
        asked = verdict_of(game.family, ruling.state, ruling, game.problems(ruling.state))
    return {
        "verdict": overall(asked, verdicts).token,
        "verdict_as_asked": asked.token,
        "allowed": ruling.allowed,
        "message": ruling.message,
        "clauses": list(ruling.clauses),
        "events": [e.to_data() for e in ruling.events],
        "position": game.position_to_data(ruling.state),
        "problems": list(game.problems(ruling.state)),
        "readings": _readings_data(ruling.readings, verdicts, options),
    }


def _readings_data(
    readings: Sequence[ReadingResult], verdicts: Sequence[Verdict], options: Any
) -> list[dict[str, Any]]:
    """What each reading gives, with its verdict (``allowed`` or ``cannot-occur`` where none
    was given) and whether the question's options take it (``asked``)."""
    taken = option_values(options) if options is not None else {}
    given = list(verdicts) or [
        Verdict.ALLOWED if r.allowed else Verdict.CANNOT_OCCUR for r in readings
    ]
    return [
        _reading_data(r, v, taken.get(r.option, r.reading if r.is_default else None))
        for r, v in zip(readings, given, strict=True)
    ]


def _reading_data(result: ReadingResult, verdict: Verdict, taken: Any) -> dict[str, Any]:
    return {
        "ambiguity": result.ambiguity,
        "option": result.option,
        "reading": result.reading,
        "default": result.is_default,
        "asked": taken == result.reading,
        "verdict": verdict.token,
        "allowed": result.allowed,
        "summary": result.summary,
    }


def _rule(
    game: Game[Any, Any, Any],
    options: Any,
    state: Any,
    action: Any,
    rebuild: Callable[[Any], Any] | None = None,
) -> tuple[Ruling[Any], Verdict, tuple[Verdict, ...]]:
    """The ruling on ``action`` in ``state``, as :func:`~regelverk.engine.adjudicate` gives it
    (with the readings when ``rebuild`` is given), its verdict, and the verdict of each
    reading: an earlier action refused under a reading means the position is not reached
    (``cannot-occur``)."""
    ruling: Ruling[Any] = adjudicate(game, options, state, action)
    asked = verdict_of(game.family, state, ruling, game.problems(ruling.state))
    if rebuild is None:
        return ruling, asked, ()
    found: list[Verdict] = []

    def judge(other: Any) -> tuple[bool, str]:
        try:
            before = rebuild(other)
            result: Ruling[Any] = adjudicate(game, other, before, action)
        except IllegalActionError as error:
            found.append(Verdict.CANNOT_OCCUR)
            return False, f"the position is not reached: {error}"
        found.append(verdict_of(game.family, before, result, game.problems(result.state)))
        return result.allowed, result.message

    readings = readings_of_clauses(options, ruling.clauses, judge)
    return dataclasses.replace(ruling, readings=readings), asked, tuple(found)


def _can(data: Mapping[str, Any]) -> dict[str, Any]:
    """A "can it ever happen?" question, answered by Z3 over the rulebook's scenarios (by the
    proofs part of regelverk, found as an extension: :mod:`regelverk.extensions`)."""
    rulebook = _rulebook_of(data)
    question = _field(data, "can", str)
    name = data.get("scenario")
    if name is not None and not isinstance(name, str):
        raise QuestionError(f"'scenario' must be a string, not {shown(name)}")
    stray = sorted(set(data) - {"rulebook", "can", "scenario", "expect"})
    if stray:
        raise QuestionError(
            f"a 'can' question takes rulebook, can and scenario, not {', '.join(stray)}: "
            "a scenario fixes the readings it encodes"
        )
    checked = {"rulebook": rulebook, "can": question, "scenario": name}
    return extensions.required("a 'can' question").can(checked)


def ask(data: Mapping[str, Any]) -> dict[str, Any]:
    """Answer a question file: the ruling on one action, on every action of a record, or
    (with a ``can`` field) whether a condition can ever hold."""
    if not isinstance(data, Mapping):
        raise QuestionError(
            f"a question is a table of fields (a dict), not {type(data).__name__}: {shown(data)}"
        )
    if "can" in data:
        return _can(data)
    kind = _kind(data)
    _no_stray_fields(data, _FIELDS[kind], f"a {kind} question")
    game, options, rulebook = _game_and_options(data)
    if kind == "deal":
        return {"rulebook": rulebook, **_given_deal(game, options, data)}
    if kind == "record":
        return _replay(game, options, rulebook, data)
    if is_partial(_field(data, "position", dict)) is not None:
        return {"rulebook": rulebook, **_partial(game, options, data, kind)}
    position = _watched(_field(data, "position", dict))
    state = _position(game, options, position)
    _nothing_given_is_lost(game, data["position"], state)
    if kind == "sequence":
        actions = _field(data, "actions", list)
        if not actions:
            raise QuestionError("'actions' is empty: give at least one action to play")

        def start(other: Any) -> Any:
            return game.position_from_data(position, other)

        return {"rulebook": rulebook, **_sequence(game, options, start, state, actions)}
    raw_action = _watched(_field(data, "action", dict))
    action = _action(game, state, raw_action, "action")

    def rebuild(other: Any) -> Any:
        return game.position_from_data(position, other)

    ruling, asked, verdicts = _rule(game, options, state, action, rebuild)
    return {"rulebook": rulebook, **ruling_to_data(game, ruling, asked, verdicts, options)}


def _partial(
    game: Game[Any, Any, Any], options: Any, data: Mapping[str, Any], kind: str
) -> dict[str, Any]:
    """A position with unknown cards: the ruling in every way they can lie (or a sample)."""
    if kind != "position":
        raise QuestionError(
            "unknown cards ('?') are for a question with one 'action', not a list of 'actions'"
        )
    raw_action = _field(data, "action", dict)

    def build(completed: dict[str, Any]) -> Any:
        watched = _watched(completed)
        try:
            state = game.position_from_data(watched, options)
        except PositionError as error:
            raise QuestionError(f"position: {error}") from None
        _all_read(watched, "position")
        _nothing_given_is_lost(game, completed, state)
        return state

    try:
        return rule_on_partial(
            game,
            options,
            data["position"],
            build,
            lambda state: _action(game, state, raw_action, "action"),
        )
    except PartialError as error:
        raise QuestionError(f"position: {error}") from None
    except PositionError as error:
        raise QuestionError(f"position: {error}") from None


def _kind(data: Mapping[str, Any]) -> str:
    """Which kind of question a file is: a position with one action, a position with a
    sequence of actions, a deal with given cards (and any actions after it), or a record of a
    seeded game."""
    if "deal" in data:
        return "deal"
    if "actions" not in data:
        return "position"
    if "position" in data and not {"players", "seed"} & set(data):
        return "sequence"
    return "record"


def _position(game: Game[Any, Any, Any], options: Any, position: Any) -> Any:
    """The state a question's position describes, refused if it cannot occur."""
    try:
        state = game.position_from_data(position, options)
    except PositionError as error:
        raise QuestionError(f"position: {error}") from None
    _all_read(position, "position")
    broken = game.problems(state)
    if broken:
        raise QuestionError("position: the position cannot occur: " + "; ".join(broken))
    return state


_CARD_FIELDS = ("hands", "penalties", "pile", "turned", "early", "stock")
"""The fields of a Vändåtta position that place cards."""


def _nothing_given_is_lost(game: Game[Any, Any, Any], raw: Mapping[str, Any], state: Any) -> None:
    """Refuse a Vändåtta position in phase ``ready`` whose given cards the deal to come would
    throw away unread: the deal after the first gathers and shuffles every card, and a draw for
    the deal is followed by a shuffle and a cut. A stock stacked for a deal is given with the
    dealer, for the first deal (``"deal": 0``)."""
    if game.family != "vandatta":
        return
    built = game.position_to_data(state)
    if built["phase"] != "ready":
        return
    given = [name for name in _CARD_FIELDS if _holds_cards(raw.get(name))]
    if built["deal"] >= 1 and given:
        fields = " and ".join(repr(name) for name in given)
        how = "" if "deal" in raw else ", the default"
        raise QuestionError(
            f"position: the {fields} given would be thrown away: in phase 'ready' after deal "
            f"{built['deal']} ('deal' is {built['deal']}{how}) the next deal gathers every card "
            "and shuffles them by the position's 'seed' (VA-DEAL-SHUFFLE); only the first deal "
            f"('deal': 0) is dealt from the cards as given: give 'deal': 0, or leave out the "
            f"{fields}"
        )
    if built["dealer"] is None and "stock" in given:
        raise QuestionError(
            "position: a 'stock' cannot be given before the draw for the deal ('dealer' is "
            "null): whoever draws the lowest card shuffles the pack and the player on his right "
            "cuts it before the deal (000 §1 ¶2: V8-DEALER-DRAW-LOWEST-SHUFFLES, "
            "V8-DEALER-DRAW-RIGHT-CUTS), so the cards cannot lie as given; give the 'dealer', "
            "or leave out the 'stock'"
        )


def _holds_cards(value: Any) -> bool:
    """Whether a position's field places any card (a list, or a table of lists per player)."""
    if isinstance(value, Mapping):
        return any(_holds_cards(inner) for inner in value.values())
    return isinstance(value, list) and bool(value)


def _action(game: Game[Any, Any, Any], state: Any, raw: Any, where: str) -> Any:
    """An action read from a question, every field of it read."""
    if not isinstance(raw, dict):
        raise QuestionError(f"{where} must be a table, not {shown(raw)}")
    watched = _watched(raw)
    try:
        action = game.action_from_data(watched, state)
    except ActionError as error:
        raise QuestionError(f"{where}: {error}") from None
    _all_read(watched, where)
    return action


_SEAT_FIELDS = ("player", "absent", "caller", "target")
"""The fields of an action's data that name a player, by seat number or by name."""


def named_action(data: dict[str, Any], players: tuple[str, ...]) -> dict[str, Any]:
    """An action's data with every player given by seat number shown by name instead, for
    people to read (the data itself keeps the seat numbers it reads back)."""
    return {
        key: players[value]
        if key in _SEAT_FIELDS and type(value) is int and 0 <= value < len(players)
        else value
        for key, value in data.items()
    }


def _step(
    game: Game[Any, Any, Any],
    number: int,
    action: Any,
    ruled: tuple[Ruling[Any], Verdict, tuple[Verdict, ...]],
    *,
    players: Any,
    options: Any,
) -> dict[str, Any]:
    """One ruled step of a replay (the ruling, its verdict and its readings' verdicts), as
    plain data; ``said`` is the action with the players named (``players``: the seats' names
    before the step)."""
    ruling, asked, verdicts = ruled
    data = game.action_to_data(action)
    return {
        "number": number,
        "action": data,
        "said": named_action(data, tuple(players)),
        "verdict": overall(asked, verdicts).token,
        "verdict_as_asked": asked.token,
        "allowed": ruling.allowed,
        "message": ruling.message,
        "clauses": list(ruling.clauses),
        "events": [e.to_data() for e in ruling.events],
        "readings": _readings_data(ruling.readings, verdicts, options),
    }


def _last(steps: list[dict[str, Any]]) -> dict[str, Any]:
    """The verdict, message and clauses of the last step ruled on: the one that stopped the
    replay, if one did."""
    if not steps:
        allowed = Verdict.ALLOWED.token
        return {
            "verdict": allowed,
            "verdict_as_asked": allowed,
            "message": "no action to replay",
            "clauses": [],
        }
    keys = ("verdict", "verdict_as_asked", "message", "clauses")
    return {key: steps[-1][key] for key in keys}


def _plays_on(game: Game[Any, Any, Any], before: Any, ruling: Ruling[Any]) -> bool:
    """Whether a replay goes on after ``ruling`` on an action in ``before``: an allowed action
    stands; so does a mistake whose ruling changes the position (a penalty dealt, the action
    kept without a false call), as long as the position it leaves can be played on (the game
    not over, no invariant broken). A mistake refused outright leaves the position as it was,
    and what follows it was played in a position that never came about."""
    if ruling.allowed:
        return True
    return (
        ruling.state != before
        and not game.is_over(ruling.state)
        and not game.problems(ruling.state)
    )


def _replayed(game: Game[Any, Any, Any], options: Any, state: Any, actions: Sequence[Any]) -> Any:
    """``state`` after ``actions``, each ruled on as in a replay (under the options ``state``
    carries); :class:`IllegalActionError` if one of them would stop the replay there."""
    for number, action in enumerate(actions, 1):
        ruling: Ruling[Any] = adjudicate(game, options, state, action)
        if not _plays_on(game, state, ruling):
            raise IllegalActionError(f"action {number} stops the replay: {ruling.message}", ())
        state = ruling.state
    return state


def _sequence(
    game: Game[Any, Any, Any],
    options: Any,
    start: Callable[[Any], Any],
    state: Any,
    actions: list[Any],
    *,
    readings_from: int = 1,
) -> dict[str, Any]:
    """Rule on each action of a sequence played from ``state`` (which ``start(options)``
    rebuilds under other options), in turn, with the readings of each step (the earlier
    actions replayed under the reading) from step ``readings_from`` on, and of the step the
    replay stops at. The replay goes on while the rulings leave a position to play on
    (:func:`_plays_on`)."""
    steps: list[dict[str, Any]] = []
    played: list[Any] = []
    stopped = None
    for number, raw in enumerate(actions, 1):
        action = _action(game, state, raw, f"actions[{number}]")
        earlier = tuple(played)

        def rebuild(other: Any, earlier: tuple[Any, ...] = earlier) -> Any:
            return _replayed(game, other, start(other), earlier)

        ruled = _rule(
            game, options, state, action, rebuild=rebuild if number >= readings_from else None
        )
        ruling = ruled[0]
        if number < readings_from and not _plays_on(game, state, ruling):
            ruled = _rule(game, options, state, action, rebuild=rebuild)
        steps.append(_step(game, number, action, ruled, players=state.players, options=options))
        if not _plays_on(game, state, ruling):
            stopped = number
            break
        played.append(action)
        state = ruling.state
    return {
        "kind": "sequence",
        "opening": [],
        **_last(steps),
        "allowed": all(step["allowed"] for step in steps),
        "stopped": stopped,
        "steps": steps,
        "position": game.position_to_data(state),
        "over": game.is_over(state),
        "problems": list(game.problems(state)),
    }


def _given_deal(game: Game[Any, Any, Any], options: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """A deal with the cards given (the first card turned up included), then any actions."""
    dealer = getattr(game, "deal_from_data", None)
    why = described(game.rulebooks[0]).given_deal
    if dealer is None or why is not None:
        dealt_by = [b.title for b in descriptors().values() if b.given_deal is None]
        reason = why or "its engine reads no dealt cards (no deal_from_data)"
        raise QuestionError(f"'deal' is for {', '.join(dealt_by)}: {reason}")
    raw = _field(data, "deal", dict)
    watched = _watched(raw)
    try:
        dealt = dealer(watched, options)
    except PositionError as error:
        raise QuestionError(f"deal: {error}") from None
    _all_read(watched, "deal")
    if "action" in data and "actions" in data:
        raise QuestionError("a question takes 'action' or 'actions', not both")
    actions = [data["action"]] if "action" in data else data.get("actions", [])
    if not isinstance(actions, list):
        raise QuestionError(f"'actions' must be a list of actions, not {shown(actions)}")

    def start(other: Any) -> Any:
        return dealer(raw, other).state

    answer = _sequence(game, options, start, dealt.state, actions)
    readings = _readings_data(
        _deal_readings(options, dealt, lambda other: dealer(raw, other)), (), options
    )
    if not actions:
        cited = list(dict.fromkeys(c for e in dealt.events for c in e.clauses))
        dealt_as = overall(Verdict.ALLOWED, (Verdict.from_token(r["verdict"]) for r in readings))
        answer |= {
            "verdict": dealt_as.token,
            "message": "; ".join(e.text for e in dealt.events),
            "clauses": cited,
        }
    return {
        **answer,
        "kind": "deal",
        "opening": [e.to_data() for e in dealt.events],
        "readings": readings,
    }


def _deal_readings(
    options: Any, dealt: Outcome[Any], redeal: Callable[[Any], Outcome[Any]]
) -> tuple[ReadingResult, ...]:
    """What each reading of the ambiguities of the deal's clauses gives: the same cards dealt
    again under it (``redeal(options)``), as :func:`~regelverk.engine.adjudicate` rules on an
    action again under each reading of its deciding clauses. A deal that cannot be made under
    a reading is not allowed there (its verdict: the position cannot occur)."""

    def judge(other: Any) -> tuple[bool, str]:
        try:
            events = redeal(other).events
        except PositionError as error:
            return False, f"the deal cannot be made: {error}"
        return True, "; ".join(e.text for e in events)

    return readings_of_clauses(options, (c for e in dealt.events for c in e.clauses), judge)


def _players(raw: Any) -> tuple[str, ...]:
    if isinstance(raw, int) and not isinstance(raw, bool):
        if not 1 <= raw <= MAX_PLAYERS:
            raise QuestionError(
                f"'players' must be a count from 1 to {MAX_PLAYERS}, not {shown(raw)}"
            )
        return tuple(f"P{n}" for n in range(1, raw + 1))
    if isinstance(raw, list) and all(isinstance(p, str) and p for p in raw):
        if len(raw) > MAX_PLAYERS:
            raise QuestionError(f"'players' names {len(raw)} players; at most {MAX_PLAYERS}")
        if len(set(raw)) != len(raw):
            raise QuestionError("'players' names someone twice")
        return tuple(raw)
    raise QuestionError(f"'players' must be a count or a list of names, not {shown(raw)}")


def _same(field: str, what: str, given: Any, found: Mapping[str, Any]) -> None:
    """A record's ``preset`` or ``final`` (written by ``regelverk play --json``) must be what
    replaying the record gives: a record edited since, or played by another engine, is refused
    with the first field that differs."""
    if not isinstance(given, Mapping):
        raise QuestionError(f"the record's {field!r} must be a table of fields, not {shown(given)}")
    plain = json.loads(json.dumps(found))
    for key in sorted(set(plain) | set(given), key=str):
        if key not in given or key not in plain or given[key] != plain[key]:
            raise QuestionError(
                f"the record's {field!r} is not {what}: {key!r} is "
                f"{shown(given.get(key, '(missing)'))} in the record, "
                f"{shown(plain.get(key, '(missing)'))} on replay"
            )


def _policy_named(value: object) -> None:
    """A record's ``policy`` says who chose its moves; the replay does not need it, but it must
    name a player :mod:`regelverk.policies` has."""
    from regelverk.policies import POLICIES

    if value not in POLICIES:
        raise QuestionError(
            f"'policy': the player who chose the moves is one of {', '.join(POLICIES)}, not "
            f"{shown(value)}"
        )


RECORD_STEPS_WITH_READINGS = 20
"""A record of at most so many actions is ruled with the readings of every step; a longer one
(a whole game) with those of the step it stops at, or of its last action."""


def _replay(
    game: Game[Any, Any, Any], options: Any, rulebook: str, data: Mapping[str, Any]
) -> dict[str, Any]:
    players = _players(data.get("players"))
    dealt = checked_seed(_field(data, "seed", int))
    actions = _field(data, "actions", list)
    if "preset" in data:
        _same(
            "preset",
            "the options the record is played under",
            data["preset"],
            option_values(options),
        )
    if "policy" in data:
        _policy_named(data["policy"])
    dealt_game = opening(game, options, players, dealt)

    def start(other: Any) -> Any:
        return opening(game, other, players, dealt).state

    # every step of a short record with its readings; of a long one (a whole game) the last,
    # for each reading replays the game up to it
    last = len(actions) if len(actions) > RECORD_STEPS_WITH_READINGS else 1
    answer = _sequence(game, options, start, dealt_game.state, actions, readings_from=last)
    steps = answer["steps"]
    readings = _deal_readings(
        options, dealt_game, lambda other: opening(game, other, players, dealt)
    )
    if "final" in data and all(step["allowed"] for step in steps):
        _same("final", "the position its actions lead to", data["final"], answer["position"])
    return {
        **answer,
        "rulebook": rulebook,
        "kind": "record",
        "opening": [e.to_data() for e in dealt_game.events],
        "readings": _readings_data(readings, (), options) if dealt_game.events else [],
    }


@record
class PlayedGame:
    """A whole game by random legal moves: the record and the log."""

    record: dict[str, Any]
    opening: tuple[Event, ...]
    """What happened in the deal before the first action (UNO, Viggo)."""
    log: tuple[tuple[dict[str, Any], tuple[Event, ...]], ...]
    over: bool
    problems: tuple[str, ...] = ()
    """The invariants the last state breaks (empty for a sound game): play stops at the first
    state the engine's own ``problems`` check refuses, which is a defect of the engine."""


def play(
    rulebook: str,
    players: int | Sequence[str],
    seed: int,
    overrides: Mapping[str, Any] | None = None,
    *,
    policy: str = "random",
) -> PlayedGame:
    """Play a game, every seat choosing by the player ``policy`` (:mod:`regelverk.policies`:
    ``random``, any legal action; ``keen``, a card whenever one fits), the choices seeded by
    ``seed`` too. The record names the player (``policy``); a replay does not need it.

    Every state reached is held to the engine's invariants (``problems``); play stops at the
    first that breaks one, and the game's ``problems`` name what broke."""
    if not isinstance(rulebook, str):
        raise QuestionError(f"play: the rulebook is named by a string, not {shown(rulebook)}")
    if isinstance(players, bool) or not isinstance(players, int | list | tuple):
        raise QuestionError(
            f"play: the players are a number of players or a list of names, not {shown(players)}"
        )
    if overrides is not None and not isinstance(overrides, Mapping):
        raise QuestionError(
            f"play: the options are a table from option name to value, not {shown(overrides)}"
        )
    names = _players(players if isinstance(players, int) else list(players))
    checked_seed(seed, "play")
    game, options, _ = _game_and_options({"rulebook": rulebook, "options": dict(overrides or {})})
    dealt = opening(game, options, names, seed)
    state = dealt.state
    import random  # a played game only

    from regelverk.policies import policy_for

    choose = policy_for(rulebook, policy)
    chooser = random.Random(f"regelverk-play-{seed}")
    actions: list[dict[str, Any]] = []
    log = []
    broken = game.problems(state)
    while not broken and not game.is_over(state) and len(actions) < MAX_ACTIONS:
        legal = game.legal_actions(state)
        if not legal:
            break
        action = choose(state, legal, chooser)
        outcome = game.apply(state, action)
        data = game.action_to_data(action)
        actions.append(data)
        log.append((data, outcome.events))
        state = outcome.state
        broken = game.problems(state)
    record = {
        "rulebook": rulebook,
        "players": list(names),
        "seed": seed,
        "options": dict(overrides or {}),
        "preset": option_values(options),
        "policy": policy,
        "actions": actions,
        "final": game.position_to_data(state),
    }
    return PlayedGame(
        record=record,
        opening=dealt.events,
        log=tuple(log),
        over=game.is_over(state),
        problems=broken,
    )
