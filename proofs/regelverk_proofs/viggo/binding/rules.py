"""The bindings of the Viggo theorems: the engine (:mod:`regelverk.viggo`) against the encodings
of :mod:`regelverk_proofs.viggo.encoding.rules`, case by case over bounded, seeded universes.

* ``viggo.beats``: every pair of abstract combinations (every kind, rank or run start, with and
  without the 3♣) under each of the 256 option sets the "beats" theorems cover: the engine's
  ``classify`` says which exist, its ``beats`` which replies are allowed and which only match;
  the encoding must say the same.
* ``viggo.legal-plays``: on positions of seeded games (two to four players, several option
  sets), legal and illegal candidates (plays listed by ``legal_actions``, random cards from the
  hand, combinations of the wrong type such as a pair on a run, cards from another hand, a
  lead that leaves out the 4♣, passes on a lead, keeps of an undrawn card; and, at every lead
  after a round's first trick, a lead without the 4♣ by a leader given the 4♣):
  ``legal_actions``, ``check`` and ``apply`` must agree with one another and with
  ``legal_play`` (``keep_step``, ``pass_step``).
* ``viggo.card-steps``: every step the engine takes in those games (deals, keeps, leads,
  replies, passes, tricks set aside, rounds ended and re-dealt, games over) satisfies the card
  relation of its kind with the engine's own next state; a next state with the turn moved on
  one seat, or a card taken out of its place, is refused.
* ``viggo.count-steps``: the same steps by counts (``count_pass_step``, ``count_play_step``), and
  the trick invariant of ``viggo.trick-ends`` holds in every position the engine reaches.
* ``viggo.ending``: the engine's round points, totals, game over, losers and game winners
  (``rounds.round_points``, ``add_points``, ``losers``, ``game_winners``) against the
  encoding's ``score_round``, ``game_lost``, ``losers`` and ``game_winners`` at totals around
  the losing total read from the engine's options, for two to four players and every reading
  of VG-AMB-LOSS-THRESHOLD and VG-AMB-SIMULTANEOUS-53.
* ``viggo.seats``: the engine's first hand of a first round (``rounds.start_round``) and the
  next round's dealer and first hand (``rounds.finish_round``) against the encoding's
  ``first_hand`` and ``next_dealers``, for every dealer, round winner and mix of small hands,
  under every option set that decides them.

Every binding is deterministic (``random.Random(seed)``) and compares the encoding unweakened.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import cache

from regelverk.cards import Card
from regelverk.engine import IllegalActionError
from regelverk.viggo import GAME, Keep, Pass, Phase, Play, ViggoOptions, classify, rounds
from regelverk.viggo import beats as engine_beats
from regelverk.viggo.combos import Kind
from regelverk.viggo.options import (
    ClubFourOpening,
    ClubFourScope,
    ClubThree,
    ClubThreeSameRank,
    Direction,
    DraftDiscards,
    DraftLookBoth,
    EqualRankReply,
    ExampleTrickEnd,
    FirstLeader,
    GroupedRanks,
    LeadAfterTie,
    LossThresholdRule,
    MostCardsLead,
    MostCardsTie,
    NextDealer,
    PassIsFinal,
    PassWhenAble,
    SequenceWrap,
    SimultaneousLoss,
    ThreeInCombination,
    ThreePlayerDeal,
)
from regelverk.viggo.rounds import CLUB_FOUR
from regelverk.viggo.state import ViggoAction, ViggoState
from regelverk_proofs.binding import Binding, Comparison, full
from regelverk_proofs.evaluate import Compiled, Term
from regelverk_proofs.viggo.encoding.rules import (
    CARDS,
    SEQUENCE,
    BeatsOptions,
    Counts,
    Readings,
    Shuffle,
    Table,
    abstract_combo,
    beats,
    beats_option_sets,
    count_pass_step,
    count_play_step,
    deal,
    describe_options,
    first_hand,
    game_lost,
    keep_step,
    legal_play,
    next_dealers,
    pass_step,
    play_step,
    realize,
    score_round,
    trick_invariant,
)
from regelverk_proofs.viggo.encoding.rules import game_winners as winners_term
from regelverk_proofs.viggo.encoding.rules import losers as losers_term
from regelverk_proofs.viggo.text import CARD_OF, card_number
from regelverk_proofs.z3api import Bool, Int

__all__ = [
    "BEATS",
    "CARD_STEPS",
    "COUNT_STEPS",
    "ENDING",
    "LEGAL_PLAYS",
    "SEATS",
    "STEP_OPTIONS",
    "TEXT_TABLES",
    "seat_option_sets",
    "seat_options_text",
]

NAMES = ("P1", "P2", "P3", "P4")
NONE: frozenset[str] = frozenset()
PHASES = {Phase.DRAFT: 0, Phase.PLAY: 1, Phase.OVER: 2}

# ---------------------------------------------------------------------------------------------
# viggo.beats
# ---------------------------------------------------------------------------------------------

_ABSTRACT = tuple(
    (kind, at, club) for kind in range(SEQUENCE + 1) for at in range(13) for club in (False, True)
)
"""Every abstract combination: kind (0-4), rank position or run start, holds the 3♣."""


@cache
def _beats_term() -> tuple[Compiled, Compiled, Compiled, Compiled]:
    """The encoding's "a combination exists", "beats" and "only matches", over unknown options
    and combinations, as Python functions."""
    o = BeatsOptions.fresh("o-")
    kn, an, cn = Int.var("new-kind"), Int.var("new-at"), Bool.var("new-club")
    ko, ao, co = Int.var("old-kind"), Int.var("old-at"), Bool.var("old-club")
    new, exists_new = abstract_combo(kn, an, cn, o)
    old, _ = abstract_combo(ko, ao, co, o)
    reply = beats(new, old, o)
    opts: list[Term] = [getattr(o, name) for name in BeatsOptions.__slots__]
    one: list[Term] = [kn, an, cn]
    both: list[Term] = [kn, an, cn, ko, ao, co]
    return (
        Compiled(exists_new, opts + one),
        Compiled(reply.allowed, opts + both),
        Compiled(reply.equal_only, opts + both),
        Compiled(new.key, opts + one),
    )


def _option_values(options: ViggoOptions) -> list[int | bool]:
    return [
        options.club_three_on_top is ClubThree.CLUB_THREE_ON_TOP,
        options.club_three_others.value == "only-club-beats-threes",
        options.same_rank_once,
        options.grouped_ranks is GroupedRanks.EQUAL_WITHIN_ROW,
        options.sequence_wrap is SequenceWrap.WRAP,
        options.three_in_combination is ThreeInCombination.THREE_TRUMPS,
        options.three_beats_three.value == "singles-only",
        options.equal_rank_reply is EqualRankReply.EQUAL_ALLOWED,
        options.club_three_same_rank.value == "same-rank-forbids",
    ]


def _abstract_cards(combo: tuple[int, int, bool]) -> tuple[Card, ...]:
    (cards,) = realize([combo])
    return tuple(CARD_OF[i] for i in cards)


_OTHER_KINDS_EVERY = 1 if full() else 8
"""Replies of another kind are compared under every eighth option set (32 of them, the preset
first; every option set under REGELVERK_BINDINGS=full): no option touches the no-switching
rule, and they are three quarters of all pairs."""


def _compare_beats() -> Iterator[Comparison]:
    exists, allowed, equal_only, _ = _beats_term()
    cards = {c: _abstract_cards(c) for c in _ABSTRACT}
    for number, options in enumerate(beats_option_sets()):
        opts = _option_values(options)
        every_kind = number % _OTHER_KINDS_EVERY == 0
        found = []
        for combo in _ABSTRACT:
            engine = classify(cards[combo], options)
            kind, at, club = combo
            if engine is not None and engine.has_club_three != club:
                engine = None  # the 3♣ cannot be chosen out of (or into) this combination
            encoded = bool(exists([*opts, kind, at, club]))
            real = engine is not None and _kind_number(engine.kind) == kind
            yield Comparison(
                "combination",
                real == encoded,
                ""
                if real == encoded
                else f"{_show(combo)} under {_opts(options)}: the engine "
                f"{'reads' if real else 'does not read'} {cards[combo]} as that combination, "
                f"the encoding says it {'exists' if encoded else 'does not exist'}",
            )
            if real and engine is not None:
                found.append((combo, engine))
        for (a, new), (b, old) in itertools.product(found, found):
            if a[0] != b[0] and not every_kind:
                continue
            verdict = engine_beats(new, old, options)
            values = [*opts, *a, *b]
            enc = bool(allowed(values))
            case = "same-kind" if a[0] == b[0] else "other-kind"
            agrees = enc == verdict.allowed
            if agrees and enc:
                agrees = bool(equal_only(values)) == (not verdict.strict)
            if agrees:
                yield Comparison(case, True)
                continue
            yield Comparison(
                case,
                False,
                f"{_show(a)} on {_show(b)} under {_opts(options)}: the engine says "
                f"{verdict.allowed} (strict {verdict.strict}: {verdict.reason}), the encoding "
                f"{enc}",
            )


def _kind_number(kind: Kind) -> int:
    return list(Kind).index(kind)


def _show(combo: tuple[int, int, bool]) -> str:
    kind, at, club = combo
    return f"{list(Kind)[kind].value} at position {at}{' with the 3♣' if club else ''}"


def _opts(options: ViggoOptions) -> str:
    return describe_options(options)


BEATS = Binding(
    name="viggo.beats",
    statement=(
        "Under each of the 256 option sets the 'beats' theorems cover, every abstract "
        "combination (five kinds, thirteen ranks or run starts, with or without the 3♣) exists "
        "in the encoding exactly when the engine's classify reads its cards as that kind, and "
        "for every pair of existing combinations of one kind (and, under every eighth option "
        "set, or every one with REGELVERK_BINDINGS=full, of two kinds) the encoding's beats "
        "allows the reply, and counts it as only matching, exactly as the engine's beats does."
    ),
    kinds=("combination", "same-kind", "other-kind"),
    compare=_compare_beats,
    claims=1256192 if full() else 403200,
)


# ---------------------------------------------------------------------------------------------
# Tables and counts as values, and the step relations as Python functions
# ---------------------------------------------------------------------------------------------


def _table_terms(t: Table) -> list[Term]:
    out: list[Term] = [b for hand in t.hands for b in hand]
    out += [*t.stock, *t.order, *t.away, *t.trick, *t.top, *t.aside, t.turn, *t.passed]
    out += [t.top_seat, t.highest, t.replies, *t.scores, t.phase]
    return out


def _bits(cards: Sequence[Card]) -> list[int | bool]:
    bits: list[int | bool] = [False] * CARDS
    for c in cards:
        bits[card_number(c)] = True
    return bits


def _table_values(state: ViggoState) -> list[int | bool]:
    """:meth:`Table.of_state` as plain values, in the order of :func:`_table_terms`."""
    where = {card_number(c): i for i, c in enumerate(state.stock)}
    out: list[int | bool] = [b for hand in state.hands for b in _bits(hand)]
    out += _bits(state.stock)
    out += [where.get(i, -1) for i in range(CARDS)]
    out += _bits(state.put_away)
    out += _bits([c for laid in state.trick for c in laid.cards])
    out += _bits(state.trick[-1].cards if state.trick else ())
    out += _bits(state.set_aside)
    out += [state.turn, *(s in state.passed for s in range(state.count))]
    out += [state.trick[-1].seat if state.trick else -1, state.highest, state.replies]
    out += [*state.scores, PHASES[state.phase]]
    return out


def _shuffle_terms(s: Shuffle) -> list[Term]:
    return [*s.dealt, *(b for slot in s.slot for b in slot), s.first]


def _shuffle_values(state: ViggoState | None, count: int) -> list[int | bool]:
    """:meth:`Shuffle.witness` of a freshly dealt ``state`` as values (nothing dealt: none)."""
    if state is None:
        return [False] * CARDS + [False] * (CARDS * count) + [0]
    step = 1 if state.options.direction is Direction.CLOCKWISE else -1
    seat_of = {card_number(c): s for s, hand in enumerate(state.hands) for c in hand}
    dealt: list[int | bool] = []
    slots: list[int | bool] = []
    for c in range(CARDS):
        seat = seat_of.get(c, -1)
        nth = ((seat - state.first_hand) * step) % count if seat >= 0 else -1
        dealt.append(seat >= 0)
        slots += [r == nth for r in range(count)]
    return [*dealt, *slots, state.first_hand]


def _count_terms(c: Counts) -> list[Term]:
    return [*c.held, c.trick, *c.passed, c.turn, c.top_seat, c.replies]


def _count_values(state: ViggoState) -> list[int | bool]:
    return [
        *(len(h) for h in state.hands),
        sum(len(laid.cards) for laid in state.trick),
        *(s in state.passed for s in range(state.count)),
        state.turn,
        state.trick[-1].seat if state.trick else -1,
        state.replies,
    ]


def _laid_terms() -> list[Term]:
    return [Bool.var(f"laid{c}") for c in range(CARDS)]


@cache
def _legal_fn(options: ViggoOptions, count: int, round_no: int) -> Compiled:
    """``legal_play`` for a table of ``count`` seats in round ``round_no`` (1, or 2 for every
    later round: the rules tell only the first round apart)."""
    pre = Table.fresh("pre", count)
    laid = _laid_terms()
    legal, _ = legal_play(pre, [b for b in laid if isinstance(b, Bool)], options, round_no)
    return Compiled(legal, _table_terms(pre) + laid)


@cache
def _play_fn(options: ViggoOptions, count: int, round_no: int) -> Compiled:
    """``play_step`` (legal and related) for ``count`` seats, the re-deal's shuffle unknown."""
    pre, post = Table.fresh("pre", count), Table.fresh("post", count)
    laid = _laid_terms()
    shuffle = Shuffle.fresh("deck", count)
    legal, step = play_step(
        pre,
        [b for b in laid if isinstance(b, Bool)],
        post,
        options,
        readings=Readings.of(options),
        round_no=round_no,
        shuffle=shuffle,
        weaken=NONE,
    )
    inputs = _table_terms(pre) + _table_terms(post) + laid + _shuffle_terms(shuffle)
    return Compiled(legal & step, inputs)


