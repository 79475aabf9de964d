"""PRIVATE, UNCHECKED: one random UNO hand on integer-coded cards, for the benchmark only.

Nothing here is part of the API and nothing here is a referee: :func:`_random_hand_fast` checks
no action, builds no state after the deal and no event, cites no clause, and trusts its own move
generation completely. Use :meth:`regelverk.uno.GAME.apply <regelverk.uno.UnoGame.apply>` for
anything a person relies on (python-chess users were burnt by a public unchecked ``push``; this
is why the only entry point has a leading underscore).

What it promises, and what ``tests/test_uno_fast.py`` asserts over many seeds, player counts,
both decks, stacking on and off and every other option: driven by a :class:`random.Random` in
the same state, it plays exactly the first hand that the public API plays from
``GAME.deal(options, players, seed)`` when each step takes :func:`_keen_choice` of
``GAME.legal_actions`` (the same cards laid and drawn, the same shuffles, the same winner, the
same points and the same number of actions). That holds because it counts the legal actions in
the public order and draws the same ``rng.randrange(count)`` that ``rng.choice`` draws.

The policy is the benchmark's ``keen`` player: lay a card whenever one fits (uniformly among the
plays :func:`~regelverk.uno.rules.legal_actions` lists: one per distinct card, per colour a wild
card may name, with and without the UNO call on the next-to-last card), otherwise take uniformly
any other legal action except a catch (draw, challenge or not, name a colour, a late UNO call).

Cards are the numbers of :func:`~regelverk.uno.rules.card_key` (colour 0-4, 0 for none, plus
five times the value's place in :class:`~regelverk.cards.UnoValue`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from regelverk.cards import Colour, UnoCard, UnoValue, uno_deck
from regelverk.uno.options import (
    ActionSymbolMatch,
    BlankWild,
    BlankWildPoints,
    ChallengeSuccessCard,
    ChallengeSuccessPenalty,
    ChallengeSuccessTurn,
    CurrentColour,
    EmptyPiles,
    FailedChallengeTurn,
    IllegalWd4,
    LastCardDraw,
    NumberMatch,
    Scoring,
    ShuffleHandsDeal,
    ShuffleHandsLastCard,
    TwoPlayerDrawCards,
    UnoCallWindow,
    UnoOptions,
    Wd4WildCounts,
)
from regelverk.uno.rules import card_key, card_points, failed_challenge_draw, fits
from regelverk.uno.state import Action, Catch, Phase, Play, UnoState
from regelverk.uno.table import _rng, new_game

__all__: list[str] = []

_VALUES = tuple(UnoValue)
_PLACE = {v: n for n, v in enumerate(_VALUES)}
_SKIP, _REVERSE, _D2, _WILD, _WD4, _SH, _BLANK = (
    _PLACE[v]
    for v in (
        UnoValue.SKIP,
        UnoValue.REVERSE,
        UnoValue.DRAW_TWO,
        UnoValue.WILD,
        UnoValue.WILD_DRAW_FOUR,
        UnoValue.SHUFFLE_HANDS,
        UnoValue.BLANK_WILD,
    )
)
_COLOURS = tuple(Colour)
_CARDS: dict[int, UnoCard] = {card_key(c): c for c in uno_deck(shuffle_hands=True, blank_wilds=3)}
"""Every kind of card by its number."""
_KEYS = tuple(sorted(_CARDS))
_FIFTY = UnoOptions(blank_wild_points=BlankWildPoints.FIFTY)
_POINTS = {
    fifty: tuple(
        card_points(_CARDS[k], _FIFTY if fifty else None) if k in _CARDS else 0
        for k in range(_KEYS[-1] + 1)
    )
    for fifty in (False, True)
}
"""Each card's points by its number; under ``blank_wild_points = fifty`` (key True) a blank
wild is worth a Wild's 50 (UNO-AMB-BLANK-WILD-POINTS)."""
_NAMES = frozenset(card_key(UnoCard(None, v)) for v in (UnoValue.WILD, UnoValue.WILD_DRAW_FOUR))
_NAMES_ALL = _NAMES | {card_key(UnoCard(None, UnoValue.BLANK_WILD))}
"""The cards whose player names a colour as he lays them (four plays each)."""
_WD4_KEY = card_key(UnoCard(None, UnoValue.WILD_DRAW_FOUR))
_TOPS = tuple((colour, card) for colour in (None, *_COLOURS) for card in _CARDS.values())


