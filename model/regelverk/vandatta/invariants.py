"""``problems(state)``: every invariant a state breaks, in words (empty for a sound state)."""

from __future__ import annotations

from collections import Counter

from regelverk.cards import missing_and_extra
from regelverk.marks import implements
from regelverk.vandatta.listing import legal_actions
from regelverk.vandatta.options import (
    AbsentTurn,
    BlockedDeal,
    FalseCallDetection,
    OverLimit,
    Scoring,
    VetoLimit,
)
from regelverk.vandatta.rules import is_eight
from regelverk.vandatta.scoring import card_points
from regelverk.vandatta.setup import deck_count, full_pack, most_decks
from regelverk.vandatta.state import Phase, Restart, State

__all__ = ["problems", "step_problems"]


def problems(state: State) -> tuple[str, ...]:
    """Every invariant ``state`` breaks: cards, seats, the turn, the phase, the match record."""
    found = [
        *_card_problems(state),
        *_seat_problems(state),
        *_result_problems(state),
        *_record_problems(state),
        *_veto_problems(state),
        *_false_call_problems(state),
    ]
    if not found:
        found += _turn_problems(state)
    return tuple(found)


def _card_problems(state: State) -> list[str]:
    found = []
    count = len(state.players)
    if len(state.hands) != count or len(state.penalties) != count:
        return [
            f"there are {count} players but {len(state.hands)} hands and "
            f"{len(state.penalties)} penalty zones"
        ]
    most = most_decks(state.options)
    if not 1 <= state.decks <= most:
        return [f"the game uses one to {most} decks, not {state.decks}"]
    zones = [
        *state.hands,
        *(s.cards for sets in state.penalties for s in sets),
        state.stock,
        state.pile,
        state.turned,
        state.early,
    ]
    missing, extra = missing_and_extra(full_pack(state.decks), zones)
    decks = "one deck" if state.decks == 1 else f"{state.decks} decks"
    if missing:
        found.append(f"cards missing from {decks}: {' '.join(str(c) for c in missing.elements())}")
    if extra:
        found.append(
            f"cards beyond {decks} (each physical card must be in exactly one place): "
            + " ".join(str(c) for c in extra.elements())
        )
    if state.decks != deck_count(state.options, count):
        found.append(
            f"{count} players use {deck_count(state.options, count)} deck(s), not {state.decks}"
        )
    return found


def _someone_at_the_table(state: State) -> bool:
    """Is anyone who takes part in the deal (or waits to step in) at the table? Only while
    nobody is may the turn rest with an absent player under absent_turn = skip: there was
    nobody to pass it to."""
    outside = state.record.out | state.away | (state.benched - state.joining)
    return any(seat not in outside for seat in range(len(state.players)))


def _seat_problems(state: State) -> list[str]:  # noqa: PLR0912
    found = []
    count = len(state.players)
    seats = set(range(count))
    if len(set(state.players)) != count:
        found.append("two players have the same name")
    for label, group in (
        ("calls", state.calls),
        ("away", state.away),
        ("benched", state.benched),
        ("joining", state.joining),
    ):
        if not group <= seats:
            found.append(f"{label} names a seat that does not exist")
    if not 0 <= state.turn < count:
        found.append(f"the turn is with seat {state.turn}, which does not exist")
    elif state.phase is Phase.PLAY and (
        (
            state.turn in state.away
            and state.options.absent_turn is not AbsentTurn.WAIT
            and _someone_at_the_table(state)
        )
        or state.turn in state.record.out
    ):
        found.append(f"the turn is with {state.players[state.turn]}, who may not act")
    if state.dealer is not None and not 0 <= state.dealer < count:
        found.append(f"the dealer is seat {state.dealer}, which does not exist")
    if not 0 <= state.draws <= state.options.max_draws:
        found.append(f"{state.draws} draws in one turn is outside 0 to {state.options.max_draws}")
    for seat, sets in enumerate(state.penalties[:count]):
        # A penalty the talon could not serve is an empty set: it still keeps a failed going
        # out from counting as one (penalty.penalise), so only its timing is checked.
        if any(p.release_after < 0 for p in sets):
            found.append(f"{state.players[seat]} has a badly timed penalty set")
        if any(p.owed and p.cards for p in sets) or any(p.owed < 0 for p in sets):
            found.append(f"{state.players[seat]} owes cards in a set that already holds some")
        if any(p.owed for p in sets) and state.phase is Phase.PLAY and seat != state.turn:
            found.append(
                f"{state.players[seat]} owes the extra cards of a failed going out outside his "
                "own turn: he takes them as he hands the turn on"
            )
    if state.early and state.phase is not Phase.START_SUIT:
        found.append("cards laid early on a start eight lie there after the suit is named")
    if not state.joining <= state.benched:
        found.append("a late joiner still to step in is not marked as outside the deal")
    for seat in state.benched & seats:
        if state.hands[seat] or state.penalties[seat]:
            found.append(f"{state.players[seat]} is outside the deal but holds cards")
    if state.turn in state.benched - state.joining and state.phase is Phase.PLAY:
        found.append(f"the turn is with {state.players[state.turn]}, who waits for the next deal")
    if state.vetoable is not None and not 0 <= state.vetoable[0] < count:
        found.append("the penalty open to a veto belongs to a seat that does not exist")
    if state.phase in (Phase.PLAY, Phase.START_SUIT):
        for seat in state.record.out:
            if seat < count and (state.hands[seat] or state.penalties[seat]):
                found.append(f"{state.players[seat]} is out of the game but holds cards")
    return found


