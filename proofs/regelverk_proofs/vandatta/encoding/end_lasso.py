"""A never-ending vvv8 game in free time, found by Z3 as a lasso and replayable in the engine.

Two cards circulate between the pile and the hands of two players while every other card stays
in the hands: the spelförare draws (the talon is empty, so it is rebuilt, unshuffled, from the
pile below its top card, V8-TALON-REBUILD-UNSHUFFLED), lays the card he drew on the top card, and
the turn passes; after four steps the position is back where it started. The talon runs out on
every draw, which only counts a pass: outside the coffee break no limit applies
(V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK), so the count has no effect on play and the position
repeats in everything that matters.

The encoding is card by card for the two circulating cards (their zone, their order in the pile
and the talon, their rank and suit) and in counts for the rest; the actions searched are the
spelförare's draw, his play of a circulating card (no ace, no eight, no call: a restriction of
the search, not of the rules) and his pass, each with the engine's guard. The other cards of the
deck sit in the hands, so nobody is ever out of cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from regelverk.cards import Card, Rank, Suit, french_deck
from regelverk.vandatta.options import VVV8
from regelverk_proofs.vandatta.text import drawn_deal_passes
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Model,
    Solver,
    Verdict,
    all_of,
    false,
    implies,
    ite,
    sum_of,
)

__all__ = ["LassoWitness", "find_lasso"]

STOCK, PILE, HAND = 0, 1, 2
"""Zones of a circulating card; seat ``s`` holds it in zone ``HAND + s``."""

STEPS = 4
MAX_DRAWS = VVV8.max_draws
"""Draws a turn (V8-DRAW-MAX-THREE), from the engine's preset."""
ONE_DECK_LIMIT = drawn_deal_passes(VVV8, 1)
"""The talon passes that draw a coffee-break deal with one deck, from the engine."""
PLAYERS = ("Ann", "Bo")
SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


@dataclass(frozen=True, slots=True)
class LassoWitness:
    """A position (as plain data for the position reader) and the actions (as plain data for
    the action reader) that bring it back to itself."""

    position: dict[str, Any]
    actions: tuple[dict[str, Any], ...]
    text: str


@dataclass(frozen=True, slots=True)
class _Moment:
    zone: tuple[Int, Int]
    pos: tuple[Int, Int]
    turn: Int
    draws: Int
    idle: Int
    passes: Int
    over: Bool


def _fresh(t: int) -> _Moment:
    return _Moment(
        zone=(Int.var(f"lasso{t}.zone0"), Int.var(f"lasso{t}.zone1")),
        pos=(Int.var(f"lasso{t}.pos0"), Int.var(f"lasso{t}.pos1")),
        turn=Int.var(f"lasso{t}.turn"),
        draws=Int.var(f"lasso{t}.draws"),
        idle=Int.var(f"lasso{t}.idle"),
        passes=Int.var(f"lasso{t}.passes"),
        over=Bool.var(f"lasso{t}.over"),
    )


def _in(m: _Moment, j: int, zone: int) -> Bool:
    return m.zone[j].eq(zone)


def _count(m: _Moment, zone: int) -> Int:
    return sum_of([_in(m, j, zone) for j in range(2)])


def _is_top(m: _Moment, j: int, zone: int) -> Bool:
    other = 1 - j
    return _in(m, j, zone) & (~_in(m, other, zone) | (m.pos[other] < m.pos[j]))


def _fits(ranks: tuple[Int, Int], suits: tuple[Int, Int], m: _Moment, j: int) -> Bool:
    """The circulating card ``j`` fits the pile's top card (or the pile is empty)."""
    other = 1 - j
    on_top = _is_top(m, other, PILE)
    same = suits[j].eq(suits[other]) | ranks[j].eq(ranks[other])
    return ~_in(m, other, PILE) | (on_top & same)


