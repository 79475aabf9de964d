"""vvv8's "Brott och straff": the referee's ruling on any attempt, mistakes included.

:func:`attempt` applies a legal action; a mistake that 000 §3 penalises gives ``allowed=False``
with the penalty (three cards face down in front of the offender, locked until he has used up
his turn as spelförare; a wrong card taken back; cards drawn too many kept but locked); any other
mistake gives ``allowed=False`` and the state unchanged. Under vandatta (001) every mistake is
simply refused.

>>> from regelverk.vandatta import GAME, VVV8
>>> state = GAME.position_from_data(
...     {"players": ["Ann", "Bo", "Cy"], "hands": {"Ann": ["9S", "5H"], "Bo": ["2C"],
...      "Cy": ["3C"]}, "pile": ["KH"], "stock": ["4D", "6D", "7D"]}, VVV8)
>>> ruling = GAME.attempt(state, GAME.action_from_data({"action": "play", "cards": ["9S"]}, state))
>>> ruling.allowed, [c.code for c in ruling.state.penalties[0][0].cards]
(False, ['4D', '6D', '7D'])
>>> ruling.state.hands[0], ruling.state.turn
((Card.parse('9S'), Card.parse('5H')), 0)
"""

from __future__ import annotations

import dataclasses

from regelverk.cards import Card
from regelverk.engine import Event, IllegalActionError, Ruling
from regelverk.marks import implements
from regelverk.vandatta import talon
from regelverk.vandatta.adjudication import _perform
from regelverk.vandatta.checks import _error, _heard, _uncalled, withdrawn_too_late
from regelverk.vandatta.conduct import forgetting_possible, paused
from regelverk.vandatta.early import early_play
from regelverk.vandatta.listing import legal_actions
from regelverk.vandatta.options import (
    CommentPenaltyText,
    DrawOutOfTurn,
    FailedOutCard,
    FalseCallDetection,
    HiddenBundlePenalty,
    OutOfTurnCard,
    OutWithoutCall,
    OverdrawCouldPlay,
    OverdrawOtherDraws,
    OverdrawRelease,
    Penalties,
    SeveralEights,
    TwoEightsLaid,
    WrongCardTakeBack,
)
from regelverk.vandatta.penalty import penalise
from regelverk.vandatta.playing import (
    _emptied_hand_error,
    _ends_turn,
    _first_error,
    _group_error,
    _holds,
    same_rank_error,
)
from regelverk.vandatta.rules import (
    call_stands,
    can_draw_any,
    draws_left,
    first_fits,
    goes_out,
    is_eight,
    last_card_barred,
)
from regelverk.vandatta.scoring import finish_deal
from regelverk.vandatta.state import (
    Action,
    Draw,
    ExtraCard,
    ForgetAbsentCard,
    HideBundle,
    LookBack,
    Pass,
    PenaltySet,
    Phase,
    Play,
    Remark,
    State,
    Withdrawn,
)
from regelverk.vandatta.table import Table
from regelverk.vandatta.turns import _end_turn

__all__ = ["attempt"]


def attempt(state: State, action: Action) -> Ruling[State]:
    """The ruling on ``action``: applied if legal; otherwise refused, with 000 §3's penalty
    where it gives one."""
    error = _error(state, action)
    if error is None:
        outcome = _perform(state, action)
        cited = tuple(dict.fromkeys(c for e in outcome.events for c in e.clauses))
        text = "; ".join(e.text for e in outcome.events) or "allowed"
        return Ruling(
            allowed=True, message=text, clauses=cited, events=outcome.events, state=outcome.state
        )
    if state.options.penalties is Penalties.BROTT_OCH_STRAFF:
        ruling = _mistake(state, action, error)
        if ruling is not None:
            return ruling
    return _refused(state, error)


def _refused(state: State, error: IllegalActionError) -> Ruling[State]:
    return Ruling(allowed=False, message=str(error), clauses=error.clauses, events=(), state=state)


