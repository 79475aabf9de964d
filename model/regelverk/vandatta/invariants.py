"""``problems(state)``: every invariant a state breaks, in words (empty for a sound state)."""

from __future__ import annotations

from collections import Counter

from regelverk.cards import french_deck, missing_and_extra
from regelverk.vandatta.adjudication import legal_actions
from regelverk.vandatta.options import OverLimit, Scoring
from regelverk.vandatta.rules import is_eight
from regelverk.vandatta.setup import deck_count
from regelverk.vandatta.state import Phase, State

__all__ = ["problems"]


def problems(state: State) -> tuple[str, ...]:
    """Every invariant ``state`` breaks: cards, seats, the turn, the phase, the match record."""
    found = [
        *_card_problems(state),
        *_seat_problems(state),
        *_result_problems(state),
        *_record_problems(state),
        *_veto_problems(state),
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
    if state.decks not in (1, 2):
        return [f"the game uses one or two decks, not {state.decks}"]
    zones = [
        *state.hands,
        *(s.cards for sets in state.penalties for s in sets),
        state.stock,
        state.pile,
        state.turned,
        state.early,
    ]
    missing, extra = missing_and_extra(french_deck(state.decks), zones)
    decks = "one deck" if state.decks == 1 else "two decks"
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
    elif state.phase is Phase.PLAY and (state.turn in state.away or state.turn in state.record.out):
        found.append(f"the turn is with {state.players[state.turn]}, who may not act")
    if state.dealer is not None and not 0 <= state.dealer < count:
        found.append(f"the dealer is seat {state.dealer}, which does not exist")
    if not 0 <= state.draws <= state.options.max_draws:
        found.append(f"{state.draws} draws in one turn is outside 0 to {state.options.max_draws}")
    for seat, sets in enumerate(state.penalties[:count]):
        if any(not p.cards or p.release_after < 0 for p in sets):
            found.append(f"{state.players[seat]} has an empty or badly timed penalty set")
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
    hand or among his penalty cards."""
    if state.vetoable is None:
        return []
    seat, cards = state.vetoable
    if not 0 <= seat < len(state.players):
        return [f"the penalty cards open to a veto belong to seat {seat}, which does not exist"]
    held = Counter(state.hands[seat]) + Counter(c for s in state.penalties[seat] for c in s.cards)
    missing = Counter(cards) - held
    if missing:
        shown = " ".join(str(c) for c in sorted(missing.elements()))
        return [f"{state.players[seat]} does not hold {shown}, which he is said to have taken"]
    return []


def _pile_problems(state: State) -> list[str]:
    found = []
    top = state.top
    if state.phase is Phase.START_SUIT and (top is None or not is_eight(top)):
        found.append("the dealer names a start suit only on a start eight")
    if state.phase in (Phase.PLAY, Phase.START_SUIT) and top is None and state.named_suit is None:
        found.append("the pile is empty and no suit is named: there is nothing to play on")
    if state.named_suit is not None and top is not None and not is_eight(top):
        found.append(f"a suit is named but the top card {top} is no eight")
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
    if record.champions and state.phase is not Phase.MATCH_OVER:
        found.append("a champion is named but the match is not over")
    if state.phase is Phase.MATCH_OVER and not record.champions:
        found.append("the match is over but nobody is named champion")
    return found + _pile_problems(state)


def _turn_problems(state: State) -> list[str]:
    if state.phase is Phase.DEAL_OVER and state.winner is not None:
        seat = state.winner
        if state.hands[seat] or state.penalties[seat]:
            return [f"{state.players[seat]} won the deal but still holds cards"]
    if state.phase is not Phase.MATCH_OVER and not legal_actions(state):
        return [f"nobody may act: {state.players[state.turn]} has no legal action"]
    return []
