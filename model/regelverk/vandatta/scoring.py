"""The end of a deal and of the match: winner, loser, official results, points, the champion."""

from __future__ import annotations

from dataclasses import replace

from regelverk.cards import Card, Rank
from regelverk.marks import implements
from regelverk.registry import parameter
from regelverk.vandatta.options import (
    BlockedDeal,
    DealerWithoutLoser,
    GameEnd,
    GoOutCall,
    LoserRule,
    NextDealer,
    NobodyAlone,
    OverLimit,
    Scoring,
)
from regelverk.vandatta.rules import seats_after
from regelverk.vandatta.state import Phase, Record
from regelverk.vandatta.table import Table

__all__ = [
    "OTHER_POINTS",
    "POINTS",
    "WINNER_POINTS",
    "card_points",
    "champions_at_leap_day",
    "cheapest_hand",
    "end_blocked_deal",
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

_RANK_CLAUSES: dict[Rank, str] = {
    Rank.TEN: "VA-SCORING-TEN",
    Rank.ACE: "VA-SCORING-ACE",
    Rank.JACK: "VA-SCORING-COURT",
    Rank.QUEEN: "VA-SCORING-COURT",
    Rank.KING: "VA-SCORING-COURT",
    Rank.EIGHT: "VA-SCORING-EIGHT",
}
"""The clause giving each rank with a value of its own its points (every other rank:
VA-SCORING-OTHER)."""

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


def _rank_clause(card: Card) -> str:
    """The clause that gives a card its points (VA-SCORING-TEN, -ACE, -COURT, -EIGHT, -OTHER)."""
    return _RANK_CLAUSES.get(card.rank, "VA-SCORING-OTHER")


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
    the last spelförare before the winning turn (last-turn-before).

    Under last-turn-before that spelförare must be someone other than the winner who takes part
    when the deal is won: a deal won with no winning turn of its own (a blocked deal that the
    cheapest hand wins, where the last spelförare may be the winner himself), or one whose last
    spelförare has stepped away since, falls back to the nearest present seat before the
    winner, so that nobody is ever both winner and loser of one deal."""
    rule = table.options.loser_rule
    if rule is LoserRule.NONE:
        return None
    count = len(table.players)

    def present(seat: int) -> bool:
        return seat not in table.away and seat not in table.record.out and seat not in table.benched

    last = table.previous
    if rule is LoserRule.LAST_TURN_BEFORE and last is not None and last != winner and present(last):
        return last
    for step in range(1, count):
        seat = (winner - step) % count
        if present(seat):
            return seat
    return None


@implements("V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER")
def _passed_over(table: Table, winner: int, loser: int) -> list[int]:
    """The absent players passed over in finding the loser: those seated between him and the
    winner, and (loser_rule = last-turn-before) the last spelförare if he has stepped away."""
    count = len(table.players)
    last = table.previous
    if table.options.loser_rule is LoserRule.LAST_TURN_BEFORE and loser == last:
        return []  # the last spelförare loses: no seat was walked over to find him
    passed = [
        (winner - step) % count
        for step in range(1, (winner - loser) % count)
        if (winner - step) % count in table.away
    ]
    if (
        table.options.loser_rule is LoserRule.LAST_TURN_BEFORE
        and last is not None
        and last not in (winner, loser)
        and last in table.away
        and last not in passed
    ):
        passed.append(last)
    return passed


@implements(
    "V8-LOSS-OFFICIAL-NEEDS-THREE",
    "V8-PRESENCE-ABSENT-NOT-ACTIVE",
    "V8-WIN-OUT-BELOW-THREE-ENDS-DEAL",
    "V8-SCORING-WIN-LOSS-TALLY",
    "V8-SCORING-NO-POINTS-SLAGPASE",
)
def tally(table: Table, winner: int, loser: int) -> None:
    """An official result (three active players at the start and at the going out, and no
    slagpåse) records one win and one loss."""
    need = table.options.min_active_for_result
    official = table.active_at_start >= need and table.active() >= need
    if not official:
        clauses: tuple[str, ...] = ("V8-LOSS-OFFICIAL-NEEDS-THREE", "V8-PRESENCE-ABSENT-NOT-ACTIVE")
        if table.active_at_start >= need:  # out_below_three let him go out (unofficial)
            clauses += ("V8-WIN-OUT-BELOW-THREE-ENDS-DEAL",)
        table.say("unofficial", f"No official result: fewer than {need} active players", clauses)
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
def score_points(table: Table, winner: int | None) -> tuple[int | None, bool]:
    """The winner scores nothing, the others their cards; players at the limit drop out (or,
    under over_limit = play-on, play on but can no longer win); the last one below the limit
    wins the match. If nobody is left below it, the lowest total of those below it before the
    deal wins (nobody_alone = lowest-total), or the deal is cancelled and replayed among them
    (replay-deal). Returns the seat that scored most and whether the deal is to be replayed."""
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
    out = set(record.out)
    if table.options.over_limit is OverLimit.ELIMINATED:
        out |= {s for s in before if reaches_limit(points[s], limit)}
    shown = ", ".join(f"{table.name(s)} +{v} ({points[s]})" for s, v in scored.items())
    counted = [c for s in scored for c in table.hands[s]]
    counted += [c for s in scored for p in table.penalties[s] for c in p.cards]
    table.say(
        "points",
        f"Points: {shown}",
        (
            "VA-SCORING-WINNER-ZERO",
            "VA-SCORING-OTHERS-COUNT",
            "VA-SCORING-GAME-WINNER",
            *dict.fromkeys(_rank_clause(c) for c in counted),
        ),
    )
    table.record = replace(record, points=tuple(points), out=frozenset(out))
    left = [s for s in before if s not in out and not reaches_limit(points[s], limit)]
    contenders = [s for s in before if not reaches_limit(record.points[s], limit)] or before
    most = max(scored, key=lambda s: (scored[s], -s)) if scored else None
    if not left and table.options.nobody_alone is NobodyAlone.REPLAY_DEAL:
        replay_deal(table, record, contenders)
        return most, True
    if len(left) == 1:
        end_match(
            table,
            (left[0],),
            f"{table.name(left[0])} alone is below {limit}: the game is won",
            ("VA-SCORING-GAME-WINNER",),
        )
    elif not left:
        low = min(points[s] for s in contenders)
        best = tuple(s for s in contenders if points[s] == low)
        end_match(
            table,
            best,
            f"Nobody is left below {limit}: the lowest total wins",
            ("VA-SESSION-NOBODY-ALONE", "VA-SCORING-GAME-WINNER"),
        )
    return most, False


@implements("VA-SESSION-NOBODY-ALONE", "VA-SCORING-GAME-WINNER")
def replay_deal(table: Table, record: Record, contenders: list[int]) -> None:
    """nobody_alone = replay-deal (VA-AMB-NOBODY-UNDER-100): the deal's points are taken back
    (``record`` is the record before it was scored, the deal already counted), the players who
    were not below the limit before the deal take no further part, and the same dealer (or, if
    he is out, the next player on his left still in) deals the deal again to ``contenders``."""
    limit = table.options.score_limit
    keep = frozenset(contenders)
    out = frozenset(range(len(table.players))) - keep
    table.record = replace(record, out=out)
    table.winner = table.loser = None
    names = " and ".join(table.name(s) for s in contenders)
    table.say(
        "replay",
        f"Nobody is left below {limit}: the deal is cancelled and replayed among {names}",
        ("VA-SESSION-NOBODY-ALONE", "VA-SCORING-GAME-WINNER"),
    )
    dealer = table.dealer if table.dealer is not None else contenders[0]
    if dealer not in keep:
        count = len(table.players)
        dealer = next(
            (dealer + k) % count for k in range(1, count + 1) if (dealer + k) % count in keep
        )
    table.dealer = dealer
    table.say(
        "next-dealer",
        f"{table.name(dealer)} deals the deal again",
        ("VA-SESSION-NOBODY-ALONE",),
        dealer,
    )


@implements("VA-SESSION-NOBODY-ALONE", "V8-SCORING-WIN-LOSS-TALLY")
def withdraw_result(table: Table, untallied: Record) -> None:
    """nobody_alone = replay-deal (VA-AMB-NOBODY-UNDER-100) beside a win-and-loss tally: the
    cancelled deal has no result, so the official win and loss recorded for it are taken back
    (``untallied`` is the record before them)."""
    table.record = replace(
        table.record,
        official=untallied.official,
        wins=untallied.wins,
        losses=untallied.losses,
    )
    table.say(
        "unofficial",
        "The cancelled deal has no result: its official win and loss are taken back",
        ("VA-SESSION-NOBODY-ALONE", "V8-SCORING-WIN-LOSS-TALLY"),
    )


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
    if rule is NextDealer.LOSER_DEALS and _new_draw_due(table, winner, loser):
        table.dealer = None
        table.say(
            "next-dealer",
            "The deal has no official loser: a fresh draw for the deal decides who deals next",
            ("V8-SESSION-LOSER-DEALS-NEXT", "V8-LOSS-OFFICIAL-NEEDS-THREE"),
        )
        return
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


def _new_draw_due(table: Table, winner: int | None, loser: int | None) -> bool:
    """dealer_without_loser = new-draw (V8-AMB-DEALER-AFTER-NO-LOSER): where the loser would deal
    but the deal has no official loser (a drawn or void deal, no loser found, or fewer active
    players than V8-LOSS-OFFICIAL-NEEDS-THREE asks), the next deal begins with a fresh draw
    for the deal, as the first deal of a session does."""
    if table.options.dealer_without_loser is not DealerWithoutLoser.NEW_DRAW:
        return False
    if winner is None or loser is None:
        return True
    need = table.options.min_active_for_result
    return not (table.active_at_start >= need and table.active() >= need)


def finish_deal(
    table: Table,
    winner: int | None,
    text: str,
    clauses: tuple[str, ...],
    *,
    count_hands: bool = False,
) -> None:
    """End the deal: the result, the record, the next dealer. A deal without a winner scores
    every hand only when ``count_hands`` says so (a blocked deal under blocked_deal =
    count-hands); a drawn or void deal scores nothing."""
    table.phase = Phase.DEAL_OVER
    table.winner = winner
    table.say("deal-over", text, clauses, winner)
    table.record = replace(table.record, deals=table.record.deals + 1)
    untallied = table.record
    loser = None
    if winner is not None:
        loser = loser_of(table, winner)
        if loser is not None:
            table.loser = loser
            how = (
                "the last spelförare before the winning turn"
                if table.options.loser_rule is LoserRule.LAST_TURN_BEFORE
                and loser == table.previous
                else "the nearest present player seated before the winner"
            )
            clauses_of_loss: tuple[str, ...] = ("V8-LOSS-PLAYER-BEFORE-WINNER",)
            passed = _passed_over(table, winner, loser)
            if passed:
                names = ", ".join(table.name(s) for s in passed)
                how += f" (passing over {names}, away)"
                clauses_of_loss += ("V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER",)
            table.say("loser", f"{table.name(loser)}, {how}, loses", clauses_of_loss, loser)
            tally(table, winner, loser)
    if winner is not None and table.options.game_end is GameEnd.SINGLE_DEAL:
        single_deal_game(table, winner)
        return
    counted = winner is not None or count_hands
    replayed = False
    if table.options.scoring is Scoring.CARD_POINTS and counted:
        most, replayed = score_points(table, winner)
        if replayed and table.record.official != untallied.official:
            withdraw_result(table, untallied)
        if table.options.loser_rule is LoserRule.NONE:
            loser = most
    if table.phase is not Phase.MATCH_OVER and not replayed:
        next_dealer(table, winner, loser)


@implements("VA-SCORING-OPTIONAL", "VA-WIN-OUT-AFTER-LAPPEN", "VA-WIN-FIRST-EMPTY-HAND")
def single_deal_game(table: Table, winner: int) -> None:
    """game_end = single-deal (VA-AMB-POINTS-OR-ONE-DEAL): the game is not played for points,
    so the winner of the deal is the winner of the game and nothing is scored."""
    end_match(
        table,
        (winner,),
        f"The game is one deal, not played for points: {table.name(winner)} wins the game",
        ("VA-SCORING-OPTIONAL", "VA-WIN-OUT-AFTER-LAPPEN"),
    )


@implements("VA-SCORING-OTHERS-COUNT", "VA-SCORING-WINNER-ZERO")
def cheapest_hand(table: Table) -> tuple[int, int]:
    """blocked_deal = fewest-points-wins: the seat whose cards (hand and face-down penalty
    cards) are worth least by the points table, and their worth. Equal cheapest hands: the
    first of them in the order of play from the dealer's left."""
    dealer = table.dealer if table.dealer is not None else len(table.players) - 1
    skip = table.record.out | table.benched
    order = [*seats_after(len(table.players), dealer, skip), dealer]
    order = [s for s in order if s not in skip]
    worth = {
        s: card_points(table.hands[s] + tuple(c for p in table.penalties[s] for c in p.cards))
        for s in order
    }
    low = min(worth.values())
    return next(s for s in order if worth[s] == low), low


@implements("VA-WIN-BLOCKED-DEAL-VOID", "V8-WIN-BLOCKED-DEAL-VOID")
def end_blocked_deal(table: Table, clauses: tuple[str, ...]) -> None:
    """Every active player has passed in turn without laying or drawing (VA-AMB-BLOCKED-DEAL,
    V8-AMB-BLOCKED-DEAL, under blocked_deal): the deal is void (void), it ends and every hand
    is scored (count-hands), the cheapest hand wins it (fewest-points-wins, by
    :func:`cheapest_hand`), or nothing happens and the players pass on (play-on)."""
    rule = table.options.blocked_deal
    if rule is BlockedDeal.PLAY_ON:
        return
    if rule is BlockedDeal.FEWEST_POINTS_WINS:
        winner, worth = cheapest_hand(table)
        finish_deal(
            table,
            winner,
            f"Nobody can lay a card or draw one: {table.name(winner)}'s hand is worth least "
            f"({worth} points) and wins the deal",
            (*clauses, "VA-SCORING-OTHERS-COUNT"),
        )
        return
    finish_deal(
        table,
        None,
        "Nobody can lay a card or draw one: the deal is void",
        clauses,
        count_hands=rule is BlockedDeal.COUNT_HANDS,
    )


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