@lru_cache(maxsize=64)
def _fit_table(
    current: CurrentColour, number: NumberMatch, symbol: ActionSymbolMatch, blank: BlankWild
) -> dict[tuple[int, int], frozenset[int]]:
    """For each top card and colour in force (0 for none): the cards that fit, by
    :func:`~regelverk.uno.rules.fits` itself."""
    options = UnoOptions(
        current_colour=current, number_match=number, action_symbol_match=symbol, blank_wild=blank
    )
    table: dict[tuple[int, int], frozenset[int]] = {}
    for colour, top in _TOPS:
        place = 0 if colour is None else _COLOURS.index(colour) + 1
        table[card_key(top), place] = frozenset(
            k for k, card in _CARDS.items() if fits(options, card, top, colour)
        )
    return table


class _Over(Exception):  # noqa: N818 - a signal, not an error
    """The hand has ended (somebody went out, or it was void)."""

    def __init__(self, winner: int | None) -> None:
        super().__init__(winner)
        self.winner = winner


@dataclass(frozen=True, slots=True, kw_only=True)
class _FastHand:
    """What one fast hand came to."""

    winner: int | None
    """The seat that went out, or ``None`` for a void hand."""
    points: tuple[int, ...]
    """The hand's row of points, as :attr:`UnoState.results` records it; empty when the hand
    was cut off at the limit of actions."""
    actions: int
    """How many actions the hand took."""
    laid: tuple[int, ...]
    """Every card laid, in order, as numbers."""


def _keen_choice(legal: Sequence[Action], rng: random.Random) -> Action:
    """The benchmark's ``keen`` policy on the public API: a play if any, else no catch."""
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        return rng.choice(plays)
    rest = [a for a in legal if not isinstance(a, Catch)]
    return rng.choice(rest or legal)


def _random_hand_fast(
    options: UnoOptions,
    players: Sequence[str],
    seed: int,
    rng: random.Random,
    limit: int = 100_000,
) -> _FastHand:
    """PRIVATE, UNCHECKED: deal as ``GAME.deal`` does and play the first hand with the keen
    policy, stopping after ``limit`` actions; see the module docstring for what it promises."""
    return _play_out(new_game(options, players, seed), rng, limit)


