"""The binding of ``vandatta.never-ending-deal`` to the engine.

The lasso of :mod:`regelverk_proofs.vandatta.theorems.endless` is found over a step relation of its
own (:func:`~regelverk_proofs.vandatta.encoding.endless.one_step`, asked one action at a time
through :func:`~regelverk_proofs.vandatta.encoding.endless.decide_step`). :func:`compare` holds it
to the engine:

* on seeded two-player positions of the kind the lasso lives in (every card but the hearts and
  eights in a hand, at least two each; the hearts and eights anywhere; sometimes the stock used
  up, a restart after one's own ace or eight, a named suit, draws made, an idle turn), every
  single-card play of a heart or an eight, the draw and the pass are decided by the engine
  (``check``, then ``apply``) and by the encoding, which must agree on whether each is allowed
  and on the position it leads to (the card a draw brings up, a chance outcome, taken from the
  engine);
* on hand-built edge positions (the pass after the last draw, a void deal, a pass on one's own
  ace, a restart after an eight, a rebuild from the pile and the turned cards);
* on the witness itself: the deal and the stem are played in the engine, then every step of
  the loop is checked by the engine and by the encoding, the shuffles' outcomes entered as the
  witness chose them, and the loop must close on the position it started from.

An encoding that gives no answer counts as a disagreement, and so does an engine that raises.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from regelverk.cards import Card, Suit
from regelverk.engine import IllegalActionError, with_options
from regelverk.vandatta import GAME
from regelverk.vandatta.options import VANDATTA
from regelverk.vandatta.rules import drawn_deal_passes
from regelverk.vandatta.state import Draw, Pass, Phase, Play, State
from regelverk_proofs.binding import Binding, Comparison
from regelverk_proofs.vandatta.encoding.endless import (
    ANN_DEAD,
    BO_DEAD,
    CARDS,
    DRAW,
    LIVE,
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
    stem,
    witness,
)

__all__ = ["EDGES", "ENDLESS_KINDS", "ENDLESS_STEPS", "compare", "position", "replay"]

LIVE_CARDS = tuple(CARDS[c] for c in LIVE)
OTHER_CARDS = tuple(c for c in CARDS if c not in LIVE_CARDS)
IGNORED = ("talon_passes", "shuffles")
"""Compared positions leave out the count of times the stock ran out (under the vandatta preset
no rule reads it: the talon-pass limit is vvv8's coffee-break rule) and the count of shuffles
the seed has served: both only grow, and the loop stands for the shuffles' outcomes, entered as
the witness chose them, not for the seed's."""
POSITIONS = 20
"""Seeded positions compared."""


def position(seed: int) -> State:
    """A seeded two-player position of the lasso's kind."""
    rng = random.Random(seed)
    split = rng.randint(2, 16)
    if split <= 14:  # by rank, as in the witness: low ranks to Ann, high to Bo
        owners = [0 if int(c.rank) < split else 1 for c in OTHER_CARDS]
    else:
        owners = [rng.randint(0, 1) for _ in OTHER_CARDS]
    hands: list[list[Card]] = [[], []]
    for card, owner in zip(OTHER_CARDS, owners, strict=True):
        hands[owner].append(card)
    if min(len(h) for h in hands) < 2:
        hands = [list(OTHER_CARDS[:18]), list(OTHER_CARDS[18:])]
    order = list(LIVE_CARDS)
    rng.shuffle(order)
    kept = (2, 3, 4, 0, 1) if rng.random() < 0.5 else (2, 3, 4)
    placed = {card: rng.choice(kept) for card in order}
    for seat in (0, 1):
        hands[seat] += [c for c in order if placed[c] == seat]
    stock = [c for c in order if placed[c] == 2]
    pile = [c for c in order if placed[c] == PILE]
    turned = [c for c in order if placed[c] == TURNED]
    if rng.random() < 0.4:  # the stock used up: the next draw makes it again
        turned += stock
        stock = []
    mode = rng.choice(("plain", "plain", "ace", "eight", "named"))
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
        named = rng.choice(tuple(Suit))
        restart = "eight" if mode == "eight" else "none"
    turn = rng.randint(0, 1)
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
        "draws": rng.choice((3, 0, 1, 2)),
        "idle": 0,
    }
    state = GAME.position_from_data(data, VANDATTA)
    return dataclasses.replace(state, idle=rng.randint(0, 1))


def _hand_built(**fields: Any) -> State:
    data: dict[str, Any] = {
        "players": list(PLAYERS),
        "turn": PLAYERS[0],
        "previous": PLAYERS[1],
        "hands": {PLAYERS[0]: [c.code for c in ANN_DEAD], PLAYERS[1]: [c.code for c in BO_DEAD]},
    }
    idle = fields.pop("idle", 0)
    data.update(fields)
    return dataclasses.replace(GAME.position_from_data(data, VANDATTA), idle=idle)


