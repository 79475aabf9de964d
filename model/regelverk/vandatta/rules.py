"""The rules' predicates: what may be laid on what, what may be drawn, calls and going out.

Every rule is a short function citing its clauses, reading a frozen
:class:`~regelverk.vandatta.state.State`. The functions that act work on a private
:class:`~regelverk.vandatta.table.Table`, a scratch copy that exists only inside one call of
``apply`` and is frozen into a new state before anyone sees it; they are in the rule topics
(:mod:`~regelverk.vandatta.talon`, :mod:`~regelverk.vandatta.drawing`,
:mod:`~regelverk.vandatta.playing`, …).
"""

from __future__ import annotations

from regelverk.cards import Card, Rank, Suit
from regelverk.marks import implements
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
    StartEight,
    StartEightNoChoice,
    TalonEmptyMidDraw,
    TalonPassCount,
    TurnedPile,
    VandattaOptions,
    VarningTrigger,
    VoluntaryDraw,
)
from regelverk.vandatta.prepared import Prepared, prepared
from regelverk.vandatta.state import Restart, State
from regelverk.vandatta.table import Table

__all__ = [
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
# as module constants, each named as the member (tests/test_naming.py): read off its enum class
# on Python 3.11 a member goes through EnumType.__getattr__, about ten times the cost of a
# module constant; binding them was among the measures that together took 12-22% off a step
# (bench/README.md, "Where the ratios stand"). They are the same objects.
WAIT = AbsentTurn.WAIT
ANY_CLEAR_WARNING = AcceptedCalls.ANY_CLEAR_WARNING
ORDINARY_ONLY = AceAgainScope.ORDINARY_ONLY
PER_ACE = AceBatchDraws.PER_ACE
ACE_SUIT = AceFollow.ACE_SUIT
ANY_LEGAL = AceFollow.ANY_LEGAL
ALLOWED = AceRule.ALLOWED
PILE_TURNED_SAME_PLAYER = AfterEight.PILE_TURNED_SAME_PLAYER
HAND_ONLY = CardCountScope.HAND_ONLY
EIGHT_MATCHING_ANY_CARD = EightMatching.ANY_CARD
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
RESTART_ACE = Restart.ACE
RESTART_NONE = Restart.NONE
ACE_NEEDS_FOLLOW = RestartFallback.ACE_NEEDS_FOLLOW
TREATED_AS_GOING_OUT = LastHandCardLocked.TREATED_AS_GOING_OUT
RESTART_FALLBACK_ANY_CARD = RestartFallback.ANY_CARD
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
    if options.eight_matching is EIGHT_MATCHING_ANY_CARD or top is None:
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
    if state.restart is RESTART_ACE and options.ace_follow is ANY_LEGAL:
        if options.ace_again_scope is ORDINARY_ONLY and card.rank in (ACE, EIGHT):
            return False
        return card.rank is EIGHT or ordinary_fits(options, card, state.pile[-1])
    if card.rank is EIGHT:
        return not (
            state.restart is RESTART_ACE
            and options.eight_on_own_ace is ONLY_WITHOUT_SUIT
            and any(
                c.suit is state.pile[-1].suit and c.rank is not EIGHT
                for c in state.hands[state.turn]
            )
        )
    if options.restart_fallback is RESTART_FALLBACK_ANY_CARD:
        return True
    required = state.pile[-1].suit if state.restart is RESTART_ACE else state.named_suit
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
    if state.restart is not RESTART_NONE:
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
    if state.restart is not RESTART_NONE and options.ace_follow is ACE_SUIT:
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
    if state.restart is not RESTART_NONE or state.free_lead:
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
    emptied = len(hand) == 1 and state.options.last_hand_card_locked is TREATED_AS_GOING_OUT
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
