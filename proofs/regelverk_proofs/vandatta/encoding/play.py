"""The moves of play of the Vändåtta engine in Z3: which cards may be laid on what, drawing up
to the limit, passing, and the going-out call that goes with them.

The rules are written over card terms (rank and suit as integers, known or unknown), with the
options of the table as plain Python values (an option picks which rule is encoded, as it picks
which branch the engine takes). They mirror ``rules.first_fits``, ``rules.follow_fits``,
``rules.has_play``, ``rules.real_chance``, ``rules.lappen_due`` and the checks of
``adjudication`` (``_play_error``, ``_draw_error``, ``_pass_error``); the moves-of-play
bindings (:mod:`regelverk_proofs.vandatta.binding.cards`) decide the engine's candidate actions both
ways. Each rule can be tracked under the clause it
encodes (:class:`Rules` with a solver), which is how the scenarios of this module explain a
"no".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from regelverk.cards import Card, Rank, Suit
from regelverk.vandatta.options import (
    VANDATTA,
    VVV8,
    AceAgainScope,
    AceFollow,
    AceRule,
    AfterEight,
    AfterThreeDraws,
    DrawnCard,
    EightInHandWhen,
    EightMatching,
    EightOrDraw,
    EightOwnSuit,
    EmptyStock,
    ExceptionBelow,
    GoOutCall,
    GoOutOn,
    GoOutWithoutLappen,
    LappenCondition,
    LastHandCardLocked,
    MultiCard,
    MultiCardPlay,
    PlayAfterThirdDraw,
    RealChanceTest,
    RestartFallback,
    SeveralEights,
    StartEight,
    StartEightNoChoice,
    TurnedPile,
    VandattaOptions,
    VarningOmission,
    VarningTrigger,
    VoluntaryDraw,
)
from regelverk.vandatta.state import Draw, Pass, Play, Restart, State
from regelverk_proofs.query import Fact, Scenario, Situation
from regelverk_proofs.vandatta.text import call_heard
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Model,
    Solver,
    all_of,
    any_of,
    at_most_one,
    exactly_one,
    implies,
    ite_bool,
)

__all__ = [
    "NOT_ENCODED",
    "PLAY_SCENARIOS",
    "CardTerm",
    "Rules",
    "TableTerms",
    "allowed",
    "card_term",
    "table_terms",
]

SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
ACE, EIGHT = int(Rank.ACE), int(Rank.EIGHT)
RESTARTS = (Restart.NONE, Restart.ACE, Restart.EIGHT)


@dataclass(frozen=True, slots=True)
class CardTerm:
    """A card as two integers: the rank (2 to 14, the ace 14) and the suit (0 clubs to 3
    spades)."""

    rank: Int
    suit: Int

    def same(self, other: CardTerm) -> Bool:
        """The same face."""
        return self.rank.eq(other.rank) & self.suit.eq(other.suit)

    def is_ace(self) -> Bool:
        """An ace."""
        return self.rank.eq(ACE)

    def is_eight(self) -> Bool:
        """An eight."""
        return self.rank.eq(EIGHT)


def card_term(card: Card) -> CardTerm:
    """A known card."""
    return CardTerm(Int.const(int(card.rank)), Int.const(SUITS.index(card.suit)))


def unknown_card(name: str) -> CardTerm:
    """An unknown card (its range is asserted by :func:`card_range`)."""
    return CardTerm(Int.var(f"{name}.rank"), Int.var(f"{name}.suit"))


def card_range(card: CardTerm) -> Bool:
    """A rank 2 to 14 and one of the four suits."""
    return card.rank.between(2, ACE) & card.suit.between(0, 3)


def render_card(model: Model, card: CardTerm) -> str:
    """A card of a model in the project's notation (10♥)."""
    rank = model.int(card.rank)
    suit = model.int(card.suit)
    if not 2 <= rank <= ACE or not 0 <= suit <= 3:
        return "?"
    return str(Card(Rank(rank), SUITS[suit]))