def _mistake(state: State, action: Action, error: IllegalActionError) -> Ruling[State] | None:  # noqa: PLR0911
    if isinstance(action, Withdrawn):
        return _withdrawn_mistake(state, action, error)
    seat = getattr(action, "player", None)
    if seat in state.benched or seat in state.record.out:
        return _not_at_play(state, seat, error)
    if isinstance(action, Remark | LookBack | ForgetAbsentCard | HideBundle):
        return _conduct_mistake(state, action, error)
    if isinstance(action, ExtraCard):
        return _extra_card(state, action, error)
    if not isinstance(action, Play | Draw | Pass):
        return None
    action = _heard(state, action)
    if isinstance(action, Play) and state.phase is Phase.START_SUIT:
        return early_play(state, action, error)
    if state.phase is not Phase.PLAY or paused(state):
        return None
    if not 0 <= action.player < len(state.players) or action.player in state.away:
        return None
    if action.player != state.turn:
        return _not_his_turn(state, action, error)
    if isinstance(action, Play):
        return _play_mistake(state, action, error)
    if isinstance(action, Draw) and draws_left(state) <= 0:
        return _overdraw(state, action, error) if can_draw_any(state) else None
    if action.call and _error(state, _uncalled(action)) is None:
        return _false_call(state, action, error)
    return None


@implements("VA-SCORING-GAME-WINNER")
def _not_at_play(state: State, seat: int, error: IllegalActionError) -> Ruling[State] | None:
    """A late joiner outside the deal is not at play: nothing to penalise (the plain refusal).
    A player out of the game (over_limit = eliminated) is no longer at play and holds no
    cards: his mistake is refused, and no penalty card goes to him."""
    if seat not in state.record.out:
        return None
    return Ruling(
        allowed=False,
        message=f"{error}; {state.players[seat]} is out of the game and takes no penalty cards",
        clauses=(*error.clauses, "VA-SCORING-GAME-WINNER"),
        events=(),
        state=state,
    )


def _withdrawn_mistake(
    state: State, action: Withdrawn, error: IllegalActionError
) -> Ruling[State] | None:
    """A withdrawn call: too late (same_breath_window = before-turn-passes) it is owned up to;
    otherwise the action is judged as made without it."""
    if _error(state, _uncalled(action.action)) is None and withdrawn_too_late(state, action):
        return _late_withdrawal(state, action.action, error)
    return _mistake(state, _uncalled(action.action), error)


def _settle(table: Table) -> None:
    """A penalty draw that runs the talon through its limit draws the deal."""
    if table.drawn_deal and table.phase in (Phase.PLAY, Phase.START_SUIT):
        finish_deal(
            table,
            None,
            "The talon has been gone through the limit number of times: the deal is drawn",
            (
                "V8-TALON-DRAWN-ONE-DECK",
                "V8-TALON-DRAWN-TWO-DECKS",
                "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK",
            ),
        )


def _ruling(
    table: Table,
    error: IllegalActionError,
    then: Play | Draw | Pass | None = None,
) -> Ruling[State]:
    """The ruling after a penalty on ``table``; ``then`` is carried out afterwards (unchecked:
    the caller has made sure the rest of it is legal)."""
    _settle(table)
    state = table.freeze()
    events: tuple[Event, ...] = tuple(table.events)
    if then is not None and state.phase is Phase.PLAY:
        outcome = _perform(state, then)
        events += outcome.events
        state = dataclasses.replace(outcome.state, vetoable=table.vetoable, may_veto=table.may_veto)
    cited = tuple(dict.fromkeys((*error.clauses, *(c for e in events for c in e.clauses))))
    text = "; ".join((str(error), *(e.text for e in events)))
    return Ruling(allowed=False, message=text, clauses=cited, events=events, state=state)


# --- the mistakes -----------------------------------------------------------------------------


def _not_his_turn(
    state: State, action: Play | Draw | Pass, error: IllegalActionError
) -> Ruling[State] | None:
    """A card laid or drawn out of turn (a pass out of turn is a plain refusal)."""
    if isinstance(action, Play):
        return _out_of_turn(state, action, error)
    return _draw_out_of_turn(state, action, error) if isinstance(action, Draw) else None