@cache
def _pass_fn(options: ViggoOptions, count: int) -> tuple[Compiled, Compiled]:
    pre, post = Table.fresh("pre", count), Table.fresh("post", count)
    legal, step = pass_step(pre, post, options, Readings.of(options), NONE)
    return Compiled(legal, _table_terms(pre)), Compiled(
        legal & step, _table_terms(pre) + _table_terms(post)
    )


@cache
def _keep_fn(options: ViggoOptions) -> tuple[Compiled, Compiled]:
    pre, post = Table.fresh("pre", 2), Table.fresh("post", 2)
    kept = _laid_terms()
    legal, step = keep_step(pre, [b for b in kept if isinstance(b, Bool)], post, options, NONE)
    return Compiled(legal, _table_terms(pre) + kept), Compiled(
        legal & step, _table_terms(pre) + _table_terms(post) + kept
    )


@cache
def _deal_fn(options: ViggoOptions, count: int) -> Compiled:
    post, shuffle = Table.fresh("post", count), Shuffle.fresh("deck", count)
    return Compiled(deal(post, options, shuffle), _table_terms(post) + _shuffle_terms(shuffle))


@cache
def _count_fns(options: ViggoOptions, count: int) -> tuple[Compiled, Compiled, Compiled]:
    pre, post = Counts.fresh("pre", count), Counts.fresh("post", count)
    readings = Readings.of(options)
    laid = Int.var("laid")
    ok, _closes, step = count_pass_step(pre, post, options, readings, NONE)
    passing = Compiled(ok & step, _count_terms(pre) + _count_terms(post))
    ok, _closes, out, step = count_play_step(
        pre, laid, post, options, readings=readings, weaken=NONE
    )
    playing = Compiled(ok & ~out & step, _count_terms(pre) + _count_terms(post) + [laid])
    invariant = Compiled(trick_invariant(options, readings, pre), _count_terms(pre))
    return passing, playing, invariant