def _result_problems(state: State) -> list[str]:
    """The deal's winner and loser are seats, and a loser goes with a different winner."""
    found = []
    for label, seat in (("winner", state.winner), ("loser", state.loser)):
        if seat is not None and not 0 <= seat < len(state.players):
            found.append(f"the {label} is seat {seat}, which does not exist")
    if state.loser is not None and (state.winner is None or state.loser == state.winner):
        found.append("a loser is named without a different winner")
    return found


def _veto_problems(state: State) -> list[str]:
    """Penalty cards open to a veto (V8-PEN-VETO-RIGHT) are cards their taker holds: in his
    hand or among his penalty cards; and some other player with a standing call may still veto
    them (V8-PEN-VETO-CONDITION), nobody when nothing is open to a veto."""
    if state.vetoable is None:
        return (
            ["someone may veto, but no penalty cards are open to a veto"] if state.may_veto else []
        )
    seat, cards = state.vetoable
    if not 0 <= seat < len(state.players):
        return [f"the penalty cards open to a veto belong to seat {seat}, which does not exist"]
    if not state.may_veto:
        return ["penalty cards are open to a veto that nobody may make"]
    if not state.may_veto <= state.calls - {seat}:
        return ["a player without a standing call, or the offender himself, may veto a penalty"]
    held = Counter(state.hands[seat]) + Counter(c for s in state.penalties[seat] for c in s.cards)
    missing = Counter(cards) - held
    if missing:
        shown = " ".join(str(c) for c in sorted(missing.elements()))
        return [f"{state.players[seat]} does not hold {shown}, which he is said to have taken"]
    return []


def _false_call_problems(state: State) -> list[str]:
    """Unpunished false calls exist only under false_call_detection = when-revealed and are
    void: one stands beside a standing call only in the spelförare's turn, whose call from his
    last turn holds until it ends; offenders whose veto is used up exist only under veto_limit =
    once-per-offender-turn (V8-PEN-FALSE-CALL-CAUGHT, V8-PEN-VETO-RIGHT)."""
    found = []
    seats = set(range(len(state.players)))
    options = state.options
    if not state.false_calls <= seats or not state.vetoed <= seats:
        found.append("an unpunished false call or a used-up veto names a seat that does not exist")
    if state.false_calls and options.false_call_detection is not FalseCallDetection.WHEN_REVEALED:
        found.append("a false utgång waits to be caught, but the table penalises it as it is made")
    if (state.false_calls & state.calls) - {state.turn}:
        # the spelförare's call from his last turn still stands while he says a void one, out
        # of time or without a real chance: both end with his turn, never outside it
        found.append("a false utgång waiting to be caught is also a standing call")
    if state.vetoed and options.veto_limit is not VetoLimit.ONCE_PER_OFFENDER_TURN:
        found.append("a veto is counted as used up, but the table sets no limit on vetoes")
    return found


def _pile_problems(state: State) -> list[str]:
    found = []
    top = state.top
    if state.phase is Phase.START_SUIT and (top is None or not is_eight(top)):
        found.append("the dealer names a start suit only on a start eight")
    if state.phase in (Phase.PLAY, Phase.START_SUIT) and top is None and state.named_suit is None:
        found.append("the pile is empty and no suit is named: there is nothing to play on")
    if state.named_suit is not None and top is not None and not is_eight(top):
        found.append(f"a suit is named but the top card {top} is no eight")
    if state.free_lead and (
        state.restart is not Restart.NONE
        or state.phase in (Phase.READY, Phase.MISDEAL, Phase.START_SUIT)
    ):
        found.append("a free lead is granted only to a spelförare in an ordinary turn of play")
    return found


