"""A card-by-card Z3 encoding of an UNO table: every physical card's place, and the moves.

Each physical card ``c`` of the pack (108 or 112 cards, in the order of
:func:`regelverk.uno.rules.deck_for`) has one boolean per place ``z``: "card ``c`` lies in
``z``", where the places are the hands of seats ``0 .. n-1``, the draw pile and the discard
pile. Nothing in the encoding forces a card to be in exactly one place: that is what
``uno.card-conservation`` proves. The order of the piles is abstracted: the discard pile knows
its top card and the card under it (what the engine reads), the draw pile is a set.

The card moves are the engine's (:mod:`regelverk.uno.actions`), one function per move:

* :func:`lay` (UNO-PLAY-MATCH): a card of a hand goes on the discard pile as its top card.
* :func:`take` (UNO-DRAW-PILE-REBUILD, UNO-PILES-EXHAUSTED-NO-DRAW): a seat takes ``k`` cards;
  when the draw pile runs short, the discard pile below its top card (and below the card under
  a waiting Wild Draw Four) becomes the new draw pile; what cannot be drawn lapses.
* :func:`take_back` (UNO-WD4-CHALLENGE-SUCCESS, reading ``card-returns``): the top card goes
  back to a hand and the card under it is on top again.
* :func:`shuffle_hands` (UNO-SHUFFLE-HANDS-EFFECT): every card held is dealt out again, round
  the table (UNO-SHUFFLE-HANDS-DEAL-ORDER) or keeping each hand's size.
* :func:`deal` (UNO-DEAL-SEVEN, UNO-SETUP-DRAW-PILE), :func:`turn_up` (UNO-SETUP-DISCARD-PILE)
  and :func:`send_back` (UNO-FIRST-CARD-WD4-REDRAW): a new hand.

:mod:`regelverk_proofs.uno.binding.steps` composes them into the engine's actions (for the binding
``uno.card-moves``); :mod:`regelverk_proofs.uno.encoding.rules` encodes which actions are allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from regelverk.cards import Colour, UnoCard, UnoValue
from regelverk.uno.options import UnoOptions
from regelverk_proofs.theorem import Finding, Outcome
from regelverk_proofs.uno.text import HAND_SIZE, deck_for
from regelverk_proofs.z3api import (
    Bool,
    Int,
    all_of,
    any_of,
    at_most_one,
    exactly_one,
    implies,
    ite,
    sum_of,
)

__all__ = [
    "NO_ANSWER",
    "VALUES",
    "Table",
    "Taken",
    "broken_finding",
    "card_colour",
    "card_value",
    "colour_code",
    "deal",
    "every_table",
    "lay",
    "send_back",
    "shuffle_hands",
    "take",
    "take_back",
    "turn_up",
]

NO_ANSWER = "no answer"
"""How a case's description begins when Z3 gave no answer (a timeout, say)."""


def broken_finding(detail: str, cases: int) -> Finding:
    """A case that did not hold: unknown when Z3 gave no answer, else a counterexample."""
    unknown = detail.startswith(NO_ANSWER)
    return Finding(Outcome.UNKNOWN if unknown else Outcome.COUNTEREXAMPLE, detail, cases)


def every_table(
    case: Callable[[int, int, frozenset[str]], str | None],
    weaken: frozenset[str],
    proved: str,
    per_table: int = 1,
) -> Finding:
    """Decide ``case(players, deck, weaken)`` for 2 to 10 players and both packs, stopping at
    the first that does not hold (``case`` returns its description, else ``None``)."""
    cases = 0
    for deck in (108, 112):
        for n in range(2, 11):
            cases += per_table
            broken = case(n, deck, weaken)
            if broken is not None:
                return broken_finding(broken, cases)
    return Finding(Outcome.PROVED, proved, cases)


VALUES: tuple[UnoValue, ...] = tuple(UnoValue)
"""A card's value as a number: its index here (0-9 the numbers, then S, R, +2, W, W+4, WSH, WX)."""

