"""The rules of play: what may be laid on what, drawing, the talon, calls and going out.

Every rule is a short function citing its clauses. The functions that judge (``first_fits``,
``follow_fits``, ``may_draw``, …) read a frozen :class:`~regelverk.vandatta.state.State`; the
functions that act work on a private :class:`Table`, a scratch copy that exists only inside one
call of ``apply`` and is frozen into a new state before anyone sees it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from regelverk.cards import Card, Rank, Suit
from regelverk.engine import Event
from regelverk.marks import implements
from regelverk.records import builder, positional
from regelverk.registry import parameter
from regelverk.vandatta.options import (
    AbsentTurn,
    AcceptedCalls,
    AceAgainScope,
    AceBatchDraws,
    AceFollow,
    AceRule,
    AfterEight,
    CardCountScope,
    EightMatching,
    EightOnOwnAce,
    EightOrDraw,
    EightOwnSuit,
    EmptyStock,
    EndlessDeal,
    ExceptionBelow,
    GoOutCall,
    GoOutOn,
    GoOutWithoutLappen,
    LappenCondition,
    LastHandCardLocked,
    MultiCard,
    MultiCardPlay,
    OutBelowThree,
    RealChanceTest,
    RebuildReference,
    RestartFallback,
    Session,
    StartAceDraw,
    StartEight,
    StartEightNoChoice,
    StartEightPlace,
    TalonEmptyMidDraw,
    TalonPassCount,
    TurnedPile,
    VandattaOptions,
    VarningTrigger,
    VoluntaryDraw,
)
from regelverk.vandatta.prepared import Prepared, prepared
from regelverk.vandatta.state import PenaltySet, Phase, Record, Restart, State

__all__ = [
    "Table",
    "below_quorum",
    "call_heard",
    "can_draw_any",
    "card_count",
    "drawn_deal_clauses",
    "drawn_deal_passes",
    "draws_left",
    "first_fits",
    "fitting",
    "follow_fits",
    "goes_out",
    "has_play",
    "is_ace",
    "is_eight",
    "lappen_due",
    "last_card_barred",
    "next_seat",
    "plain_fits",
    "real_chance",
    "restart_possible",
    "too_few_to_go_out",
    "varning_due",
]

ACE, EIGHT = Rank.ACE, Rank.EIGHT

# The readings and the members of the state's enums that the rules below ask for, bound once
# as module constants: looked up on its enum class, a member costs a call of the class's
# attribute hook (EnumType.__getattr__) at every step.
WAIT = AbsentTurn.WAIT
ANY_CLEAR_WARNING = AcceptedCalls.ANY_CLEAR_WARNING
ORDINARY_ONLY = AceAgainScope.ORDINARY_ONLY
PER_ACE = AceBatchDraws.PER_ACE
ACE_SUIT = AceFollow.ACE_SUIT
ANY_LEGAL = AceFollow.ANY_LEGAL
ALLOWED = AceRule.ALLOWED
PILE_TURNED_SAME_PLAYER = AfterEight.PILE_TURNED_SAME_PLAYER
HAND_ONLY = CardCountScope.HAND_ONLY
EIGHT_ON_ANY_CARD = EightMatching.ANY_CARD
ONLY_WITHOUT_SUIT = EightOnOwnAce.ONLY_WITHOUT_SUIT
EIGHT_FIRST = EightOrDraw.EIGHT_FIRST
NAMED_OR_OWN = EightOwnSuit.NAMED_OR_OWN
NO_REBUILD = EmptyStock.NO_REBUILD
REBUILD_UNSHUFFLED = EmptyStock.REBUILD_UNSHUFFLED
DRAWN_AFTER_PASSES = EndlessDeal.DRAWN_AFTER_PASSES
SINGLE_CARD = ExceptionBelow.SINGLE_CARD
LAPPEN = GoOutCall.LAPPEN
WITH_OR_ONTO = GoOutOn.WITH_OR_ONTO
FIRST_EMPTY_WINS = GoOutWithoutLappen.FIRST_EMPTY_WINS
ANY_SINGLE_CARD = LappenCondition.ANY_SINGLE_CARD
TOP_RANK_ONLY = MultiCard.TOP_RANK_ONLY
CHAIN = MultiCardPlay.CHAIN
LENIENT = RealChanceTest.LENIENT
FRESH_START_CARD = RebuildReference.FRESH_START_CARD
ACE_RESTART = Restart.ACE
NO_RESTART = Restart.NONE
ACE_NEEDS_FOLLOW = RestartFallback.ACE_NEEDS_FOLLOW
LOCKED_GOING_OUT = LastHandCardLocked.TREATED_AS_GOING_OUT
FALLBACK_ANY_CARD = RestartFallback.ANY_CARD
COFFEE_BREAK = Session.COFFEE_BREAK
DEALER_NAMES_SUIT = StartEight.DEALER_NAMES_SUIT
ANY_SUIT = StartEightNoChoice.ANY_SUIT
REBUILD_AND_CONTINUE = TalonEmptyMidDraw.REBUILD_AND_CONTINUE
REBUILDS = TalonPassCount.REBUILDS
SET_ASIDE = TurnedPile.SET_ASIDE
UNDER_STOCK = TurnedPile.UNDER_STOCK
AT_OR_BELOW = VarningTrigger.AT_OR_BELOW
WHENEVER_EXACTLY = VarningTrigger.WHENEVER_EXACTLY
NEVER_OBLIGED = VoluntaryDraw.NEVER_OBLIGED

_DRAWN_AFTER = (
    parameter("V8-TALON-DRAWN-ONE-DECK", "talon_passes"),
    parameter("V8-TALON-DRAWN-TWO-DECKS", "talon_passes"),
)


@implements("V8-TALON-DRAWN-ONE-DECK", "V8-TALON-DRAWN-TWO-DECKS")
def drawn_deal_passes(options: VandattaOptions, decks: int) -> int:
    """The talon passes that draw a coffee-break deal: three with one deck, two with two (read
    from the spec), one more where only rebuilds count (talon_pass_count = rebuilds).

    >>> from regelverk.vandatta.options import VVV8
    >>> drawn_deal_passes(VVV8, 1), drawn_deal_passes(VVV8, 2)
    (3, 2)
    """
    limit = _DRAWN_AFTER[0 if decks == 1 else 1]
    if options.talon_pass_count is REBUILDS:
        limit += 1
    return limit


def drawn_deal_clauses(options: VandattaOptions) -> tuple[str, ...]:
    """The clauses a deal drawn after talon passes cites: vvv8's coffee-break limit, or, for a
    vandatta table under endless_deal = drawn-after-passes (VA-AMB-ENDLESS-DEAL), the rebuild
    whose repetition the limit stops."""
    if options.go_out_call is LAPPEN:
        return ("VA-DRAW-STOCK-REBUILD", "VA-TURN-PLAY-UNTIL-OUT")
    return (
        "V8-TALON-DRAWN-ONE-DECK",
        "V8-TALON-DRAWN-TWO-DECKS",
        "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK",
    )


def is_ace(card: Card) -> bool:
    """Whether the card is an ace."""
    return card.rank is ACE


def is_eight(card: Card) -> bool:
    """Whether the card is an eight."""
    return card.rank is EIGHT


# --- seats and turns ------------------------------------------------------------------------


@implements("V8-TURN-CLOCKWISE", "VA-TURN-CLOCKWISE", "V8-TURN-NEXT-BECOMES-SPELFORARE")
def next_seat(state_or_table: State | Table, seat: int) -> int:
    """The next seat clockwise (to the left) that takes part and is present (under
    absent_turn = wait, present or not: the table waits for him)."""
    count = len(state_or_table.players)
    out = state_or_table.record.out
    away = state_or_table.away
    if away and state_or_table.options.absent_turn is WAIT:
        away = frozenset()
    if state_or_table.benched:
        out = out | (state_or_table.benched - state_or_table.joining)
    for step in range(1, count + 1):
        candidate = (seat + step) % count
        if candidate not in out and candidate not in away:
            return candidate
    return seat


def seats_after(count: int, seat: int, skip: frozenset[int]) -> list[int]:
    """The other seats in clockwise order starting on ``seat``'s left, leaving out ``skip``."""
    return [(seat + k) % count for k in range(1, count) if (seat + k) % count not in skip]