# ---------------------------------------------------------------------------------------------
# Seeded games
# ---------------------------------------------------------------------------------------------

STEP_OPTIONS: tuple[tuple[ViggoOptions, tuple[int, ...]], ...] = (
    (ViggoOptions(), (2, 3, 4)),
    (
        ViggoOptions(
            pass_is_final=PassIsFinal.FINAL,
            example_trick_end=ExampleTrickEnd.ONE_LAP,
            draft_discards=DraftDiscards.UNDER_STOCK,
            draft_look_both=DraftLookBoth.EVERY_TURN,
            direction=Direction.COUNTER_CLOCKWISE,
            equal_rank_reply=EqualRankReply.EQUAL_ALLOWED,
            lead_after_tie=LeadAfterTie.FIRST_TO_PLAY,
            three_player_deal=ThreePlayerDeal.DEAL_ALL_UNEVEN,
            loss_threshold_rule=LossThresholdRule.EXACTLY,
            same_rank_once=True,
            club_three_on_top=ClubThree.CLUB_THREE_ON_TOP,
            club_three_same_rank=ClubThreeSameRank.SAME_RANK_FORBIDS,
            loss_points=9,
        ),
        (2, 3),
    ),
    (
        ViggoOptions(
            sequence_wrap=SequenceWrap.WRAP,
            three_in_combination=ThreeInCombination.THREE_TRUMPS,
            club_three_on_top=ClubThree.CLUB_THREE_ON_TOP,
            three_player_deal=ThreePlayerDeal.SEVENTEEN_EACH_ONE_ASIDE,
            club_four_starts=True,
            club_four_opening=ClubFourOpening.MUST_INCLUDE,
            example_trick_end=ExampleTrickEnd.THREE_PLAYERS,
            pass_is_final=PassIsFinal.FINAL,
            simultaneous_loss=SimultaneousLoss.ALL_OVER_LOSE,
            pass_when_able=PassWhenAble.MUST_BEAT,
            loss_points=6,
        ),
        (3, 4),
    ),
)
"""The option sets (and player counts) of the seeded games: the preset; a final pass with
one-lap tricks, the draft's cards under the stock, counter-clockwise play, equal replies, the
exactly-53 reading, and the club-three and same-rank house rules with the same-rank rule
first (VG-AMB-CLUB-THREE-SAME-RANK); wrapping runs, three-trumps, the club-three and club-four
rules, a final pass with tricks that end when all others have passed, and no pass for a
player who can beat (VG-AMB-PASS-WHEN-ABLE). Small losing totals let the games reach their
end."""