def _step(
    solver: Solver,
    m: _Moment,
    n: _Moment,
    *,
    act: Int,
    t: int,
    ranks: tuple[Int, Int],
    suits: tuple[Int, Int],
    limit: int | None,
) -> None:
    """One action of the spelförare, with the engine's guard and effect."""
    seat = m.turn
    hand = HAND + 0
    stock, pile = _count(m, STOCK), _count(m, PILE)
    can_draw = (stock > 0) | (pile > 1)
    rebuild = stock.eq(0)
    # draw: rebuild (pile below its top, reversed, V8-TALON-REBUILD-UNSHUFFLED), then the top
    zone_mid = [
        ite(rebuild & _in(m, j, PILE) & ~_is_top(m, j, PILE), STOCK, m.zone[j]) for j in range(2)
    ]
    pos_mid = [
        ite(rebuild & _in(m, j, PILE) & ~_is_top(m, j, PILE), -m.pos[j], m.pos[j]) for j in range(2)
    ]
    mid = _Moment(
        zone=(zone_mid[0], zone_mid[1]),
        pos=(pos_mid[0], pos_mid[1]),
        turn=m.turn,
        draws=m.draws,
        idle=m.idle,
        passes=m.passes,
        over=m.over,
    )
    drawn = [_is_top(mid, j, STOCK) for j in range(2)]
    left = sum_of([_in(mid, j, STOCK) & ~drawn[j] for j in range(2)])
    passes_after_draw = ite(left.eq(0), m.passes + 1, m.passes)
    drawn_deal = false() if limit is None else passes_after_draw >= limit
    draw = all_of(
        [
            m.draws < MAX_DRAWS,
            can_draw,
            n.zone[0].eq(ite(drawn[0], seat + hand, zone_mid[0])),
            n.zone[1].eq(ite(drawn[1], seat + hand, zone_mid[1])),
            n.pos[0].eq(pos_mid[0]),
            n.pos[1].eq(pos_mid[1]),
            n.turn.eq(m.turn),
            n.draws.eq(m.draws + 1),
            n.idle.eq(0),
            n.passes.eq(passes_after_draw),
            n.over.eq(drawn_deal),
        ]
    )
    other_seat = 1 - seat
    plays = []
    for j in range(2):
        plays.append(
            all_of(
                [
                    m.zone[j].eq(seat + hand),
                    _fits(ranks, suits, m, j),
                    n.zone[j].eq(PILE),
                    n.pos[j].eq(100 + t),
                    n.zone[1 - j].eq(m.zone[1 - j]),
                    n.pos[1 - j].eq(m.pos[1 - j]),
                    n.turn.eq(other_seat),
                    n.draws.eq(0),
                    n.idle.eq(0),
                    n.passes.eq(m.passes),
                    n.over.eq(false()),
                ]
            )
        )
    idle = ite(m.draws.eq(0), m.idle + 1, m.idle)
    passing = all_of(
        [
            (m.draws >= MAX_DRAWS) | ~can_draw,
            n.zone[0].eq(m.zone[0]),
            n.zone[1].eq(m.zone[1]),
            n.pos[0].eq(m.pos[0]),
            n.pos[1].eq(m.pos[1]),
            n.turn.eq(other_seat),
            n.draws.eq(0),
            n.idle.eq(idle),
            n.passes.eq(m.passes),
            n.over.eq(idle >= len(PLAYERS)),
        ]
    )
    solver.add(act.between(0, 3))
    solver.add(implies(act.eq(0), draw), clause="V8-TALON-REBUILD-UNSHUFFLED")
    solver.add(implies(act.eq(1), plays[0]), clause="V8-PLAY-MATCH-SUIT")
    solver.add(implies(act.eq(2), plays[1]), clause="V8-PLAY-MATCH-SUIT")
    solver.add(implies(act.eq(3), passing), clause="V8-TURN-PASS-AFTER-THREE-DRAWS")
    solver.add(~n.over)


def _same(a: _Moment, b: _Moment, *, count_passes: bool) -> Bool:
    """The two moments show the same position: zones, the order within each zone, the turn,
    draws, idle passes (and the talon passes, where they matter)."""
    parts = [a.turn.eq(b.turn), a.draws.eq(b.draws), a.idle.eq(b.idle)]
    parts += [a.zone[j].eq(b.zone[j]) for j in range(2)]
    parts.append((a.pos[0] < a.pos[1]).eq(b.pos[0] < b.pos[1]))
    if count_passes:
        parts.append(a.passes.eq(b.passes))
    return all_of(parts)


