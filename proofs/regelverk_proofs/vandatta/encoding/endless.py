"""The encoding of ``vandatta.never-ending-deal``: a two-player vandatta deal card by card for
the cards that move, the lasso Z3 searches for in it, and its step asked one action at a time
on an engine position.

The encoding is card by card for the sixteen cards that move: each has a zone (a hand, the
stock, the pile, the turned-away cards) at every moment, with the top card of the pile, the
spelförare, his draws, the restart after an ace or an eight, the named suit and the count of
idle turns. Every other card stays in the hand it is in (:class:`Setting`): the search never
lays one (a restriction of the moves searched, not of the rules), but whether one fits still
decides whether its holder is stuck, and so whether he may draw or pass. Each hand keeps at
least two such cards, so nobody goes out and LAPPEN is never due (VA-CALL-LAPPEN; varning only
speaks). The moves searched are single-card plays, draws and passes, each with the engine's own
guard; plays of several cards of one rank are further moves the engine allows and the search
does not use.

The order of the stock is not a variable: every card of a rebuilt stock is drawn before the
stock is made again, so letting each draw take any card left in the stock is the same as
letting the shuffle choose the order, which it may (any order is possible). The order of the
pile below its top card is not a variable either: no rule reads it (a rebuild shuffles it, an
eight turns it away whole). Only the weakening, which reads the rebuild as unshuffled, needs
the order: there each moving card carries the step at which it was last laid, and a draw takes
the oldest card of the stock, as the engine's unshuffled rebuild hands it out.

The theorem (:mod:`regelverk_proofs.vandatta.theorems.endless`) says what the lasso shows; the
binding (:mod:`regelverk_proofs.vandatta.binding.endless`) holds the step relation to the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from regelverk.cards import Card, Rank, Suit, french_deck
from regelverk.vandatta.options import VANDATTA
from regelverk.vandatta.state import Phase, Restart, State
from regelverk_proofs.theorem import TheoremError
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Model,
    Solver,
    Verdict,
    all_of,
    any_of,
    implies,
    ite,
    ite_bool,
    sum_of,
    true,
)

__all__ = [
    "ANN_DEAD",
    "BO_DEAD",
    "CARDS",
    "DRAW",
    "INDEX",
    "LIVE",
    "LOOP",
    "LOOP_LAID",
    "PASS",
    "PILE",
    "PLAY",
    "PLAYERS",
    "TURNED",
    "Abstract",
    "Lasso",
    "Moment",
    "Move",
    "Setting",
    "Step",
    "abstract",
    "deal_position",
    "decide_step",
    "find_lasso",
    "first_drawn_unshuffled",
    "one_step",
    "stem",
    "witness",
]

CARDS: tuple[Card, ...] = french_deck(1)
"""The 52 cards, indexed as the encoding numbers them."""
SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
RANK = tuple(int(c.rank) for c in CARDS)
SUIT = tuple(SUITS.index(c.suit) for c in CARDS)
EIGHTS = tuple(i for i, c in enumerate(CARDS) if c.rank is Rank.EIGHT)
ACES = tuple(i for i, c in enumerate(CARDS) if c.rank is Rank.ACE)
INDEX = {c: i for i, c in enumerate(CARDS)}

PLAYERS = ("Ann", "Bo")
STOCK, PILE, TURNED = 2, 3, 4
"""Zones of a card; seat ``s`` holds it in zone ``s``."""
RESTART_NONE, RESTART_ACE, RESTART_EIGHT = 0, 1, 2
PLAY, DRAW, PASS = 0, 1, 2
NONE = -1
MAX_DRAWS = VANDATTA.max_draws
"""Draws a turn under the vandatta preset (VA-DRAW-MAX-THREE), as the engine's options read it
from the spec."""
_LOW = tuple(Rank(r) for r in range(2, 8))
_HIGH = tuple(Rank(r) for r in range(9, 15))
_DEAD = (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)


ANN_DEAD = tuple(Card(r, s) for s in _DEAD for r in _LOW)
"""Ann's cards, which never fit what she meets: clubs, diamonds and spades of ranks 2 to 7."""
BO_DEAD = tuple(Card(r, s) for s in _DEAD for r in _HIGH)
"""Bo's cards, which never fit what he meets: clubs, diamonds and spades of ranks 9 to ace."""


# --- the moments and moves of the encoding --------------------------------------------------

LIVE: tuple[int, ...] = tuple(
    i for i, c in enumerate(CARDS) if c.suit is Suit.HEARTS or c.rank is Rank.EIGHT
)
"""The cards that move (the hearts and the eights): each has a zone at every moment."""


