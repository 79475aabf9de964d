"""Judging and carrying out actions: ``check`` raises, ``legal_actions`` lists, ``apply`` plays.

``apply`` always checks first. :func:`_perform` is the unchecked step that ``apply`` runs after
the check; it is private and must only ever see an action that ``check`` has accepted.
"""

from __future__ import annotations

import dataclasses
import enum
from collections import Counter
from itertools import combinations, pairwise, permutations

from regelverk.cards import Card, Suit
from regelverk.engine import IllegalActionError, Listed, Outcome
from regelverk.marks import implements
from regelverk.records import builder
from regelverk.vandatta.conduct import (
    conduct_error,
    paused,
    perform_conduct,
    wait_for_absent,
    waiting_for_absent,
)
from regelverk.vandatta.early import resolve_early
from regelverk.vandatta.join import join_error, perform_join, perform_joining, seat_in
from regelverk.vandatta.misdeal import misdeal_error, perform_misdeal
from regelverk.vandatta.options import (
    AbsentTurn,
    AceAgainDraws,
    AfterEight,
    AfterThreeDraws,
    DrawnCard,
    EightInHandWhen,
    EightSuitPersistence,
    GameEnd,
    GoOutCall,
    LappenFailure,
    LappenOmission,
    LappenPenalty,
    LastHandCardLocked,
    PlayAfterThirdDraw,
    SameBreathWindow,
    SameRankGroup,
    SeveralEights,
    VarningOmission,
    VarningTrigger,
    VoluntaryDraw,
)
from regelverk.vandatta.penalty import penalise
from regelverk.vandatta.prepared import Prepared, prepared
from regelverk.vandatta.rules import (
    ACE,
    ACE_RESTART,
    AT_OR_BELOW,
    EIGHT,
    LAPPEN,
    NO_RESTART,
    WHENEVER_EXACTLY,
    Table,
    call_heard,
    call_stands,
    can_draw_any,
    drawn_deal_clauses,
    draws_left,
    first_fits,
    fitting,
    follow_fits,
    goes_out,
    has_play,
    held,
    is_ace,
    is_eight,
    lappen_due,
    last_card_barred,
    next_seat,
    owed,
    real_chance,
    restart_possible,
    stuck,
    too_few_to_go_out,
    varning_due,
)
from regelverk.vandatta.scoring import (
    champions_at_leap_day,
    end_blocked_deal,
    end_match,
    finish_deal,
)
from regelverk.vandatta.setup import (
    deal_hands,
    play_deal,
    start_ace_choice,
    start_suit,
    suit_name,
    turn_start_card,
)
from regelverk.vandatta.state import (
    Action,
    Back,
    Complete,
    Deal,
    Draw,
    ExtraCard,
    Join,
    LeapDay,
    NameSuit,
    Pass,
    PenaltySet,
    Phase,
    Play,
    Redeal,
    Restart,
    ReturnSurplus,
    SayUtgang,
    Stall,
    State,
    StayOut,
    StepAway,
    StepIn,
    Withdrawn,
)

__all__ = ["apply", "check", "legal_actions"]

# The readings and the members of the state's enums that the rules below ask for, bound once
# as module constants: looked up on its enum class, a member costs a call of the class's
# attribute hook (EnumType.__getattr__) at every step (those rules.py binds too are imported
# from there).
FRESH_THREE = AceAgainDraws.FRESH_THREE
TURN_PASSES = AfterEight.TURN_PASSES
PASS_FREE_LEAD = AfterThreeDraws.PASS_FREE_LEAD
MAY_KEEP = DrawnCard.MAY_KEEP
AT_CALL = EightInHandWhen.AT_CALL
NEXT_PLAYER_ONLY = EightSuitPersistence.NEXT_PLAYER_ONLY
LEAP_DAY = GameEnd.LEAP_DAY
UTGANG = GoOutCall.UTGANG
SINGLE_CARD_ONLY = LappenFailure.SINGLE_CARD_ONLY
ENFORCE_NO_PENALTY = LappenOmission.ENFORCE_NO_PENALTY
WIN_STANDS = LappenOmission.WIN_STANDS
DRAW_THEN_PENALTY = LappenPenalty.DRAW_THEN_PENALTY
PENALTY_THEN_PLAY = LappenPenalty.PENALTY_THEN_PLAY
ALLOWED_NOT_OUT = LastHandCardLocked.ALLOWED_NOT_OUT
DEAL_OVER = Phase.DEAL_OVER
MISDEAL = Phase.MISDEAL
PLAY = Phase.PLAY
READY = Phase.READY
START_ACE = Phase.START_ACE
START_SUIT = Phase.START_SUIT
THIRD_DRAW_ENDS_TURN = PlayAfterThirdDraw.THIRD_DRAW_ENDS_TURN
EIGHT_RESTART = Restart.EIGHT
BEFORE_TURN_PASSES = SameBreathWindow.BEFORE_TURN_PASSES
ALL_OR_ONE = SameRankGroup.ALL_OR_ONE
TOGETHER = SeveralEights.TOGETHER
THREE_CARDS = VarningOmission.THREE_CARDS
EXACTLY_AFTER_OWN_TURN = VarningTrigger.EXACTLY_AFTER_OWN_TURN
ONLY_WHEN_STUCK = VoluntaryDraw.ONLY_WHEN_STUCK
SUITS = tuple(Suit)
"""The four suits in order (an enum class is iterated through a generator each time)."""


def _left(count: int) -> str:
    """How many cards a player has left, in words: one card, two cards."""
    return "1 card left" if count == 1 else f"{count} cards left"


def _cite(state: State, v8: tuple[str, ...], va: tuple[str, ...]) -> tuple[str, ...]:
    """The clauses of the text whose call the table uses (vvv8's utgång or vandatta's LAPPEN)."""
    return v8 if state.options.go_out_call is UTGANG else va


def _refuse(message: str, clauses: tuple[str, ...]) -> IllegalActionError:
    return IllegalActionError(message, clauses)


# --- check ------------------------------------------------------------------------------------


def check(state: State, action: Action) -> None:
    """Raise :class:`IllegalActionError` unless the rules allow ``action`` now."""
    error = _error(state, action)
    if error is not None:
        raise error


def _error(state: State, action: Action) -> IllegalActionError | None:  # noqa: PLR0911
    phase = state.phase
    if isinstance(action, Withdrawn):
        return _withdrawn_error(state, action)
    if isinstance(action, Join | StepIn | StayOut):
        return join_error(state, action)
    if isinstance(action, ReturnSurplus | Complete | Redeal):
        return misdeal_error(state, action)
    if isinstance(action, ExtraCard):
        return _refuse(
            "a player draws exactly the cards he is due: one card too many is a mistake",
            ("V8-PEN-OVERDRAW-ANY-DRAW",),
        )
    if not isinstance(action, Deal | LeapDay | NameSuit | Play | Draw | Pass):
        return conduct_error(state, action)
    if isinstance(action, Deal):
        if phase in (READY, DEAL_OVER):
            return None
        return _refuse(
            "a new deal is dealt only when the last one is over",
            _cite(state, ("V8-DEAL-SEVEN-ROUNDS",), ("VA-DEAL-SEVEN-CARDS",)),
        )
    if isinstance(action, LeapDay):
        if phase is DEAL_OVER and state.options.game_end is LEAP_DAY:
            return None
        return _refuse(
            "the scoring closes on a leap day between deals", ("V8-SESSION-LEAP-DAY-CHAMPION",)
        )
    if isinstance(action, NameSuit):
        if phase is START_SUIT and action.player == state.dealer:
            return None
        return _refuse(
            "only the dealer names the starting suit, on a start eight",
            ("V8-START-EIGHT-DEALER-NAMES-SUIT",),
        )
    if phase is START_ACE:
        return _start_ace_error(state, action)
    return _turn_error(state, _heard(state, action))