# --- matching ---------------------------------------------------------------------------------


@implements("V8-EIGHT-ON-ANY-CARD", "VA-EIGHT-WHEN-STUCK", "VA-EIGHT-BY-CHOICE")
def eight_fits(options: VandattaOptions, card: Card, top: Card | None, named: Suit | None) -> bool:
    """An eight goes on any card, unless the table reads VA-AMB-EIGHT-MATCH as must-match."""
    if options.eight_matching is EIGHT_ON_ANY_CARD or top is None:
        return True
    if named is not None:
        return card.suit is named
    return card.suit is top.suit or top.rank is EIGHT


@implements("VA-ACE-SAME-SUIT")
def ace_fits(options: VandattaOptions, card: Card, top: Card) -> bool:
    """An ace by suit; on an ace of another suit only if ace_by_rank allows; elsewhere only if
    ace_off_suit allows (vvv8 lets aces match by rank like any card)."""
    if card.suit is top.suit:
        return True
    if top.rank is ACE:
        return options.ace_by_rank is ALLOWED
    return options.ace_off_suit is ALLOWED


@implements(
    "V8-PLAY-MATCH-SUIT",
    "V8-PLAY-MATCH-RANK",
    "V8-TURN-SAME-RULES-FOR-ALL",
    "VA-PLAY-MATCH-RANK-OR-SUIT",
    "VA-START-CARD-SETS-MATCH",
)
def ordinary_fits(options: VandattaOptions, card: Card, top: Card) -> bool:
    """A card fits the top card by suit or by rank (aces by :func:`ace_fits`)."""
    if card.rank is ACE:
        return ace_fits(options, card, top)
    return card.suit is top.suit or card.rank is top.rank


@implements("V8-EIGHT-SUIT-HOLDS-UNTIL-CHANGED", "VA-EIGHT-LEAD-NAMED-SUIT")
def named_fits(options: VandattaOptions, card: Card, top: Card | None, named: Suit) -> bool:
    """After an eight, the named suit binds (and the eight's own suit only if eight_own_suit
    reads named-or-own)."""
    if card.suit is named:
        return True
    return options.eight_own_suit is NAMED_OR_OWN and top is not None and card.suit is top.suit


@implements(
    "VA-ACE-FOLLOW-ACE-SUIT",
    "VA-ACE-SAME-PLAYER-AGAIN",
    "V8-ACE-SAME-PLAYER-AGAIN",
    "VA-EIGHT-BY-CHOICE",
)
def restart_fits(state: State, card: Card) -> bool:
    """The card laid in a renewed turn after one's own ace (or vandatta's eight); an eight by
    choice on one's own ace only without a card of its suit under eight_on_own_ace =
    only-without-suit (VA-AMB-EIGHT-ON-OWN-ACE)."""
    options = state.options
    if state.restart is ACE_RESTART and options.ace_follow is ANY_LEGAL:
        if options.ace_again_scope is ORDINARY_ONLY and card.rank in (ACE, EIGHT):
            return False
        return card.rank is EIGHT or ordinary_fits(options, card, state.pile[-1])
    if card.rank is EIGHT:
        return not (
            state.restart is ACE_RESTART
            and options.eight_on_own_ace is ONLY_WITHOUT_SUIT
            and any(
                c.suit is state.pile[-1].suit and c.rank is not EIGHT
                for c in state.hands[state.turn]
            )
        )
    if options.restart_fallback is FALLBACK_ANY_CARD:
        return True
    required = state.pile[-1].suit if state.restart is ACE_RESTART else state.named_suit
    return card.suit is required