@dataclass(frozen=True, slots=True)
class Setting:
    """The cards that never move: each seat's cards outside :data:`LIVE`, fixed in its hand.

    The search never lays one of them (a restriction of the moves searched, not of the
    rules): whether one fits still decides whether its holder is stuck. Each seat keeps at
    least two, so nobody goes out and LAPPEN (due at one card) never is.
    """

    dead: tuple[tuple[int, ...], tuple[int, ...]]

    def __post_init__(self) -> None:
        if min(len(cards) for cards in self.dead) < 2:
            raise ValueError("each seat keeps at least two cards that never move")

    @classmethod
    def of(cls, ann: Sequence[Card], bo: Sequence[Card]) -> Setting:
        """The setting with ``ann`` and ``bo`` held by the two seats."""
        return cls((tuple(INDEX[c] for c in ann), tuple(INDEX[c] for c in bo)))


@dataclass(frozen=True, slots=True)
class Moment:
    """The state between two actions: each live card's zone and what the rules read besides."""

    zone: tuple[Int, ...]
    top: Int
    turn: Int
    draws: Int
    restart: Int
    named: Int
    idle: Int
    over: Bool
    age: tuple[Int, ...]
    """When each live card was last laid (a step number): read only under the unshuffled
    reading of the rebuild, where the stock comes up in the order the cards were laid."""

    @classmethod
    def fresh(cls, name: str) -> Moment:
        """Unknowns for the moment called ``name``."""
        return cls(
            zone=tuple(Int.var(f"{name}.z{c}") for c in LIVE),
            top=Int.var(f"{name}.top"),
            turn=Int.var(f"{name}.turn"),
            draws=Int.var(f"{name}.draws"),
            restart=Int.var(f"{name}.restart"),
            named=Int.var(f"{name}.named"),
            idle=Int.var(f"{name}.idle"),
            over=Bool.var(f"{name}.over"),
            age=tuple(Int.var(f"{name}.age{c}") for c in LIVE),
        )


@dataclass(frozen=True, slots=True)
class Move:
    """An action: its kind, the card laid (or drawn: the chance outcome), the suit named with
    an eight, and the card the other player draws for an ace."""

    kind: Int
    card: Int
    suit: Int
    extra: Int

    @classmethod
    def fresh(cls, name: str) -> Move:
        """Unknowns for the move called ``name``."""
        return cls(
            kind=Int.var(f"{name}.kind"),
            card=Int.var(f"{name}.card"),
            suit=Int.var(f"{name}.suit"),
            extra=Int.var(f"{name}.extra"),
        )


def _lookup(index: Int, values: Sequence[int]) -> Int:
    """``values[index]`` for a live card ``index`` (``NONE`` otherwise)."""
    term: Int = Int.const(NONE)
    for c in LIVE:
        term = ite(index.eq(c), values[c], term)
    return term


def _is_one_of(index: Int, members: Sequence[int]) -> Bool:
    return any_of(index.eq(m) for m in members if m in LIVE)


def _count(zone: Sequence[Int], where: int) -> Int:
    return sum_of(z.eq(where) for z in zone)


@dataclass(frozen=True, slots=True)
class _View:
    """What the rules read off a moment."""

    fits: tuple[Bool, ...]
    hand: tuple[Int, Int]
    can_draw: Bool
    stuck: Bool


def _fits(m: Moment, top_suit: Int, top_rank: Int, card: int) -> Bool:
    """The engine's ``first_fits`` for one card (rules.first_fits under the vandatta preset).

    In a restart (after one's own ace or eight) an eight, or a card of the ace's suit or the
    named suit (VA-ACE-FOLLOW-ACE-SUIT, VA-EIGHT-LEAD-NAMED-SUIT, VA-TURN-RESTART-FALLBACK);
    otherwise an eight on anything (VA-EIGHT-WHEN-STUCK, VA-EIGHT-BY-CHOICE), the named suit
    after an eight, any card on an empty pile, an ace by suit (VA-ACE-SAME-SUIT), any other
    card by suit or rank (VA-PLAY-MATCH-RANK-OR-SUIT).
    """
    if card in EIGHTS:
        return true()
    suit = SUIT[card]
    required = ite(m.restart.eq(RESTART_ACE), top_suit, m.named)
    by_suit = top_suit.eq(suit)
    ordinary = by_suit if card in ACES else by_suit | top_rank.eq(RANK[card])
    normal = ite_bool(
        m.named.ne(NONE), m.named.eq(suit), ite_bool(m.top.eq(NONE), true(), ordinary)
    )
    return ite_bool(m.restart.ne(RESTART_NONE), required.eq(suit), normal)