@implements("VA-START-ACE-ALL-DRAW")
def _start_ace_error(state: State, action: Play | Draw | Pass) -> IllegalActionError | None:
    """start_ace_take = may-decline (VA-AMB-START-ACE-TAKE): before play begins, the player
    whose choice it is takes his extra card (Draw) or declines it (Pass), with no call."""
    name = state.players[state.turn]
    if isinstance(action, Play) or action.call or action.player != state.turn:
        return _refuse(
            f"play waits until every player has taken or declined his extra card for the start "
            f"ace; it is {name}'s choice now (Draw takes it, Pass declines it)",
            ("VA-START-ACE-ALL-DRAW", "VA-START-ACE-PLAY-ON"),
        )
    return None


@implements("V8-CALL-ALTERNATIVE-WORDS")
def _heard(state: State, action: Play | Draw | Pass) -> Play | Draw | Pass:
    """The action as the table hears it: a call said with a word that is no call at this table
    (accepted_calls, agreed_calls) is no call at all, and the action stands without it."""
    if (
        not action.call
        or action.word is None
        or state.options.go_out_call is not UTGANG
        or call_heard(state.options, action.word)
    ):
        return action
    return _uncalled(action)


@implements("V8-PEN-FALSE-CALL-SAME-BREATH", "V8-PEN-SAME-BREATH-MEANING")
def _withdrawn_error(state: State, withdrawn: Withdrawn) -> IllegalActionError | None:
    """A call taken back in the same breath, before anyone has reacted, is as if never made:
    the action stands as made without it."""
    inner = withdrawn.action
    if state.options.go_out_call is not UTGANG or not inner.call:
        return _refuse("only an utgång call made with the action can be taken back", ())
    error = _error(state, _uncalled(inner))
    if error is None and withdrawn_too_late(state, withdrawn):
        return _refuse(
            f"{state.players[inner.player]} takes back his utgång only with the action that "
            "passed the turn on: too late to escape the three cards",
            ("V8-PEN-FALSE-CALL-SAME-BREATH", "V8-PEN-FALSE-CALL-SELF-REPORT"),
        )
    return error


@implements("V8-PEN-FALSE-CALL-SAME-BREATH")
def withdrawn_too_late(state: State, withdrawn: Withdrawn) -> bool:
    """Under same_breath_window = before-turn-passes (V8-AMB-SAME-BREATH-WINDOW) a false call
    taken back with the action that ends the turn comes too late: the turn has passed with it.
    (A call that had a real chance costs nothing to take back.)"""
    inner = withdrawn.action
    return (
        state.options.same_breath_window is BEFORE_TURN_PASSES and _error(state, inner) is not None
    )


def _uncalled(action: Play | Draw | Pass) -> Play | Draw | Pass:
    if isinstance(action, Play):
        return Play(player=action.player, cards=action.cards, suit=action.suit, leave=action.leave)
    if isinstance(action, Draw):
        return Draw(player=action.player)
    return Pass(player=action.player)


def _turn_error(state: State, action: Play | Draw | Pass) -> IllegalActionError | None:  # noqa: PLR0911
    if state.phase is START_SUIT:
        return _refuse(
            f"{state.players[state.turn]} must wait for the dealer to name the starting suit",
            ("V8-START-EIGHT-DEALER-NAMES-SUIT", "V8-START-EIGHT-FORHAND-EARLY-PENALTY"),
        )
    if state.phase is not PLAY:
        return _refuse(
            "nobody plays: the deal is not in progress",
            _cite(state, ("V8-WIN-FIRST-OUT-WINS",), ("VA-WIN-DEAL-OVER",)),
        )
    if state.away and paused(state):
        return _refuse(
            "fewer than two players are at the table: play pauses until someone comes back",
            ("V8-PRESENCE-PAUSE-BELOW-TWO",),
        )
    if state.away and waiting_for_absent(state):
        return _refuse(
            f"{state.players[state.turn]} is away: the table waits for him to come back and "
            "take his turn",
            ("V8-PRESENCE-MAY-RETURN", "V8-PRESENCE-ABSENT-NOT-ACTIVE"),
        )
    if action.player == state.turn and action.player in state.joining:
        return _refuse(
            f"{state.players[action.player]} has just sat down: he first takes his cards, "
            "or lets the turn go and waits for the next deal",
            ("V8-JOIN-LATE-CARDS-MOST-PLUS-ONE", "V8-JOIN-LATE-MISSED-TURN-WAIT"),
        )
    if action.player != state.turn:
        who = state.players[action.player] if 0 <= action.player < len(state.players) else "?"
        return _refuse(
            f"it is {state.players[state.turn]}'s turn, not {who}'s",
            _cite(
                state,
                ("V8-TURN-NEXT-BECOMES-SPELFORARE", "V8-TURN-CLOCKWISE"),
                ("VA-TURN-NEXT-PLAYER", "VA-TURN-CLOCKWISE"),
            ),
        )
    if isinstance(action, Play):
        return _play_error(state, action)
    if isinstance(action, Draw):
        return _draw_error(state, action)
    return _pass_error(state, action)