def _eights_together(state: State, play: Play) -> bool:
    """A play of two or more eights, and nothing else, where one eight goes at a time, whose
    first eight may be laid: the one rule it breaks is one eight at a time (V8-EIGHT-ONE-PER-
    PLAY), not the fit of any card (the second eight fits the first by rank)."""
    return (
        len(play.cards) > 1
        and all(is_eight(c) for c in play.cards)
        and state.options.several_eights is SeveralEights.ONE_AT_A_TIME
        and _first_error(state, play) is None
    )


@implements("V8-PEN-TWO-EIGHTS-TOGETHER", "V8-EIGHT-ONE-PER-PLAY")
def _two_eights(state: State, play: Play, error: IllegalActionError) -> Ruling[State] | None:
    """Eights laid together (V8-AMB-TWO-EIGHTS-TOGETHER): the text forbids it but names no
    sanction. two_eights = standard-penalty: he takes them back and plays again, with the three
    cards of the standard penalty; taken-back: the same, unpunished; first-stands: the first
    eight stands with its suit and ends his turn, the others go back to his hand."""
    seat = play.player
    rule = state.options.two_eights
    table = Table.of(state)
    name = table.name(seat)
    clauses = ("V8-EIGHT-ONE-PER-PLAY", "V8-PEN-TWO-EIGHTS-TOGETHER")
    if rule is TwoEightsLaid.FIRST_STANDS:
        first = Play(player=seat, cards=play.cards[:1], suit=play.suit, call=play.call)
        if _error(state, first) is not None:
            return None
        back = ", ".join(str(c) for c in play.cards[1:])
        verb = "goes" if len(play.cards) == 2 else "go"
        table.say("eights-back", f"{back} {verb} back to {name}'s hand, unpunished", clauses, seat)
        return _ruling(table, error, first)
    if rule is TwoEightsLaid.TAKEN_BACK:
        table.say(
            "eights-back",
            f"{name} takes the eights back and plays again, unpunished: no sanction is named",
            clauses,
            seat,
        )
        return _ruling(table, error)
    penalise(
        table,
        seat,
        1 + bool(play.call),  # a call said with it is void too, as with a wrong card
        f"{name} laid {len(play.cards)} eights together; he takes them back and plays again",
        clauses,
    )
    return _ruling(table, error)


@implements("V8-DRAW-OUT-OF-TURN-STOPPED")
def _draw_out_of_turn(state: State, draw: Draw, error: IllegalActionError) -> Ruling[State]:
    """A card drawn from the talon out of turn (V8-AMB-DRAW-OUT-OF-TURN): 000 §3 ¶5 punishes a
    card laid out of turn, and a draw only when an absent player's card for an ace is forgotten.
    draw_out_of_turn = stopped: the draw is undone, unpunished; standard-penalty: undone, with
    the three cards of the standard penalty; kept-locked: he keeps the card face down, and it
    joins his hand as his next turn begins."""
    seat = draw.player
    rule = state.options.draw_out_of_turn
    table = Table.of(state)
    name = table.name(seat)
    clauses = ("V8-DRAW-OUT-OF-TURN-STOPPED",)
    if rule is DrawOutOfTurn.STANDARD_PENALTY:
        penalise(
            table,
            seat,
            1,
            f"{name} drew from the talon out of turn; the card goes back on the talon",
            clauses,
        )
        return _ruling(table, error)
    if rule is DrawOutOfTurn.KEPT_LOCKED:
        card = talon.draw_one(table, seat)
        if card is not None:
            table.hands[seat] = table.hands[seat][:-1]
            table.penalties[seat] = (
                *table.penalties[seat],
                PenaltySet(cards=(card,), release_after=0),
            )
            table.say(
                "kept-locked",
                f"{name} drew {card} out of turn: he keeps it face down; it joins his hand as "
                "his next turn begins",
                clauses,
                seat,
                (card,),
            )
            return _ruling(table, error)
    table.say(
        "draw-undone",
        f"{name} drew out of turn: the card goes back on the talon unseen, unpunished (the "
        "text punishes a card laid out of turn, not a draw)",
        clauses,
        seat,
    )
    return _ruling(table, error)


