"""``legal_actions``: every action the rules allow now, built from the topics' rules and
checked against :func:`~regelverk.vandatta.checks.check` by the tests.
"""

from __future__ import annotations

from itertools import combinations, permutations

from regelverk.cards import Card, Suit
from regelverk.engine import Listed
from regelverk.marks import implements
from regelverk.records import builder
from regelverk.vandatta.calling import _call_fault
from regelverk.vandatta.checks import _error
from regelverk.vandatta.conduct import paused, waiting_for_absent
from regelverk.vandatta.drawing import _draw_fault, _may_pass
from regelverk.vandatta.options import GameEnd, SeveralEights
from regelverk.vandatta.playing import (
    _after,
    _ends_turn,
    _going_out_error,
    _group_error,
    _play_error,
    _restart_error,
    same_rank_error,
)
from regelverk.vandatta.prepared import Prepared, prepared
from regelverk.vandatta.rules import ACE, EIGHT, fitting, follow_fits, held, is_eight, stuck
from regelverk.vandatta.state import (
    Action,
    Back,
    Complete,
    Deal,
    Draw,
    LeapDay,
    NameSuit,
    Pass,
    Phase,
    Play,
    Redeal,
    ReturnSurplus,
    State,
    StayOut,
    StepIn,
)

__all__ = ["legal_actions"]

# The readings and state members these rules ask for, bound once (see rules.py).
LEAP_DAY = GameEnd.LEAP_DAY
DEAL_OVER = Phase.DEAL_OVER
MISDEAL = Phase.MISDEAL
PLAY = Phase.PLAY
READY = Phase.READY
START_ACE = Phase.START_ACE
START_SUIT = Phase.START_SUIT
TOGETHER = SeveralEights.TOGETHER
SUITS = tuple(Suit)
"""The four suits in order (an enum class is iterated through a generator each time)."""


_PLAY = builder(Play)
"""Builds a :class:`Play` from player, cards, suit, call, word and leave (the listing's plays)."""


_DRAW = builder(Draw)
"""Builds a :class:`Draw` from player, call and word."""


_PASS = builder(Pass)
"""Builds a :class:`Pass` from player, call and word."""


_LISTED: Listed[State, Action] = Listed()
"""The last listing, so that :func:`apply` need not judge again an action it lists."""


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every move of play the rules allow now, each with and without a call where allowed.

    What else happens at a real vvv8 table (stepping away, coming back, remarks, looking back,
    vetoes, utgång said on its own, a dealer slow over the suit) is not a move of play and is
    not listed, except that while play pauses for want of
    two active players, or waits for an absent spelförare (absent_turn = wait), coming back is
    the only thing that can happen.
    """
    return _LISTED.remember(state, _legal_actions(state))


def _legal_actions(state: State) -> tuple[Action, ...]:  # noqa: PLR0911
    phase = state.phase
    if phase is PLAY:
        if state.away and (paused(state) or waiting_for_absent(state)):
            return tuple(Back(player=s) for s in sorted(state.away))
        if state.turn in state.joining:
            return (StepIn(player=state.turn), StayOut(player=state.turn))
        return _turn_actions(state)
    if phase is MISDEAL:
        return _misdeal_actions(state)
    if phase in (READY, DEAL_OVER):
        if phase is DEAL_OVER and state.options.game_end is LEAP_DAY:
            return (Deal(), LeapDay())
        return (Deal(),)
    if phase is START_ACE:
        return (Draw(player=state.turn), Pass(player=state.turn))
    if phase is START_SUIT and state.dealer is not None:
        dealer = state.dealer
        return (
            *(NameSuit(player=dealer, suit=s) for s in Suit),
            NameSuit(player=dealer, suit=None),
        )
    return ()


def _misdeal_actions(state: State) -> tuple[Action, ...]:
    """Handing back a surplus (any choice of cards), the dealer's completion, a new deal."""
    found: list[Action] = []
    size = state.options.hand_size
    for seat, hand in enumerate(state.hands):
        if len(hand) > size:
            for cards in dict.fromkeys(combinations(hand, len(hand) - size)):
                found.append(ReturnSurplus(player=seat, cards=cards))
    if state.dealer is not None:
        found.append(Complete(player=state.dealer))
    found.extend(Redeal(player=s) for s in range(len(state.players)))
    return tuple(a for a in found if _error(state, a) is None)