def _barred(card: int) -> bool:
    """Nobody goes out on an ace or an eight (VA-WIN-NOT-ON-ACE-OR-EIGHT)."""
    return card in EIGHTS or card in ACES


def _dead_fit(m: Moment, top_suit: Int, top_rank: Int, cards: Sequence[int]) -> Bool:
    """Whether some card of ``cards`` (no eight or heart among them, at least two cards held)
    fits: :func:`_fits` taken over the cards at once, by the suits and ranks they have."""
    suits = sorted({SUIT[c] for c in cards})
    ranks = sorted({RANK[c] for c in cards if c not in ACES})

    def suit_in(term: Int) -> Bool:
        return any_of(term.eq(s) for s in suits)

    ordinary = suit_in(top_suit) | any_of(top_rank.eq(r) for r in ranks)
    normal = ite_bool(
        m.named.ne(NONE), suit_in(m.named), ite_bool(m.top.eq(NONE), true(), ordinary)
    )
    required = ite(m.restart.eq(RESTART_ACE), top_suit, m.named)
    return ite_bool(m.restart.ne(RESTART_NONE), suit_in(required), normal)


def _view(m: Moment, setting: Setting) -> _View:
    top_suit, top_rank = _lookup(m.top, SUIT), _lookup(m.top, RANK)
    fits = {c: _fits(m, top_suit, top_rank, c) for c in LIVE}
    live_held = (_count(m.zone, 0), _count(m.zone, 1))
    hand = (live_held[0] + len(setting.dead[0]), live_held[1] + len(setting.dead[1]))
    stock, pile, turned = _count(m.zone, STOCK), _count(m.zone, PILE), _count(m.zone, TURNED)
    can_draw = (stock > 0) | (pile > 1) | (turned > 0)
    playable = []
    for seat in (0, 1):
        dead = setting.dead[seat]
        alone = hand[seat].eq(1)
        live = [
            z.eq(seat) & fits[c] & (~alone if _barred(c) else true())
            for c, z in zip(LIVE, m.zone, strict=True)
        ]
        live.append(_dead_fit(m, top_suit, top_rank, dead))
        playable.append(any_of(live))
    stuck = ~ite_bool(m.turn.eq(0), playable[0], playable[1])
    return _View(tuple(fits[c] for c in LIVE), hand, can_draw, stuck)


def _draw_one(
    zone: Sequence[Int], top: Int, drawer: Int, card: Int, age: Sequence[Int] | None
) -> tuple[Bool, Bool, tuple[Int, ...]]:
    """One card from the stock to ``drawer``, the stock made again first if it is empty
    (VA-DRAW-STOCK-REBUILD: every card in no hand but the top card of the pile). ``card`` is the
    card that comes up, the shuffle's chance outcome; whether a card could be drawn, whether
    ``card`` is one that can come up, and the zones after. With ``age`` (the unshuffled reading)
    the stock comes up in the order its cards were laid, the oldest first."""
    empty = _count(zone, STOCK).eq(0)
    rebuilt = tuple(
        ite(empty & (z.eq(TURNED) | (z.eq(PILE) & top.ne(c))), STOCK, z)
        for c, z in zip(LIVE, zone, strict=True)
    )
    possible = any_of(z.eq(STOCK) for z in rebuilt)
    chance = any_of(card.eq(c) & z.eq(STOCK) for c, z in zip(LIVE, rebuilt, strict=True))
    if age is not None:
        chance = chance & all_of(
            implies(
                card.eq(c),
                all_of(
                    implies(rebuilt[j].eq(STOCK), age[i] < age[j])
                    for j in range(len(LIVE))
                    if j != i
                ),
            )
            for i, c in enumerate(LIVE)
        )
    after = tuple(ite(possible & card.eq(c), drawer, z) for c, z in zip(LIVE, rebuilt, strict=True))
    return possible, chance, after


def _same_zones(a: Sequence[Int], b: Sequence[Int]) -> Bool:
    return all_of(x.eq(y) for x, y in zip(a, b, strict=True))