@implements("V8-PEN-OUT-OF-TURN", "V8-PEN-OUT-OF-TURN-CARD-RETURNED")
def _out_of_turn(state: State, play: Play, error: IllegalActionError) -> Ruling[State] | None:
    """A card laid out of turn goes back to the offender's hand, and he takes three penalty
    cards (six under per-offence when the card fits the top card by no rule either). Under
    out_of_turn_card = stands the cards stay on the pile as plain cards, and the spelförare
    plays on them (unless they were all the offender held in hand: then they go back)."""
    seat = play.player
    if not play.cards or not _holds(state.hands[seat], play.cards):
        return None
    offences = 1 + (not first_fits(state, play.cards[0]))
    stands = state.options.out_of_turn_card is OutOfTurnCard.STANDS and len(play.cards) < len(
        state.hands[seat]
    )
    table = Table.of(state)
    name = table.name(seat)
    if stands:
        # the cards lie on the pile before the penalty is dealt: a rebuild of the talon for it
        # keeps them face up on top (V8-TALON-REBUILD-REFERENCE-CARD)
        _left_on_pile(
            table,
            seat,
            play.cards,
            f"{table.name(table.turn)} plays on them",
            ("V8-PEN-OUT-OF-TURN",),
        )
    penalise(
        table,
        seat,
        offences,
        f"{name} laid a card out of turn; it "
        + ("stays on the pile" if stands else "goes back to his hand"),
        ("V8-PEN-OUT-OF-TURN",)
        if stands
        else ("V8-PEN-OUT-OF-TURN", "V8-PEN-OUT-OF-TURN-CARD-RETURNED"),
    )
    return _ruling(table, error)


def _left_on_pile(
    table: Table, seat: int, cards: tuple[Card, ...], then: str, clauses: tuple[str, ...]
) -> None:
    """Cards laid by mistake that stay where they lie: plain cards to play on, without the
    effect of their own (no draws for an ace, no suit for an eight; a suit named is cleared)."""
    table.take_from_hand(seat, cards)
    table.pile.extend(cards)
    table.named_suit = None
    table.free_lead = False
    table.idle = 0
    shown = ", ".join(str(c) for c in cards)
    table.say(
        "left-on-pile",
        f"{shown} stay on the pile as plain cards, without effect of their own; {then}",
        clauses,
        seat,
        cards,
    )


def _play_mistake(state: State, play: Play, error: IllegalActionError) -> Ruling[State] | None:  # noqa: PLR0911
    if not play.cards or not _holds(state.hands[play.player], play.cards):
        return None
    if is_eight(play.cards[0]) != (play.suit is not None):
        return None
    if _eights_together(state, play):
        return _two_eights(state, play, error)
    if _first_error(state, play) is not None or _group_error(state, play) is not None:
        return _wrong_card(state, play, error)
    if same_rank_error(state, play) is not None:
        return None  # each card fits: refused, with no penalty the text names
    seat = play.player
    if goes_out(state, seat, len(play.cards)):
        if last_card_barred(state.options, play.cards, state.top):
            return _failed_out(state, play, error, no_call=False)
        if not call_stands(state, seat):
            rule = state.options.out_without_call
            if rule is OutWithoutCall.NOT_OUT_THREE_CARDS:
                return _failed_out(state, play, error, no_call=True)
            if rule is OutWithoutCall.WRONG_CARD_PENALTY:
                return _wrong_card(state, play, error)
        return None
    if _emptied_hand_error(state, play) is not None:
        return _failed_out(state, play, error, no_call=False)
    if play.call and _ends_turn(state, play):
        return _false_call(state, play, error)
    return None