def _play_out(  # noqa: PLR0912, PLR0915 - one flat loop is the point
    state: UnoState, rng: random.Random, limit: int
) -> _FastHand:
    """PRIVATE, UNCHECKED: play ``state``'s hand to its end (or ``limit`` actions) with the
    keen policy. A hand can run for ever when every card is held and nobody can lay one."""
    o = state.options
    n = len(state.players)
    hands = [[card_key(c) for c in h] for h in state.hands]
    pile = [card_key(c) for c in reversed(state.draw_pile)]
    discard = [card_key(c) for c in state.discard]
    colour = 0 if state.colour is None else _COLOURS.index(state.colour) + 1
    turn, direction, phase = state.turn, int(state.direction), state.phase
    after = state.after
    pending = state.pending_draw
    drawn = None if state.drawn is None else card_key(state.drawn)
    wd4 = state.wild_draw_four
    wd4_player = -1 if wd4 is None else wd4.player
    wd4_held: list[int] = [] if wd4 is None else [card_key(c) for c in wd4.held]
    wd4_before = 0
    if wd4 is not None and wd4.colour_before is not None:
        wd4_before = _COLOURS.index(wd4.colour_before) + 1
    exposed = state.exposed
    seed, shuffles = state.seed, state.shuffles

    fit = _fit_table(o.current_colour, o.number_match, o.action_symbol_match, o.blank_wild)
    printed = o.current_colour is CurrentColour.PRINTED_COLOUR
    refused = o.illegal_wd4 is IllegalWd4.REFUSED
    wilds_count = o.wd4_wild_counts is Wd4WildCounts.WILDS_COUNT
    late_call = o.uno_call_window is UnoCallWindow.UNTIL_NEXT_TURN
    stacking = o.stack_draw_two
    void = o.empty_piles is EmptyPiles.HAND_VOID
    two_opp = n == 2 and o.two_player_draw_cards is TwoPlayerDrawCards.OPPONENT_PLAYS
    naming = _NAMES_ALL
    actions = 0
    laid: list[int] = []

    def condition_met(held: Sequence[int], col: int) -> bool:
        if col == 0:
            return True
        if wilds_count:
            return not any(c % 5 == col or c % 5 == 0 for c in held)
        return not any(c % 5 == col for c in held)

    def playable(hand: list[int]) -> list[int]:
        fitting = fit[discard[-1], colour]
        found = [c for c in hand if c in fitting]
        if refused and _WD4_KEY in found:
            rest = list(hand)
            rest.remove(_WD4_KEY)
            col = discard[-1] % 5 if printed else colour
            if not condition_met(rest, col):
                found = [c for c in found if c != _WD4_KEY]
        return found

    def take(seat: int, count: int) -> None:
        nonlocal pile, discard, shuffles
        hand = hands[seat]
        for _ in range(count):
            if not pile:
                keep = 2 if wd4_player >= 0 else 1
                if len(discard) > keep:
                    rest = discard[:-keep]
                    shuffles += 1
                    _rng(seed, shuffles).shuffle(rest)
                    pile = rest
                    discard = discard[-keep:]
            if not pile:
                if void:
                    raise _Over(None)
                return
            hand.append(pile.pop())

    def lose_turn(victim: int) -> int:
        return victim if two_opp else (victim + direction) % n

    def end(winner: int) -> None:
        raise _Over(winner)

    try:
        while actions < limit:
            actions += 1
            hand = hands[turn]
            # --- choose, as _keen_choice on the public list would
            plays: list[int] = []
            if phase is Phase.PLAY:
                plays = playable(hand)
            elif phase is Phase.DRAWN:
                assert drawn is not None
                plays = [drawn]
            elif phase is Phase.STACK:
                fitting = fit[discard[-1], colour]
                plays = [c for c in hand if c // 5 == _D2 and c in fitting]
            if plays:
                per = 2 if len(hand) == 2 else 1
                distinct = list(dict.fromkeys(plays))
                count = sum(4 * per if c in naming else per for c in distinct)
                pick = rng.randrange(count)
                for card in distinct:
                    width = 4 * per if card in naming else per
                    if pick < width:
                        break
                    pick -= width
                if card in naming:
                    named = pick // per + 1
                    uno = per == 2 and pick % 2 == 1
                else:
                    named = 0
                    uno = per == 2 and pick == 1
                # --- play the card
                exposed = None
                seat = turn
                was_stack = phase is Phase.STACK
                colour_before = colour
                drawn = None
                hand.remove(card)
                discard.append(card)
                laid.append(card)
                colour = card % 5 or named
                if len(hand) == 1 and not uno:
                    exposed = seat
                phase = Phase.PLAY
                value = card // 5
                redeal_own = (
                    value == _SH
                    and o.shuffle_hands_last_card is ShuffleHandsLastCard.REDEAL_INCLUDES_PLAYER
                )
                if not hand and not redeal_own:
                    # _going_out
                    if o.last_card_draw is LastCardDraw.DRAW_AND_COUNT:
                        victim = (seat + direction) % n
                        if value == _D2:
                            owed = pending + 2
                            pending = 0
                            take(victim, owed)
                        elif value == _WD4:
                            wd4_player, wd4_held, wd4_before = seat, [], colour_before
                            phase = Phase.CHALLENGE
                            turn = victim
                            continue
                    end(seat)
                if not was_stack:
                    pending = 0
                if value == _SKIP:
                    turn = (seat + 2 * direction) % n
                elif value == _REVERSE:
                    direction = -direction
                    turn = seat if n == 2 else (seat + direction) % n
                elif value == _D2:
                    victim = (seat + direction) % n
                    if stacking:
                        pending += 2
                        phase = Phase.STACK
                        turn = victim
                    else:
                        take(victim, 2)
                        turn = lose_turn(victim)
                elif value == _WD4:
                    wd4_player, wd4_held, wd4_before = seat, list(hand), colour_before
                    phase = Phase.CHALLENGE
                    turn = (seat + direction) % n
                elif value == _SH:
                    counts = [len(h) for h in hands]
                    gathered = [c for h in hands for c in h]
                    shuffles += 1
                    _rng(seed, shuffles).shuffle(gathered)
                    order = [(seat + k) % n for k in range(1, n + 1)]
                    hands = [[] for _ in range(n)]
                    if o.shuffle_hands_deal is ShuffleHandsDeal.DEAL_ROUND:
                        for k, c in enumerate(gathered):
                            hands[order[k % n]].append(c)
                    else:
                        for s in order:
                            hands[s] = [gathered.pop() for _ in range(counts[s])]
                    if exposed is not None and len(hands[exposed]) != 1:
                        exposed = None
                    if not hands[seat]:
                        end(seat)
                    phase = Phase.NAME_COLOUR
                    turn = seat
                    after = (seat + direction) % n
                    colour = 0
                else:
                    turn = (seat + direction) % n
                continue
            # --- no card to lay: any other legal action but a catch
            if phase is Phase.NAME_COLOUR:
                others = 4
            elif phase is Phase.CHALLENGE:
                others = 2
            else:
                others = 1  # Draw (PLAY with nothing to lay, or STACK)
            call = exposed is not None and late_call
            pick = rng.randrange(others + 1 if call else others)
            if pick == others:
                exposed = None  # a late UNO call; the same player still acts
                continue
            if phase is not Phase.NAME_COLOUR:  # naming a colour starts no one's turn
                exposed = None
            seat = turn
            if phase is Phase.NAME_COLOUR:
                colour = pick + 1
                phase = Phase.PLAY
                assert after is not None
                turn, after = after, None
            elif phase is Phase.STACK:
                owed, pending = pending, 0
                take(seat, owed)
                phase = Phase.PLAY
                turn = lose_turn(seat)
            elif phase is Phase.CHALLENGE:
                guilty = wd4_player
                if pick == 1:  # draw the four
                    take(seat, 4)
                    wd4_player = -1
                    phase = Phase.PLAY
                    turn = lose_turn(seat)
                else:
                    col = discard[-2] % 5 if printed else wd4_before
                    if condition_met(wd4_held, col):
                        take(seat, failed_challenge_draw(o))
                        wd4_player = -1
                        phase = Phase.PLAY
                        if o.failed_challenge_turn is FailedChallengeTurn.LOSES_TURN:
                            turn = lose_turn(seat)
                        else:
                            turn = seat
                    else:
                        six = (
                            o.challenge_success_penalty is ChallengeSuccessPenalty.GUILTY_DRAWS_SIX
                        )
                        take(guilty, 6 if six else 4)
                        wd4_player = -1
                        if o.challenge_success_card is ChallengeSuccessCard.CARD_RETURNS:
                            hands[guilty].append(discard.pop())
                            colour = wd4_before
                        phase = Phase.PLAY
                        if o.challenge_success_turn is ChallengeSuccessTurn.CHALLENGER_PLAYS:
                            turn = seat
                        else:
                            turn = lose_turn(seat)
                if not hands[guilty]:
                    end(guilty)
            else:  # draw on the turn
                got = len(hand)
                take(seat, 1)
                if len(hand) > got:
                    card = hand[-1]
                    if card in fit[discard[-1], colour] and (
                        card != _WD4_KEY or card in playable(hand)
                    ):
                        phase = Phase.DRAWN
                        drawn = card
                        continue
                phase = Phase.PLAY
                drawn = None
                turn = (seat + direction) % n
        return _FastHand(winner=None, points=(), actions=actions, laid=tuple(laid))
    except _Over as over:
        winner = over.winner
    if winner is None:
        return _FastHand(winner=None, points=(0,) * n, actions=actions, laid=tuple(laid))
    values = _POINTS[o.blank_wild_points is BlankWildPoints.FIFTY]
    points = [sum(values[c] for c in h) for h in hands]
    if o.scoring is Scoring.WINNER_COLLECTS:
        row = [0] * n
        row[winner] = sum(points)
    else:
        row = points
    return _FastHand(winner=winner, points=tuple(row), actions=actions, laid=tuple(laid))
