"""Laying cards: whether a play fits (the first card, a group of one rank, eights, going out),
and what it does (an eight's new suit, an ace's draws, the last card).
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from regelverk.cards import Card
from regelverk.engine import IllegalActionError
from regelverk.marks import implements
from regelverk.vandatta import calling, citing, talon, turns
from regelverk.vandatta.options import (
    AceAgainDraws,
    AfterEight,
    GoOutCall,
    LastHandCardLocked,
    SameRankGroup,
    SeveralEights,
)
from regelverk.vandatta.rules import (
    ACE,
    EIGHT,
    LAPPEN,
    RESTART_ACE,
    RESTART_NONE,
    call_stands,
    first_fits,
    follow_fits,
    goes_out,
    is_ace,
    is_eight,
    last_card_barred,
    owed,
    restart_possible,
    too_few_to_go_out,
)
from regelverk.vandatta.scoring import finish_deal
from regelverk.vandatta.setup import suit_name
from regelverk.vandatta.state import Play, Restart, State
from regelverk.vandatta.table import Table

__all__ = ["same_rank_error"]

# The readings and state members these rules ask for, bound once (see rules.py; those
# rules.py binds too are imported from there).
FRESH_THREE = AceAgainDraws.FRESH_THREE
TURN_PASSES = AfterEight.TURN_PASSES
UTGANG = GoOutCall.UTGANG
ALLOWED_NOT_OUT = LastHandCardLocked.ALLOWED_NOT_OUT
RESTART_EIGHT = Restart.EIGHT
ALL_OR_ONE = SameRankGroup.ALL_OR_ONE
TOGETHER = SeveralEights.TOGETHER


def _play_error(state: State, play: Play, *, from_hand: bool = False) -> IllegalActionError | None:
    """What is wrong with a play, if anything (``from_hand``: the cards are known to be held)."""
    name, cards = state.players[play.player], play.cards
    if not cards:
        return citing._refuse(
            f"{name} lays no card",
            citing._cite(state, ("V8-PLAY-MATCH-SUIT",), ("VA-PLAY-MATCH-RANK-OR-SUIT",)),
        )
    missing = (
        ()
        if from_hand or _holds(state.hands[play.player], cards)
        else (Counter(cards) - Counter(state.hands[play.player]))
    )
    if missing:
        return _missing_error(state, play.player, missing)
    error = _first_error(state, play)
    if error is None:
        error = _group_error(state, play)
    if error is None:
        error = same_rank_error(state, play)
    if error is None:
        error = _going_out_error(state, play)
    if error is None:
        error = _restart_error(state, play)
    if error is None:
        error = _play_call_error(state, play)
    return error


@implements("VA-TURN-RESTART-FALLBACK", "VA-ACE-FOLLOW-ACE-SUIT", "VA-EIGHT-LEAD-NAMED-SUIT")
def _restart_error(state: State, play: Play) -> IllegalActionError | None:
    """Under restart_fallback = ace-needs-follow an ace or an eight is laid only by a player who
    keeps a card to restart with (VA-AMB-RESTART-WITHOUT-SUIT)."""
    if restart_possible(state, play.cards, play.suit, state.hands[play.player]):
        return None
    name, card = state.players[play.player], play.cards[-1]
    if is_ace(card):
        return citing._refuse(
            f"{name} may lay {card} only with a {suit_name(card.suit)[:-1]} (or an eight) "
            "left to restart with on it",
            ("VA-ACE-FOLLOW-ACE-SUIT", "VA-TURN-RESTART-FALLBACK"),
        )
    named = suit_name(play.suit)[:-1] if play.suit is not None else "card of the named suit"
    return citing._refuse(
        f"{name} may lay {play.cards[0]} and name {suit_name(play.suit) if play.suit else 'a suit'}"
        f" only with a {named} (or another eight) left to restart with",
        ("VA-EIGHT-LEAD-NAMED-SUIT", "VA-TURN-RESTART-FALLBACK"),
    )


@implements("V8-PEN-CARDS-LOCKED-UNTIL-TURN-DONE")
def _missing_error(state: State, seat: int, missing: Counter[Card]) -> IllegalActionError:
    """Cards laid that are not in the hand: if they lie among his face-down penalty cards, they
    are locked until he has used up his turn as spelförare, not his to lay yet."""
    name, shown = state.players[seat], " ".join(str(c) for c in missing.elements())
    locked = Counter(c for item in state.penalties[seat] for c in item.cards)
    if not missing - locked:
        return citing._refuse(
            f"{name}'s {shown} lies among his face-down penalty cards, still locked: he may not "
            "lay it yet",
            ("V8-PEN-CARDS-LOCKED-UNTIL-TURN-DONE",),
        )
    return citing._refuse(f"{name} does not hold {shown} in his hand", ())


def _holds(hand: tuple[Card, ...], cards: tuple[Card, ...]) -> bool:
    """Whether the hand holds every card of ``cards`` (as a multiset), without hashing."""
    if len(cards) == 1:
        return cards[0] in hand
    rest = list(hand)
    for card in cards:
        if card not in rest:
            return False
        rest.remove(card)
    return True


def _first_error(state: State, play: Play) -> IllegalActionError | None:  # noqa: PLR0911
    card, name = play.cards[0], state.players[play.player]
    if is_eight(card) and play.suit is None:
        return citing._refuse(
            f"{name} must name a suit with {card}",
            citing._cite(state, ("V8-EIGHT-NAMES-SUIT",), ("VA-EIGHT-NAMES-SUIT",)),
        )
    if not is_eight(card) and play.suit is not None:
        return citing._refuse(
            f"a suit is named only with an eight, not with {card}",
            citing._cite(state, ("V8-EIGHT-NAMES-SUIT",), ("VA-EIGHT-NAMES-SUIT",)),
        )
    if first_fits(state, card):
        return None
    if state.restart is not RESTART_NONE and state.options.go_out_call is LAPPEN:
        if state.restart is RESTART_ACE:
            return citing._refuse(
                f"on his own ace {name} must lay a {suit_name(state.pile[-1].suit)[:-1]}"
                f" (or an eight), not {card}",
                ("VA-ACE-FOLLOW-ACE-SUIT", "VA-TURN-RESTART-FALLBACK"),
            )
        named = state.named_suit
        return citing._refuse(
            f"after his eight {name} restarts with a "
            f"{suit_name(named)[:-1] if named else 'card of the named suit'}, not {card}",
            ("VA-EIGHT-LEAD-NAMED-SUIT", "VA-TURN-RESTART-FALLBACK"),
        )
    if state.named_suit is not None and not is_eight(card):
        return citing._refuse(
            f"{suit_name(state.named_suit)} was named with the eight: {card} does not follow it",
            citing._cite(
                state,
                ("V8-EIGHT-SUIT-HOLDS-UNTIL-CHANGED", "V8-EIGHT-NAMES-SUIT"),
                ("VA-EIGHT-LEAD-NAMED-SUIT",),
            ),
        )
    top = state.top
    if is_eight(card):
        return citing._refuse(
            f"{card} must share the suit or rank of {top}", ("VA-EIGHT-WHEN-STUCK",)
        )
    if is_ace(card) and top is not None and (card.suit is not top.suit):
        return citing._refuse(
            f"{card} may not go on {top}: an ace goes only on a card of its own suit",
            citing._cite(
                state, ("V8-PLAY-MATCH-SUIT", "V8-PLAY-MATCH-RANK"), ("VA-ACE-SAME-SUIT",)
            ),
        )
    if state.restart is RESTART_ACE:
        return citing._refuse(
            f"on his ace {name} may lay only an ordinary card that fits it, not {card}",
            ("V8-ACE-SAME-PLAYER-AGAIN",),
        )
    return citing._refuse(
        f"{card} fits {top} neither by suit nor by rank",
        citing._cite(
            state,
            ("V8-PLAY-MATCH-SUIT", "V8-PLAY-MATCH-RANK", "V8-PEN-WRONG-CARD-OFFENCE"),
            ("VA-PLAY-MATCH-RANK-OR-SUIT",),
        ),
    )


@implements("V8-EIGHT-ONE-PER-PLAY", "V8-PLAY-SHOW-EVERY-CARD", "VA-PLAY-SEVERAL-SAME-RANK")
def _group_error(state: State, play: Play) -> IllegalActionError | None:
    """Several cards in one play: never two eights, each card fitting the one beneath; a play
    names every card it lays, so every card is shown. Under several_eights = together
    (VA-AMB-SEVERAL-EIGHTS) a play of eights only goes down as one play wherever its first
    eight may be laid: one turn of the pile, one named suit."""
    cards = play.cards
    if len(cards) == 1:
        return None
    if state.options.several_eights is TOGETHER and all(is_eight(c) for c in cards):
        return None
    if any(is_eight(c) for c in cards):
        return _eight_in_group_error(state, cards)
    for below, card in pairwise(cards):
        if not follow_fits(state, cards[0], card, below):
            return citing._refuse(
                f"{card} may not go on {below} in the same play",
                citing._cite(
                    state,
                    (
                        "V8-PLAY-SUIT-THEN-SAME-RANK",
                        "V8-PLAY-RANK-THEN-SAME-RANK-FREE-ORDER",
                        "V8-PEN-WRONG-CARD-EACH-FITS-BELOW",
                        "V8-PLAY-EXCEPTION-SAME-RANK-AS-START",
                    ),
                    ("VA-PLAY-SEVERAL-SAME-RANK", "VA-PLAY-RANK-CHANGES-SUIT"),
                ),
            )
    return None


@implements("V8-EIGHT-ONE-PER-PLAY", "V8-EIGHT-ENDS-TURN", "V8-PLAY-SUIT-THEN-SAME-RANK")
def _eight_in_group_error(state: State, cards: tuple[Card, ...]) -> IllegalActionError:
    """An eight laid with other cards, said as it is: two eights or more break one eight at a
    time (V8-EIGHT-ONE-PER-PLAY); an eight first is followed by nothing, for it ends the turn
    (V8-EIGHT-ENDS-TURN); an eight after another card is not of that card's rank
    (V8-PLAY-SUIT-THEN-SAME-RANK)."""
    other = ("VA-PLAY-SEVERAL-SAME-RANK",)
    if sum(1 for c in cards if is_eight(c)) > 1:
        return citing._refuse(
            "only one eight may be played at a time",
            citing._cite(state, ("V8-EIGHT-ONE-PER-PLAY",), other),
        )
    if is_eight(cards[0]):
        return citing._refuse(
            f"nothing may follow {cards[0]} in the same play: an eight goes down alone, and "
            "the turn passes after it",
            citing._cite(state, ("V8-EIGHT-ENDS-TURN", "V8-PEN-WRONG-CARD-EACH-FITS-BELOW"), other),
        )
    eight = next(c for c in cards if is_eight(c))
    below = cards[cards.index(eight) - 1]
    return citing._refuse(
        f"{eight} may not go on {below} in the same play: the further cards of a play are of "
        f"the first card's rank, and an eight goes down alone",
        citing._cite(
            state,
            (
                "V8-PLAY-SUIT-THEN-SAME-RANK",
                "V8-PLAY-RANK-THEN-SAME-RANK-FREE-ORDER",
                "V8-PEN-WRONG-CARD-EACH-FITS-BELOW",
                "V8-EIGHT-ENDS-TURN",
            ),
            other,
        ),
    )


@implements("V8-PLAY-SUIT-THEN-SAME-RANK", "V8-PLAY-RANK-THEN-SAME-RANK-FREE-ORDER")
def same_rank_error(state: State, play: Play) -> IllegalActionError | None:
    """Under same_rank_group = all-or-one (V8-AMB-SAME-RANK-ALL) a play of several cards of one
    rank takes every card of that rank in the hand: none may be kept back. Not a wrong card
    (each card fits), so it is refused without a penalty."""
    cards = play.cards
    if (
        state.options.same_rank_group is not ALL_OR_ONE
        or len(cards) < 2
        or is_eight(cards[0])
        or any(c.rank is not cards[0].rank for c in cards)
    ):
        return None
    kept = sum(1 for c in state.hands[play.player] if c.rank is cards[0].rank) - len(cards)
    if kept <= 0:
        return None
    return citing._refuse(
        f"{state.players[play.player]} lays several cards of one rank but keeps {kept} of that "
        "rank back: laying more than one, he lays them all",
        ("V8-PLAY-SUIT-THEN-SAME-RANK", "V8-PLAY-RANK-THEN-SAME-RANK-FREE-ORDER"),
    )


def _going_out_error(state: State, play: Play) -> IllegalActionError | None:
    seat, cards = play.player, play.cards
    if not goes_out(state, seat, len(cards)):
        return _emptied_hand_error(state, play)
    name = state.players[seat]
    if last_card_barred(state.options, cards, state.top):
        return citing._refuse(
            f"{name} may not go out on {cards[-1]}: the last card may never be an ace or an eight",
            citing._cite(
                state, ("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT",), ("VA-WIN-NOT-ON-ACE-OR-EIGHT",)
            ),
        )
    if not call_stands(state, seat):
        return citing._refuse(
            f"{name} may not go out: he did not call in his previous turn",
            citing._cite(
                state,
                ("V8-CALL-REQUIRED-TO-WIN", "V8-WIN-NO-CALL-NOT-OUT"),
                ("VA-WIN-OUT-AFTER-LAPPEN",),
            ),
        )
    if too_few_to_go_out(state):
        need = state.options.min_active_for_result
        return citing._refuse(
            f"{name} may not go out while fewer than {need} players are active: the last card "
            "waits until enough are back, so that the deal can end with an official result",
            (
                "V8-WIN-OUT-BELOW-THREE-ENDS-DEAL",
                "V8-LOSS-OFFICIAL-NEEDS-THREE",
                "V8-PRESENCE-MAY-DROP-TO-TWO",
            ),
        )
    if play.call:
        return citing._refuse(
            f"{name} goes out: there is nothing left to call",
            citing._cite(state, ("V8-CALL-TIMING",), ("VA-CALL-LAPPEN",)),
        )
    return None


@implements("V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS", "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT")
def _emptied_hand_error(state: State, play: Play) -> IllegalActionError | None:
    """A play that empties the hand while face-down cards are still held: allowed, and not a
    going out (last_hand_card_locked = allowed-not-out); under treated-as-going-out it counts
    as a going out attempt, so its last card may not be an ace or an eight."""
    seat, cards = play.player, play.cards
    if (
        state.options.last_hand_card_locked is ALLOWED_NOT_OUT
        or owed(state, seat)  # he failed to go out this turn already: no second attempt
        or len(state.hands[seat]) != len(cards)
        or not last_card_barred(state.options, cards, state.top)
    ):
        return None
    return citing._refuse(
        f"{state.players[seat]} may not empty his hand on {cards[-1]}: with penalty cards "
        "still locked that is a going out attempt, and the last card may never be an ace or an "
        "eight",
        ("V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS", "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT"),
    )


def _ends_turn(state: State, play: Play) -> bool:
    cards = play.cards
    if is_eight(cards[0]):
        return state.options.after_eight is TURN_PASSES
    if len(cards) == 1:
        return not is_ace(cards[0])
    return not any(is_ace(c) for c in cards)


def _after(state: State, play: Play) -> tuple[Card, ...]:
    hand = list(state.hands[play.player])
    for card in play.cards:
        hand.remove(card)
    return tuple(hand)


def _play_call_error(state: State, play: Play) -> IllegalActionError | None:
    if not play.call:
        return None
    if not _ends_turn(state, play):
        return citing._refuse(
            "the call is made with the last card of the turn, and this play does not end the turn",
            citing._cite(state, ("V8-CALL-TIMING",), ("VA-CALL-LAPPEN",)),
        )
    return calling._call_error(state, _after(state, play), play.cards)


def _play_clauses(table: Table, play: Play) -> tuple[str, ...]:
    state = table.base
    card = play.cards[0]
    utgang = table.options.go_out_call is UTGANG
    if is_eight(card):
        return (
            ("V8-EIGHT-ON-ANY-CARD", "V8-EIGHT-ONE-PER-PLAY", "V8-EIGHT-NAMES-SUIT")
            if (utgang)
            else ("VA-EIGHT-WHEN-STUCK", "VA-EIGHT-BY-CHOICE")
        )
    found: tuple[str, ...]
    by_rank = False
    if state.restart is not RESTART_NONE:
        found = (
            ("V8-ACE-SAME-PLAYER-AGAIN",)
            if utgang
            else (
                ("VA-ACE-SAME-PLAYER-AGAIN", "VA-ACE-FOLLOW-ACE-SUIT")
                if state.restart is RESTART_ACE
                else ("VA-EIGHT-LEAD-NAMED-SUIT", "VA-EIGHT-SAME-PLAYER-RESTARTS")
            )
        )
    elif state.named_suit is not None:
        found = ("V8-EIGHT-SUIT-HOLDS-UNTIL-CHANGED",) if utgang else ("VA-EIGHT-LEAD-NAMED-SUIT",)
    else:
        top = state.top
        by_rank = top is not None and card.rank is top.rank
        found = (
            (("V8-PLAY-MATCH-RANK",) if by_rank else ("V8-PLAY-MATCH-SUIT",))
            if utgang
            else (
                ("VA-PLAY-MATCH-RANK-OR-SUIT", "VA-PLAY-RANK-CHANGES-SUIT")
                if by_rank
                else ("VA-PLAY-MATCH-RANK-OR-SUIT",)
            )
        )
        if state.previous is None and len(state.pile) == 1:
            found += ("V8-PLAY-FORHAND-FIRST",) if utgang else ("VA-TURN-FIRST-PLAYS-ON-START",)
        else:
            found += ("V8-TURN-SAME-RULES-FOR-ALL",) if utgang else ()
    if is_ace(card) and not utgang:
        found += ("VA-ACE-SAME-SUIT",)
    if len(play.cards) > 1:
        found += (
            (
                (
                    "V8-PLAY-RANK-THEN-SAME-RANK-FREE-ORDER"
                    if by_rank
                    else "V8-PLAY-SUIT-THEN-SAME-RANK"
                ),
                "V8-PLAY-SHOW-EVERY-CARD",
                "V8-PEN-WRONG-CARD-EACH-FITS-BELOW",
            )
            if utgang
            else ("VA-PLAY-SEVERAL-SAME-RANK",)
        )
    if state.draws and not utgang:
        found += ("VA-DRAW-PLAY-DRAWN",)
    elif state.draws:
        found += ("V8-DRAW-STOP-WHEN-PLAYING",)
    return found


def _play(table: Table, play: Play) -> None:
    seat, cards = play.player, play.cards
    table.take_from_hand(seat, cards)
    table.pile.extend(cards)
    table.idle = 0
    table.free_lead = False
    shown = str(cards[0]) if len(cards) == 1 else ", ".join([str(c) for c in cards])
    table.say("play", f"{table.name(seat)} plays {shown}", _play_clauses(table, play), seat, cards)
    if not table.hands[seat] and table.penalties[seat]:
        _not_out_while_locked(table, seat)
    if cards[0].rank is EIGHT:
        _eight(table, play)
        return
    table.named_suit = None
    if not table.hands[seat] and not table.penalties[seat]:
        _out(table, seat)
        return
    aces = 0
    for card in cards:
        if card.rank is ACE:
            aces += 1
    if aces:
        _ace(table, seat, aces)
        return
    turns._end_turn(table, seat, call=play.call, laid=True)


@implements("V8-PEN-CARDS-COUNT-AS-HELD", "V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS")
def _not_out_while_locked(table: Table, seat: int) -> None:
    """His hand is empty, but the face-down cards in front of him (or the extra cards he owes)
    are still his: he is not out (last_hand_card_locked decides what else follows)."""
    held = sum(len(p.cards) + p.owed for p in table.penalties[seat])
    table.say(
        "not-out-locked",
        f"{table.name(seat)}'s hand is empty, but the {held} penalty card(s) he holds or owes are "
        "still his: he is not out",
        ("V8-PEN-CARDS-COUNT-AS-HELD", "V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS"),
        seat,
    )


@implements(
    "V8-WIN-FIRST-OUT-WINS",
    "V8-WIN-FIRST-TO-PLAY-LAST-CARD",
    "V8-WIN-AIM-SHED-CARDS",
    "VA-WIN-FIRST-EMPTY-HAND",
    "VA-WIN-DEAL-OVER",
    "VA-TURN-PLAY-UNTIL-OUT",
)
def _out(table: Table, seat: int) -> None:
    """The first player to get rid of all his cards wins the deal, and the deal is over."""
    if table.options.go_out_call is UTGANG:
        clauses: tuple[str, ...] = (
            "V8-WIN-FIRST-OUT-WINS",
            "V8-WIN-FIRST-TO-PLAY-LAST-CARD",
            "V8-WIN-AIM-SHED-CARDS",
            "V8-CALL-REQUIRED-TO-WIN",
        )
    else:
        clauses = ("VA-WIN-FIRST-EMPTY-HAND", "VA-WIN-DEAL-OVER", "VA-TURN-PLAY-UNTIL-OUT")
        if seat in table.calls:
            clauses += ("VA-WIN-OUT-AFTER-LAPPEN",)
    finish_deal(table, seat, f"{table.name(seat)} has no cards left and wins the deal", clauses)


@implements(
    "V8-EIGHT-ENDS-TURN",
    "V8-EIGHT-NAMES-SUIT",
    "VA-EIGHT-TURNS-PILE",
    "VA-EIGHT-NAMES-SUIT",
    "VA-EIGHT-SAME-PLAYER-RESTARTS",
)
def _eight(table: Table, play: Play) -> None:
    """An eight: the suit is named; vvv8 passes the turn, vandatta turns the pile away and lets
    the same player restart on the named suit."""
    seat, suit = play.player, play.suit
    assert suit is not None
    table.named_suit = suit
    if table.options.after_eight is TURN_PASSES:
        table.say(
            "name-suit",
            f"{table.name(seat)} names {suit_name(suit)}",
            ("V8-EIGHT-NAMES-SUIT", "V8-EIGHT-ENDS-TURN"),
            seat,
        )
        turns._end_turn(table, seat, call=play.call, laid=True, eight=True)
        return
    talon.turn_pile_away(table)
    table.restart = RESTART_EIGHT
    table.draws = 0
    table.say(
        "name-suit",
        f"The pile is turned away; {table.name(seat)} names {suit_name(suit)} and starts again",
        ("VA-EIGHT-TURNS-PILE", "VA-EIGHT-NAMES-SUIT", "VA-EIGHT-SAME-PLAYER-RESTARTS"),
        seat,
    )


@implements("V8-ACE-SAME-PLAYER-AGAIN", "V8-DRAW-ACE-AFTER-DRAWING", "VA-ACE-SAME-PLAYER-AGAIN")
def _ace(table: Table, seat: int, aces: int) -> None:
    """The others draw for the ace(s); then the same player plays again on his ace."""
    talon.ace_draws(table, seat, aces)
    calling._varning_reached(table, [s for s in range(len(table.players)) if s != seat])
    if table.drawn_deal:
        return
    table.restart = RESTART_ACE
    if table.options.ace_again_draws is FRESH_THREE:
        table.draws = 0
    utgang = table.options.go_out_call is UTGANG
    table.say(
        "again",
        f"{table.name(seat)} plays again on his ace",
        ("V8-ACE-SAME-PLAYER-AGAIN", "V8-DRAW-ACE-AFTER-DRAWING")
        if utgang
        else ("VA-ACE-SAME-PLAYER-AGAIN", "VA-ACE-FOLLOW-ACE-SUIT"),
        seat,
    )
