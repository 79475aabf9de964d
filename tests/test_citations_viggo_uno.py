"""Every Viggo and UNO ruling cites every clause that decides it, not only the first.

A ruling names the clauses that decided it (:class:`~regelverk.engine.Ruling`: a refusal's
clauses, or every clause of the events of an allowed action), and ``regelverk ask`` lists beside
it what each reading of every ambiguity of those clauses would give. A clause that decides a
ruling but is left out of it is a citation the reader cannot follow, and a reading he is not
shown.

How the test finds such a clause: it rules on a broad set of positions and attempts (the worked
questions of ``examples/viggo`` and ``examples/uno``, positions built for the edges of the rules,
positions reached by seeded random play under several sets of options, the deals themselves, and
attempted mistakes in those positions); then, for each clause that can be switched, it rules on
the same attempt in the same position with that clause switched, and wherever the outcome (allowed
or not, the resulting position, the events) changes, the first ruling must have cited that
clause. The switches are

* every other value of every options field, standing for the clauses its docstring names (a
  house rule also for the main rules it replaces, its ``refs`` in spec/) and for the ambiguity
  whose ``option`` it is (the ambiguity's clauses, as ``ask`` links them);
* every mutant of the catalogue (``proofs/regelverk_proofs/mutants/viggo.toml`` and
  ``uno.toml``), standing for the clauses it breaks: each is applied to a copy of the family's
  package made in memory (the source files are never touched) and imported beside the real one.

Where a switched ambiguity changes the outcome, the answer of :func:`~regelverk.engine.adjudicate`
must also list what that reading gives, and say allowed or refused as the switched ruling does.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import enum
import importlib
import importlib.abc
import importlib.machinery
import json
import random
import re
import sys
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import regelverk
from regelverk.cards import Card, UnoCard, french_deck
from regelverk.engine import Event, PositionError, Ruling, adjudicate, opening, with_options
from regelverk.errors import RegelverkError
from regelverk.games import game_for
from regelverk.optionspace import domains
from regelverk.registry import default_registry
from regelverk.viggo.rounds import sort_hand
from regelverk_proofs.mutate import Mutant, catalogue

REGISTRY = default_registry()
PACKAGE_ROOT = Path(regelverk.__file__).resolve().parent
"""The folder of the package ``regelverk`` as imported (the checkout's, or a scratch copy's)."""
EXAMPLES = PACKAGE_ROOT.parent.parent / "examples"
FAMILIES = ("viggo", "uno")
_ID = re.compile(r"\b(?:VG|UNO)(?:-[A-Z0-9]+)+\b")


# ---------------------------------------------------------------------------------------------
# The switches
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Switch:
    """One other value of one options field, and the clauses a ruling it changes must cite."""

    field: str
    value: Any
    clauses: frozenset[str]
    ambiguity: str | None
    """The ambiguity whose ``option`` the field is, if any."""


def _field_docs(path: Path) -> dict[str, str]:
    """The docstrings of the fields of the options classes in ``path`` (the string that follows
    each annotated field), by field name."""
    docs: dict[str, str] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ClassDef):
            continue
        for field, doc in zip(node.body, node.body[1:], strict=False):
            if (
                isinstance(field, ast.AnnAssign)
                and isinstance(field.target, ast.Name)
                and isinstance(doc, ast.Expr)
                and isinstance(doc.value, ast.Constant)
                and isinstance(doc.value.value, str)
            ):
                docs[field.target.id] = doc.value.value
    return docs


def _linked(book: str, ambiguity: str) -> frozenset[str]:
    """The clauses ``ask`` links to an ambiguity (its own list, and the clauses naming it), and
    the ambiguity's own id."""
    found = REGISTRY.ambiguity(ambiguity)
    named = {c.id for c in REGISTRY.clauses(book) if ambiguity in c.ambiguities}
    return frozenset({ambiguity, *found.clauses, *named})


def _field_clauses(
    book: str, name: str, doc: str, ids: re.Pattern[str] = _ID
) -> tuple[frozenset[str], str | None]:
    """What a field stands for: the clauses its docstring names (those ``ids`` finds; a house
    rule, tagged ``variant``, also with the main rules it replaces: its ``refs``), the linked
    clauses of any ambiguity it names or whose ``option`` it is; and that ambiguity."""
    ambiguities = {a.id: a for a in REGISTRY.rulebook(book).ambiguities}
    cited: set[str] = set()
    own = next((a.id for a in ambiguities.values() if a.option == name), None)
    for ident in ids.findall(doc):
        if ident in ambiguities:
            cited |= _linked(book, ident)
            continue
        clause = REGISTRY.clause(ident)
        cited.add(ident)
        if clause.tag == "variant":
            cited.update(clause.refs)
    if own is not None:
        cited |= _linked(book, own)
    return frozenset(cited), own


@cache
def switches(family: str) -> tuple[Switch, ...]:
    """Every other value of every field of the family's options (the values
    :func:`~regelverk.optionspace.domains` tries), with what it stands for."""
    game = game_for(family)
    preset = game.options(family)
    docs = _field_docs(PACKAGE_ROOT / family / "options.py")
    found = []
    for name, values in domains(preset).items():
        clauses, ambiguity = _field_clauses(family, name, docs.get(name, ""))
        assert clauses, f"the options field {name} names no clause and is no ambiguity's option"
        for value in values:
            found.append(Switch(field=name, value=value, clauses=clauses, ambiguity=ambiguity))
    return tuple(found)