@dataclass(frozen=True, slots=True)
class _Step:
    """One action under encoding: the moments around it, the move, the rules read off ``m``."""

    solver: Solver
    m: Moment
    mv: Move
    after: Moment
    view: _View
    weaken: frozenset[str]
    clock: int

    @property
    def ages(self) -> tuple[Int, ...] | None:
        """The ages, under the unshuffled reading of the rebuild (the weakening), else None."""
        return self.m.age if "VA-DRAW-STOCK-REBUILD" in self.weaken else None

    def aged(self, card: Int | None) -> Bool:
        """The ages after the action: ``card`` laid now (under the unshuffled reading)."""
        if self.ages is None:
            return true()
        return all_of(
            a.eq(b if card is None else ite(card.eq(c), self.clock, b))
            for c, a, b in zip(LIVE, self.after.age, self.ages, strict=True)
        )

    def rest(self, zone: Sequence[Int], top: Int | int, named: Int | int) -> Bool:
        """The zones, the top card and the named suit after the action."""
        return (
            _same_zones(self.after.zone, zone) & self.after.top.eq(top) & self.after.named.eq(named)
        )

    def again(self, restart: int) -> Bool:
        """The same player goes on with a fresh allowance of draws (a restart)."""
        a = self.after
        return (
            a.restart.eq(restart) & a.turn.eq(self.m.turn) & a.draws.eq(0) & a.idle.eq(0) & ~a.over
        )


def _play_rules(step: _Step, when: Bool) -> None:
    """A single-card play (playing._first_error, _play, _eight, _ace, _end_turn)."""
    m, mv, after, solver = step.m, step.mv, step.after, step.solver
    card = mv.card
    held_fit = any_of(
        card.eq(c) & z.eq(m.turn) & f for c, z, f in zip(LIVE, m.zone, step.view.fits, strict=True)
    )
    solver.add(implies(when, held_fit), clause="VA-PLAY-MATCH-RANK-OR-SUIT")
    eight, ace = _is_one_of(card, EIGHTS), _is_one_of(card, ACES)
    solver.add(implies(when & eight, mv.suit.between(0, 3)), clause="VA-EIGHT-NAMES-SUIT")
    laid = tuple(ite(card.eq(c), PILE, z) for c, z in zip(LIVE, m.zone, strict=True))
    # an eight: the pile, the eight on top, is turned away; a suit is named; he starts again
    turned = tuple(ite(z.eq(PILE), TURNED, z) for z in laid)
    solver.add(
        implies(
            when & eight,
            step.rest(turned, NONE, mv.suit) & step.again(RESTART_EIGHT) & step.aged(card),
        ),
        clause="VA-EIGHT-TURNS-PILE",
    )
    # an ace: the other player draws one card; the same player plays again on it
    ages = step.ages
    if ages is not None:
        ages = tuple(ite(card.eq(c), step.clock, a) for c, a in zip(LIVE, ages, strict=True))
    possible, chance, zone = _draw_one(laid, card, 1 - m.turn, mv.extra, ages)
    solver.add(
        implies(
            when & ace,
            implies(possible, chance)
            & step.rest(zone, card, NONE)
            & step.again(RESTART_ACE)
            & step.aged(card),
        ),
        clause="VA-ACE-OTHERS-DRAW",
    )
    # any other card: the turn passes
    solver.add(
        implies(
            when & ~eight & ~ace,
            step.rest(laid, card, NONE)
            & step.aged(card)
            & after.restart.eq(RESTART_NONE)
            & after.turn.eq(1 - m.turn)
            & after.draws.eq(0)
            & after.idle.eq(0)
            & ~after.over,
        ),
        clause="VA-TURN-NEXT-PLAYER",
    )


def _draw_rules(step: _Step, when: Bool) -> None:
    """A draw (drawing._draw_error, _draw; talon.draw_one and talon.rebuild)."""
    m, after, solver, v = step.m, step.after, step.solver, step.view
    solver.add(implies(when, v.stuck), clause="VA-DRAW-WHEN-STUCK")
    solver.add(implies(when, m.draws < MAX_DRAWS), clause="VA-DRAW-MAX-THREE")
    possible, chance, drawn = _draw_one(m.zone, m.top, m.turn, step.mv.card, step.ages)
    solver.add(
        implies(
            when,
            v.can_draw
            & possible
            & chance
            & step.rest(drawn, m.top, m.named)
            & step.aged(None)
            & after.restart.eq(m.restart)
            & after.turn.eq(m.turn)
            & after.draws.eq(m.draws + 1)
            & after.idle.eq(0)
            & ~after.over,
        ),
        clause="VA-DRAW-STOCK-REBUILD",
    )