_COLOURS: tuple[Colour, ...] = tuple(Colour)


def colour_code(colour: Colour | None) -> int:
    """0 for no colour (a wild card, or no colour in force), 1-4 for red, yellow, green, blue."""
    return 0 if colour is None else 1 + _COLOURS.index(colour)


def card_colour(card: UnoCard) -> int:
    """The printed colour of ``card`` as a number (0 for a wild card)."""
    return colour_code(card.colour)


def card_value(card: UnoCard) -> int:
    """The value of ``card`` as a number (see :data:`VALUES`)."""
    return VALUES.index(card.value)


@dataclass(frozen=True, slots=True)
class Table:
    """The places of the cards at one moment: ``at[c][z]`` for card ``c`` and place ``z``.

    Places ``0 .. n-1`` are the hands, ``n`` the draw pile, ``n + 1`` the discard pile.
    ``top[c]`` and ``under[c]`` say which discarded card is on top and which lies under it.
    """

    name: str
    deck: tuple[UnoCard, ...]
    n: int
    at: tuple[tuple[Bool, ...], ...]
    top: tuple[Bool, ...]
    under: tuple[Bool, ...]

    @classmethod
    def fresh(cls, name: str, options: UnoOptions, n: int) -> Table:
        """A table of unknowns called ``name``, for the pack the options choose."""
        return cls.of(name, deck_for(options), n)

    @classmethod
    def of(cls, name: str, deck: tuple[UnoCard, ...], n: int) -> Table:
        """A table of unknowns called ``name`` for the cards ``deck`` (the whole pack, or the
        cards one question is about).

        Unknowns are named terms, so a table asked for again is the same table: it is built
        once (creating the terms is most of the cost of a differential check).
        """
        return _table(name, deck, n)

    @classmethod
    def _build(cls, name: str, deck: tuple[UnoCard, ...], n: int) -> Table:
        at = tuple(
            tuple(Bool.var(f"{name}.at.{c}.{z}") for z in range(n + 2)) for c in range(len(deck))
        )
        top = tuple(Bool.var(f"{name}.top.{c}") for c in range(len(deck)))
        under = tuple(Bool.var(f"{name}.under.{c}") for c in range(len(deck)))
        return cls(name, deck, n, at, top, under)

    @property
    def pile(self) -> int:
        """The place number of the draw pile."""
        return self.n

    @property
    def discard(self) -> int:
        """The place number of the discard pile."""
        return self.n + 1

    @property
    def cards(self) -> range:
        """The card numbers."""
        return range(len(self.deck))

    def places(self) -> range:
        """The place numbers."""
        return range(self.n + 2)

    def in_hand(self, c: int, seat: Int) -> Bool:
        """Card ``c`` is in the hand of the (unknown) ``seat``."""
        return any_of(seat.eq(h) & self.at[c][h] for h in range(self.n))

    def held(self, c: int) -> Bool:
        """Card ``c`` is in some hand."""
        return any_of(self.at[c][h] for h in range(self.n))

    def count(self, place: int) -> Int:
        """How many cards lie in ``place``."""
        return sum_of(self.at[c][place] for c in self.cards)

    def hand_size(self, seat: Int) -> Int:
        """How many cards the (unknown) ``seat`` holds."""
        return sum_of(self.in_hand(c, seat) for c in self.cards)

    def top_colour(self) -> Int:
        """The printed colour of the top card (0 for a wild card)."""
        return sum_of(ite(self.top[c], card_colour(card), 0) for c, card in enumerate(self.deck))

    def top_value(self) -> Int:
        """The value of the top card."""
        return sum_of(ite(self.top[c], card_value(card), 0) for c, card in enumerate(self.deck))

    def under_colour(self) -> Int:
        """The printed colour of the card under the top card (0 when there is none)."""
        return sum_of(ite(self.under[c], card_colour(card), 0) for c, card in enumerate(self.deck))

    def ordered(self) -> Bool:
        """The order the discard pile keeps: one top card, at most one under it, both there."""
        cards = self.cards
        return all_of(
            [
                exactly_one(self.top),
                at_most_one(self.under),
                *(implies(self.top[c], self.at[c][self.discard]) for c in cards),
                *(implies(self.under[c], self.at[c][self.discard] & ~self.top[c]) for c in cards),
                implies(self.count(self.discard) >= 2, exactly_one(self.under)),
            ]
        )

    def locally_ordered(self) -> Bool:
        """The part of :meth:`ordered` each card keeps on its own: the top card and the card
        under it lie on the discard pile, and are not the same card."""
        return all_of(
            implies(self.top[c], self.at[c][self.discard])
            & implies(self.under[c], self.at[c][self.discard] & ~self.top[c])
            for c in self.cards
        )

    def lies_once(self, c: int) -> Bool:
        """Card ``c`` lies in exactly one place (in propositional form: in some place, and in
        no two)."""
        places = self.at[c]
        some = any_of(places)
        twice = any_of(places[i] & places[j] for i in range(len(places)) for j in range(i))
        return some & ~twice

    def conserved(self) -> Bool:
        """Every card lies in exactly one place."""
        return all_of(self.lies_once(c) for c in self.cards)

    def same(self, other: Table) -> Bool:
        """Every card lies where it lay, with the same top and under cards."""
        return all_of(
            [
                *(self.at[c][z].eq(other.at[c][z]) for c in self.cards for z in self.places()),
                *(self.top[c].eq(other.top[c]) for c in self.cards),
                *(self.under[c].eq(other.under[c]) for c in self.cards),
            ]
        )