@dataclass(frozen=True, slots=True)
class TableTerms:
    """What the moves of play look at, as terms: the top card (``None``: the pile is empty),
    the named suit (-1: none), the restart (0 none, 1 ace, 2 eight), whether this is the first
    play on the start card, draws made, cards held (hand and penalty cards), whether the seat's
    call stands, whether the stock has a card, whether a new stock could be made, the hand, the
    top of the stock, the face-down cards that join the hand as this turn ends, and the extra
    cards he owes for a failed going out this turn, to be taken as he hands the turn on."""

    top: CardTerm | None
    named: Int
    restart: Int
    on_start: Bool
    draws: Int
    held: Int
    call_stands: Bool
    stock: Bool
    rebuildable: Bool
    hand: tuple[CardTerm, ...]
    stock_top: CardTerm | None
    locked_soon: tuple[CardTerm, ...]
    owed: int = 0


def table_terms(state: State) -> TableTerms:
    """The terms of a known engine state, for the spelförare."""
    seat = state.turn
    options = state.options
    spare = state.turned if options.turned_pile is TurnedPile.SET_ASIDE else ()
    calls = (
        options.go_out_without_lappen is GoOutWithoutLappen.FIRST_EMPTY_WINS or seat in state.calls
    )
    return TableTerms(
        top=card_term(state.pile[-1]) if state.pile else None,
        named=Int.const(-1 if state.named_suit is None else SUITS.index(state.named_suit)),
        restart=Int.const(RESTARTS.index(state.restart)),
        on_start=Bool.const(len(state.pile) == 1 and state.previous is None),
        draws=Int.const(state.draws),
        held=Int.const(len(state.hands[seat]) + sum(len(p.cards) for p in state.penalties[seat])),
        owed=sum(p.owed for p in state.penalties[seat]),
        call_stands=Bool.const(calls),
        stock=Bool.const(bool(state.stock)),
        rebuildable=Bool.const(
            options.empty_stock is not EmptyStock.NO_REBUILD
            and (len(state.pile) > 1 or bool(spare))
        ),
        hand=tuple(card_term(c) for c in state.hands[seat]),
        stock_top=card_term(state.stock[-1]) if state.stock else None,
        locked_soon=tuple(
            card_term(c) for p in state.penalties[seat] if p.release_after <= 1 for c in p.cards
        ),
    )


NOT_ENCODED = (
    ("restart_fallback", RestartFallback.ACE_NEEDS_FOLLOW),
    ("several_eights", SeveralEights.TOGETHER),
    ("after_three_draws", AfterThreeDraws.PASS_FREE_LEAD),
)
"""Readings whose moves of play these rules do not encode (a card kept to restart with, eights
laid together, a free lead): :class:`Rules` refuses a table that holds one, so no binding can
compare them silently."""


def not_encoded(options: VandattaOptions) -> list[str]:
    """The readings of :data:`NOT_ENCODED` that ``options`` holds, as ``field = value``."""
    return [
        f"{name} = {value.value}" for name, value in NOT_ENCODED if getattr(options, name) is value
    ]