@implements("V8-START-EIGHT-DEALER-NAMES-SUIT")
def open_start_eight(state: State) -> bool:
    """start_eight_no_choice = any-suit (V8-AMB-START-EIGHT-NO-CHOICE): the dealer named no suit
    on a start eight, so in förhand's first turn (nothing laid on the eight yet, no turn ended)
    any card fits the eight. Should förhand let his turn go without laying, the eight's own suit
    applies from the next player on, as under eight-suit."""
    return (
        state.options.start_eight_no_choice is ANY_SUIT
        and state.options.start_eight is DEALER_NAMES_SUIT
        and state.previous is None
        and state.named_suit is None
        and len(state.pile) == 1
        and state.pile[0].rank is EIGHT
    )


def first_fits(state: State, card: Card) -> bool:
    """Whether ``card`` may be the first (or only) card of a play now (a free lead, granted
    under after_three_draws = pass-free-lead, takes any card: :func:`free_lead_fits`)."""
    if state.restart is not NO_RESTART:
        return restart_fits(state, card)
    if state.free_lead:
        return free_lead_fits(state, card)
    if plain_fits(state.options, card, state.top, state.named_suit):
        return True
    return card.rank is not EIGHT and state.named_suit is None and open_start_eight(state)


def plain_fits(options: VandattaOptions, card: Card, top: Card | None, named: Suit | None) -> bool:
    """Whether ``card`` may begin a play on ``top`` with ``named`` named, in an ordinary turn:
    no restart, no free lead, and (for a card that is no eight) no open start eight
    (:func:`open_start_eight`). It reads only the options and the cards, so
    :meth:`~regelverk.vandatta.prepared.Prepared.fitting_faces` works it out once per face."""
    if card.rank is EIGHT:
        return eight_fits(options, card, top, named)
    if named is not None:
        return named_fits(options, card, top, named)
    return top is None or ordinary_fits(options, card, top)


@implements("VA-DRAW-PASS-AFTER-THREE")
def free_lead_fits(state: State, card: Card) -> bool:
    """VA-AMB-AFTER-THREE-DRAWS = pass-free-lead: the pile the last player could not follow
    after his three draws is dead, so the spelförare may start with any card, as on an empty
    pile with no suit named (the named suit, if any, no longer binds)."""
    del state, card
    return True


def restart_needed(state: State, card: Card) -> bool:
    """Whether laying ``card`` now makes its player restart on a required suit: an ace where
    ace_follow = ace-suit, an eight where after_eight = pile-turned-same-player."""
    options = state.options
    if card.rank is ACE:
        return options.ace_follow is ACE_SUIT
    if card.rank is EIGHT:
        return options.after_eight is PILE_TURNED_SAME_PLAYER
    return False


@implements("VA-TURN-RESTART-FALLBACK", "VA-ACE-FOLLOW-ACE-SUIT", "VA-EIGHT-LEAD-NAMED-SUIT")
def restart_possible(
    state: State, cards: tuple[Card, ...], suit: Suit | None, hand: tuple[Card, ...]
) -> bool:
    """VA-AMB-RESTART-WITHOUT-SUIT = ace-needs-follow: an ace (or an eight) that makes its
    player restart may be laid only if he keeps a card to restart with: after an ace one of
    the (last) ace's suit, after an eight one of the suit he names with it; another eight
    restarts too. ``hand`` is the hand the play is laid from. Under any other reading, and
    for plays that need no restart (or that go out), this is always true."""
    if state.options.restart_fallback is not ACE_NEEDS_FOLLOW or len(hand) == len(cards):
        return True
    if not any(is_ace(c) for c in cards) and not is_eight(cards[0]):
        return True
    last = cards[-1]
    if not restart_needed(state, last if is_ace(last) else cards[0]):
        return True
    required = last.suit if is_ace(last) else suit
    left = list(hand)
    for card in cards:
        left.remove(card)
    return any(c.rank is EIGHT or c.suit is required for c in left)


@implements(
    "V8-PLAY-SUIT-THEN-SAME-RANK",
    "V8-PLAY-RANK-THEN-SAME-RANK-FREE-ORDER",
    "V8-PEN-WRONG-CARD-EACH-FITS-BELOW",
    "V8-PLAY-EXCEPTION-SAME-RANK-AS-START",
    "VA-PLAY-SEVERAL-SAME-RANK",
    "VA-PLAY-RANK-CHANGES-SUIT",
)
def follow_fits(state: State, first: Card, card: Card, beneath: Card) -> bool:  # noqa: PLR0911
    """Whether ``card`` may go on ``beneath`` as a further card of a play begun with ``first``.

    Same-rank groups: under multi_card = top-rank-only every card has the top card's rank (so
    the first card was laid by rank); under first-card-rank every card has the first card's rank.
    Each must also fit the card directly beneath it (an ace on an ace only where aces match by
    rank). Under multi_card_play = chain any card that fits the one beneath may follow.
    """
    options = state.options
    if card.rank is EIGHT:
        return False
    if options.multi_card_play is CHAIN:
        return ordinary_fits(options, card, beneath)
    if card.rank is not first.rank:
        return False
    if options.multi_card is TOP_RANK_ONLY:
        top = state.top
        if top is None or state.named_suit is not None or top.rank is not first.rank:
            return False
    if state.restart is not NO_RESTART and options.ace_follow is ACE_SUIT:
        return False
    if (
        options.exception_below is SINGLE_CARD
        and len(state.pile) == 1
        and state.previous is None
        and first.rank is state.pile[0].rank
    ):
        return False
    return card.rank is not ACE or ordinary_fits(options, card, beneath)


