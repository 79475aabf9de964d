"""Bindings of the Vändåtta card theorems (``vvv8.card-conservation``,
``vandatta.card-conservation``) to the engine.

Two comparisons per rulebook, each over a bounded, seeded universe: the seeded tables of
:data:`VVV8_TABLES` and :data:`VANDATTA_TABLES` (every reading of the options the moves of play
and the card movements depend on, two to five players, one deck and two), each dealt and played
for a fixed number of actions by a seeded ``random.Random`` (legal moves, vvv8's mistakes at the
table, players stepping away and coming back, late joiners, vetoes), with the stock cut down to
one card at a fixed action so that draws, aces and penalties have to rebuild it; and a handful of
positions built where a step is rare (förhand's early card on a start eight, misdeals, a new
deal after a finished one, a start ace).

* :func:`moves_binding`: in every position of play reached, candidate moves of play, legal ones
  (from ``legal_actions``) and illegal ones (cards of the hand alone and in groups, eights with
  and without a suit, calls, draws and passes, also after the last draw allowed, a card by the
  wrong seat), are decided by the engine (``is_allowed``, ``apply``, and for single cards, draws
  and passes whether ``legal_actions`` lists them) and by the encoding's
  :func:`~regelverk_proofs.vandatta.encoding.play.allowed`. They must agree.
* :func:`steps_binding`: every action of those games, and of the built positions, is run through
  the engine (``apply``, or ``attempt`` for vvv8's mistakes) and the engine's new state must
  follow card by card from the old one by the steps the encoding makes that action of
  (:mod:`regelverk_proofs.vandatta.binding.steps`); every step kind the rulebook's theorem checks
  must be compared at least once.

An encoding that gives no answer counts as a disagreement, and so does an engine that raises.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from regelverk.cards import Rank, Suit, french_deck, parse_cards
from regelverk.engine import Event, IllegalActionError, is_allowed
from regelverk.vandatta import GAME
from regelverk.vandatta.conduct import paused
from regelverk.vandatta.options import (
    VANDATTA,
    VVV8,
    AcceptedCalls,
    AceAgainDraws,
    AceAgainScope,
    AceBatchDraws,
    AceFollow,
    AceRule,
    AfterEight,
    AllShortCompletion,
    CardCountScope,
    DeckSetup,
    DrawnCard,
    DrawOutOfTurn,
    EightInHandWhen,
    EightMatching,
    EightOrDraw,
    EightOwnSuit,
    EightSuitPersistence,
    EmptyStock,
    ExceptionBelow,
    FailedOutCard,
    FalseCallDetection,
    FirstPlayer,
    GoOutCall,
    GoOutOn,
    GoOutWithoutLappen,
    LappenCondition,
    LappenFailure,
    LappenPenalty,
    LastHandCardLocked,
    LateJoinerCount,
    LateJoinerFirstTurn,
    MultiCard,
    MultiCardPlay,
    OutOfTurnCard,
    OutWithoutCall,
    OverdrawOtherDraws,
    OverdrawRelease,
    Penalties,
    PenaltyCardsUsable,
    PenaltySetsTiming,
    PenaltyStacking,
    PlayAfterThirdDraw,
    RealChanceTest,
    RebuildReference,
    RedealWindow,
    RestartFallback,
    Scoring,
    Session,
    SeveralEights,
    StartAce,
    StartAceDraw,
    StartEight,
    StartEightEarlyCard,
    StartEightNoChoice,
    StartEightOtherSuit,
    StartEightPlace,
    SurplusReturn,
    TalonPassCount,
    TurnedPile,
    TwoEightsLaid,
    VandattaOptions,
    VetoCallers,
    VetoLimit,
    VetoScope,
    WrongCardTakeBack,
)
from regelverk.vandatta.state import (
    Action,
    AskCount,
    Back,
    Complete,
    Deal,
    Draw,
    ExtraCard,
    ForgetAbsentCard,
    Join,
    LookBack,
    NameSuit,
    Pass,
    PenaltySet,
    Phase,
    Play,
    Redeal,
    Remark,
    RemarkKind,
    Restart,
    ReturnSurplus,
    RevealCall,
    State,
    StayOut,
    StepAway,
    StepIn,
    Veto,
)
from regelverk_proofs.binding import Binding, Comparison, full
from regelverk_proofs.vandatta.binding.steps import Plan, follows_engine
from regelverk_proofs.vandatta.encoding.play import allowed
from regelverk_proofs.vandatta.encoding.zones import (
    STEPS,
    Move,
    concrete,
    fresh,
    layout_of,
    seat_in,
)
from regelverk_proofs.z3api import Solver, Verdict

__all__ = [
    "MOVE_KINDS",
    "VANDATTA_MOVES",
    "VANDATTA_STEPS",
    "VANDATTA_TABLES",
    "VVV8_MOVES",
    "VVV8_STEPS",
    "VVV8_TABLES",
    "Table",
    "moves_binding",
    "steps_binding",
]

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus")
NO_ANSWER = "the encoding gave no answer (unknown is never agreement)"


@dataclass(frozen=True, slots=True)
class Table:
    """One seeded game of the universe: its options, players, seed, how many actions are
    played, the action before which the stock is cut down to one card (the rest put under the
    pile's top card, so that the next draws rebuild it), and the share of vvv8 mistakes."""

    label: str
    options: VandattaOptions
    players: int
    seed: int
    actions: int
    squeeze: int = -1
    mistakes: float = 0.0


def _v8(**changes: Any) -> VandattaOptions:
    return dataclasses.replace(VVV8, **changes)


def _va(**changes: Any) -> VandattaOptions:
    return dataclasses.replace(VANDATTA, **changes)


V8_READINGS = _v8(
    session=Session.FREE_TIME,
    ace_again_scope=AceAgainScope.ORDINARY_ONLY,
    ace_batch_draws=AceBatchDraws.PER_PLAY,
    ace_again_draws=AceAgainDraws.REMAINING,
    eight_own_suit=EightOwnSuit.NAMED_OR_OWN,
    exception_below=ExceptionBelow.SINGLE_CARD,
    play_after_third_draw=PlayAfterThirdDraw.THIRD_DRAW_ENDS_TURN,
    real_chance_test=RealChanceTest.LENIENT,
    go_out_on=GoOutOn.WITH_OR_ONTO,
    eight_suit_persistence=EightSuitPersistence.NEXT_PLAYER_ONLY,
    penalty_cards_usable=PenaltyCardsUsable.AT_NEXT_TURN_START,
    penalty_stacking=PenaltyStacking.PER_OFFENCE,
    penalty_sets_timing=PenaltySetsTiming.MERGED,
    overdraw_release=OverdrawRelease.AFTER_NEXT_TURN,
    out_without_call=OutWithoutCall.WRONG_CARD_PENALTY,
    viggo_present=True,
    start_eight_no_choice=StartEightNoChoice.ANY_SUIT,
    max_draws=2,
)
"""vvv8 with the other reading of every ambiguity of play, penalties and aces (and a free-time
session, where the talon's passes never draw the deal)."""

V8_TABLE_READINGS = _v8(
    wrong_card_take_back=WrongCardTakeBack.MAY_LEAVE,
    false_call_detection=FalseCallDetection.WHEN_REVEALED,
    out_of_turn_card=OutOfTurnCard.STANDS,
    failed_out_card=FailedOutCard.CARD_RETURNS,
    veto_limit=VetoLimit.ONCE_PER_OFFENDER_TURN,
    accepted_calls=AcceptedCalls.ANY_CLEAR_WARNING,
    eight_in_hand_when=EightInHandWhen.AT_CALL,
    card_count_scope=CardCountScope.HAND_ONLY,
    last_hand_card_locked=LastHandCardLocked.TREATED_AS_GOING_OUT,
)
"""vvv8 with the other reading of every ambiguity of the calls, mistakes and penalties at the
table (cards left on the pile, false calls caught later, a failed going out's card back in hand,
limited vetoes, eights barring a call as it is said, emptying the hand as a going out)."""

V8_CHAIN = _v8(
    multi_card_play=MultiCardPlay.CHAIN,
    eight_matching=EightMatching.MUST_MATCH,
    start_eight_other_suit=StartEightOtherSuit.OTHER_THAN_EIGHT_SUIT,
    start_eight_early_card=StartEightEarlyCard.STANDS,
    late_joiner_count=LateJoinerCount.HAND_ONLY,
    late_joiner_first_turn=LateJoinerFirstTurn.CARDS_THEN_NEXT_ROUND,
    overdraw_other_draws=OverdrawOtherDraws.STANDARD_PENALTY,
    all_short_completion=AllShortCompletion.FULL_ROUNDS,
    surplus_return=SurplusReturn.MUST_RETURN,
    redeal_window=RedealWindow.ANY_TIME_IN_DEAL,
    veto_scope=VetoScope.TURNED_TALON_OR_BEFORE_CALLER,
    talon_pass_count=TalonPassCount.REBUILDS,
    empty_stock=EmptyStock.RESHUFFLE,
    ace_follow=AceFollow.ACE_SUIT,
    voluntary_draw=VVV8.voluntary_draw,
)
"""vvv8 with chains of cards, eights that must match, and the other readings of the early card,
late joiners, misdeals, vetoes and the talon."""

VA_READINGS = _va(
    ace_by_rank=AceRule.ALLOWED,
    ace_off_suit=AceRule.ALLOWED,
    multi_card=MultiCard.FIRST_CARD_RANK,
    eight_or_draw=EightOrDraw.MAY_DRAW,
    restart_fallback=RestartFallback.ANY_CARD,
    drawn_card=DrawnCard.MAY_KEEP,
    turned_pile=TurnedPile.OUT_OF_DEAL,
    ace_batch_draws=AceBatchDraws.PER_PLAY,
    lappen_condition=LappenCondition.ANY_SINGLE_CARD,
    lappen_failure=LappenFailure.SINGLE_CARD_ONLY,
    start_eight_place=StartEightPlace.BOTTOM,
    first_player=FirstPlayer.DEALER_FIRST,
)
"""vandatta with the other reading of every ambiguity of matching, restarts, drawing, the turned
pile and LAPPEN."""

VA_EIGHTS = _va(
    eight_matching=EightMatching.MUST_MATCH,
    after_eight=AfterEight.TURN_PASSES,
    empty_stock=EmptyStock.NO_REBUILD,
    lappen_penalty=LappenPenalty.DRAW_THEN_PENALTY,
    start_eight_place=StartEightPlace.RESHUFFLE,
    deck_setup=DeckSetup.TWO_DECKS_FOR_MANY,
    go_out_without_lappen=GoOutWithoutLappen.LAPPEN_REQUIRED,
    max_draws=2,
)
"""vandatta with eights that must match and pass the turn, no rebuilt stock, two decks for five
players and more."""

VA_UNSHUFFLED = _va(
    empty_stock=EmptyStock.REBUILD_UNSHUFFLED,
    ace_follow=AceFollow.ANY_LEGAL,
    ace_again_scope=AceAgainScope.ORDINARY_ONLY,
    multi_card_play=MultiCardPlay.CHAIN,
    exception_below=ExceptionBelow.SINGLE_CARD,
    start_ace_draw=StartAceDraw.ALWAYS,
)
"""vandatta with vvv8's unshuffled talon, vvv8's renewed turn after an ace and chains."""

VVV8_TABLES: tuple[Table, ...] = (
    Table("vvv8", VVV8, 3, 11, 30, squeeze=8, mistakes=0.3),
    Table("vvv8-readings", V8_READINGS, 3, 13, 24, squeeze=6, mistakes=0.3),
    Table("vvv8-chain", V8_CHAIN, 2, 14, 24, squeeze=6, mistakes=0.3),
    Table("vvv8-table-readings", V8_TABLE_READINGS, 3, 15, 30, squeeze=7, mistakes=0.4),
)
"""The seeded vvv8 games: the preset, and three sets of other readings."""

VANDATTA_TABLES: tuple[Table, ...] = (
    Table("vandatta", VANDATTA, 2, 21, 30, squeeze=10),
    Table("vandatta-readings", VA_READINGS, 3, 23, 24, squeeze=8),
    Table("vandatta-eights", VA_EIGHTS, 3, 24, 20, squeeze=6),
    Table("vandatta-unshuffled", VA_UNSHUFFLED, 2, 25, 24, squeeze=9),
)
"""The seeded vandatta games: the preset, and three sets of other readings."""

TWO_DECKS: tuple[Table, ...] = (
    Table("vvv8, two decks", VVV8, 4, 12, 16, squeeze=6, mistakes=0.3),
    Table("vandatta, two decks", VA_EIGHTS, 5, 26, 16, squeeze=6),
)
"""Games with two decks, for the moves of play (their card movements are the one-deck games'
steps on a pack that holds each face twice)."""


def _shown(state: State) -> str:
    seat = state.turn
    hand = " ".join(str(c) for c in state.hands[seat]) if state.hands else ""
    top = state.pile[-1] if state.pile else "nothing"
    extra = []
    if state.named_suit is not None:
        extra.append(f"{state.named_suit.name.lower()} named")
    if state.restart.value != "none":
        extra.append(f"restart after {state.restart.value}")
    if state.draws:
        extra.append(f"{state.draws} draws made")
    if state.calls:
        extra.append("calls " + ", ".join(state.players[s] for s in sorted(state.calls)))
    return f"{state.players[seat]} to play on {top} holding {hand}; stock {len(state.stock)}" + (
        f" ({'; '.join(extra)})" if extra else ""
    )


def _squeezed(state: State) -> State:
    """The stock cut down to its top card; the rest goes under the pile's top card."""
    if len(state.stock) < 2 or not state.pile:
        return state
    rest, top = state.stock[:-1], state.stock[-1:]
    return dataclasses.replace(state, stock=top, pile=(*rest, *state.pile))


# --- walking the seeded games ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Taken:
    """One action of a walk: the state before, the action, and the engine's ruling on it;
    ``waiting``: the false calls that may still be caught before the action, as the rules tell
    them where the binding has followed the calls itself (built positions), ``None`` where it
    takes the engine's record of them (the seeded games)."""

    table: str
    before: State
    action: Action
    after: State
    events: tuple[Event, ...]
    allowed: bool
    waiting: frozenset[int] | None = None


def _present_others(state: State) -> list[int]:
    return [
        s
        for s in range(len(state.players))
        if s != state.turn and s not in state.away and s not in state.benched
    ]


def _mistake(state: State, rng: random.Random) -> Action | None:  # noqa: PLR0911
    """A mistake or a table action a vvv8 player makes."""
    seat = state.turn
    hand = state.hands[seat]
    others = _present_others(state)
    table_rule = _table_reading_action(state, rng, others)
    if table_rule is not None:
        return table_rule
    roll = rng.randrange(10)
    if roll == 0 and others:
        who = rng.choice(others)
        return Play(player=who, cards=state.hands[who][:1]) if state.hands[who] else None
    if roll == 1 and others:
        return Remark(player=rng.choice(others), kind=RemarkKind.OTHER_HAND)
    if roll == 2:
        return Draw(player=seat) if state.draws >= state.options.max_draws else None
    if roll == 3 and hand:
        card, call = rng.choice(hand), rng.random() < 0.5
        if state.options.wrong_card_take_back is WrongCardTakeBack.MAY_LEAVE:
            return Play(player=seat, cards=(card,), call=call, leave=rng.random() < 0.6)
        return Play(player=seat, cards=(card,), call=call)
    if roll == 4 and others:
        return StepAway(player=rng.choice(others))
    if roll == 5 and state.away:
        return Back(player=rng.choice(sorted(state.away)))
    if roll == 6 and state.vetoable is not None:
        callers = sorted(state.may_veto)
        return Veto(player=callers[0]) if callers else None
    if roll == 7 and others:
        return ExtraCard(player=rng.choice(others))
    if roll == 8 and len(state.pile) > 3:
        return LookBack(player=rng.choice(others or [seat]), cards=3, latest_play=1)
    if roll == 9 and len(state.players) < 5:
        taken = set(state.players)
        name = next(n for n in ("Viggo", "Lars", "Eva", "Ulf") if n not in taken)
        return Join(name=name, seat=rng.randrange(len(state.players) + 1))
    return None


def _table_reading_action(state: State, rng: random.Random, others: list[int]) -> Action | None:
    """Under the readings of V8_TABLE_READINGS only (so that no other table's walk changes):
    catching or owning up to a false call, asking a caller's card count."""
    if state.false_calls and rng.random() < 0.5:
        caller = rng.choice(sorted(state.false_calls))
        return RevealCall(player=rng.choice([*others, caller]), caller=caller)
    if (
        state.calls
        and state.options.card_count_scope is CardCountScope.HAND_ONLY
        and rng.random() < 0.2
        and others
    ):
        return AskCount(player=rng.choice(others), caller=rng.choice(sorted(state.calls)))
    return None


def _next_action(state: State, rng: random.Random, table: Table) -> tuple[Action, bool] | None:
    """The walk's next action, and whether it is made as an attempt (a mistake allowed)."""
    phase = state.phase
    if phase is Phase.MATCH_OVER:
        return None
    if phase is Phase.START_SUIT:
        seat, dealer = state.turn, state.dealer
        plain = [c for c in state.hands[seat] if c.rank is not Rank.EIGHT]
        if not state.early and plain and rng.random() < 0.6:
            return Play(player=seat, cards=(rng.choice(plain),)), True
        assert dealer is not None
        return NameSuit(player=dealer, suit=rng.choice([*Suit, None])), False
    legal = GAME.legal_actions(state)
    attempts = state.options.penalties is Penalties.BROTT_OCH_STRAFF
    if phase is Phase.PLAY and attempts and rng.random() < table.mistakes:
        mistake = _mistake(state, rng)
        if mistake is not None:
            return mistake, True
    if not legal:
        return None
    return rng.choice(legal), attempts


def walk(table: Table) -> Iterator[Taken]:
    """The seeded game of ``table``, action by action (squeezing the stock once)."""
    rng = random.Random(table.seed)
    state = GAME.deal(table.options, NAMES[: table.players], table.seed)
    for index in range(table.actions):
        if index == table.squeeze and state.phase is Phase.PLAY:
            state = _squeezed(state)
        chosen = _next_action(state, rng, table)
        if chosen is None:
            return
        action, attempt = chosen
        if attempt:
            ruling = GAME.attempt(state, action)
            after, events, ok = ruling.state, ruling.events, ruling.allowed
        else:
            outcome = GAME.apply(state, action)
            after, events, ok = outcome.state, outcome.events, True
        yield Taken(table.label, state, action, after, events, ok)
        state = after


# --- the moves of play: engine against vandatta_cards_play.allowed ---------------------------

MOVE_KINDS: tuple[str, ...] = (
    *(
        f"{what}-{verdict}"
        for what in ("play", "ace", "eight", "several", "named", "restart", "draw", "pass", "call")
        for verdict in ("allowed", "refused")
    ),
    "other-seat",
)
"""The kinds of candidate move compared: what is tried (in this order of precedence: a call, a
draw, a pass, a move after one's own ace or eight, several cards, an eight, a card on a named
suit, an ace, any other single card) and the engine's verdict; and a move by a seat not to
play."""


def _move_kind(state: State, action: Play | Draw | Pass, verdict: bool) -> str:
    if action.player != state.turn:
        return "other-seat"
    suffix = "allowed" if verdict else "refused"
    what = "play"
    if action.call:
        what = "call"
    elif isinstance(action, Draw):
        what = "draw"
    elif isinstance(action, Pass):
        what = "pass"
    elif state.restart.value != "none":
        what = "restart"
    elif len(action.cards) > 1:
        what = "several"
    elif action.cards and action.cards[0].rank is Rank.EIGHT:
        what = "eight"
    elif state.named_suit is not None:
        what = "named"
    elif action.cards and action.cards[0].rank is Rank.ACE:
        what = "ace"
    return f"{what}-{suffix}"


def _candidates(state: State, rng: random.Random) -> list[Play | Draw | Pass]:
    """Legal moves of play and a spread of illegal ones for the spelförare."""
    seat = state.turn
    hand = state.hands[seat]
    legal = [a for a in GAME.legal_actions(state) if isinstance(a, Play | Draw | Pass)]
    found: list[Play | Draw | Pass] = rng.sample(legal, min(3, len(legal)))
    for card in dict.fromkeys(c for c in hand if c.rank is Rank.EIGHT):
        found.append(Play(player=seat, cards=(card,), suit=rng.choice(list(Suit))))
        found.append(Play(player=seat, cards=(card,)))
    plain = [c for c in hand if c.rank is not Rank.EIGHT]
    for card in rng.sample(plain, min(3, len(plain))):
        suit = card.suit if rng.random() < 0.1 else None
        found.append(Play(player=seat, cards=(card,), suit=suit))
    if len(hand) > 1:
        first = rng.choice(hand)
        mates = [c for c in hand if c is not first and c.rank is first.rank]
        rest = [c for c in hand if c is not first]
        more = mates or rest
        group = (first, *rng.sample(more, min(len(more), rng.randint(1, 2))))
        found.append(Play(player=seat, cards=group))
        loose = tuple(rng.sample(hand, min(len(hand), rng.randint(2, 3))))
        suit = loose[0].suit if loose[0].rank is Rank.EIGHT else None
        found.append(Play(player=seat, cards=loose, suit=suit))
    found += [Draw(player=seat), Pass(player=seat)]
    called: list[Play | Draw | Pass] = [Draw(player=seat, call=True), Pass(player=seat, call=True)]
    found.append(rng.choice(called))
    if hand:
        card = rng.choice(hand)
        suit = card.suit if card.rank is Rank.EIGHT else None
        found.append(Play(player=seat, cards=(card,), suit=suit, call=True))
    others = _present_others(state)
    if others:
        other = rng.choice(others)
        found.append(Play(player=other, cards=state.hands[other][:1] or parse_cards("2C")))
    if full():
        found += _every_single(state)
    return found


def _every_single(state: State) -> list[Play | Draw | Pass]:
    """Every single card of the spelförare's hand laid with and without the call, an eight
    with each suit named and with none (the full bound's action space of one-card plays)."""
    seat = state.turn
    plays: list[Play | Draw | Pass] = []
    for card in dict.fromkeys(state.hands[seat]):
        suits: tuple[Suit | None, ...] = (None, *Suit) if card.rank is Rank.EIGHT else (None,)
        for suit in suits:
            for call in (False, True):
                plays.append(Play(player=seat, cards=(card,), suit=suit, call=call))
    return plays


def encoding_allows(state: State, action: Play | Draw | Pass) -> Verdict:
    """The encoding's verdict on a move of play (SAT: allowed)."""
    with Solver.scratch(timeout_ms=20_000) as solver:
        solver.add(allowed(state, action))
        return solver.check()


def _applies(state: State, action: Action) -> bool:
    try:
        GAME.apply(state, action)
    except IllegalActionError:
        return False
    return True


def compare_move(
    state: State, action: Play | Draw | Pass, label: str, legal: frozenset[Action]
) -> Comparison:
    """Engine (``is_allowed``, ``apply``, and ``legal``, the engine's ``legal_actions``, for
    single cards, draws and passes without a call) against the encoding on one candidate move.

    (Under vandatta's LAPPEN a move with the call said is allowed but not listed: the engine
    makes the call for the player, so ``legal_actions`` lists each move once.)"""
    engine = is_allowed(GAME, state, action)
    verdict = encoding_allows(state, action)
    kind = _move_kind(state, action, engine)
    problems = []
    if verdict is Verdict.UNKNOWN:
        problems.append(NO_ANSWER)
    elif (verdict is Verdict.SAT) != engine:
        problems.append(f"the encoding {'allows' if verdict is Verdict.SAT else 'refuses'} it")
    if _applies(state, action) != engine:
        problems.append("apply disagrees with check")
    listed = (isinstance(action, Draw | Pass) or len(action.cards) == 1) and not action.call
    if listed and (action in legal) != engine:
        problems.append("legal_actions disagrees with check")
    detail = (
        f"{label}: {action!r} ({'allowed' if engine else 'refused'} by the engine): "
        f"{'; '.join(problems)}; {_shown(state)}"
    )
    return Comparison(kind, not problems, detail)


def _playing(state: State) -> bool:
    return state.phase is Phase.PLAY and not paused(state) and state.turn not in state.joining


def _compare_moves(
    tables: tuple[Table, ...],
    every: int,
    built: Callable[[], Iterator[tuple[str, State]]] | None = None,
) -> Iterator[Comparison]:
    for label, state in built() if built is not None else ():
        legal = frozenset(GAME.legal_actions(state))
        for action in _candidates(state, random.Random(len(label))):
            yield compare_move(state, action, label, legal)
    for table in tables:
        rng = random.Random(table.seed * 7 + 1)
        try:
            for index, taken in enumerate(walk(table)):
                state = taken.before
                plain = state.restart is Restart.NONE and state.named_suit is None
                if (index % every and plain and not full()) or not _playing(state):
                    continue
                legal = frozenset(GAME.legal_actions(state))
                for action in _candidates(state, rng):
                    yield compare_move(state, action, table.label, legal)
                spent = dataclasses.replace(state, draws=state.options.max_draws)
                legal = frozenset(GAME.legal_actions(spent))
                for action in (Draw(player=state.turn), Pass(player=state.turn)):
                    yield compare_move(spent, action, f"{table.label}, draws used up", legal)
        except Exception as error:
            yield Comparison("play-allowed", False, f"{table.label}: the engine raised {error!r}")


_MOVES_CLAIMED = {"vvv8": 3475, "vandatta": 3026} if full() else {"vvv8": 770, "vandatta": 583}
"""The candidate moves each rulebook's seeded games and built positions give, in the CI bound
and the full one (the games are seeded, so the count is fixed, and a run that compares fewer
has lost positions)."""
_STEPS_CLAIMED = {"vvv8": 194, "vandatta": 136}
"""The actions each rulebook's seeded games and built positions give (a floor, as above)."""


def moves_binding(rulebook: str) -> Binding:
    """The moves of play of ``rulebook``'s seeded games, engine against encoding."""
    tables = VVV8_TABLES if rulebook == "vvv8" else VANDATTA_TABLES
    tables += TWO_DECKS[:1] if rulebook == "vvv8" else TWO_DECKS[1:]
    return Binding(
        name=f"{rulebook}.cards.moves-of-play",
        statement=(
            f"In every position of play of the seeded {rulebook} games (every fourth plain "
            "one and every one after an ace or an eight; every one, each with every single card "
            "of the hand, with and without the call and every suit for an eight, under "
            "REGELVERK_BINDINGS=full; the preset and other readings of the options), the "
            "engine (is_allowed, apply, legal_actions) allows "
            "exactly the candidate moves of play (single cards, groups, eights with and without "
            "a suit, calls, draws and passes, also with the draws used up, a card by the wrong "
            "seat) that the encoding of vandatta_cards_play allows"
            + (
                "; so it does in built positions of förhand's first turn on a start eight with "
                "no suit named (both readings of start_eight_no_choice)."
                if rulebook == "vvv8"
                else "."
            )
        ),
        kinds=MOVE_KINDS,
        compare=lambda: _compare_moves(
            tables, 4, _built_move_positions if rulebook == "vvv8" else None
        ),
        claims=_MOVES_CLAIMED[rulebook],
    )


def _built_move_positions() -> Iterator[tuple[str, State]]:
    """vvv8 positions the seeded games seldom reach: förhand's first turn on a start eight on
    which the dealer named no suit, under both readings of start_eight_no_choice."""
    for value in StartEightNoChoice:
        state = _start_eight(_v8(start_eight_no_choice=value), 3)
        named = GAME.apply(state, NameSuit(player=2, suit=None)).state
        yield f"vvv8, start eight, no suit named ({value.value})", named


# --- the card movements: engine against the encoded steps --------------------------------------


def _fits(state: State, play: Play) -> bool:
    """The encoding's verdict on a play (an early card laid again once the suit is named)."""
    return encoding_allows(state, play) is Verdict.SAT


def plan(taken: Taken) -> Plan | None:  # noqa: PLR0912
    """The encoded steps of one action of the engine (``None``: a late joiner's new seat,
    compared by :func:`compare_seat_in`)."""
    before, action = taken.before, taken.action
    p = Plan(before, taken.after, taken.events)
    kinds = {e.kind for e in taken.events}
    if isinstance(action, Join):
        return None
    if isinstance(action, Deal):
        p.deal(before)
    elif isinstance(action, NameSuit):
        if before.early:
            p.resolve_early(before, action.suit, _fits)
    elif isinstance(action, Veto):
        assert before.vetoable is not None
        offender, cards = before.vetoable
        if _veto_sends_back(before, action.player):
            p.must(Move("veto", offender, cards=cards))
            p.ordered = False
    elif not taken.allowed and getattr(action, "player", None) in before.record.out:
        # a player out of the game (over_limit = eliminated) takes no further part and holds
        # no cards: a mistake of his moves none (VA-SCORING-GAME-WINNER)
        pass
    elif isinstance(action, RevealCall):
        # a caught false call costs the standard penalty while it waits, until the end of
        # the turn it was made for (V8-PEN-FALSE-CALL-CAUGHT, V8-CALL-VALID-NEXT-TURN-ONLY);
        # a lapsed one is nothing to catch
        waiting = before.false_calls if taken.waiting is None else taken.waiting
        if action.caller in waiting:
            p.penalty(before, action.caller, (1,))
    elif isinstance(action, ReturnSurplus):
        assert before.dealer is not None
        p.must(Move("surplus", action.player, before.dealer, cards=action.cards))
    elif isinstance(action, Complete):
        p.complete(before)
        p.ordered = False
    elif isinstance(action, Redeal):
        p.redeal(before)
    elif isinstance(action, StepIn):
        p.step_in(before, action.player)
    elif isinstance(action, StayOut):
        p.end_turn(before, action.player, laid=False, hand=0)
    elif isinstance(action, Play | Draw | Pass) and taken.allowed:
        p.move(before, action)
    elif not taken.allowed and kinds:
        _mistake_plan(p, taken)
    return p


def _mistake_plan(p: Plan, taken: Taken) -> None:
    """A vvv8 mistake: förhand's early card; a card drawn too many; a card out of turn that
    stands, laid before the penalty; the standard penalty, and then the action that stands (a
    failed going out, a false call, wrong cards left on the pile)."""
    before, action = taken.before, taken.action
    kinds = [e.kind for e in taken.events]
    seat = getattr(action, "player", before.turn)
    stands = any(k in ("play", "draw", "pass") for k in kinds)
    if _early_or_overdrawn(p, taken) or _unpunished_mistake(p, taken):
        return
    if "false-call" in kinds and isinstance(action, Play | Draw | Pass):
        # false_call_detection = when-revealed: no penalty yet, the action stands
        p.move(before, dataclasses.replace(action, call=False))
        return
    failed_out = any("V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT" in e.clauses for e in taken.events)
    offences: tuple[int, ...] = (1,)
    if isinstance(action, Play) and action.player != before.turn:
        offences = (1, 2)
        if _out_of_turn_stands(before, action):
            # the cards lie on the pile before the penalty is dealt, so a rebuild of the talon
            # for it keeps the last of them face up on top (V8-PEN-OUT-OF-TURN,
            # V8-TALON-REBUILD-TOP-ASIDE)
            p.must(Move("lay", seat, cards=action.cards))
            p.penalty(before, seat, offences)
            return
    elif isinstance(action, Play) and failed_out:
        # the extra cards are owed, taken as he hands the turn on (V8-PEN-OUT-ON-EIGHT-OR-ACE-
        # THREE): the play stands (unless its card goes back to his hand), with an owed set
        owed = PenaltySet(cards=(), owed=before.options.penalty_cards)
        sets = tuple((*s, owed) if n == seat else s for n, s in enumerate(before.penalties))
        if stands:
            p.move(
                dataclasses.replace(before, penalties=sets), dataclasses.replace(action, call=False)
            )
        return
    elif isinstance(action, Play) and not stands:
        offences = (1 + bool(action.call),)
    p.penalty(before, seat, offences)
    if "left-on-pile" in kinds and isinstance(action, Play):
        # wrong_card_take_back = may-leave: after the penalty the wrong cards stay laid, and
        # the spelförare who leaves them ends his turn
        penalised = p.penalised(before, seat)
        p.must(Move("lay", seat, cards=action.cards))
        if seat == before.turn:
            left = len(penalised.hands[seat]) - len(action.cards)
            p.end_turn(penalised, seat, laid=True, hand=left)
        return
    if stands and isinstance(action, Play | Draw | Pass):
        inner = dataclasses.replace(action, call=False)
        p.move(p.penalised(before, seat), inner)


def _early_or_overdrawn(p: Plan, taken: Taken) -> bool:
    """Förhand's early card on a start eight, laid aside; a card drawn too many, face down
    (and the standard penalty after it under overdraw_could_play = standard-penalty). Whether
    the plan is made here."""
    kinds = [e.kind for e in taken.events]
    action = taken.action
    seat = getattr(action, "player", taken.before.turn)
    if "early" in kinds:
        assert isinstance(action, Play)
        p.must(Move("lay-early", seat, cards=action.cards))
        return True
    if "overdraw" in kinds:
        p.draws([Move("overdraw", seat)])
        if "penalty" in kinds:
            p.penalty(taken.before, seat, (1,))
        return True
    return False


def _unpunished_mistake(p: Plan, taken: Taken) -> bool:
    """The mistakes the text names no penalty for, planned by the table's reading (not by what
    the engine did): a draw out of turn stopped (no card moves) or its card kept face down
    (V8-AMB-DRAW-OUT-OF-TURN); eights laid together taken back, or the first of them laid
    (V8-AMB-TWO-EIGHTS-TOGETHER). Under standard-penalty both are ordinary mistakes, planned
    by the caller. Whether the plan is made here."""
    before, action = taken.before, taken.action
    options = before.options
    if isinstance(action, ForgetAbsentCard):
        return action.player != _absent_card_taker(before, action.absent)
    if isinstance(action, Draw) and action.player != before.turn:
        if options.draw_out_of_turn is DrawOutOfTurn.KEPT_LOCKED:
            p.draws([Move("overdraw", action.player)])
        return options.draw_out_of_turn is not DrawOutOfTurn.STANDARD_PENALTY
    together = (
        isinstance(action, Play)
        and len(action.cards) > 1
        and all(c.rank is Rank.EIGHT for c in action.cards)
        and options.several_eights is SeveralEights.ONE_AT_A_TIME
    )
    if not together or options.two_eights is TwoEightsLaid.STANDARD_PENALTY:
        return False
    assert isinstance(action, Play)
    if options.two_eights is TwoEightsLaid.FIRST_STANDS:  # the first eight laid, with its suit
        p.move(before, dataclasses.replace(action, cards=action.cards[:1]))
    return True


def _absent_card_taker(state: State, absent: int) -> int | None:
    """Who had to take an absent player's card for the ace on top of the pile
    (V8-ACE-NEXT-GIVES-ABSENT-CARD), as the text puts it: the draws for an ace go round from
    the seat after the spelförare who laid it, and the first present player whose draw comes
    after the absent one's takes his card too. None without an ace on top."""
    if state.phase is not Phase.PLAY or not state.pile or state.pile[-1].rank is not Rank.ACE:
        return None
    count = len(state.players)
    outside = state.record.out | state.benched
    order = [(state.turn + step) % count for step in range(1, count)]
    drawers = [s for s in order if s not in outside]
    if absent not in drawers:
        return None
    later = drawers[drawers.index(absent) + 1 :]
    return next((s for s in later if s not in state.away), None)


def _out_of_turn_stands(state: State, play: Play) -> bool:
    """Whether cards laid out of turn stay on the pile (out_of_turn_card = stands), which they
    do unless they were all the offender held in hand (V8-PEN-OUT-OF-TURN)."""
    return state.options.out_of_turn_card is OutOfTurnCard.STANDS and len(play.cards) < len(
        state.hands[play.player]
    )


def compare_seat_in(taken: Taken) -> Comparison:
    """A late joiner's seat is a new, empty place among the others (``seat_in``)."""
    assert isinstance(taken.action, Join)
    if taken.after.decks != taken.before.decks:
        return Comparison(
            "seat-in",
            False,
            f"{taken.table}: {taken.action!r}: a deck is shuffled into the talon "
            "(late_joiner_second_deck = add-deck), which the encoding does not cover",
        )
    small, large = layout_of(taken.before), layout_of(taken.after)
    solver = Solver(timeout_ms=60_000)
    old, new = fresh(small, "old"), fresh(large, "new")
    solver.add(concrete(small, old, taken.before) & concrete(large, new, taken.after))
    solver.add(seat_in(small, large, old, new, taken.action.seat))
    verdict = solver.check()
    detail = f"{taken.table}: {taken.action!r}: " + (
        NO_ANSWER if verdict is Verdict.UNKNOWN else "the new seat is not the encoding's"
    )
    return Comparison("seat-in", verdict is Verdict.SAT, detail)


def _guard(p: Plan) -> str | None:
    """What the deal's start card breaks: under start_eight = back-into-stock no eight is left
    on the pile while the stock has another card (VA-START-EIGHT-RETURNED)."""
    after = p.after
    if not after.pile:
        return None
    if p.options.start_eight is not StartEight.BACK_INTO_STOCK:
        return None
    if after.pile[-1].rank is Rank.EIGHT and any(c.rank is not Rank.EIGHT for c in after.stock):
        return f"the start card {after.pile[-1]} is an eight and stays"
    return None


def compare_taken(taken: Taken) -> Iterator[Comparison]:
    """The engine's action against the encoded steps it is made of: one comparison for each
    step kind the plan takes."""
    if isinstance(taken.action, Join):
        if taken.allowed and taken.after is not taken.before:
            yield compare_seat_in(taken)
        return
    p = plan(taken)
    assert p is not None
    verdict = follows_engine(p)
    problems = []
    if verdict is Verdict.UNKNOWN:
        problems.append(NO_ANSWER)
    elif verdict is Verdict.UNSAT:
        steps = " ".join(s[0].name + ("?" if len(s) > 1 else "") for s in p.slots) or "none"
        problems.append(f"the engine's new state does not follow by the steps {steps}")
    if isinstance(taken.action, Deal | Complete | Redeal):
        guard = _guard(p)
        if guard is not None:
            problems.append(guard)
    text = "; ".join(e.text for e in taken.events)[:300]
    detail = f"{taken.table}: {taken.action!r}: {'; '.join(problems)} (engine: {text})"
    for kind in p.kinds():
        yield Comparison(kind, not problems, detail)


def _safely(
    label: str, kind: str, cases: Callable[[], Iterator[Comparison]]
) -> Iterator[Comparison]:
    try:
        yield from cases()
    except Exception as error:
        yield Comparison(kind, False, f"{label}: the engine raised {error!r}")


def _compare_steps(
    tables: tuple[Table, ...], scenes: Callable[[], Iterator[Taken]]
) -> Iterator[Comparison]:
    for number, table in enumerate(tables):

        def walked(table: Table = table, deal: bool = number == 0) -> Iterator[Comparison]:
            for taken in walk(table):
                if deal or not isinstance(taken.action, Deal):
                    yield from compare_taken(taken)

        yield from _safely(table.label, "no-move", walked)

    def built() -> Iterator[Comparison]:
        for taken in scenes():
            yield from compare_taken(taken)

    yield from _safely("built positions", "no-move", built)


# --- built positions for the rare steps ----------------------------------------------------------


def _taken(label: str, state: State, action: Action, *, attempt: bool = False) -> Taken:
    if attempt:
        ruling = GAME.attempt(state, action)
        return Taken(label, state, action, ruling.state, ruling.events, ruling.allowed)
    outcome = GAME.apply(state, action)
    return Taken(label, state, action, outcome.state, outcome.events, True)


def _start_eight(options: VandattaOptions, seed: int, **extra: Any) -> State:
    data: dict[str, Any] = {
        "players": ["Ann", "Bo", "Cy"],
        "phase": "start-suit",
        "dealer": "Cy",
        "turn": "Ann",
        "hands": {
            "Ann": ["5S", "9D", "AD", "3D", "4D", "6D", "7D"],
            "Bo": ["2C", "3C", "4C", "5C", "6C", "7C", "9C"],
            "Cy": ["2H", "3H", "4H", "5H", "6H", "7H", "9H"],
        },
        "pile": ["8H"],
        "seed": seed,
    }
    data.update(extra)
    return GAME.position_from_data(data, options)


def _misdeal(options: VandattaOptions, hands: dict[str, list[str]], **extra: Any) -> State:
    data: dict[str, Any] = {
        "players": ["Ann", "Bo", "Cy"],
        "phase": "misdeal",
        "dealer": "Cy",
        "turn": "Ann",
        "hands": hands,
    }
    data.update(extra)
    return GAME.position_from_data(data, options)


def _deal_over(options: VandattaOptions, players: int, seed: int) -> State:
    """A finished first deal, built from a dealt one (the next Deal makes a new pack)."""
    dealt = GAME.apply(GAME.deal(options, NAMES[:players], seed), Deal()).state
    return dataclasses.replace(dealt, phase=Phase.DEAL_OVER, winner=0)


def vvv8_scenes() -> Iterator[Taken]:
    """Rare vvv8 steps: the early card (the suit of the early card, another suit, a card that
    stands), a veto, misdeals (surplus, completion, further rounds, a redeal with an early
    card), a late joiner stepping in or staying out, a start ace with Viggo, the next deal's
    new pack, and the penalty readings' situations (some with a second option: a talon rebuilt
    for a card out of turn's penalty, a false call under LAPPEN, a player out of the game)."""
    for options, suits in ((VVV8, (Suit.SPADES, Suit.DIAMONDS)), (V8_CHAIN, (Suit.DIAMONDS,))):
        for suit in suits:
            state = _start_eight(options, 1)
            play = Play(player=0, cards=parse_cards("5S"))
            early = _taken("early card", state, play, attempt=True)
            yield early
            yield _taken("early card resolved", early.after, NameSuit(player=2, suit=suit))
    free = _start_eight(_v8(start_eight_no_choice=StartEightNoChoice.ANY_SUIT), 1)
    early = _taken("early card", free, Play(player=0, cards=parse_cards("5S")), attempt=True)
    yield early
    yield _taken("early card, no suit named", early.after, NameSuit(player=2, suit=None))
    state = _start_eight(VVV8, 2, calls=["Bo"])
    early = _taken("early ace", state, Play(player=0, cards=parse_cards("AD")), attempt=True)
    named = _taken("early ace resolved", early.after, NameSuit(player=2, suit=Suit.CLUBS))
    yield named
    if named.after.vetoable is not None:
        yield _taken("veto", named.after, Veto(player=1))
    over = _misdeal(
        VVV8,
        {
            "Ann": ["2C", "3C", "4C", "5C", "6C", "7C", "9C", "10C"],
            "Bo": ["2D", "3D", "4D", "5D", "6D", "7D"],
            "Cy": ["2H", "3H", "4H", "5H", "6H"],
        },
        stock=["9S", "10S", "JS", "QS", "KS"],
    )
    surplus = _taken("surplus", over, ReturnSurplus(player=0, cards=parse_cards("10C")))
    yield surplus
    yield _taken("completion", surplus.after, Complete(player=2))
    turned = _misdeal(
        VVV8,
        {"Ann": ["2C", "3C", "4C"], "Bo": ["2D", "3D", "4D", "5D", "6D", "7D", "9D"], "Cy": []},
        pile=["KH"],
    )
    yield _taken("completion with the start card turned", turned, Complete(player=2))
    wrong = GAME.position_from_data(
        {"players": ["Ann", "Bo"], "hands": {"Ann": ["9S", "5H"], "Bo": ["2C"]}, "pile": ["KH"]},
        V8_READINGS,
    )
    yield _taken("wrong card", wrong, Play(player=0, cards=parse_cards("9S")), attempt=True)
    for options in (VVV8, V8_CHAIN):
        short = _misdeal(options, {"Ann": ["2C", "3C"], "Bo": ["2D"], "Cy": ["2H", "3H", "4H"]})
        yield _taken("further rounds", short, Complete(player=2))
    state = _start_eight(VVV8, 0, short_deal=True, players=["Ann", "Cy"], hands=_TWO)
    early = _taken("early card", state, Play(player=0, cards=parse_cards("5S")), attempt=True)
    yield _taken("redeal with an early card", early.after, Redeal(player=1))
    joined = GAME.position_from_data(
        {
            "players": ["Ann", "Bo"],
            "hands": {"Ann": ["9S", "5H"], "Bo": ["2C", "3C", "4C"]},
            "penalties": {"Bo": ["7S", "7C"]},
            "pile": ["KH"],
            "turn": "Ann",
        },
        VVV8,
    )
    for options in (VVV8, V8_CHAIN):
        state = dataclasses.replace(joined, options=options)
        seated = _taken("late joiner", state, Join(name="Eve", seat=1))
        yield seated
        turn = _taken("late joiner's turn", seated.after, Play(player=0, cards=parse_cards("5H")))
        yield _taken("late joiner steps in", turn.after, StepIn(player=1))
        yield _taken("late joiner stays out", turn.after, StayOut(player=1))
    yield _taken("start ace", GAME.deal(V8_READINGS, NAMES[:2], V8_START_ACE), Deal())
    yield _taken("next deal", _deal_over(VVV8, 2, 5), Deal())
    yield from _penalty_reading_scenes()
    yield from _veto_scenes()


def _veto_sends_back(before: State, caller: int) -> bool:
    """Whether a caller's veto sends the penalty cards back now: always, unless under
    veto_callers = all-callers another caller has still to veto them, when no card moves
    (V8-PEN-VETO-SEVERAL-CALLERS)."""
    if before.options.veto_callers is VetoCallers.ALL_CALLERS:
        return not before.may_veto - {caller}
    return True


def _veto_scenes() -> Iterator[Taken]:
    """Two callers and one penalty, under both readings of veto_callers: the first veto, the
    second (V8-AMB-VETO-SEVERAL-CALLERS)."""
    for reading in VetoCallers:
        state = GAME.position_from_data(
            {
                "players": ["Ann", "Bo", "Cy", "Di"],
                "hands": {"Ann": ["9C", "5H"], "Bo": ["2C"], "Cy": ["4C", "JD"], "Di": ["6D"]},
                "stock": ["2S", "3S", "4S", "5S"],
                "pile": ["KH"],
                "calls": ["Bo", "Di"],
            },
            _v8(veto_callers=reading),
        )
        remark = Remark(player=2, kind=RemarkKind.HISTORY)
        taken = _taken(f"penalty, two callers ({reading.value})", state, remark, attempt=True)
        yield taken
        first = _taken(f"first veto ({reading.value})", taken.after, Veto(player=1))
        yield first
        if first.after.vetoable is not None:
            yield _taken(f"second veto ({reading.value})", first.after, Veto(player=3))


def _penalty_position(options: VandattaOptions, **fields: Any) -> State:
    data: dict[str, Any] = {"players": list(NAMES[:3]), "stock": ["2S", "3S", "4S", "5S"], **fields}
    return GAME.position_from_data(data, options)


def _penalty_reading_scenes() -> Iterator[Taken]:
    """The readings of V8_TABLE_READINGS in the register's own situations: a card out of turn
    that stands, wrong cards left on the pile, a failed going out's eight back in hand,
    emptying the hand on an eight with penalty cards locked, a false call noted and caught, an
    eight barring the call as it is said, a card count asked for."""
    o = V8_TABLE_READINGS
    state = _penalty_position(
        o, hands={"Ann": ["9C", "5H"], "Bo": ["2C", "KD"], "Cy": ["7H", "KC"]}, pile=["7S"]
    )
    yield _taken(
        "out of turn, stands", state, Play(player=2, cards=parse_cards("7H")), attempt=True
    )
    lars = _penalty_position(
        o, hands={"Ann": ["9S", "9H"], "Bo": ["9C"], "Cy": ["3C"]}, pile=["7H"], calls=["Ann"]
    )
    leave = Play(player=0, cards=parse_cards("9S 9H"), leave=True)
    yield _taken("wrong cards left", lars, leave, attempt=True)
    eight = _penalty_position(
        o, hands={"Ann": ["8C"], "Bo": ["2C"], "Cy": ["3C"]}, pile=["4C"], calls=["Ann"]
    )
    failed = Play(player=0, cards=parse_cards("8C"), suit=Suit.HEARTS)
    yield _taken("failed going out, card back", eight, failed, attempt=True)
    locked = _penalty_position(
        o,
        hands={"Ann": ["9C"], "Bo": ["8H"], "Cy": ["7H"]},
        penalties={"Bo": ["2D", "3D", "4D"]},
        pile=["3C"],
        turn="Bo",
    )
    emptied = Play(player=1, cards=parse_cards("8H"), suit=Suit.SPADES)
    yield _taken("hand emptied on an eight", locked, emptied, attempt=True)
    false = _penalty_position(
        o, hands={"Ann": ["5C", "5H", "6H"], "Bo": ["2C"], "Cy": ["3C"]}, pile=["5D"]
    )
    called = Play(player=0, cards=parse_cards("5C"), call=True)
    noted = _taken("false call noted", false, called, attempt=True)
    yield noted
    yield _taken("false call caught", noted.after, RevealCall(player=1, caller=0), attempt=True)
    # an absent player's card for the ace on top: forgotten by the one whose draw follows his
    # (a mistake), or "forgotten" by one who drew before him, or with no ace laid (no mistake)
    for top, who in (("AS", 3), ("AS", 1), ("9S", 3)):
        away = _penalty_position(
            o,
            hands={"Ann": ["9C", "5H"], "Bo": ["2C", "KD"], "Cy": ["7H", "KC"], "Di": ["4D"]},
            players=list(NAMES[:4]),
            pile=[top],
            away=["Cy"],
            stock=["2S", "3S", "4S", "5S"],
        )
        forgot = ForgetAbsentCard(player=who, absent=2)
        yield _taken(f"absent card forgotten ({top}, by {NAMES[who]})", away, forgot, attempt=True)
    together = Play(player=0, cards=parse_cards("8H 8S"), suit=Suit.CLUBS)
    for reading in TwoEightsLaid:
        eights = _penalty_position(
            dataclasses.replace(o, two_eights=reading),
            hands={"Ann": ["8H", "8S", "5C"], "Bo": ["2C"], "Cy": ["3C"]},
            pile=["KH"],
        )
        yield _taken(f"two eights together ({reading.value})", eights, together, attempt=True)
    for way in DrawOutOfTurn:
        early = _penalty_position(
            dataclasses.replace(o, draw_out_of_turn=way),
            hands={"Ann": ["9C", "5H"], "Bo": ["2C", "KD"], "Cy": ["7H", "KC"]},
            pile=["7S"],
        )
        yield _taken(f"draw out of turn ({way.value})", early, Draw(player=2), attempt=True)
    at_call = _penalty_position(
        o, hands={"Ann": ["8S", "5H"], "Bo": ["2C"], "Cy": ["3C"]}, pile=["9S"]
    )
    said = Play(player=0, cards=parse_cards("8S"), suit=Suit.HEARTS, call=True)
    yield _taken("eight in hand at the call", at_call, said, attempt=True)
    count = _penalty_position(
        o, hands={"Ann": ["9C"], "Bo": ["5C"], "Cy": ["3C"]}, pile=["7S"], calls=["Bo"]
    )
    yield _taken("card count asked", count, AskCount(player=2, caller=1), attempt=True)
    yield from _option_pair_scenes()


def _option_pair_scenes() -> Iterator[Taken]:
    """Situations two options reach together: a card out of turn that stands laid on a pile
    whose talon is empty, so that the penalty rebuilds it (the card lies on the pile first and
    stays face up on top); a false call waiting under go_out_call = lappen, caught in its turn
    and left until that turn has ended (then it has lapsed, and catching it moves no card); a
    player out of the game (over_limit = eliminated) making mistakes at the table (he takes no
    cards)."""
    o = V8_TABLE_READINGS
    hands = {"Ann": ["9C", "5H"], "Bo": ["2C", "KD"], "Cy": ["7H", "KC"]}
    talon = ["9S", "3S"]
    placed = {*(c for h in hands.values() for c in h), *talon, "7S"}
    beneath = [c.code for c in french_deck(1) if c.code not in placed]
    state = _penalty_position(o, hands=hands, pile=[*beneath, "7S"], stock=talon)
    out = Play(player=2, cards=parse_cards("7H"))
    yield _taken("out of turn, stands, talon rebuilt for it", state, out, attempt=True)
    lappen = _v8(
        false_call_detection=FalseCallDetection.WHEN_REVEALED, go_out_call=GoOutCall.LAPPEN
    )
    waiting = _penalty_position(
        lappen,
        hands={"Ann": ["9H", "5C"], "Bo": ["AH", "3C"], "Cy": ["4D", "6D"]},
        pile=["KH"],
        false_calls=["Ann"],
    )
    caught = _taken("false call caught in its turn", waiting, RevealCall(player=1, caller=0))
    yield dataclasses.replace(caught, waiting=frozenset({0}))
    played = _taken("false call's turn", waiting, Play(player=0, cards=parse_cards("9H")))
    yield played
    # the turn the call was made for is over: nothing is left to catch
    # (V8-CALL-VALID-NEXT-TURN-ONLY)
    late = _taken(
        "false call caught late", played.after, RevealCall(player=1, caller=0), attempt=True
    )
    yield dataclasses.replace(late, waiting=frozenset())
    yield from _fresh_ace_penalty_scenes()
    eliminated = _v8(scoring=Scoring.CARD_POINTS, score_limit=20)
    gone = _penalty_position(
        eliminated,
        players=list(NAMES[:4]),
        hands={"Ann": [], "Bo": ["AH", "3C"], "Cy": ["4D", "6D"], "Di": ["JC", "2C"]},
        pile=["2H", "3H", "KH"],
        turn="Bo",
        record={"deals": 1, "points": {"Ann": 25}, "out": ["Ann"]},
    )
    for mistake in (
        ExtraCard(player=0),
        Remark(player=0, kind=RemarkKind.HISTORY),
        LookBack(player=0, cards=2, latest_play=1),
    ):
        yield _taken("a mistake by a player out of the game", gone, mistake, attempt=True)


def _fresh_ace_penalty_scenes() -> Iterator[Taken]:
    """A card drawn too many (overdraw_other_draws = standard-penalty) whose penalty runs the
    talon out after two cards: it is rebuilt under an ace kept face up, a fresh start card
    (rebuild_reference = fresh-start-card) for which every player draws one card from the
    spelförare on (viggo_present), before the penalty's third card; both places of the penalty
    cards (penalty_cards_usable). The offender's card for the ace comes after his first penalty
    cards and stays in his hand (V8-TALON-REBUILD-REFERENCE-CARD, V8-START-ACE-ALL-DRAW,
    V8-PEN-OVERDRAW-ANY-DRAW)."""
    hands = {"Ann": ["9H", "5C"], "Bo": ["AH", "3C"], "Cy": ["4D", "6D"]}
    talon = ["10D", "8S", "QD"]
    placed = {*(c for h in hands.values() for c in h), *talon, "AS"}
    beneath = [c.code for c in french_deck(1) if c.code not in placed]
    for usable in (PenaltyCardsUsable.AFTER_EXHAUSTING_TURN, PenaltyCardsUsable.AT_NEXT_TURN_START):
        options = _v8(
            rebuild_reference=RebuildReference.FRESH_START_CARD,
            overdraw_other_draws=OverdrawOtherDraws.STANDARD_PENALTY,
            viggo_present=True,
            penalty_cards_usable=usable,
        )
        state = _penalty_position(
            options, hands=hands, pile=[*beneath, "AS"], stock=talon, turn="Bo"
        )
        label = f"a fresh start ace in the middle of a penalty ({usable.value})"
        yield _taken(label, state, ExtraCard(player=1), attempt=True)


_TWO = {"Ann": ["5S", "9D", "AD", "3D", "4D", "6D", "7D"], "Cy": ["2H", "3H", "4H", "5H", "6H"]}

V8_START_ACE = 6
"""A seed whose first two-player deal under :data:`V8_READINGS` turns an ace."""


def vandatta_scenes() -> Iterator[Taken]:
    """Rare vandatta steps: start eights going back into the stock (every start_eight_place),
    a start ace (as it stands, and counted as the dealer's ace under start_ace =
    as-dealers-ace), and the next deal's new pack."""
    for options, seed in START_EIGHTS:
        yield _taken("start eight", GAME.deal(options, NAMES[:2], seed), Deal())
    yield _taken("start ace", GAME.deal(VANDATTA, NAMES[:2], VA_START_ACE), Deal())
    dealers_ace = _va(start_ace=StartAce.AS_DEALERS_ACE)
    yield _taken("dealer's start ace", GAME.deal(dealers_ace, NAMES[:2], VA_START_ACE), Deal())
    yield _taken("next deal", _deal_over(VANDATTA, 2, 6), Deal())
    yield from _play_reading_scenes()


def _play_reading_scenes() -> Iterator[Taken]:
    """A pile turned under the stock (turned_pile = under-stock) and the LAPPEN penalty
    followed by a play (lappen_penalty = penalty-then-play)."""
    under = _va(turned_pile=TurnedPile.UNDER_STOCK)
    hands = {"Ann": ["8D", "AC", "6C"], "Bo": ["2S", "3S"]}
    data: dict[str, Any] = {"players": ["Ann", "Bo"], "hands": hands, "pile": ["2H", "3H"]}
    state = GAME.position_from_data(data, under)
    eight = Play(player=0, cards=parse_cards("8D"), suit=Suit.CLUBS)
    turned = _taken("pile turned under the stock", state, eight)
    yield turned
    ace = Play(player=0, cards=parse_cards("AC"))
    yield _taken("ace after the pile went under", turned.after, ace)
    then_play = _va(lappen_penalty=LappenPenalty.PENALTY_THEN_PLAY)
    caller = GAME.position_from_data(
        {
            "players": ["Ann", "Bo"],
            "hands": {"Ann": ["6C"], "Bo": ["2D", "3D"]},
            "pile": ["9H"],
            "calls": ["Ann"],
            "stock": ["2S", "5H", "3S"],
        },
        then_play,
    )
    penalty = _taken("LAPPEN penalty, then a play", caller, Draw(player=0))
    yield penalty
    yield _taken("a penalty card laid", penalty.after, Play(player=0, cards=parse_cards("5H")))


START_EIGHTS = ((VANDATTA, 32), (VA_READINGS, 32), (VA_EIGHTS, 32))
"""Seeds whose first two-player deal turns a start eight (random place, bottom, reshuffle)."""

VA_START_ACE = 8
"""A seed whose first two-player vandatta deal turns an ace."""


def _step_kinds(rulebook: str) -> tuple[str, ...]:
    """The step kinds the rulebook's theorem checks (vvv8: every step, and a new seat)."""
    if rulebook == "vvv8":
        names = [s.name for s in STEPS if s.vvv8 is not None or s.name in ("cut", "no-move")]
        return (*names, "seat-in")
    return tuple(s.name for s in STEPS if s.vandatta is not None or s.name == "no-move")


def steps_binding(rulebook: str) -> Binding:
    """Every action of ``rulebook``'s seeded games and built positions, engine against the
    encoded steps."""
    if rulebook == "vvv8":
        tables, scenes = VVV8_TABLES, vvv8_scenes
    else:
        tables, scenes = VANDATTA_TABLES, vandatta_scenes
    return Binding(
        name=f"{rulebook}.cards.steps",
        statement=(
            f"Every action of the seeded {rulebook} games (moves of play, mistakes and their "
            "penalties, players away and back, late joiners, vetoes; the stock cut down so that "
            "it is rebuilt) and of positions built for the rare steps (early cards, misdeals, "
            "start eights and aces, the next deal"
            + (
                "; a penalty whose rebuild keeps a card out of turn face up; a penalty whose "
                "rebuild keeps an ace as a fresh start card, every player drawing for it between "
                "the penalty cards"
                if rulebook == "vvv8"
                else ""
            )
            + ") leads, card by card, from the engine's state "
            "before to its state after by the steps the encoding makes that action of."
        ),
        kinds=_step_kinds(rulebook),
        compare=lambda: _compare_steps(tables, scenes),
        claims=_STEPS_CLAIMED[rulebook],
    )


VVV8_MOVES = moves_binding("vvv8")
"""vvv8's moves of play, engine against encoding."""
VVV8_STEPS = steps_binding("vvv8")
"""vvv8's card movements, engine against the encoded steps."""
VANDATTA_MOVES = moves_binding("vandatta")
"""vandatta's moves of play, engine against encoding."""
VANDATTA_STEPS = steps_binding("vandatta")
"""vandatta's card movements, engine against the encoded steps."""