class Rules:
    """The rules of play for a table's options; with a solver, each rule is a named unknown
    defined under the clause it encodes (so a "no" lists the rules that forbid)."""

    def __init__(self, options: VandattaOptions, solver: Solver | None = None) -> None:
        refused = not_encoded(options)
        if refused:
            raise ValueError(f"the moves of play are not encoded under {', '.join(refused)}")
        self.options = options
        self.solver = solver
        self.utgang = options.go_out_call is GoOutCall.UTGANG
        self.count = 0

    def rule(self, term: Bool, v8: str, va: str) -> Bool:
        """``term``, defined under the clause of the table's rulebook when tracking."""
        if self.solver is None:
            return term
        self.count += 1
        name = Bool.var(f"rule.{self.count}.{v8 if self.utgang else va}")
        self.solver.add(name.eq(term), clause=v8 if self.utgang else va)
        return name

    # --- matching (rules.ordinary_fits, ace_fits, eight_fits, named_fits, restart_fits) ---

    def ordinary_fits(self, card: CardTerm, top: CardTerm) -> Bool:
        """By suit, or by rank; an ace by rank only onto an ace where ace_by_rank allows, onto
        another card where ace_off_suit allows (``rules.ordinary_fits``, ``rules.ace_fits``)."""
        o = self.options
        by_suit = self.rule(
            card.suit.eq(top.suit), "V8-PLAY-MATCH-SUIT", "VA-PLAY-MATCH-RANK-OR-SUIT"
        )
        plain = self.rule(
            ~card.is_ace() & card.rank.eq(top.rank),
            "V8-PLAY-MATCH-RANK",
            "VA-PLAY-MATCH-RANK-OR-SUIT",
        )
        ace_rank = ite_bool(
            top.is_ace(),
            Bool.const(o.ace_by_rank is AceRule.ALLOWED),
            Bool.const(o.ace_off_suit is AceRule.ALLOWED),
        )
        ace = self.rule(card.is_ace() & ace_rank, "V8-PLAY-MATCH-RANK", "VA-ACE-SAME-SUIT")
        return by_suit | plain | ace

    def eight_fits(self, card: CardTerm, top: CardTerm | None, named: Int) -> Bool:
        """An eight on any card, unless eight_matching = must-match."""
        if self.options.eight_matching is EightMatching.ANY_CARD or top is None:
            return self.rule(Bool.const(True), "V8-EIGHT-ON-ANY-CARD", "VA-EIGHT-BY-CHOICE")
        matched = ite_bool(named >= 0, card.suit.eq(named), card.suit.eq(top.suit) | top.is_eight())
        return self.rule(matched, "V8-EIGHT-ON-ANY-CARD", "VA-EIGHT-WHEN-STUCK")

    def named_fits(self, card: CardTerm, top: CardTerm | None, named: Int) -> Bool:
        """The named suit binds (and the eight's own suit under eight_own_suit)."""
        term = card.suit.eq(named)
        if self.options.eight_own_suit is EightOwnSuit.NAMED_OR_OWN and top is not None:
            term = term | card.suit.eq(top.suit)
        return self.rule(term, "V8-EIGHT-SUIT-HOLDS-UNTIL-CHANGED", "VA-EIGHT-LEAD-NAMED-SUIT")

    def restart_fits(self, table: TableTerms, card: CardTerm) -> Bool:
        """The card laid again after one's own ace (or vandatta's eight)."""
        o = self.options
        ace = table.restart.eq(1)
        if o.ace_follow is AceFollow.ANY_LEGAL and table.top is not None:
            barred = (
                card.is_ace() | card.is_eight()
                if o.ace_again_scope is AceAgainScope.ORDINARY_ONLY
                else Bool.const(False)
            )
            after_ace = ~barred & (card.is_eight() | self.ordinary_fits(card, table.top))
        else:
            after_ace = self._fallback(card, table.top.suit if table.top else None)
        after_eight = self._fallback(card, table.named)
        return self.rule(
            ite_bool(ace, after_ace, after_eight),
            "V8-ACE-SAME-PLAYER-AGAIN",
            "VA-ACE-FOLLOW-ACE-SUIT",
        )

    def _fallback(self, card: CardTerm, required: Int | None) -> Bool:
        if self.options.restart_fallback is RestartFallback.ANY_CARD:
            return Bool.const(True)
        if required is None:
            return card.is_eight()
        return card.is_eight() | card.suit.eq(required)

    def first_fits(self, table: TableTerms, card: CardTerm) -> Bool:
        """Whether ``card`` may be the first card of a play (``rules.first_fits``, with
        ``rules.open_start_eight`` under start_eight_no_choice = any-suit)."""
        top, named = table.top, table.named
        plain = Bool.const(True) if top is None else self.ordinary_fits(card, top)
        o = self.options
        if (
            top is not None
            and o.start_eight is StartEight.DEALER_NAMES_SUIT
            and o.start_eight_no_choice is StartEightNoChoice.ANY_SUIT
        ):
            # rules.open_start_eight: förhand's first play on a start eight, no suit named
            free = self.rule(
                table.on_start & top.is_eight() & (named < 0),
                "V8-START-EIGHT-DEALER-NAMES-SUIT",
                "V8-START-EIGHT-DEALER-NAMES-SUIT",
            )
            plain = free | plain
        fresh = ite_bool(
            card.is_eight(),
            self.eight_fits(card, top, named),
            ite_bool(named >= 0, self.named_fits(card, top, named), plain),
        )
        return ite_bool(table.restart.eq(0), fresh, self.restart_fits(table, card))

    # --- several cards (rules.follow_fits, playing._group_error) ---

    def follow_fits(
        self, table: TableTerms, first: CardTerm, card: CardTerm, beneath: CardTerm
    ) -> Bool:
        """Whether ``card`` may go on ``beneath`` in a play begun with ``first``."""
        o = self.options
        if o.multi_card_play is MultiCardPlay.CHAIN:
            return ~card.is_eight() & self.ordinary_fits(card, beneath)
        ok = ~card.is_eight() & card.rank.eq(first.rank)
        if o.multi_card is MultiCard.TOP_RANK_ONLY:
            top = table.top
            by_top = Bool.const(False) if top is None else top.rank.eq(first.rank)
            ok = ok & (table.named < 0) & by_top
        if o.ace_follow is AceFollow.ACE_SUIT:
            ok = ok & table.restart.eq(0)
        if o.exception_below is ExceptionBelow.SINGLE_CARD and table.top is not None:
            ok = ok & ~(table.on_start & first.rank.eq(table.top.rank))
        ace_ok = ~card.is_ace() | self.ordinary_fits(card, beneath)
        return self.rule(ok & ace_ok, "V8-PLAY-SUIT-THEN-SAME-RANK", "VA-PLAY-SEVERAL-SAME-RANK")

    def group_ok(self, table: TableTerms, cards: Sequence[CardTerm]) -> Bool:
        """Several cards: no eight among them, each fitting the one beneath."""
        if len(cards) == 1:
            return Bool.const(True)
        no_eight = self.rule(
            ~any_of(c.is_eight() for c in cards),
            "V8-EIGHT-ONE-PER-PLAY",
            "VA-PLAY-SEVERAL-SAME-RANK",
        )
        pairs = [self.follow_fits(table, cards[0], card, below) for below, card in pairwise(cards)]
        return no_eight & all_of(pairs)

    # --- going out and calls (rules.last_card_barred, real_chance, lappen_due) ---

    def barred(self, cards: Sequence[CardTerm], onto: CardTerm | None) -> Bool:
        """Going out on an ace or an eight (or onto one, under go_out_on = with-or-onto)."""
        last = cards[-1]
        term = last.is_ace() | last.is_eight()
        if self.options.go_out_on is GoOutOn.WITH_OR_ONTO:
            beneath = cards[-2] if len(cards) > 1 else onto
            if beneath is not None:
                term = term | beneath.is_ace() | beneath.is_eight()
        return self.rule(term, "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT", "VA-WIN-NOT-ON-ACE-OR-EIGHT")

    def real_chance(self, cards: Sequence[CardTerm]) -> Bool:
        """vvv8's test of a real chance of going out next turn."""
        if not cards:
            return Bool.const(False)
        no_eight = ~any_of(c.is_eight() for c in cards)
        some_plain = any_of(~c.is_ace() for c in cards)
        if self.options.real_chance_test is RealChanceTest.LENIENT:
            return no_eight & some_plain
        one_rank = all_of(
            implies(~a.is_ace() & ~b.is_ace(), a.rank.eq(b.rank))
            for i, a in enumerate(cards)
            for b in cards[i + 1 :]
        )
        aces_lead = ~any_of(c.is_ace() for c in cards) | any_of(
            a.is_ace() & ~b.is_ace() & a.suit.eq(b.suit) for a in cards for b in cards
        )
        return no_eight & some_plain & one_rank & aces_lead

    def lappen_due(self, cards: Sequence[CardTerm]) -> Bool:
        """vandatta's LAPPEN: one card left that one could go out on."""
        if self.options.go_out_call is not GoOutCall.LAPPEN or len(cards) != 1:
            return Bool.const(False)
        if self.options.lappen_condition is LappenCondition.ANY_SINGLE_CARD:
            return Bool.const(True)
        return ~cards[0].is_ace() & ~cards[0].is_eight()

    def varning_said(self, table: TableTerms, cards: Sequence[CardTerm]) -> Bool:
        """vandatta's varning said by the player himself (varning_omission = three-cards,
        VA-AMB-VARNING-FORGOTTEN): allowed where the turn leaves him the agreed count
        (varning_trigger, VA-AMB-VARNING-WHEN): exactly that many; at or below it, but not
        none; or exactly that many from another count."""
        o = self.options
        warn = o.varning_cards
        if self.utgang or warn is None or o.varning_omission is not VarningOmission.THREE_CARDS:
            return Bool.const(False)
        before, after = len(table.hand), len(cards)
        if o.varning_trigger is VarningTrigger.AT_OR_BELOW:
            due = 0 < after <= warn
        elif o.varning_trigger is VarningTrigger.WHENEVER_EXACTLY:
            due = after == warn and before != warn
        else:
            due = after == warn
        return self.rule(Bool.const(due), "VA-CALL-VARNING", "VA-CALL-VARNING")

    def goes_out(self, table: TableTerms, count: int) -> Bool:
        """Laying ``count`` cards leaves nothing held, and no extra cards are owed for a failed
        going out this turn (V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT)."""
        if not self.utgang:  # only vvv8 owes cards for a failed going out
            return table.held.eq(count)
        again = self.rule(
            Bool.const(not table.owed),
            "V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT",
            "V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT",
        )
        return table.held.eq(count) & again

    def call_ok(self, table: TableTerms, cards: Sequence[CardTerm]) -> Bool:
        """The call made as the turn ends, judged on the cards held next turn; one who owes the
        unknown extra cards of a failed going out has no real chance to call on."""
        if self.utgang:
            owes = self.rule(
                Bool.const(not table.owed),
                "V8-PEN-OUT-ON-EIGHT-OR-ACE-NO-CALL",
                "V8-PEN-OUT-ON-EIGHT-OR-ACE-NO-CALL",
            )
            return owes & self.real_chance((*cards, *table.locked_soon))
        return self.lappen_due(cards) | self.varning_said(table, cards)

    # --- the three moves ---

    def holds(self, hand: Sequence[CardTerm], cards: Sequence[CardTerm], tag: str) -> Bool:
        """The hand holds the cards as a multiset: each card is a different card of the hand."""
        pick = [
            [Bool.var(f"{tag}.pick.{i}.{j}") for j in range(len(hand))] for i in range(len(cards))
        ]
        facts = [exactly_one(row) for row in pick]
        facts += [at_most_one([pick[i][j] for i in range(len(cards))]) for j in range(len(hand))]
        facts += [
            implies(pick[i][j], cards[i].same(hand[j]))
            for i in range(len(cards))
            for j in range(len(hand))
        ]
        return all_of(facts)

    def play(
        self,
        table: TableTerms,
        cards: Sequence[CardTerm],
        *,
        named: bool,
        call: bool,
        rest: Sequence[CardTerm] = (),
        tag: str = "play",
    ) -> Bool:
        """A play of ``cards`` (a suit named with it or not; a call or not); ``rest``: the hand
        left after it (the cards the call is judged on)."""
        o = self.options
        first = cards[0]
        naming = first.is_eight() if named else ~first.is_eight()
        holds = self.holds(table.hand, cards, tag)
        fits = self.first_fits(table, first)
        group = self.group_ok(table, cards)
        goes = self.goes_out(table, len(cards))
        out_ok = ~goes | (~self.barred(cards, table.top) & table.call_stands & Bool.const(not call))
        if (
            o.last_hand_card_locked is LastHandCardLocked.TREATED_AS_GOING_OUT
            and len(table.hand) == len(cards)
            and not table.owed  # one who failed already this turn makes no second attempt
        ):
            # emptying the hand with face-down cards held is a going out attempt
            # (V8-AMB-EMPTY-HAND-WITH-PENALTY-CARDS, ``playing._emptied_hand_error``)
            out_ok = out_ok & self.rule(
                goes | ~self.barred(cards, table.top),
                "V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS",
                "V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS",
            )
        if call:
            if o.after_eight is AfterEight.TURN_PASSES:
                ends = first.is_eight() | ~any_of(c.is_ace() for c in cards)
            else:
                ends = ~first.is_eight() & ~any_of(c.is_ace() for c in cards)
            chance = self.call_ok(table, rest)
            if self.utgang and o.eight_in_hand_when is EightInHandWhen.AT_CALL:
                # the eight being played is still in hand as the word is said
                # (V8-AMB-EIGHT-IN-HAND-WHEN)
                chance = chance & self.rule(
                    ~any_of(c.is_eight() for c in cards),
                    "V8-CALL-NEVER-WITH-EIGHT",
                    "V8-CALL-NEVER-WITH-EIGHT",
                )
            call_ok = goes | (ends & chance)
        else:
            call_ok = Bool.const(True)
        return holds & naming & fits & group & out_ok & call_ok

    def draws_left(self, table: TableTerms) -> Int:
        """Draws the spelförare may still make."""
        return self.options.max_draws - table.draws

    def can_draw(self, table: TableTerms) -> Bool:
        """A card can be drawn: the stock has one, or a new one can be made."""
        return self.rule(
            table.stock | table.rebuildable,
            "V8-TALON-REBUILD-DURING-ANY-DRAW",
            "VA-DRAW-STOCK-REBUILD",
        )

    def has_play(self, table: TableTerms, *, count_eights: bool) -> Bool:
        """The spelförare can lay some single card (``rules.has_play``). A card that would go
        out may not be an ace or an eight, nor go out without the call; under
        last_hand_card_locked = treated-as-going-out neither may the hand's last card laid with
        face-down cards held, which is a going out attempt too
        (V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS), so such a card is no play."""
        alone = self.goes_out(table, 1)
        emptied = (
            len(table.hand) == 1
            and self.options.last_hand_card_locked is LastHandCardLocked.TREATED_AS_GOING_OUT
            and not table.owed
        )
        options = []
        for card in table.hand:
            ok = self.first_fits(table, card)
            if not count_eights:
                ok = ok & ~card.is_eight()
            barred = self.barred((card,), table.top)
            ok = ok & ~(alone & (barred | ~table.call_stands))
            if emptied:
                ok = ok & self.rule(
                    ~barred,
                    "V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS",
                    "V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS",
                )
            options.append(ok)
        return any_of(options)

    def stuck(self, table: TableTerms) -> Bool:
        """Free to draw: always under vvv8, and under vandatta only without a playable card."""
        o = self.options
        if o.voluntary_draw is VoluntaryDraw.NEVER_OBLIGED:
            return self.rule(Bool.const(True), "V8-DRAW-NOT-OBLIGED-TO-PLAY", "VA-DRAW-WHEN-STUCK")
        count = o.eight_or_draw is EightOrDraw.EIGHT_FIRST
        return self.rule(
            ~self.has_play(table, count_eights=count),
            "V8-DRAW-NOT-OBLIGED-TO-PLAY",
            "VA-DRAW-WHEN-STUCK",
        )

    def draw(self, table: TableTerms, *, call: bool) -> Bool:
        """A draw (``drawing._draw_error``)."""
        left = self.rule(self.draws_left(table) > 0, "V8-DRAW-MAX-THREE", "VA-DRAW-MAX-THREE")
        term = left & self.can_draw(table) & self.stuck(table)
        if call:
            ends = (
                Bool.const(
                    self.options.play_after_third_draw is PlayAfterThirdDraw.THIRD_DRAW_ENDS_TURN
                )
                & self.draws_left(table).eq(1)
                & table.stock
            )
            drawn = (*table.hand, table.stock_top) if table.stock_top else table.hand
            term = term & ends & self.call_ok(table, drawn)
        return term

    def may_pass(self, table: TableTerms) -> Bool:
        """The turn may pass without a card laid (``drawing._may_pass``)."""
        o = self.options
        done = (self.draws_left(table) <= 0) | ~self.can_draw(table)
        if o.voluntary_draw is VoluntaryDraw.ONLY_WHEN_STUCK:
            keep = Bool.const(o.drawn_card is DrawnCard.MAY_KEEP) & (table.draws > 0)
            return keep | (self.stuck(table) & done)
        return done

    def pass_(self, table: TableTerms, *, call: bool) -> Bool:
        """A pass (``drawing._pass_error``)."""
        term = self.rule(
            self.may_pass(table), "V8-TURN-PASS-AFTER-THREE-DRAWS", "VA-DRAW-PASS-AFTER-THREE"
        )
        if call:
            term = term & self.call_ok(table, table.hand)
        return term