def _record_problems(state: State) -> list[str]:
    record, count = state.record, len(state.players)
    found = []
    if not len(record.wins) == len(record.losses) == len(record.points) == count:
        return ["the match record does not have one entry per player"]
    if sum(record.wins) != record.official or sum(record.losses) != record.official:
        found.append(
            f"{record.official} official results but {sum(record.wins)} wins and "
            f"{sum(record.losses)} losses recorded"
        )
    if record.official > record.deals:
        found.append("more official results than deals played")
    if any(p < 0 for p in record.points):
        found.append("negative points in the record")
    options = state.options
    if options.scoring is Scoring.CARD_POINTS and options.over_limit is OverLimit.ELIMINATED:
        for seat in range(count):
            over = record.points[seat] >= options.score_limit
            if over != (seat in record.out):
                found.append(
                    f"{state.players[seat]} has {record.points[seat]} points but is "
                    + ("still playing" if over else "out of the game")
                )
    elif options.scoring is Scoring.CARD_POINTS:  # over_limit = play-on (VA-AMB-OVER-100)
        for seat in record.out:
            if seat < count and record.points[seat] < options.score_limit:
                found.append(
                    f"{state.players[seat]} has {record.points[seat]} points, below the limit, "
                    "but is out of the game"
                )
    if record.champions and state.phase is not Phase.MATCH_OVER:
        found.append("a champion is named but the match is not over")
    if state.phase is Phase.MATCH_OVER and not record.champions:
        found.append("the match is over but nobody is named champion")
    return found + _pile_problems(state)


def _turn_problems(state: State) -> list[str]:
    if state.phase is Phase.DEAL_OVER and state.winner is not None:
        seat = state.winner
        if (state.hands[seat] or state.penalties[seat]) and not _cheapest(state, seat):
            return [f"{state.players[seat]} won the deal but still holds cards"]
    if state.phase is not Phase.MATCH_OVER and not legal_actions(state):
        return [f"nobody may act: {state.players[state.turn]} has no legal action"]
    return []


def _cheapest(state: State, seat: int) -> bool:
    """Under blocked_deal = fewest-points-wins a blocked deal is won by a player who holds cards:
    his cards must be worth no more than any other player's in the deal (VA-AMB-BLOCKED-DEAL)."""
    if state.options.blocked_deal is not BlockedDeal.FEWEST_POINTS_WINS:
        return False

    def worth(s: int) -> int:
        return card_points(state.hands[s] + tuple(c for p in state.penalties[s] for c in p.cards))

    others = [s for s in state.in_deal if s not in state.benched]
    return all(worth(seat) <= worth(s) for s in others)


def _active(state: State) -> int:
    """Players taking part and present: not away, not waiting outside the deal, not out."""
    gone = state.away | state.benched | state.record.out
    return sum(1 for seat in range(len(state.players)) if seat not in gone)


@implements(
    "V8-LOSS-OFFICIAL-NEEDS-THREE", "V8-SCORING-WIN-LOSS-TALLY", "V8-LOSS-PLAYER-BEFORE-WINNER"
)
def step_problems(before: State, after: State) -> tuple[str, ...]:
    """Every law one step from ``before`` to ``after`` breaks (what :func:`problems` cannot see
    in one state): an official result is recorded only with enough active players when the deal
    began and at its end (V8-LOSS-OFFICIAL-NEEDS-THREE), and it gives exactly one win, to the
    deal's winner, and exactly one loss, to its loser, another player (V8-SCORING-WIN-LOSS-TALLY,
    V8-LOSS-PLAYER-BEFORE-WINNER). A step that seats a late joiner is not compared."""
    old, new = before.record, after.record
    if len(before.players) != len(after.players) or new.official == old.official:
        return ()
    need = after.options.min_active_for_result
    found = []
    if new.official != old.official + 1:
        found.append(f"one step recorded {new.official - old.official} official results")
    if after.active_at_start < need or _active(before) < need:
        found.append(
            f"an official result with {after.active_at_start} active players at the start of "
            f"the deal and {_active(before)} at its end, fewer than {need}"
        )
    winner, loser = after.winner, after.loser
    if winner is None or loser is None or winner == loser:
        return (*found, "an official result without a winner and a different loser")
    wins = [n - o for n, o in zip(new.wins, old.wins, strict=True)]
    losses = [n - o for n, o in zip(new.losses, old.losses, strict=True)]
    if wins != [int(s == winner) for s in range(len(wins))]:
        found.append(f"the official win went elsewhere than to the winner {after.players[winner]}")
    if losses != [int(s == loser) for s in range(len(losses))]:
        found.append(f"the official loss went elsewhere than to the loser {after.players[loser]}")
    return tuple(found)