# ---------------------------------------------------------------------------------------------
# The cases
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Case:
    """One thing to rule on, as plain data, so that any copy of the engine can read it: an
    attempt in a position, a deal with given cards (UNO), or a seeded opening."""

    family: str
    where: str
    options: Mapping[str, Any]
    """Overrides of the rulebook's preset (plain values, as a question file gives them)."""
    position: Mapping[str, Any] | None = None
    action: Mapping[str, Any] | None = None
    deal: Mapping[str, Any] | None = None
    seated: tuple[tuple[str, ...], int] | None = None
    """An opening: the players and the seed."""


_VIGGO_PLAY: tuple[Mapping[str, Any], ...] = (
    {},
    {"loss_points": 10},
    {"club_three_on_top": "club-three-on-top", "same_rank_once": True, "loss_points": 12},
    {
        "club_four_starts": True,
        "club_four_scope": "first-round-only",
        "club_four_opening": "must-include",
        "loss_points": 12,
    },
    {"most_cards_deal": True, "most_cards_tie": "lots-among-tied", "loss_points": 12},
    {
        "pass_is_final": "final",
        "example_trick_end": "one-lap",
        "lead_after_tie": "first-to-play",
        "simultaneous_loss": "all-over-lose",
        "game_winner": "lowest-total-wins",
        "loss_points": 10,
    },
    {
        "direction": "counter-clockwise",
        "sequence_wrap": "wrap",
        "three_in_combination": "three-trumps",
        "equal_rank_reply": "equal-allowed",
        "pass_when_able": "must-beat",
        "three_player_deal": "deal-all-uneven",
    },
)
"""The options Viggo is played under: the preset, short games (whose ends are ruled on), house
rules and other readings (whose code the preset never runs)."""

_UNO_PLAY: tuple[Mapping[str, Any], ...] = (
    {},
    {"target_score": 50},
    {"deck": 112, "stack_draw_two": True, "target_score": 120},
    {
        "illegal_wd4": "refused",
        "draw_when_able": "must-play",
        "keep_drawn_card": "must-lay",
        "uno_call_window": "with-the-card",
        "wd4_wild_counts": "wilds-count",
    },
    {
        "scoring": "holder-tally",
        "target_score": 60,
        "last_card_draw": "hand-ends-at-once",
        "next_dealer": "winner-deals",
        "challenge_success_card": "card-returns",
        "failed_challenge_turn": "plays-after-drawing",
    },
    {
        "current_colour": "printed-colour",
        "number_match": "colour-only",
        "action_symbol_match": "same-colour-only",
        "two_player_draw_cards": "opponent-plays",
        "challenge_success_penalty": "guilty-draws-six",
        "challenge_success_turn": "challenger-skipped",
        "target_score": 80,
    },
)
"""The options UNO is played under, in the same spirit."""

_SEEDS = (0,)
_EVERY = {"viggo": 30, "uno": 30}
"""One step in so many of a game is ruled on, besides every step that ends a round or hand."""
_LIMIT = 500
"""At most so many steps of a game are played."""


def _names(count: int) -> tuple[str, ...]:
    return tuple(f"P{n}" for n in range(1, count + 1))


