"""The end-of-deal theorems of Vändåtta (``regelverk_proofs.vandatta_end``): every theorem holds,
every weakening breaks it, the scenarios answer as the rulebooks say, the never-ending vvv8 game
replays in the engine, and Hypothesis-driven engine play agrees with the encodings step by step
(going out, winner, official result, loser, vandatta's points and match end, the coffee break's
ranking)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regelverk.cards import Card, Rank, french_deck
from regelverk.engine import Ruling, with_options
from regelverk.vandatta import GAME, VANDATTA, VVV8
from regelverk.vandatta.adjudication import _after, _call_error, _first_error, _group_error
from regelverk.vandatta.conduct import active_seats, paused
from regelverk.vandatta.rules import seats_after
from regelverk.vandatta.state import (
    Action,
    Back,
    Draw,
    Pass,
    Phase,
    Play,
    Remark,
    RemarkKind,
    Restart,
    State,
    StepAway,
    Veto,
)
from regelverk_proofs.query import ask
from regelverk_proofs.theorem import Outcome
from regelverk_proofs.vandatta_end import (
    FREE_TIME_ENDLESS,
    LEGAL_GOING_OUT,
    OFFICIAL_NEEDS_THREE,
    SCENARIOS,
    THEOREMS,
    going_out_finding,
)
from regelverk_proofs.vandatta_end_lasso import find_lasso
from regelverk_proofs.vandatta_end_model import (
    CLASSES,
    Deck,
    Heap,
    PlayVars,
    Rules,
    ace_play_step,
    class_of,
    deal_scores,
    decide,
    draw_step,
    going_out,
    lex_less,
    official_result,
    pass_step,
    plain_play_step,
    ranking,
    talon_limit,
)
from regelverk_proofs.z3api import Bool, Int

NOTHING: frozenset[str] = frozenset()

# --- the theorems and their weakenings --------------------------------------------------------


@pytest.mark.clause(
    "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT",
    "V8-LOSS-OFFICIAL-NEEDS-THREE",
    "VA-SCORING-GAME-WINNER",
    "V8-TALON-DRAWN-ONE-DECK",
    "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK",
)
@pytest.mark.parametrize("theorem", THEOREMS, ids=lambda t: t.name)
def test_theorem_holds_unweakened(theorem: Any) -> None:
    finding = theorem.check(NOTHING)
    assert theorem.holds(finding), finding.detail
    assert finding.cases >= 1


WEAKENINGS = [(t, w) for t in THEOREMS for w in t.weakenings]


@pytest.mark.clause(
    "V8-CALL-REQUIRED-TO-WIN",
    "V8-CALL-VALID-NEXT-TURN-ONLY",
    "V8-PRESENCE-ABSENT-NOT-ACTIVE",
    "VA-SCORING-EIGHT",
    "V8-WIN-BLOCKED-DEAL-VOID",
)
@pytest.mark.parametrize(
    ("theorem", "weakening"), WEAKENINGS, ids=[f"{t.name}-{w.clause}" for t, w in WEAKENINGS]
)
def test_every_weakening_breaks_its_theorem(theorem: Any, weakening: Any) -> None:
    finding = theorem.check(frozenset({weakening.clause}))
    assert finding.outcome is theorem.failure, finding.detail
    assert finding.detail.strip()


@pytest.mark.clause("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT")
def test_going_out_counterexample_names_the_ace() -> None:
    finding = LEGAL_GOING_OUT.check(frozenset({"V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT"}))
    assert "A♠" in finding.detail or "A♥" in finding.detail or "8♥" in finding.detail


@pytest.mark.clause("V8-LOSS-OFFICIAL-NEEDS-THREE")
def test_official_counterexample_has_two_active_players() -> None:
    finding = OFFICIAL_NEEDS_THREE.check(frozenset({"V8-LOSS-OFFICIAL-NEEDS-THREE"}))
    assert "2 seats" in finding.detail and "recorded" in finding.detail


# --- scenarios --------------------------------------------------------------------------------


def _scenario(rulebook: str, name: str) -> Any:
    return next(s for s in SCENARIOS if s.rulebook == rulebook and s.name == name)


@pytest.mark.clause("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT")
def test_vvv8_nobody_goes_out_on_an_eight() -> None:
    answer = ask(_scenario("vvv8", "going-out"), "goes-out and last-rank = eight")
    assert answer.possible is False
    assert answer.forbidding == ("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT",)


@pytest.mark.clause("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT", "V8-EIGHT-ENDS-TURN")
def test_vvv8_no_eight_wins_a_deal_even_as_a_mistake() -> None:
    answer = ask(_scenario("vvv8", "going-out"), "wins and last-rank = eight")
    assert answer.possible is False
    assert set(answer.forbidding) & {"V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT", "V8-EIGHT-ENDS-TURN"}


@pytest.mark.clause("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT", "V8-CALL-REQUIRED-TO-WIN")
def test_vvv8_going_out_on_an_ace_or_without_a_call() -> None:
    scenario = _scenario("vvv8", "going-out")
    ace = ask(scenario, "goes-out and last-rank = ace")
    assert ace.possible is False and "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT" in ace.forbidding
    uncalled = ask(scenario, "wins and not call-stands")
    assert uncalled.possible is False and "V8-CALL-REQUIRED-TO-WIN" in uncalled.forbidding
    plain = ask(scenario, "wins and last-rank = 7")
    assert plain.possible is True and plain.witness


@pytest.mark.clause("VA-WIN-NOT-ON-ACE-OR-EIGHT", "VA-WIN-FIRST-EMPTY-HAND")
def test_vandatta_nobody_goes_out_on_an_eight_but_needs_no_call() -> None:
    scenario = _scenario("vandatta", "going-out")
    eight = ask(scenario, "goes-out and last-rank = eight")
    assert eight.possible is False
    assert eight.forbidding == ("VA-WIN-NOT-ON-ACE-OR-EIGHT",)
    assert ask(scenario, "wins and not call-stands").possible is True


@pytest.mark.clause("V8-LOSS-OFFICIAL-NEEDS-THREE", "V8-PRESENCE-ABSENT-NOT-ACTIVE")
def test_vvv8_no_official_result_with_two_active_players() -> None:
    scenario = _scenario("vvv8", "official-result")
    two = ask(scenario, "official and active-players = 2")
    assert two.possible is False
    assert two.forbidding == ("V8-LOSS-OFFICIAL-NEEDS-THREE",)
    seated = ask(scenario, "official and players = 2")
    assert seated.possible is False and seated.forbidding == ("V8-LOSS-OFFICIAL-NEEDS-THREE",)
    assert ask(scenario, "recorded and away >= 1").possible is True


# --- the never-ending vvv8 game ---------------------------------------------------------------


def _position(state: State) -> dict[str, Any]:
    data = GAME.position_to_data(state)
    data.pop("talon_passes")
    data["hands"] = {name: sorted(cards) for name, cards in data["hands"].items()}
    return data


@pytest.mark.clause(
    "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK",
    "V8-TALON-REBUILD-UNSHUFFLED",
    "V8-DRAW-NOT-OBLIGED-TO-PLAY",
)
def test_free_time_lasso_replays_in_the_engine() -> None:
    verdict, witness = find_lasso(NOTHING)
    assert witness is not None, verdict
    options = with_options(VVV8, {"session": "free-time"})
    start = GAME.position_from_data(witness.position, options)
    state = start
    for lap in range(3):
        for data in witness.actions:
            state = GAME.apply(state, GAME.action_from_data(data, state)).state
            assert state.phase is Phase.PLAY
            assert all(len(h) >= 1 for h in state.hands)
        assert _position(state) == _position(start), lap
    assert state.talon_passes == 6


@pytest.mark.clause("V8-TALON-DRAWN-ONE-DECK", "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK")
def test_the_same_lasso_ends_in_the_coffee_break() -> None:
    _, witness = find_lasso(NOTHING)
    assert witness is not None
    state = GAME.position_from_data(witness.position, VVV8)
    steps = 0
    while state.phase is Phase.PLAY and steps < 40:
        data = witness.actions[steps % len(witness.actions)]
        state = GAME.apply(state, GAME.action_from_data(data, state)).state
        steps += 1
    assert state.phase is Phase.DEAL_OVER and state.winner is None
    assert FREE_TIME_ENDLESS.check(frozenset({"V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK"})).outcome is (
        Outcome.NO_WITNESS
    )


# --- a finding: a failed going out that wins --------------------------------------------------


@pytest.mark.clause("V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT", "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT")
def test_a_failed_going_out_does_not_win_when_usable_penalty_finds_no_card() -> None:
    """Under penalty_cards_usable = at-next-turn-start a spelförare's penalty cards go straight
    to his hand. When the talon is empty and cannot be rebuilt the penalty finds no card; the
    ace he laid as his last card stands, but he is not out. (The encoding first found the
    engine letting him win here; the engine now records an empty face-down set, as under the
    other readings, and the theorem holds under both readings.)"""
    options = with_options(VVV8, {"penalty_cards_usable": "at-next-turn-start"})
    assert going_out_finding(Rules.of(options)).outcome is Outcome.PROVED
    assert going_out_finding(Rules.of(VVV8)).outcome is Outcome.PROVED
    deck = [c.code for c in french_deck(1)]
    rest = [c for c in deck if c not in ("5H", "AH")]
    data = {
        "players": ["Ann", "Bo", "Cy"],
        "hands": {"Ann": ["AH"], "Bo": rest[:25], "Cy": rest[25:]},
        "pile": ["5H"],
        "stock": [],
        "turn": "Ann",
        "previous": "Cy",
        "calls": ["Ann"],
    }
    state = GAME.position_from_data(data, options)
    ruling = GAME.attempt(state, Play(player=0, cards=(Card.parse("AH"),)))
    assert ruling.allowed is False
    assert ruling.state.winner is None and ruling.state.phase is Phase.PLAY
    assert not ruling.state.hands[0]


@pytest.mark.clause("V8-PEN-VETO-RIGHT", "V8-PEN-COMMENT-THREE", "V8-TALON-DRAWN-ONE-DECK")
def test_finding_vetoed_penalties_can_stall_a_coffee_break_deal() -> None:
    """Outside the ranking theorem's moves of play: a forbidden remark costs three cards, a
    caller vetoes them back onto the talon, and the position is exactly as before; repeated, the
    coffee-break deal never ends although no move of play is made."""
    data = {
        "players": ["Ann", "Bo", "Cy"],
        "hands": {"Ann": ["9S", "5H", "KD"], "Bo": ["7C"], "Cy": ["2D", "3D", "4D"]},
        "pile": ["KH"],
        "stock": ["4C", "6D", "7D", "9D"],
        "turn": "Ann",
        "previous": "Cy",
        "calls": ["Bo"],
    }
    start = GAME.position_from_data(data, VVV8)
    state = start
    for _ in range(3):
        ruling = GAME.attempt(state, Remark(player=2, kind=RemarkKind.OTHER_HAND))
        assert not ruling.allowed and _falls(state, ruling.state)
        vetoed = GAME.attempt(ruling.state, Veto(player=1))
        assert vetoed.allowed
        state = vetoed.state
    assert state == start


# --- the differential test --------------------------------------------------------------------


def _held(state: State, seat: int) -> int:
    return len(state.hands[seat]) + sum(len(p.cards) for p in state.penalties[seat])


def _play_values(state: State, play: Play) -> dict[str, int | bool]:
    """The inputs of the going-out encoding, read off the engine state and the play."""
    seat, cards = play.player, play.cards
    fits = _first_error(state, play) is None and _group_error(state, play) is None
    chance = _call_error(state, _after(state, play)) is None if play.call else False
    spare = max(0, len(state.pile) - 1)
    return {
        "hand": len(state.hands[seat]),
        "pen": sum(len(p.cards) for p in state.penalties[seat]),
        "sets": bool(state.penalties[seat]),
        "k": len(cards),
        "first_eight": cards[0].rank is Rank.EIGHT,
        "last_ace": cards[-1].rank is Rank.ACE,
        "last_eight": cards[-1].rank is Rank.EIGHT,
        "any_ace": any(c.rank is Rank.ACE for c in cards),
        "fits": fits,
        "called": seat in state.calls,
        "say": play.call,
        "chance": chance,
        "avail": min(state.options.penalty_cards, len(state.stock) + spare),
    }


def _check_going_out(state: State, play: Play, ruling: Ruling[State]) -> None:
    rules = Rules.of(state.options)
    v = PlayVars.fresh("diff")
    result = going_out(v, rules, NOTHING)
    got = decide([v.shape(rules)], v.fixed(_play_values(state, play)), [result.legal, result.wins])
    assert got is not None, _play_values(state, play)
    legal, wins = got
    assert legal == ruling.allowed, (play, ruling.message)
    won = ruling.state.phase in (Phase.DEAL_OVER, Phase.MATCH_OVER) and (
        ruling.state.winner == play.player
    )
    assert wins == won, (play, ruling.message)


def _check_official(before: State, after: State) -> None:
    seats = len(after.players)
    rules = Rules.of(after.options)
    winner = after.winner
    assert winner is not None
    away = [Bool.var(f"away{s}") for s in range(seats)]
    benched = [Bool.var(f"benched{s}") for s in range(seats)]
    out = [Bool.var(f"out{s}") for s in range(seats)]
    at_start = Int.var("at_start")
    verdict = official_result(
        seats, away, benched, out, winner=winner, at_start=at_start, rules=rules, weaken=NOTHING
    )
    fixed: dict[str, tuple[Int | Bool, int | bool]] = {
        "at_start": (at_start, after.active_at_start)
    }
    for s in range(seats):
        fixed[f"away{s}"] = (away[s], s in after.away)
        fixed[f"benched{s}"] = (benched[s], s in after.benched)
        fixed[f"out{s}"] = (out[s], s in after.record.out)
    got = decide([], fixed, [verdict.loser, verdict.recorded])
    assert got is not None
    loser, recorded = got
    assert loser == (-1 if after.loser is None else after.loser)
    assert recorded == (after.record.official == before.record.official + 1)
    if recorded:
        assert after.record.wins[winner] == before.record.wins[winner] + 1
        assert after.record.losses[after.loser or 0] == before.record.losses[after.loser or 0] + 1


def _check_scores(before: State, after: State) -> None:
    seats = len(after.players)
    rules = Rules.of(after.options)
    points = [Int.var(f"points{s}") for s in range(seats)]
    out = [Bool.var(f"out{s}") for s in range(seats)]
    counts = [{name: Int.var(f"{name}{s}") for name, _ in CLASSES} for s in range(seats)]
    winner = Int.var("winner")
    counted = after.winner is not None
    result = deal_scores(
        points,
        out,
        counts,
        winner=winner,
        counted=Bool.const(counted),
        rules=rules,
        weaken=NOTHING,
    )
    fixed: dict[str, tuple[Int | Bool, int | bool]] = {
        "winner": (winner, -1 if after.winner is None else after.winner)
    }
    for s in range(seats):
        fixed[f"points{s}"] = (points[s], before.record.points[s])
        fixed[f"out{s}"] = (out[s], s in before.record.out)
        held = after.hands[s] + tuple(c for p in after.penalties[s] for c in p.cards)
        for name, _ in CLASSES:
            fixed[f"{name}{s}"] = (counts[s][name], sum(1 for c in held if class_of(c) == name))
    wanted: list[Int | Bool] = [*result.points, *result.out, result.over, *result.champion]
    got = decide([], fixed, wanted)
    assert got is not None
    assert list(got[:seats]) == list(after.record.points)
    assert {s for s in range(seats) if got[seats + s]} == set(after.record.out)
    over = got[2 * seats]
    assert over == (after.phase is Phase.MATCH_OVER)
    if over:
        champions = {s for s in range(seats) if got[2 * seats + 1 + s]}
        assert champions == set(after.record.champions)


def _heap_values(state: State) -> dict[str, int | bool]:
    return {
        "stock": len(state.stock),
        "pile": len(state.pile),
        "held": sum(_held(state, s) for s in range(len(state.players))),
        "passes": state.talon_passes,
        "draws": state.draws,
        "restart": state.restart is Restart.ACE,
        "idle": state.idle,
        "players": len(state.players),
        "active": active_seats(state),
        "joining": len(state.joining),
    }


COMPARED = ("stock", "pile", "held", "passes", "draws", "restart", "idle")


def _deck_of(state: State) -> Deck:
    rules = Rules.of(state.options)
    cap = state.options.coffee_break_max_players or state.options.max_players
    return Deck(total=52 * state.decks, cap=cap, limit=talon_limit(rules, state.decks), rules=rules)


def _check_step(before: State, action: Action, after: State) -> None:
    """The encoding's transition for a legal draw, pass or play gives the engine's next state in
    counts."""
    deck = _deck_of(before)
    heap = Heap.fresh("pre")
    k, own, aces, others = (Int.var(n) for n in ("k", "own", "aces", "others"))
    eight, won = Bool.var("eight"), Bool.var("won")
    fixed = {name: (heap.values()[name], value) for name, value in _heap_values(before).items()}
    seat = before.turn
    if isinstance(action, Draw):
        allowed, post = draw_step(heap, deck, NOTHING)
    elif isinstance(action, Pass):
        allowed, post = pass_step(heap, deck, NOTHING)
    else:
        assert isinstance(action, Play)
        count = sum(1 for c in action.cards if c.rank is Rank.ACE)
        fixed["k"] = (k, len(action.cards))
        fixed["own"] = (own, _held(before, seat))
        if count:
            skip = before.record.out | before.benched
            fixed["aces"] = (aces, count)
            fixed["others"] = (others, len(seats_after(len(before.players), seat, skip)))
            allowed, post = ace_play_step(
                heap,
                deck,
                NOTHING,
                k=k,
                own=own,
                aces=aces,
                others=others,
                max_aces=4 * before.decks,
                max_others=len(before.players) - 1,
            )
        else:
            fixed["eight"] = (eight, action.cards[0].rank is Rank.EIGHT)
            fixed["won"] = (won, after.winner == seat and after.phase is not Phase.PLAY)
            allowed, post = plain_play_step(heap, deck, NOTHING, k, own, eight=eight, won=won)
    wanted = [allowed, post.over, *(post.values()[name] for name in COMPARED)]
    got = decide([], fixed, wanted)
    assert got is not None
    assert got[0] is True, action
    assert got[1] == (after.phase is not Phase.PLAY), action
    if after.phase is Phase.PLAY:
        engine = _heap_values(after)
        assert dict(zip(COMPARED, got[2:], strict=True)) == {n: engine[n] for n in COMPARED}


def _falls(before: State, after: State) -> bool:
    """The ranking of the coffee-break theorem, evaluated through the encoding, falls."""
    deck = _deck_of(before)
    pre, post = Heap.fresh("a"), Heap.fresh("b")
    fixed = {f"a.{n}": (pre.values()[n], v) for n, v in _heap_values(before).items()}
    fixed |= {f"b.{n}": (post.values()[n], v) for n, v in _heap_values(after).items()}
    low, high = ranking(pre, deck), ranking(post, deck)
    got = decide([], fixed, [lex_less(high, low), *(c >= 0 for c in low)])
    assert got is not None
    assert all(got[1:]), _heap_values(before)
    return bool(got[0])


def _stutter(before: State, action: Action, ruling: Ruling[State]) -> bool:
    """A step the ranking theorem leaves out: not a move of play, refused without change, or a
    penalty that found no card."""
    if isinstance(action, StepAway | Back):
        return True
    if ruling.state == before:
        return True
    return not ruling.allowed and _heap_values(ruling.state) == _heap_values(before)


def _pick(state: State, choice: int, mode: int) -> Action:
    """A legal action (greedy for going out and calls in some modes), or a mistake."""
    legal = GAME.legal_actions(state)
    seat = state.turn
    if state.phase is Phase.PLAY and mode == 0 and state.hands[seat]:
        hand = state.hands[seat]
        card = hand[choice % len(hand)]
        suit = state.top.suit if card.rank is Rank.EIGHT and state.top else None
        return Play(player=seat, cards=(card,), suit=suit, call=choice % 3 == 0)
    if state.phase is Phase.PLAY and mode == 1 and state.options.presence:
        other = (seat + 1 + choice % (len(state.players) - 1)) % len(state.players)
        return Back(player=other) if other in state.away else StepAway(player=other)
    if mode >= 2:
        plays = [a for a in legal if isinstance(a, Play) and a.player == seat]
        finishing = [a for a in plays if _held(state, seat) == len(a.cards)]
        calling = [a for a in plays if a.call]
        for found in (finishing, calling if mode <= 3 else []):
            if found:
                return found[choice % len(found)]
    return legal[choice % len(legal)]


def _start(rulebook: str, players: int, seed: int, free: bool, shape: list[int]) -> State:
    """A seeded match and its first deal, brought near its end by :func:`_near_end`."""
    options = GAME.options(rulebook)
    if free:
        options = with_options(options, {"session": "free-time"})
    names = [f"P{n}" for n in range(1, players + 1)]
    state = GAME.deal(options, names, seed)
    return _near_end(state, shape, points=True)


def _near_end(state: State, shape: list[int], *, points: bool = False) -> State:
    """Deal, then (through the position reader) cut the hands down to a few cards, with some
    going-out calls standing, some players away and face-down penalty cards (vvv8), or the
    running points set (vandatta), so that deals end within the test's steps; the cards taken
    out go to the bottom of the talon."""
    state = GAME.apply(state, GAME.legal_actions(state)[0]).state
    if state.phase is not Phase.PLAY:
        return state
    data = GAME.position_to_data(state)
    names = list(state.players)
    turn = data["turn"]
    shift = state.deal_number
    top = state.top
    for n, name in enumerate(names):
        size = 1 + (shape[n] + shift) % 3 // 2
        hand = sorted(
            data["hands"][name],
            key=lambda c: top is None or not (c[-1] == top.code[-1] or c[:-1] == top.code[:-1]),
        )
        data["hands"][name] = hand[:size]
    data["calls"] = [name for n, name in enumerate(names) if (shape[n] + shift) % 3 != 1]
    if state.options.presence:
        data["away"] = [name for n, name in enumerate(names) if shape[n] % 5 == 4 and name != turn]
        data["active_at_start"] = max(2, len(names) - shape[5] % 2)
        penalised = names[shape[6] % len(names)]
        if shape[7] % 3 == 0:
            data["penalties"] = {penalised: data["hands"][penalised][:1]}
            data["hands"][penalised] = data["hands"][penalised][1:]
    elif points:
        data["record"]["points"] = {name: 40 + 11 * shape[n] for n, name in enumerate(names)}
    placed = Counter(c for hand in data["hands"].values() for c in hand)
    placed.update(c for cards in data.get("penalties", {}).values() for c in cards)
    placed.update(data["pile"])
    rest = list((Counter(c.code for c in french_deck(state.decks)) - placed).elements())
    small = 1 + 3 * shape[4]
    data["pile"] = rest[: max(0, len(rest) - small)] + data["pile"]
    data["stock"] = []
    return GAME.position_from_data(data, state.options)


def _step_and_check(state: State, action: Action) -> Ruling[State]:
    ruling = GAME.attempt(state, action)
    after = ruling.state
    playing = state.phase is Phase.PLAY and not paused(state)
    if playing and isinstance(action, Play | Draw | Pass) and action.player == state.turn:
        if isinstance(action, Play) and state.turn not in state.joining:
            _check_going_out(state, action, ruling)
        if ruling.allowed and state.options.go_out_call.value == "utgang":
            _check_step(state, action, after)
    ended = state.phase is Phase.PLAY and after.phase in (Phase.DEAL_OVER, Phase.MATCH_OVER)
    if ended and state.options.min_active_for_result and after.winner is not None:
        _check_official(state, after)
    if ended and state.options.scoring.value == "card-points":
        _check_scores(state, after)
    coffee = state.options.talon_pass_limit and state.options.session.value == "coffee-break"
    same_deal = state.phase is Phase.PLAY and after.phase is Phase.PLAY
    same_deal = same_deal and after.deal_number == state.deal_number
    if coffee and same_deal and not _stutter(state, action, ruling):
        assert _falls(state, after), (action, ruling.message)
    return ruling


DIFF = settings(max_examples=10, deadline=None)


@pytest.mark.clause(
    "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT",
    "V8-CALL-REQUIRED-TO-WIN",
    "V8-LOSS-OFFICIAL-NEEDS-THREE",
    "V8-LOSS-PLAYER-BEFORE-WINNER",
    "V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER",
    "V8-TALON-DRAWN-ONE-DECK",
    "V8-TALON-DRAWN-TWO-DECKS",
    "V8-PEN-STANDARD-THREE-CARDS",
)
@DIFF
@given(
    players=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=10_000),
    free=st.booleans(),
    shape=st.lists(st.integers(min_value=0, max_value=5), min_size=8, max_size=8),
    moves=st.lists(st.tuples(st.integers(0, 1000), st.integers(0, 5)), min_size=20, max_size=60),
)
def test_vvv8_engine_agrees_with_the_encodings(
    players: int, seed: int, free: bool, shape: list[int], moves: list[tuple[int, int]]
) -> None:
    state = _start("vvv8", players, seed, free, shape)
    for choice, mode in moves:
        if GAME.is_over(state):
            break
        if state.phase is Phase.DEAL_OVER:
            state = _near_end(state, shape)
            continue
        if state.phase is not Phase.PLAY:
            state = GAME.apply(state, GAME.legal_actions(state)[choice % 2]).state
            continue
        state = _step_and_check(state, _pick(state, choice, min(mode, 3))).state


@pytest.mark.clause(
    "VA-WIN-NOT-ON-ACE-OR-EIGHT",
    "VA-SCORING-OTHERS-COUNT",
    "VA-SCORING-GAME-WINNER",
    "VA-SESSION-NOBODY-ALONE",
)
@DIFF
@given(
    players=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=10_000),
    shape=st.lists(st.integers(min_value=0, max_value=5), min_size=8, max_size=8),
    moves=st.lists(st.tuples(st.integers(0, 1000), st.integers(0, 3)), min_size=20, max_size=80),
)
def test_vandatta_engine_agrees_with_the_encodings(
    players: int, seed: int, shape: list[int], moves: list[tuple[int, int]]
) -> None:
    state = _start("vandatta", players, seed, False, shape)
    for choice, mode in moves:
        if GAME.is_over(state):
            break
        if state.phase is Phase.DEAL_OVER:
            state = _near_end(state, shape)
            continue
        if state.phase is not Phase.PLAY:
            state = GAME.apply(state, GAME.legal_actions(state)[0]).state
            continue
        state = _step_and_check(state, _pick(state, choice, 2 if mode == 1 else mode)).state


@pytest.mark.clause("VA-SCORING-GAME-WINNER", "VA-SESSION-NOBODY-ALONE")
@pytest.mark.parametrize(
    ("points", "over"), [((99, 99, 99), True), ((10, 99, 70), True), ((10, 20, 99), False)]
)
def test_vandatta_match_ends_when_at_most_one_is_below_100(
    points: tuple[int, int, int], over: bool
) -> None:
    """A deal won by P1 with every other player holding an eight: the encoding and the engine
    agree on points, drop-outs and the end of the match."""
    data = {
        "players": ["P1", "P2", "P3"],
        "hands": {"P1": ["5H"], "P2": ["8C", "2D"], "P3": ["8D", "3S"]},
        "pile": ["6H"],
        "turn": "P1",
        "record": {"points": {"P1": points[0], "P2": points[1], "P3": points[2]}},
    }
    state = GAME.position_from_data(data, VANDATTA)
    ruling = _step_and_check(state, Play(player=0, cards=(Card.parse("5H"),)))
    assert ruling.allowed
    below = [s for s in range(3) if s not in ruling.state.record.out]
    assert (ruling.state.phase is Phase.MATCH_OVER) is over
    assert (len(below) <= 1) is over
