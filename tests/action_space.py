"""Every well-formed action in a state, built without the engines' listing code, and the check
that the two action paths agree on it.

A client that builds its own actions goes through ``check`` only; random play and the referee
take what ``legal_actions`` lists. :func:`assert_paths_agree` holds the two to each other on
one state: every listed action passes ``check`` (and ``is_allowed``), every action of
:func:`action_space` that ``check`` accepts is listed (compared by equality), nothing is listed
twice, nothing listed falls outside the space, and applying a listed action object gives the
same outcome as applying an equal copy rebuilt through ``action_to_data`` and
``action_from_data`` (the copy goes through ``check``; the listed object may skip it, see
:class:`regelverk.engine.Listed`).

The spaces are derived from the action types of each family's ``state`` module and from the
cards in the state, never from ``legal_actions`` or the engines' private listing helpers.
What each space leaves out, and why that loses nothing ``check`` distinguishes, is said in the
docstring of its function; where the rules themselves leave an accepted action unlisted on
purpose, :func:`assert_paths_agree` says which (:func:`_unlisted_by_design`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from itertools import combinations, permutations, product
from typing import Any

from regelverk.cards import Card, Colour, Rank, Suit
from regelverk.engine import IllegalActionError, is_allowed
from regelverk.uno import state as uno
from regelverk.vandatta import state as va
from regelverk.vandatta.options import GoOutCall, LappenOmission, MultiCardPlay, VarningOmission
from regelverk.viggo import state as vg

__all__ = [
    "CHAIN_BOUND",
    "VIGGO_MOST_CARDS",
    "PathsOnEachState",
    "action_space",
    "assert_paths_agree",
    "uno_space",
    "vandatta_space",
    "viggo_space",
]

CHAIN_BOUND = 4
"""Under multi_card_play = chain, plays of cards of more than one rank are enumerated up to this
many cards (see :func:`vandatta_space`); longer chains are not enumerated (plays of one rank are,
whatever their length). Such chains are checked but never listed, by a rule of the listing
(:func:`_unlisted_by_design`), so the bound trims only work that could find no disagreement of
the listing: it bounds how much of ``check``'s judgement of chains is exercised."""

VIGGO_MOST_CARDS = 5
"""The most cards a Viggo combination has (a run of five); larger sets are no combination, and
``tests/test_conformance.py`` holds ``check`` to refusing them."""


def action_space(game: Any, state: Any) -> tuple[Any, ...]:
    """Every well-formed action of ``game``'s family in ``state`` (see the family functions)."""
    family = game.family
    if family == "vandatta":
        return vandatta_space(state)
    if family == "uno":
        return uno_space(state)
    if family == "viggo":
        return viggo_space(state)
    raise AssertionError(f"no action space for the family {family!r}")


# --- UNO ------------------------------------------------------------------------------------


def uno_space(state: uno.UnoState) -> tuple[uno.Action, ...]:
    """Every UNO action of every seat: each card of the seat's hand laid with each colour
    named or none, with and without the UNO call; draw, pass, challenge, a late UNO call,
    each colour named, and a catch of every seat (himself included).

    Cards the seat does not hold are left out: ``check`` refuses a card not in the hand before
    anything else about it, and the listing lays only held cards (a listed card outside the
    hand would fall outside this space and fail :func:`assert_paths_agree`)."""
    found: list[uno.Action] = []
    colours: tuple[Colour | None, ...] = (None, *Colour)
    for seat, name in enumerate(state.players):
        for card in dict.fromkeys(state.hands[seat]):
            for colour in colours:
                for call in (False, True):
                    found.append(uno.Play(player=name, card=card, colour=colour, uno=call))
        found += [
            uno.Draw(player=name),
            uno.Pass(player=name),
            uno.Challenge(player=name),
            uno.CallUno(player=name),
        ]
        found += [uno.NameColour(player=name, colour=c) for c in Colour]
        found += [uno.Catch(player=name, target=t) for t in state.players]
    return tuple(found)


# --- Viggo ----------------------------------------------------------------------------------