_SEEDS = (1, 2)
_STEPS = 260
_COVER_STEPS = 40
"""Steps of each game under a row of the option cover (full bound only)."""


def _option_cover() -> tuple[ViggoOptions, ...]:
    """Option sets in which every pair of values of two different Viggo options (every
    reading and house rule; the losing total kept at 53) appears together: a covering array
    of strength two (:func:`regelverk_proofs.cover.pairwise`)."""
    import dataclasses
    import enum

    from regelverk_proofs.cover import pairwise

    default = ViggoOptions()
    values: list[tuple[str, list[object]]] = []
    for f in dataclasses.fields(ViggoOptions):
        now = getattr(default, f.name)
        if isinstance(now, bool):
            values.append((f.name, [now, not now]))
        elif isinstance(now, enum.Enum):
            values.append((f.name, [now, *(m for m in type(now) if m is not now)]))
    cover = pairwise(values, lambda chosen: ViggoOptions(**chosen))  # type: ignore[arg-type]
    return cover.rows


def _game_plan() -> Iterator[tuple[ViggoOptions, int, int, int]]:
    """The seeded games: (options, players, seed, steps). The three option sets of
    :data:`STEP_OPTIONS` at their player counts, two seeds, 260 steps; under
    ``REGELVERK_BINDINGS=full`` also every row of :func:`_option_cover` at 2, 3 and 4
    players, 40 steps each."""
    for options, counts in STEP_OPTIONS:
        for count in counts:
            for seed in _SEEDS:
                yield options, count, seed, _STEPS
    if full():
        for options in _option_cover():
            for count in (2, 3, 4):
                yield options, count, 7, _COVER_STEPS


def _games() -> Iterator[tuple[ViggoState, ViggoAction, ViggoState, random.Random]]:
    """Every step of the seeded games: the state, the action, the next state, and the game's
    generator (for candidates drawn at that state)."""
    for options, count, seed, steps in _game_plan():
        rng = random.Random(1000 * count + seed)
        state = GAME.deal(options, NAMES[:count], seed)
        for _ in range(steps):
            if GAME.is_over(state):
                break
            action = rng.choice(GAME.legal_actions(state))
            after = GAME.apply(state, action).state
            yield state, action, after, rng
            state = after


def _round_class(state: ViggoState) -> int:
    """The state's round as the encoding tells rounds apart: the first, or a later one (the
    round number itself, never the engine's reading of what it implies)."""
    return 1 if state.round == 1 else 2


# ---------------------------------------------------------------------------------------------
# viggo.legal-plays
# ---------------------------------------------------------------------------------------------


def _engine_allows(state: ViggoState, action: ViggoAction) -> tuple[bool, bool, bool | None]:
    """Whether ``legal_actions`` lists the action (as a set of cards), ``check`` passes it and
    ``apply`` plays it; ``apply`` is not tried (``None``) when listing and ``check`` already
    disagree, since an action the engine's own judgements differ on may crash it."""
    listed = False
    for a in GAME.legal_actions(state):
        if type(a) is type(action):
            if isinstance(a, Play) and isinstance(action, Play):
                listed = frozenset(a.cards) == frozenset(action.cards)
            elif isinstance(a, Keep) and isinstance(action, Keep):
                listed = a.card == action.card
            else:
                listed = True
            if listed:
                break
    try:
        GAME.check(state, action)
        checked = True
    except IllegalActionError:
        checked = False
    if listed != checked:
        return listed, checked, None
    try:
        GAME.apply(state, action)
        applied = True
    except IllegalActionError:
        applied = False
    return listed, checked, applied


def _plays_of(hand: Sequence[Card], size: int) -> list[tuple[Card, ...]]:
    """The sets of one rank of ``size`` cards in ``hand`` (at most four)."""
    by_rank: dict[object, list[Card]] = {}
    for c in hand:
        by_rank.setdefault(c.rank, []).append(c)
    found = [tuple(g[:size]) for g in by_rank.values() if len(g) >= size]
    return found[:4]


def _candidates(state: ViggoState, rng: random.Random) -> list[tuple[str, ViggoAction]]:
    if state.phase is Phase.DRAFT:
        drawn = state.stock[:2]
        deeper = state.stock[2:3]
        keeps: list[tuple[str, ViggoAction]] = [("keep", Keep(card=c)) for c in (*drawn, *deeper)]
        return keeps
    hand = state.hands[state.turn]
    found: list[tuple[str, ViggoAction]] = [("pass", Pass())]
    plays = [a for a in GAME.legal_actions(state) if isinstance(a, Play)]
    for play in rng.sample(plays, min(4, len(plays))):
        found.append(("play", play))
    for _ in range(3):
        picked = tuple(rng.sample(hand, rng.randint(1, min(5, len(hand)))))
        found.append(("play", Play(cards=picked)))
    if state.trick:
        top = classify(state.trick[-1].cards, state.options)
        for size in (1, 2, 3):
            for cards in _plays_of(hand, size):
                combo = classify(cards, state.options)
                if combo is not None and top is not None and combo.kind is not top.kind:
                    name = (
                        "pair-on-run"
                        if combo.kind is Kind.PAIR and top.kind is Kind.SEQUENCE
                        else "play"
                    )
                    found.append((name, Play(cards=cards)))
    other = state.hands[(state.turn + 1) % state.count]
    if other:
        found.append(("play", Play(cards=(other[0],))))
    if not state.trick and CLUB_FOUR in hand and len(hand) > 1:
        found.append(("club-four-lead", Play(cards=(next(c for c in hand if c != CLUB_FOUR),))))
    return found


def _encoded_legal(state: ViggoState, action: ViggoAction, pre: list[int | bool]) -> bool:
    """The encoding's ruling on ``action`` in ``state``, whose table has the values ``pre``."""
    if isinstance(action, Keep):
        legal, _ = _keep_fn(state.options)
        return bool(legal(pre + _bits((action.card,))))
    if isinstance(action, Pass):
        legal, _ = _pass_fn(state.options, state.count)
        return bool(legal(pre))
    fn = _legal_fn(state.options, state.count, _round_class(state))
    return bool(fn(pre + _bits(action.cards)))