# --- going out and calls ----------------------------------------------------------------------


@implements("V8-PEN-CARDS-COUNT-AS-HELD", "V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT")
def held(state: State, seat: int) -> int:
    """Every card a seat holds, hand and face-down penalty cards, and the extra cards he owes
    for a failed going out, to be taken as he hands the turn on: what going out must empty, so
    that he cannot go out in the turn he failed (V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT)."""
    penalties = state.penalties[seat]
    if not penalties:
        return len(state.hands[seat])
    return len(state.hands[seat]) + sum(len(p.cards) + p.owed for p in penalties)


def owed(state: State, seat: int) -> int:
    """The extra cards a seat owes for a failed going out, not yet taken
    (V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE)."""
    return sum(p.owed for p in state.penalties[seat])


@implements("V8-CALL-CARD-COUNT-ON-DEMAND", "V8-CALL-CARD-COUNT-ALL-HELD")
def card_count(state: State, seat: int) -> int:
    """The count a caller gives on demand: every card he holds, hand and face-down
    (card_count_scope = all-held), or only the cards in his hand (hand-only)."""
    if state.options.card_count_scope is HAND_ONLY:
        return len(state.hands[seat])
    return held(state, seat) - owed(state, seat)


CALL_WORDS = ("utgång", "varning", "lappen")
"""The going-out words the text names (V8-CALL-ALTERNATIVE-WORDS); ``utgang`` is accepted as
the ASCII spelling of the first."""


@implements("V8-CALL-ALTERNATIVE-WORDS")
def call_heard(options: VandattaOptions, word: str | None) -> bool:
    """Whether ``word``, said as the going-out call, counts as one (accepted_calls): the
    text's own word (``None``) always does; under listed-and-agreed the text's three words and
    the table's ``agreed_calls`` do (in any case), under any-clear-warning any word does.

    >>> from regelverk.vandatta.options import VVV8
    >>> call_heard(VVV8, None), call_heard(VVV8, "Varning!"), call_heard(VVV8, "last card!")
    (True, True, False)
    """
    if word is None or options.accepted_calls is ANY_CLEAR_WARNING:
        return True
    said = word.strip().strip("!.").strip().casefold()
    if said in (*CALL_WORDS, "utgang"):
        return True
    return said in {w.strip().strip("!.").strip().casefold() for w in options.agreed_calls}


@implements("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT", "VA-WIN-NOT-ON-ACE-OR-EIGHT")
def last_card_barred(options: VandattaOptions, cards: tuple[Card, ...], onto: Card | None) -> bool:
    """Nobody goes out on an ace or an eight (nor, under go_out_on = with-or-onto, onto one)."""
    if cards[-1].rank in (ACE, EIGHT):
        return True
    if options.go_out_on is WITH_OR_ONTO:
        beneath = cards[-2] if len(cards) > 1 else onto
        return beneath is not None and beneath.rank in (ACE, EIGHT)
    return False


@implements("V8-WIN-OUT-BELOW-THREE-ENDS-DEAL")
def too_few_to_go_out(state: State) -> bool:
    """Under out_below_three = held-back, whether a going out must wait: the deal began with
    enough active players for an official result and fewer are active now
    (V8-WIN-OUT-BELOW-THREE-ENDS-DEAL, V8-LOSS-OFFICIAL-NEEDS-THREE)."""
    options = state.options
    if options.out_below_three is not OutBelowThree.HELD_BACK:
        return False
    return below_quorum(state)


def below_quorum(state: State) -> bool:
    """Whether fewer players are active than an official result needs, in a deal that began
    with enough of them (V8-LOSS-OFFICIAL-NEEDS-THREE, V8-PRESENCE-ABSENT-NOT-ACTIVE)."""
    need = state.options.min_active_for_result
    if state.active_at_start < need or not (state.away or state.benched or state.record.out):
        return False
    absent = state.away | state.benched | state.record.out
    return len(state.players) - len(absent) < need


def goes_out(state: State, seat: int, count: int) -> bool:
    """Whether laying ``count`` cards leaves the seat holding nothing at all."""
    return held(state, seat) == count


@implements("V8-CALL-REQUIRED-TO-WIN", "VA-WIN-OUT-AFTER-LAPPEN", "V8-CALL-VALID-NEXT-TURN-ONLY")
def call_stands(state: State, seat: int) -> bool:
    """Whether the seat may go out as far as calls go (go_out_without_lappen)."""
    if state.options.go_out_without_lappen is FIRST_EMPTY_WINS:
        return True
    return seat in state.calls