def _turn_actions(state: State) -> tuple[Action, ...]:
    seat = state.turn
    ready = prepared(state.options)
    calls = ready.calls_listed
    fits = fitting(state, ready)
    if calls and ready.few_calls and not state.penalties[seat]:
        calls = _may_call_at_all(state.hands[seat])
    holding = held(state, seat)
    plays = _plays(state, fits, ready, holding)
    found: list[Action] = [] if calls else [*plays]
    eights: dict[tuple[Card, ...], bool] = {}  # an eight's call hangs on its cards, not its suit
    for play in plays if calls else ():
        found.append(play)
        if not calls or len(play.cards) == holding or not _ends_turn(state, play):
            continue  # no call: not left to the player, or the play goes out, or the turn goes on
        if play.suit is None:
            callable_now = _call_fault(state, _after(state, play), play.cards) is None
        elif play.cards in eights:
            callable_now = eights[play.cards]
        else:
            callable_now = _call_fault(state, _after(state, play), play.cards) is None
            eights[play.cards] = callable_now
        if callable_now:
            found.append(
                _PLAY(
                    player=seat, cards=play.cards, suit=play.suit, call=True, word=None, leave=False
                )
            )
    is_stuck = stuck(state, fits, holding)
    draw = _DRAW(player=seat, call=False, word=None)
    if _draw_fault(state, draw, is_stuck) is None:
        found.append(draw)
        if calls and _draw_fault(state, _DRAW(player=seat, call=True, word=None), is_stuck) is None:
            found.append(_DRAW(player=seat, call=True, word=None))
    if _may_pass(state, is_stuck):
        found.append(_PASS(player=seat, call=False, word=None))
        if calls and _call_fault(state, state.hands[seat]) is None:
            found.append(_PASS(player=seat, call=True, word=None))
    return tuple(found)


@implements("V8-CALL-ONLY-WITH-REAL-CHANCE", "V8-CALL-NEVER-WITH-EIGHT", "V8-CALL-CHANCE-TEST")
def _may_call_at_all(hand: tuple[Card, ...]) -> bool:
    """Where :attr:`~regelverk.vandatta.prepared.Prepared.few_calls` holds and the spelförare
    has no penalty cards: whether any play or pass of his could come with utgång. Every play
    lays one eight or cards of one rank, and a real chance needs no eight and the non-aces of
    one rank; so two eights, or three ranks besides aces and eights, leave no real chance after
    any play (:func:`~regelverk.vandatta.rules.real_chance` decides every other case)."""
    eights = 0
    ranks: list[object] = []
    for card in hand:
        rank = card.rank
        if rank is EIGHT:
            eights += 1
            if eights > 1:
                return False
        elif rank is not ACE and rank not in ranks:
            if len(ranks) == 2:
                return False
            ranks.append(rank)
    return True


def _plays(state: State, fits: tuple[Card, ...], ready: Prepared, holding: int) -> list[Play]:
    """Every play the spelförare may make, beginning with one of ``fits`` (:func:`fitting`);
    ``ready`` is :func:`~regelverk.vandatta.prepared.prepared` for the state's options and
    ``holding`` the cards the spelförare holds (:func:`~regelverk.vandatta.rules.held`).

    A one-card play of a card that fits, where the rules refuse no such play unless it goes out
    (:attr:`~regelverk.vandatta.prepared.Prepared.plain_singles`), is kept without asking; a
    play of several cards begins with a card that fits and names no suit, so of
    :func:`_play_error`'s checks only those of the cards above the first are asked."""
    seat = state.turn
    hand = state.hands[seat]
    plays: list[Play] = []
    twice = state.decks > 1
    plain = ready.plain_singles and holding != 1
    ranks = [card.rank for card in hand]
    grouped = False
    for first in _once_each(fits) if twice else fits:
        if first.rank is EIGHT:
            for suit in SUITS:
                play = _PLAY(
                    player=seat, cards=(first,), suit=suit, call=False, word=None, leave=False
                )
                if plain:
                    plays.append(play)
                else:
                    _keep_single(state, play, plays)
            if state.options.several_eights is TOGETHER:
                grouped = _eight_groups(state, first, hand, plays) or grouped
            continue
        if plain:
            plays.append(
                _PLAY(player=seat, cards=(first,), suit=None, call=False, word=None, leave=False)
            )
        else:
            _keep_single(
                state,
                _PLAY(player=seat, cards=(first,), suit=None, call=False, word=None, leave=False),
                plays,
            )
        rank = first.rank
        if ranks.count(rank) == 1:
            continue
        grouped = _rank_groups(state, first, hand, plays) or grouped
    # Two decks: the firsts and the tops are distinct faces, so only plays of several cards
    # can come twice (the same cards from two groups of equal faces).
    return list(dict.fromkeys(plays)) if twice and grouped else plays