@implements(
    "V8-PEN-WRONG-CARD-OFFENCE",
    "V8-PEN-WRONG-CARD-THREE",
    "V8-PEN-WRONG-CARD-TAKE-BACK",
    "V8-PEN-LEX-LARS",
)
def _wrong_card(state: State, play: Play, error: IllegalActionError) -> Ruling[State]:
    """A card that fits neither by suit nor by rank (or a later card that does not fit the one
    beneath; Lex Lars when going out) costs three penalty cards; the cards go back to his hand
    and he plays again correctly, or draws. Under wrong_card_take_back = may-leave a play made
    with ``leave`` stays on the pile instead, as plain cards, and his turn ends (unless that
    would leave him holding nothing at all)."""
    seat = play.player
    clauses: tuple[str, ...] = (
        "V8-PEN-WRONG-CARD-OFFENCE",
        "V8-PEN-WRONG-CARD-THREE",
        "V8-PEN-WRONG-CARD-TAKE-BACK",
    )
    if len(play.cards) > 1:
        clauses += ("V8-PEN-WRONG-CARD-EACH-FITS-BELOW",)
    if goes_out(state, seat, len(play.cards)):
        clauses += ("V8-PEN-LEX-LARS",)
        if not call_stands(state, seat):
            clauses += ("V8-WIN-NO-CALL-NOT-OUT",)
    offences = 1 + bool(play.call)
    leave = play.leave and state.options.wrong_card_take_back is WrongCardTakeBack.MAY_LEAVE
    table = Table.of(state)
    penalise(
        table,
        seat,
        offences,
        f"{table.name(seat)} laid a wrong card; "
        + ("he leaves it on the pile" if leave else "he takes it back and plays again"),
        clauses,
    )
    kept = (
        len(table.hands[seat]) - len(play.cards) + sum(len(p.cards) for p in table.penalties[seat])
    )
    if leave and kept > 0 and not table.drawn_deal:
        _left_on_pile(
            table,
            seat,
            play.cards,
            "his turn ends and the next player plays on the top one",
            ("V8-PEN-WRONG-CARD-TAKE-BACK",),
        )
        _end_turn(table, seat, call=False, laid=True)
    return _ruling(table, error)


@implements(
    "V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT",
    "V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE",
    "V8-PEN-OUT-ON-EIGHT-OR-ACE-NO-CALL",
    "V8-WIN-NO-CALL-NOT-OUT",
    "V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS",
)
def _failed_out(
    state: State, play: Play, error: IllegalActionError, *, no_call: bool
) -> Ruling[State]:
    """Going out on an ace or an eight (or without a call): he is not out, the card stays with
    its normal effect, and he owes three extra cards, which he takes as he hands the turn on
    (after the others' draws for his ace, and his own draws and plays, if any), so he has cards
    again when the turn passes and cannot call. Under failed_out_card = card-returns the ace or
    eight goes back to his hand instead and he finishes his turn by the normal rules. Under
    last_hand_card_locked = treated-as-going-out emptying the hand on an ace or an eight while
    penalty cards are locked is ruled the same way."""
    seat = play.player
    returns = not no_call and state.options.failed_out_card is FailedOutCard.CARD_RETURNS
    clauses: tuple[str, ...] = (
        ("V8-WIN-NO-CALL-NOT-OUT", "V8-CALL-REQUIRED-TO-WIN")
        if no_call
        else (
            "V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT",
            "V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE",
            "V8-PEN-OUT-ON-EIGHT-OR-ACE-NO-CALL",
        )
    )
    table = Table.of(state)
    what = "without a call" if no_call else f"on {play.cards[-1]}"
    count = state.options.penalty_cards
    table.penalties[seat] = (*table.penalties[seat], PenaltySet(cards=(), owed=count))
    table.say(
        "owes",
        f"{table.name(seat)} tried to go out {what}: he is not out and cannot call; he takes "
        f"{count} extra cards as he hands the turn on"
        + ("; the card goes back to his hand and he finishes his turn" if returns else ""),
        (*clauses, "V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS"),
        seat,
    )
    if returns:
        return _ruling(table, error)
    return _ruling(table, error, Play(player=seat, cards=play.cards, suit=play.suit))


@implements("V8-PEN-FALSE-CALL-CAUGHT", "V8-PEN-FALSE-CALL-SELF-REPORT")
def _false_call(
    state: State, action: Play | Draw | Pass, error: IllegalActionError
) -> Ruling[State]:
    """Utgång without a real chance costs three penalty cards as it is made (caught or owned
    up to alike); the action itself stands, without the call. Under false_call_detection =
    when-revealed the call is void but unpunished until it is caught or owned up to
    (``RevealCall``), which may happen until it lapses with the caller's next turn."""
    if state.options.false_call_detection is FalseCallDetection.WHEN_REVEALED:
        return _unrevealed_call(state, action, error)
    table = Table.of(state)
    penalise(
        table,
        action.player,
        1,
        f"{table.name(action.player)} called utgång without a real chance of going out",
        ("V8-PEN-FALSE-CALL-CAUGHT", "V8-PEN-FALSE-CALL-SELF-REPORT"),
    )
    return _ruling(table, error, _uncalled(action))


