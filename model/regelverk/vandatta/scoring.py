"""The end of a deal and of the match: winner, loser, official results, points, the champion."""

from __future__ import annotations

from dataclasses import replace

from regelverk.cards import Card, Rank
from regelverk.registry import parameter
from regelverk.trace import implements
from regelverk.vandatta.options import (
    BlockedDeal,
    GoOutCall,
    LoserRule,
    NextDealer,
    Scoring,
)
from regelverk.vandatta.rules import Table
from regelverk.vandatta.state import Phase, Record

__all__ = [
    "OTHER_POINTS",
    "POINTS",
    "WINNER_POINTS",
    "card_points",
    "champions_at_leap_day",
    "finish_deal",
    "loser_of",
    "reaches_limit",
]

_COURT = parameter("VA-SCORING-COURT", "court_points")
POINTS: dict[Rank, int] = {
    Rank.TEN: parameter("VA-SCORING-TEN", "ten_points"),
    Rank.ACE: parameter("VA-SCORING-ACE", "ace_points"),
    Rank.JACK: _COURT,
    Rank.QUEEN: _COURT,
    Rank.KING: _COURT,
    Rank.EIGHT: parameter("VA-SCORING-EIGHT", "eight_points"),
}
"""The scoring table's ranks with a value of their own (VA-SCORING-TEN, -ACE, -COURT, -EIGHT),
read from the spec."""

OTHER_POINTS = parameter("VA-SCORING-OTHER", "other_points")
"""Every other card, two to seven and nine (VA-SCORING-OTHER)."""

WINNER_POINTS = parameter("VA-SCORING-WINNER-ZERO", "winner_points")
"""What the winner of a deal scores (VA-SCORING-WINNER-ZERO)."""


@implements(
    "VA-SCORING-TEN", "VA-SCORING-ACE", "VA-SCORING-COURT", "VA-SCORING-EIGHT", "VA-SCORING-OTHER"
)
def card_points(cards: tuple[Card, ...]) -> int:
    """Tens 10, aces 15, court cards 10, eights 25, every other card 5.

    >>> from regelverk.cards import parse_cards
    >>> card_points(parse_cards("10H AS KD 8C 3S"))
    65
    """
    return sum(POINTS.get(card.rank, OTHER_POINTS) for card in cards)


@implements("VA-SCORING-GAME-WINNER")
def reaches_limit(total: int, limit: int) -> bool:
    """Whether a running total puts its player out of the match: a total at the limit is not
    below it (VA-SCORING-GAME-WINNER).

    >>> reaches_limit(99, 100), reaches_limit(100, 100), reaches_limit(101, 100)
    (False, True, True)
    """
    return total >= limit


@implements("V8-LOSS-PLAYER-BEFORE-WINNER", "V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER")
def loser_of(table: Table, winner: int) -> int | None:
    """The player before the winner: the nearest present seat counter-clockwise (seat-before), or
    the last spelförare before the winning turn (last-turn-before)."""
    rule = table.options.loser_rule
    if rule is LoserRule.NONE:
        return None
    if rule is LoserRule.LAST_TURN_BEFORE and table.previous is not None:
        return table.previous
    count = len(table.players)
    for step in range(1, count):
        seat = (winner - step) % count
        if seat not in table.away and seat not in table.record.out and seat not in table.benched:
            return seat
    return None


@implements(
    "V8-LOSS-OFFICIAL-NEEDS-THREE",
    "V8-PRESENCE-ABSENT-NOT-ACTIVE",
    "V8-SCORING-WIN-LOSS-TALLY",
    "V8-SCORING-NO-POINTS-SLAGPASE",
)
def tally(table: Table, winner: int, loser: int) -> None:
    """An official result (three active players at the start and at the going out, and no
    slagpåse) records one win and one loss."""
    need = table.options.min_active_for_result
    official = table.active_at_start >= need and table.active() >= need
    if not official:
        table.say(
            "unofficial",
            f"No official result: fewer than {need} active players",
            ("V8-LOSS-OFFICIAL-NEEDS-THREE", "V8-PRESENCE-ABSENT-NOT-ACTIVE"),
        )
        return
    if table.options.slagpase:
        table.say(
            "unofficial",
            "A slagpåse plays: nothing is recorded",
            ("V8-SCORING-NO-POINTS-SLAGPASE",),
        )
        return
    record = table.record
    wins, losses = list(record.wins), list(record.losses)
    wins[winner] += 1
    losses[loser] += 1
    table.record = replace(
        record, wins=tuple(wins), losses=tuple(losses), official=record.official + 1
    )
    table.say(
        "tally",
        f"Official result: a win for {table.name(winner)}, a loss for {table.name(loser)}",
        ("V8-SCORING-WIN-LOSS-TALLY", "V8-LOSS-OFFICIAL-NEEDS-THREE"),
    )


