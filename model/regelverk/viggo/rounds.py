"""Seats, dealing, the two-player draft's set-up, who leads, and the scoring at a round's end."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from functools import lru_cache

from regelverk.cards import Card, Rank, Suit, french_deck
from regelverk.engine import Event
from regelverk.marks import implements
from regelverk.records import builder
from regelverk.registry import parameter
from regelverk.viggo.combos import CARD_OF, INDEX_OF_KEY
from regelverk.viggo.options import (
    ClubFourScope,
    Direction,
    FirstLeader,
    GameWinner,
    LossThresholdRule,
    MostCardsLead,
    MostCardsTie,
    NextDealer,
    SimultaneousLoss,
    ThreePlayerDeal,
    ViggoOptions,
)
from regelverk.viggo.state import Phase, ViggoState

__all__ = [
    "CLUB_FOUR",
    "HAND_SIZE",
    "POINTS_PER_CARD",
    "WINNER_POINTS",
    "add_points",
    "after",
    "before",
    "club_four_opens",
    "finish_round",
    "game_winners",
    "hand_sizes",
    "losers",
    "round_points",
    "sort_hand",
    "start_round",
]

HAND_SIZE = parameter("VG-DEAL-THIRTEEN-EACH", "hand_size")
"""Thirteen cards each (VG-DEAL-THIRTEEN-EACH)."""
POINTS_PER_CARD = parameter("VG-SCORE-POINT-PER-CARD", "points_per_card")
"""What each card left in a loser's hand scores at a round's end (VG-SCORE-POINT-PER-CARD)."""
WINNER_POINTS = parameter("VG-SCORE-WINNER-ZERO", "winner_points")
"""What the round's winner scores (VG-SCORE-WINNER-ZERO)."""
CLUB_FOUR = Card(Rank.FOUR, Suit.CLUBS)
"""The 4♣ of the club-four house rule."""
_DECK = french_deck()
CLOCKWISE = Direction.CLOCKWISE
"""Bound once: reading an enum member off its class goes through the enum's metaclass."""