@implements("V8-PEN-FALSE-CALL-SAME-BREATH", "V8-PEN-FALSE-CALL-SELF-REPORT")
def _late_withdrawal(
    state: State, action: Play | Draw | Pass, error: IllegalActionError
) -> Ruling[State]:
    """same_breath_window = before-turn-passes: a false utgång taken back only with the action
    that passed the turn is owned up to, not escaped: three penalty cards (whatever
    false_call_detection says, since he has owned up), and the action stands without the call."""
    table = Table.of(state)
    penalise(
        table,
        action.player,
        1,
        f"{table.name(action.player)} took back his utgång only as the turn passed on: "
        "he owns up to a call without a real chance",
        ("V8-PEN-FALSE-CALL-SAME-BREATH", "V8-PEN-FALSE-CALL-SELF-REPORT"),
    )
    return _ruling(table, error, _uncalled(action))


def _unrevealed_call(
    state: State, action: Play | Draw | Pass, error: IllegalActionError
) -> Ruling[State]:
    """The referee notes the false call; the action stands without it, and the call waits in
    ``false_calls`` to be caught or owned up to."""
    seat = action.player
    table = Table.of(state)
    table.say(
        "false-call",
        f"{table.name(seat)} calls utgång without a real chance of going out: the call is void; "
        "the penalty falls only if it is caught or he owns up",
        ("V8-PEN-FALSE-CALL-CAUGHT", "V8-PEN-FALSE-CALL-SELF-REPORT"),
        seat,
    )
    ruling = _ruling(table, error, _uncalled(action))
    if ruling.state.phase is not Phase.PLAY:
        return ruling
    after = dataclasses.replace(ruling.state, false_calls=ruling.state.false_calls | {seat})
    return dataclasses.replace(ruling, state=after)


@implements(
    "V8-PEN-OVERDRAW-KEEP-LOCKED",
    "V8-PEN-OVERDRAW-NO-OUT",
    "V8-PEN-OVERDRAW-MAY-CALL",
)
def _overdraw(state: State, draw: Draw, error: IllegalActionError) -> Ruling[State]:
    """A card drawn beyond the three: he keeps it, face down and unusable until his next turn
    (overdraw_release); so he cannot go out this turn, but may still call."""
    seat = draw.player
    table = Table.of(state)
    card = talon.draw_one(table, seat, own=True)
    assert card is not None
    table.hands[seat] = table.hands[seat][:-1]
    release = 1 if state.options.overdraw_release is OverdrawRelease.NEXT_OWN_TURN else 2
    table.penalties[seat] = (
        *table.penalties[seat],
        PenaltySet(cards=(card,), release_after=release),
    )
    table.say(
        "overdraw",
        f"{table.name(seat)} drew one card too many: he keeps {card} face down, unusable "
        + ("until his next turn" if release == 1 else "until after his next turn")
        + "; he cannot go out this turn but may still call",
        ("V8-PEN-OVERDRAW-KEEP-LOCKED", "V8-PEN-OVERDRAW-NO-OUT", "V8-PEN-OVERDRAW-MAY-CALL"),
        seat,
        (card,),
    )
    if state.options.overdraw_could_play is OverdrawCouldPlay.STANDARD_PENALTY and any(
        isinstance(a, Play) for a in legal_actions(state)
    ):
        penalise(
            table,
            seat,
            1,
            f"{table.name(seat)} had a card he could lay: drawing one too many is an ordinary "
            "mistake",
            ("V8-PEN-OVERDRAW-KEEP-LOCKED", "V8-PEN-STANDARD-THREE-CARDS"),
        )
    return _ruling(table, error)