@implements("V8-CALL-ONLY-WITH-REAL-CHANCE", "V8-CALL-NEVER-WITH-EIGHT", "V8-CALL-CHANCE-TEST")
def real_chance(options: VandattaOptions, cards: tuple[Card, ...]) -> bool:
    """Whether cards to be held next turn give a real chance of going out.

    one-turn-playable: no eight, at least one non-ace, all non-aces of one rank, and any aces
    able to lead into them by suit. lenient: no eight and not only aces.

    >>> from regelverk.cards import parse_cards
    >>> from regelverk.vandatta.options import VVV8
    >>> real_chance(VVV8, parse_cards("5H 5S")), real_chance(VVV8, parse_cards("5H 6H"))
    (True, False)
    >>> real_chance(VVV8, parse_cards("AH 5H")), real_chance(VVV8, parse_cards("5H 8C"))
    (True, False)
    """
    lenient = options.real_chance_test is LENIENT
    plain: Rank | None = None  # the rank of the non-aces, once one is seen
    for card in cards:
        if card.rank is EIGHT:
            return False
        if card.rank is ACE:
            continue
        if plain is None:
            plain = card.rank
        elif card.rank is not plain and not lenient:
            return False  # two ranks among the non-aces cannot all go in one turn
    if plain is None:
        return False  # no cards, or only aces
    if lenient:
        return True
    aces = [c for c in cards if c.rank is ACE]
    suits = {c.suit for c in cards if c.rank is not ACE}
    return not aces or any(a.suit in suits for a in aces)


@implements("VA-CALL-VARNING", "VA-CALL-VARNING-AGREED-COUNT")
def varning_due(options: VandattaOptions, before: int, after: int) -> bool:
    """Whether a hand that went from ``before`` to ``after`` cards owes 'varning!'
    (varning_trigger): exactly-after-own-turn, the agreed count as the turn ends; at-or-below,
    that count or fewer (but not none); whenever-exactly, the hand has just reached exactly
    that count, by laying or by drawing (it did not hold it before)."""
    warn = options.varning_cards
    if warn is None or options.go_out_call is not LAPPEN:
        return False
    trigger = options.varning_trigger
    if trigger is WHENEVER_EXACTLY:
        return after == warn and before != warn
    return after == warn or (trigger is AT_OR_BELOW and 0 < after <= warn)


@implements("VA-CALL-LAPPEN", "VA-CALL-LAPPEN-MANDATORY")
def lappen_due(options: VandattaOptions, hand: tuple[Card, ...]) -> bool:
    """LAPPEN is owed by a player left with one card he could go out on (lappen_condition)."""
    if options.go_out_call is not LAPPEN or len(hand) != 1:
        return False
    if options.lappen_condition is ANY_SINGLE_CARD:
        return True
    return hand[0].rank not in (ACE, EIGHT)


# --- drawing ----------------------------------------------------------------------------------


def draws_left(state: State) -> int:
    """Draws the spelförare may still make in this turn (V8-DRAW-MAX-THREE, VA-DRAW-MAX-THREE)."""
    return state.options.max_draws - state.draws


@implements("V8-TALON-REBUILD-DURING-ANY-DRAW", "VA-DRAW-STOCK-REBUILD")
def can_draw_any(state: State) -> bool:
    """Whether a card can be drawn: the stock has one, or a new stock can be made."""
    if state.stock:
        return True
    if state.options.empty_stock is NO_REBUILD:
        return False
    spare = state.turned if state.options.turned_pile is SET_ASIDE else ()
    return len(state.pile) > 1 or bool(spare)


def fitting(state: State, ready: Prepared | None = None) -> tuple[Card, ...]:
    """The cards of the spelförare's hand that may begin a play now (:func:`first_fits`), in
    the hand's order: what a turn's listing and :func:`has_play` both start from. In an
    ordinary turn the faces that fit are looked up (:func:`plain_fits`, worked out once per
    options object and card to play on); an open start eight lets every card fit. ``ready``:
    :func:`~regelverk.vandatta.prepared.prepared` for the state's options, if known already."""
    hand = state.hands[state.turn]
    if state.restart is not NO_RESTART or state.free_lead:
        return tuple([card for card in hand if first_fits(state, card)])
    named = state.named_suit
    pile = state.pile
    if named is None and len(pile) == 1 and open_start_eight(state):
        return hand  # every card fits the open eight (an eight fits any eight)
    judges = (plain_fits, eight_fits, named_fits, ordinary_fits, ace_fits)
    if ready is None:
        ready = prepared(state.options)
    faces = ready.fitting_faces(pile[-1] if pile else None, named, judges)
    return tuple([card for card in hand if id(card) in faces])


@implements("V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS")
def has_play(
    state: State,
    *,
    count_eights: bool = True,
    fits: tuple[Card, ...] | None = None,
    holding: int | None = None,
) -> bool:
    """Whether the spelförare can lay some card now (a single card suffices to tell).
    ``fits``: :func:`fitting` for this state, ``holding``: :func:`held` for the spelförare, if
    known already. A last hand card laid with penalty cards locked counts as going out under
    last_hand_card_locked = treated-as-going-out, so it too may not be an ace or an eight
    (V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS)."""
    seat = state.turn
    hand = state.hands[seat]
    alone = goes_out(state, seat, 1) if holding is None else holding == 1
    emptied = len(hand) == 1 and state.options.last_hand_card_locked is LOCKED_GOING_OUT
    # restart_possible for a card laid alone: an eight may name the suit of any card he keeps,
    # so only an ace can be barred, and only under restart_fallback = ace-needs-follow.
    aces_barred = state.options.restart_fallback is ACE_NEEDS_FOLLOW
    for card in hand if fits is None else fits:
        if card.rank is EIGHT and not count_eights:
            continue
        if fits is None and not first_fits(state, card):
            continue
        if alone and (
            last_card_barred(state.options, (card,), state.top)
            or not call_stands(state, seat)
            or too_few_to_go_out(state)
        ):
            continue
        if emptied and last_card_barred(state.options, (card,), state.top):
            continue
        if aces_barred and card.rank is ACE and not restart_possible(state, (card,), None, hand):
            continue
        return True
    return False


