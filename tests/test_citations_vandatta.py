"""Every ruling of the common Vändåtta rules (``vandatta``, text 001) cites every clause that
decides it, as :mod:`test_citations_viggo_uno` checks for Viggo and UNO, and with its machinery.

The cases: the worked questions of ``examples/vandatta`` whose rulebook is ``vandatta``,
positions built for the edges of the rules (the going out, aces, eights, the LAPPEN and varning
calls, the scoring to 100 points at a deal's end, a blocked deal, the deal itself), and positions
reached by seeded random play under the preset and a few other sets of options, with attempted
mistakes. Each is ruled on under its own options, then

* under every other value (as :func:`~regelverk.optionspace.domains` gives them) of every
  options field that stands for a clause of 001: a field whose docstring names a ``VA-`` clause
  or ambiguity, or that is the ``option`` of a ``VA-`` ambiguity. Such a switch stands for the
  ``VA-`` clauses the docstring names and for the clauses ``ask`` links to its ambiguity. The
  other fields only concern vvv8 (000): their docstrings name ``V8-`` clauses and ambiguities
  alone, so a vandatta ruling, which cites only clauses of 001, cannot cite what they stand for;
  they are left out (:func:`vvv8_fields` lists them, and the test checks they name ``V8-`` ids);
* with every mutant of the catalogue whose ``rulebooks`` include ``vandatta`` applied to a copy
  of the engine made in memory (the source files are never touched), standing for its clauses.

Wherever the outcome (allowed or not, the events, the resulting position) changes, the first
ruling must cite one of the clauses the switch stands for; where a switched ambiguity changes it,
:func:`~regelverk.engine.adjudicate` must list that reading, allowed or refused as it rules.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import Any

import pytest
from test_citations_viggo_uno import (
    EXAMPLES,
    PACKAGE_ROOT,
    REGISTRY,
    Case,
    Found,
    Judged,
    Key,
    Miss,
    Switch,
    Table,
    _field_clauses,
    _field_docs,
    _mutants,
    _report,
    mutant_misses,
    option_misses,
    read,
    ruled,
)

import regelverk
from regelverk.cards import french_deck
from regelverk.engine import Ruling, adjudicate, opening, with_options
from regelverk.games import game_for
from regelverk.optionspace import domains

BOOK = "vandatta"
"""The rulebook, which is also the family of its engine and the name of its preset."""
_VA = re.compile(r"\bVA(?:-[A-Z0-9]+)+\b")
_V8 = re.compile(r"\bV8(?:-[A-Z0-9]+)+\b")


# ---------------------------------------------------------------------------------------------
# The switches
# ---------------------------------------------------------------------------------------------


@cache
def _docs() -> dict[str, str]:
    return _field_docs(PACKAGE_ROOT / "vandatta" / "options.py")


@cache
def switches() -> tuple[Switch, ...]:
    """Every value of every field that stands for a clause of 001 (a case is ruled on under
    each value but its own)."""
    found = []
    for name, values in domains(game_for(BOOK).options(BOOK)).items():
        clauses, ambiguity = _field_clauses(BOOK, name, _docs().get(name, ""), _VA)
        if not clauses:
            continue
        for value in values:
            found.append(Switch(field=name, value=value, clauses=clauses, ambiguity=ambiguity))
    return tuple(found)


@cache
def vvv8_fields() -> tuple[str, ...]:
    """The fields left out: those that stand for no clause of 001."""
    switched = {s.field for s in switches()}
    return tuple(n for n in domains(game_for(BOOK).options(BOOK)) if n not in switched)


# ---------------------------------------------------------------------------------------------
# The cases
# ---------------------------------------------------------------------------------------------


_PLAY: tuple[Mapping[str, Any], ...] = (
    {},
    {
        "score_limit": 20,
        "varning_cards": 2,
        "lappen_omission": "no-go-out",
        "varning_omission": "three-cards",
        "varning_trigger": "at-or-below",
    },
    {
        "ace_off_suit": "allowed",
        "ace_by_rank": "allowed",
        "after_three_draws": "pass-free-lead",
        "drawn_card": "may-keep",
        "several_eights": "together",
        "multi_card": "first-card-rank",
        "score_limit": 20,
    },
    {
        "game_end": "single-deal",
        "go_out_without_lappen": "lappen-required",
        "lappen_penalty": "penalty-then-play",
        "empty_stock": "no-rebuild",
        "blocked_deal": "count-hands",
    },
    {
        "over_limit": "play-on",
        "nobody_alone": "replay-deal",
        "score_limit": 20,
        "next_dealer": "winner-deals",
        "start_ace": "as-dealers-ace",
        "start_ace_take": "may-decline",
        "restart_fallback": "any-card",
    },
)
"""The options vandatta is played under: the preset, short matches (whose ends are ruled on),
and other readings (whose code the preset never runs)."""

_SEED = 0
_EVERY = 6
"""One step in so many of a game is ruled on, besides every step that changes the phase."""
_LIMIT = 240
"""At most so many steps of a game are played."""


def _examples() -> Iterator[Case]:
    """The worked questions of ``examples/vandatta`` for the rulebook vandatta: one case per
    action (a sequence's earlier actions played first); a position with unknown cards is left
    out."""
    game = game_for(BOOK)
    for path in sorted((EXAMPLES / BOOK).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("rulebook") != BOOK or "?" in json.dumps(data["position"]):
            continue
        overrides = data.get("options", {})
        options = with_options(game.options(BOOK), overrides)
        state = game.position_from_data(data["position"], options)
        for number, raw in enumerate(data.get("actions", [data.get("action")]), 1):
            yield Case(
                family=BOOK,
                where=f"examples/{BOOK}/{path.name}, action {number}",
                options=overrides,
                position=game.position_to_data(state),
                action=raw,
            )
            ruling = adjudicate(game, options, state, game.action_from_data(raw, state))
            if not ruling.allowed:
                break
            state = ruling.state


def _mistakes(state: Any, rng: random.Random) -> list[Any]:
    """Attempts a player makes at a vandatta table, legal or not: a card from his hand (an
    eight with a suit named, or none), two cards together, his first card with a call, a draw,
    a pass, and a card laid out of turn."""
    from regelverk.cards import Suit
    from regelverk.vandatta.state import Draw, Pass, Phase, Play

    if state.phase is not Phase.PLAY:
        return []
    seat = state.turn
    hand = state.hands[seat]
    other = (seat + 1) % len(state.players)
    found: list[Any] = [Draw(player=seat), Pass(player=seat)]
    for card in rng.sample(hand, min(3, len(hand))):
        suit = rng.choice(tuple(Suit)) if card.rank == 8 else None
        found.append(Play(player=seat, cards=(card,), suit=suit))
        if card.rank == 8:
            found.append(Play(player=seat, cards=(card,)))
    if hand:
        found.append(Play(player=seat, cards=(hand[0],), call=True))
    if len(hand) >= 2:
        found.append(Play(player=seat, cards=(hand[0], hand[-1])))
    if state.hands[other]:
        found.append(Play(player=other, cards=(state.hands[other][0],)))
    return rng.sample(found, min(3, len(found)))


def _played() -> Iterator[Case]:
    """Positions reached by seeded random play (the engine's legal actions), with the action
    taken there and some attempted mistakes: every step that changes the phase (a deal, a
    going out, the match's end, a start ace), one in :data:`_EVERY` of the others; and each
    game's first deal (Vändåtta's deal is an action; the opening before it has no events, so
    nothing there can cite a clause, and it is not ruled on by itself)."""
    game = game_for(BOOK)
    for number, overrides in enumerate(_PLAY):
        options = with_options(game.options(BOOK), overrides)
        for count in (2, 3, 4):
            where = f"vandatta play {number}, {count} players, seed {_SEED}"
            names = tuple(f"P{n}" for n in range(1, count + 1))
            state = opening(game, options, names, _SEED).state
            rng = random.Random(where)
            for step in range(_LIMIT):
                legal = game.legal_actions(state)
                if game.is_over(state) or not legal:
                    break
                action = rng.choice(legal)
                after = game.apply(state, action).state
                ends = after.phase is not state.phase or after.deal_number != state.deal_number
                if ends or step % _EVERY == 0:
                    position = game.position_to_data(state)
                    for tried in [action, *([] if ends else _mistakes(state, rng))]:
                        yield Case(
                            family=BOOK,
                            where=f"{where}, step {step}",
                            options=overrides,
                            position=position,
                            action=game.action_to_data(tried),
                        )
                state = after


_DECK = tuple(c.code for c in french_deck())


def _rest(*used: Sequence[str]) -> list[str]:
    """Every card of one deck that ``used`` does not hold, in the deck's order."""
    taken = {c for cards in used for c in cards}
    return [c for c in _DECK if c not in taken]


def _cards(text: str) -> list[str]:
    """Cards written with spaces between them, as a list."""
    return text.split()


def _h(**cards: str) -> dict[str, list[str]]:
    """Hands by player, each written with spaces between its cards."""
    return {name: _cards(text) for name, text in cards.items()}


def _built() -> Iterator[Case]:  # noqa: PLR0912, PLR0915 (one list of positions)
    """vandatta positions at the edges of the rules."""

    def case(where: str, position: dict[str, Any], action: dict[str, Any], **options: Any) -> Case:
        return Case(family=BOOK, where=where, options=options, position=position, action=action)

    three = ["P1", "P2", "P3"]
    four = ["P1", "P2", "P3", "P4"]
    play: dict[str, Any]
    attempt: dict[str, Any]
    # the going out, and the scores it brings to 100 at the deal's end
    out: dict[str, Any] = {
        "players": three,
        "turn": "P2",
        "calls": ["P2"],
        "hands": _h(P1="KC QS 10H 5C", P2="9D", P3="AS 8C 2H"),
        "pile": ["4D"],
    }
    play = {"action": "play", "cards": ["9D"]}
    totals: dict[str, Any]
    for totals in (
        {"P1": 70, "P2": 40, "P3": 90},
        {"P1": 10, "P2": 40, "P3": 20},
        {"P1": 90, "P2": 99, "P3": 30},
    ):
        for options in (
            {},
            {"over_limit": "play-on"},
            {"nobody_alone": "replay-deal"},
            {"game_end": "single-deal"},
            {"score_limit": 120},
        ):
            position = out | {"record": {"points": totals}}
            yield case(
                f"going out after LAPPEN, totals {totals}, {options}", position, play, **options
            )
    yield case("going out without LAPPEN", out | {"calls": []}, play)
    yield case("going out with a call said", out, play | {"call": True})
    beyond = out | {"record": {"points": {"P1": 120, "P2": 110, "P3": 105}}}
    yield case("going out at 110, nobody under 100", beyond, play, over_limit="play-on")
    for last in ("AD", "8D", "8S"):
        hands = out["hands"] | {"P2": [last]}
        for calls in (["P2"], []):
            yield case(
                f"the last card {last}, calls {calls}",
                out | {"hands": hands, "calls": calls},
                {"action": "play", "cards": [last], "suit": "H" if last[0] == "8" else None},
            )
    onto = out | {"pile": ["4D", "AD"], "restart": "ace", "hands": out["hands"] | {"P2": ["9D"]}}
    yield case("going out onto one's own ace", onto, play)
    # the LAPPEN and varning calls
    for hand, cards in (
        ("6D 9D", ["6D"]),
        ("6D AD", ["6D"]),
        ("6D 8S", ["6D"]),
        ("6D 9D KH 2S", ["6D"]),
        ("6D 6H 9D KH 2S", ["6D", "6H"]),
        ("6D 6H 9D KH", ["6D", "6H"]),
        ("6D 9D KH", ["6D"]),
    ):
        position = out | {"calls": [], "hands": out["hands"] | {"P2": hand.split()}}
        for options in ({}, {"varning_cards": 2}, {"varning_cards": 4}):
            for call in (False, True):
                yield case(
                    f"P2 lays {cards} of {hand}, call {call}, {options}",
                    position,
                    {"action": "play", "cards": cards, "call": call},
                    **options,
                )
    failing = out | {"hands": out["hands"] | {"P2": ["9S"]}, "stock": ["2C", "3C", "4C", "5S"]}
    for attempt in ({"action": "draw"}, {"action": "pass"}):
        yield case(f"a LAPPEN caller who cannot lay: {attempt}", failing, attempt)
    drawn = failing | {"draws": 3}
    yield case("a LAPPEN caller after three draws passes", drawn, {"action": "pass"})
    # aces
    ace: dict[str, Any] = {
        "players": four,
        "turn": "P1",
        "hands": _h(P1="AD 5C 9S 8H", P2="2S 3S", P3="4C 6C", P4="3H 7H"),
        "pile": ["4D"],
        "stock": ["2C", "3C", "7C", "9C"],
    }
    for top in ("4D", "4S", "AS", "JH"):
        yield case(f"an ace on {top}", ace | {"pile": [top]}, {"action": "play", "cards": ["AD"]})
    own = ace | {
        "pile": ["4D", "AD"],
        "restart": "ace",
        "hands": ace["hands"] | {"P1": ["5C", "9D", "8H"]},
    }
    for attempt in (
        {"action": "play", "cards": ["5C"]},
        {"action": "play", "cards": ["9D"]},
        {"action": "play", "cards": ["8H"], "suit": "C"},
        {"action": "draw"},
    ):
        yield case(f"on one's own ace: {attempt}", own, attempt)
    bare = own | {"hands": ace["hands"] | {"P1": ["5C", "8H", "KS"]}}
    for attempt in (
        {"action": "play", "cards": ["8H"], "suit": "C"},
        {"action": "play", "cards": ["5C"]},
        {"action": "draw"},
    ):
        yield case(f"on one's own ace with none of its suit: {attempt}", bare, attempt)
    spent = bare | {"draws": 3}
    yield case("on one's own ace after three draws", spent, {"action": "pass"})
    yield case(
        "two aces together",
        ace | {"hands": ace["hands"] | {"P1": ["AD", "AS", "5C"]}},
        {"action": "play", "cards": ["AD", "AS"]},
    )
    low = ace | {"stock": [], "pile": [*_rest(*ace["hands"].values(), ["4D"]), "4D"]}
    yield case("an ace with the stock used up", low, {"action": "play", "cards": ["AD"]})
    # eights
    eight: dict[str, Any] = {
        "players": four,
        "turn": "P3",
        "hands": _h(P1="2S", P2="3S", P3="8C JD 5S", P4="4H"),
        "pile": ["9S", "10S"],
    }
    for attempt in (
        {"action": "play", "cards": ["8C"], "suit": "D"},
        {"action": "play", "cards": ["8C"]},
        {"action": "draw"},
    ):
        yield case(f"an eight by choice: {attempt}", eight, attempt)
    stuck = eight | {"hands": eight["hands"] | {"P3": ["8C", "JD"]}}
    for attempt in ({"action": "play", "cards": ["8C"], "suit": "D"}, {"action": "draw"}):
        yield case(f"an eight when stuck: {attempt}", stuck, attempt)
    two = eight | {"hands": eight["hands"] | {"P3": ["8C", "8D", "5S"]}}
    yield case("two eights together", two, {"action": "play", "cards": ["8C", "8D"], "suit": "H"})
    yield case(
        "an eight on a nine of clubs",
        eight | {"pile": ["9C"]},
        {"action": "play", "cards": ["8C"], "suit": "D"},
    )
    restart = eight | {
        "pile": [],
        "turned": ["9S", "10S", "8H"],
        "restart": "eight",
        "named_suit": "D",
    }
    for attempt in (
        {"action": "play", "cards": ["JD"]},
        {"action": "play", "cards": ["5S"]},
        {"action": "play", "cards": ["8C"], "suit": "S"},
        {"action": "draw"},
    ):
        yield case(f"restarting after an eight: {attempt}", restart, attempt)
    lost = restart | {"hands": eight["hands"] | {"P3": ["5S", "KC"]}}
    for attempt in ({"action": "draw"}, {"action": "play", "cards": ["5S"]}):
        yield case(f"restarting without the named suit: {attempt}", lost, attempt)
    # drawing, the stock, passing
    draw: dict[str, Any] = {
        "players": three,
        "turn": "P1",
        "hands": _h(P1="5S JD KC", P2="3H 4H", P3="6C 7C"),
        "pile": ["10S"],
        "stock": ["QD", "2S", "9H"],
    }
    for extra, attempt in (
        ({}, {"action": "draw"}),
        ({}, {"action": "pass"}),
        ({"hands": draw["hands"] | {"P1": ["JD", "KC"]}}, {"action": "draw"}),
        ({"hands": draw["hands"] | {"P1": ["JD", "KC"]}, "draws": 1}, {"action": "pass"}),
        ({"hands": draw["hands"] | {"P1": ["JD", "KC", "QS"]}, "draws": 1}, {"action": "pass"}),
        ({"hands": draw["hands"] | {"P1": ["JD", "KC", "QS"]}, "draws": 1}, {"action": "draw"}),
        ({"hands": draw["hands"] | {"P1": ["JD", "KC"]}, "draws": 2}, {"action": "draw"}),
        ({"hands": draw["hands"] | {"P1": ["JD", "KC"]}, "draws": 3}, {"action": "pass"}),
        ({"hands": draw["hands"] | {"P1": ["JD", "KC"]}, "draws": 3}, {"action": "draw"}),
    ):
        yield case(f"drawing, {extra}: {attempt}", draw | extra, attempt)
    hands = _h(P1="JD KC", P2="3H 4H", P3="6C 7C")
    used = [*_rest(*hands.values(), ["10S"]), "10S"]
    empty = draw | {"hands": hands, "stock": [], "pile": used}
    yield case("drawing from a used-up stock", empty, {"action": "draw"})
    turned = empty | {"pile": ["10S"], "turned": used[:-1]}
    yield case("drawing with only turned-away piles left", turned, {"action": "draw"})
    # a blocked deal: no card to draw, and nobody can lay
    top = "5H"
    dead = [c for c in _DECK if c[-1] == "H" or c[:-1] in ("5", "8")]
    dead = [*(c for c in dead if c != top), top]
    left = _rest(dead)
    blocked: dict[str, Any] = {
        "players": three,
        "turn": "P3",
        "hands": {"P1": left[0::3], "P2": left[1::3], "P3": left[2::3]},
        "pile": dead,
        "idle": 2,
    }
    for options in (
        {"empty_stock": "no-rebuild"},
        {"empty_stock": "no-rebuild", "blocked_deal": "count-hands"},
    ):
        yield case(f"a blocked deal, {options}", blocked, {"action": "pass"}, **options)
        yield case(f"a blocked deal, a draw, {options}", blocked, {"action": "draw"}, **options)
    aside = blocked | {"pile": [top], "turned": dead[:-1]}
    yield case(
        "a blocked deal, piles out of the deal",
        aside,
        {"action": "pass"},
        turned_pile="out-of-deal",
    )
    # the deal
    hands_in_order = [
        _cards("2S 3S 4S 5S 6S 7S 9S"),
        _cards("2D 3D 4D 5D 6D 7D 9D"),
        _cards("2C 3C 4C 5C 6C 7C 9C"),
    ]
    order = hands_in_order[1:] + hands_in_order[:1]
    dealt = [order[k % 3][k // 3] for k in range(21)]
    for start in (["10H"], ["8H", "10H"], ["AC", "KC", "QC", "JC", "10C"], ["AH", "8D", "KH"]):
        ready = {
            "players": three,
            "phase": "ready",
            "deal": 0,
            "dealer": "P3",
            "stock": dealt + start,
        }
        yield case(f"the first deal, start {start[0]}", ready, {"action": "deal"})


@cache
def cases() -> tuple[Case, ...]:
    """Every case, made once."""
    return (*_examples(), *_built(), *_played())


# ---------------------------------------------------------------------------------------------
# The checks
# ---------------------------------------------------------------------------------------------


@cache
def tables() -> tuple[Table, ...]:
    """Every case, read by the real engine."""
    return read(BOOK, cases())


@cache
def _real_rulings() -> tuple[tuple[Table, Judged, Key], ...]:
    return ruled(tables())


@cache
def found() -> Found:
    return option_misses(BOOK, every=tables(), chosen=switches())


# ---------------------------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------------------------


def test_the_cases_are_broad() -> None:
    """The cases rule on allowed and refused attempts, on goings out, deals and the match's end,
    on the worked questions and on positions at the edges (each one the engine accepts); the
    switches stand for clauses of 001 and change many rulings."""
    game = game_for(BOOK)
    every = cases()
    judged = [j for _, j, _ in _real_rulings()]
    assert len(every) >= 300
    assert sum(j.allowed for j in judged) >= 100
    assert sum(not j.allowed for j in judged) >= 100
    assert any(c.where.startswith("examples/") for c in every)
    assert any(c.action == {"action": "deal"} for c in every)
    for table in tables():
        if table.state is not None:
            assert not game.problems(table.state), table.case.where
    kinds = {e[0] for j in judged for e in j.events}
    wanted = {"deal", "deal-over", "match-over", "points", "lappen", "lappen-penalty", "varning"}
    wanted |= {"ace-draws", "again", "rebuild", "start-ace", "start-card", "name-suit"}
    assert wanted <= kinds, wanted - kinds
    cited = {c for j in judged for c in j.clauses}
    assert {"VA-WIN-BLOCKED-DEAL-VOID", "VA-SCORING-GAME-WINNER"} <= cited
    assert all(c.startswith("VA-") for c in cited), sorted(c for c in cited if c[:3] != "VA-")
    assert found().changed >= 200
    assert game.family == BOOK


def test_the_fields_left_out_only_concern_vvv8() -> None:
    """Each field left out names clauses or ambiguities of vvv8 only, none of 001; and most
    fields of 001's options are switched."""
    docs = _docs()
    for name in vvv8_fields():
        assert _V8.search(docs.get(name, "")), f"{name} names no clause at all"
        assert not _VA.search(docs.get(name, "")), name
    assert len({s.field for s in switches()}) >= 40


@pytest.mark.clause("VA-CALL-LAPPEN", "VA-WIN-BLOCKED-DEAL-VOID", "VA-SCORING-GAME-WINNER")
def test_every_vandatta_ruling_cites_the_clauses_its_options_decide() -> None:
    misses = found().misses
    assert not misses, _report(misses)


def test_every_vandatta_ruling_cites_the_clauses_a_mutant_changes() -> None:
    """Each mutant of the catalogue for vandatta that changes a ruling must break a clause that
    ruling cites; and the mutants, taken together, change rulings."""
    misses: list[Miss] = []
    changed = 0
    mutants = _mutants(BOOK)
    assert len(mutants) >= 20
    for mutant in mutants:
        result = mutant_misses(BOOK, mutant, _real_rulings())
        if result is None:
            continue
        misses += result[0]
        changed += result[1]
    assert changed >= 50
    assert not misses, _report(misses)
    assert sys.modules[f"regelverk.{BOOK}"] is getattr(regelverk, BOOK)


def _readings(ambiguity: str) -> frozenset[str]:
    return frozenset(r.name for r in REGISTRY.ambiguity(ambiguity).readings)


def test_the_answer_lists_the_reading_a_ruling_depends_on() -> None:
    """Where another reading of an ambiguity changes a ruling that cites one of its clauses,
    ``adjudicate`` (what ``ask`` answers) lists that reading, allowed or refused as it is when
    ruled on by itself. (A ruling citing none of them is already reported above; a value a
    field offers beyond the register's readings, the other rulebook's rule, is no reading.)"""
    wrong = []
    answers: dict[int, Ruling[Any]] = {}
    changes = found().by_ambiguity
    assert len(changes) >= 50
    for table, switch, switched in changes:
        answer = answers.get(id(table))
        if answer is None:

            def rebuild(options: Any, table: Table = table) -> Any:
                return dataclasses.replace(table.state, options=options)

            answer = answers[id(table)] = adjudicate(
                table.game, table.options, table.state, table.action, rebuild=rebuild
            )
        value = getattr(switch.value, "value", switch.value)
        if switch.ambiguity is None or value not in _readings(switch.ambiguity):
            continue  # the other rulebook's rule, which the field also offers: no reading
        listed = [
            r for r in answer.readings if r.ambiguity == switch.ambiguity and r.reading == value
        ]
        if [r.allowed for r in listed] != [switched.allowed]:
            wrong.append(f"{table.case.where}: {switch.ambiguity} reading {value}: {listed}")
    assert not wrong, "\n".join(wrong[:10])


def test_a_ruling_that_forgets_a_clause_is_found() -> None:
    """The check can fail: rulings that forget the clause of an ace off its suit are reported
    under the reading that allows one."""

    def forgetful(table: Table, options: Any, state: Any) -> Judged:
        judged = table.rule(options, state)
        kept = judged.clauses - {"VA-ACE-SAME-SUIT", "VA-PLAY-MATCH-RANK-OR-SUIT"}
        return dataclasses.replace(judged, clauses=kept)

    built = [t for t in tables() if t.case.where.startswith("an ace on")]
    misses = option_misses(BOOK, forgetful, every=built, chosen=switches()).misses
    assert any(m.switch == "ace_off_suit = 'allowed'" and "4S" in m.case for m in misses)