def _rank_groups(state: State, first: Card, hand: tuple[Card, ...], plays: list[Play]) -> bool:
    """The plays of ``first`` (no eight) and further cards of its rank, in every order; whether
    there are further cards to go with it."""
    seat, twice = state.turn, state.decks > 1
    rest = [c for c in hand if c.rank is first.rank]
    rest.remove(first)
    mates = [c for c in rest if follow_fits(state, first, c, first)]
    for size in range(1, len(mates) + 1):
        groups = combinations(mates, size)
        for group in dict.fromkeys(groups) if twice else groups:
            for top in _once_each(group) if twice else group:
                middle = list(group)
                middle.remove(top)
                for below in _orders(middle, twice):
                    play = _PLAY(
                        player=seat,
                        cards=(first, *below, top),
                        suit=None,
                        call=False,
                        word=None,
                        leave=False,
                    )
                    _keep_group(state, play, plays)
    return bool(mates)


@implements("V8-PLAY-RANK-THEN-SAME-RANK-FREE-ORDER", "VA-PLAY-SEVERAL-SAME-RANK")
def _orders(middle: list[Card], twice: bool) -> tuple[tuple[Card, ...], ...]:
    """Every order of the cards between the first and the top card of a play of several: the
    cards go down in the order laid, so each order is a play of its own (``check`` accepts
    each that fits), listed once even where two decks give equal faces (``twice``)."""
    if len(middle) < 2:
        return (tuple(middle),)
    orders = permutations(middle)
    return tuple(dict.fromkeys(orders)) if twice else tuple(orders)


def _once_each(cards: tuple[Card, ...]) -> list[Card]:
    """The faces of ``cards`` in order, each once (a face is one object: no hashing needed)."""
    once: list[Card] = []
    for card in cards:
        if card not in once:
            once.append(card)
    return once


def _eight_groups(state: State, first: Card, hand: tuple[Card, ...], plays: list[Play]) -> bool:
    """Under several_eights = together: ``first`` and further eights in one play, in every
    order, each suit named; whether there are further eights to go with it."""
    rest = list(hand)
    rest.remove(first)
    mates = [c for c in rest if is_eight(c)]
    twice = state.decks > 1
    for size in range(1, len(mates) + 1):
        groups = combinations(mates, size)
        for group in dict.fromkeys(groups) if twice else groups:
            for top in dict.fromkeys(group) if twice else group:
                middle = list(group)
                middle.remove(top)
                for below in _orders(middle, twice):
                    for suit in SUITS:
                        play = Play(player=state.turn, cards=(first, *below, top), suit=suit)
                        _keep(state, play, plays)
    return bool(mates)


def _keep_single(state: State, play: Play, plays: list[Play]) -> None:
    """Keep a one-card play whose card :func:`first_fits` and whose suit is named exactly when
    the card is an eight: of :func:`_play_error`'s checks only going out and (under
    restart_fallback = ace-needs-follow) the card to restart with can still refuse it."""
    if _going_out_error(state, play) is None and _restart_error(state, play) is None:
        plays.append(play)


def _keep(state: State, play: Play, plays: list[Play]) -> None:
    if _play_error(state, play, from_hand=True) is None:
        plays.append(play)


def _keep_group(state: State, play: Play, plays: list[Play]) -> None:
    """Keep a play of several cards from the hand whose first card :func:`first_fits` and is no
    eight, naming no suit, without a call: :func:`_play_error` but for the checks of the first
    card (:func:`_first_error`), which it passes, and of the call, which it does not make."""
    if (
        _group_error(state, play) is None
        and same_rank_error(state, play) is None
        and _going_out_error(state, play) is None
        and _restart_error(state, play) is None
    ):
        plays.append(play)