def _club_four_handed(state: ViggoState) -> ViggoState | None:
    """At a lead after the round's first trick, the same position with the 4♣ moved into the
    leader's hand (his lowest card taking its place), if he does not hold it: no game under
    the club-four rules reaches it (its holder opens with it), but the rule it tests is stated
    for every later lead, which check and the encoding must judge alike."""
    if state.phase is not Phase.PLAY or state.trick or not state.set_aside:
        return None
    hand = state.hands[state.turn]
    if CLUB_FOUR in hand or len(hand) < 2:
        return None
    given = hand[0]

    def swapped(cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(given if c == CLUB_FOUR else c for c in cards)

    hands = [rounds.sort_hand(swapped(h)) for h in state.hands]
    hands[state.turn] = rounds.sort_hand((*hand[1:], CLUB_FOUR))
    return replace(
        state,
        hands=tuple(hands),
        set_aside=swapped(state.set_aside),
        put_away=swapped(state.put_away),
        stock=swapped(state.stock),
    )


def _legal_comparison(
    state: ViggoState, what: str, action: ViggoAction, pre: list[int | bool] | None = None
) -> Comparison:
    listed, checked, applied = _engine_allows(state, action)
    encoded = _encoded_legal(state, action, _table_values(state) if pre is None else pre)
    name = what
    allowed = checked if applied is None else applied
    if what == "play":
        name = ("reply" if state.trick else "lead") + ("" if allowed else "-refused")
    elif what in ("pass", "keep") and not allowed:
        name = what + "-refused"
    agrees = listed == checked == applied == encoded
    if agrees:  # the detail is shown only where they disagree
        return Comparison(name, agrees)
    return Comparison(
        name,
        agrees,
        f"{action!r} in round {state.round} of {state.count} players, trick "
        f"{[laid.cards for laid in state.trick]}, {len(state.set_aside)} cards set aside, under "
        f"{state.options!r}: legal_actions {listed}, check {checked}, apply "
        f"{'not tried' if applied is None else applied}, encoding {encoded}",
    )


def _compare_legal() -> Iterator[Comparison]:
    for state, _, _, rng in _games():
        pre = _table_values(state)
        for what, action in _candidates(state, rng):
            yield _legal_comparison(state, what, action, pre)
        moved = _club_four_handed(state)
        if moved is not None:
            other = next(c for c in moved.hands[moved.turn] if c != CLUB_FOUR)
            yield _legal_comparison(moved, "club-four-later-lead", Play(cards=(other,)))


LEGAL_PLAYS = Binding(
    name="viggo.legal-plays",
    statement=(
        "On every position of seeded games (two to four players, three option sets; with "
        "REGELVERK_BINDINGS=full also 20 option sets covering every pair of values of any two "
        "Viggo options, at 2, 3 and 4 players), "
        "for leads, replies, passes and keeps, legal and illegal alike (random cards from the "
        "hand, a combination of another type such as a pair on a run, a card of another hand, "
        "an opening without the 4♣ where it must hold it, a pass on a lead (the round's first "
        "or a later one), a pass by a player who can beat under the must-beat reading, a keep "
        "of an undrawn card), and at every lead after a round's first trick the same position "
        "with the 4♣ moved into the leader's hand and a lead without it: the engine's "
        "legal_actions lists the action exactly when check passes it, exactly when apply "
        "plays it (apply is tried only where those two agree), exactly when the encoding's "
        "legal_play (keep_step, pass_step) allows it."
    ),
    kinds=(
        "lead",
        "lead-refused",
        "reply",
        "reply-refused",
        "pair-on-run",
        "club-four-lead",
        "club-four-later-lead",
        "pass",
        "pass-refused",
        "keep",
        "keep-refused",
    ),
    compare=_compare_legal,
    claims=41498 if full() else 22434,
)


# ---------------------------------------------------------------------------------------------
# viggo.card-steps
# ---------------------------------------------------------------------------------------------


def _step_kind(state: ViggoState, action: ViggoAction, after: ViggoState) -> str:
    if isinstance(action, Keep):
        return "keep-ends-draft" if after.phase is Phase.PLAY else "keep"
    if after.phase is Phase.OVER:
        return "game-over"
    if after.round != state.round:
        return "round-ends"
    if isinstance(action, Pass):
        return "pass-closes" if not after.trick else "pass"
    if not state.trick:
        return "lead"
    return "reply-closes" if not after.trick else "reply"


def _step_holds(
    state: ViggoState,
    action: ViggoAction,
    after: ViggoState,
    post: list[int | bool],
    pre: list[int | bool],
) -> bool:
    """Whether the encoding relates ``state`` (table values ``pre``) by ``action`` to
    ``after`` (``post``)."""
    if isinstance(action, Keep):
        _, step = _keep_fn(state.options)
        return bool(step(pre + post + _bits((action.card,))))
    if isinstance(action, Pass):
        _, step = _pass_fn(state.options, state.count)
        return bool(step(pre + post))
    redealt = after.round != state.round and after.phase is not Phase.OVER
    shuffle = _shuffle_values(after if redealt and after.count > 2 else None, state.count)
    fn = _play_fn(state.options, state.count, _round_class(state))
    return bool(fn(pre + post + _bits(action.cards) + shuffle))


def _nudged(after: ViggoState, post: list[int | bool]) -> list[int | bool]:
    """The engine's next table with the turn moved on one seat (a different next state)."""
    n = after.count
    turn_at = CARDS * (n + 6)  # after the hands, stock, order, away, trick, top, aside
    changed = list(post)
    changed[turn_at] = (int(post[turn_at]) + 1) % n
    return changed


def _compare_steps() -> Iterator[Comparison]:
    dealt: set[tuple[ViggoOptions, int]] = set()
    last: tuple[ViggoState, list[int | bool]] | None = None  # the last step's next table
    for state, action, after, _ in _games():
        pre = last[1] if last is not None and last[0] is state else _table_values(state)
        if (state.options, state.count) not in dealt and state.round == 1 and not state.trick:
            dealt.add((state.options, state.count))
            if state.phase is not Phase.DRAFT or not any(state.hands):
                fn = _deal_fn(state.options, state.count)
                values = pre + _shuffle_values(state if state.count > 2 else None, state.count)
                yield Comparison(
                    f"deal-{state.count}",
                    bool(fn(values)),
                    f"the deal to {state.count} under {state.options!r}",
                )
        post = _table_values(after)
        last = (after, post)
        kind = _step_kind(state, action, after)
        holds = _step_holds(state, action, after, post, pre)
        yield Comparison(
            kind,
            holds,
            ""
            if holds
            else f"{action!r} in round {state.round} ({state.count} players, {state.options!r}): "
            f"the encoding does not relate the engine's state before and after",
        )
        if kind not in ("game-over", "round-ends", "keep-ends-draft"):
            yield Comparison(
                "other-turn-refused",
                not _step_holds(state, action, after, _nudged(after, post), pre),
                f"{action!r}: the encoding also allows the turn one seat further on",
            )


CARD_STEPS = Binding(
    name="viggo.card-steps",
    statement=(
        "Every step of seeded games (two to four players, three option sets; with "
        "REGELVERK_BINDINGS=full also every pair of values of any two Viggo options; the "
        "two-player "
        "draft included) satisfies the card relation of its kind (deal, keep_step, play_step, "
        "pass_step) with the engine's own state before and after: the deal of each game, "
        "keeps, the keep that ends the draft, leads, replies, passes, a pass or reply that "
        "sets the trick aside, a round ended and re-dealt, and the game's end; and the same "
        "step with the turn one seat further on is refused."
    ),
    kinds=(
        "deal-2",
        "deal-3",
        "deal-4",
        "keep",
        "keep-ends-draft",
        "lead",
        "reply",
        "reply-closes",
        "pass",
        "pass-closes",
        "round-ends",
        "game-over",
        "other-turn-refused",
    ),
    compare=_compare_steps,
    claims=11043 if full() else 6208,
)


# ---------------------------------------------------------------------------------------------
# viggo.count-steps
# ---------------------------------------------------------------------------------------------


def _compare_counts() -> Iterator[Comparison]:
    for state, action, after, _ in _games():
        if state.phase is not Phase.PLAY:
            continue
        passing, playing, invariant = _count_fns(state.options, state.count)
        pre = _count_values(state)
        if state.trick:
            yield Comparison(
                "invariant",
                bool(invariant(pre)),
                f"the trick invariant fails in the engine's position {state!r}",
            )
        if after.round != state.round or after.phase is not Phase.PLAY:
            continue
        post = _count_values(after)
        closes = bool(state.trick) and not after.trick
        if isinstance(action, Pass):
            kind, ok = ("count-pass-closes" if closes else "count-pass"), passing(pre + post)
        else:
            assert isinstance(action, Play)
            kind = "count-play-closes" if closes else "count-play"
            ok = playing(pre + post + [len(action.cards)])
        yield Comparison(kind, bool(ok), f"{action!r} by counts, from {state!r}")


COUNT_STEPS = Binding(
    name="viggo.count-steps",
    statement=(
        "Every pass and play within a round of the seeded games satisfies the count relation "
        "(count_pass_step, count_play_step) with the engine's hand sizes, trick size, passes, "
        "turn, top seat and replies before and after, also when it sets the trick aside; and "
        "the trick invariant of viggo.trick-ends holds in every position with a trick open."
    ),
    kinds=("count-pass", "count-pass-closes", "count-play", "count-play-closes", "invariant"),
    compare=_compare_counts,
    claims=7748 if full() else 4444,
)


# ---------------------------------------------------------------------------------------------
# viggo.ending
# ---------------------------------------------------------------------------------------------


@cache
def _ending_fns(
    options: ViggoOptions, count: int
) -> tuple[Compiled, Compiled, list[Compiled], list[Compiled]]:
    winner = Int.var("winner")
    before = [Int.var(f"before{s}") for s in range(count)]
    left = [Int.var(f"left{s}") for s in range(count)]
    after = [Int.var(f"after{s}") for s in range(count)]
    inputs: list[Term] = [winner, *before, *left, *after]
    scored = Compiled(score_round(winner, before, left, after, NONE), inputs)
    lost = Compiled(game_lost(options, after, NONE), inputs)
    losing_terms = losers_term(options, winner, after)
    losing = [Compiled(t, inputs) for t in losing_terms]
    winning = [Compiled(t, inputs) for t in winners_term(options, after, losing_terms)]
    return scored, lost, losing, winning


def _ending_totals(limit: int, count: int, rng: random.Random) -> Iterator[tuple[int, ...]]:
    """Totals after a round: every mix of one under, at and one over the losing total (and
    far under it), and seeded mixes further round it."""
    near = (limit - 1, limit, limit + 1, max(0, limit - 13))
    yield from itertools.product(near, repeat=count)
    for _ in range(40):
        yield tuple(rng.randint(max(0, limit - 20), limit + 20) for _ in range(count))


def _compare_ending() -> Iterator[Comparison]:
    base = ViggoOptions()
    limit = base.loss_points
    for count in (2, 3, 4):
        for rule, simultaneous, direction, winner_reading in itertools.product(
            LossThresholdRule, SimultaneousLoss, Direction, ("loser-only", "lowest-total-wins")
        ):
            from regelverk.viggo.options import GameWinner

            options = replace(
                base,
                loss_threshold_rule=rule,
                simultaneous_loss=simultaneous,
                direction=direction,
                game_winner=GameWinner(winner_reading),
            )
            scored, lost, losing, winning = _ending_fns(options, count)
            rng = random.Random(f"viggo-ending/{count}/{options!r}")
            for totals in _ending_totals(limit, count, rng):
                winner = rng.randrange(count)
                left = [0 if s == winner else rng.randint(1, 13) for s in range(count)]
                before = [max(0, t - p) for t, p in zip(totals, left, strict=True)]
                hands = [tuple(CARD_OF[:n]) for n in left]
                points = rounds.round_points(hands, winner)
                after = rounds.add_points(before, points)
                values: list[int | bool] = [winner, *before, *left, *after]
                yield Comparison(
                    "score",
                    bool(scored(values)),
                    f"{count} players, {winner} goes out, totals {before} with cards {left}: "
                    f"the engine scores {points} to {after}, which the encoding does not",
                )
                engine_losers = rounds.losers(options, after, winner)
                over = bool(engine_losers)
                yield Comparison(
                    "game-over" if over else "game-on",
                    bool(lost(values)) == over,
                    f"{count} players, totals {after} ({rule.value}): the engine's game is "
                    f"{'over' if over else 'on'}, the encoding's is not",
                )
                enc_losers = tuple(s for s in range(count) if losing[s](values))
                yield Comparison(
                    "losers" if len(engine_losers) < 2 else "several-losers",
                    enc_losers == engine_losers,
                    f"{count} players, totals {after}, round won by {winner} "
                    f"({rule.value}, {simultaneous.value}, {direction.value}): engine losers "
                    f"{engine_losers}, encoding {enc_losers}",
                )
                engine_winners = rounds.game_winners(options, after, engine_losers) if over else ()
                enc_winners = tuple(s for s in range(count) if winning[s](values)) if over else ()
                yield Comparison(
                    "winners",
                    enc_winners == engine_winners,
                    f"{count} players, totals {after} ({winner_reading}): engine winners "
                    f"{engine_winners}, encoding {enc_winners}",
                )


ENDING = Binding(
    name="viggo.ending",
    statement=(
        "For two to four players, both readings of the losing total, all three readings of "
        "several reaching it, both directions and both readings of a game winner: at every mix "
        "of totals one under, at and one over the losing total the engine's options give (and "
        "seeded totals round it), with seeded round winners and cards left, the engine's "
        "round_points and add_points give totals the encoding's score_round allows, and its "
        "losers and game_winners name exactly the seats the encoding's game_lost, losers and "
        "game_winners name."
    ),
    kinds=("score", "game-over", "game-on", "losers", "several-losers", "winners"),
    compare=_compare_ending,
    claims=43776,
)


# ---------------------------------------------------------------------------------------------
# viggo.text-tables
# ---------------------------------------------------------------------------------------------

_TABLE_COUNTS = (2, 3, 4)
"""Every table size Viggo allows (VG-SETUP-TWO-TO-FOUR-PLAYERS)."""
_TABLE_ROUNDS = (1, 2, 3)
"""The first round, the second and a later one (the rules tell only the first apart)."""


def _table_option_sets() -> Iterator[ViggoOptions]:
    """Every combination of the options the encoding's tables read: the rank rows, the wrap,
    the three-player deal, the club-four rule, its scope and the first leader."""
    from itertools import product

    for grouped, wrap, deal_, club, scope, first in product(
        GroupedRanks, SequenceWrap, ThreePlayerDeal, (False, True), ClubFourScope, FirstLeader
    ):
        yield ViggoOptions(
            grouped_ranks=grouped,
            sequence_wrap=wrap,
            three_player_deal=deal_,
            club_four_starts=club,
            club_four_scope=scope,
            first_leader=first,
        )


def _table_universe() -> int:
    """How many cases :func:`_compare_tables` compares: the 52 card numbers, then per option
    set the rank classes and run starts, the hand sizes at every table size, and the club-four
    opening at every table size and round."""
    sets = len(GroupedRanks) * len(SequenceWrap) * len(ThreePlayerDeal) * 2
    sets *= len(ClubFourScope) * len(FirstLeader)
    per_set = 2 + len(_TABLE_COUNTS) + len(_TABLE_COUNTS) * len(_TABLE_ROUNDS)
    return 52 + sets * per_set


def _compare_tables() -> Iterator[Comparison]:
    from regelverk.viggo import combos
    from regelverk.viggo import rounds as engine_rounds
    from regelverk_proofs.viggo import text

    for card in CARD_OF:
        n = card_number(card)
        yield Comparison(
            "card-number",
            combos.card_index(card) == n and CARD_OF[n] == card,
            f"{card}: the encoding numbers it {n}, the engine {combos.card_index(card)}",
        )
    for options in _table_option_sets():
        yield Comparison(
            "rank-class",
            combos.rank_class(options) == text.rank_class(options),
            f"under {options!r}: engine {combos.rank_class(options)}, text "
            f"{text.rank_class(options)}",
        )
        yield Comparison(
            "run-starts",
            combos.run_starts(options) == text.run_starts(options),
            f"under {options!r}: engine {combos.run_starts(options)}, text "
            f"{text.run_starts(options)}",
        )
        for count in _TABLE_COUNTS:
            engine_sizes = engine_rounds.hand_sizes(options, count)
            yield Comparison(
                "hand-sizes",
                engine_sizes == text.hand_sizes(options, count),
                f"{count} players under {options!r}: engine {engine_sizes}, text "
                f"{text.hand_sizes(options, count)}",
            )
            for round_no in _TABLE_ROUNDS:
                engine_opens = engine_rounds.club_four_opens(options, count, round_no)
                yield Comparison(
                    "club-four-opens",
                    engine_opens == text.club_four_opens(options, count, round_no),
                    f"round {round_no}, {count} players, under {options!r}: the engine says "
                    f"the 4♣ {'opens' if engine_opens else 'does not open'}",
                )


TEXT_TABLES = Binding(
    name="viggo.text-tables",
    statement=(
        "The encoding's tables (regelverk_proofs.viggo.text: derived from the clause parameters "
        "of spec/viggo.toml and the text's rank table, never from the engine) equal the "
        "engine's own functions everywhere they are defined: the number of each of the 52 "
        "cards; and, for every combination of grouped_ranks, sequence_wrap, "
        "three_player_deal, club_four_starts, club_four_scope and first_leader (96 option "
        "sets), the rank classes, the run starts, the hand sizes at 2, 3 and 4 players, and "
        "whether the 4♣ opens in round 1, 2 and 3 at each table size."
    ),
    kinds=("card-number", "rank-class", "run-starts", "hand-sizes", "club-four-opens"),
    compare=_compare_tables,
    claims=_table_universe(),
)


# ---------------------------------------------------------------------------------------------
# viggo.seats
# ---------------------------------------------------------------------------------------------


def seat_option_sets() -> Iterator[ViggoOptions]:
    """Every combination of the options that decide who deals and who is first hand: the
    direction of play, the reading of VG-AMB-NEXT-DEALER, the most-cards house rule off and on,
    and the readings of VG-AMB-MOST-CARDS-TIE and VG-AMB-MOST-CARDS-LEAD (32 option sets)."""
    for direction, dealer, most, tie, lead in itertools.product(
        Direction, NextDealer, (False, True), MostCardsTie, MostCardsLead
    ):
        yield ViggoOptions(
            direction=direction,
            next_dealer=dealer,
            most_cards_deal=most,
            most_cards_tie=tie,
            most_cards_lead=lead,
        )


def _seat_universe() -> int:
    """How many cases :func:`_compare_seats` compares: per option set and table size, every
    first-round dealer; and for every dealer, round winner and mix of one or two cards left
    in each other hand, the next dealer and the next first hand."""
    sets = len(Direction) * len(NextDealer) * 2 * len(MostCardsTie) * len(MostCardsLead)
    return int(sets * sum(n + 2 * n * n * 2 ** (n - 1) for n in _TABLE_COUNTS))


def seat_options_text(options: ViggoOptions) -> str:
    """The options :func:`seat_option_sets` varies, in words."""
    most = (
        f"most cards deal ({options.most_cards_tie.value}, {options.most_cards_lead.value})"
        if options.most_cards_deal
        else "no most-cards rule"
    )
    return f"{options.direction.value}, {options.next_dealer.value}, {most}"


@cache
def _seat_fns(options: ViggoOptions, count: int) -> tuple[Compiled, Compiled, list[Compiled]]:
    """The encoding's first hand of the first round and of a later one, and seat by seat
    whether it may deal the next round, over (dealer, winner, cards left per seat)."""
    dealer, winner = Int.var("dealer"), Int.var("winner")
    held = [Int.var(f"held{s}") for s in range(count)]
    inputs: list[Term] = [dealer, winner, *held]
    first = Compiled(first_hand(options, count, 1, dealer, winner), inputs)
    later = Compiled(first_hand(options, count, 2, dealer, winner), inputs)
    may = [Compiled(t, inputs) for t in next_dealers(options, count, dealer, winner, held)]
    return first, later, may


def _compare_seats() -> Iterator[Comparison]:
    zeros = (0, 0, 0, 0)
    for options in seat_option_sets():
        for count in _TABLE_COUNTS:
            first, later, may = _seat_fns(options, count)
            names = NAMES[:count]
            for dealer in range(count):
                dealt, _ = rounds.start_round(
                    options,
                    names,
                    3,
                    round_no=1,
                    dealer=dealer,
                    winner=-1,
                    scores=zeros[:count],
                    history=(),
                )
                encoded = first([dealer, -1, *([0] * count)])
                yield Comparison(
                    "first-round",
                    dealt.dealer == dealer and dealt.first_hand == encoded,
                    f"{count} players under {seat_options_text(options)}, P{dealer + 1} deals "
                    "round 1: the "
                    f"engine's first hand is P{dealt.first_hand + 1}, the encoding's "
                    f"P{encoded + 1}",
                )
                for winner in range(count):
                    for left in itertools.product((1, 2), repeat=count - 1):
                        yield from _next_round(
                            options, dealt, winner=winner, left=left, later=later, may=may
                        )


def _next_round(
    options: ViggoOptions,
    dealt: ViggoState,
    *,
    winner: int,
    left: tuple[int, ...],
    later: Compiled,
    may: list[Compiled],
) -> Iterator[Comparison]:
    """Round 1 of ``dealt`` ends with ``winner`` out and ``left`` cards in the other hands (in
    seat order): the engine's ``finish_round`` names the next dealer and first hand."""
    count = dealt.count
    held = list(left)
    held.insert(winner, 0)
    cards = iter(CARD_OF)
    hands = tuple(tuple(next(cards) for _ in range(n)) for n in held)
    state = replace(dealt, hands=hands)
    fresh, _ = rounds.finish_round(state, winner)
    values: list[int | bool] = [dealt.dealer, winner, *held]
    allowed = [s for s in range(count) if may[s](values)]
    lots = options.most_cards_deal and options.most_cards_tie is MostCardsTie.LOTS_AMONG_TIED
    most = max(held)
    tied = sum(1 for n in held if n == most) > 1
    kind = (
        ("most-cards-tie" if tied else "most-cards-dealer")
        if options.most_cards_deal
        else "next-dealer"
    )
    yield Comparison(
        kind,
        fresh.round == 2 and fresh.dealer in allowed and (lots or len(allowed) == 1),
        f"{count} players under {seat_options_text(options)}, P{dealt.dealer + 1} dealt, "
        f"P{winner + 1} went out, "
        f"cards left {held}: the engine's next dealer is P{fresh.dealer + 1}, the encoding "
        f"allows {[f'P{s + 1}' for s in allowed]}",
    )
    encoded = later([fresh.dealer, winner, *held])
    yield Comparison(
        "first-hand",
        fresh.first_hand == encoded,
        f"{count} players under {seat_options_text(options)}, P{winner + 1} won round 1 and "
        f"P{fresh.dealer + 1} "
        f"deals round 2: the engine's first hand is P{fresh.first_hand + 1}, the encoding's "
        f"P{encoded + 1}",
    )


SEATS = Binding(
    name="viggo.seats",
    statement=(
        "For 2, 3 and 4 players and every combination of the direction of play, the reading of "
        "who deals next, the most-cards house rule off and on, and the readings of its tie and "
        "its lead (32 option sets): for every first-round dealer, the engine's start_round "
        "makes first hand the seat the encoding's first_hand names; and for every dealer, "
        "round winner and mix of one or two cards left in each other hand (ties for most "
        "cards included), the next round the engine's finish_round deals is dealt by a seat "
        "the encoding's next_dealers allows (the only one it allows, except under the lots "
        "reading of a tie), and its first hand is the one first_hand names from that dealer "
        "and the winner."
    ),
    kinds=("first-round", "next-dealer", "most-cards-dealer", "most-cards-tie", "first-hand"),
    compare=_compare_seats,
    claims=_seat_universe(),
)
