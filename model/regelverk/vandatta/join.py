"""vvv8's late joiners (000 §1 ¶3): a newcomer takes a free seat, and when the turn reaches him
he is dealt as many cards as the player holding most, plus one, from the talon, or he lets the
turn go and waits for the next deal.

>>> from regelverk.vandatta import GAME, VVV8
>>> from regelverk.cards import parse_cards
>>> from regelverk.vandatta.state import Join, Play, StepIn
>>> state = GAME.position_from_data(
...     {"players": ["Ann", "Bo", "Cy", "Di"], "hands": {"Ann": ["9S", "5H"],
...      "Bo": ["2C", "3C", "4C"], "Cy": ["3D"], "Di": ["4D"]}, "pile": ["KH"], "turn": "Ann"},
...     VVV8)
>>> state = GAME.apply(state, Join(name="Eve", seat=1)).state
>>> state.players, sorted(state.joining)
(('Ann', 'Eve', 'Bo', 'Cy', 'Di'), [1])
>>> state = GAME.apply(state, Play(player=0, cards=parse_cards("5H"))).state
>>> state.players[state.turn]
'Eve'
>>> len(GAME.apply(state, StepIn(player=1)).state.hands[1])
4
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from regelverk.cards import Card
from regelverk.engine import IllegalActionError
from regelverk.marks import implements
from regelverk.registry import parameter
from regelverk.vandatta import talon
from regelverk.vandatta.conduct import paused
from regelverk.vandatta.options import LateJoinerCount, LateJoinerFirstTurn, LateJoinerSecondDeck
from regelverk.vandatta.rules import held
from regelverk.vandatta.setup import deck_count, full_pack, player_limit
from regelverk.vandatta.state import Join, Phase, Record, State, StayOut, StepIn
from regelverk.vandatta.table import Table

__all__ = [
    "EXTRA_CARDS",
    "EndTurn",
    "Joining",
    "added_to_talon",
    "join_error",
    "perform_join",
    "perform_joining",
    "seat_in",
]

Joining = Join | StepIn | StayOut
"""The actions of this module."""

_SEAT = ("V8-JOIN-DRAW-GIVES-EQUAL-TERMS", "V8-JOIN-LATE-TAKE-FREE-SEAT")

EXTRA_CARDS = parameter("V8-JOIN-LATE-CARDS-MOST-PLUS-ONE", "extra_cards")
"""The cards a late joiner is dealt beyond the most anyone holds (V8-JOIN-LATE-CARDS-MOST-PLUS-ONE),
read from the spec."""


def _refuse(message: str, clauses: tuple[str, ...]) -> IllegalActionError:
    return IllegalActionError(message, clauses)


@implements("V8-DEAL-SEVEN-ROUNDS", "V8-JOIN-LATE-TAKE-FREE-SEAT")
def _pack_error(state: State, count: int) -> IllegalActionError | None:
    """A seat is free only if the next deal can still be dealt: a hand for each of ``count``
    players and a start card from the decks the table then uses (the same bound a new match
    meets; under deck_setup = one-deck an eighth player would need 57 cards of 52)."""
    options = state.options
    decks = max(state.decks, deck_count(options, count))
    pack, needed = 52 * decks, options.hand_size * count + 1
    if needed <= pack:
        return None
    return _refuse(
        f"there is no free seat: dealing {options.hand_size} cards to each of {count} players "
        f"and turning a start card needs {needed} cards, but the pack has {pack}",
        (*_SEAT, "V8-DEAL-SEVEN-ROUNDS"),
    )


@implements(
    "V8-JOIN-DRAW-GIVES-EQUAL-TERMS", "V8-JOIN-LATE-TAKE-FREE-SEAT", "V8-JOIN-LATE-NO-SECOND-DECK"
)
def join_error(state: State, action: Joining) -> IllegalActionError | None:  # noqa: PLR0911
    """A newcomer who was not in the draw for the deal does not play on the same terms: he may
    only take a free seat during a deal and wait for the turn to reach it, and while play
    pauses for want of two active players he waits with everyone else
    (V8-PRESENCE-PAUSE-BELOW-TWO). A seat is free while
    the table stays within its player limit and its decks (or, under late_joiner_second_deck =
    add-deck, whatever decks it then needs: they are added)."""
    if not state.options.presence:
        return _refuse("this rulebook has no rules for late joiners", ())
    if isinstance(action, Join):
        count = len(state.players)
        most, clauses = player_limit(state.options)
        if state.phase is not Phase.PLAY:
            return _refuse("a late joiner sits down while a deal is being played", _SEAT)
        if not action.name or action.name in state.players:
            return _refuse(f"a late joiner needs a name of his own, not {action.name!r}", _SEAT)
        if not 0 <= action.seat <= count:
            return _refuse(f"there is no seat {action.seat} to sit down at", _SEAT)
        if count + 1 > most:
            return _refuse(f"there is no free seat: {most} players at most", _SEAT + clauses)
        if (
            deck_count(state.options, count + 1) != state.decks
            and state.options.late_joiner_second_deck is LateJoinerSecondDeck.REFUSE
        ):
            return _refuse(
                f"there is no free seat: {count + 1} players need another deck, which cannot "
                "be added in the middle of a deal",
                (*_SEAT, "V8-JOIN-LATE-NO-SECOND-DECK", "V8-SETUP-TWO-DECKS-FOUR-PLUS"),
            )
        return _pack_error(state, count + 1)
    name = state.players[action.player] if 0 <= action.player < len(state.players) else "?"
    if action.player not in state.joining:
        return _refuse(
            f"{name} is not a late joiner waiting for his turn",
            ("V8-JOIN-LATE-TAKE-FREE-SEAT", "V8-JOIN-LATE-MISSED-TURN-WAIT"),
        )
    if state.phase is not Phase.PLAY or state.turn != action.player:
        return _refuse(
            f"{name} steps in only when the turn reaches his seat",
            ("V8-JOIN-LATE-TAKE-FREE-SEAT", "V8-JOIN-LATE-CARDS-MOST-PLUS-ONE"),
        )
    if paused(state):
        return _refuse(
            f"fewer than two players are at the table: play pauses until someone comes back, "
            f"and {name} waits with it",
            ("V8-PRESENCE-PAUSE-BELOW-TWO", "V8-JOIN-LATE-CARDS-MOST-PLUS-ONE"),
        )
    return None


def seat_in(state: State, join: Join) -> State:
    """``state`` with the newcomer seated at ``join.seat``; every seat from there on moves up,
    in every field that names a seat (standing calls, false calls waiting to be caught, used-up
    vetoes, absences included).
    Where the larger table needs more decks (late_joiner_second_deck = add-deck), they are
    shuffled into the talon (:func:`added_to_talon`)."""
    at = join.seat

    def shift(seat: int) -> int:
        return seat + 1 if seat >= at else seat

    def shifted(seats: frozenset[int]) -> frozenset[int]:
        return frozenset(shift(s) for s in seats)

    def widened(values: tuple[int, ...]) -> tuple[int, ...]:
        return (*values[:at], 0, *values[at:]) if values else values

    def moved(seat: int | None) -> int | None:
        return None if seat is None else shift(seat)

    record = state.record
    decks, stock, shuffles = added_to_talon(state, len(state.players) + 1)
    return dataclasses.replace(
        state,
        decks=decks,
        stock=stock,
        shuffles=shuffles,
        players=(*state.players[:at], join.name, *state.players[at:]),
        hands=(*state.hands[:at], (), *state.hands[at:]),
        penalties=(*state.penalties[:at], (), *state.penalties[at:]),
        dealer=moved(state.dealer),
        turn=shift(state.turn),
        previous=moved(state.previous),
        winner=moved(state.winner),
        loser=moved(state.loser),
        calls=shifted(state.calls),
        false_calls=shifted(state.false_calls),
        vetoed=shifted(state.vetoed),
        away=shifted(state.away),
        benched=shifted(state.benched) | {at},
        joining=shifted(state.joining) | {at},
        vetoable=None,
        may_veto=frozenset(),
        record=Record(
            deals=record.deals,
            official=record.official,
            wins=widened(record.wins),
            losses=widened(record.losses),
            points=widened(record.points),
            out=shifted(record.out),
            champions=tuple(shift(s) for s in record.champions),
        ),
    )


@implements("V8-JOIN-LATE-TAKE-FREE-SEAT", "V8-SETUP-TWO-DECKS-FOUR-PLUS")
def added_to_talon(state: State, players: int) -> tuple[int, tuple[Card, ...], int]:
    """late_joiner_second_deck = add-deck (V8-AMB-LATE-JOINER-SECOND-DECK): the decks a table of
    ``players`` uses, the talon with any deck it lacks shuffled in (the whole talon shuffled
    again, from the game's seed), and the state's count of random operations. With the decks
    the table already has, nothing changes."""
    decks = deck_count(state.options, players)
    if decks <= state.decks:
        return state.decks, state.stock, state.shuffles
    extra = full_pack(decks - state.decks)
    stock = [*state.stock, *extra]
    shuffles = state.shuffles + 1
    random.Random(f"{state.seed}:{state.deal_number}:join-deck:{shuffles}").shuffle(stock)
    return decks, tuple(stock), shuffles


def perform_join(table: Table, join: Join) -> None:
    """Say that the newcomer has sat down (the seat itself is made by :func:`seat_in`)."""
    before = deck_count(table.options, len(table.players) - 1)
    if table.base.decks > before:
        added = table.base.decks - before
        table.say(
            "add-deck",
            f"{join.name} makes {len(table.players)} players: {added} more deck"
            f"{'s are' if added > 1 else ' is'} shuffled into the talon "
            f"({len(table.stock)} cards)",
            ("V8-SETUP-TWO-DECKS-FOUR-PLUS", "V8-JOIN-LATE-TAKE-FREE-SEAT"),
            join.seat,
        )
    table.say(
        "join",
        f"{join.name} sits down in a free seat and waits for the turn to reach him",
        _SEAT,
        join.seat,
    )


EndTurn = Callable[[Table, int], None]
"""Passes the turn on from a seat (the turn logic of :mod:`regelverk.vandatta.adjudication`)."""


def perform_joining(table: Table, action: StepIn | StayOut, end_turn: EndTurn) -> None:
    """The joiner's turn has come: he steps in, or lets it go."""
    if isinstance(action, StepIn):
        _step_in(table, action.player, end_turn)
    else:
        _stay_out(table, action.player, end_turn)


@implements(
    "V8-JOIN-LATE-CARDS-MOST-PLUS-ONE",
    "V8-JOIN-LATE-CARDS-FROM-TALON",
    "V8-JOIN-LATE-TAKE-FREE-SEAT",
)
def _step_in(table: Table, seat: int, end_turn: EndTurn) -> None:
    """He is dealt from the talon as many cards as the player holding most, plus one
    (late_joiner_count: penalty and locked cards counted or not); then he plays at once, or
    the turn passes on and he plays next round (late_joiner_first_turn)."""
    state = table.freeze()
    every = table.options.late_joiner_count is LateJoinerCount.ALL_HELD
    others = [s for s in range(len(table.players)) if s not in table.benched]
    most = max((held(state, s) if every else len(state.hands[s]) for s in others), default=0)
    table.benched = table.benched - {seat}
    table.joining = table.joining - {seat}
    dealt = 0
    for _ in range(most + EXTRA_CARDS):
        if talon.draw_one(table, seat) is None or table.drawn_deal:
            break
        dealt += 1
    table.say(
        "step-in",
        f"{table.name(seat)} steps in: the most anyone holds is {most}, so he is dealt "
        f"{dealt} cards from the talon",
        (
            "V8-JOIN-LATE-CARDS-MOST-PLUS-ONE",
            "V8-JOIN-LATE-CARDS-FROM-TALON",
            "V8-JOIN-LATE-TAKE-FREE-SEAT",
        ),
        seat,
    )
    if table.options.late_joiner_first_turn is LateJoinerFirstTurn.CARDS_THEN_NEXT_ROUND:
        table.say(
            "step-in",
            f"{table.name(seat)} plays first next round",
            ("V8-JOIN-LATE-TAKE-FREE-SEAT",),
            seat,
        )
        end_turn(table, seat)


@implements("V8-JOIN-LATE-MISSED-TURN-WAIT")
def _stay_out(table: Table, seat: int, end_turn: EndTurn) -> None:
    """A joiner who does not step in when his turn comes waits for the next deal."""
    table.joining = table.joining - {seat}
    table.say(
        "stay-out",
        f"{table.name(seat)} lets his turn go and waits for the next deal",
        ("V8-JOIN-LATE-MISSED-TURN-WAIT",),
        seat,
    )
    end_turn(table, seat)