def _pass_rules(step: _Step, when: Bool) -> None:
    """A pass (drawing._pass_error, _pass, _end_turn): stuck with no draw left or none to
    be had; a turn with nothing laid or drawn is idle, and the deal is void once every player
    has had such a turn in a row."""
    m, after, solver, v = step.m, step.after, step.solver, step.view
    solver.add(
        implies(when, v.stuck & ((m.draws >= MAX_DRAWS) | ~v.can_draw)),
        clause="VA-DRAW-PASS-AFTER-THREE",
    )
    idle = ite(m.draws.eq(0) & m.restart.eq(RESTART_NONE), m.idle + 1, m.idle)
    solver.add(
        implies(
            when,
            step.rest(m.zone, m.top, m.named)
            & step.aged(None)
            & after.restart.eq(RESTART_NONE)
            & after.turn.eq(1 - m.turn)
            & after.draws.eq(0)
            & after.idle.eq(idle),
        ),
        clause="VA-TURN-NEXT-PLAYER",
    )
    solver.add(
        implies(when, after.over.eq(idle >= len(PLAYERS))), clause="VA-WIN-BLOCKED-DEAL-VOID"
    )


def one_step(
    solver: Solver,
    m: Moment,
    mv: Move,
    after: Moment,
    setting: Setting,
    *,
    weaken: frozenset[str],
    kind: int | None = None,
    clock: int = 0,
) -> None:
    """Assert that ``mv`` is allowed in ``m`` and leads to ``after``, each rule under its clause.

    ``kind`` (PLAY, DRAW or PASS), when given, fixes the kind of action, and only its rules are
    built. The guards are the engine's (drawing._draw_error, _pass_error, _first_error);
    the effects those of playing._play, _eight, _ace, _draw, _pass and _end_turn.
    """
    step = _Step(solver, m, mv, after, _view(m, setting), weaken, clock)
    solver.add(mv.kind.between(PLAY, PASS) & ~m.over)
    if kind is not None:
        solver.add(mv.kind.eq(kind))
    rules = ((PLAY, _play_rules), (DRAW, _draw_rules), (PASS, _pass_rules))
    for which, rule in rules:
        if kind is None:
            rule(step, mv.kind.eq(which))
        elif kind == which:
            rule(step, true())


def _well_formed(m: Moment) -> Bool:
    """The shape of a moment: zones, the top card lying on the pile, counters in range."""
    pile = _count(m.zone, PILE)
    top_on_pile = any_of(m.top.eq(c) & z.eq(PILE) for c, z in zip(LIVE, m.zone, strict=True))
    return (
        all_of(z.between(0, TURNED) for z in m.zone)
        & ite_bool(pile.eq(0), m.top.eq(NONE), top_on_pile)
        & m.turn.between(0, 1)
        & m.draws.between(0, MAX_DRAWS)
        & m.restart.between(RESTART_NONE, RESTART_EIGHT)
        & m.named.between(NONE, 3)
        & (m.idle >= 0)
    )


def _same_order(a: Moment, b: Moment) -> Bool:
    """The cards outside the hands lie in the same order of laying in both moments."""
    pairs = []
    for i in range(len(LIVE)):
        for j in range(i + 1, len(LIVE)):
            out = (a.zone[i] >= STOCK) & (a.zone[j] >= STOCK)
            pairs.append(implies(out, (a.age[i] < a.age[j]).eq(b.age[i] < b.age[j])))
    return all_of(pairs)


def _same(a: Moment, b: Moment, weaken: frozenset[str]) -> Bool:
    order = _same_order(a, b) if "VA-DRAW-STOCK-REBUILD" in weaken else true()
    return (
        order
        & _same_zones(a.zone, b.zone)
        & a.top.eq(b.top)
        & a.turn.eq(b.turn)
        & a.draws.eq(b.draws)
        & a.restart.eq(b.restart)
        & a.named.eq(b.named)
        & a.idle.eq(b.idle)
        & a.over.eq(b.over)
    )


def _laying_order(m: Moment) -> Bool:
    """Ages before the loop: distinct, the turned-away cards laid before the pile, the top card
    last (as the engine lays them)."""
    facts = []
    for i, c in enumerate(LIVE):
        facts.append(m.age[i] < 0)
        for j in range(len(LIVE)):
            if j == i:
                continue
            facts.append(m.age[i].ne(m.age[j]))
            facts.append(implies(m.zone[i].eq(TURNED) & m.zone[j].eq(PILE), m.age[i] < m.age[j]))
            facts.append(implies(m.top.eq(c) & m.zone[j].eq(PILE), m.age[j] < m.age[i]))
    return all_of(facts)


def _loop_template(m: Moment, weaken: frozenset[str]) -> Bool:
    """Where the loop starts: the hearts and eights lie in the pile or turned away (Z3 chooses
    which, and the top card), the stock is used up, and Bo is to play a fresh turn."""
    order = _laying_order(m) if "VA-DRAW-STOCK-REBUILD" in weaken else true()
    return (
        order
        & all_of(z.eq(PILE) | z.eq(TURNED) for z in m.zone)
        & m.turn.eq(1)
        & m.draws.eq(0)
        & m.restart.eq(RESTART_NONE)
        & m.named.eq(NONE)
        & m.idle.eq(0)
        & ~m.over
    )


