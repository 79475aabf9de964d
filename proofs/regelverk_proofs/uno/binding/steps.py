"""The engine's actions as sequences of the card moves of
:mod:`regelverk_proofs.uno.encoding.cards`, for the binding ``uno.card-moves``: does the engine's
next state lie where the moves allow?

An action that ends the hand is composed with the end of the game (no card moves) or with a new
deal (:func:`_new_hand`) by the seat :func:`next_dealer` names (UNO-DEAL-ROTATE), which must
be the engine's dealer after the step.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from regelverk.cards import UnoCard, UnoValue
from regelverk.uno.options import (
    ChallengeSuccessCard,
    ChallengeSuccessPenalty,
    FirstDrawTwoStacking,
    FirstShuffleHands,
    FirstWildDrawFour,
    LastCardDraw,
    NextDealer,
    ShuffleHandsDeal,
    ShuffleHandsLastCard,
    UnoOptions,
)
from regelverk.uno.state import (
    Action,
    CallUno,
    Catch,
    Challenge,
    Draw,
    NameColour,
    Pass,
    Phase,
    Play,
    UnoState,
)
from regelverk_proofs.uno.encoding.cards import (
    Table,
    deal,
    lay,
    shuffle_hands,
    take,
    take_back,
    turn_up,
)
from regelverk_proofs.uno.encoding.rules import failed_draw
from regelverk_proofs.uno.text import (
    CALL_PENALTY_DRAW,
    CHALLENGE_FAILED_DRAW,
    CHALLENGE_GUILTY_DRAW,
    DRAW_TWO_DRAW,
    FIRST_DRAW_TWO_DRAW,
    TURN_DRAW,
    WD4_DRAW,
    deck_for,
)
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Solver,
    Verdict,
    all_of,
    any_of,
    false,
    ite,
    ite_bool,
    sum_of,
)

__all__ = ["composable", "deal_allows", "fix_table", "moves_allow", "next_dealer", "winner"]

_V = UnoValue


@cache
def _copies(deck: tuple[UnoCard, ...]) -> tuple[tuple[UnoCard, tuple[int, ...]], ...]:
    """Each face of ``deck`` (in the order of their codes) with the positions of its copies."""
    faces = sorted(set(deck), key=lambda c: c.code)
    return tuple((face, tuple(c for c, card in enumerate(deck) if card == face)) for face in faces)


def fix_table(table: Table, state: UnoState) -> Bool:
    """The table holds the cards of ``state``: as many of each face in each place, and the
    top card (and the card under it) of the faces the discard pile shows."""
    zones = [Counter(zone) for zone in (*state.hands, state.draw_pile, state.discard)]
    rules = []
    for face, copies in _copies(table.deck):
        for z, zone in enumerate(zones):
            rules.append(sum_of(table.at[c][z] for c in copies).eq(zone[face]))
        rules.append(any_of(table.top[c] for c in copies).eq(state.top == face))
        if len(state.discard) >= 2:
            below = state.discard[-2] == face
            rules.append(any_of(table.under[c] for c in copies).eq(below))
    rules.append(table.ordered())
    return all_of(rules)


def pin_table(table: Table, state: UnoState) -> Bool:
    """The table is ``state`` with its copies of each face placed in a fixed order (the copies
    of a face are alike, so any placement will do for the place before a step)."""
    zones = [*state.hands, state.draw_pile, state.discard]
    free: dict[UnoCard, list[int]] = {}
    for c, card in enumerate(table.deck):
        free.setdefault(card, []).append(c)
    place: dict[int, int] = {}
    top = under = -1
    discard = len(zones) - 1
    for at in (len(state.discard) - 1, len(state.discard) - 2):
        if at >= 0:
            c = free[state.discard[at]].pop()
            place[c] = discard
            top, under = (c, under) if top < 0 else (top, c)
    for z, zone in enumerate(zones):
        cards = zone[:-2] if z == discard else zone
        for card in cards:
            place[free[card].pop()] = z
    rules = []
    for c in table.cards:
        rules += [table.at[c][z].eq(place.get(c) == z) for z in table.places()]
        rules += [table.top[c].eq(c == top), table.under[c].eq(c == under)]
    return all_of(rules)


def pinned(name: str, state: UnoState) -> Table:
    """The table of ``state`` as constants (no unknowns): :func:`pin_table`'s placement, with
    the copies of each face in a fixed order."""
    deck = deck_for(state.options)
    table = Table.of(name, deck, len(state.players))
    zones = [*state.hands, state.draw_pile, state.discard]
    free: dict[UnoCard, list[int]] = {}
    for c, card in enumerate(deck):
        free.setdefault(card, []).append(c)
    place: dict[int, int] = {}
    top = under = -1
    discard = len(zones) - 1
    for at in (len(state.discard) - 1, len(state.discard) - 2):
        if at >= 0:
            c = free[state.discard[at]].pop()
            place[c] = discard
            top, under = (c, under) if top < 0 else (top, c)
    for z, zone in enumerate(zones):
        for card in zone[:-2] if z == discard else zone:
            place[free[card].pop()] = z
    yes, no = Bool.const(True), Bool.const(False)
    return Table(
        name,
        deck,
        table.n,
        tuple(tuple(yes if place.get(c) == z else no for z in table.places()) for c in table.cards),
        tuple(yes if c == top else no for c in table.cards),
        tuple(yes if c == under else no for c in table.cards),
    )


def composable(before: UnoState, after: UnoState) -> bool:
    """Whether the step stays within one hand (no new deal, no end of the game); the others
    are composed with a new deal (:func:`moves_allow` covers both)."""
    return after.hand_number == before.hand_number and after.phase is not Phase.GAME_OVER


def _face(card: UnoCard) -> tuple[Int, Int]:
    from regelverk_proofs.uno.encoding.cards import card_colour, card_value

    return Int.const(card_colour(card)), Int.const(card_value(card))


def _relation(state: UnoState, action: Action, b: Table, a: Table) -> Bool:  # noqa: PLR0911
    options: UnoOptions = state.options
    n = len(state.players)
    seat = state.turn
    pending = state.phase is Phase.CHALLENGE
    if isinstance(action, Catch):
        target = state.players.index(action.target)
        return take(b, a, Int.const(target), Int.const(CALL_PENALTY_DRAW), Bool.const(pending)).rule
    if isinstance(action, Pass | NameColour | CallUno):
        return b.same(a)
    if isinstance(action, Draw):
        owed = {Phase.CHALLENGE: WD4_DRAW, Phase.STACK: state.pending_draw}.get(
            state.phase, TURN_DRAW
        )
        return take(b, a, Int.const(seat), Int.const(owed), Bool.const(pending)).rule
    if isinstance(action, Challenge):
        wd4 = state.wild_draw_four
        assert wd4 is not None
        mid = Table.of("mid", b.deck, n)
        six = options.challenge_success_penalty is ChallengeSuccessPenalty.GUILTY_DRAWS_SIX
        failed = Int.const(failed_draw(options))
        fails = take(b, a, Int.const(seat), failed, Bool.const(True)).rule
        returns = options.challenge_success_card is ChallengeSuccessCard.CARD_RETURNS
        guilty = Int.const(wd4.player)
        penalty = Int.const(CHALLENGE_FAILED_DRAW if six else CHALLENGE_GUILTY_DRAW)
        succeeds = take(b, mid if returns else a, guilty, penalty, Bool.const(True)).rule
        if returns:
            succeeds = succeeds & take_back(mid, a, guilty)
        return fails | succeeds
    if isinstance(action, Play):
        colour, value = _face(action.card)
        card = action.card.value
        if card is _V.DRAW_TWO:
            return _draw_two(state, b, a, colour, value)
        if card is _V.SHUFFLE_HANDS:
            mid = Table.of("mid", b.deck, n)
            round_the_table = options.shuffle_hands_deal is ShuffleHandsDeal.DEAL_ROUND
            dealt = shuffle_hands(mid, a, Int.const(seat), round_the_table)
            if options.shuffle_hands_last_card is ShuffleHandsLastCard.GOES_OUT:
                last = b.hand_size(Int.const(seat)).eq(1)
                dealt = ite_bool(last, mid.same(a), dealt)
            return lay(b, mid, Int.const(seat), colour, value) & dealt
        return lay(b, a, Int.const(seat), colour, value)
    return false()  # pragma: no cover - the Action union is closed


def _draw_two(state: UnoState, b: Table, a: Table, colour: Int, value: Int) -> Bool:
    """A Draw Two: the next player takes two (UNO-DRAW-TWO-EFFECT), or with stacking none yet
    (UNO-VARIANT-STACKING); laid as the last card, the owed total is still drawn by default
    (UNO-WIN-LAST-CARD-DRAW)."""
    options, n, seat = state.options, len(state.players), state.turn
    victim = Int.const((seat + state.direction) % n)
    mid = Table.of("mid", b.deck, n)
    laid = lay(b, mid, Int.const(seat), colour, value)
    last = b.hand_size(Int.const(seat)).eq(1)
    counted = options.last_card_draw is LastCardDraw.DRAW_AND_COUNT
    owed = Int.const(state.pending_draw + DRAW_TWO_DRAW)
    hit = take(mid, a, victim, owed, Bool.const(False)).rule
    if options.stack_draw_two:
        return laid & ite_bool(last, hit if counted else mid.same(a), mid.same(a))
    return laid & ite_bool(last, hit if counted else mid.same(a), hit)


def next_dealer(options: UnoOptions, n: int, previous: Int, won: int | None, dealer: Int) -> Bool:
    """Who deals the next hand (UNO-DEAL-ROTATE): the previous dealer's left-hand neighbour;
    by reading winner-deals of UNO-AMB-NEXT-DEALER the player who went out (after a void hand
    still the neighbour), by reading draw-again any seat."""
    left = ite((previous + 1).eq(n), 0, previous + 1)
    if options.next_dealer is NextDealer.DRAW_AGAIN:
        return dealer.between(0, n - 1)
    if options.next_dealer is NextDealer.WINNER_DEALS and won is not None:
        return dealer.eq(won)
    return dealer.eq(left)


def winner(before: UnoState, action: Action) -> int | None:
    """The seat that goes out in the step ``action`` from ``before``, if the hand ends with
    one (UNO-WIN-HAND-GO-OUT): one already without cards (its last card a Wild Draw Four
    waiting for an answer), or the seat in turn laying its last card; None for a void hand."""
    empty = [seat for seat, hand in enumerate(before.hands) if not hand]
    if empty:
        return empty[0]
    if isinstance(action, Play) and len(before.hands[before.turn]) == 1:
        return before.turn
    return None


def _new_hand(state: UnoState, after: UnoState, b: Table, a: Table) -> Bool:
    """A new hand (UNO-DEAL-SEVEN, UNO-SETUP-DISCARD-PILE) dealt by the engine's dealer after
    the step (:func:`moves_allow` holds him to :func:`next_dealer`), a card turned up that may
    start it (not a Wild Draw Four: UNO-FIRST-CARD-WD4-REDRAW), and what the first card does
    to the cards: a Draw Two makes the player on the dealer's left take two
    (UNO-FIRST-CARD-DRAW-TWO; with stacking and the reading may-pass-on of
    UNO-AMB-FIRST-DRAW-TWO-STACKING he only owes them); a Wild Draw Four read as the dealer's
    play (UNO-AMB-FIRST-WD4-AS-DEALER-PLAY) stays up and makes him take four; Shuffle Hands
    read as the dealer's play reshuffles the hands."""
    options, n = state.options, len(state.players)
    dealt, turned = Table.of("dealt", b.deck, n), Table.of("turned", b.deck, n)
    wd4_laid = options.first_wild_draw_four is FirstWildDrawFour.AS_DEALER_PLAY
    may_start = [
        (wd4_laid or c.value is not _V.WILD_DRAW_FOUR)
        and not (
            c.value in (_V.SHUFFLE_HANDS, _V.BLANK_WILD)
            and options.first_shuffle_hands is FirstShuffleHands.REDRAW
        )
        for c in b.deck
    ]
    up, which = turn_up(dealt, turned, may_start)
    dealer = Int.const(after.dealer)
    left = Int.const((after.dealer + 1) % n)
    draw_two = any_of(which[c] for c, card in enumerate(b.deck) if card.value is _V.DRAW_TWO)
    shuffle = any_of(which[c] for c, card in enumerate(b.deck) if card.value is _V.SHUFFLE_HANDS)
    passed_on = (
        options.stack_draw_two
        and options.first_draw_two_stacking is FirstDrawTwoStacking.MAY_PASS_ON
    )
    hit = take(turned, a, left, Int.const(FIRST_DRAW_TWO_DRAW), Bool.const(False)).rule
    effect = ite_bool(draw_two, turned.same(a) if passed_on else hit, turned.same(a))
    if wd4_laid:
        wd4 = any_of(which[c] for c, card in enumerate(b.deck) if card.value is _V.WILD_DRAW_FOUR)
        four = take(turned, a, left, Int.const(WD4_DRAW), Bool.const(False)).rule
        effect = ite_bool(wd4, four, effect)
    if options.first_shuffle_hands is FirstShuffleHands.AS_DEALER_PLAY:
        round_the_table = options.shuffle_hands_deal is ShuffleHandsDeal.DEAL_ROUND
        reshuffled = shuffle_hands(turned, a, dealer, round_the_table)
        effect = ite_bool(shuffle, reshuffled, effect)
    return deal(b, dealt) & up & effect