def sort_hand(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Cards in rank order (4 lowest, 3 highest), suits in bridge order within a rank."""
    index = INDEX_OF_KEY
    return tuple([CARD_OF[i] for i in sorted([index[c._key] for c in cards])])


@implements("VG-TURN-ROUND-THE-TABLE", "VG-TURN-CLOCKWISE", "VG-DEAL-ROUND-THE-TABLE")
def after(options: ViggoOptions, count: int, seat: int) -> int:
    """The next seat round the table: to the left (clockwise) unless the table plays to the
    right (VG-AMB-DIRECTION)."""
    step = 1 if options.direction is CLOCKWISE else -1
    return (seat + step) % count


def before(options: ViggoOptions, count: int, seat: int) -> int:
    """The seat whose next seat is ``seat``."""
    step = 1 if options.direction is CLOCKWISE else -1
    return (seat - step) % count


@implements(
    "VG-SETUP-TWO-TO-FOUR-PLAYERS", "VG-DEAL-THIRTEEN-EACH", "VG-DEAL-WHOLE-DECK-THREE-OR-FOUR"
)
def hand_sizes(options: ViggoOptions, count: int) -> tuple[int, ...]:
    """How many cards each seat receives, in the order the cards are dealt (first hand first):
    thirteen each, except for three players under the other readings of
    VG-AMB-THREE-PLAYER-DEAL (seventeen each, or eighteen, seventeen, seventeen)."""
    if count == 3 and options.three_player_deal is ThreePlayerDeal.SEVENTEEN_EACH_ONE_ASIDE:
        return (17, 17, 17)
    if count == 3 and options.three_player_deal is ThreePlayerDeal.DEAL_ALL_UNEVEN:
        return (18, 17, 17)
    return (HAND_SIZE,) * count


@implements(
    "VG-SETUP-FIRST-DEALER",
    "VG-TURN-WINNER-LEADS-NEXT-ROUND",
    "VG-VAR-MOST-CARDS-REPLACES-WINNER-LEAD",
)
def _first_hand(
    options: ViggoOptions, count: int, round_no: int, dealer: int, winner: int
) -> tuple[int, tuple[str, ...]]:
    """First hand: in the first round the seat after the dealer; later the last round's winner,
    unless the most-cards rule moves the lead to the seat after the new dealer."""
    if round_no == 1 or winner < 0:
        return after(options, count, dealer), ("VG-SETUP-FIRST-DEALER",)
    if options.most_cards_deal and options.most_cards_lead is MostCardsLead.REPLACES_WINNER_LEAD:
        return after(options, count, dealer), ("VG-VAR-MOST-CARDS-REPLACES-WINNER-LEAD",)
    return winner, ("VG-TURN-WINNER-LEADS-NEXT-ROUND",)


@implements("VG-VAR-CLUB-FOUR-STARTS")
def club_four_opens(options: ViggoOptions, count: int, round_no: int) -> bool:
    """Whether the holder of the 4♣ opens this round: the club-four house rule with four
    players (every round, or the first only: VG-AMB-CLUB-FOUR-SCOPE), or the club-four-holder
    reading of VG-AMB-FIRST-ROUND-LEADER in the first round."""
    every = options.club_four_scope is ClubFourScope.EVERY_ROUND
    if options.club_four_starts and count == 4 and (every or round_no == 1):
        return True
    return round_no == 1 and options.first_leader is FirstLeader.CLUB_FOUR_HOLDER


@implements("VG-PLAY-FIRST-HAND-LEADS-FREE")
def leader(state: ViggoState) -> tuple[int, tuple[str, ...]]:
    """Who opens the round once the hands are known: the 4♣ holder where a club-four rule
    applies and someone holds it, otherwise first hand (citing the club-four house rule too
    when it is on but leaves this table or round out: it is for four players, and its scope,
    VG-AMB-CLUB-FOUR-SCOPE, may cover the first round only)."""
    if club_four_opens(state.options, state.count, state.round):
        for seat, hand in enumerate(state.hands):
            if CLUB_FOUR in hand:
                clauses = (
                    ("VG-VAR-CLUB-FOUR-STARTS",)
                    if state.options.club_four_starts and state.count == 4
                    else ("VG-PLAY-FIRST-HAND-LEADS-FREE",)
                )
                return seat, clauses
    if state.options.club_four_starts:  # on, but not for this table or this round
        return state.first_hand, ("VG-PLAY-FIRST-HAND-LEADS-FREE", "VG-VAR-CLUB-FOUR-STARTS")
    return state.first_hand, ("VG-PLAY-FIRST-HAND-LEADS-FREE",)


def _shuffled(seed: int, round_no: int) -> list[Card]:
    deck = list(_DECK)
    random.Random(f"viggo/{seed}/{round_no}").shuffle(deck)
    return deck


@implements(
    "VG-SETUP-DECK-52-NO-JOKERS",
    "VG-DEAL-ROUND-THE-TABLE",
    "VG-DEAL-WHOLE-DECK-THREE-OR-FOUR",
    "VG-DRAFT-NO-DEAL-TWO-PLAYERS",
)
def start_round(
    options: ViggoOptions,
    players: tuple[str, ...],
    seed: int,
    *,
    round_no: int,
    dealer: int,
    winner: int,
    scores: tuple[int, ...],
    history: tuple[tuple[int, ...], ...],
    dealer_why: tuple[str, ...] = (),
) -> tuple[ViggoState, tuple[Event, ...]]:
    """Shuffle (by the game's seed and the round's number) and deal a round: with three or four
    players one card at a time round the table from first hand; with two nothing is dealt and
    first hand starts the draft. ``dealer_why`` are the clauses that chose the dealer besides
    the deal round the table (a house rule's)."""
    count = len(players)
    first, why = _first_hand(options, count, round_no, dealer, winner)
    deck = _shuffled(seed, round_no)
    opening = _build_event(
        kind="round",
        text=f"round {round_no}: {players[dealer]} deals, {players[first]} is first hand",
        clauses=("VG-DEAL-ROUND-THE-TABLE", *dealer_why, *why),
        player=players[first],
        cards=(),
    )

    def laid_out(
        phase: Phase,
        hands: tuple[tuple[Card, ...], ...],
        stock: tuple[Card, ...] = (),
        put_away: tuple[Card, ...] = (),
    ) -> ViggoState:
        """The round's state as dealt (or, with two players, before the draft)."""
        return ViggoState(
            options=options,
            players=players,
            seed=seed,
            round=round_no,
            phase=phase,
            dealer=dealer,
            first_hand=first,
            turn=first,
            hands=hands,
            scores=scores,
            history=history,
            stock=stock,
            put_away=put_away,
        )

    if count == 2:
        state = laid_out(Phase.DRAFT, ((), ()), stock=tuple(deck))
        draft = _build_event(
            kind="draft",
            text="two players: nothing is dealt; the hands are drafted from the stock",
            clauses=("VG-DRAFT-NO-DEAL-TWO-PLAYERS", "VG-DRAFT-ALTERNATE-UNTIL-THIRTEEN"),
            player=players[first],
            cards=(),
        )
        return state, (opening, draft)
    sizes = hand_sizes(options, count)
    order = [first]
    while len(order) < count:
        order.append(after(options, count, order[-1]))
    dealt, left = _deal_order(tuple(order), sizes, len(deck))
    hands = tuple([sort_hand([deck[i] for i in places]) for places in dealt])
    rest = tuple([deck[i] for i in left])
    state = laid_out(Phase.PLAY, hands, put_away=rest)
    lead, lead_why = leader(state)
    if lead != first:
        state = _with_turn(state, lead)
    sizes_text = ", ".join([f"{players[s]} {len(hands[s])}" for s in range(count)])
    dealt_event = _build_event(
        kind="deal",
        text=f"dealt round the table: {sizes_text}"
        + (f"; {len(rest)} cards stay out of play" if rest else ""),
        clauses=("VG-DEAL-THIRTEEN-EACH", "VG-DEAL-WHOLE-DECK-THREE-OR-FOUR"),
        player=None,
        cards=(),
    )
    leads = _build_event(
        kind="lead",
        text=f"{players[lead]} opens the round",
        clauses=lead_why,
        player=players[lead],
        cards=(),
    )
    return state, (opening, dealt_event, leads)


_build_event = builder(Event)
"""New events from their fields in declaration order (:func:`~regelverk.records.builder`)."""


@lru_cache(maxsize=64)
def _deal_order(
    order: tuple[int, ...], sizes: tuple[int, ...], cards: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Where each card of a shuffled deck of ``cards`` goes when it is dealt one at a time
    round the table in ``order`` (first hand first), the seat at each place receiving its
    number of ``sizes``: for each seat, the places in the deck of its cards, in the order
    dealt; and the places of the cards left over, which stay out of play. The same for every
    deal at a table, so worked out once for it."""
    dealt: list[list[int]] = [[] for _ in order]
    deck = iter(range(cards))
    for round_of_deal in range(max(sizes)):
        for place, seat in enumerate(order):
            if round_of_deal < sizes[place]:
                dealt[seat].append(next(deck))
    return tuple([tuple(d) for d in dealt]), tuple(deck)


def _with_turn(state: ViggoState, turn: int) -> ViggoState:
    return dataclasses.replace(state, turn=turn)


@implements("VG-VAR-MOST-CARDS-DEAL", "VG-VAR-MOST-CARDS-TIE-BREAK")
def next_dealer(state: ViggoState, winner: int, hands: tuple[tuple[Card, ...], ...]) -> int:
    """Who deals the next round: the seat before the winner (or the next seat after this
    round's dealer: VG-AMB-NEXT-DEALER), or under the most-cards rule the player with most cards
    left, a tie going to the first tied seat after the winner or to a cut
    (VG-AMB-MOST-CARDS-TIE)."""
    o, count = state.options, state.count
    if o.most_cards_deal:
        most = max(len(h) for h in hands)
        order = [after(o, count, winner)]
        while len(order) < count:
            order.append(after(o, count, order[-1]))
        tied = [s for s in order if len(hands[s]) == most]
        if o.most_cards_tie is MostCardsTie.LOTS_AMONG_TIED:
            return random.Random(f"viggo-cut/{state.seed}/{state.round}").choice(sorted(tied))
        return tied[0]
    if o.next_dealer is NextDealer.DEALER_ROTATES:
        return after(o, count, state.dealer)
    return before(o, count, winner)


@implements("VG-LOSS-FIRST-TO-53", "VG-LOSS-TIE-HIGHEST-TOTAL")
def losers(options: ViggoOptions, scores: tuple[int, ...], winner: int) -> tuple[int, ...]:
    """Who loses the game: whoever has reached the losing total (53 or more; or exactly 53,
    VG-AMB-LOSS-THRESHOLD); of several, the highest total (VG-AMB-SIMULTANEOUS-53)."""
    limit = options.loss_points
    if options.loss_threshold_rule is LossThresholdRule.EXACTLY:
        reached = [s for s, total in enumerate(scores) if total == limit]
    else:
        reached = [s for s, total in enumerate(scores) if total >= limit]
    if len(reached) <= 1:
        return tuple(reached)
    rule = options.simultaneous_loss
    if rule is SimultaneousLoss.ALL_OVER_LOSE:
        return tuple(reached)
    if rule is SimultaneousLoss.FIRST_IN_TURN_ORDER:
        seat = after(options, len(scores), winner)
        while seat not in reached:
            seat = after(options, len(scores), seat)
        return (seat,)
    top = max(scores[s] for s in reached)
    return tuple(s for s in reached if scores[s] == top)


@implements("VG-WIN-GAME-LOSER-ONLY")
def game_winners(
    options: ViggoOptions, scores: tuple[int, ...], lost: tuple[int, ...] = ()
) -> tuple[int, ...]:
    """No winner of the game is named, unless the lowest total wins (VG-AMB-GAME-WINNER): then
    the lowest total among the players who did not lose (``lost``). Under loss_threshold_rule =
    exactly the loser, at exactly the limit, may hold the lowest total while others have passed
    it; he does not win too."""
    if options.game_winner is GameWinner.LOSER_ONLY:
        return ()
    others = [s for s in range(len(scores)) if s not in lost]
    if not others:
        return ()
    low = min(scores[s] for s in others)
    return tuple(s for s in others if scores[s] == low)


@implements("VG-SCORE-POINT-PER-CARD", "VG-SCORE-WINNER-ZERO")
def round_points(hands: Sequence[Sequence[Card]], winner: int) -> tuple[int, ...]:
    """A round's points: the winner none, every other player a point per card left.

    >>> round_points(((), ("4C", "5D"), ("3S",)), 0)
    (0, 2, 1)
    """
    return tuple(
        WINNER_POINTS if s == winner else POINTS_PER_CARD * len(h) for s, h in enumerate(hands)
    )


@implements("VG-SCORE-CUMULATIVE")
def add_points(scores: Sequence[int], points: Sequence[int]) -> tuple[int, ...]:
    """The running totals after a round: each player's points added to his total."""
    return tuple(a + b for a, b in zip(scores, points, strict=True))


@implements(
    "VG-WIN-ROUND-FIRST-OUT",
    "VG-WIN-AIM-FIRST-OUT",
    "VG-WIN-ROUND-ENDS-AT-FIRST-OUT",
    "VG-SCORE-POINT-PER-CARD",
    "VG-SCORE-WINNER-ZERO",
    "VG-SCORE-CUMULATIVE",
)
def finish_round(state: ViggoState, winner: int) -> tuple[ViggoState, tuple[Event, ...]]:
    """``winner`` has just laid his last card (``state`` shows it in the trick): the round
    stops at once, every other player scores a point per card left, the winner none, and the
    totals run on. Then the game ends with its loser, or the next round is dealt."""
    names = state.players
    points = round_points(state.hands, winner)
    scores = add_points(state.scores, points)
    history = (*state.history, points)
    events = [
        _build_event(
            kind="round-won",
            text=f"{names[winner]} has no cards left and wins round {state.round}",
            clauses=("VG-WIN-ROUND-FIRST-OUT", "VG-WIN-ROUND-ENDS-AT-FIRST-OUT"),
            player=names[winner],
            cards=(),
        ),
        _build_event(
            kind="score",
            text="points for the cards left: "
            + ", ".join([f"{names[s]} +{p} = {scores[s]}" for s, p in enumerate(points)]),
            clauses=_SCORE_CLAUSES,
            player=None,
            cards=(),
        ),
    ]
    lost = losers(state.options, scores, winner)
    if lost:
        won = game_winners(state.options, scores, lost)
        final = _over(state, scores=scores, history=history, winner=winner, lost=lost, won=won)
        events.append(
            _build_event(
                kind="game-lost",
                text=" and ".join([names[s] for s in lost])
                + f" reached {state.options.loss_points} and lost the game",
                clauses=(
                    "VG-LOSS-FIRST-TO-53",
                    "VG-WIN-GAME-LOSER-ONLY",
                    *_several_reached(state.options, scores),
                ),
                player=names[lost[0]],
                cards=(),
            )
        )
        if won:
            events.append(
                Event(
                    kind="game-won",
                    text=" and ".join(names[s] for s in won) + " win with the lowest total",
                    clauses=("VG-LOSS-FIRST-TO-53",),
                )
            )
        return final, tuple(events)
    dealer = next_dealer(state, winner, state.hands)
    fresh, dealt = start_round(
        state.options,
        names,
        state.seed,
        round_no=state.round + 1,
        dealer=dealer,
        winner=winner,
        scores=scores,
        history=history,
        dealer_why=_dealer_why(state.options, state.hands),
    )
    return fresh, (*events, *dealt)


_SCORE_CLAUSES = (
    "VG-SCORE-POINT-PER-CARD",
    "VG-SCORE-WINNER-ZERO",
    "VG-SCORE-CUMULATIVE",
    "VG-LOSS-FIRST-TO-53",
)
"""What the points of a round cite: a point a card, none for the winner, the running totals,
and the losing total they are held against (the game goes on, or ends, by it)."""


def _several_reached(options: ViggoOptions, scores: tuple[int, ...]) -> tuple[str, ...]:
    """Where several players reach the losing total in one round, the rule for that decides who
    loses (VG-LOSS-TIE-HIGHEST-TOTAL, read by VG-AMB-SIMULTANEOUS-53), and under the reading
    first-in-turn-order the seat order does too (VG-TURN-ROUND-THE-TABLE)."""
    reached = losers(dataclasses.replace(options, simultaneous_loss=ALL_OVER_LOSE), scores, 0)
    if len(reached) < 2:
        return ()
    if options.simultaneous_loss is SimultaneousLoss.FIRST_IN_TURN_ORDER:
        return ("VG-LOSS-TIE-HIGHEST-TOTAL", "VG-TURN-ROUND-THE-TABLE")
    return ("VG-LOSS-TIE-HIGHEST-TOTAL",)


ALL_OVER_LOSE = SimultaneousLoss.ALL_OVER_LOSE


def _dealer_why(options: ViggoOptions, hands: tuple[tuple[Card, ...], ...]) -> tuple[str, ...]:
    """The clauses that chose the next dealer beside the deal round the table: the most-cards
    house rule, and its tie-break where several hold the most cards."""
    if not options.most_cards_deal:
        return ()
    most = max(len(h) for h in hands)
    tied = sum(len(h) == most for h in hands) > 1
    return ("VG-VAR-MOST-CARDS-DEAL",) + (("VG-VAR-MOST-CARDS-TIE-BREAK",) if tied else ())


def _over(
    state: ViggoState,
    *,
    scores: tuple[int, ...],
    history: tuple[tuple[int, ...], ...],
    winner: int,
    lost: tuple[int, ...],
    won: tuple[int, ...],
) -> ViggoState:
    """The game as it ends: ``state`` with its totals, its loser (and any winner), and no one
    marked as passed."""
    return dataclasses.replace(
        state,
        phase=Phase.OVER,
        scores=scores,
        history=history,
        round_winner=winner,
        losers=lost,
        winners=won,
        passed=frozenset(),
    )