def allowed(state: State, action: Play | Draw | Pass) -> Bool:
    """Whether the encoding allows a move of play by the spelförare's seat or another one, in
    a state whose deal is being played."""
    rules = Rules(state.options)
    table = table_terms(state)
    if action.player != state.turn:
        return Bool.const(False)
    if action.call and rules.utgang and not call_heard(state.options, action.word):
        # a word that is no call at this table: the move as made without one
        # (V8-AMB-CALL-WORDS, ``checks._heard``)
        action = dataclasses.replace(action, call=False, word=None)
    if isinstance(action, Draw):
        return rules.draw(table, call=action.call)
    if isinstance(action, Pass):
        return rules.pass_(table, call=action.call)
    if not action.cards:
        return Bool.const(False)
    rest = list(state.hands[action.player])
    for card in action.cards:
        if card in rest:
            rest.remove(card)
    return rules.play(
        table,
        [card_term(c) for c in action.cards],
        named=action.suit is not None,
        call=action.call,
        rest=[card_term(c) for c in rest],
    )


# --- scenarios --------------------------------------------------------------------------------


def _play_scenario(options: VandattaOptions, rulebook: str) -> Scenario:
    def build(solver: Solver) -> Situation:
        rules = Rules(options, solver)
        top, first, second = unknown_card("top"), unknown_card("first"), unknown_card("second")
        several = Bool.var("several")
        hand = (first, second, unknown_card("kept"))
        for card in (*hand, top):
            solver.add(card_range(card))
        table = TableTerms(
            top=top,
            named=Int.const(-1),
            restart=Int.const(0),
            on_start=Bool.const(False),
            draws=Int.const(0),
            held=Int.const(3),
            call_stands=Bool.const(False),
            stock=Bool.const(True),
            rebuildable=Bool.const(False),
            hand=hand,
            stock_top=None,
            locked_soon=(),
        )
        single = rules.first_fits(table, first)
        pair = single & rules.group_ok(table, (first, second))
        legal = Bool.var("legal")
        solver.add(legal.eq(ite_bool(several, pair, single)))

        def render(model: Model) -> str:
            laid = [render_card(model, first)]
            if model.bool(several):
                laid.append(render_card(model, second))
            verdict = "may" if model.bool(legal) else "may not"
            return (
                f"on {render_card(model, top)} the spelförare {verdict} lay {' then '.join(laid)}"
            )

        facts = (
            Fact("legal", "the play is allowed", legal),
            Fact("several", "two cards are laid in one play (else only the first)", several),
            Fact("top-rank", "rank of the top card (2-14, ace 14)", top.rank),
            Fact("top-suit", "suit of the top card (clubs 0 … spades 3)", top.suit),
            Fact("first-rank", "rank of the first card laid", first.rank),
            Fact("first-suit", "suit of the first card laid", first.suit),
            Fact("second-rank", "rank of the second card laid", second.rank),
            Fact("second-suit", "suit of the second card laid", second.suit),
            Fact("same-suit", "the first card has the top card's suit", first.suit.eq(top.suit)),
            Fact("same-rank", "the first card has the top card's rank", first.rank.eq(top.rank)),
            Fact(
                "pair-same-rank",
                "the two cards laid have the same rank",
                first.rank.eq(second.rank),
            ),
        )
        return Situation(facts=facts, render=render)

    return Scenario(
        name="play-on-top-card",
        rulebook=rulebook,
        description=(
            "The spelförare, holding three cards, lays one card or two on the top card (no "
            "suit named, no ace of his own to play on, not going out)."
        ),
        build=build,
        constants={
            "ace": ACE,
            "king": 13,
            "queen": 12,
            "jack": 11,
            "eight": EIGHT,
            "clubs": 0,
            "diamonds": 1,
            "hearts": 2,
            "spades": 3,
        },
    )


PLAY_SCENARIOS: tuple[Scenario, ...] = (
    _play_scenario(VVV8, "vvv8"),
    _play_scenario(VANDATTA, "vandatta"),
)