@implements("VA-DRAW-WHEN-STUCK", "VA-EIGHT-WHEN-STUCK", "V8-DRAW-NOT-OBLIGED-TO-PLAY")
def stuck(state: State, fits: tuple[Card, ...] | None = None, holding: int | None = None) -> bool:
    """Whether the spelförare counts as unable to lay (and so may draw, under vandatta).

    Under vvv8 (voluntary_draw = never-obliged) nobody is obliged to play, so this is always
    true; under vandatta a held eight counts as a playable card unless eight_or_draw = may-draw.
    ``fits``: :func:`fitting` for this state, ``holding``: :func:`held` for the spelförare, if
    known already.
    """
    if state.options.voluntary_draw is NEVER_OBLIGED:
        return True
    count_eights = state.options.eight_or_draw is EIGHT_FIRST
    return not has_play(state, count_eights=count_eights, fits=fits, holding=holding)


# --- the scratch table ------------------------------------------------------------------------


_STATE = positional(State)
"""Builds a :class:`State` from every field's value, in declaration order."""
_EVENT = builder(Event)
"""Builds an :class:`~regelverk.engine.Event` from kind, text, clauses, player and cards."""


@dataclass(slots=True)
class Table:
    """A mutable scratch copy of a state, private to one call of ``apply``.

    It is built from a frozen state, changed step by step while the action is carried out, and
    frozen into a new state by :meth:`freeze`; no table ever escapes ``apply``.
    """

    base: State
    options: VandattaOptions
    players: tuple[str, ...]
    hands: list[tuple[Card, ...]]
    penalties: list[tuple[PenaltySet, ...]]
    stock: list[Card]
    pile: list[Card]
    turned: list[Card]
    record: Record
    away: frozenset[int]
    benched: frozenset[int]
    joining: frozenset[int]
    short_deal: bool
    early: tuple[Card, ...]
    phase: Phase
    deal_number: int
    dealer: int | None
    named_suit: Suit | None
    turn: int
    draws: int
    restart: Restart
    free_lead: bool
    calls: frozenset[int]
    false_calls: frozenset[int]
    vetoed: frozenset[int]
    previous: int | None
    talon_passes: int
    shuffles: int
    idle: int
    active_at_start: int
    winner: int | None
    loser: int | None
    events: list[Event] = field(default_factory=list)
    drawn_deal: bool = False
    vetoable: tuple[int, tuple[Card, ...]] | None = None
    may_veto: frozenset[int] = frozenset()

    @classmethod
    def of(cls, state: State) -> Table:
        """A scratch copy of ``state``: every field stored in turn on a new table (quicker than
        passing them all to the constructor), the zones as lists, no events yet."""
        table = object.__new__(cls)
        table.base = state
        table.options = state.options
        table.players = state.players
        table.hands = list(state.hands)
        table.penalties = list(state.penalties)
        table.stock = list(state.stock)
        table.pile = list(state.pile)
        table.turned = list(state.turned)
        table.record = state.record
        table.away = state.away
        table.benched = state.benched
        table.joining = state.joining
        table.short_deal = state.short_deal
        table.early = state.early
        table.phase = state.phase
        table.deal_number = state.deal_number
        table.dealer = state.dealer
        table.named_suit = state.named_suit
        table.turn = state.turn
        table.draws = state.draws
        table.restart = state.restart
        table.free_lead = state.free_lead
        table.calls = state.calls
        table.false_calls = state.false_calls
        table.vetoed = state.vetoed
        table.previous = state.previous
        table.talon_passes = state.talon_passes
        table.shuffles = state.shuffles
        table.idle = state.idle
        table.active_at_start = state.active_at_start
        table.winner = state.winner
        table.loser = state.loser
        table.events = []
        table.drawn_deal = False
        table.vetoable = None
        table.may_veto = frozenset()
        return table

    def freeze(self) -> State:
        """The new frozen state (built by :data:`_STATE`, every field by position in declaration
        order: the fenced fast path of :func:`~regelverk.records.positional`)."""
        base = self.base
        return _STATE(
            self.options,
            self.players,
            base.seed,
            base.decks,
            self.phase,
            self.deal_number,
            self.dealer,
            tuple(self.hands),
            tuple(self.penalties),
            tuple(self.stock),
            tuple(self.pile),
            self.early,
            tuple(self.turned),
            self.named_suit,
            self.turn,
            self.draws,
            self.restart,
            self.free_lead,
            self.calls,
            self.false_calls,
            self.vetoed,
            self.away,
            self.benched,
            self.short_deal,
            self.joining,
            self.previous,
            self.talon_passes,
            self.shuffles,
            self.idle,
            self.active_at_start,
            self.winner,
            self.loser,
            self.record,
            self.vetoable,
            self.may_veto,
        )

    def name(self, seat: int) -> str:
        """A seat's player name."""
        return self.players[seat]

    def say(
        self,
        kind: str,
        text: str,
        clauses: tuple[str, ...],
        seat: int | None = None,
        cards: tuple[Card, ...] = (),
    ) -> None:
        """Record an event."""
        self.events.append(
            _EVENT(
                kind=kind,
                text=text,
                clauses=clauses,
                player=None if seat is None else self.players[seat],
                cards=tuple([c.code for c in cards]) if cards else (),
            )
        )

    def rng(self, purpose: str) -> random.Random:
        """A fresh random generator for one operation, seeded from the match seed."""
        self.shuffles += 1
        return random.Random(f"{self.base.seed}:{self.deal_number}:{purpose}:{self.shuffles}")

    def take_from_hand(self, seat: int, cards: tuple[Card, ...]) -> None:
        """Remove cards (a multiset) from a hand; the caller has checked they are there."""
        hand = list(self.hands[seat])
        for card in cards:
            hand.remove(card)
        self.hands[seat] = tuple(hand)

    # --- drawing ---

    @implements(
        "V8-TALON-REBUILD-TOP-ASIDE",
        "V8-TALON-REBUILD-UNSHUFFLED",
        "V8-TALON-REBUILD-REFERENCE-CARD",
        "VA-DRAW-STOCK-REBUILD",
    )
    def rebuild(self) -> bool:
        """Make a new stock from the played cards when the stock is empty; whether it worked."""
        rule = self.options.empty_stock
        if rule is NO_REBUILD:
            return False
        spare = self.turned if self.options.turned_pile is SET_ASIDE else []
        cards = [*spare, *self.pile[:-1]]
        if not cards:
            return False
        if self.options.turned_pile is SET_ASIDE:
            self.turned = []
        self.pile = self.pile[-1:]
        if rule is REBUILD_UNSHUFFLED:
            cards.reverse()
            self.stock = cards
            self.say(
                "rebuild",
                f"The talon is rebuilt from {len(cards)} played cards, unshuffled; the top card "
                "stays face up to play on",
                (
                    "V8-TALON-REBUILD-TOP-ASIDE",
                    "V8-TALON-REBUILD-UNSHUFFLED",
                    "V8-TALON-REBUILD-REFERENCE-CARD",
                    "V8-TALON-REBUILD-DURING-ANY-DRAW",
                ),
            )
        else:
            self.rng("reshuffle").shuffle(cards)
            self.stock = cards
            self.say(
                "rebuild",
                f"The stock is empty: {len(cards)} played cards are shuffled into a new stock",
                ("VA-DRAW-STOCK-REBUILD",),
            )
        if self.options.rebuild_reference is FRESH_START_CARD and self.pile:
            fresh_start_card(self)
        return True

    @implements(
        "V8-TALON-DRAWN-ONE-DECK", "V8-TALON-DRAWN-TWO-DECKS", "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK"
    )
    def count_pass(self) -> None:
        """The talon has run out: count a pass, and in a coffee break (or wherever endless_deal =
        drawn-after-passes, VA-AMB-ENDLESS-DEAL) draw the deal at the limit."""
        self.talon_passes += 1
        options = self.options
        limited = options.endless_deal is DRAWN_AFTER_PASSES or (
            options.talon_pass_limit and options.session is COFFEE_BREAK
        )
        if not limited:
            return
        if self.talon_passes >= drawn_deal_passes(options, self.base.decks):
            self.drawn_deal = True

    @implements("V8-TALON-REBUILD-DURING-ANY-DRAW")
    def draw_one(self, seat: int, *, own: bool = False) -> Card | None:
        """One card from the stock into a hand (rebuilding first if need be); None if none.

        ``own`` is a spelförare drawing for himself. Under talon_empty_mid_draw =
        draw-what-is-there (V8-AMB-TALON-EXHAUSTED-MIDDRAW) only such a draw rebuilds an empty
        talon; every other draw (penalties, draws for an ace) takes only what is left."""
        if not self.stock and not (self.may_rebuild(own=own) and self.rebuild()):
            return None
        if not self.stock:  # a fresh start ace's draws used the new stock up
            return None
        card = self.stock.pop()
        self.hands[seat] = (*self.hands[seat], card)
        if not self.stock:
            self.count_pass()
        return card

    def may_rebuild(self, *, own: bool) -> bool:
        """Whether this draw may rebuild an empty talon (talon_empty_mid_draw)."""
        return own or self.options.talon_empty_mid_draw is REBUILD_AND_CONTINUE

    def active(self) -> int:
        """Players taking part and present."""
        if not self.away and not self.benched and not self.record.out:
            return len(self.players)
        return sum(
            1
            for s in range(len(self.players))
            if s not in self.record.out and s not in self.away and s not in self.benched
        )

    @implements(
        "V8-ACE-OTHERS-DRAW-ONE",
        "V8-ACE-ABSENT-ALSO-DRAWS",
        "VA-ACE-OTHERS-DRAW",
        "V8-CALL-ACE-DRAW-NOT-SPELFORARE",
    )
    def ace_draws(self, seat: int, aces: int) -> None:
        """Every other player draws one card (per ace under ace_batch_draws = per-ace), in turn."""
        rounds = aces if self.options.ace_batch_draws is PER_ACE else 1
        others = seats_after(len(self.players), seat, self.record.out | self.benched)
        for _ in range(rounds):
            for other in others:
                if self.draw_one(other) is None or self.drawn_deal:
                    break
        clauses: tuple[str, ...] = (
            ("V8-ACE-OTHERS-DRAW-ONE", "V8-CALL-ACE-DRAW-NOT-SPELFORARE")
            if self.options.ace_follow is ANY_LEGAL
            else ("VA-ACE-OTHERS-DRAW",)
        )
        warn = self.options.varning_cards
        if self.options.go_out_call is LAPPEN and any(len(self.hands[o]) == warn for o in others):
            clauses += ("VA-CALL-VARNING",)  # a count varning_trigger may call varning at
        names = ", ".join(self.name(o) for o in others)
        each = f"{rounds} cards" if rounds > 1 else "one card"
        self.say("ace-draws", f"{names} each draw {each} for the ace", clauses, seat)
        if self.away:
            self.absent_ace_cards(others)

    @implements("V8-ACE-ABSENT-ALSO-DRAWS", "V8-ACE-NEXT-GIVES-ABSENT-CARD")
    def absent_ace_cards(self, others: list[int]) -> None:
        """An absent player's card for the ace is taken from the talon for him by the player
        whose draw follows his."""
        for index, other in enumerate(others):
            if other not in self.away:
                continue
            helper = next((o for o in others[index + 1 :] if o not in self.away), None)
            by = f", taken for him by {self.name(helper)}" if helper is not None else ""
            self.say(
                "absent-card",
                f"{self.name(other)} is away but gets his card for the ace{by}",
                ("V8-ACE-ABSENT-ALSO-DRAWS", "V8-ACE-NEXT-GIVES-ABSENT-CARD"),
                other,
            )

    @implements("VA-EIGHT-TURNS-PILE")
    def turn_pile_away(self) -> None:
        """vandatta: the pile, the eight on top, is turned away (set aside, or dead for the deal
        under turned_pile = out-of-deal; either way it lies in the ``turned`` zone). Under
        turned_pile = under-stock it is turned face down and put under the stock at once: the
        pile's top card, the eight, becomes the stock's bottom card."""
        if self.options.turned_pile is UNDER_STOCK:
            self.stock[:0] = reversed(self.pile)
        else:
            self.turned.extend(self.pile)
        self.pile = []

    def new_deal_fields(self) -> None:
        """Reset what belongs to one deal."""
        self.named_suit = None
        self.draws = 0
        self.restart = NO_RESTART
        self.free_lead = False
        self.calls = frozenset()
        self.false_calls = frozenset()
        self.vetoed = frozenset()
        self.previous = None
        self.talon_passes = 0
        self.idle = 0
        self.winner = None
        self.loser = None
        self.drawn_deal = False
        self.short_deal = False


