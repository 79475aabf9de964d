"""The moves of Viggo: the two-player draft, leads, replies and passes, and the legal moves.

``check`` raises :class:`~regelverk.engine.IllegalActionError` naming the rule in words and by
clause; ``apply`` checks first, except an action object ``legal_actions`` has just listed for the
same state object, which that listing has judged already (:class:`~regelverk.engine.Listed`).
Legal-move generation reads a hand (kept in rank order) as a 52-bit mask of
:func:`~regelverk.viggo.combos.card_index` numbers: every set of one rank is a play built once at
import (:data:`_SET_PLAYS`), every run is a play made once, on first use, and numbered by its
start and suits (:func:`_runs_at`), so hands share their plays and nothing is built to be thrown
away. A reply is judged bunch by bunch (the sets of one rank, the runs from one start): what
:func:`_reply_verdict` reads is the same for every combination of a bunch without a three, so
such a bunch is judged once per combination on top and per options (:func:`_plan`) and taken or
left whole; a bunch holding a three is judged combination by combination, where the 3♣ may
matter. Combinations are read once per options (:func:`~regelverk.viggo.combos.combo_reader`),
and what the rules of one options object decide is worked out once for it (:class:`_Rules`).
A hand out of rank order, which only a state built by hand can hold, is grouped by rank and
built afresh with :func:`itertools.combinations` and :func:`itertools.product`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache, partial
from itertools import combinations, product

from regelverk.cards import Card
from regelverk.engine import Event, IllegalActionError, Listed, Outcome
from regelverk.marks import implements
from regelverk.memo import by_identity
from regelverk.records import builder, positional
from regelverk.viggo.combos import (
    BIT_OF_KEY,
    CARD_OF,
    SET_KINDS,
    THREE_POS,
    Combo,
    Kind,
    Verdict,
    beats,
    card_mask,
    classify,
    codes,
    combo_reader,
    describe,
    position,
    run_starts,
    sorted_mask,
    without,
)
from regelverk.viggo.options import (
    ClubFourOpening,
    DraftDiscards,
    DraftLookBoth,
    ExampleTrickEnd,
    LeadAfterTie,
    PassIsFinal,
    PassWhenAble,
    ViggoOptions,
)
from regelverk.viggo.rounds import (
    CLUB_FOUR,
    HAND_SIZE,
    after,
    club_four_opens,
    finish_round,
    leader,
    sort_hand,
)
from regelverk.viggo.state import (
    Keep,
    Laid,
    Pass,
    Phase,
    Play,
    ViggoAction,
    ViggoState,
)

__all__ = ["apply", "check", "draft_sees_both", "legal_actions", "trick_over"]

# The phases and readings a step asks for, bound once as module constants named as the member
# (see regelverk.vandatta.rules for why).
DRAFT, PLAY, OVER = Phase.DRAFT, Phase.PLAY, Phase.OVER
EVERY_TURN = DraftLookBoth.EVERY_TURN
UNDER_STOCK = DraftDiscards.UNDER_STOCK
ONE_LAP = ExampleTrickEnd.ONE_LAP
MUST_INCLUDE = ClubFourOpening.MUST_INCLUDE
MUST_BEAT = PassWhenAble.MUST_BEAT
FINAL = PassIsFinal.FINAL
FIRST_TO_PLAY = LeadAfterTie.FIRST_TO_PLAY
"""The phases and readings the moves test, bound once: reading an enum member off its class
costs an attribute lookup through the enum's metaclass on every test."""

_COMBO_CLAUSES = (
    "VG-COMBO-SINGLE",
    "VG-COMBO-PAIR",
    "VG-COMBO-THREE-OF-A-KIND",
    "VG-COMBO-FOUR-OF-A-KIND",
    "VG-COMBO-SEQUENCE-OF-FIVE",
)


# ---------------------------------------------------------------------------------------------
# The draft (two players)
# ---------------------------------------------------------------------------------------------


@implements(
    "VG-DRAFT-FIRST-HAND-SEES-BOTH-FIRST-TURN", "VG-DRAFT-SECOND-PLAYER-SEES-BOTH-LAST-TURN"
)
def draft_sees_both(state: ViggoState) -> bool:
    """Whether the drafter may look at both cards drawn: the first hand on his first turn (or
    on every turn, VG-AMB-DRAFT-LOOK-BOTH-LATER), the second player on his last."""
    held = len(state.hands[state.turn])
    if state.turn == state.first_hand:
        return held == 0 or state.options.draft_look_both is EVERY_TURN
    return held == HAND_SIZE - 1


@implements("VG-DRAFT-TAKE-TWO-SEE-ONE", "VG-DRAFT-ALTERNATE-UNTIL-THIRTEEN")
def _drawn(state: ViggoState) -> tuple[Card, ...]:
    """The two cards the drafter takes from the top of the stock; he sees the first of them
    (both, on the turns :func:`draft_sees_both` names)."""
    return state.stock[:2]


def _check_keep(state: ViggoState, action: Keep) -> None:
    drawn = _drawn(state)
    if action.card not in drawn:
        raise IllegalActionError(
            f"{state.player} may not keep {action.card}: he has drawn "
            f"{describe(drawn)} and must keep one of those two",
            ["VG-DRAFT-TAKE-TWO-SEE-ONE", "VG-DRAFT-REJECT-SEEN-TAKE-OTHER"],
        )