@cache
def _table(name: str, deck: tuple[UnoCard, ...], n: int) -> Table:
    return Table._build(name, deck, n)


def _selector(name: str, table: Table) -> tuple[Bool, ...]:
    return tuple(Bool.var(f"{name}.{c}") for c in table.cards)


def lay(
    before: Table,
    after: Table,
    seat: Int,
    colour: Int,
    value: Int,
    *,
    weaken: frozenset[str] = frozenset(),
) -> Bool:
    """``seat`` lays a card of colour ``colour`` and value ``value`` (UNO-PLAY-MATCH): one
    physical card of that face leaves his hand and is the new top card; the old top card is
    under it.

    Weakening UNO-PLAY-MATCH keeps the laid card in the hand as well.
    """
    chosen = _selector(f"{after.name}.laid", before)
    rules = [exactly_one(chosen)]
    for c, card in enumerate(before.deck):
        face = colour.eq(card_colour(card)) & value.eq(card_value(card))
        rules.append(implies(chosen[c], before.in_hand(c, seat) & face))
        for z in after.places():
            if z == before.discard:
                rules.append(after.at[c][z].eq(before.at[c][z] | chosen[c]))
            elif z == before.pile or "UNO-PLAY-MATCH" in weaken:
                rules.append(after.at[c][z].eq(before.at[c][z]))
            else:
                rules.append(after.at[c][z].eq(before.at[c][z] & ~chosen[c]))
        rules.append(after.top[c].eq(chosen[c]))
        rules.append(after.under[c].eq(before.top[c]))
    return all_of(rules)


@dataclass(frozen=True, slots=True)
class Taken:
    """What a :func:`take` did: the relation, whether the draw pile was rebuilt, how many
    cards were drawn, and whether part of the draw lapsed."""

    rule: Bool
    rebuilt: Bool
    got: Int
    lapsed: Bool


