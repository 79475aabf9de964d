"""The never-ending vandatta deal: Z3's witness replayed in the engine, the encoding checked
against the engine step by step, and the weakening that removes the witness."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from regelverk.cards import Card, Suit
from regelverk.engine import IllegalActionError
from regelverk.vandatta import GAME
from regelverk.vandatta.options import EmptyStock
from regelverk.vandatta.state import Draw, Pass, Play, State
from regelverk_proofs.vandatta_endless import (
    ANN_DEAD,
    BO_DEAD,
    CARDS,
    DRAW,
    LIVE,
    LOOP,
    NEVER_ENDING,
    PASS,
    PILE,
    PLAY,
    PLAYERS,
    TURNED,
    Lasso,
    Step,
    abstract,
    deal_position,
    decide_step,
    find_lasso,
    first_drawn_unshuffled,
    render,
    stem,
)
from regelverk_proofs.z3api import Verdict

OPTIONS = GAME.options("vandatta")
LIVE_CARDS = tuple(CARDS[c] for c in LIVE)
OTHER_CARDS = tuple(c for c in CARDS if c not in LIVE_CARDS)
LOOP_CLAUSES = (
    "VA-DRAW-STOCK-REBUILD",
    "VA-DRAW-WHEN-STUCK",
    "VA-DRAW-PLAY-DRAWN",
    "VA-EIGHT-TURNS-PILE",
    "VA-ACE-OTHERS-DRAW",
    "VA-TURN-RESTART-FALLBACK",
)

IGNORED = ("talon_passes",)
"""Compared positions leave out the count of times the stock ran out: under the vandatta preset
no rule reads it (the talon-pass limit is vvv8's coffee-break rule), and it only grows."""


@pytest.fixture(scope="module")
def lasso() -> Lasso:
    verdict, found, _, _ = find_lasso(frozenset())
    assert verdict is Verdict.SAT
    assert found is not None
    return found


def _loop_start() -> State:
    """The engine's position where the loop starts: the deal, then the stem."""
    state = GAME.position_from_data(deal_position(), OPTIONS)
    for data in stem():
        state = GAME.apply(state, GAME.action_from_data(data, state)).state
    return state


def _comparable(state: State) -> dict[str, Any]:
    data = GAME.position_to_data(state)
    return {k: v for k, v in data.items() if k not in IGNORED}


def _reshuffled(after: State, seat: int, order: tuple[Card, ...]) -> State:
    """``after`` (the engine's draw, which rebuilt the stock with its own seeded shuffle) with the
    stock in ``order`` instead: the shuffle's chance outcome the witness chose. The cards of the
    new stock must be exactly the engine's."""
    engine_cards = Counter((*after.stock, after.hands[seat][-1]))
    assert engine_cards == Counter(order)
    assert len(after.pile) <= 1  # only the top card stays
    assert after.turned == ()
    data = GAME.position_to_data(after)
    name = PLAYERS[seat]
    data["hands"][name] = [*data["hands"][name][:-1], order[0].code]
    data["stock"] = [c.code for c in order[1:]]
    return GAME.position_from_data(data, OPTIONS)


def _replay_step(state: State, step: Step) -> State:
    """One witness step in the engine (the draw's card and the rebuild's order checked)."""
    action = GAME.action_from_data(step.data(), state)
    GAME.check(state, action)
    after = GAME.apply(state, action).state
    if step.kind == DRAW:
        if step.rebuild is not None:
            after = _reshuffled(after, state.turn, step.rebuild)
        assert after.hands[state.turn][-1] == step.card
    if step.extra is not None:
        other = 1 - state.turn
        if step.rebuild is not None:
            after = _reshuffled(after, other, step.rebuild)
        assert after.hands[other][-1] == step.extra
    return after


@pytest.mark.clause("VA-DEAL-SEVEN-CARDS", "VA-EIGHT-BY-CHOICE", "VA-DRAW-PASS-AFTER-THREE")
def test_loop_start_is_reached_from_a_deal(lasso: Lasso) -> None:
    """The stem leads from seven cards each to the position where Z3's loop starts."""
    dealt = GAME.position_from_data(deal_position(), OPTIONS)
    assert [len(h) for h in dealt.hands] == [7, 7]
    assert len(dealt.pile) == 1
    start = _loop_start()
    zones, top, turn, draws, restart, named, idle, over = abstract(start)
    assert dict(zip(LIVE_CARDS, zones, strict=True)) == lasso.zones
    assert CARDS[top] == lasso.top
    assert (turn, draws, restart, named, idle, over) == (1, 0, 0, -1, 0, False)
    assert not start.stock


@pytest.mark.clause(*LOOP_CLAUSES)
def test_never_ending_deal_replays_in_the_engine(lasso: Lasso) -> None:
    """Z3's loop, played in the engine from the loop start, comes back to the same position.

    At each rebuild the engine shuffles with its own seeded generator; the position is then
    entered again through the position reader with the stock in the order the witness chose,
    which stands for the shuffle's chance outcome (any order can come up). Positions are
    compared in every field the position writer gives but the talon-pass count (IGNORED).
    """
    assert not OPTIONS.talon_pass_limit  # so the ignored talon-pass count is read by no rule
    start = _loop_start()
    state = start
    for step in lasso.steps:
        assert state.turn == step.player
        state = _replay_step(state, step)
        assert all(len(h) >= 2 for h in state.hands)
    assert len(lasso.steps) == LOOP
    assert _comparable(state) == _comparable(start)


@pytest.mark.clause(*LOOP_CLAUSES)
def test_each_witness_step_is_allowed_by_engine_and_encoding(lasso: Lasso) -> None:
    """Differential on the witness: the engine accepts every step, and the encoding, started
    from the engine's position, allows it and reaches the engine's next position."""
    state = _loop_start()
    for step in lasso.steps:
        GAME.check(state, GAME.action_from_data(step.data(), state))
        after = _replay_step(state, step)
        ruling = decide_step(state, step.kind, step.card, suit=step.suit, extra=step.extra)
        assert ruling == abstract(after)
        state = after


@pytest.mark.clause("VA-DRAW-STOCK-REBUILD")
def test_no_witness_without_rebuilt_stock() -> None:
    """Non-vacuity: with the stock never made again there is no loop."""
    for weakening in NEVER_ENDING.weakenings:
        finding = NEVER_ENDING.check(frozenset({weakening.clause}))
        assert finding.outcome is NEVER_ENDING.failure
        assert finding.detail


@pytest.mark.clause(*LOOP_CLAUSES)
def test_witness_is_rendered(lasso: Lasso) -> None:
    """The theorem's detail names the hands, every action and every shuffle's order."""
    text = render(lasso)
    assert text.count("shuffled again") == 2
    assert "Bo lays A♥; Ann draws 4♥ for the ace" in text


# --- differential: generated positions where only hearts and eights move -------------------


@st.composite
def positions(draw: st.DrawFn) -> State:
    """Two players; every card but the hearts and eights in a hand (at least two each); the
    hearts and eights anywhere; a restart after an ace or an eight, or a named suit, at times."""
    split = draw(st.integers(2, 16))
    if split <= 14:  # by rank, as in the witness: low ranks to Ann, high to Bo
        owners = [0 if int(c.rank) < split else 1 for c in OTHER_CARDS]
    else:
        owners = draw(st.lists(st.integers(0, 1), min_size=36, max_size=36))
    hands: list[list[Card]] = [[], []]
    for card, owner in zip(OTHER_CARDS, owners, strict=True):
        hands[owner].append(card)
    if min(len(h) for h in hands) < 2:
        hands = [list(OTHER_CARDS[:18]), list(OTHER_CARDS[18:])]
    order = draw(st.permutations(LIVE_CARDS))
    kept = (2, 3, 4, 0, 1) if draw(st.booleans()) else (2, 3, 4)  # hearts in hand, or none
    zones = draw(st.lists(st.sampled_from(kept), min_size=16, max_size=16))
    placed = dict(zip(order, zones, strict=True))
    for seat in (0, 1):
        hands[seat] += [c for c in order if placed[c] == seat]
    stock = [c for c in order if placed[c] == 2]
    pile = [c for c in order if placed[c] == PILE]
    turned = [c for c in order if placed[c] == TURNED]
    if draw(st.booleans()):  # the stock used up: the next draw makes it again
        turned += stock
        stock = []
    mode = draw(st.sampled_from(("plain", "plain", "ace", "eight", "named")))
    named: Suit | None = None
    restart = "none"
    if mode == "ace":
        ace = Card.parse("AH")
        for zone in (*hands, stock, pile, turned):
            if ace in zone:
                zone.remove(ace)
        pile.append(ace)
        restart = "ace"
    elif mode in ("eight", "named"):
        turned += pile
        pile = []
        named = draw(st.sampled_from(tuple(Suit)))
        restart = "eight" if mode == "eight" else "none"
    turn = draw(st.integers(0, 1))
    data = {
        "players": list(PLAYERS),
        "turn": PLAYERS[turn],
        "previous": PLAYERS[1 - turn],
        "hands": {PLAYERS[s]: [c.code for c in hands[s]] for s in (0, 1)},
        "stock": [c.code for c in reversed(stock)],
        "pile": [c.code for c in pile],
        "turned": [c.code for c in turned],
        "named_suit": None if named is None else named.value,
        "restart": restart,
        "draws": draw(st.sampled_from((3, 0, 1, 2))),
        "idle": 0,
    }
    state = GAME.position_from_data(data, OPTIONS)
    return dataclasses.replace(state, idle=draw(st.integers(0, 1)))


def _engine_ruling(state: State, action: Play | Draw | Pass) -> tuple[bool, State | None]:
    try:
        GAME.check(state, action)
    except IllegalActionError:
        return False, None
    return True, GAME.apply(state, action).state


@pytest.mark.clause(
    "VA-PLAY-MATCH-RANK-OR-SUIT",
    "VA-ACE-SAME-SUIT",
    "VA-ACE-FOLLOW-ACE-SUIT",
    "VA-EIGHT-LEAD-NAMED-SUIT",
    "VA-EIGHT-WHEN-STUCK",
    "VA-DRAW-WHEN-STUCK",
    "VA-DRAW-MAX-THREE",
    "VA-DRAW-PASS-AFTER-THREE",
    "VA-DRAW-STOCK-REBUILD",
    "VA-TURN-RESTART-FALLBACK",
    "VA-WIN-BLOCKED-DEAL-VOID",
)
@settings(max_examples=30, deadline=None)
@given(state=positions(), data=st.data())
def test_encoding_agrees_with_engine_on_one_action(state: State, data: st.DataObject) -> None:
    """Engine and encoding agree on whether a play of a heart or an eight (held or not), a draw
    or a pass is allowed, and on the position it leads to (the drawn card, a chance outcome,
    taken from the engine)."""
    seat = state.turn
    candidates: list[Play | Draw | Pass] = [Draw(player=seat), Pass(player=seat)]
    for card in LIVE_CARDS:
        suit = Suit.HEARTS if card.rank.value == 8 else None
        candidates.append(Play(player=seat, cards=(card,), suit=suit))
    legal: list[Play | Draw | Pass] = [
        a
        for a in GAME.legal_actions(state)
        if isinstance(a, Draw | Pass) or (isinstance(a, Play) and a.cards[0] in LIVE_CARDS)
    ]
    prefer_legal: bool = data.draw(st.booleans())
    pool = legal if legal and prefer_legal else candidates
    action = data.draw(st.sampled_from(pool))
    event(f"restart {state.restart.value}, stock {'empty' if not state.stock else 'full'}")
    event(f"{type(action).__name__} {'allowed' if _agree(state, action) else 'refused'}")


def _agree(state: State, action: Play | Draw | Pass) -> bool:
    """Engine and encoding agree on ``action`` in ``state``; whether it is allowed."""
    seat = state.turn
    allowed, after = _engine_ruling(state, action)
    if isinstance(action, Play):
        card: Card | None = action.cards[0]
        kind, suit = PLAY, action.suit
    else:
        card, kind, suit = None, DRAW if isinstance(action, Draw) else PASS, None
    if not allowed:
        assert decide_step(state, kind, card, suit=suit) is None
        return False
    assert after is not None
    extra = None
    other = 1 - seat
    if isinstance(action, Draw):
        card = after.hands[seat][-1]
    elif len(after.hands[other]) > len(state.hands[other]):
        extra = after.hands[other][-1]
    ruling = decide_step(state, kind, card, suit=suit, extra=extra)
    expected = abstract(after)
    assert ruling is not None
    if expected[-1]:
        assert ruling[-1]
    else:
        assert ruling == expected
    return True


def _hand_built(**fields: Any) -> State:
    ann = [c.code for c in ANN_DEAD]
    bo = [c.code for c in BO_DEAD]
    data: dict[str, Any] = {
        "players": list(PLAYERS),
        "turn": PLAYERS[0],
        "previous": PLAYERS[1],
        "hands": {PLAYERS[0]: ann, PLAYERS[1]: bo},
    }
    idle = fields.pop("idle", 0)
    data.update(fields)
    return dataclasses.replace(GAME.position_from_data(data, OPTIONS), idle=idle)


EDGES = {
    # Ann stuck on 9♥ after three draws: only the pass
    "pass-after-three": _hand_built(pile=["9H"], stock=["2H", "3H"], draws=3, turned=[]),
    # nothing to draw and nothing to make a stock of: the pass is idle; the second voids
    "void": _hand_built(
        pile=["9H"],
        stock=[],
        idle=1,
        hands={
            PLAYERS[0]: [c.code for c in ANN_DEAD],
            PLAYERS[1]: [c.code for c in (*BO_DEAD, *LIVE_CARDS) if c.code != "9H"],
        },
    ),
    # Bo on his own ace with three draws made: he passes, and it is not an idle turn
    "ace-restart-pass": _hand_built(
        turn=PLAYERS[1], pile=["5H", "AH"], restart="ace", draws=3, stock=["2H"]
    ),
    # after an eight, hearts named: a heart from the hand, or an eight
    "eight-restart": _hand_built(
        turn=PLAYERS[0],
        pile=[],
        turned=["9H", "8C"],
        named_suit="H",
        restart="eight",
        hands={
            PLAYERS[0]: [c.code for c in (*ANN_DEAD, Card.parse("4H"), Card.parse("8D"))],
            PLAYERS[1]: [c.code for c in BO_DEAD],
        },
    ),
    # the stock used up: the draw makes it again from the pile below 6♥ and the turned cards
    "rebuild": _hand_built(turn=PLAYERS[1], pile=["2H", "6H"], turned=["8C", "JH"], stock=[]),
}


@pytest.mark.clause(
    "VA-DRAW-PASS-AFTER-THREE",
    "VA-WIN-BLOCKED-DEAL-VOID",
    "VA-TURN-RESTART-FALLBACK",
    "VA-EIGHT-LEAD-NAMED-SUIT",
    "VA-DRAW-STOCK-REBUILD",
)
@pytest.mark.parametrize("name", sorted(EDGES))
def test_encoding_agrees_with_engine_on_edge_positions(name: str) -> None:
    """Hand-built positions (passes, a void deal, restarts, a rebuild): engine and encoding agree
    on every single-card play of a heart or an eight held by the spelförare, on the draw and on
    the pass."""
    state = EDGES[name]
    seat = state.turn
    actions: list[Play | Draw | Pass] = [Draw(player=seat), Pass(player=seat)]
    actions += [
        Play(player=seat, cards=(c,), suit=Suit.HEARTS if c.rank.value == 8 else None)
        for c in state.hands[seat]
        if c in LIVE_CARDS
    ]
    for action in actions:
        _agree(state, action)


@pytest.mark.clause("VA-DRAW-STOCK-REBUILD")
def test_weakened_rebuild_comes_up_as_the_unshuffled_engine_draws() -> None:
    """The weakening reads the rebuild as unshuffled; the weakened encoding then lets only the
    card the engine's unshuffled rebuild (vvv8's reading) would bring up be drawn."""
    others = [c.code for c in LIVE_CARDS if c.code not in ("8C", "9H", "2H", "7H")]
    laid = [Card.parse(c) for c in ("8C", "9H", *others, "2H", "7H")]
    state = _hand_built(turn=PLAYERS[1], turned=["8C", "9H", *others], pile=["2H", "7H"], stock=[])
    unshuffled = dataclasses.replace(OPTIONS, empty_stock=EmptyStock.REBUILD_UNSHUFFLED)
    engine = GAME.apply(dataclasses.replace(state, options=unshuffled), Draw(player=1)).state
    assert first_drawn_unshuffled(state, laid) == (engine.hands[1][-1],)