def viggo_space(state: vg.ViggoState) -> tuple[vg.ViggoAction, ...]:
    """Every Viggo action of the player to act (``player=None``, the form the listing uses),
    and a pass and a single card of every other seat named explicitly.

    Plays: every single card and every pair from the hand (whatever the ranks); every set of
    three or four cards of one rank; every five cards of five ranks in a row round the cycle of
    thirteen (2 3 … K A 2, which contains Viggo's 4 … 3 order and every wrapping run any
    option allows). A combination is a single, a pair, three or four of a kind or a run of
    five (VG-PLAY-COMBINATIONS): three, four or five cards of any other shape are no
    combination under any reading, so the sets left out are sets ``check`` refuses; larger sets
    than :data:`VIGGO_MOST_CARDS` likewise. The cards of a play are in hand order: a
    combination is a set of cards, ``check`` reads it without regard to order, and the listing
    lists each once (a run in the order of its ranks): :func:`assert_paths_agree` compares
    plays as sets of cards (the suite checks on a sample that another order is judged alike).

    Keeps: each card of the stock's top two, and a card of the hand (never drawn).
    """
    seat = state.turn
    hand = state.hands[seat]
    found: list[vg.ViggoAction] = [vg.Pass()]
    found += [vg.Play(cards=(card,)) for card in hand]
    found += [vg.Play(cards=pair) for pair in combinations(hand, 2)]
    for size in (3, 4):
        found += [
            vg.Play(cards=group)
            for group in combinations(hand, size)
            if len({c.rank for c in group}) == 1
        ]
    found += [vg.Play(cards=run) for run in _cyclic_runs(hand)]
    found += [vg.Keep(card=card) for card in dict.fromkeys(state.stock[:2])]
    if hand:
        found.append(vg.Keep(card=hand[0]))
    for other, name in enumerate(state.players):
        if other != seat:
            found.append(vg.Pass(player=name))
            if state.hands[other]:
                found.append(vg.Play(cards=state.hands[other][:1], player=name))
    return tuple(dict.fromkeys(found))


_CYCLE = tuple(Rank)
"""The thirteen ranks in their natural cycle (2 … A, then 2 again)."""


def _cyclic_runs(hand: tuple[Card, ...]) -> Iterator[tuple[Card, ...]]:
    """Every five cards of ``hand`` on five ranks in a row round :data:`_CYCLE`, in hand order."""
    for start in range(13):
        ranks = {_CYCLE[(start + i) % 13] for i in range(5)}
        by_rank = [[c for c in hand if c.rank is r] for r in ranks]
        if all(by_rank):
            for cards in product(*by_rank):
                yield tuple(c for c in hand if c in cards)


# --- Vändåtta -------------------------------------------------------------------------------


_SUITS: tuple[Suit | None, ...] = (None, *Suit)
_CALLS = (False, True)


def vandatta_space(state: va.State) -> tuple[va.Action, ...]:
    """Every move of play of the Vändåtta family (vvv8 and vandatta) in ``state``.

    The moves are those ``legal_actions`` promises to list: dealing, the leap day, naming the
    starting suit (every seat, every suit or none), plays, draws and passes (with and without
    the going-out call), stepping in or staying out (every seat), coming back (every seat; see
    :func:`_unlisted_by_design`), and the misdeal's returns (in full only during a misdeal, see
    :func:`_surplus_returns`), completion and new-deal demand. What else happens at a real vvv8
    table (stepping away, remarks, looking back, vetoes, catches of false calls, card counts,
    calls taken back, overdraws, joins) is attempted conduct that ``legal_actions`` documents
    as not listed, and is left out here. The ``word`` and ``leave`` fields of a move keep their
    defaults: they only change how a call is heard and what becomes of a wrong card, and the
    listing never sets them.

    Plays of the seat in turn: every card of the hand with every suit named or none, and every
    play of two or more cards, in every order, in which each card above the first is no eight
    and shares its suit or rank with the card beneath, or is an ace (the only card any reading
    lets go on a card of another suit and rank); under multi_card_play = same-rank-only every
    further card also has the first card's rank (V8-AMB-MULTI-CARD-CHAIN), and under chain plays
    of several ranks stop at :data:`CHAIN_BOUND` cards. Plays of eights only, every order, with
    every suit. A suit is named only with an eight first (``check`` refuses a suit named with
    any other first card, and refuses an eight without one, before it looks further), so those
    combinations are enumerated for single cards only. Seats not in turn: every single card
    (``check`` refuses a play out of turn before it reads the cards).
    """
    found: list[va.Action] = [va.Deal(), va.LeapDay()]
    seats = range(len(state.players))
    for seat in seats:
        found += [va.NameSuit(player=seat, suit=s) for s in _SUITS]
        found += [va.StepIn(player=seat), va.StayOut(player=seat), va.Back(player=seat)]
        found += [va.Complete(player=seat), va.Redeal(player=seat)]
        for call in _CALLS:
            found += [va.Draw(player=seat, call=call), va.Pass(player=seat, call=call)]
        found += _surplus_returns(state, seat)
        for card in dict.fromkeys(state.hands[seat]):
            for suit in _SUITS:
                found += [va.Play(player=seat, cards=(card,), suit=suit, call=c) for c in _CALLS]
    found += _groups(state)
    return tuple(dict.fromkeys(found))