_SEES_BOTH_FIRST = (
    "VG-DRAFT-FIRST-HAND-SEES-BOTH-FIRST-TURN",
    "VG-DRAFT-PUT-AWAY-OUT-OF-PLAY",
    "VG-DRAFT-ALTERNATE-UNTIL-THIRTEEN",
)
_SEES_BOTH_LAST = (
    "VG-DRAFT-SECOND-PLAYER-SEES-BOTH-LAST-TURN",
    "VG-DRAFT-PUT-AWAY-OUT-OF-PLAY",
    "VG-DRAFT-ALTERNATE-UNTIL-THIRTEEN",
)
_KEEPS_SEEN = (
    "VG-DRAFT-TAKE-TWO-SEE-ONE",
    "VG-DRAFT-KEEP-SEEN-CARD",
    "VG-DRAFT-PUT-AWAY-OUT-OF-PLAY",
    "VG-DRAFT-ALTERNATE-UNTIL-THIRTEEN",
)
_TAKES_OTHER = (
    "VG-DRAFT-TAKE-TWO-SEE-ONE",
    "VG-DRAFT-REJECT-SEEN-TAKE-OTHER",
    "VG-DRAFT-PUT-AWAY-OUT-OF-PLAY",
    "VG-DRAFT-ALTERNATE-UNTIL-THIRTEEN",
)
"""What a keep cites: how the two cards were drawn and seen, which was kept, where the other
went, and that the players draft in turn until both hold thirteen (which says whether the draft
goes on)."""


@implements(
    "VG-DRAFT-KEEP-SEEN-CARD", "VG-DRAFT-REJECT-SEEN-TAKE-OTHER", "VG-DRAFT-PUT-AWAY-OUT-OF-PLAY"
)
def _apply_keep(state: ViggoState, action: Keep) -> Outcome[ViggoState]:
    """Keep one of the two cards drawn; the other is put away face down out of play (or under
    the stock, VG-AMB-DRAFT-PUT-AWAY). When both hold thirteen the draft is over and first
    hand (or the 4♣ holder, where a club-four rule applies) opens."""
    drawn = _drawn(state)
    card = action.card
    other = drawn[1] if card is drawn[0] else drawn[0]
    seen_both = draft_sees_both(state)
    turn = state.turn
    name = state.players[turn]
    if seen_both:
        how = f"looks at both cards and keeps {card._text}"
        clauses: tuple[str, ...] = _SEES_BOTH_FIRST if turn == state.first_hand else _SEES_BOTH_LAST
    elif card is drawn[0]:
        how = f"looks at {card._text} and keeps it"
        clauses = _KEEPS_SEEN
    else:
        how = f"looks at {drawn[0]._text}, turns it down and takes the other card"
        clauses = _TAKES_OTHER
    under = state.options.draft_discards is UNDER_STOCK
    stock = (*state.stock[2:], other) if under else state.stock[2:]
    put_away = state.put_away if under else (*state.put_away, other)
    hands = state.hands
    hand = _with_card(hands[turn], card)
    hands = (*hands[:turn], hand, *hands[turn + 1 :])
    events = [
        _build_event(
            kind="draft",
            text=f"{name} draws two, {how}; the other goes "
            + ("under the stock" if under else "away unseen"),
            clauses=clauses,
            player=name,
            cards=(card.code,),
        )
    ]
    done = len(hand) == HAND_SIZE and all(len(h) == HAND_SIZE for h in hands)
    nxt = _build_state(
        options=state.options,
        players=state.players,
        seed=state.seed,
        round=state.round,
        phase=PLAY if done else DRAFT,
        dealer=state.dealer,
        first_hand=state.first_hand,
        turn=1 - turn,
        hands=hands,
        stock=stock,
        put_away=put_away,
        trick=(),
        passed=_NO_SEATS,
        highest=-1,
        replies=0,
        set_aside=(),
        scores=state.scores,
        history=state.history,
        round_winner=-1,
        losers=(),
        winners=(),
    )
    if done:
        seat, why = leader(nxt)
        nxt = _moved(nxt, turn=seat)
        events.append(
            _build_event(
                kind="lead",
                text=f"both hold thirteen cards; {nxt.player} opens the round",
                clauses=("VG-DRAFT-ALTERNATE-UNTIL-THIRTEEN", *why),
                player=nxt.player,
                cards=(),
            )
        )
    return _build_outcome(state=nxt, events=tuple(events))