# --- the lasso: the template, the search, the witness ---------------------------------------


def _phase(last: str) -> tuple[tuple[str, bool], ...]:
    """The cards laid between two rebuilds, each with whether its player drew it just before:
    Bo's eight, 9♥, Ann's eight, 2♥, Bo's eight, 10♥, Ann's eight, 3♥, Bo's ace (Ann draws 4♥
    for it), J♥, Ann's 4♥ from her hand, Q♥, 5♥, K♥ and ``last``."""
    drawn = ("8C", "9H", "8D", "2H", "8S", "10H", "8H", "3H", "AH", "JH")
    rest = (("4H", False), ("QH", True), ("5H", True), ("KH", True), (last, True))
    return (*((code, True) for code in drawn), *rest)


LOOP_LAID: tuple[tuple[str, bool], ...] = (*_phase("7H"), *_phase("6H"))
"""The template's cards laid in one round of the loop (each with whether a draw came first)."""
LOOP_KINDS: tuple[int, ...] = tuple(
    kind for _, first in LOOP_LAID for kind in ((DRAW, PLAY) if first else (PLAY,))
)
LOOP = len(LOOP_KINDS)
"""Actions in one round of the loop (two rebuilds of the stock)."""


def deal_position() -> dict[str, Any]:
    """A dealt position (as data for the position reader): seven cards each, 7♥ turned, and
    the stock in one order the deal's shuffle can produce (top first)."""
    ann_drawn = [c.code for c in ANN_DEAD[6:]]
    bo_drawn = [c.code for c in BO_DEAD[7:]]
    stock: list[str] = []
    for turn in range(4):
        stock += ann_drawn[3 * turn : 3 * turn + 3] + bo_drawn[3 * turn : 3 * turn + 3]
    stock += ["9H", "8D", "2H", "8S", "10H", "8H", "3H", "AH", "4H", "JH", "QH", "5H", "KH", "6H"]
    return {
        "players": list(PLAYERS),
        "dealer": PLAYERS[1],
        "turn": PLAYERS[0],
        "hands": {
            PLAYERS[0]: [c.code for c in ANN_DEAD[:6]] + ["8C"],
            PLAYERS[1]: [c.code for c in BO_DEAD[:7]],
        },
        "pile": ["7H"],
        "stock": stock,
    }


def stem() -> tuple[dict[str, Any], ...]:
    """The actions (as data for the action reader) that lead from :func:`deal_position` to the
    start of the loop: Ann turns the pile away with 8♣ and names hearts; neither holds a heart,
    so each draws three cards a turn until Ann holds her eighteen; Bo draws two and then 9♥,
    which he lays; then the hearts and eights go round once to where the loop begins."""
    ann, bo = PLAYERS
    actions: list[dict[str, Any]] = [
        {"action": "play", "player": ann, "cards": ["8C"], "suit": "H"}
    ]
    for seat in (ann, bo, ann, bo, ann, bo, ann):
        actions += [{"action": "draw", "player": seat}] * 3
        actions.append({"action": "pass", "player": seat})
    actions += [{"action": "draw", "player": bo}] * 3
    actions.append({"action": "play", "player": bo, "cards": ["9H"]})
    first = _phase("6H")[2:]
    for code, drawn in first:
        seat = ann if code in ("8D", "2H", "8H", "3H", "4H", "5H", "6H") else bo
        if drawn:
            actions.append({"action": "draw", "player": seat})
        play: dict[str, Any] = {"action": "play", "player": seat, "cards": [code]}
        if code.startswith("8"):
            play["suit"] = "H"
        actions.append(play)
    return tuple(actions)


@dataclass(frozen=True, slots=True)
class Step:
    """One action of the witness: who, what, the card laid or drawn, the suit named, the card
    the other player drew for an ace, and (when the action makes the stock again) the order
    the shuffle put it in, first drawn first."""

    player: int
    kind: int
    card: Card
    suit: Suit | None
    extra: Card | None
    rebuild: tuple[Card, ...] | None

    def data(self) -> dict[str, Any]:
        """The action as data for the action reader."""
        name = PLAYERS[self.player]
        if self.kind == DRAW:
            return {"action": "draw", "player": name}
        if self.kind == PASS:
            return {"action": "pass", "player": name}
        found: dict[str, Any] = {"action": "play", "player": name, "cards": [self.card.code]}
        if self.suit is not None:
            found["suit"] = self.suit.value
        return found