def _play_error(state: State, play: Play, *, from_hand: bool = False) -> IllegalActionError | None:
    """What is wrong with a play, if anything (``from_hand``: the cards are known to be held)."""
    name, cards = state.players[play.player], play.cards
    if not cards:
        return _refuse(
            f"{name} lays no card",
            _cite(state, ("V8-PLAY-MATCH-SUIT",), ("VA-PLAY-MATCH-RANK-OR-SUIT",)),
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
        return _refuse(
            f"{name} may lay {card} only with a {suit_name(card.suit)[:-1]} (or an eight) "
            "left to restart with on it",
            ("VA-ACE-FOLLOW-ACE-SUIT", "VA-TURN-RESTART-FALLBACK"),
        )
    named = suit_name(play.suit)[:-1] if play.suit is not None else "card of the named suit"
    return _refuse(
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
        return _refuse(
            f"{name}'s {shown} lies among his face-down penalty cards, still locked: he may not "
            "lay it yet",
            ("V8-PEN-CARDS-LOCKED-UNTIL-TURN-DONE",),
        )
    return _refuse(f"{name} does not hold {shown} in his hand", ())


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
        return _refuse(
            f"{name} must name a suit with {card}",
            _cite(state, ("V8-EIGHT-NAMES-SUIT",), ("VA-EIGHT-NAMES-SUIT",)),
        )
    if not is_eight(card) and play.suit is not None:
        return _refuse(
            f"a suit is named only with an eight, not with {card}",
            _cite(state, ("V8-EIGHT-NAMES-SUIT",), ("VA-EIGHT-NAMES-SUIT",)),
        )
    if first_fits(state, card):
        return None
    if state.restart is not NO_RESTART and state.options.go_out_call is LAPPEN:
        if state.restart is ACE_RESTART:
            return _refuse(
                f"on his own ace {name} must lay a {suit_name(state.pile[-1].suit)[:-1]}"
                f" (or an eight), not {card}",
                ("VA-ACE-FOLLOW-ACE-SUIT", "VA-TURN-RESTART-FALLBACK"),
            )
        named = state.named_suit
        return _refuse(
            f"after his eight {name} restarts with a "
            f"{suit_name(named)[:-1] if named else 'card of the named suit'}, not {card}",
            ("VA-EIGHT-LEAD-NAMED-SUIT", "VA-TURN-RESTART-FALLBACK"),
        )
    if state.named_suit is not None and not is_eight(card):
        return _refuse(
            f"{suit_name(state.named_suit)} was named with the eight: {card} does not follow it",
            _cite(
                state,
                ("V8-EIGHT-SUIT-HOLDS-UNTIL-CHANGED", "V8-EIGHT-NAMES-SUIT"),
                ("VA-EIGHT-LEAD-NAMED-SUIT",),
            ),
        )
    top = state.top
    if is_eight(card):
        return _refuse(f"{card} must share the suit or rank of {top}", ("VA-EIGHT-WHEN-STUCK",))
    if is_ace(card) and top is not None and (card.suit is not top.suit):
        return _refuse(
            f"{card} may not go on {top}: an ace goes only on a card of its own suit",
            _cite(state, ("V8-PLAY-MATCH-SUIT", "V8-PLAY-MATCH-RANK"), ("VA-ACE-SAME-SUIT",)),
        )
    if state.restart is ACE_RESTART:
        return _refuse(
            f"on his ace {name} may lay only an ordinary card that fits it, not {card}",
            ("V8-ACE-SAME-PLAYER-AGAIN",),
        )
    return _refuse(
        f"{card} fits {top} neither by suit nor by rank",
        _cite(
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
            return _refuse(
                f"{card} may not go on {below} in the same play",
                _cite(
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
        return _refuse(
            "only one eight may be played at a time",
            _cite(state, ("V8-EIGHT-ONE-PER-PLAY",), other),
        )
    if is_eight(cards[0]):
        return _refuse(
            f"nothing may follow {cards[0]} in the same play: an eight goes down alone, and "
            "the turn passes after it",
            _cite(state, ("V8-EIGHT-ENDS-TURN", "V8-PEN-WRONG-CARD-EACH-FITS-BELOW"), other),
        )
    eight = next(c for c in cards if is_eight(c))
    below = cards[cards.index(eight) - 1]
    return _refuse(
        f"{eight} may not go on {below} in the same play: the further cards of a play are of "
        f"the first card's rank, and an eight goes down alone",
        _cite(
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
    return _refuse(
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
        return _refuse(
            f"{name} may not go out on {cards[-1]}: the last card may never be an ace or an eight",
            _cite(state, ("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT",), ("VA-WIN-NOT-ON-ACE-OR-EIGHT",)),
        )
    if not call_stands(state, seat):
        return _refuse(
            f"{name} may not go out: he did not call in his previous turn",
            _cite(
                state,
                ("V8-CALL-REQUIRED-TO-WIN", "V8-WIN-NO-CALL-NOT-OUT"),
                ("VA-WIN-OUT-AFTER-LAPPEN",),
            ),
        )
    if too_few_to_go_out(state):
        need = state.options.min_active_for_result
        return _refuse(
            f"{name} may not go out while fewer than {need} players are active: the last card "
            "waits until enough are back, so that the deal can end with an official result",
            (
                "V8-WIN-OUT-BELOW-THREE-ENDS-DEAL",
                "V8-LOSS-OFFICIAL-NEEDS-THREE",
                "V8-PRESENCE-MAY-DROP-TO-TWO",
            ),
        )
    if play.call:
        return _refuse(
            f"{name} goes out: there is nothing left to call",
            _cite(state, ("V8-CALL-TIMING",), ("VA-CALL-LAPPEN",)),
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
    return _refuse(
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
        return _refuse(
            "the call is made with the last card of the turn, and this play does not end the turn",
            _cite(state, ("V8-CALL-TIMING",), ("VA-CALL-LAPPEN",)),
        )
    return _call_error(state, _after(state, play), play.cards)


class _CallFault(enum.Enum):
    """Why a call may not be made (:func:`_call_fault`); :func:`_call_error` says it in words."""

    EIGHT_BEING_LAID = "eight-being-laid"
    NO_REAL_CHANCE = "no-real-chance"
    OWES_UNKNOWN_CARDS = "owes-unknown-cards"
    NOT_DUE = "not-due"


EIGHT_BEING_LAID = _CallFault.EIGHT_BEING_LAID
NOT_DUE = _CallFault.NOT_DUE
NO_REAL_CHANCE = _CallFault.NO_REAL_CHANCE
OWES_UNKNOWN_CARDS = _CallFault.OWES_UNKNOWN_CARDS


@implements("V8-PEN-OVERDRAW-MAY-CALL", "V8-PEN-NEXT-ROUND-CALL-RISK", "V8-CALL-NEVER-WITH-EIGHT")
def _call_fault(
    state: State, cards: tuple[Card, ...], laid: tuple[Card, ...] = ()
) -> _CallFault | None:
    """The call is judged on the cards held next turn: the hand, and locked cards that join it
    as this turn ends (a player with cards drawn too many may still call; penalty cards count as
    they are, which all but rules the call out). ``laid``: the cards of the play the call goes
    with, still in hand as the word is said, where an eight among them bars the call too
    (eight_in_hand_when = at-call)."""
    if state.options.go_out_call is UTGANG:
        if state.options.eight_in_hand_when is AT_CALL and any(is_eight(c) for c in laid):
            return EIGHT_BEING_LAID
        if owed(state, state.turn):
            return OWES_UNKNOWN_CARDS
        if state.penalties[state.turn]:
            cards = cards + tuple(
                c for p in state.penalties[state.turn] if p.release_after <= 1 for c in p.cards
            )
        if real_chance(state.options, cards):
            return None
        return NO_REAL_CHANCE
    if lappen_due(state.options, cards) or _varning_callable(state, cards):
        return None
    return NOT_DUE


def _call_error(
    state: State, cards: tuple[Card, ...], laid: tuple[Card, ...] = ()
) -> IllegalActionError | None:
    """What is wrong with a call kept with ``cards`` and said with ``laid``
    (:func:`_call_fault`), in words and clauses; None if nothing."""
    fault = _call_fault(state, cards, laid)
    if fault is None:
        return None
    if fault is EIGHT_BEING_LAID:
        return _refuse(
            "utgång may never be called with an eight in hand, and the eight being played "
            "is still in his hand as he calls",
            ("V8-CALL-NEVER-WITH-EIGHT", "V8-CALL-TIMING", "V8-CALL-ONLY-WITH-REAL-CHANCE"),
        )
    if fault is OWES_UNKNOWN_CARDS:
        return _refuse(
            f"{state.players[state.turn]} must take three unknown extra cards for his failed "
            "going out as he hands the turn on, so he has no real chance of going out to call "
            "utgång on",
            ("V8-PEN-OUT-ON-EIGHT-OR-ACE-NO-CALL", "V8-CALL-ONLY-WITH-REAL-CHANCE"),
        )
    if fault is NO_REAL_CHANCE:
        clauses: tuple[str, ...] = (
            "V8-CALL-ONLY-WITH-REAL-CHANCE",
            "V8-CALL-NEVER-WITH-EIGHT",
            "V8-CALL-CHANCE-TEST",
        )
        text = (
            "utgång may be called only with a real chance of going out next turn (never with an "
            "eight in hand)"
        )
        if any(p.release_after <= 1 and p.cards for p in state.penalties[state.turn]):
            # his locked cards join his hand as the turn ends: they count, as they are
            text += "; his face-down cards count as they are, joining his hand as this turn ends"
            clauses += ("V8-PEN-NEXT-ROUND-CALL-RISK", "V8-PEN-OVERDRAW-MAY-CALL")
        return _refuse(text, clauses)
    return _call_not_due(state, len(cards))


@implements("VA-CALL-LAPPEN", "VA-CALL-VARNING", "VA-CALL-VARNING-ENFORCED")
def _call_not_due(state: State, kept: int) -> IllegalActionError:
    """A vandatta call that is not due: neither LAPPEN (one card he can go out on) nor, where
    the player makes it himself, varning!, which says how many cards owe it and under which
    readings (VA-AMB-VARNING-WHEN, VA-AMB-VARNING-FORGOTTEN)."""
    options = state.options
    lappen = (
        f"LAPPEN is called by a player left with one card he can go out on, and he keeps {kept}"
    )
    if options.varning_cards is None:
        return _refuse(f"{lappen}; this table plays without varning!", ("VA-CALL-LAPPEN",))
    when = {
        EXACTLY_AFTER_OWN_TURN: "when his turn leaves him exactly",
        AT_OR_BELOW: "when his turn leaves him no more than",
        WHENEVER_EXACTLY: "when his hand comes to exactly",
    }[options.varning_trigger]
    count = options.varning_cards
    varning = (
        f"varning! is due {when} {count} card{'' if count == 1 else 's'} "
        f"(varning_trigger = {options.varning_trigger.value})"
    )
    if options.varning_omission is not THREE_CARDS:
        varning += (
            ", and the referee calls it for him then, not he himself "
            f"(varning_omission = {options.varning_omission.value})"
        )
    return _refuse(
        f"the call is not due: {lappen}; {varning}",
        ("VA-CALL-LAPPEN", "VA-CALL-VARNING", "VA-CALL-VARNING-ENFORCED"),
    )


def _varning_callable(state: State, cards: tuple[Card, ...]) -> bool:
    """Under varning_omission = three-cards the call said with a turn's last action is the
    player's varning (VA-AMB-VARNING-FORGOTTEN): allowed where the cards he keeps owe it."""
    return state.options.varning_omission is THREE_CARDS and varning_due(
        state.options, len(state.hands[state.turn]), len(cards)
    )


def _player_calls(state: State) -> bool:
    """Whether the engine leaves vandatta's calls to the player, so that a turn's last action
    is listed with and without the call: LAPPEN under lappen_omission = no-go-out or
    win-stands, varning under varning_omission = three-cards."""
    options = state.options
    return options.go_out_call is LAPPEN and (
        options.lappen_omission is not ENFORCE_NO_PENALTY or options.varning_omission is THREE_CARDS
    )


class _DrawFault(enum.Enum):
    """Why a draw may not be made (:func:`_draw_fault`); :func:`_draw_error` says it in words."""

    NO_DRAWS_LEFT = "no-draws-left"
    NO_STOCK = "no-stock"
    NOT_STUCK = "not-stuck"
    CALL_BEFORE_TURN_ENDS = "call-before-turn-ends"


CALL_BEFORE_TURN_ENDS = _DrawFault.CALL_BEFORE_TURN_ENDS
NOT_STUCK = _DrawFault.NOT_STUCK
NO_DRAWS_LEFT = _DrawFault.NO_DRAWS_LEFT
NO_STOCK = _DrawFault.NO_STOCK


@implements("V8-DRAW-MAX-THREE", "VA-DRAW-MAX-THREE", "VA-DRAW-WHEN-STUCK")
def _draw_fault(
    state: State, draw: Draw, is_stuck: bool | None = None
) -> _DrawFault | _CallFault | None:
    """At most three draws a turn, and (vandatta) only when no card can be laid (``is_stuck``:
    :func:`stuck` for this state, if known already); a call said with the draw is judged on the
    hand with the card drawn."""
    if draws_left(state) <= 0:
        return NO_DRAWS_LEFT
    if not can_draw_any(state):
        return NO_STOCK
    if not (stuck(state) if is_stuck is None else is_stuck):
        return NOT_STUCK
    if draw.call:
        if not _draw_ends_turn(state):
            return CALL_BEFORE_TURN_ENDS
        return _call_fault(state, (*state.hands[draw.player], state.stock[-1]))
    return None


def _draw_error(state: State, draw: Draw) -> IllegalActionError | None:
    """What is wrong with a draw (:func:`_draw_fault`), in words and clauses; None if nothing."""
    fault = _draw_fault(state, draw)
    if fault is None:
        return None
    name = state.players[draw.player]
    if fault is NO_DRAWS_LEFT:
        return _refuse(
            f"{name} has drawn three cards: he may draw no more this turn",
            _cite(state, ("V8-DRAW-MAX-THREE",), ("VA-DRAW-MAX-THREE",)),
        )
    if fault is NO_STOCK:
        return _refuse(
            "the stock is empty and no new stock can be made",
            _cite(state, ("V8-TALON-REBUILD-DURING-ANY-DRAW",), ("VA-DRAW-STOCK-REBUILD",)),
        )
    if fault is NOT_STUCK:
        return _refuse(
            f"{name} can lay a card, so he may not draw", _not_stuck_clauses(state, draw.player)
        )
    if fault is CALL_BEFORE_TURN_ENDS:
        return _refuse(
            "the call is made as the turn ends, and this draw does not end it",
            _cite(state, ("V8-CALL-TIMING",), ("VA-CALL-LAPPEN",)),
        )
    return _call_error(state, (*state.hands[draw.player], state.stock[-1]))


def _not_stuck_clauses(state: State, seat: int) -> tuple[str, ...]:
    """The clauses of a draw refused because a card can be laid, with the rule that lets the
    card laid be played again on (an ace, an eight) where one of those is what fits."""
    clauses: tuple[str, ...] = ("VA-DRAW-WHEN-STUCK", "VA-EIGHT-WHEN-STUCK", "VA-DRAW-PLAY-DRAWN")
    fits = [c for c in state.hands[seat] if first_fits(state, c)]
    if any(is_ace(c) for c in fits):
        clauses += ("VA-ACE-SAME-PLAYER-AGAIN",)
    if any(is_eight(c) for c in fits):
        clauses += ("VA-EIGHT-SAME-PLAYER-RESTARTS",)
    return clauses


def _stuck_with_an_ace(state: State, seat: int) -> bool:
    """vandatta: the player holds an ace he may not lay here (VA-ACE-SAME-SUIT), so that the
    ace rule is what leaves him to draw or pass."""
    return any(is_ace(c) and not first_fits(state, c) for c in state.hands[seat])


def _draw_ends_turn(state: State) -> bool:
    return (
        state.options.play_after_third_draw is THIRD_DRAW_ENDS_TURN
        and draws_left(state) == 1
        and bool(state.stock)
    )


@implements("V8-DRAW-STOP-WHEN-PLAYING", "VA-DRAW-PLAY-DRAWN")
def _may_pass(state: State, is_stuck: bool | None = None) -> bool:
    """The turn passes without a card laid only after the draws: a player draws until he can
    and will play (vvv8), or until a drawn card can be laid, which he then lays (vandatta).
    ``is_stuck``: :func:`stuck` for this state, if known already."""
    if state.options.voluntary_draw is ONLY_WHEN_STUCK:
        if state.options.drawn_card is MAY_KEEP and state.draws > 0:
            return True
        if not (stuck(state) if is_stuck is None else is_stuck):
            return False
    return draws_left(state) <= 0 or not can_draw_any(state)


@implements(
    "V8-TURN-PASS-AFTER-THREE-DRAWS",
    "VA-DRAW-PASS-AFTER-THREE",
    "V8-DRAW-WHEN-NOT-PLAYING",
    "VA-TURN-RESTART-FALLBACK",
)
def _pass_error(state: State, action: Pass) -> IllegalActionError | None:
    name = state.players[action.player]
    if not _may_pass(state):
        if stuck(state):
            return _refuse(
                f"{name} must draw (up to three cards) before the turn passes",
                _cite(
                    state,
                    (
                        "V8-DRAW-WHEN-NOT-PLAYING",
                        "V8-DRAW-STOP-WHEN-PLAYING",
                        "V8-TURN-PASS-AFTER-THREE-DRAWS",
                    ),
                    ("VA-DRAW-WHEN-STUCK", "VA-DRAW-PASS-AFTER-THREE", "VA-DRAW-MAX-THREE"),
                ),
            )
        return _refuse(
            f"{name} can lay a card and must lay it",
            ("VA-DRAW-PLAY-DRAWN", "VA-EIGHT-WHEN-STUCK", "VA-DRAW-WHEN-STUCK"),
        )
    if action.call:
        return _call_error(state, state.hands[action.player])
    return None


# --- legal actions ----------------------------------------------------------------------------


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


# --- apply ------------------------------------------------------------------------------------


def apply(state: State, action: Action) -> Outcome[State]:
    """Check ``action``, then carry it out: the next state and the events, with their clauses.

    An action object :func:`legal_actions` has just listed for this state object has been
    judged already (:class:`~regelverk.engine.Listed`); any other action is checked now."""
    if not _LISTED.listed(state, action):
        check(state, action)
    return _perform(state, action)


def _perform(state: State, action: Action) -> Outcome[State]:  # noqa: PLR0912
    """Carry out an action that :func:`check` has accepted (unchecked: private)."""
    kind = type(action)
    if (
        (kind is Play or kind is Draw or kind is Pass)
        and state.phase is PLAY
        and (not action.call or action.word is None)  # type: ignore[union-attr]
    ):
        return _perform_move(state, action)  # type: ignore[arg-type]
    if isinstance(action, Join):
        state = seat_in(state, action)
    table = Table.of(state)
    if isinstance(action, Withdrawn):
        action = _uncalled(action.action)
        table.say(
            "withdrawn",
            f"{table.name(action.player)} takes back his utgång in the same breath: no penalty",
            ("V8-PEN-FALSE-CALL-SAME-BREATH", "V8-PEN-SAME-BREATH-MEANING"),
            action.player,
        )
    if isinstance(action, Deal):
        play_deal(table)
    elif isinstance(action, NameSuit):
        start_suit(table, action.suit)
        if table.early:
            resolve_early(table, _play, _fits)
    elif isinstance(action, LeapDay):
        _leap_day(table)
    elif isinstance(action, Draw | Pass) and state.phase is START_ACE:
        start_ace_choice(table, isinstance(action, Draw))
    elif isinstance(action, Play | Draw | Pass) and _heard(state, action) is not action:
        _perform_unheard(table, action)
    elif isinstance(action, Play):
        _play(table, action)
    elif isinstance(action, Draw):
        _draw(table, action)
    elif isinstance(action, Pass):
        _pass(table, action)
    elif isinstance(action, Join):
        perform_join(table, action)
    elif isinstance(action, StepIn | StayOut):
        perform_joining(table, action, _pass_on)
    elif isinstance(action, ReturnSurplus | Complete | Redeal):
        perform_misdeal(table, action, turn_start_card, deal_hands)
    elif isinstance(action, Stall):
        _choice_lapses(table, action)
    elif not isinstance(action, ExtraCard | SayUtgang):  # never allowed, never carried out
        perform_conduct(table, action)
        if isinstance(action, StepAway) and action.player == state.turn:
            _away_mid_turn(table, action.player)
        elif isinstance(action, Back) and table.phase is PLAY and table.turn in table.away:
            _turn_to_the_returner(table, action.player)
    _end_if_drawn(table)
    return Outcome(state=table.freeze(), events=tuple(table.events))


@implements("V8-START-EIGHT-NO-STALLING", "V8-START-EIGHT-DEFAULT-SUIT")
def _choice_lapses(table: Table, stall: Stall) -> None:
    """stalling = table-limit: the dealer has kept the table waiting the agreed limit or longer,
    so his choice of suit lapses and the start eight is treated as if he had named no suit
    (start_eight_no_choice decides what förhand may then lay)."""
    limit = table.options.stalling_limit_seconds
    table.say(
        "stalled",
        f"{table.name(stall.player)} has kept the table waiting {stall.seconds} s, the table's "
        f"limit being {limit} s: his choice of suit lapses",
        ("V8-START-EIGHT-NO-STALLING",),
        stall.player,
    )
    start_suit(table, None)
    if table.early:
        resolve_early(table, _play, _fits)


def _perform_move(state: State, action: Play | Draw | Pass) -> Outcome[State]:
    """:func:`_perform` for a move of play in a deal in progress, heard as said (no call, or
    the text's own word): what most actions of a deal are, without asking what else it is."""
    table = Table.of(state)
    if isinstance(action, Play):
        _play(table, action)
    elif isinstance(action, Draw):
        _draw(table, action)
    else:
        _pass(table, action)
    _end_if_drawn(table)
    return _OUTCOME(state=table.freeze(), events=tuple(table.events))


_OUTCOME = builder(Outcome)
"""Builds an :class:`~regelverk.engine.Outcome` from the state and the events."""


def _end_if_drawn(table: Table) -> None:
    """A deal still in play whose talon has been gone through the limit number of times ends
    drawn (the clauses :func:`drawn_deal_clauses` names for these options)."""
    if table.drawn_deal and table.phase in (PLAY, START_SUIT):
        finish_deal(
            table,
            None,
            "The talon has been gone through the limit number of times: the deal is drawn",
            drawn_deal_clauses(table.options),
        )


@implements("V8-PRESENCE-ABSENT-TURN-SKIPPED", "V8-CALL-FORFEITED-IF-ABSENT")
def _away_mid_turn(table: Table, seat: int) -> None:
    """step_away_own_turn = ends-turn (V8-AMB-STEP-AWAY-OWN-TURN): the spelförare who steps
    away ends his turn there, draws or no draws; a standing utgång of his is forfeited."""
    clauses: tuple[str, ...] = ("V8-PRESENCE-ABSENT-TURN-SKIPPED",)
    text = f"{table.name(seat)} steps away in his own turn: the turn ends there"
    if seat in table.calls:
        table.calls = table.calls - {seat}
        clauses += ("V8-CALL-FORFEITED-IF-ABSENT",)
        text += " and his utgång is forfeited"
    table.say("away-mid-turn", text, clauses, seat)
    _end_turn(table, seat, call=False, laid=table.base.restart is not NO_RESTART)


@implements("V8-PRESENCE-ABSENT-TURN-SKIPPED", "V8-PRESENCE-MAY-RETURN")
def _turn_to_the_returner(table: Table, seat: int) -> None:
    """The turn rests with an absent player only when nobody who takes part was left at the
    table to pass it to (under absent_turn = skip; the last spelförare there stepped away and
    his turn ended, under step_away_own_turn = ends-turn). The first player to come back is
    then the next present player: the turn passes over the absent ones to him."""
    if table.options.absent_turn is AbsentTurn.WAIT:
        return
    holder = table.turn
    _skip_absent(table, holder, seat)
    table.say(
        "turn",
        f"{table.name(seat)} is the first back at the table: the turn passes to him",
        ("V8-PRESENCE-ABSENT-TURN-SKIPPED", "V8-PRESENCE-MAY-RETURN"),
        seat,
    )
    table.turn, table.draws, table.restart = seat, 0, NO_RESTART


def _perform_unheard(table: Table, action: Play | Draw | Pass) -> None:
    """A call said with a word that is no call at this table: the action without it."""
    table.say(
        "no-call",
        f"{table.name(action.player)} says {action.word!r}, which is no going-out call at this "
        "table: no call is made",
        ("V8-CALL-ALTERNATIVE-WORDS",),
        action.player,
    )
    inner = _uncalled(action)
    if isinstance(inner, Play):
        _play(table, inner)
    elif isinstance(inner, Draw):
        _draw(table, inner)
    else:
        _pass(table, inner)


def _leap_day(table: Table) -> None:
    champions = champions_at_leap_day(table.record, table.options.scoring)
    names = " and ".join(table.name(s) for s in champions)
    end_match(
        table,
        champions,
        f"Leap day: the scoring closes; champion: {names}",
        ("V8-SESSION-LEAP-DAY-CHAMPION", "V8-SCORING-WIN-LOSS-TALLY"),
    )


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
    if state.restart is not NO_RESTART:
        found = (
            ("V8-ACE-SAME-PLAYER-AGAIN",)
            if utgang
            else (
                ("VA-ACE-SAME-PLAYER-AGAIN", "VA-ACE-FOLLOW-ACE-SUIT")
                if state.restart is ACE_RESTART
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
    _end_turn(table, seat, call=play.call, laid=True)


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
        _end_turn(table, seat, call=play.call, laid=True, eight=True)
        return
    table.turn_pile_away()
    table.restart = EIGHT_RESTART
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
    table.ace_draws(seat, aces)
    _varning_reached(table, [s for s in range(len(table.players)) if s != seat])
    if table.drawn_deal:
        return
    table.restart = ACE_RESTART
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


def _draw(table: Table, draw: Draw) -> None:
    seat = draw.player
    state = table.base
    if (
        seat in table.calls
        and table.options.go_out_call is LAPPEN
        and table.options.lappen_penalty is not DRAW_THEN_PENALTY
        and state.restart is NO_RESTART
        and state.draws == 0
    ):
        _lappen_penalty(table, seat)
        if table.options.lappen_penalty is PENALTY_THEN_PLAY:
            _penalty_then_play(table, seat)
            return
        _end_turn(table, seat, call=False, laid=False)
        return
    card = table.draw_one(seat, own=True)
    table.draws += 1
    table.idle = 0
    utgang = table.options.go_out_call is UTGANG
    clauses: tuple[str, ...] = (
        ("V8-DRAW-WHEN-NOT-PLAYING", "V8-DRAW-MAX-THREE", "V8-DRAW-NOT-OBLIGED-TO-PLAY")
        if (utgang)
        else ("VA-DRAW-WHEN-STUCK", "VA-DRAW-MAX-THREE")
    )
    if state.restart is not NO_RESTART and not utgang:
        clauses += ("VA-TURN-RESTART-FALLBACK",)
    if not utgang:
        if _stuck_with_an_ace(state, seat):
            clauses += ("VA-ACE-SAME-SUIT",)
        if len(table.hands[seat]) == table.options.varning_cards:
            clauses += ("VA-CALL-VARNING",)  # a count varning_trigger may call varning at
    table.say(
        "draw",
        f"{table.name(seat)} draws a card ({table.draws} this turn)",
        clauses,
        seat,
        (card,) if card is not None else (),
    )
    if table.draws >= table.options.max_draws and _draw_ends_turn(state) and not table.drawn_deal:
        dead = table.options.after_three_draws is PASS_FREE_LEAD and not has_play(table.freeze())
        _end_turn(table, seat, call=draw.call, laid=False, dead=dead)
        return
    _varning_reached(table, [seat])


@implements("VA-PENALTY-LAPPEN-FAILED", "VA-DRAW-MAX-THREE")
def _penalty_then_play(table: Table, seat: int) -> None:
    """VA-AMB-LAPPEN-PENALTY-DRAW = penalty-then-play: the penalty cards stand for his draws
    (none are left), and the turn goes on: he may lay a card that fits, by the ordinary rules of
    a player who has drawn all he may (under drawn_card = must-play a card that can be laid is
    laid), or else the turn passes."""
    table.draws = table.options.max_draws
    table.idle = 0
    table.say(
        "penalty-then-play",
        f"{table.name(seat)} may now lay one of his penalty cards if it fits",
        ("VA-PENALTY-LAPPEN-FAILED", "VA-DRAW-MAX-THREE"),
        seat,
    )
    _varning_reached(table, [seat])


@implements("VA-CALL-VARNING", "VA-CALL-VARNING-ENFORCED")
def _varning_reached(table: Table, seats: list[int]) -> None:
    """varning_trigger = whenever-exactly (VA-AMB-VARNING-WHEN): a hand that a draw brings to
    exactly the agreed count owes varning at once, outside the end of its own turn too (a draw
    for an ace, a draw in the middle of a turn). The engine makes that call for the player, as
    it makes every call it enforces, with or without varning_omission = three-cards (which
    judges only the call due as one's own turn ends)."""
    options = table.options
    if options.varning_trigger is not WHENEVER_EXACTLY:
        return
    for other in seats:
        count = len(table.hands[other])
        if varning_due(options, len(table.base.hands[other]), count):
            table.say(
                "varning",
                f"{table.name(other)} calls varning! ({_left(count)})",
                ("VA-CALL-VARNING", "VA-CALL-VARNING-AGREED-COUNT", "VA-CALL-VARNING-ENFORCED"),
                other,
            )


def _pass(table: Table, action: Pass) -> None:
    seat = action.player
    state = table.base
    laid = state.restart is not NO_RESTART
    if state.draws == 0 and not laid:
        table.idle += 1
    utgang = table.options.go_out_call is UTGANG
    clauses: tuple[str, ...] = (
        ("V8-TURN-PASS-AFTER-THREE-DRAWS",) if utgang else ("VA-DRAW-PASS-AFTER-THREE",)
    )
    if laid and not utgang:
        clauses += ("VA-TURN-RESTART-FALLBACK",)
    if not utgang:
        clauses += _vandatta_pass_clauses(state, seat)
    table.say("pass", f"{table.name(seat)} ends his turn without laying a card", clauses, seat)
    dead = (
        table.options.after_three_draws is PASS_FREE_LEAD
        and state.draws >= table.options.max_draws
        and not has_play(state)
    )
    _end_turn(table, seat, call=action.call, laid=laid, dead=dead)


def _vandatta_pass_clauses(state: State, seat: int) -> tuple[str, ...]:
    """What else decides a vandatta pass: the draws he had (VA-DRAW-MAX-THREE), an ace he may
    not lay (VA-ACE-SAME-SUIT), a stock that can give nothing (VA-DRAW-STOCK-REBUILD), and a
    pass before the last draw with a drawn card kept (drawn_card = may-keep)."""
    clauses: tuple[str, ...] = ("VA-DRAW-MAX-THREE",)
    if _stuck_with_an_ace(state, seat):
        clauses += ("VA-ACE-SAME-SUIT",)
    if not can_draw_any(state):
        clauses += ("VA-DRAW-STOCK-REBUILD",)
    if state.options.drawn_card is MAY_KEEP and 0 < state.draws < state.options.max_draws:
        clauses += ("VA-DRAW-PLAY-DRAWN", "VA-DRAW-WHEN-STUCK")
    return clauses


@implements("VA-PENALTY-LAPPEN-FAILED")
def _lappen_penalty(table: Table, seat: int) -> None:
    """A LAPPEN caller who does not go out on his next turn takes three cards from the stock."""
    table.calls = table.calls - {seat}
    for _ in range(table.options.penalty_cards):
        if table.draw_one(seat) is None or table.drawn_deal:
            break
    table.say(
        "lappen-penalty",
        f"{table.name(seat)} called LAPPEN but did not go out: he takes "
        f"{table.options.penalty_cards} cards",
        ("VA-PENALTY-LAPPEN-FAILED", "VA-CALL-LAPPEN"),
        seat,
    )


@implements(
    "VA-CALL-VARNING", "VA-CALL-VARNING-ENFORCED", "VA-CALL-LAPPEN-ENFORCED", "VA-CALL-LAPPEN"
)
def _vandatta_calls(table: Table, seat: int, *, call: bool, laid: bool) -> None:
    """At the end of his turn: the LAPPEN penalty if due, then varning and LAPPEN if due (the
    engine makes a forgotten call for the player, without penalty)."""
    options = table.options
    if seat in table.calls:
        single = options.lappen_failure is SINGLE_CARD_ONLY
        if not single or (not laid and len(table.hands[seat]) == 1):
            _lappen_penalty(table, seat)
        table.calls = table.calls - {seat}
    hand = table.hands[seat]
    count = len(hand)
    if varning_due(options, len(table.base.hands[seat]), count):
        if options.varning_omission is THREE_CARDS and not call:
            _varning_forgotten(table, seat)
        else:
            table.say(
                "varning",
                f"{table.name(seat)} calls varning! ({_left(count)})",
                ("VA-CALL-VARNING", "VA-CALL-VARNING-AGREED-COUNT", "VA-CALL-VARNING-ENFORCED"),
                seat,
            )
    if lappen_due(options, hand):
        if not call and options.lappen_omission is not ENFORCE_NO_PENALTY:
            _lappen_forgotten(table, seat)
            return
        table.calls = table.calls | {seat}
        clauses: tuple[str, ...] = ("VA-CALL-LAPPEN", "VA-CALL-LAPPEN-MANDATORY")
        if not call:
            clauses += ("VA-CALL-LAPPEN-ENFORCED",)
        table.say("lappen", f"{table.name(seat)} calls LAPPEN!", clauses, seat)


@implements("VA-CALL-VARNING", "VA-PENALTY-LAPPEN-FAILED")
def _varning_forgotten(table: Table, seat: int) -> None:
    """varning_omission = three-cards (VA-AMB-VARNING-FORGOTTEN): a turn that ends owing
    varning without the call (``call`` not said with its last action) costs the penalty
    cards of a failed LAPPEN, drawn from the stock into the hand at once."""
    for _ in range(table.options.penalty_cards):
        if table.draw_one(seat) is None or table.drawn_deal:
            break
    table.say(
        "varning-forgotten",
        f"{table.name(seat)} did not call varning: he takes {table.options.penalty_cards} cards",
        ("VA-CALL-VARNING", "VA-CALL-VARNING-AGREED-COUNT", "VA-PENALTY-LAPPEN-FAILED"),
        seat,
    )


@implements("VA-CALL-LAPPEN-MANDATORY", "VA-WIN-OUT-AFTER-LAPPEN", "VA-PENALTY-LAPPEN-FAILED")
def _lappen_forgotten(table: Table, seat: int) -> None:
    """A turn that ends owing LAPPEN without the call (VA-AMB-LAPPEN-FORGOTTEN).

    no-go-out: only a caller may go out, so he counts at once as a caller who failed and
    takes the penalty cards from the stock now, as his turn ends (if the stock cannot give
    them all, what it gives). win-stands: nothing happens; he holds no standing call, so
    no LAPPEN penalty can follow, and he may go out on his next turn as the options allow
    (go_out_without_lappen = lappen-required still wants a call)."""
    if table.options.lappen_omission is WIN_STANDS:
        table.say(
            "lappen-omitted",
            f"{table.name(seat)} does not call LAPPEN: no consequence",
            ("VA-CALL-LAPPEN-MANDATORY",),
            seat,
        )
        return
    for _ in range(table.options.penalty_cards):
        if table.draw_one(seat) is None or table.drawn_deal:
            break
    table.say(
        "lappen-forgotten",
        f"{table.name(seat)} did not call LAPPEN: he may not go out and takes "
        f"{table.options.penalty_cards} cards",
        ("VA-CALL-LAPPEN-MANDATORY", "VA-WIN-OUT-AFTER-LAPPEN", "VA-PENALTY-LAPPEN-FAILED"),
        seat,
    )


def _calls_not_due(table: Table, seat: int, told: int) -> tuple[str, ...]:
    """vandatta: the call rules that found no call due as ``seat``'s turn ended (events from
    ``told`` on are this turn end's): a hand of one to four cards owed no varning at the count
    agreed (VA-CALL-VARNING, -AGREED-COUNT); a last card that is an ace or an eight owes no
    LAPPEN, for nobody goes out on it (VA-CALL-LAPPEN)."""
    said = {e.kind for e in table.events[told:]}
    hand = table.hands[seat]
    clauses: tuple[str, ...] = ()
    if 0 < len(hand) <= 4 and not said & {"varning", "varning-forgotten"}:
        clauses += ("VA-CALL-VARNING", "VA-CALL-VARNING-AGREED-COUNT")
    if len(hand) == 1 and not said & {"lappen", "lappen-forgotten", "lappen-omitted"}:
        clauses += ("VA-CALL-LAPPEN",)
    return clauses


@implements("V8-CALL-VALID-NEXT-TURN-ONLY", "V8-PEN-FALSE-CALL-CAUGHT")
def _false_call_lapses(table: Table, seat: int) -> None:
    """A false call waiting to be caught (false_call_detection = when-revealed) lapses, never
    caught, as the turn it was made for ends, whatever the table's call (utgång or LAPPEN): a
    call holds for the caller's next turn only."""
    if seat not in table.false_calls:
        return
    table.false_calls = table.false_calls - {seat}
    table.say(
        "false-call-lapses",
        f"{table.name(seat)}'s call made without a real chance lapses with his turn, never caught",
        ("V8-CALL-VALID-NEXT-TURN-ONLY", "V8-PEN-FALSE-CALL-CAUGHT"),
        seat,
    )


@implements(
    "V8-CALL-TIMING",
    "V8-CALL-VALID-NEXT-TURN-ONLY",
    "V8-CALL-REPEAT-AFTER-FAILED-ATTEMPT",
    "V8-CALL-CARD-COUNT-ON-DEMAND",
)
def _utgang_calls(table: Table, seat: int, *, call: bool) -> None:
    """vvv8: a standing call is used up with this turn; a new one holds for the next turn only.
    The caller's card count is public in the state (hands), as the duty to tell it requires."""
    had = seat in table.calls
    table.calls = table.calls - {seat}
    if call:
        table.calls = table.calls | {seat}
        table.say(
            "utgang",
            f"{table.name(seat)} calls utgång ({_left(len(table.hands[seat]))})",
            ("V8-CALL-TIMING", "V8-CALL-VALID-NEXT-TURN-ONLY", "V8-CALL-ONLY-WITH-REAL-CHANCE"),
            seat,
        )
    elif had:
        table.say(
            "call-lapses",
            f"{table.name(seat)} did not go out: his call lapses",
            ("V8-CALL-VALID-NEXT-TURN-ONLY", "V8-CALL-REPEAT-AFTER-FAILED-ATTEMPT"),
            seat,
        )


@implements("V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE", "V8-PEN-OUT-ON-EIGHT-OR-ACE-NO-CALL")
def _take_owed(table: Table, seat: int) -> None:
    """A player who failed to go out takes his three extra cards as he hands the turn on (after
    the others' draws for his ace, if he failed on one): the standard penalty, drawn now, while
    he is still spelförare, so they join his hand as this turn ends (under the standard timing)
    and he has cards he does not know when the turn passes, and no call."""
    sets = table.penalties[seat]
    if not any(p.owed for p in sets):
        return
    table.penalties[seat] = tuple(p for p in sets if not p.owed)
    penalise(
        table,
        seat,
        1,
        f"{table.name(seat)} hands the turn on after a failed going out",
        ("V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE", "V8-PEN-OUT-ON-EIGHT-OR-ACE-NO-CALL"),
    )


@implements("V8-PEN-CARDS-LOCKED-UNTIL-TURN-DONE", "V8-PEN-OVERDRAW-KEEP-LOCKED")
def _release_penalties(table: Table, seat: int) -> None:
    """Face-down cards whose time has come join the hand as the owner's turn ends."""
    sets = table.penalties[seat]
    if not sets:
        return
    keep: list[PenaltySet] = []
    for item in sets:
        if item.release_after <= 1:
            table.hands[seat] = (*table.hands[seat], *item.cards)
        else:
            keep.append(dataclasses.replace(item, release_after=item.release_after - 1))
    table.penalties[seat] = tuple(keep)


@implements("V8-PRESENCE-ABSENT-TURN-SKIPPED", "V8-CALL-FORFEITED-IF-ABSENT")
def _skip_absent(table: Table, seat: int, following: int) -> None:
    """The turn passes over absent players; a caller away when his turn comes loses that
    chance of going out."""
    count = len(table.players)
    step = (seat + 1) % count
    while step not in (following, seat):
        if step in table.away:
            clauses: tuple[str, ...] = ("V8-PRESENCE-ABSENT-TURN-SKIPPED",)
            text = f"{table.name(step)} is away: his turn is passed over"
            if step in table.calls:
                table.calls = table.calls - {step}
                clauses += ("V8-CALL-FORFEITED-IF-ABSENT",)
                text += " and his utgång is forfeited"
            table.say("skipped", text, clauses, step)
        step = (step + 1) % count


def _release_at_turn_start(table: Table, seat: int) -> None:
    """Penalty cards usable from the start of the owner's next turn (release_after 0)."""
    sets = table.penalties[seat]
    due = [p for p in sets if p.release_after <= 0]
    if not due:
        return
    table.penalties[seat] = tuple(p for p in sets if p.release_after > 0)
    table.hands[seat] = (*table.hands[seat], *(c for p in due for c in p.cards))
    table.say(
        "penalty-usable",
        f"{table.name(seat)}'s penalty cards join his hand as his turn begins",
        ("V8-PEN-CARDS-LOCKED-UNTIL-TURN-DONE",),
        seat,
    )


def _fits(state: State, play: Play) -> bool:
    return _error(state, play) is None


def _pass_on(table: Table, seat: int) -> None:
    """A late joiner's turn passes on without a play or a call."""
    _end_turn(table, seat, call=False, laid=False)


@implements(
    "V8-TURN-PASS-AFTER-PLAY",
    "VA-TURN-NEXT-PLAYER",
    "VA-WIN-BLOCKED-DEAL-VOID",
    "V8-WIN-BLOCKED-DEAL-VOID",
)
def _end_turn(
    table: Table, seat: int, *, call: bool, laid: bool, eight: bool = False, dead: bool = False
) -> None:
    """The turn passes to the next player; calls are settled as the turn ends. ``dead``: the
    turn ended after all its draws with nothing to lay, so under after_three_draws =
    pass-free-lead (VA-AMB-AFTER-THREE-DRAWS) the next player may start with any card."""
    options = table.options
    table.free_lead = False
    told = len(table.events)
    if table.penalties[seat]:
        _take_owed(table, seat)
    _false_call_lapses(table, seat)
    if options.go_out_call is LAPPEN:
        _vandatta_calls(table, seat, call=call, laid=laid)
    else:
        _utgang_calls(table, seat, call=call)
    if table.penalties[seat]:
        _release_penalties(table, seat)
    if (
        table.named_suit is not None
        and not eight
        and options.eight_suit_persistence is NEXT_PLAYER_ONLY
        and table.pile  # a turned pile leaves no eight to count as ordinary: the suit holds
    ):
        table.named_suit = None
    if table.drawn_deal:
        return
    following = next_seat(table, seat)
    if table.away:
        _skip_absent(table, seat, following)
        if following in table.away:  # absent_turn = wait
            wait_for_absent(table, following)
    table.previous, table.turn, table.draws, table.restart = seat, following, 0, NO_RESTART
    table.vetoed = frozenset()  # veto_limit = once-per-offender-turn counts per turn
    # a penalty drawn as the turn ended may have rebuilt the talon onto a new start card
    # (rebuild_reference = fresh-start-card): nobody has yet failed to follow that one, so it
    # grants no free lead, as it ends one that stands (V8-TALON-REBUILD-REFERENCE-CARD)
    fresh = any(e.kind == "fresh-start-card" for e in table.events[told:])
    if dead and options.after_three_draws is PASS_FREE_LEAD and not fresh:
        table.free_lead = True
        table.say(
            "free-lead",
            f"Nobody could follow the pile: {table.name(following)} may start with any card",
            ("VA-DRAW-PASS-AFTER-THREE", "VA-DRAW-MAX-THREE"),
            following,
        )
    if table.penalties[following]:
        _release_at_turn_start(table, following)
    utgang = options.go_out_call is UTGANG
    clauses = ("V8-TURN-PASS-AFTER-PLAY", "V8-TURN-NEXT-BECOMES-SPELFORARE", "V8-TURN-CLOCKWISE")
    table.say(
        "turn",
        f"The turn passes to {table.name(following)}",
        clauses
        if utgang
        else ("VA-TURN-NEXT-PLAYER", "VA-TURN-CLOCKWISE", *_calls_not_due(table, seat, told)),
        following,
    )
    if table.idle >= table.active() > 0:  # nobody at the table: it waits for a return
        end_blocked_deal(
            table, ("V8-WIN-BLOCKED-DEAL-VOID",) if utgang else ("VA-WIN-BLOCKED-DEAL-VOID",)
        )