@implements("VA-START-EIGHT-RETURNED", "VA-START-EIGHT-TURN-AGAIN")
def return_start_eight(table: Table) -> None:
    """vandatta: a start eight goes back into the stock and a new card is turned."""
    eight = table.pile.pop()
    place = table.options.start_eight_place
    if place is StartEightPlace.BOTTOM:
        table.stock.insert(0, eight)
    elif place is StartEightPlace.RESHUFFLE:
        table.stock.append(eight)
        table.rng("start-eight").shuffle(table.stock)
    else:
        table.stock.insert(table.rng("start-eight").randint(0, len(table.stock)), eight)
    table.pile.append(table.stock.pop())
    table.say(
        "start-eight",
        f"The start card {eight} is an eight: it goes back into the stock "
        f"({place.value}) and {table.pile[-1]} is turned instead",
        ("VA-START-EIGHT-RETURNED", "VA-START-EIGHT-TURN-AGAIN"),
        cards=(eight,),
    )


def viggo_plays(table: Table) -> bool:
    """Whether the person Viggo is at the table (option, or a player of that name)."""
    return table.options.viggo_present or any(p.casefold() == "viggo" for p in table.players)


@implements(
    "V8-TALON-REBUILD-REFERENCE-CARD",
    "V8-START-ACE-ALL-DRAW",
    "V8-START-ACE-ONLY-WITH-VIGGO",
    "V8-START-EIGHT-DEALER-NAMES-SUIT",
    "VA-START-EIGHT-RETURNED",
    "VA-START-ACE-ALL-DRAW",
)
def fresh_start_card(table: Table) -> None:
    """rebuild_reference = fresh-start-card (V8-AMB-REBUILD-REFERENCE-STATUS): the card kept face
    up at a rebuild counts as a new start card. A suit named on it no longer binds, nor does a
    free lead (after_three_draws = pass-free-lead): the spelförare plays on the new card. A start
    eight goes back into the new stock and another card is turned (start_eight =
    back-into-stock), or the dealer names a suit (dealer-names-suit): play waits for him as at
    the start of a deal, the spelförare keeping his turn, his draws and the draw in progress. A
    start ace makes every player draw one card, in turn from the spelförare (where
    start_ace_draw says so); the turn stays with the spelförare whatever start_ace says, since
    the deal is under way and nobody else is to play first."""
    options = table.options
    table.named_suit = None
    table.free_lead = False
    utgang = options.go_out_call is GoOutCall.UTGANG
    table.say(
        "fresh-start-card",
        f"The card kept face up, {table.pile[-1]}, counts as a new start card",
        ("V8-TALON-REBUILD-REFERENCE-CARD",) if utgang else ("VA-START-CARD-SETS-MATCH",),
        cards=(table.pile[-1],),
    )
    if options.start_eight is StartEight.BACK_INTO_STOCK:
        for _ in range(len(table.stock)):
            if not is_eight(table.pile[-1]):
                break
            return_start_eight(table=table)
    top = table.pile[-1]
    if is_eight(top):
        if options.start_eight is StartEight.DEALER_NAMES_SUIT and table.dealer is not None:
            table.phase = Phase.START_SUIT
            table.say(
                "start-eight",
                f"The new start card is an eight: {table.name(table.dealer)} may name the suit",
                ("V8-START-EIGHT-DEALER-NAMES-SUIT",),
                table.dealer,
            )
        return
    if not is_ace(top):
        return
    rule = options.start_ace_draw
    if rule is StartAceDraw.NEVER or (
        rule is StartAceDraw.ONLY_WITH_VIGGO and not viggo_plays(table)
    ):
        table.say(
            "start-ace",
            "The new start card is an ace, but Viggo is not playing: nobody draws",
            ("V8-START-ACE-ONLY-WITH-VIGGO",),
        )
        return
    first = table.turn
    skip = table.record.out | table.benched
    for seat in [first, *seats_after(len(table.players), first, skip)]:
        if table.draw_one(seat) is None or table.drawn_deal:
            break
    table.say(
        "start-ace",
        f"The new start card is an ace: every player draws one card, in turn from "
        f"{table.name(first)}",
        ("V8-START-ACE-ALL-DRAW", "V8-START-ACE-ONLY-WITH-VIGGO")
        if utgang
        else ("VA-START-ACE-ALL-DRAW",),
    )