@dataclass(frozen=True, slots=True)
class Lasso:
    """The loop Z3 found: where it starts (the live cards' zones, the top card) and its steps."""

    zones: dict[Card, int]
    top: Card | None
    steps: tuple[Step, ...]


def _card_of(model: Model, term: Int) -> Card | None:
    index = model.int(term)
    return CARDS[index] if 0 <= index < len(CARDS) else None


def _lasso(model: Model, moments: Sequence[Moment], moves: Sequence[Move]) -> Lasso:
    zones = {CARDS[c]: model.int(z) for c, z in zip(LIVE, moments[0].zone, strict=True)}
    drawn: list[tuple[int, Card]] = []  # (step, card) of every card taken from the stock
    starts: list[int] = []

    def ace_draw(k: int) -> Card | None:
        """The card the other player drew for an ace laid at step ``k``, if any."""
        mv, card = moves[k], _card_of(model, moves[k].card)
        if model.int(mv.kind) != PLAY or card not in _ACE_CARDS:
            return None
        extra = _card_of(model, mv.extra)
        other = 1 - model.int(moments[k].turn)
        if extra is None or model.int(moments[k + 1].zone[LIVE.index(INDEX[extra])]) != other:
            return None
        return extra

    for k, mv in enumerate(moves):
        kind, card = model.int(mv.kind), _card_of(model, mv.card)
        empty = all(model.int(z) != STOCK for z in moments[k].zone)
        extra = ace_draw(k)
        taken = card if kind == DRAW else extra
        if taken is not None:
            if empty:
                starts.append(k)
            drawn.append((k, taken))
    orders = {
        k: tuple(c for j, c in drawn if j >= k and all(s <= k or s > j for s in starts))
        for k in starts
    }
    steps = []
    for k, mv in enumerate(moves):
        kind, card = model.int(mv.kind), _card_of(model, mv.card)
        assert card is not None
        suit = SUITS[model.int(mv.suit)] if kind == PLAY and card.rank is Rank.EIGHT else None
        steps.append(Step(model.int(moments[k].turn), kind, card, suit, ace_draw(k), orders.get(k)))
    return Lasso(zones, _card_of(model, moments[0].top), tuple(steps))


_ACE_CARDS = frozenset(CARDS[c] for c in ACES)


def find_lasso(weaken: frozenset[str]) -> tuple[Verdict, Lasso | None, tuple[str, ...], str]:
    """Search the template for a loop: Ann and Bo hold their dead cards, the stock is used up,
    Bo is to play, and the cards laid are :data:`LOOP_LAID`; Z3 chooses where the hearts and
    eights lie (pile or turned away, and the top card), the card that comes up on every draw
    (the shuffles' outcomes, the ace's draw included) and the suit named with every eight, and
    every step must be allowed by the rules. The verdict, the loop, an unsat core, and why a
    check gave no answer."""
    setting = Setting.of(ANN_DEAD, BO_DEAD)
    solver = Solver(timeout_ms=60_000)
    moments = [Moment.fresh(f"loop{k}") for k in range(LOOP + 1)]
    moves = [Move.fresh(f"act{k}") for k in range(LOOP)]
    solver.add(_well_formed(moments[0]) & _loop_template(moments[0], weaken))
    for k, kind in enumerate(LOOP_KINDS):
        one_step(
            solver, moments[k], moves[k], moments[k + 1], setting, weaken=weaken, kind=kind, clock=k
        )
    plays = (k for k, kind in enumerate(LOOP_KINDS) if kind == PLAY)
    for k, (code, _) in zip(plays, LOOP_LAID, strict=True):
        solver.add(moves[k].card.eq(INDEX[Card.parse(code)]))
    solver.add(_same(moments[0], moments[LOOP], weaken))
    verdict = solver.check()
    if verdict is Verdict.SAT:
        return verdict, _lasso(solver.model(), moments, moves), (), ""
    if verdict is Verdict.UNSAT:
        return verdict, None, solver.core(), ""
    return verdict, None, (), solver.reason_unknown()


@cache
def witness() -> tuple[Verdict, Lasso | None, tuple[str, ...], str]:
    """The unweakened search, made once per process (the theorem and its binding share it)."""
    return find_lasso(frozenset())


# --- one step against the engine ------------------------------------------------------------

Abstract = tuple[tuple[int, ...], int, int, int, int, int, int, bool]
"""A position as the encoding sees it: each live card's zone, the top card, the spelförare,
his draws, the restart, the named suit, the idle count, and whether the deal is over."""