def edges() -> dict[str, State]:
    """Hand-built positions at the edges of the step relation."""
    return {
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


EDGES = ("pass-after-three", "void", "ace-restart-pass", "eight-restart", "rebuild")
"""The names of the hand-built positions."""


def _kinds(
    state: State, action: Play | Draw | Pass, allowed: bool, after: State | None
) -> list[str]:
    verdict = "allowed" if allowed else "refused"
    if isinstance(action, Play):
        found = [f"play-{verdict}"]
        if allowed and action.cards[0].rank.value == 8:
            found.append("eight")
        if allowed and action.cards[0].rank.value == 14:
            found.append("ace")
    elif isinstance(action, Draw):
        found = [f"draw-{verdict}"]
        if allowed and not state.stock:
            found.append("rebuild")
    else:
        found = [f"pass-{verdict}"]
        if allowed and after is not None and abstract(after)[-1]:
            found.append("void")
    if state.restart.value != "none":
        found.append("restart")
    return found


def compare_action(state: State, action: Play | Draw | Pass, label: str) -> Iterator[Comparison]:
    """Engine and encoding on one action: allowed or not, and the position it leads to."""
    seat = state.turn
    try:
        GAME.check(state, action)
        allowed, after = True, GAME.apply(state, action).state
    except IllegalActionError:
        allowed, after = False, None
    if isinstance(action, Play):
        card: Card | None = action.cards[0]
        kind, suit = PLAY, action.suit
    else:
        card, kind, suit = None, DRAW if isinstance(action, Draw) else PASS, None
    extra = None
    if after is not None:
        other = 1 - seat
        if isinstance(action, Draw):
            card = after.hands[seat][-1]
        elif len(after.hands[other]) > len(state.hands[other]):
            extra = after.hands[other][-1]
    ruling = decide_step(state, kind, card, suit=suit, extra=extra)
    if after is None:
        agrees = ruling is None
        problem = "the encoding allows it"
    else:
        expected = abstract(after)
        agrees = ruling is not None and (ruling[-1] if expected[-1] else ruling == expected)
        problem = "the encoding refuses it" if ruling is None else "the positions after differ"
    detail = (
        f"{label}: {action!r} ({'allowed' if allowed else 'refused'} by the engine): {problem}; "
        f"{PLAYERS[seat]} to play on {state.pile[-1] if state.pile else 'nothing'} "
        f"(restart {state.restart.value}, draws {state.draws}, stock {len(state.stock)})"
    )
    for name in _kinds(state, action, allowed, after):
        yield Comparison(name, agrees, detail)


def _actions(state: State, rng: random.Random) -> list[Play | Draw | Pass]:
    seat = state.turn
    found: list[Play | Draw | Pass] = [Draw(player=seat), Pass(player=seat)]
    held = [c for c in state.hands[seat] if c in LIVE_CARDS]
    tried = held + rng.sample(LIVE_CARDS, 2)
    for card in dict.fromkeys(tried):
        suit = Suit.HEARTS if card.rank.value == 8 else None
        found.append(Play(player=seat, cards=(card,), suit=suit))
    return found


def _comparable(state: State) -> dict[str, Any]:
    data = GAME.position_to_data(state)
    return {k: v for k, v in data.items() if k not in IGNORED}


def _reshuffled(after: State, seat: int, order: tuple[Card, ...]) -> State:
    """``after`` (the engine's draw, which rebuilt the stock with its own seeded shuffle) with the
    stock in ``order`` instead: the shuffle's chance outcome the witness chose. The cards of the
    new stock are the engine's."""
    if Counter((*after.stock, after.hands[seat][-1])) != Counter(order):
        raise ValueError("the engine's new stock holds other cards than the witness's")
    data = GAME.position_to_data(after)
    name = PLAYERS[seat]
    data["hands"][name] = [*data["hands"][name][:-1], order[0].code]
    data["stock"] = [c.code for c in order[1:]]
    return GAME.position_from_data(data, after.options)


def replay(state: State, step: Step) -> State:
    """One witness step in the engine (``apply`` checks it), the rebuild's order entered as the
    witness chose it."""
    action = GAME.action_from_data(step.data(), state)
    after = GAME.apply(state, action).state
    if step.kind == DRAW and step.rebuild is not None:
        after = _reshuffled(after, state.turn, step.rebuild)
    if step.extra is not None and step.rebuild is not None:
        after = _reshuffled(after, 1 - state.turn, step.rebuild)
    return after


def loop_start() -> State:
    """The engine's position where the loop starts: the deal, then the stem."""
    state = GAME.position_from_data(deal_position(), VANDATTA)
    for data in stem():
        state = GAME.apply(state, GAME.action_from_data(data, state)).state
    return state


def _witness() -> Iterator[Comparison]:
    verdict, lasso, _, why = witness()
    if lasso is None:
        yield Comparison("witness-step", False, f"no witness to replay ({verdict.value} {why})")
        return
    start = loop_start()
    state = start
    for number, step in enumerate(lasso.steps, 1):
        action = GAME.action_from_data(step.data(), state)
        after = replay(state, step)
        ruling = decide_step(state, step.kind, step.card, suit=step.suit, extra=step.extra)
        agrees = state.turn == step.player and ruling == abstract(after)
        detail = f"witness step {number}: {action!r}: the encoding's position is not the engine's"
        yield Comparison("witness-step", agrees, detail)
        state = after
    closes = _comparable(state) == _comparable(start)
    yield Comparison("loop-closes", closes, "the engine's position after the loop is another")
    yield from _drawn_after_passes(lasso, start)


DRAWN = with_options(VANDATTA, {"endless_deal": "drawn-after-passes"})
"""The vandatta preset with the other reading of VA-AMB-ENDLESS-DEAL."""


def _drawn_after_passes(lasso: Lasso, start: State) -> Iterator[Comparison]:
    """The witness's loop played again and again from its start under endless_deal =
    drawn-after-passes: every step stays legal until the stock has run out as many times as the
    limit says (three with one deck, the count that started before the loop included); that
    running out ends the deal drawn, with nobody scoring, so the loop is not repeated for ever."""
    state = dataclasses.replace(start, options=DRAWN)
    limit = drawn_deal_passes(DRAWN, state.decks)
    steps = 0
    for _ in range(limit + 1):
        for step in lasso.steps:
            if state.phase is not Phase.PLAY:
                break
            after = GAME.apply(state, GAME.action_from_data(step.data(), state)).state
            own = step.kind == DRAW
            if after.phase is Phase.PLAY and step.rebuild is not None and (own or step.extra):
                after = _reshuffled(after, state.turn if own else 1 - state.turn, step.rebuild)
            state, steps = after, steps + 1
    drawn = (
        state.phase is Phase.DEAL_OVER
        and state.winner is None
        and state.talon_passes == limit
        and state.record.points == start.record.points
    )
    yield Comparison(
        "drawn-after-passes",
        drawn,
        f"after {steps} witness steps under drawn-after-passes the deal is {state.phase.value} "
        f"(winner {state.winner}, {state.talon_passes} stock passes of {limit}, points "
        f"{list(state.record.points)})",
    )


def _cases() -> Iterator[Comparison]:
    rng = random.Random(5)
    for seed in range(POSITIONS):
        state = position(seed)
        for action in rng.sample(_actions(state, rng), 3):
            yield from compare_action(state, action, f"position {seed}")
    built = edges()
    for name in EDGES:
        state = built[name]
        seat = state.turn
        actions: list[Play | Draw | Pass] = [Draw(player=seat), Pass(player=seat)]
        actions += [
            Play(player=seat, cards=(c,), suit=Suit.HEARTS if c.rank.value == 8 else None)
            for c in state.hands[seat]
            if c in LIVE_CARDS
        ]
        for action in actions:
            yield from compare_action(state, action, name)
    yield from _witness()


def compare() -> Iterator[Comparison]:
    """Every case of the binding (see the module's docstring)."""
    try:
        yield from _cases()
    except Exception as error:
        yield Comparison("witness-step", False, f"the engine raised {error!r}")


ENDLESS_KINDS: tuple[str, ...] = (
    "play-allowed",
    "play-refused",
    "eight",
    "ace",
    "draw-allowed",
    "draw-refused",
    "rebuild",
    "pass-allowed",
    "pass-refused",
    "void",
    "restart",
    "witness-step",
    "loop-closes",
    "drawn-after-passes",
)
"""What the lasso's binding compares: every kind of case :func:`compare` yields."""

ENDLESS_STEPS = Binding(
    name="vandatta.endless.steps",
    statement=(
        "On seeded two-player vandatta positions where every card but the hearts and "
        "eights lies in a hand (the hearts and eights anywhere; restarts after an ace or "
        "an eight, named suits, used-up stocks, draws made, idle turns), on hand-built "
        "edge positions, and on every step of the witness replayed in the engine from a "
        "dealt position, the engine (check, apply) allows exactly the single-card plays "
        "of hearts and eights, draws and passes that the lasso's step relation "
        "(decide_step) allows, and reaches the position it gives. Replayed again and "
        "again under endless_deal = drawn-after-passes, the witness's loop ends in a "
        "drawn deal, nobody scoring, when the stock runs out for the third time."
    ),
    kinds=ENDLESS_KINDS,
    compare=compare,
    claims=169,
)