@implements(
    "V8-PEN-COMMENT-THREE",
    "V8-PEN-LOOK-BACK",
    "V8-PEN-ABSENT-ACE-CARD-FORGOTTEN",
    "V8-PLAY-NO-HIDDEN-BUNDLE",
)
def _conduct_mistake(
    state: State,
    action: Remark | LookBack | ForgetAbsentCard | HideBundle,
    error: IllegalActionError,
) -> Ruling[State] | None:
    """Forbidden remarks, looking back too far, and forgetting an absent player's ace card cost
    three penalty cards; a hidden bundle costs them only under hidden_bundle_penalty =
    standard-penalty."""
    if state.phase not in (Phase.PLAY, Phase.START_SUIT) or action.player in state.away:
        return None
    if isinstance(action, ForgetAbsentCard) and not forgetting_possible(state, action):
        return None
    if isinstance(action, LookBack) and (
        action.cards >= len(state.pile) or action.cards < 0 or action.latest_play < 1
    ):
        return None
    table = Table.of(state)
    name = table.name(action.player)
    clauses: tuple[str, ...]
    if isinstance(action, HideBundle):
        if state.options.hidden_bundle_penalty is HiddenBundlePenalty.NO_OWN_PENALTY:
            return Ruling(
                allowed=False,
                message=f"{error}; no penalty of its own: anyone may look through the bundle "
                "freely, and a card in it that does not fit is a wrong card",
                clauses=(*error.clauses, "V8-PLAY-HIDDEN-BUNDLE-NO-OWN-PENALTY"),
                events=(),
                state=state,
            )
        why, clauses = f"{name} hid cards under the top card", ("V8-PLAY-NO-HIDDEN-BUNDLE",)
    elif isinstance(action, Remark):
        why, clauses = f"{name} made a forbidden remark", ("V8-PEN-COMMENT-THREE",)
        if state.options.comment_penalty_text is CommentPenaltyText.UNFINISHED:
            why += " (the text breaks off after the penalty; anything more is undefined)"
    elif isinstance(action, LookBack):
        why, clauses = f"{name} looked back through the pile", ("V8-PEN-LOOK-BACK",)
    else:
        why = f"{name} forgot {table.name(action.absent)}'s card for the ace"
        clauses = ("V8-PEN-ABSENT-ACE-CARD-FORGOTTEN", "V8-ACE-NEXT-GIVES-ABSENT-CARD")
    penalise(table, action.player, 1, why, clauses)
    return _ruling(table, error)


@implements("V8-PEN-OVERDRAW-ANY-DRAW", "V8-PEN-OVERDRAW-KEEP-LOCKED")
def _extra_card(state: State, action: ExtraCard, error: IllegalActionError) -> Ruling[State] | None:
    """A card too many in any other draw: he keeps it, locked until his next turn (and takes
    three penalty cards as well under overdraw_other_draws = standard-penalty; under put-back
    it simply goes back on the talon)."""
    seat = action.player
    if state.phase is not Phase.PLAY or seat in state.away or seat in state.benched:
        return None
    if state.options.overdraw_other_draws is OverdrawOtherDraws.PUT_BACK:
        return Ruling(
            allowed=False,
            message=f"{error}; the extra card goes back on top of the talon, without penalty",
            clauses=(*error.clauses, "V8-PEN-OVERDRAW-ANY-DRAW"),
            events=(),
            state=state,
        )
    table = Table.of(state)
    card = talon.draw_one(table, seat)
    if card is None:
        return None
    table.hands[seat] = table.hands[seat][:-1]
    release = 1 if seat == state.turn else 0
    table.penalties[seat] = (
        *table.penalties[seat],
        PenaltySet(cards=(card,), release_after=release),
    )
    table.say(
        "overdraw",
        f"{table.name(seat)} drew one card too many: he keeps {card} face down, unusable until "
        + ("his turn is over" if release else "his next turn"),
        ("V8-PEN-OVERDRAW-ANY-DRAW", "V8-PEN-OVERDRAW-KEEP-LOCKED"),
        seat,
        (card,),
    )
    if state.options.overdraw_other_draws is OverdrawOtherDraws.STANDARD_PENALTY:
        penalise(
            table,
            seat,
            1,
            f"{table.name(seat)} drew a card too many",
            ("V8-PEN-OVERDRAW-ANY-DRAW",),
        )
    return _ruling(table, error)