_RESTARTS = {Restart.NONE: RESTART_NONE, Restart.ACE: RESTART_ACE, Restart.EIGHT: RESTART_EIGHT}


def abstract(state: State) -> Abstract:
    """The engine's ``state`` as the encoding sees it (two players, live cards anywhere, every
    other card in a hand)."""
    where: dict[Card, int] = {}
    for seat, hand in enumerate(state.hands):
        where.update(dict.fromkeys(hand, seat))
    where.update(dict.fromkeys(state.stock, STOCK))
    where.update(dict.fromkeys(state.pile, PILE))
    where.update(dict.fromkeys(state.turned, TURNED))
    return (
        tuple(where[CARDS[c]] for c in LIVE),
        INDEX[state.pile[-1]] if state.pile else NONE,
        state.turn,
        state.draws,
        _RESTARTS[state.restart],
        NONE if state.named_suit is None else SUITS.index(state.named_suit),
        state.idle,
        state.phase is not Phase.PLAY,
    )


def _pin(m: Moment, value: Abstract) -> Bool:
    zones, top, turn, draws, restart, named, idle, over = value
    return (
        _same_zones(m.zone, [Int.const(z) for z in zones])
        & m.top.eq(top)
        & m.turn.eq(turn)
        & m.draws.eq(draws)
        & m.restart.eq(restart)
        & m.named.eq(named)
        & m.idle.eq(idle)
        & m.over.eq(over)
    )


def _read(model: Model, m: Moment) -> Abstract:
    return (
        tuple(model.int(z) for z in m.zone),
        model.int(m.top),
        model.int(m.turn),
        model.int(m.draws),
        model.int(m.restart),
        model.int(m.named),
        model.int(m.idle),
        model.bool(m.over),
    )


def decide_step(
    state: State,
    kind: int,
    card: Card | None,
    *,
    suit: Suit | None = None,
    extra: Card | None = None,
    weaken: frozenset[str] = frozenset(),
) -> Abstract | None:
    """The encoding's ruling on one action in the engine's ``state``: ``None`` if it is not
    allowed, else the position after it. ``card`` is the card laid, or the card the draw brings
    up (``None``: any card that can come up); ``extra`` the card the other player draws for an
    ace."""
    live = {CARDS[c] for c in LIVE}
    setting = Setting(
        (
            tuple(INDEX[c] for c in state.hands[0] if c not in live),
            tuple(INDEX[c] for c in state.hands[1] if c not in live),
        )
    )
    with Solver.scratch(timeout_ms=10_000) as solver:
        before, after, move = Moment.fresh("before"), Moment.fresh("after"), Move.fresh("move")
        solver.add(_pin(before, abstract(state)))
        solver.add(move.kind.eq(kind) & move.suit.eq(NONE if suit is None else SUITS.index(suit)))
        if card is not None:
            solver.add(move.card.eq(INDEX[card]))
        if extra is not None:
            solver.add(move.extra.eq(INDEX[extra]))
        one_step(solver, before, move, after, setting, weaken=weaken, kind=kind)
        verdict = solver.check()
        if verdict is Verdict.UNKNOWN:
            raise TheoremError("Z3 gave no answer on one step of the endless-deal encoding")
        if verdict is Verdict.UNSAT:
            return None
        return _read(solver.model(), after)


def first_drawn_unshuffled(state: State, laid: Sequence[Card]) -> tuple[Card, ...]:
    """Under the weakening (the stock made again unshuffled): the live cards that may come up on
    a draw by the spelförare in ``state``, the cards outside the hands having been laid in the
    order ``laid`` (oldest first)."""
    weaken = frozenset({"VA-DRAW-STOCK-REBUILD"})
    setting = Setting(
        (
            tuple(INDEX[c] for c in state.hands[0] if INDEX[c] not in LIVE),
            tuple(INDEX[c] for c in state.hands[1] if INDEX[c] not in LIVE),
        )
    )
    found = []
    for c in LIVE:
        solver = Solver(timeout_ms=10_000)
        before, after, move = Moment.fresh("before"), Moment.fresh("after"), Move.fresh("move")
        solver.add(_pin(before, abstract(state)) & move.card.eq(c))
        for i, card in enumerate(CARDS[j] for j in LIVE):
            if card in laid:
                solver.add(before.age[i].eq(laid.index(card) - len(laid)))
        one_step(solver, before, move, after, setting, weaken=weaken, kind=DRAW)
        verdict = solver.check()
        if verdict is Verdict.UNKNOWN:
            raise TheoremError("Z3 gave no answer on a draw of the endless-deal encoding")
        if verdict is Verdict.SAT:
            found.append(CARDS[c])
    return tuple(found)