def moves_allow(before: UnoState, action: Action, after: UnoState) -> bool | None:
    """Whether the card moves of ``action`` can lead from ``before`` to ``after`` (None when
    Z3 gives no answer)."""
    deck = deck_for(before.options)
    n = len(before.players)
    b, a = pinned("before", before), Table.of("after", deck, n)
    with Solver.scratch(20_000) as solver:
        solver.add(fix_table(a, after))
        if composable(before, after) or after.phase is Phase.GAME_OVER:
            solver.add(_relation(before, action, b, a))
        else:
            ended = Table.of("ended", deck, n)
            solver.add(_relation(before, action, b, ended))
            won = winner(before, action)
            previous = Int.const(before.dealer)
            solver.add(next_dealer(before.options, n, previous, won, Int.const(after.dealer)))
            solver.add(_new_hand(before, after, ended, a))
        verdict = solver.check()
    return None if verdict is Verdict.UNKNOWN else verdict is Verdict.SAT


def deal_allows(after: UnoState) -> bool | None:
    """Whether a new hand (the whole pack gathered, dealt, the first card turned up and what it
    does to the cards) can lead to ``after``, a state just dealt (None when Z3 gives no
    answer)."""
    deck = deck_for(after.options)
    n = len(after.players)
    gathered = UnoState(
        options=after.options,
        players=after.players,
        dealer=after.dealer,
        hands=((),) * n,
        draw_pile=deck,
        discard=(),
        colour=None,
        turn=after.turn,
        scores=after.scores,
    )
    b, a = pinned("before", gathered), Table.of("after", deck, n)
    with Solver.scratch(20_000) as solver:
        solver.add(fix_table(a, after))
        solver.add(_new_hand(gathered, after, b, a))
        verdict = solver.check()
    return None if verdict is Verdict.UNKNOWN else verdict is Verdict.SAT