def take(
    before: Table,
    after: Table,
    seat: Int,
    owed: Int,
    keep_under: Bool,
    *,
    weaken: frozenset[str] = frozenset(),
    counts: bool = True,
) -> Taken:
    """``seat`` takes ``owed`` cards (the engine's ``_take``).

    The draw pile is used first; if it holds fewer than ``owed`` cards, the discard pile below
    its top card (and below the card under it while a Wild Draw Four waits: ``keep_under``) is
    shuffled into a new draw pile (UNO-DRAW-PILE-REBUILD) and the drawing goes on; what still
    cannot be drawn lapses (UNO-PILES-EXHAUSTED-NO-DRAW).

    Weakening UNO-DRAW-PILE-REBUILD leaves the rebuilt cards in the discard pile as well.
    """
    pile, discard = before.pile, before.discard
    got = _selector(f"{after.name}.got", before)
    rest = tuple(
        before.at[c][discard] & ~before.top[c] & ~(keep_under & before.under[c])
        for c in before.cards
    )
    if counts:
        in_pile = before.count(pile)
        spare = sum_of(rest)
        rebuilt = (in_pile < owed) & (spare > 0)
        reachable = in_pile + ite(rebuilt, spare, 0)
        drawn = ite(reachable < owed, reachable, owed)
        rules = [sum_of(got).eq(drawn)]
    else:
        rebuilt = Bool.var(f"{after.name}.rebuilt")
        drawn = Int.var(f"{after.name}.drawn")
        rules = []
    for c in before.cards:
        moved = rebuilt & rest[c]
        rules.append(implies(got[c], before.at[c][pile] | moved))
        rules.append(implies(rebuilt & before.at[c][pile], got[c]))
        for z in after.places():
            if z == pile:
                rules.append(after.at[c][z].eq((before.at[c][z] | moved) & ~got[c]))
            elif z == discard:
                kept = before.at[c][z]
                if "UNO-DRAW-PILE-REBUILD" not in weaken:
                    kept = kept & ~moved
                rules.append(after.at[c][z].eq(kept))
            else:
                rules.append(after.at[c][z].eq(before.at[c][z] | (seat.eq(z) & got[c])))
        rules.append(after.top[c].eq(before.top[c]))
        rules.append(after.under[c].eq(before.under[c] & (~rebuilt | keep_under)))
    return Taken(all_of(rules), rebuilt, drawn, drawn < owed)


def take_back(before: Table, after: Table, seat: Int, weaken: frozenset[str] = frozenset()) -> Bool:
    """The top card goes back into ``seat``'s hand and the card under it is on top again
    (UNO-WD4-CHALLENGE-SUCCESS with reading ``card-returns``).

    Weakening UNO-WD4-CHALLENGE-SUCCESS leaves the card on the discard pile as well.
    """
    rules = []
    for c in before.cards:
        rules.append(implies(after.under[c], after.at[c][after.discard] & ~after.top[c]))
        for z in after.places():
            if z == before.discard:
                stays = before.at[c][z]
                if "UNO-WD4-CHALLENGE-SUCCESS" not in weaken:
                    stays = stays & ~before.top[c]
                rules.append(after.at[c][z].eq(stays))
            elif z == before.pile:
                rules.append(after.at[c][z].eq(before.at[c][z]))
            else:
                rules.append(after.at[c][z].eq(before.at[c][z] | (seat.eq(z) & before.top[c])))
        rules.append(after.top[c].eq(before.under[c]))
    return all_of(rules)


def shuffle_hands(
    before: Table,
    after: Table,
    seat: Int,
    round_the_table: bool,
    weaken: frozenset[str] = frozenset(),
    *,
    counts: bool = True,
) -> Bool:
    """Every card held is gathered and dealt out again from ``seat``'s left
    (UNO-SHUFFLE-HANDS-EFFECT): one at a time round the table, so the first players in that
    order get one more when the cards do not divide evenly (UNO-SHUFFLE-HANDS-DEAL-ORDER,
    UNO-SHUFFLE-HANDS-EXTRA-CARDS), or, by reading ``keep-counts``, as many as each held.

    Weakening UNO-SHUFFLE-HANDS-EFFECT leaves each card in its old hand as well.
    """
    n = before.n
    target = tuple(Int.var(f"{after.name}.dealt.{c}") for c in before.cards)
    total = sum_of(before.held(c) for c in before.cards)
    rules = []
    for c in before.cards:
        held = before.held(c)
        rules.append(target[c].between(0, n - 1))
        for z in after.places():
            if z >= n:
                rules.append(after.at[c][z].eq(before.at[c][z]))
                continue
            dealt = held & target[c].eq(z)
            if "UNO-SHUFFLE-HANDS-EFFECT" in weaken:
                dealt = dealt | before.at[c][z]
            rules.append(after.at[c][z].eq(dealt))
        rules.append(after.top[c].eq(before.top[c]))
        rules.append(after.under[c].eq(before.under[c]))
    for h in range(n if counts else 0):
        size = after.count(h)
        if round_the_table:
            place = (Int.const(h) - seat - 1).mod(n)  # h is the place-th dealt to
            rules.append(size * n <= total - place + n - 1)
            rules.append(total - place + n - 1 < size * n + n)
        else:
            rules.append(size.eq(before.count(h)))
    return all_of(rules)