def find_lasso(weaken: frozenset[str]) -> tuple[Verdict, LassoWitness | None]:
    """Search a lasso of four actions in vvv8 free time; with V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK
    weakened, the coffee break's talon limit (three passes with one deck) applies in free time
    too, so the passes count is part of the position and a drawn deal ends the game."""
    limit = ONE_DECK_LIMIT if "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK" in weaken else None
    solver = Solver(timeout_ms=20_000)
    ranks = (Int.var("lasso.rank0"), Int.var("lasso.rank1"))
    suits = (Int.var("lasso.suit0"), Int.var("lasso.suit1"))
    for j in range(2):
        solver.add(ranks[j].between(2, 13) & ranks[j].ne(8))
        solver.add(suits[j].between(0, 3))
    solver.add(ranks[0].ne(ranks[1]) | suits[0].ne(suits[1]))
    moments = [_fresh(t) for t in range(STEPS + 1)]
    first = moments[0]
    for j in range(2):
        solver.add(first.zone[j].between(STOCK, HAND + 1))
    solver.add(first.pos[0].ne(first.pos[1]))
    for j in range(2):
        solver.add(first.pos[j].between(-50, 50))
    solver.add(first.turn.eq(0) & first.draws.eq(0) & first.idle.eq(0) & first.passes.eq(0))
    solver.add(~first.over)
    solver.add(_count(first, PILE) >= 1)
    acts = [Int.var(f"lasso.act{t}") for t in range(STEPS)]
    for t in range(STEPS):
        _step(
            solver,
            moments[t],
            moments[t + 1],
            act=acts[t],
            t=t,
            ranks=ranks,
            suits=suits,
            limit=limit,
        )
    solver.add(_same(first, moments[-1], count_passes=limit is not None))
    verdict = solver.check()
    if verdict is not Verdict.SAT:
        return verdict, None
    return verdict, _witness(solver.model(), moments, acts, ranks, suits)


def _card(model: Model, ranks: tuple[Int, Int], suits: tuple[Int, Int], j: int) -> Card:
    return Card(Rank(model.int(ranks[j])), SUITS[model.int(suits[j])])


def _witness(
    model: Model,
    moments: list[_Moment],
    acts: list[Int],
    ranks: tuple[Int, Int],
    suits: tuple[Int, Int],
) -> LassoWitness:
    cards = [_card(model, ranks, suits, j) for j in range(2)]
    first = moments[0]
    zones = [model.int(first.zone[j]) for j in range(2)]
    order = sorted(range(2), key=lambda j: model.int(first.pos[j]))
    pile = [cards[j] for j in order if zones[j] == PILE]
    stock_top_first = [cards[j] for j in reversed(order) if zones[j] == STOCK]
    rest = list(french_deck(1))
    for card in cards:
        rest.remove(card)
    half = len(rest) // 2
    hands: list[list[Card]] = [rest[:half], rest[half:]]
    for j in range(2):
        if zones[j] >= HAND:
            hands[zones[j] - HAND].append(cards[j])
    position = {
        "players": list(PLAYERS),
        "hands": {PLAYERS[s]: [c.code for c in hands[s]] for s in range(2)},
        "pile": [c.code for c in pile],
        "stock": [c.code for c in stock_top_first],
        "turn": PLAYERS[0],
        "previous": PLAYERS[1],
        "dealer": PLAYERS[1],
    }
    actions: list[dict[str, Any]] = []
    words: list[str] = []
    for t, act in enumerate(acts):
        seat = model.int(moments[t].turn)
        kind = model.int(act)
        if kind == 0:
            actions.append({"action": "draw", "player": PLAYERS[seat]})
            words.append(f"{PLAYERS[seat]} draws")
        elif kind in (1, 2):
            card = cards[kind - 1]
            actions.append({"action": "play", "player": PLAYERS[seat], "cards": [card.code]})
            words.append(f"{PLAYERS[seat]} lays {card}")
        else:
            actions.append({"action": "pass", "player": PLAYERS[seat]})
            words.append(f"{PLAYERS[seat]} passes")
    shown_pile = " ".join(str(c) for c in pile) or "empty"
    shown_stock = " ".join(str(c) for c in stock_top_first) or "empty"
    text = (
        f"vvv8 in free time, {PLAYERS[0]} and {PLAYERS[1]}, one deck: the pile {shown_pile} "
        f"(top last), the talon {shown_stock}, every other card in the two hands ({half} and "
        f"{len(rest) - half}), "
        f"{PLAYERS[0]} to play. " + "; ".join(words) + ": the position is back where it began, "
        "with nobody out (only the count of talon passes has grown, which outside the coffee "
        "break has no effect)."
    )
    return LassoWitness(position=position, actions=tuple(actions), text=text)