def _examples(family: str) -> Iterator[Case]:
    """The worked questions of ``examples/<family>``: one case per action (a sequence's earlier
    actions played first), and a deal itself; a position with unknown cards is left out."""
    game = game_for(family)
    for path in sorted((EXAMPLES / family).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        overrides = data.get("options", {})
        options = with_options(game.options(family), overrides)
        where = f"examples/{family}/{path.name}"
        if "deal" in data:
            yield Case(family=family, where=where, options=overrides, deal=data["deal"])
            state = game.deal_from_data(data["deal"], options).state  # type: ignore[attr-defined]
        elif "?" in json.dumps(data["position"]):
            continue
        else:
            state = game.position_from_data(data["position"], options)
        for number, raw in enumerate(data.get("actions", [data.get("action")]), 1):
            if raw is None:
                break
            position = game.position_to_data(state)
            yield Case(
                family=family,
                where=f"{where}, action {number}",
                options=overrides,
                position=position,
                action=raw,
            )
            ruling = adjudicate(game, options, state, game.action_from_data(raw, state))
            if not ruling.allowed:
                break
            state = ruling.state


def _viggo_mistakes(state: Any, rng: random.Random) -> list[Any]:
    """Attempts a player makes at a Viggo table, legal or not: a pass on the lead, cards he does
    not hold, no combination, the wrong type, his lowest card, a play out of turn, a keep out of
    the draft (or, in the draft, a card not drawn, and a play)."""
    from regelverk.viggo import Keep, Pass, Play

    hand = state.hands[state.turn]
    others = [s for s in range(state.count) if s != state.turn and state.hands[s]]
    found: list[Any] = []
    if state.stock:  # the draft
        found.append(Keep(card=state.stock[-1]))
        if hand:
            found.append(Play(cards=(hand[0],)))
        return found
    found += [Pass(), Keep(card=hand[0])]
    if others:
        seat = rng.choice(others)
        found.append(Play(cards=(state.hands[seat][0],)))
        found.append(Play(cards=(state.hands[seat][-1],), player=state.players[seat]))
    if len(hand) >= 2 and hand[0].rank != hand[-1].rank:
        found.append(Play(cards=(hand[0], hand[-1])))
    found.append(Play(cards=(hand[0],)))
    found.append(Play(cards=(hand[-1],)))
    if state.trick and len(hand) >= 2:
        size = len(state.trick[-1].cards)
        found.append(Play(cards=tuple(hand[:1] if size > 1 else hand[-2:])))
    return rng.sample(found, min(2, len(found)))


def _uno_mistakes(state: Any, rng: random.Random) -> list[Any]:
    """Attempts a player makes at an UNO table, legal or not: a card from his hand (a wild with
    a colour named, or with none), drawing, keeping, challenging, calling UNO, catching, naming a
    colour, and a card laid out of turn."""
    from regelverk.cards import Colour
    from regelverk.uno import CallUno, Catch, Challenge, Draw, NameColour, Pass, Play

    names = state.players
    who = names[state.turn]
    other = names[(state.turn + 1) % len(names)]
    hand = state.hands[state.turn]
    found: list[Any] = [
        Draw(player=who),
        Pass(player=who),
        Challenge(player=who),
        CallUno(player=who),
        Catch(player=who, target=other),
        NameColour(player=who, colour=Colour.RED),
        Challenge(player=other),
    ]
    for card in rng.sample(hand, min(3, len(hand))):
        colour = rng.choice(tuple(Colour)) if card.colour is None else None
        found.append(Play(player=who, card=card, colour=colour, uno=len(hand) != 2))
        if card.colour is None:
            found.append(Play(player=who, card=card))
    if state.hands[(state.turn + 1) % len(names)]:
        found.append(Play(player=other, card=state.hands[(state.turn + 1) % len(names)][0]))
    return rng.sample(found, min(2, len(found)))


def _played(family: str) -> Iterator[Case]:
    """Positions reached by seeded random play (the engine's legal actions), with the action
    taken there and some attempted mistakes; every step that ends a round (or hand) is kept,
    with one in :data:`_EVERY` of the others; and each game's opening."""
    game = game_for(family)
    mistakes = _viggo_mistakes if family == "viggo" else _uno_mistakes
    for number, overrides in enumerate(_VIGGO_PLAY if family == "viggo" else _UNO_PLAY):
        options = with_options(game.options(family), overrides)
        for count in (2, 3, 4):
            for seed in _SEEDS:
                where = f"{family} play {number}, {count} players, seed {seed}"
                names = _names(count)
                yield Case(family=family, where=where, options=overrides, seated=(names, seed))
                state = opening(game, options, names, seed).state
                rng = random.Random(f"{where}")
                for step in range(_LIMIT):
                    legal = game.legal_actions(state)
                    if game.is_over(state) or not legal:
                        break
                    action = rng.choice(legal)
                    after = game.apply(state, action).state
                    ends = _round(after) != _round(state) or game.is_over(after)
                    if ends or step % _EVERY[family] == 0:
                        position = game.position_to_data(state)
                        for tried in [action, *([] if ends else mistakes(state, rng))]:
                            yield Case(
                                family=family,
                                where=f"{where}, step {step}",
                                options=overrides,
                                position=position,
                                action=game.action_to_data(tried),
                            )
                    state = after


def _round(state: Any) -> int:
    number: int = getattr(state, "round", None) or state.hand_number
    return number


def _cards(text: str) -> list[str]:
    """Cards written with spaces between them, as a list."""
    return text.split()


def _viggo_built() -> Iterator[Case]:
    """Viggo positions at the edges: going out near the losing total (several reaching it, a
    tie for most cards) and far from it, a three on a three, runs holding a three, a pair on a
    run, a run past the three, the club-four opening, a passer coming back, the draft."""

    def case(where: str, position: dict[str, Any], action: dict[str, Any], **options: Any) -> Case:
        return Case(family="viggo", where=where, options=options, position=position, action=action)

    four = ["P1", "P2", "P3", "P4"]
    hands = {"P1": ["9C"], "P2": ["4D", "5D", "6D"], "P3": ["6H"], "P4": ["7S", "8S", "JD"]}
    out = {"players": four, "turn": "P1", "hands": hands}
    near = out | {"scores": {"P1": 60, "P2": 51, "P3": 52, "P4": 52}}
    lead = {"action": "play", "cards": ["9C"]}
    for options in (
        {},
        {"loss_threshold_rule": "exactly"},
        {"loss_threshold_rule": "exactly", "game_winner": "lowest-total-wins"},
        {"simultaneous_loss": "first-in-turn-order"},
        {"simultaneous_loss": "all-over-lose"},
        {"game_winner": "lowest-total-wins"},
    ):
        yield case(f"going out near 53, {options}", near, lead, **options)
    house: dict[str, Any]
    for house in (
        {},
        {"most_cards_deal": True},
        {"most_cards_deal": True, "most_cards_tie": "lots-among-tied"},
        {"most_cards_deal": True, "most_cards_lead": "deal-only"},
        {"club_four_starts": True},
        {"club_four_starts": True, "club_four_scope": "first-round-only"},
        {"next_dealer": "dealer-rotates"},
    ):
        yield case(f"going out early, {house}", out, lead, **house)
    three = {
        "players": four,
        "turn": "P2",
        "hands": {"P1": ["KD"], "P2": ["3H", "3S", "4D"], "P3": ["6H"], "P4": ["7S"]},
        "trick": [{"player": "P1", "cards": ["3C"]}],
    }
    yield case("a three on the 3C", three, {"action": "play", "cards": ["3H"]})
    yield case(
        "a three on the 3C, club three",
        three,
        {"action": "play", "cards": ["3H"]},
        club_three_on_top="club-three-on-top",
    )
    runs: dict[str, Any] = {
        "players": four,
        "turn": "P2",
        "hands": {
            "P1": ["KD"],
            "P2": ["QC", "KC", "AC", "2C", "3H", "5S"],
            "P3": ["6H"],
            "P4": ["7S"],
        },
        "trick": [{"player": "P1", "cards": ["JD", "QD", "KD", "AD", "2D"]}],
    }
    yield case("a run to the three", runs, {"action": "play", "cards": _cards("QC KC AC 2C 3H")})
    pair = runs | {"hands": runs["hands"] | {"P2": ["QC", "QH", "5S"]}}
    yield case("a pair on a run", pair, {"action": "play", "cards": ["QC", "QH"]})
    past = {"players": four, "turn": "P1", "hands": {"P1": _cards("KC AC 2C 3C 4C 9D")}}
    yield case("a run past the three", past, {"action": "play", "cards": _cards("KC AC 2C 3C 4C")})
    deck = [c.code for c in sort_hand(french_deck())]
    full = {
        "players": four,
        "turn": "P1",
        "hands": {name: deck[n::4] for n, name in enumerate(four)},
    }
    club_four = {"club_four_starts": True, "club_four_opening": "must-include"}
    yield case("the 4C holder opens", full, {"action": "play", "cards": [deck[4]]}, **club_four)
    later = full | {"hands": {name: deck[n:24:4] for n, name in enumerate(four)}}
    yield case(
        "the 4C holder leads later", later, {"action": "play", "cards": [deck[4]]}, **club_four
    )
    back = {
        "players": four,
        "turn": "P4",
        "hands": {"P1": ["AH"], "P2": ["AS"], "P3": ["4S"], "P4": ["KC", "5H"]},
        "trick": [{"player": "P4", "cards": ["6C"]}, {"player": "P3", "cards": ["9C"]}],
        "passed": ["P1", "P2"],
    }
    for reading in ("may-return", "final"):
        yield case(
            f"passers, {reading}", back, {"action": "play", "cards": ["KC"]}, pass_is_final=reading
        )
    draft = {
        "players": ["P1", "P2"],
        "phase": "draft",
        "turn": "P2",
        "hands": {"P1": _cards("4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2C 3C"), "P2": []},
        "stock": ["4D", "5D", "6D"],
    }
    yield case("the draft's second turn", draft, {"action": "keep", "card": "4D"})


def _uno_built() -> Iterator[Case]:
    """UNO positions at the edges: going out with cards of every value left, on a Draw Two and a
    Wild Draw Four, on Shuffle Hands; drawing from used-up piles; a drawn Wild Draw Four; a
    challenge; deals with each kind of first card."""

    def case(where: str, position: dict[str, Any], action: dict[str, Any], **options: Any) -> Case:
        return Case(family="uno", where=where, options=options, position=position, action=action)

    players = ["Anna", "Bo", "Cia"]
    rest = {"Bo": ["W", "W+4", "RS", "B7"], "Cia": ["G+2", "Y0", "YR"]}
    for last, colour in (("R5", None), ("R+2", None), ("W+4", "red"), ("W", "blue")):
        position = {
            "players": players,
            "hands": {"Anna": [last], **rest},
            "discard": ["R3"],
            "colour": "red",
            "turn": "Anna",
            "scores": {"Anna": 480, "Bo": 10, "Cia": 0},
        }
        action = {"action": "play", "card": last} | ({"colour": colour} if colour else {})
        yield case(f"going out on {last}", position, action)
    shuffle = {
        "players": players,
        "hands": {"Anna": ["WSH"], "Bo": ["WX", "B7"], "Cia": ["G+2", "Y0", "YR"]},
        "discard": ["R3"],
        "colour": "red",
        "turn": "Anna",
    }
    yield case("Shuffle Hands last", shuffle, {"action": "play", "card": "WSH"}, deck=112)
    empty = {
        "players": players,
        "hands": {"Anna": ["B1"], "Bo": ["B7", "B8"], "Cia": ["Y0", "YR"]},
        "discard": ["R3"],
        "draw_pile": [],
        "colour": "red",
        "turn": "Anna",
    }
    yield case("drawing from used-up piles", empty, {"action": "draw"})
    drawn = {
        "players": players,
        "hands": {"Anna": ["R1", "W+4"], "Bo": ["B7", "B8"], "Cia": ["Y0", "YR"]},
        "discard": ["R3"],
        "colour": "red",
        "turn": "Anna",
        "phase": "drawn",
        "drawn": "W+4",
    }
    yield case("keeping a drawn Wild Draw Four", drawn, {"action": "pass"})
    yield case(
        "keeping a drawn Wild Draw Four, must lay",
        drawn,
        {"action": "pass"},
        keep_drawn_card="must-lay",
    )
    exact = position | {"hands": {"Anna": ["R5"], **rest}, "scores": {"Anna": 333}}
    yield case("going out to the target exactly", exact, {"action": "play", "card": "R5"})
    exposed = {
        "players": ["Anna", "Bo", "Cia", "Dan"],
        "hands": {"Anna": ["G2"], "Bo": ["B5", "Y7"], "Cia": ["Y1", "Y2"], "Dan": ["Y3"]},
        "discard": ["R3", "R5"],
        "turn": "Bo",
        "exposed": "Anna",
    }
    attempt: dict[str, Any]
    for attempt in (
        {"action": "call-uno", "player": "Bo"},
        {"action": "catch", "player": "Bo", "target": "Cia"},
        {"action": "catch", "player": "Bo", "target": "Anna"},
        {"action": "play", "player": "Bo", "card": "B5", "uno": True},
    ):
        yield case(f"Anna has not called UNO: {attempt}", exposed, attempt)
    alone = exposed | {"turn": "Dan", "exposed": None, "discard": ["R3", "Y5"]}
    play_last = {"action": "play", "card": "Y3", "uno": True}
    yield case("UNO called with the last card", alone, play_last)
    stacked = {
        "players": players,
        "hands": {"Anna": ["R+2"], **rest},
        "discard": ["R3", "B+2"],
        "colour": "blue",
        "turn": "Anna",
        "phase": "stack",
        "pending_draw": 2,
    }
    yield case(
        "going out on a stacked Draw Two",
        stacked,
        {"action": "play", "card": "R+2"},
        stack_draw_two=True,
    )
    holding = {
        "players": players,
        "hands": {"Anna": ["BS", "R1", "W+4"], **rest},
        "discard": ["R3", "W"],
        "colour": "blue",
        "turn": "Anna",
    }
    wd4 = {"action": "play", "card": "W+4", "colour": "green"}
    for options in (
        {},
        {"illegal_wd4": "refused"},
        {"illegal_wd4": "refused", "current_colour": "printed-colour"},
    ):
        yield case(f"a Wild Draw Four held against, {options}", holding, wd4, **options)
    number = holding | {"discard": ["R3", "B5"], "hands": {"Anna": ["R5", "R1"], **rest}}
    for options in ({}, {"number_match": "colour-only"}):
        yield case(f"R5 on B5, {options}", number, {"action": "play", "card": "R5"}, **options)
    for first in ("R5", "RS", "RR", "R+2", "W", "W+4", "WSH", "WX"):
        for names in (["Anna", "Bo"], players):
            hands = {
                name: [f"{c}{n}" for n in range(1, 8)]
                for name, c in zip(names, "BYG", strict=False)
            }
            deal = {"players": names, "dealer": names[-1], "hands": hands, "first": first}
            yield Case(
                family="uno",
                where=f"a deal turning up {first}, {len(names)} players",
                options={"deck": 112},
                deal=deal,
            )


@cache
def cases(family: str) -> tuple[Case, ...]:
    """Every case of a family, made once."""
    built = _viggo_built() if family == "viggo" else _uno_built()
    return (*_examples(family), *built, *_played(family))


# ---------------------------------------------------------------------------------------------
# Ruling
# ---------------------------------------------------------------------------------------------


Key = tuple[Any, ...]
"""An outcome: allowed or not, the resulting position, and the events (without their clauses)."""


def _events(events: Sequence[Event]) -> tuple[tuple[Any, ...], ...]:
    return tuple((e.kind, e.text, e.player, e.cards) for e in events)


@dataclass(frozen=True, slots=True)
class Judged:
    """A ruling as the test compares it."""

    allowed: bool
    clauses: frozenset[str]
    events: tuple[tuple[Any, ...], ...]
    state: Any


class Table:
    """A case as one engine reads it: its options, its position and action (or its deal), and
    how to rule on it under other options."""

    def __init__(
        self,
        game: Any,
        case: Case,
        like: Table | None = None,
        into: Mapping[tuple[str, str], Any] | None = None,
    ) -> None:
        """The case read by ``game``; or, given the table ``like`` of another copy of the
        engine and the classes ``into`` of this one, its position and action taken over (see
        :func:`_transplant`)."""
        self.game = game
        self.case = case
        self.options = with_options(game.options(case.family), case.options)
        self.state: Any = None
        self.action: Any = None
        if like is not None and into is not None and like.state is not None:
            state = dataclasses.replace(like.state, options=None)  # options: those of ``game``
            self.state = dataclasses.replace(_transplant(state, into), options=self.options)
            self.action = _transplant(like.action, into)
        elif case.position is not None:
            self.state = game.position_from_data(case.position, self.options)
            self.action = game.action_from_data(case.action, self.state)

    def state_under(self, options: Any) -> Any | None:
        """The position under other options; ``None`` where it cannot occur under them."""
        if self.state is None:
            return None
        state = dataclasses.replace(self.state, options=options)
        return None if self.game.problems(state) else state

    def rule(self, options: Any, state: Any = None) -> Judged:
        """The ruling under ``options`` (``state`` the position under them)."""
        game, case = self.game, self.case
        if case.deal is not None:
            dealt = game.deal_from_data(case.deal, options)
            return _judged(True, (), dealt.events, dealt.state)
        if case.seated is not None:
            dealt = opening(game, options, *case.seated)
            return _judged(True, (), dealt.events, dealt.state)
        ruling: Ruling[Any] = adjudicate(game, options, state or self.state, self.action)
        return _judged(ruling.allowed, ruling.clauses, ruling.events, ruling.state)


def _judged(allowed: bool, clauses: Sequence[str], events: Sequence[Event], state: Any) -> Judged:
    cited = frozenset(clauses) | {c for e in events for c in e.clauses}
    return Judged(allowed=allowed, clauses=cited, events=_events(events), state=state)


def _same(first: Judged, second: Judged, options: Any) -> bool:
    """Whether two rulings of one engine have one outcome (their states compared under one
    options object: the position is what must agree)."""
    if first.allowed != second.allowed or first.events != second.events:
        return False
    if not first.allowed:
        return True
    return bool(first.state == dataclasses.replace(second.state, options=options))


def _short(judged: Judged) -> str:
    said = "; ".join(str(e[1]) for e in judged.events) or "(no events)"
    verdict = "allowed" if judged.allowed else "refused"
    return f"{verdict}: {said[:160]}"


# ---------------------------------------------------------------------------------------------
# The checks
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Miss:
    """A ruling whose outcome a switch changes, though it cites none of the switch's clauses."""

    case: str
    switch: str
    cited: tuple[str, ...]
    wanted: tuple[str, ...]
    first: str
    switched: str

    def __str__(self) -> str:
        return (
            f"{self.case}: under {self.switch} the ruling changes\n"
            f"    from {self.first}\n      to {self.switched}\n"
            f"    it cites {', '.join(self.cited) or 'nothing'}\n"
            f"    but none of {', '.join(self.wanted)}"
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Found:
    """What the option switches found: the misses, the rulings that did change (so that the
    test is seen to switch something), and the cases ruled on per ambiguity that changed them."""

    misses: tuple[Miss, ...]
    changed: int
    by_ambiguity: tuple[tuple[Table, Switch, Judged], ...]


Rule = Callable[[Table, Any, Any], Judged]


def _plain_rule(table: Table, options: Any, state: Any) -> Judged:
    return table.rule(options, state)


def option_misses(
    family: str,
    rule: Rule = _plain_rule,
    *,
    every: Sequence[Table] | None = None,
    chosen: Sequence[Switch] | None = None,
) -> Found:
    """Rule on every case (``every``, by default the family's) under its own options and under
    each switch (``chosen``, by default the family's); ``rule`` rules: the test of the test
    swaps it for one that forgets a clause."""
    misses: list[Miss] = []
    changed = 0
    by_ambiguity: list[tuple[Table, Switch, Judged]] = []
    for table in tables(family) if every is None else every:
        case = table.case
        base = rule(table, table.options, table.state)
        for switch in switches(family) if chosen is None else chosen:
            if getattr(table.options, switch.field) == switch.value:
                continue
            try:
                other = with_options(table.options, {switch.field: switch.value})
            except RegelverkError:
                continue  # an incoherent combination, refused when built
            state = table.state_under(other)
            if table.state is not None and state is None:
                continue  # the position cannot occur under the other options (another pack)
            try:
                switched = rule(table, other, state)
            except PositionError:
                continue  # a given deal of cards the other pack has not
            if _same(base, switched, table.options):
                continue
            changed += 1
            if switch.ambiguity is not None and table.state is not None:
                by_ambiguity.append((table, switch, switched))
            if base.clauses & switch.clauses:
                continue
            misses.append(
                Miss(
                    case=case.where,
                    switch=f"{switch.field} = {_shown(switch.value)}",
                    cited=tuple(sorted(base.clauses)),
                    wanted=tuple(sorted(switch.clauses)),
                    first=_short(base),
                    switched=_short(switched),
                )
            )
    return Found(misses=tuple(misses), changed=changed, by_ambiguity=tuple(by_ambiguity))


def _shown(value: Any) -> str:
    return repr(getattr(value, "value", value))


@cache
def found(family: str) -> Found:
    return option_misses(family)


# --- mutants -----------------------------------------------------------------------------------


class _OneModule(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves one module from changed source text (and nothing else)."""

    def __init__(self, name: str, source: str, path: Path) -> None:
        self.name, self.source, self.path = name, source, path

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.name:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, origin=str(self.path))

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        module.__file__ = str(self.path)
        exec(compile(self.source, str(self.path), "exec"), module.__dict__)


@contextlib.contextmanager
def mutated(family: str, mutant: Mutant) -> Iterator[Any | None]:
    """The family's engine (its ``GAME``) with the mutant's change made, imported afresh beside
    the real one, which is put back afterwards; ``None`` when the change no longer fits."""
    package = f"regelverk.{family}"
    relative = Path(mutant.file).relative_to("model/regelverk")
    path = PACKAGE_ROOT / relative
    source = path.read_text(encoding="utf-8")
    if source.count(mutant.find) != 1:
        yield None
        return
    name = "regelverk." + ".".join(relative.with_suffix("").parts)
    finder = _OneModule(name, source.replace(mutant.find, mutant.replace), path)
    saved = {n: m for n, m in sys.modules.items() if n == package or n.startswith(package + ".")}
    for n in saved:
        del sys.modules[n]
    sys.meta_path.insert(0, finder)
    try:
        yield importlib.import_module(package).GAME
    finally:
        sys.meta_path.remove(finder)
        for n in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
            del sys.modules[n]
        sys.modules.update(saved)
        setattr(regelverk, family, saved[package])


def _classes(package: str) -> dict[tuple[str, str], Any]:
    """The classes defined in the modules of ``package`` now imported, by module and name."""
    found = {}
    for name, module in list(sys.modules.items()):
        if module is not None and (name == package or name.startswith(package + ".")):
            for value in vars(module).values():
                if isinstance(value, type) and value.__module__ == name:
                    found[(name, value.__qualname__)] = value
    return found


def _transplant(value: Any, into: Mapping[tuple[str, str], Any]) -> Any:
    """``value`` (a state, an action, or a part of one) rebuilt of the classes ``into`` of the
    same names: a copy of the engine imported afresh has its own records and enums, and reads
    the very position the real engine read, without parsing it again. Cards are shared."""
    kind = type(value)
    if kind is tuple:
        if not value or type(value[0]) in _CARDS:
            return value  # cards (and only cards) are shared by every copy of the engine
        return tuple([_transplant(v, into) for v in value])
    if kind is frozenset:
        return frozenset(_transplant(v, into) for v in value)
    target = into.get((kind.__module__, kind.__qualname__))
    if target is None or target is kind:
        return value
    if isinstance(value, enum.Enum):
        return target[value.name]
    fields = {f.name: _transplant(getattr(value, f.name), into) for f in dataclasses.fields(value)}
    return target(**fields)


_CARDS = (Card, UnoCard)


def _plain(value: Any) -> Any:
    """``value`` as nested tuples of plain values, the same for equal records of any copy of
    the engine (the key an outcome is compared by)."""
    kind = type(value)
    if kind is tuple or kind is list:
        shared = value and type(value[0]) in _CARDS
        return tuple(value) if shared else tuple([_plain(v) for v in value])
    if kind is frozenset:
        return tuple(sorted(map(repr, value)))
    if isinstance(value, enum.Enum):
        return value.name
    own = kind.__module__.startswith("regelverk.") and kind.__module__ != "regelverk.cards"
    if own and dataclasses.is_dataclass(value):
        return tuple([_plain(getattr(value, f.name)) for f in dataclasses.fields(value)])
    return value


def _key(judged: Judged) -> Key:
    """An outcome as a mutant's ruling is compared by: allowed or not, the events, and the
    resulting position without the options it carries (a mutant of a preset changes those in
    every state; only what they decide is an outcome)."""
    state = dataclasses.replace(judged.state, options=None) if judged.allowed else None
    return (judged.allowed, judged.events, _plain(state))


def _mutants(family: str) -> tuple[Mutant, ...]:
    return tuple(
        m
        for m in catalogue()
        if family in m.rulebooks and m.file.startswith(f"model/regelverk/{family}/")
    )


@cache
def tables(family: str) -> tuple[Table, ...]:
    """Every case of a family, read by the real engine."""
    return read(family, cases(family))


def read(family: str, every: Sequence[Case]) -> tuple[Table, ...]:
    """Cases read by the family's real engine."""
    game = game_for(family)
    return tuple(Table(game, case) for case in every)


def ruled(every: Sequence[Table]) -> tuple[tuple[Table, Judged, Key], ...]:
    """Each case's ruling by the real engine, and its outcome as a mutant's is compared."""
    found = []
    for table in every:
        judged = table.rule(table.options)
        found.append((table, judged, _key(judged)))
    return tuple(found)


@cache
def _real_rulings(family: str) -> tuple[tuple[Table, Judged, Key], ...]:
    return ruled(tables(family))


def mutant_misses(
    family: str,
    mutant: Mutant,
    real: Sequence[tuple[Table, Judged, Key]] | None = None,
) -> tuple[list[Miss], int] | None:
    """The rulings the mutant changes that cite none of its clauses, and how many it changes
    (``None``: the mutant no longer fits the code); ``real``: the real rulings compared, by
    default the family's."""
    real = _real_rulings(family) if real is None else real
    wanted = frozenset(mutant.clauses)
    misses: list[Miss] = []
    changed = 0
    with mutated(family, mutant) as game:
        if game is None:
            return None
        into = _classes(f"regelverk.{family}")
        for real_table, judged, key in real:
            case = real_table.case
            try:
                table = Table(game, case, like=real_table, into=into)
                other = table.rule(table.options)
                other_key = _key(other)
                shown = _short(other)
            except Exception as error:  # a mutant may break anything
                other_key, shown = ("crash", repr(error)), f"crash: {error!r}"
            if other_key == key:
                continue
            changed += 1
            if not judged.clauses & wanted:
                misses.append(
                    Miss(
                        case=case.where,
                        switch=f"mutant {mutant.id}",
                        cited=tuple(sorted(judged.clauses)),
                        wanted=tuple(sorted(wanted)),
                        first=_short(judged),
                        switched=shown,
                    )
                )
    return misses, changed


# ---------------------------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------------------------


def _report(misses: Sequence[Miss]) -> str:
    shown = "\n".join(str(m) for m in misses[:12])
    more = f"\n… and {len(misses) - 12} more" if len(misses) > 12 else ""
    return f"{len(misses)} rulings leave out a clause that decides them:\n{shown}{more}"


@pytest.mark.parametrize("family", FAMILIES)
def test_the_cases_are_broad(family: str) -> None:
    """The cases rule on allowed and refused attempts, on the ends of rounds and games, on
    deals, and on the worked questions; and the switches change many rulings."""
    game = game_for(family)
    every = cases(family)
    judged = [j for _, j, _ in _real_rulings(family)]
    assert len(every) >= 300
    assert sum(j.allowed for j in judged) >= 100
    assert sum(not j.allowed for j in judged) >= 100
    assert any(c.where.startswith("examples/") for c in every)
    assert any(c.deal is not None or c.seated is not None for c in every)
    kinds = {e[0] for j in judged for e in j.events}
    ends = {"viggo": {"score", "game-lost", "trick", "draft"}, "uno": {"score", "game", "hit"}}
    assert ends[family] <= kinds, ends[family] - kinds
    assert found(family).changed >= 200
    assert game.family == family


@pytest.mark.clause("VG-SCORE-POINT-PER-CARD", "VG-LOSS-FIRST-TO-53", "VG-TURN-ROUND-THE-TABLE")
def test_every_viggo_ruling_cites_the_clauses_its_options_decide() -> None:
    misses = found("viggo").misses
    assert not misses, _report(misses)


@pytest.mark.clause("UNO-SCORE-WINNER-COLLECTS", "UNO-WIN-GAME-500", "UNO-DRAW-PLAY-DRAWN")
def test_every_uno_ruling_cites_the_clauses_its_options_decide() -> None:
    misses = found("uno").misses
    assert not misses, _report(misses)


@pytest.mark.parametrize("family", FAMILIES)
def test_every_ruling_cites_the_clauses_a_mutant_changes(family: str) -> None:
    """Each mutant of the catalogue that changes a ruling must break a clause that ruling
    cites; and the mutants, taken together, change rulings (a mutant that no longer fits the
    code, as in a mutation run of one of them, is passed over)."""
    misses: list[Miss] = []
    changed = 0
    mutants = _mutants(family)
    assert len(mutants) >= 20
    for mutant in mutants:
        result = mutant_misses(family, mutant)
        if result is None:
            continue
        misses += result[0]
        changed += result[1]
    assert changed >= 50
    assert not misses, _report(misses)
    assert sys.modules[f"regelverk.{family}"] is getattr(regelverk, family)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_answer_lists_the_reading_a_ruling_depends_on(family: str) -> None:
    """Where another reading of an ambiguity changes a ruling, ``adjudicate`` (what ``ask``
    answers) lists that reading, allowed or refused as it is when ruled on by itself."""
    wrong = []
    answers: dict[int, Ruling[Any]] = {}
    for table, switch, switched in found(family).by_ambiguity:
        assert switch.ambiguity is not None
        ambiguity = switch.ambiguity
        answer = answers.get(id(table))
        if answer is None:

            def rebuild(options: Any, table: Table = table) -> Any:
                return dataclasses.replace(table.state, options=options)

            answer = answers[id(table)] = adjudicate(
                table.game, table.options, table.state, table.action, rebuild=rebuild
            )
        option = REGISTRY.ambiguity(ambiguity).option
        value = getattr(switched.state.options, option)
        listed = [
            r for r in answer.readings if r.ambiguity == ambiguity and r.reading == value.value
        ]
        if [r.allowed for r in listed] != [switched.allowed]:
            wrong.append(f"{table.case.where}: {ambiguity} reading {value.value}: {listed}")
    assert not wrong, "\n".join(wrong[:10])


def test_a_ruling_that_forgets_a_clause_is_found() -> None:
    """The check can fail: rulings that forget the clause of a three on a three (and every
    clause of the same-rank house rule) are reported under that house rule."""

    def forgetful(table: Table, options: Any, state: Any) -> Judged:
        judged = table.rule(options, state)
        kept = judged.clauses - {"VG-RANK-THREE-BEATS-THREE", "VG-PLAY-BEAT-SAME-TYPE-HIGHER"}
        return dataclasses.replace(judged, clauses=kept)

    misses = option_misses("viggo", forgetful).misses
    assert any(m.switch == "same_rank_once = True" for m in misses)
    assert any("three on the 3C" in m.case for m in misses)


def test_a_mutant_is_imported_beside_the_engine_and_put_back() -> None:
    """A mutant changes the copy of the engine it is made in, and nothing else: the real engine
    is the one imported afterwards, and the change shows in the copy's rulings."""
    mutant = next(m for m in _mutants("uno") if m.id == "uno-catch-draws-one")
    real = game_for("uno")
    with mutated("uno", mutant) as game:
        assert game is not None
        assert game is not real
        assert type(game) is not type(real)
    assert game_for("uno") is real
    assert sys.modules["regelverk.uno"].GAME is real
    result = mutant_misses("uno", mutant)
    assert result is not None
    assert result[1] >= 1