def deal(
    before: Table, after: Table, weaken: frozenset[str] = frozenset(), *, counts: bool = True
) -> Bool:
    """A new hand: the whole pack is gathered, :data:`~regelverk.uno.rules.HAND_SIZE` cards go to
    each player (UNO-DEAL-SEVEN)
    and the rest is the draw pile (UNO-SETUP-DRAW-PILE); the discard pile is empty until a card
    is turned up.

    Weakening UNO-SETUP-DRAW-PILE no longer says which cards make the draw pile.
    """
    n = before.n
    target = tuple(Int.var(f"{after.name}.to.{c}") for c in before.cards)
    rules = []
    for c in before.cards:
        rules.append(target[c].between(-1, n - 1))
        for z in range(n):
            rules.append(after.at[c][z].eq(target[c].eq(z)))
        if "UNO-SETUP-DRAW-PILE" not in weaken:
            rules.append(after.at[c][before.pile].eq(target[c].eq(-1)))
        rules.append(~after.at[c][before.discard])
        rules.append(~after.top[c] & ~after.under[c])
    if counts:
        rules += [after.count(h).eq(HAND_SIZE) for h in range(n)]
    return all_of(rules)


def turn_up(
    before: Table, after: Table, allowed: Sequence[bool] | None = None
) -> tuple[Bool, tuple[Bool, ...]]:
    """A card of the draw pile is turned up on the discard pile (UNO-SETUP-DISCARD-PILE);
    ``allowed[c]`` says which cards may stay up (not a Wild Draw Four: see
    UNO-FIRST-CARD-WD4-REDRAW). Returns the relation and which card was turned."""
    turned = _selector(f"{after.name}.turned", before)
    rules = [exactly_one(turned)]
    for c in before.cards:
        rules.append(implies(turned[c], before.at[c][before.pile]))
        if allowed is not None and not allowed[c]:
            rules.append(~turned[c])
        for z in after.places():
            if z == before.pile:
                rules.append(after.at[c][z].eq(before.at[c][z] & ~turned[c]))
            elif z == before.discard:
                rules.append(after.at[c][z].eq(before.at[c][z] | turned[c]))
            else:
                rules.append(after.at[c][z].eq(before.at[c][z]))
        rules.append(after.top[c].eq(turned[c]))
        rules.append(after.under[c].eq(before.top[c]))
    return all_of(rules), turned


def send_back(before: Table, after: Table) -> Bool:
    """The turned-up card may not start the hand: it goes back into the draw pile, which is
    shuffled (UNO-FIRST-CARD-WD4-REDRAW)."""
    rules = []
    for c in before.cards:
        for z in after.places():
            if z == before.pile:
                rules.append(after.at[c][z].eq(before.at[c][z] | before.top[c]))
            elif z == before.discard:
                rules.append(after.at[c][z].eq(before.at[c][z] & ~before.top[c]))
            else:
                rules.append(after.at[c][z].eq(before.at[c][z]))
        rules.append(after.top[c].eq(before.under[c]))
        rules.append(~after.under[c])
    return all_of(rules)