def _surplus_returns(state: va.State, seat: int) -> list[va.Action]:
    """Returning a surplus: during a misdeal, every choice of cards, in hand order, from one
    card up to one more than the hand holds above its size (a return of the wrong count is for
    ``check`` to refuse); otherwise one return of one card.

    The rules let a player hand back a surplus only to put a misdeal right, before play starts
    (V8-MISDEAL-TOO-MANY-RETURN): in any other phase ``check`` refuses every return, whatever
    its cards, before it reads them ("there is no misdeal to put right"). A hand in play can
    outgrow the hand size by far (drawn and penalty cards), and the subsets of a hand of twenty
    are a million actions, all refused alike; the one return kept outside a misdeal still holds
    ``check`` to refusing them.
    """
    hand = state.hands[seat]
    if state.phase is not va.Phase.MISDEAL:
        return [va.ReturnSurplus(player=seat, cards=hand[:1])] if hand else []
    most = max(0, len(hand) - state.options.hand_size) + 1
    return [
        va.ReturnSurplus(player=seat, cards=cards)
        for size in range(1, min(most, len(hand)) + 1)
        for cards in dict.fromkeys(combinations(hand, size))
    ]


def _groups(state: va.State) -> list[va.Action]:
    """The plays of two or more cards of the seat in turn (see :func:`vandatta_space`)."""
    seat = state.turn
    if not 0 <= seat < len(state.hands):
        return []
    hand = state.hands[seat]
    same_rank = state.options.multi_card_play is MultiCardPlay.SAME_RANK_ONLY
    found: list[va.Action] = []
    for order in _sequences(hand, same_rank):
        for call in _CALLS:
            found.append(va.Play(player=seat, cards=order, call=call))
    eights = [c for c in hand if c.rank is Rank.EIGHT]
    for size in range(2, len(eights) + 1):
        for order in dict.fromkeys(permutations(eights, size)):
            for suit in Suit:
                for call in _CALLS:
                    found.append(va.Play(player=seat, cards=order, suit=suit, call=call))
    return found


def _sequences(hand: tuple[Card, ...], same_rank: bool) -> Iterator[tuple[Card, ...]]:
    """Every order of two or more cards of ``hand`` that :func:`vandatta_space` enumerates."""

    def follows(card: Card, beneath: Card, first: Card) -> bool:
        if card.rank is Rank.EIGHT:
            return False
        if same_rank:
            return card.rank is first.rank
        return card.suit is beneath.suit or card.rank is beneath.rank or card.rank is Rank.ACE

    def within_bound(order: list[int], card: Card) -> bool:
        return (
            same_rank or len(order) < CHAIN_BOUND or all(hand[i].rank is card.rank for i in order)
        )

    def extend(order: list[int]) -> Iterator[tuple[Card, ...]]:
        if len(order) >= 2:
            yield tuple(hand[i] for i in order)
        for i, card in enumerate(hand):
            if (
                i not in order
                and follows(card, hand[order[-1]], hand[order[0]])
                and within_bound(order, card)
            ):
                yield from extend([*order, i])

    seen: set[tuple[Card, ...]] = set()
    for start in range(len(hand)):
        for cards in extend([start]):
            if cards not in seen:
                seen.add(cards)
                yield cards


# --- the two paths --------------------------------------------------------------------------


def _unlisted_by_design(game: Any, state: Any, action: Any, listed: Sequence[Any]) -> str | None:
    """Why an action ``check`` accepts may go unlisted, where a rule of the listing says so:

    * Vändåtta's coming back (:class:`~regelverk.vandatta.state.Back`) is listed only while play
      waits for it (then it is all that is listed); otherwise it is table conduct, not listed.
    * Under multi_card_play = chain, plays of cards of more than one rank are checked but not
      listed (``legal_actions`` lists same-rank plays only: a chain's orders are too many).
    * Where vandatta's calls are the engine's to make (:func:`_engine_calls`), a move said with
      the call is listed without it: the call only confirms what the engine says anyway, and
      the two give the same state (asserted there).
    """
    if game.family != "vandatta":
        return None
    if _engine_calls(game, state, action, listed):
        return "the engine makes this vandatta call itself: the call only confirms it"
    if isinstance(action, va.Back) and not any(isinstance(a, va.Back) for a in listed):
        return "coming back is table conduct, listed only while play waits for it"
    if (
        isinstance(action, va.Play)
        and state.options.multi_card_play is MultiCardPlay.CHAIN
        and len({c.rank for c in action.cards}) > 1
    ):
        return "a chain of several ranks is checked, not listed"
    return None