@implements(
    "VA-SCORING-WINNER-ZERO",
    "VA-SCORING-OTHERS-COUNT",
    "VA-SCORING-OPTIONAL",
    "VA-SCORING-GAME-WINNER",
    "VA-SESSION-NOBODY-ALONE",
)
def score_points(table: Table, winner: int | None) -> int | None:
    """The winner scores nothing, the others their cards; players at the limit drop out; the
    last one below the limit wins the match. Returns the seat that scored most."""
    record = table.record
    points = list(record.points)
    before = list(table.base.in_deal)
    scored: dict[int, int] = {}
    for seat in before:
        if seat == winner:
            points[seat] += WINNER_POINTS
            continue
        held = table.hands[seat] + tuple(c for p in table.penalties[seat] for c in p.cards)
        scored[seat] = card_points(held)
        points[seat] += scored[seat]
    limit = table.options.score_limit
    out = record.out | {s for s in before if reaches_limit(points[s], limit)}
    shown = ", ".join(f"{table.name(s)} +{v} ({points[s]})" for s, v in scored.items())
    table.say("points", f"Points: {shown}", ("VA-SCORING-WINNER-ZERO", "VA-SCORING-OTHERS-COUNT"))
    table.record = replace(record, points=tuple(points), out=frozenset(out))
    left = [s for s in before if s not in out]
    if len(left) == 1:
        end_match(
            table,
            (left[0],),
            f"{table.name(left[0])} alone is below {limit}: the game is won",
            ("VA-SCORING-GAME-WINNER",),
        )
    elif not left:
        low = min(points[s] for s in before)
        best = tuple(s for s in before if points[s] == low)
        end_match(
            table,
            best,
            f"Nobody is left below {limit}: the lowest total wins",
            ("VA-SESSION-NOBODY-ALONE", "VA-SCORING-GAME-WINNER"),
        )
    return max(scored, key=lambda s: (scored[s], -s)) if scored else None


def end_match(
    table: Table, champions: tuple[int, ...], text: str, clauses: tuple[str, ...]
) -> None:
    """The match is over."""
    table.record = replace(table.record, champions=champions)
    table.phase = Phase.MATCH_OVER
    table.say("match-over", text, clauses)


@implements(
    "V8-SESSION-LOSER-DEALS-NEXT", "V8-SESSION-DEALER-WITHOUT-LOSER", "VA-SESSION-NEXT-DEALER"
)
def next_dealer(table: Table, winner: int | None, loser: int | None) -> None:
    """Who deals next: the loser (vvv8; the same dealer after a drawn deal), or the player on
    the dealer's left (vandatta), under next_dealer."""
    rule = table.options.next_dealer
    dealer = table.dealer if table.dealer is not None else 0
    choice: int | None = dealer
    clauses: tuple[str, ...]
    if winner is None:
        clauses = (
            ("V8-SESSION-DEALER-WITHOUT-LOSER",)
            if table.options.go_out_call is (GoOutCall.UTGANG)
            else ("VA-WIN-BLOCKED-DEAL-VOID",)
        )
    elif rule is NextDealer.LOSER_DEALS:
        choice, clauses = loser, ("V8-SESSION-LOSER-DEALS-NEXT",)
    elif rule is NextDealer.WINNER_DEALS:
        choice, clauses = winner, ("VA-SESSION-NEXT-DEALER",)
    else:
        choice, clauses = None, ("VA-SESSION-NEXT-DEALER",)
    if choice is None or choice in table.record.out:
        count = len(table.players)
        choice = next(
            (dealer + k) % count
            for k in range(1, count + 1)
            if (dealer + k) % count not in table.record.out
        )
    table.dealer = choice
    table.say("next-dealer", f"{table.name(choice)} deals next", clauses, choice)


def finish_deal(table: Table, winner: int | None, text: str, clauses: tuple[str, ...]) -> None:
    """End the deal: the result, the record, the next dealer."""
    table.phase = Phase.DEAL_OVER
    table.winner = winner
    table.say("deal-over", text, clauses, winner)
    table.record = replace(table.record, deals=table.record.deals + 1)
    loser = None
    if winner is not None:
        loser = loser_of(table, winner)
        if loser is not None:
            table.loser = loser
            table.say(
                "loser",
                f"{table.name(loser)}, seated before the winner, loses",
                ("V8-LOSS-PLAYER-BEFORE-WINNER",),
                loser,
            )
            tally(table, winner, loser)
    counted = winner is not None or table.options.blocked_deal is BlockedDeal.COUNT_HANDS
    if table.options.scoring is Scoring.CARD_POINTS and counted:
        most = score_points(table, winner)
        if table.options.loser_rule is LoserRule.NONE:
            loser = most
    if table.phase is not Phase.MATCH_OVER:
        next_dealer(table, winner, loser)


@implements("V8-SESSION-LEAP-DAY-CHAMPION", "V8-SCORING-WIN-LOSS-TALLY")
def champions_at_leap_day(record: Record, scoring: Scoring) -> tuple[int, ...]:
    """The champions when the scoring closes: most wins then fewest losses (win-loss-tally),
    best net score (net-score), fewest losses (loss-count), fewest points (card-points)."""
    seats = range(len(record.wins))
    keys: dict[Scoring, list[tuple[int, int]]] = {
        Scoring.WIN_LOSS_TALLY: [(-record.wins[s], record.losses[s]) for s in seats],
        Scoring.NET_SCORE: [(record.losses[s] - record.wins[s], 0) for s in seats],
        Scoring.LOSS_COUNT: [(record.losses[s], 0) for s in seats],
        Scoring.CARD_POINTS: [(record.points[s], 0) for s in seats],
    }
    key = keys[scoring]
    best = min(key)
    return tuple(s for s in seats if key[s] == best)