def _with_card(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """``hand`` with ``card`` added in its place in rank order (as
    :func:`~regelverk.viggo.rounds.sort_hand` would put it), by its place in the hand's mask."""
    mask = _hand_mask(hand)
    bit = BIT_OF_KEY[card._key]
    if mask < 0 or mask & bit:  # out of rank order, or already held: a state built by hand
        return sort_hand((*hand, card))
    at = (mask & (bit - 1)).bit_count()
    made = (*hand[:at], card, *hand[at:])
    _remember_mask(made, mask | bit)
    return made


_NO_SEATS: frozenset[int] = frozenset()


# ---------------------------------------------------------------------------------------------
# Tricks
# ---------------------------------------------------------------------------------------------


@implements("VG-PLAY-PASS-NOT-FINAL", "VG-PLAY-TRICK-SET-ASIDE")
def trick_over(state: ViggoState, top_seat: int, passed: frozenset[int], replies: int) -> bool:
    """Whether the trick is over: every player but the one whose combination lies on top has
    passed since it was laid (a pass is not final: VG-AMB-PASS-FINAL), or, under the one-lap
    reading of VG-AMB-EXAMPLE-TRICK-END, every other player has had one turn after the lead."""
    if state.options.example_trick_end is ONE_LAP:
        return replies >= state.count - 1
    others = _OTHERS[len(state.players)]
    if 0 <= top_seat < len(others):
        return passed >= others[top_seat]
    return all(s in passed for s in range(state.count) if s != top_seat)


_OTHERS = tuple(
    tuple(frozenset(s for s in range(count) if s != top) for top in range(count))
    for count in range(5)
)
"""For a table of ``count`` seats, the seats other than each one."""


@implements("VG-TURN-ROUND-THE-TABLE", "VG-PLAY-REPLY-OR-PASS")
def _next_to_act(state: ViggoState, seat: int, passed: frozenset[int]) -> int:
    """The next seat round the table that has not passed (players who passed are skipped only
    while they stay out, which under the main reading is until someone plays)."""
    nexts = _rules_of(state.options).after[len(state.players)]
    nxt = nexts[seat]
    while nxt in passed:
        nxt = nexts[nxt]
    return nxt


def _club_four_must_lead(state: ViggoState) -> bool:
    return (
        state.options.club_four_opening is MUST_INCLUDE
        and not state.trick
        and not state.set_aside
        and club_four_opens(state.options, state.count, state.round)
        and CLUB_FOUR in state.hands[state.turn]
    )


def _club_four_judges(state: ViggoState) -> bool:
    """Whether the must-include reading of VG-AMB-CLUB-FOUR-MUST-INCLUDE has a lead by the
    holder of the 4♣ to judge: a club-four rule is on (the house rule, whose table size and
    scope may leave this round out, or the club-four-holder reading of the first round's lead)
    and the leader holds the 4♣. The reading asks only the round's opening lead to hold the 4♣,
    so any other lead is free by it; either way it has decided."""
    options = state.options
    return (
        options.club_four_starts or club_four_opens(options, state.count, state.round)
    ) and CLUB_FOUR in state.hands[state.turn]


_CLUB_FOUR_LEAD = ("VG-VAR-CLUB-FOUR-STARTS", "VG-VAR-CLUB-FOUR-FREE-OPENING")


def _combo(state: ViggoState, action: Play) -> Combo:
    hand = state.hands[state.turn]
    if card_mask(action.cards) & ~card_mask(hand):
        missing = [c for c in action.cards if c not in hand]
        raise IllegalActionError(
            f"{state.player} may not lay {describe(action.cards)}: "
            f"{describe(missing)} {'is' if len(missing) == 1 else 'are'} not in his hand",
            ["VG-PLAY-FIRST-HAND-LEADS-FREE"],
        )
    combo = classify(action.cards, state.options)
    if combo is None:
        raise IllegalActionError(
            f"{state.player} may not lay {describe(action.cards)}: it is no combination (a "
            "single, a pair, three or four of a kind, or a run of five consecutive ranks)",
            _COMBO_CLAUSES,
        )
    return combo


@implements("VG-PLAY-BEAT-SAME-TYPE-HIGHER", "VG-VAR-CLUB-FOUR-FREE-OPENING")
def _check_play(state: ViggoState, action: Play) -> Verdict | None:
    """A lead may be any combination from hand (it must hold the 4♣ only under the must-include
    reading of VG-AMB-CLUB-FOUR-MUST-INCLUDE); a reply must beat the combination on top."""
    combo = _combo(state, action)
    if not state.trick:
        if _club_four_must_lead(state) and CLUB_FOUR not in action.cards:
            raise IllegalActionError(
                f"{state.player} may not open with {describe(action.cards)}: "
                "the opening of the 4♣ holder must contain the 4♣",
                ["VG-VAR-CLUB-FOUR-STARTS", "VG-VAR-CLUB-FOUR-FREE-OPENING"],
            )
        return None
    top = state.trick[-1]
    old = _top_combo(state)
    if old is None:  # a position read from data is checked by problems(); be safe here
        raise IllegalActionError("the combination on the table is no combination", _COMBO_CLAUSES)
    verdict = _reply_verdict(combo, old, state.options)
    if not verdict.allowed:
        raise IllegalActionError(
            f"{state.player} may not lay {describe(action.cards)} on "
            f"{describe(top.cards)}: {verdict.reason}",
            verdict.clauses,
        )
    return verdict


def _listed_verdict(state: ViggoState, action: Play) -> Verdict | None:
    """The verdict :func:`_check_play` gives a play :func:`legal_actions` has listed: none on a
    lead, else the one judgement of a reply (which allowed it, or it would not be listed), on
    the combinations read as :func:`legal_actions` read them."""
    if not state.trick:
        return None
    options = state.options
    read = _rules_of(options).read
    top = state.trick[-1].cards
    played = action.cards
    new = read(_reading(played)[0], len(played))
    old = read(_reading(top)[0], len(top))
    assert new is not None and old is not None  # a listed play on a listed top
    return _reply_verdict(new, old, options)


def _top_combo(state: ViggoState) -> Combo | None:
    """The combination on top of the trick (``None`` only in a position built by hand)."""
    return classify(state.trick[-1].cards, state.options)


def _reply_verdict(new: Combo, old: Combo, options: ViggoOptions) -> Verdict:
    """The one judgement of a reply, shared by :func:`check`, :func:`apply` and
    :func:`legal_actions`: the rules of :func:`~regelverk.viggo.combos.beats`."""
    return beats(new, old, options)


@implements("VG-PLAY-REPLY-OR-PASS")
def _check_pass(state: ViggoState) -> None:
    """No pass on a lead; and under the must-beat reading of VG-AMB-PASS-WHEN-ABLE no pass
    while the player holds a combination that beats the one on top."""
    if not state.trick:
        raise IllegalActionError(
            f"{state.player} may not pass: he leads this trick and must lay a combination",
            ["VG-PLAY-NEXT-LEAD-AFTER-HIGHEST", "VG-PLAY-FIRST-HAND-LEADS-FREE"],
        )
    if state.options.pass_when_able is MUST_BEAT:
        beating = _beating_plays(state)
        if beating:
            raise IllegalActionError(
                f"{state.player} may not pass: he can beat "
                f"{describe(state.trick[-1].cards)} (with {describe(beating[0].cards)}, for "
                "one), and a player who can beat must (must-beat reading)",
                _beating_clauses(state, beating),
            )


def _beating_clauses(state: ViggoState, beating: list[Play]) -> tuple[str, ...]:
    """Why a player may not pass under the must-beat reading: the reading's clauses, and the
    clauses of every verdict that lets one of his combinations beat the top (the pass is
    refused as long as any of them does)."""
    old = _top_combo(state)
    found = ["VG-PLAY-REPLY-OR-PASS", "VG-PLAY-BEAT-SAME-TYPE-HIGHER"]
    for play in beating:
        new = classify(play.cards, state.options)
        if new is not None and old is not None:
            found += _reply_verdict(new, old, state.options).clauses
    return tuple(dict.fromkeys(found))


@implements("VG-TURN-ROUND-THE-TABLE")
def _check_turn(state: ViggoState, action: ViggoAction) -> None:
    """The game must still be on, the action must fit the phase, and a player named in the
    action must be the one whose turn it is."""
    if state.phase is OVER:
        raise IllegalActionError(
            "the game is over: " + " and ".join(state.players[s] for s in state.losers) + " lost",
            ["VG-LOSS-FIRST-TO-53"],
        )
    if action.player is not None and action.player != state.player:
        _out_of_turn(state, action.player)
    if isinstance(action, Keep) != (state.phase is DRAFT):
        if state.phase is DRAFT:
            raise IllegalActionError(
                f"the hands are still being drafted: {state.player} must keep one of the two "
                "cards drawn before anyone plays",
                ["VG-DRAFT-ALTERNATE-UNTIL-THIRTEEN"],
            )
        raise IllegalActionError(
            "the draft is over: cards are kept only while the hands are being drafted",
            ["VG-DRAFT-ALTERNATE-UNTIL-THIRTEEN"],
        )


def _out_of_turn(state: ViggoState, name: str) -> None:
    seat = state.players.index(name) if name in state.players else -1
    if seat in state.passed and state.options.pass_is_final is FINAL:
        raise IllegalActionError(
            f"{name} may not act: he has passed, and a pass is final for the trick",
            ["VG-PLAY-REPLY-OR-PASS", "VG-PLAY-PASS-NOT-FINAL"],
        )
    raise IllegalActionError(
        f"it is {state.player}'s turn, not {name}'s: play goes round the table",
        ["VG-TURN-ROUND-THE-TABLE"],
    )


def check(state: ViggoState, action: ViggoAction) -> None:
    """Raise :class:`IllegalActionError` unless ``action`` is allowed for the player to act."""
    _check_turn(state, action)
    if isinstance(action, Keep):
        _check_keep(state, action)
    elif isinstance(action, Pass):
        _check_pass(state)
    else:
        _check_play(state, action)


def apply(state: ViggoState, action: ViggoAction) -> Outcome[ViggoState]:
    """Check, then play ``action``: the next state and the events, each with its clauses.

    An action object :func:`legal_actions` has just listed for this state object has been
    judged already (:class:`~regelverk.engine.Listed`); any other action is checked now."""
    if _LISTED.listed(state, action):
        if isinstance(action, Pass):
            return _apply_pass(state)
        if isinstance(action, Play):
            return _apply_play(state, action, _listed_verdict(state, action))
        return _apply_keep(state, action)
    _check_turn(state, action)
    if isinstance(action, Keep):
        _check_keep(state, action)
        return _apply_keep(state, action)
    if isinstance(action, Pass):
        _check_pass(state)
        return _apply_pass(state)
    verdict = _check_play(state, action)
    return _apply_play(state, action, verdict)


def _moved(state: ViggoState, **changes: object) -> ViggoState:
    from dataclasses import replace

    return replace(state, **changes)  # type: ignore[arg-type]


def _in_trick(
    state: ViggoState,
    *,
    turn: int,
    hands: tuple[tuple[Card, ...], ...],
    trick: tuple[Laid, ...],
    passed: frozenset[int],
    highest: int,
    replies: int,
    set_aside: tuple[Card, ...],
) -> ViggoState:
    """The state with the trick's fields changed (the hot path: built by
    :func:`~regelverk.records.positional`, every field by position in declaration order)."""
    return _step_state(
        state.options,
        state.players,
        state.seed,
        state.round,
        state.phase,
        state.dealer,
        state.first_hand,
        turn,
        hands,
        state.stock,
        state.put_away,
        trick,
        passed,
        highest,
        replies,
        set_aside,
        state.scores,
        state.history,
        -1,  # round_winner: nobody yet
        (),  # losers
        (),  # winners
    )


_build_state = builder(ViggoState)
_step_state = positional(ViggoState)
_build_event = builder(Event)
_build_outcome = builder(Outcome)  # a generic record: its base is Generic
_build_laid = builder(Laid)
"""New states, events, outcomes and laid combinations from their fields in declaration order
(:func:`~regelverk.records.builder`)."""


@implements("VG-PLAY-REPLY-OR-PASS", "VG-PLAY-PASS-NOT-FINAL")
def _apply_pass(state: ViggoState) -> Outcome[ViggoState]:
    """A pass: the player lets the combination on top stand for now (for the rest of the trick
    under the final reading of VG-AMB-PASS-FINAL)."""
    seat = state.turn
    passed = state.passed | _SEAT[seat]
    replies = state.replies + 1
    name = state.players[seat]
    if state.options.pass_when_able is MUST_BEAT:
        said = _build_event(
            kind="pass", text=f"{name} passes", clauses=_cannot_beat(state), player=name, cards=()
        )
    else:
        said = _pass_event(name)
    if trick_over(state, state.trick[-1].seat, passed, replies):
        return _close_trick(state, state.hands, state.trick, state.highest, (said,))
    nxt = _in_trick(
        state,
        turn=_next_to_act(state, seat, passed),
        hands=state.hands,
        trick=state.trick,
        passed=passed,
        highest=state.highest,
        replies=replies,
        set_aside=state.set_aside,
    )
    return _build_outcome(state=nxt, events=(said,))


@lru_cache(maxsize=256)
def _pass_event(name: str) -> Event:
    """The event of a pass by ``name``, citing :data:`_PASS_CLAUSES`: events are immutable, so
    all his passes share one."""
    return _build_event(
        kind="pass", text=f"{name} passes", clauses=_PASS_CLAUSES, player=name, cards=()
    )


def _cannot_beat(state: ViggoState) -> tuple[str, ...]:
    """What a pass cites under the must-beat reading of VG-AMB-PASS-WHEN-ABLE, which allows it
    only because nothing in the hand beats the top: :data:`_PASS_CLAUSES`, the rule that a reply
    must beat, the clauses of the verdict refusing each combination of the hand of the top's
    size, and for a run on top the rule of which runs there are."""
    options = state.options
    old = _top_combo(state)
    found = [*_PASS_CLAUSES, "VG-PLAY-BEAT-SAME-TYPE-HIGHER"]
    if old is None:
        return tuple(found)
    size = len(state.trick[-1].cards)
    for play in _unsorted_plays(state.hands[state.turn], size, run_starts(options)):
        new = classify(play.cards, options)
        if new is not None:
            found += _reply_verdict(new, old, options).clauses
    if old.kind is Kind.SEQUENCE:
        found.append("VG-COMBO-SEQUENCE-OF-FIVE")
    return tuple(dict.fromkeys(found))


_SEAT = tuple(frozenset((seat,)) for seat in range(4))
"""Each seat alone, to add to the seats that have passed."""
_TRICK_CLAUSES = (
    "VG-PLAY-TRICK-SET-ASIDE",
    "VG-PLAY-NEXT-LEAD-AFTER-HIGHEST",
    "VG-TURN-ROUND-THE-TABLE",
)
"""A trick set aside, and the lead going to the seat after the highest, the next seat in the
direction of play."""


@implements("VG-PLAY-TRICK-SET-ASIDE", "VG-PLAY-NEXT-LEAD-AFTER-HIGHEST")
def _close_trick(
    state: ViggoState,
    hands: tuple[tuple[Card, ...], ...],
    trick: tuple[Laid, ...],
    highest: int,
    said: tuple[Event, ...],
) -> Outcome[ViggoState]:
    """No one beats the top: the trick's cards are set aside, and the player seated after the
    one who laid highest (in the direction of play) leads the next trick. ``state`` is the
    state the last action (``said``) was made in; ``hands``, ``trick`` and ``highest`` are as
    that action left them."""
    cards = tuple([c for laid in trick for c in laid.cards])
    lead = after(state.options, state.count, highest)
    nxt = _in_trick(
        state,
        turn=lead,
        hands=hands,
        trick=(),
        passed=frozenset(),
        highest=-1,
        replies=0,
        set_aside=(*state.set_aside, *cards),
    )
    names = state.players
    event = _build_event(
        kind="trick",
        text=f"no one beats {names[highest]}: the trick's {len(cards)} "
        f"cards are set aside, and {names[lead]} leads",
        clauses=_TRICK_CLAUSES,
        player=names[lead],
        cards=codes(cards),
    )
    return _build_outcome(state=nxt, events=(*said, event))


def _apply_play(state: ViggoState, action: Play, verdict: Verdict | None) -> Outcome[ViggoState]:
    seat = state.turn
    played = action.cards
    played_mask, shown, played_codes = _reading(played)
    hands = state.hands
    hand = _less(hands[seat], played, played_mask)
    hands = (*hands[:seat], hand, *hands[seat + 1 :])
    laid = _laid_by(played)[seat] if seat < 4 else _build_laid(seat=seat, cards=played)
    name = state.players[seat]
    if verdict is None:
        text = f"{name} leads {shown}"
        clauses = _LEAD_CLAUSES[len(played)]
        highest = seat
        if state.options.club_four_opening is MUST_INCLUDE and _club_four_judges(state):
            clauses += _CLUB_FOUR_LEAD
    else:
        text = f"{name} lays {shown}: {verdict.reason}"
        clauses = verdict.clauses
        keeps_first = not verdict.strict and state.options.lead_after_tie is FIRST_TO_PLAY
        highest = state.highest if keeps_first else seat
        if not verdict.strict:
            clauses += _TIE_CLAUSES
    final = state.options.pass_is_final is FINAL
    passed = state.passed if final else frozenset()
    replies = 0 if verdict is None else state.replies + 1
    trick = (*state.trick, laid)
    if not hand:
        event = _build_event(
            kind="play", text=text, clauses=clauses, player=name, cards=played_codes
        )
        over = _in_trick(
            state,
            turn=seat,
            hands=hands,
            trick=trick,
            passed=passed,
            highest=highest,
            replies=replies,
            set_aside=state.set_aside,
        )
        done, events = finish_round(over, seat)
        return _build_outcome(state=done, events=(event, *events))
    if verdict is not None and trick_over(state, seat, passed, replies):
        event = _build_event(
            kind="play", text=text, clauses=clauses, player=name, cards=played_codes
        )
        return _close_trick(state, hands, trick, highest, (event,))
    more = _LEAD_ON if verdict is None else _REPLY_ON
    event = _build_event(
        kind="play", text=text, clauses=clauses + more, player=name, cards=played_codes
    )
    nxt = _in_trick(
        state,
        turn=_next_to_act(state, seat, passed),
        hands=hands,
        trick=trick,
        passed=passed,
        highest=highest,
        replies=replies,
        set_aside=state.set_aside,
    )
    return _build_outcome(state=nxt, events=(event,))


_LEAD_CLAUSES = ((), *(("VG-PLAY-FIRST-HAND-LEADS-FREE", c) for c in _COMBO_CLAUSES))
"""A lead's clauses by its number of cards: the free lead, and the clause of its kind."""
_LEAD_ON = ("VG-TURN-ROUND-THE-TABLE",)
"""What a lead that leaves cards in hand cites besides: the turn goes to the next seat."""
_REPLY_ON = ("VG-PLAY-PASS-NOT-FINAL", "VG-PLAY-TRICK-SET-ASIDE", "VG-TURN-ROUND-THE-TABLE")
"""What a reply that leaves the trick open cites besides: the trick goes on, not being over by
the rules of :func:`trick_over` (every other player must pass since, and those who passed come
back in: VG-PLAY-PASS-NOT-FINAL and VG-PLAY-TRICK-SET-ASIDE, read by VG-AMB-PASS-FINAL and
VG-AMB-EXAMPLE-TRICK-END), and the turn goes to the next seat."""
_TIE_CLAUSES = ("VG-PLAY-NEXT-LEAD-AFTER-HIGHEST",)
"""What a reply that only matches the rank on top cites besides: who counts as having laid
highest, which VG-AMB-LEAD-AFTER-HIGHEST-TIE reads."""


def _less(hand: tuple[Card, ...], played: tuple[Card, ...], played_mask: int) -> tuple[Card, ...]:
    """``hand`` less the ``played`` cards (all in it), each taken out at its place in the hand's
    mask (a hand in rank order holds its cards at the ranks of their bits)."""
    mask = _hand_mask(hand)
    if mask < 0 or mask & played_mask != played_mask or played_mask.bit_count() != len(played):
        return without(hand, played)
    left = hand
    bits = BIT_OF_KEY
    for card in played:
        bit = bits[card._key]
        at = (mask & (bit - 1)).bit_count()
        left = left[:at] + left[at + 1 :]
        mask ^= bit
    _remember_mask(left, mask)
    return left


# ---------------------------------------------------------------------------------------------
# Legal moves
# ---------------------------------------------------------------------------------------------
# ---------------------------------------------------------------------------------------------


class _Rules:
    """What legal-move generation reads of one options object, worked out once for it: the next
    seat round the table for each table size (:func:`~regelverk.viggo.rounds.after`), the run
    starts, the combination of a card mask (:func:`~regelverk.viggo.combos.combo_reader`), and
    for each combination met on top, which bunches of the hand may answer it (:func:`_plan`).
    Private and kept per options object (:func:`_rules_of`); it holds only answers of pure
    functions of immutable values, so it never changes one."""

    __slots__ = ("after", "options", "plans", "read", "starts", "top")

    def __init__(self, options: ViggoOptions) -> None:
        self.options = options
        self.after = tuple(
            tuple(after(options, count, seat) for seat in range(count)) for count in range(5)
        )
        self.starts = run_starts(options)
        self.read = combo_reader(options)
        self.plans: dict[int, tuple[tuple[int, bool], ...]] = {}
        self.top = by_identity(partial(_read_top, self), limit=_MASK_LIMIT)
        """:func:`_read_top` of the tops met lately, by the tuple's identity."""


_rules_of = by_identity(_Rules, limit=64)
"""The :class:`_Rules` of an options object, made once per options object (hashing options
would hash some thirty fields on every move)."""

_MASKS: dict[int, tuple[tuple[Card, ...], int]] = {}
""":func:`~regelverk.viggo.combos.sorted_mask` of the hands met lately, by the hand tuple's
identity; each entry keeps its hand alive, so no other tuple can take its ``id`` while it
stands. A hand is read on each of its owner's turns and made by the move before: the move
that makes it knows its mask already (:func:`_remember_mask`)."""
_MASK_LIMIT = 4096


def _hand_mask(hand: tuple[Card, ...]) -> int:
    """``sorted_mask(hand)``, remembered by the hand's identity."""
    entry = _MASKS.get(id(hand))
    if entry is not None and entry[0] is hand:
        return entry[1]
    mask = sorted_mask(hand)
    _remember_mask(hand, mask)
    return mask


def _remember_mask(hand: tuple[Card, ...], mask: int) -> None:
    if len(_MASKS) >= _MASK_LIMIT:
        _MASKS.clear()
    _MASKS[id(hand)] = (hand, mask)


def _read_cards(cards: tuple[Card, ...]) -> tuple[int, str, tuple[str, ...]]:
    """A combination's cards as the moves read them: mask, printed text and codes."""
    return card_mask(cards), describe(cards), codes(cards)


def _laid_each(cards: tuple[Card, ...]) -> tuple[Laid, ...]:
    """``cards`` laid by each of four seats: records are immutable, so every trick shares them."""
    return tuple([_build_laid(seat=seat, cards=cards) for seat in range(4)])


_laid_by = by_identity(_laid_each, limit=1 << 15)
""":func:`_laid_each` once per card tuple, as :data:`_reading`."""
_reading = by_identity(_read_cards, limit=1 << 15)
""":func:`_read_cards` once per card tuple: the plays listed are shared objects
(:data:`_SET_PLAYS`, :func:`_every_run`), so their tuples come back again and again."""


def _plan(rules: _Rules, old: Combo, old_code: int) -> tuple[tuple[int, bool], ...]:
    """Which bunches may answer ``old``: ``(position, judge)`` for sets, ``(start, judge)`` for
    runs, in the order of the hand. A bunch (the sets of one rank, or the runs from one start)
    shares kind, key and threes, everything :func:`_reply_verdict` reads but the 3♣; so a bunch
    without a three is judged once, by any one of its combinations, and taken whole or left
    whole; a bunch holding a three is judged combination by combination (``judge``)."""
    plan = rules.plans.get(old_code)
    if plan is not None:
        return plan
    size = _SIZES[old.kind]
    read, options = rules.read, rules.options
    found: list[tuple[int, bool]] = []
    if size < 5:
        low = (1 << size) - 1  # the lowest suits: any sets of the rank will do
        for pos in range(13):
            if pos == THREE_POS:
                found.append((pos, True))
                continue
            rep = read(low << (4 * pos), size)
            if rep is not None and _reply_verdict(rep, old, options).allowed:
                found.append((pos, False))
    else:
        for start in rules.starts:
            spots = [(start + i) % 13 for i in range(5)]
            if THREE_POS in spots:
                found.append((start, True))
                continue
            rep = read(sum(1 << (4 * p) for p in spots), 5)  # the clubs
            if rep is not None and _reply_verdict(rep, old, options).allowed:
                found.append((start, False))
    plan = rules.plans[old_code] = tuple(found)
    return plan


def _groups(hand: tuple[Card, ...]) -> list[list[Card]]:
    groups: list[list[Card]] = [[] for _ in range(13)]
    for card in hand:
        groups[position(card)].append(card)
    return groups


def _unsorted_plays(hand: tuple[Card, ...], size: int, starts: tuple[int, ...]) -> list[Play]:
    """Every combination of ``size`` cards in a hand out of rank order (a state built by hand),
    built afresh with :func:`itertools.combinations` (sets) or :func:`itertools.product`
    (runs), rank by rank or start by start."""
    groups = _groups(hand)
    if size < 5:
        return [Play(cards=c) for g in groups for c in combinations(g, size)]
    found = []
    for start in starts:
        run = [groups[(start + i) % 13] for i in range(5)]
        found += [Play(cards=c) for c in product(*run)]
    return found


def _set_plays(pos: int, suits: int, size: int) -> tuple[Play, ...]:
    cards = [CARD_OF[pos * 4 + s] for s in range(4) if suits >> s & 1]
    return tuple(Play(cards=c) for c in combinations(cards, size))


_SET_PLAYS = tuple(
    tuple(tuple(_set_plays(pos, suits, size) for size in range(5)) for suits in range(16))
    for pos in range(13)
)
"""Every set of one rank as a play, by position, suits held (a 4-bit mask) and size: the plays
are immutable, so every hand shares them."""

_PARTS = tuple(
    tuple(tuple(s << (8 - 2 * i) for s in range(4) if held >> s & 1) for held in range(16))
    for i in range(5)
)
"""For each of a run's five places and a 4-bit mask of suits held there, the suits held as
their part of the run's number (two bits a place, the lowest position highest)."""
_RUN_PLAYS: list[tuple[Play, ...] | None] = [None] * 13
"""Every run from each start, by its number (:data:`_PARTS`), made on first use and shared by
every hand: at most 13 × 1024 plays."""


def _every_run(start: int) -> tuple[Play, ...]:
    made = _RUN_PLAYS[start]
    if made is None:
        spots = [(start + i) % 13 * 4 for i in range(5)]
        made = _RUN_PLAYS[start] = tuple(
            Play(cards=tuple(CARD_OF[spot + suit] for spot, suit in zip(spots, suits, strict=True)))
            for suits in product(range(4), repeat=5)
        )
    return made


def _runs_at(start: int, held: int) -> list[Play]:
    """The runs from ``start`` in the hand, in :func:`itertools.product` order over the cards
    of each position; ``held`` is the hand's mask shifted so that ``start``'s suits are its
    lowest four bits."""
    made = _every_run(start)
    first, second, third, fourth, fifth = _PARTS
    found = []
    for a in first[held & 15]:
        for b in second[held >> 4 & 15]:
            ab = a | b
            for c in third[held >> 8 & 15]:
                abc = ab | c
                for d in fourth[held >> 12 & 15]:
                    abcd = abc | d
                    for e in fifth[held >> 16 & 15]:
                        found.append(made[abcd | e])
    return found


_NIBBLE_LOW = int("1" * 13, 16)
"""The lowest bit of each position's four in a hand mask."""
_RUN = 0x11111
"""Five positions in a row, as :data:`_NIBBLE_LOW` bits."""


def _wrapped(mask: int) -> int:
    """The hand mask with its lowest positions repeated above the three, so that the five
    positions of any run, wrapping or not, are twenty bits in a row."""
    return mask | mask << 52


def _has_run(mask: int, start: int) -> bool:
    held = (mask | mask >> 1 | mask >> 2 | mask >> 3) & _NIBBLE_LOW
    return _wrapped(held) >> (4 * start) & _RUN == _RUN


def _leads(mask: int, starts: tuple[int, ...]) -> list[Play]:
    """Every combination in the sorted hand ``mask``: singles, pairs, threes and fours of a
    kind (by size, then rank), then runs (by start)."""
    found: list[Play] = []
    multi = []
    sets = _SET_PLAYS
    held = mask
    for pos in range(13):
        suits = held & 15
        if suits:
            found += sets[pos][suits][1]
            if suits & (suits - 1):
                multi.append(sets[pos][suits])
        held >>= 4
    for size in (2, 3, 4):
        for bunch in multi:
            found += bunch[size]
    positions = (mask | mask >> 1 | mask >> 2 | mask >> 3) & _NIBBLE_LOW
    positions = _wrapped(positions)
    wrapped = _wrapped(mask)
    for start in starts:
        if positions >> (4 * start) & _RUN == _RUN:
            found += _runs_at(start, wrapped >> (4 * start))
    return found


_SIZES = {kind: size for size, kind in SET_KINDS.items()} | {Kind.SEQUENCE: 5}
_PASS = Pass()
_KEEP_OF = {card._key: Keep(card=card) for card in CARD_OF}
"""Keeping each card, by the card's small integer: actions are immutable, so every listing
shares them."""


_PASS_CLAUSES = ("VG-PLAY-REPLY-OR-PASS", "VG-PLAY-TRICK-SET-ASIDE", "VG-TURN-ROUND-THE-TABLE")
"""What a pass cites: the choice to pass, the rule that says whether the trick is over by it
(:func:`trick_over`), and the turn going round the table."""
_LISTED: Listed[ViggoState, ViggoAction] = Listed()
"""The last listing, so that :func:`apply` need not judge again an action it lists."""


@implements("VG-PLAY-REPLY-OR-PASS", "VG-PLAY-FIRST-HAND-LEADS-FREE")
def legal_actions(state: ViggoState) -> tuple[ViggoAction, ...]:
    """Every action allowed now: in the draft, keeping either card drawn; on a lead, every
    combination in hand; on a reply, pass and every combination that beats the top.

    A bunch of combinations of one rank (or one run of ranks) without a three is judged once
    and taken or left whole; a bunch holding a three is judged combination by combination
    with :func:`~regelverk.viggo.combos.beats`, where the 3♣ may matter (see :func:`_plan`)."""
    return _LISTED.remember(state, _legal_actions(state))


def _legal_actions(state: ViggoState) -> tuple[ViggoAction, ...]:
    if state.phase is OVER:
        return ()
    if state.phase is DRAFT:
        drawn = _drawn(state)
        if len(drawn) == 2 and drawn[0] is not drawn[1]:
            return (_KEEP_OF[drawn[0]._key], _KEEP_OF[drawn[1]._key])
        return tuple([_KEEP_OF[c._key] for c in dict.fromkeys(drawn)])
    if not state.trick:
        return _lead_moves(state)
    return _reply_moves(state)


def _lead_moves(state: ViggoState) -> tuple[Play, ...]:
    hand = state.hands[state.turn]
    starts = _rules_of(state.options).starts
    mask = _hand_mask(hand)
    if mask < 0:
        leads = [p for size in range(1, 6) for p in _unsorted_plays(hand, size, starts)]
    else:
        leads = _leads(mask, starts)
    if _club_four_must_lead(state):
        return tuple([p for p in leads if CLUB_FOUR in p.cards])
    return tuple(leads)


@implements("VG-PLAY-BEAT-SAME-TYPE-HIGHER", "VG-PLAY-NO-TYPE-SWITCH")
def _reply_moves(state: ViggoState) -> tuple[ViggoAction, ...]:
    """Pass (unless the player can beat, under the must-beat reading of VG-AMB-PASS-WHEN-ABLE),
    and every combination of the hand of the top's size that :func:`_reply_verdict` allows:
    the very judgement :func:`check` and :func:`apply` make, so that the moves listed and the
    moves accepted cannot drift apart (a pair on a run is refused by both,
    VG-PLAY-NO-TYPE-SWITCH)."""
    beating = _beating_plays(state)
    if beating and state.options.pass_when_able is MUST_BEAT:
        return tuple(beating)
    return (_PASS, *beating)


def _beating_plays(state: ViggoState) -> list[Play]:
    """Every combination of the hand that :func:`_reply_verdict` allows on the top, in the
    order of the hand: the bunches :func:`_plan` takes whole, and of the bunches it judges,
    each combination allowed."""
    rules = _rules_of(state.options)
    top = state.trick[-1].cards
    old, plan = rules.top(top)
    if old is None:
        return []
    size = len(top)
    hand = state.hands[state.turn]
    mask = _hand_mask(hand)
    if mask < 0:  # a hand out of rank order, built by hand: every combination judged
        return _judged(rules, old, _unsorted_plays(hand, size, rules.starts), [])
    moves: list[Play] = []
    if size < 5:
        for pos, judge in plan:
            plays = _SET_PLAYS[pos][mask >> (4 * pos) & 15][size]
            if not plays:
                continue
            if judge:
                _judged(rules, old, plays, moves)
            else:
                moves += plays
        return moves
    positions = _wrapped((mask | mask >> 1 | mask >> 2 | mask >> 3) & _NIBBLE_LOW)
    wrapped = _wrapped(mask)
    for start, judge in plan:
        if positions >> (4 * start) & _RUN == _RUN:
            runs = _runs_at(start, wrapped >> (4 * start))
            if judge:
                _judged(rules, old, runs, moves)
            else:
                moves += runs
    return moves


def _read_top(
    rules: _Rules, top: tuple[Card, ...]
) -> tuple[Combo | None, tuple[tuple[int, bool], ...]]:
    """The combination the cards on top form (``None`` for none, in a position built by hand)
    and which bunches may answer it (:func:`_plan`); kept in ``rules.top``, so that the players
    answering one top read it once."""
    size = len(top)
    old = None
    plan: tuple[tuple[int, bool], ...] = ()
    if 0 < size <= 5:
        old_code = card_mask(top) << 3 | size
        old = rules.read(old_code >> 3, size)
        if old is not None:
            plan = _plan(rules, old, old_code)
    return old, plan


def _judged(rules: _Rules, old: Combo, plays: Iterable[Play], moves: list[Play]) -> list[Play]:
    """``moves`` with every one of ``plays`` that :func:`_reply_verdict` allows on ``old``
    added, in order."""
    read, options = rules.read, rules.options
    for play in plays:
        new = read(card_mask(play.cards), len(play.cards))
        if new is not None and _reply_verdict(new, old, options).allowed:
            moves.append(play)
    return moves