def _engine_calls(game: Any, state: Any, action: Any, listed: Sequence[Any]) -> bool:
    """Whether ``action`` is a vandatta move said with a call that the engine makes itself
    (LAPPEN under lappen_omission = enforce-no-penalty and varning! but under varning_omission
    = three-cards), whose uncalled twin is listed and gives the same state."""
    options = state.options
    if (
        not isinstance(action, va.Play | va.Draw | va.Pass)
        or not action.call
        or options.go_out_call is not GoOutCall.LAPPEN
        or options.lappen_omission is not LappenOmission.ENFORCE_NO_PENALTY
        or options.varning_omission is VarningOmission.THREE_CARDS
    ):
        return False
    twin = dataclasses.replace(action, call=False)
    if twin not in listed:
        return False
    called, plain = game.apply(state, action), game.apply(state, twin)
    assert called.state == plain.state, f"{action!r} and {twin!r} differ: the call is no echo"
    return True


def _key(action: Any) -> Any:
    """What makes two actions the same action: the action itself, except that a Viggo play is
    its set of cards (one deck: no card twice), which is all ``check`` reads of it."""
    if isinstance(action, vg.Play):
        return (vg.Play, action.player, frozenset(action.cards))
    return action


def _memo(game: Any) -> Any:
    """The family's :class:`~regelverk.engine.Listed` record of its last listing."""
    if game.family == "vandatta":
        from regelverk.vandatta import listing

        return listing._LISTED
    if game.family == "uno":
        from regelverk.uno import rules

        return rules.LISTED
    from regelverk.viggo import play

    return play._LISTED


def _refusal(game: Any, state: Any, action: Any) -> str | None:
    try:
        game.check(state, action)
    except IllegalActionError as error:
        return str(error)
    return None


def assert_paths_agree(game: Any, state: Any, *, outcomes: bool = True) -> int:
    """Assert that ``check`` and ``legal_actions`` agree on ``state`` both ways (see the module
    docstring); ``outcomes``: also compare applying each listed object with an equal rebuilt
    copy. Returns the number of actions of the space judged."""
    listed = game.legal_actions(state)
    assert len(set(listed)) == len(listed), f"listed twice: {listed}"
    assert len({_key(a) for a in listed}) == len(listed), f"listed twice: {listed}"
    space = action_space(game, state)
    known = {_key(a) for a in space}
    for action in listed:
        assert _key(action) in known, f"{action!r} is listed but outside the action space"
        refused = _refusal(game, state, action)
        assert refused is None, f"{action!r} is listed but check refuses it: {refused}"
        assert is_allowed(game, state, action)
    offered = {_key(a) for a in listed}
    for action in space:
        if _key(action) in offered or _refusal(game, state, action) is not None:
            continue
        why = _unlisted_by_design(game, state, action, listed)
        assert why is not None, f"check accepts {action!r}, which legal_actions does not list"
    if outcomes:
        _assert_same_outcomes(game, state, listed)
    return len(space)


def _assert_same_outcomes(game: Any, state: Any, listed: Sequence[Any]) -> None:
    """Applying each listed object (unchecked, as listed) and an equal copy rebuilt from plain
    data (checked) gives equal states and events."""
    memo = _memo(game)
    for action in listed:
        rebuilt = game.action_from_data(game.action_to_data(action), state)
        assert rebuilt == action, f"{action!r} reads back as {rebuilt!r}"
        listed_object = action
        if not memo.listed(state, listed_object):
            relisted = game.legal_actions(state)
            listed_object = relisted[relisted.index(action)]
        assert memo.listed(state, listed_object)
        fast = game.apply(state, listed_object)
        slow = game.apply(state, dataclasses.replace(rebuilt))
        assert fast.state == slow.state, f"{action!r}: the listed and the rebuilt action differ"
        assert fast.events == slow.events, f"{action!r}: the events differ by path"


class PathsOnEachState:
    """A state machine's ``paths_agree`` invariant: :func:`assert_paths_agree` on each new state
    object it reaches (an unchanged state is not judged again), with ``outcomes`` off:
    comparing outcomes applies every listed action twice on every state, which would multiply
    the cost of each step, and tests/test_conformance.py already compares them on its walks.
    The listing-against-check comparison, the part that finds disagreements, runs in full.
    ``every``: judge only every so many new states (the first one judged), for a machine whose
    states can be dear to judge."""

    def __init__(self, game: Any, every: int = 1) -> None:
        self.game = game
        self.every = every
        self.last: Any = None
        self.reached = 0

    def __call__(self, state: Any) -> None:
        if state is None or state is self.last:
            return
        self.last = state
        self.reached += 1
        if (self.reached - 1) % self.every:
            return
        assert_paths_agree(self.game, state, outcomes=False)
