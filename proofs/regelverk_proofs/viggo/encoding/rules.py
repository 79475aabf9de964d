"""Z3 encodings of the Viggo engine: combinations, the "beats" relation, and every transition.

Three granularities, each mirroring the engine (:mod:`regelverk.viggo`):

* combinations: a combination as terms (kind, key, "top is a three", "holds a three", "holds
  the 3♣"), read either from 52 card Booleans exactly as ``classify`` reads a set of cards
  (VG-COMBO-*), or from an abstract choice of kind, rank position (or run start) and 3♣ flag;
  :func:`beats` is ``combos.beats`` as a term. :func:`beats_option_sets` lists the option sets
  that change it (:func:`describe_options` says one in words), and :func:`realize` lays
  abstract combinations out as cards.
* cards: a :class:`Table` holds, for every card and every place (each hand, the stock, out of
  play, the trick, set aside), a Boolean "the card is there", so that "every card in exactly
  one place" is a real property. :func:`deal`, :func:`keep_step`, :func:`play_step` and
  :func:`pass_step` relate a table before and after each transition the engine has.
* counts: a :class:`Counts` holds how many cards each hand and the trick hold, who passed, whose
  turn it is and the replies since the lead, for the termination theorems; what holds during a
  trick is :func:`trick_invariant`.

Options are plain Python values where a check is made per option set; the readings that steer
a trick (:class:`Readings`) and the eight options that change "beats" (:class:`BeatsOptions`)
can also be Z3 unknowns, so that one check covers all their combinations. ``weaken`` holds
clause ids whose assertions are dropped or loosened, as the theorems'
:class:`~regelverk_proofs.theorem.Weakening` entries say.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from regelverk.viggo.options import (
    ClubFourOpening,
    ClubThree,
    ClubThreeOthers,
    ClubThreeSameRank,
    Direction,
    DraftDiscards,
    EqualRankReply,
    ExampleTrickEnd,
    GroupedRanks,
    LeadAfterTie,
    MostCardsLead,
    MostCardsTie,
    NextDealer,
    PassIsFinal,
    PassWhenAble,
    SequenceWrap,
    ThreeBeatsThree,
    ThreeInCombination,
    ViggoOptions,
)
from regelverk.viggo.state import Phase, ViggoState
from regelverk_proofs.viggo.text import (
    CARD_OF,
    CARDS,
    CLUB_FOUR_INDEX,
    CLUB_THREE_INDEX,
    HAND_SIZE,
    POINTS_PER_CARD,
    THREE_POS,
    WINNER_POINTS,
    card_number,
    club_four_opens,
    hand_sizes,
    rank_class,
    run_starts,
)
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Model,
    all_of,
    any_of,
    false,
    implies,
    ite,
    ite_bool,
    sum_of,
    true,
)

__all__ = [
    "CARDS",
    "KINDS",
    "ComboTerm",
    "Counts",
    "Table",
    "abstract_combo",
    "beats",
    "beats_option_sets",
    "can_beat",
    "card_combo",
    "count_pass_step",
    "count_play_step",
    "deal",
    "describe_options",
    "first_hand",
    "game_winners",
    "keep_step",
    "legal_play",
    "losers",
    "next_dealers",
    "pass_step",
    "play_step",
    "realize",
    "trick_invariant",
]

# Cards are numbered by :func:`regelverk_proofs.viggo.text.card_number` (4♣ is 0, 3♠ is 51),
# the tables come from :mod:`regelverk_proofs.viggo.text`, never from the engine.
KINDS = ("single", "pair", "three of a kind", "four of a kind", "sequence")
"""Kind numbers 0-4: a set's size less one, and 4 for a run of five."""
SEQUENCE = 4
PHASES = {Phase.DRAFT: 0, Phase.PLAY: 1, Phase.OVER: 2}


def card_text(index: int) -> str:
    """A card number in the project's card notation (10♥, 3♣)."""
    return str(CARD_OF[index])


def cards_text(indices: Sequence[int]) -> str:
    """Card numbers as printed at the table, or a dash for none."""
    return " ".join(card_text(i) for i in indices) or "-"


def _lookup(at: Int, table: Sequence[int]) -> Int:
    """``table[at]`` as a term (``at`` within range)."""
    term = Int.const(table[-1])
    for i in range(len(table) - 2, -1, -1):
        term = ite(at.eq(i), table[i], term)
    return term


# ---------------------------------------------------------------------------------------------
# Combinations (VG-COMBO-*, VG-RANK-*, VG-SEQ-*)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ComboTerm:
    """What ``combos.classify`` derives from a set of cards, as terms."""

    valid: Bool
    kind: Int
    key: Int
    top_is_three: Bool
    has_three: Bool
    has_club_three: Bool


def card_combo(x: Sequence[Bool], options: ViggoOptions, weaken: frozenset[str]) -> ComboTerm:
    """The combination the cards ``x`` (52 Booleans) form, as ``classify`` reads it: one to four
    cards of one rank (VG-COMBO-SINGLE … FOUR-OF-A-KIND), or five cards on five consecutive
    positions of the rank order from an allowed start (VG-COMBO-SEQUENCE-OF-FIVE; the starts
    follow VG-AMB-SEQUENCE-WRAP); suits never count (VG-RANK-SUITS-IGNORED)."""
    classes = rank_class(options)
    starts = run_starts(options)
    size = sum_of(x)
    count = [sum_of(x[4 * q : 4 * q + 4]) for q in range(13)]
    set_at = [size.between(1, 4) & count[q].eq(size) for q in range(13)]
    run_at = {s: size.eq(5) & all_of(count[(s + i) % 13].eq(1) for i in range(5)) for s in starts}
    valid = any_of(set_at) | any_of(run_at.values())
    key = sum_of(
        [ite(set_at[q], classes[q], 0) for q in range(13)]
        + [ite(run, classes[(s + 4) % 13], 0) for s, run in run_at.items()]
    )
    top_three = set_at[THREE_POS]
    if 8 in run_at:
        top_three = top_three | run_at[8]
    return ComboTerm(
        valid=valid,
        kind=ite(size <= 4, size - 1, SEQUENCE),
        key=key,
        top_is_three=top_three,
        has_three=count[THREE_POS] >= 1,
        has_club_three=x[CLUB_THREE_INDEX],
    )


@dataclass(frozen=True, slots=True)
class BeatsOptions:
    """The nine options that change "beats", as Boolean terms, so that one check can cover
    every option set: the club-three rule (VG-AMB-CLUB-THREE-DEFAULT) and, under it, only the
    3♣ beating threes (VG-AMB-CLUB-THREE-OTHER-THREES); the same-rank house rule
    (VG-VAR-SAME-RANK-ONCE); grouped rank rows (VG-AMB-GROUPED-RANK-ROWS); wrapping runs
    (VG-AMB-SEQUENCE-WRAP); three-trumps (VG-AMB-THREE-IN-COMBINATION); three-on-three for
    singles only (VG-AMB-THREE-BEATS-THREE-REACH); equal replies (VG-AMB-EQUAL-RANK-REPLY);
    and, with both house rules on, the same-rank rule outranking the club-three rule
    (VG-AMB-CLUB-THREE-SAME-RANK)."""

    club: Bool
    only_club: Bool
    once: Bool
    grouped: Bool
    wrap: Bool
    trumps: Bool
    singles_only: Bool
    equal: Bool
    once_first: Bool

    @classmethod
    def of(cls, options: ViggoOptions) -> BeatsOptions:
        """The options as constants."""
        return cls(
            club=_const(options.club_three_on_top is ClubThree.CLUB_THREE_ON_TOP),
            only_club=_const(options.club_three_others is ClubThreeOthers.ONLY_CLUB_BEATS_THREES),
            once=_const(options.same_rank_once),
            grouped=_const(options.grouped_ranks is GroupedRanks.EQUAL_WITHIN_ROW),
            wrap=_const(options.sequence_wrap is SequenceWrap.WRAP),
            trumps=_const(options.three_in_combination is ThreeInCombination.THREE_TRUMPS),
            singles_only=_const(options.three_beats_three is ThreeBeatsThree.SINGLES_ONLY),
            equal=_const(options.equal_rank_reply is EqualRankReply.EQUAL_ALLOWED),
            once_first=_const(options.club_three_same_rank is ClubThreeSameRank.SAME_RANK_FORBIDS),
        )

    @classmethod
    def fresh(cls, tag: str = "") -> BeatsOptions:
        """Every option set at once (the plain-threes reading tied to its preset value where
        the club-three rule is off, see :meth:`tied`)."""
        return cls(*(Bool.var(f"{tag}{name}") for name in cls.__slots__))

    def tied(self) -> Bool:
        """Where the club-three rule is off its plain-threes reading keeps the preset, and
        unless both house rules are on the reading of VG-AMB-CLUB-THREE-SAME-RANK keeps it,
        so that every option set is counted once."""
        return implies(~self.club, self.only_club) & implies(
            ~(self.club & self.once), ~self.once_first
        )

    def read(self, model: Model) -> ViggoOptions:
        """The option set a model chose."""
        on = {name: model.bool(getattr(self, name)) for name in self.__slots__}
        return ViggoOptions(
            club_three_on_top=ClubThree.CLUB_THREE_ON_TOP if on["club"] else ClubThree.MAIN_RULE,
            club_three_others=(
                ClubThreeOthers.ONLY_CLUB_BEATS_THREES
                if on["only_club"]
                else ClubThreeOthers.OTHERS_STILL_BEAT
            ),
            same_rank_once=on["once"],
            grouped_ranks=GroupedRanks.EQUAL_WITHIN_ROW if on["grouped"] else GroupedRanks.ORDERED,
            sequence_wrap=SequenceWrap.WRAP if on["wrap"] else SequenceWrap.NO_WRAP,
            three_in_combination=(
                ThreeInCombination.THREE_TRUMPS
                if on["trumps"]
                else ThreeInCombination.RESTATES_RANK
            ),
            three_beats_three=(
                ThreeBeatsThree.SINGLES_ONLY if on["singles_only"] else ThreeBeatsThree.ALL_TYPES
            ),
            equal_rank_reply=(
                EqualRankReply.EQUAL_ALLOWED if on["equal"] else EqualRankReply.STRICTLY_HIGHER
            ),
            club_three_same_rank=(
                ClubThreeSameRank.SAME_RANK_FORBIDS
                if on["once_first"]
                else ClubThreeSameRank.CLUB_THREE_BEATS_THREES
            ),
        )


_ROWS = rank_class(ViggoOptions(grouped_ranks=GroupedRanks.EQUAL_WITHIN_ROW))


def abstract_combo(kind: Int, at: Int, club: Bool, options: BeatsOptions) -> tuple[ComboTerm, Bool]:
    """A combination chosen by kind (0-4), rank position (a run's start) and whether it holds
    the 3♣, and the condition that such a combination exists: a run starts where runs may
    (4 up to Q, or anywhere when runs wrap), the 3♣ sits only in a combination holding a
    three, and four threes always hold it. Its key is the rank class of its rank (a run's top
    card): the position, or its row under the grouped-rows reading."""
    run = kind.eq(SEQUENCE)
    top = ite(run, (at + 4).mod(13), at)
    has_three = ite_bool(run, at >= 8, at.eq(THREE_POS))
    exists = all_of(
        [
            kind.between(0, SEQUENCE),
            at.between(0, 12),
            implies(run & ~options.wrap, at <= 8),
            implies(club, has_three),
            implies(kind.eq(3) & at.eq(THREE_POS), club),
        ]
    )
    combo = ComboTerm(
        valid=true(),
        kind=kind,
        key=ite(options.grouped, _lookup(top, _ROWS), top),
        top_is_three=top.eq(THREE_POS),
        has_three=has_three,
        has_club_three=club,
    )
    return combo, exists


def can_beat(pre: Table, options: ViggoOptions) -> Bool:
    """Whether the player to act holds a combination that beats the one on top
    (``play._beating_plays`` is not empty): some abstract combination (kind, rank or run start,
    with or without the 3♣) exists, lies in his hand, and :func:`beats` the top. A set of
    threes with the 3♣ needs the 3♣ and as many other threes as it has cards besides; without
    it, that many threes of the other suits; a run through the three needs the 3♣ or another
    three, every other rank one card."""
    o = BeatsOptions.of(options)
    old = card_combo(pre.top, options, frozenset())
    held = [pre.in_hand(pre.turn, c) for c in range(CARDS)]
    count = [sum_of(held[4 * q : 4 * q + 4]) for q in range(13)]
    club = held[CLUB_THREE_INDEX]
    plain = sum_of(
        [held[c] for c in range(4 * THREE_POS, 4 * THREE_POS + 4) if c != CLUB_THREE_INDEX]
    )
    found = []
    for kind in range(SEQUENCE + 1):
        for at in range(13):
            for with_club in (False, True):
                if kind < SEQUENCE:
                    if at != THREE_POS and with_club:
                        continue
                    if at == THREE_POS:
                        holds = club & (plain >= kind) if with_club else plain >= kind + 1
                    else:
                        holds = count[at] >= kind + 1
                else:
                    ranks = [(at + i) % 13 for i in range(5)]
                    if THREE_POS not in ranks and with_club:
                        continue
                    parts = [count[r] >= 1 for r in ranks if r != THREE_POS]
                    if THREE_POS in ranks:
                        parts.append(club if with_club else plain >= 1)
                    holds = all_of(parts)
                combo, exists = abstract_combo(Int.const(kind), Int.const(at), _const(with_club), o)
                found.append(exists & holds & beats(combo, old, o).allowed)
    return any_of(found)


def uses(kind: Int, at: Int, rank: int) -> Int:
    """How many cards of rank position ``rank`` an abstract combination holds."""
    covered = any_of((at + i).mod(13).eq(rank) for i in range(5))
    return ite(kind.eq(SEQUENCE), ite(covered, 1, 0), ite(at.eq(rank), kind + 1, 0))


@dataclass(frozen=True, slots=True)
class Reply:
    """A reply judged by :func:`beats`: allowed, and whether only as an equal (not strict)."""

    allowed: Bool
    equal_only: Bool


def beats(
    new: ComboTerm,
    old: ComboTerm,
    options: ViggoOptions | BeatsOptions,
    weaken: frozenset[str] = frozenset(),
) -> Reply:
    """``combos.beats(new, old, options)`` as terms: the same kind (VG-PLAY-NO-TYPE-SWITCH); under
    three-trumps a three beats no three (VG-PLAY-THREE-COMBINATION-BEATS); else a higher key
    (VG-PLAY-BEAT-SAME-TYPE-HIGHER); an equal key goes to the club-three rule
    (``_club_three_reply``: the 3♣ beats threes, nothing beats the 3♣, and only it beats
    threes under the default reading), the same-rank house rule (VG-VAR-SAME-RANK-ONCE), three
    on three (VG-RANK-THREE-BEATS-THREE) and the equal-rank reading, in that order; except
    that under the same-rank-forbids reading of VG-AMB-CLUB-THREE-SAME-RANK the same-rank rule
    comes before the club-three rule."""
    o = options if isinstance(options, BeatsOptions) else BeatsOptions.of(options)
    same = new.kind.eq(old.kind)
    if "VG-PLAY-NO-TYPE-SWITCH" in weaken:
        same = true()
    higher = new.key > old.key
    if "VG-PLAY-BEAT-SAME-TYPE-HIGHER" in weaken:
        higher = new.key >= old.key
    equal = new.key.eq(old.key)
    club_beats = o.club & new.has_club_three & old.has_three
    blocked = o.club & (old.has_club_three | (o.only_club & new.top_is_three & old.top_is_three))
    decides = club_beats | blocked
    threes = new.top_is_three & old.top_is_three & (~o.singles_only | new.kind.eq(0))
    if "VG-RANK-THREE-BEATS-THREE" in weaken:
        threes = false()
    once = o.once if "VG-VAR-SAME-RANK-ONCE" not in weaken else false()
    first = once & o.once_first  # the same-rank rule before the club-three rule
    loose = ~once & (threes | o.equal)
    on_equal = ~first & ite_bool(decides, club_beats, loose)
    by_rank = higher | (equal & on_equal)
    equal_only = same & equal & ~decides & loose
    trump = o.trumps & ~new.has_three.eq(old.has_three)
    wins = new.has_three
    if "VG-PLAY-THREE-COMBINATION-BEATS" in weaken:
        wins = new.has_three | higher  # loosened: no three may still beat a three if higher
    allowed = same & ite_bool(trump, wins, by_rank)
    return Reply(allowed=allowed, equal_only=equal_only & ~trump)


# ---------------------------------------------------------------------------------------------
# The option sets and abstract combinations of the "beats" theorems
# ---------------------------------------------------------------------------------------------


def beats_option_sets() -> tuple[ViggoOptions, ...]:
    """Every option set that can change "beats" (the plain-threes reading only where the
    club-three rule is on, the reading of VG-AMB-CLUB-THREE-SAME-RANK only where both house
    rules are): 256 of them, the preset first."""
    found = []
    for first, club, others, once, grouped, wrap, trumps, reach, equal in itertools.product(
        ClubThreeSameRank,
        ClubThree,
        ClubThreeOthers,
        (False, True),
        GroupedRanks,
        SequenceWrap,
        ThreeInCombination,
        ThreeBeatsThree,
        EqualRankReply,
    ):
        if club is ClubThree.MAIN_RULE and others is not ClubThreeOthers.ONLY_CLUB_BEATS_THREES:
            continue
        both = club is ClubThree.CLUB_THREE_ON_TOP and once
        if first is ClubThreeSameRank.SAME_RANK_FORBIDS and not both:
            continue
        found.append(
            ViggoOptions(
                club_three_on_top=club,
                club_three_others=others,
                same_rank_once=once,
                grouped_ranks=grouped,
                sequence_wrap=wrap,
                three_in_combination=trumps,
                three_beats_three=reach,
                equal_rank_reply=equal,
                club_three_same_rank=first,
            )
        )
    return tuple(found)


def describe_options(options: ViggoOptions) -> str:
    """The options that touch "beats", in words (the preset's values left out)."""
    preset = ViggoOptions()
    parts = []
    for name in (
        "club_three_on_top",
        "club_three_others",
        "same_rank_once",
        "grouped_ranks",
        "sequence_wrap",
        "three_in_combination",
        "three_beats_three",
        "equal_rank_reply",
        "club_three_same_rank",
    ):
        value = getattr(options, name)
        if value != getattr(preset, name):
            shown = value.value if hasattr(value, "value") else value
            parts.append(f"{name}={shown}")
    return ", ".join(parts) or "the preset"


def realize(combos: Sequence[tuple[int, int, bool]]) -> list[list[int]]:
    """Concrete, pairwise disjoint cards (as card numbers) for abstract combinations: the 3♣
    where a combination holds it, other suits elsewhere."""
    used: set[int] = set()
    found: list[list[int]] = [[] for _ in combos]
    order = sorted(range(len(combos)), key=lambda i: not combos[i][2])
    for i in order:
        kind, at, club = combos[i]
        ranks = [(at + j) % 13 for j in range(5)] if kind == SEQUENCE else [at] * (kind + 1)
        for rank in ranks:
            suits = [1, 2, 3, 0]
            if rank == THREE_POS:
                suits = [0, 1, 2, 3] if club else [1, 2, 3]
            card = next((4 * rank + s for s in suits if 4 * rank + s not in used), 4 * rank)
            used.add(card)
            found[i].append(card)
    return [sorted(cards) for cards in found]


# ---------------------------------------------------------------------------------------------
# The table, card by card
# ---------------------------------------------------------------------------------------------


@cache
def _const(value: bool) -> Bool:
    """A shared constant (building a Z3 constant is not free)."""
    return Bool.const(value)


def _bools(tag: str, count: int = CARDS) -> tuple[Bool, ...]:
    return tuple(Bool.var(f"{tag}{i}") for i in range(count))


def _consts(cards: Sequence[object], count: int = CARDS) -> tuple[Bool, ...]:
    held = {card_number(c) for c in cards}  # type: ignore[arg-type]
    return tuple(_const(i in held) for i in range(count))


@dataclass(frozen=True, slots=True)
class Table:
    """A Viggo table card by card: for each card and place a Boolean, the stock's order, and
    the trick's bookkeeping (turn, passes, the seat on top, who laid highest, replies)."""

    count: int
    hands: tuple[tuple[Bool, ...], ...]
    stock: tuple[Bool, ...]
    order: tuple[Int, ...]
    away: tuple[Bool, ...]
    trick: tuple[Bool, ...]
    top: tuple[Bool, ...]
    aside: tuple[Bool, ...]
    turn: Int
    passed: tuple[Bool, ...]
    top_seat: Int
    highest: Int
    replies: Int
    scores: tuple[Int, ...]
    phase: Int

    @classmethod
    def fresh(cls, tag: str, count: int) -> Table:
        """A table of unknowns."""
        return cls(
            count=count,
            hands=tuple(_bools(f"{tag}h{s}_") for s in range(count)),
            stock=_bools(f"{tag}stock"),
            order=tuple(Int.var(f"{tag}order{i}") for i in range(CARDS)),
            away=_bools(f"{tag}away"),
            trick=_bools(f"{tag}trick"),
            top=_bools(f"{tag}top"),
            aside=_bools(f"{tag}aside"),
            turn=Int.var(f"{tag}turn"),
            passed=_bools(f"{tag}passed", count),
            top_seat=Int.var(f"{tag}topseat"),
            highest=Int.var(f"{tag}highest"),
            replies=Int.var(f"{tag}replies"),
            scores=tuple(Int.var(f"{tag}score{s}") for s in range(count)),
            phase=Int.var(f"{tag}phase"),
        )

    @classmethod
    def of_state(cls, state: ViggoState) -> Table:
        """The engine's state as constants (its stock order, its trick's last combination)."""
        where = {card_number(c): i for i, c in enumerate(state.stock)}
        return cls(
            count=state.count,
            hands=tuple(_consts(h) for h in state.hands),
            stock=_consts(state.stock),
            order=tuple(Int.const(where.get(i, -1)) for i in range(CARDS)),
            away=_consts(state.put_away),
            trick=_consts([c for laid in state.trick for c in laid.cards]),
            top=_consts(state.trick[-1].cards if state.trick else ()),
            aside=_consts(state.set_aside),
            turn=Int.const(state.turn),
            passed=tuple(_const(s in state.passed) for s in range(state.count)),
            top_seat=Int.const(state.trick[-1].seat if state.trick else -1),
            highest=Int.const(state.highest),
            replies=Int.const(state.replies),
            scores=tuple(Int.const(p) for p in state.scores),
            phase=Int.const(PHASES[state.phase]),
        )

    def places(self, card: int) -> tuple[tuple[str, Bool], ...]:
        """Where card ``card`` may be: each hand, the stock, out of play, the trick, set aside."""
        return (
            *((f"P{s + 1}'s hand", h[card]) for s, h in enumerate(self.hands)),
            ("the stock", self.stock[card]),
            ("out of play", self.away[card]),
            ("the trick", self.trick[card]),
            ("set aside", self.aside[card]),
        )

    def where(self, model: Model, card: int) -> str:
        """The places a model puts ``card`` in, in words."""
        found = [name for name, b in self.places(card) if model.bool(b)]
        return " and ".join(found) if found else "nowhere"

    def in_hand(self, seat: Int, card: int) -> Bool:
        """Card ``card`` is in the hand of seat ``seat``."""
        return any_of(seat.eq(s) & h[card] for s, h in enumerate(self.hands))

    def hand_size(self, seat: int) -> Int:
        """How many cards seat ``seat`` holds."""
        return sum_of(self.hands[seat])


def _step(options: ViggoOptions) -> int:
    return 1 if options.direction is Direction.CLOCKWISE else -1


def after(options: ViggoOptions, count: int, seat: Int) -> Int:
    """The next seat round the table (VG-TURN-ROUND-THE-TABLE; VG-AMB-DIRECTION)."""
    return (seat + _step(options)).mod(count)


def next_to_act(options: ViggoOptions, count: int, seat: Int, passed: Sequence[Bool]) -> Int:
    """``play._next_to_act``: the next seat round the table that has not passed; -1 where every
    seat has (the engine would search for ever there)."""
    step = _step(options)
    result = Int.const(-1)
    for s in range(count):
        chain = Int.const(-1)
        for i in range(count - 1, 0, -1):
            seat_i = (s + i * step) % count
            chain = ite(passed[seat_i], chain, seat_i)
        result = ite(seat.eq(s), chain, result)
    return result


@dataclass(frozen=True, slots=True)
class Readings:
    """The readings that steer a trick, as terms, so that one check can cover all of them:
    a pass is final (VG-AMB-PASS-FINAL), the trick ends after one lap
    (VG-AMB-EXAMPLE-TRICK-END), an equal reply leaves the first to reach the rank highest
    (VG-AMB-LEAD-AFTER-HIGHEST-TIE)."""

    final: Bool
    one_lap: Bool
    first_to_play: Bool

    @classmethod
    def of(cls, options: ViggoOptions) -> Readings:
        """The readings ``options`` choose, as constants."""
        return cls(
            final=_const(options.pass_is_final is PassIsFinal.FINAL),
            one_lap=_const(options.example_trick_end is ExampleTrickEnd.ONE_LAP),
            first_to_play=_const(options.lead_after_tie is LeadAfterTie.FIRST_TO_PLAY),
        )

    @classmethod
    def free(cls, tag: str) -> Readings:
        """Every combination of the readings at once."""
        return cls(
            final=Bool.var(f"{tag}final"),
            one_lap=Bool.var(f"{tag}onelap"),
            first_to_play=Bool.var(f"{tag}firsttoplay"),
        )


def trick_over(
    readings: Readings, count: int, top_seat: Int, passed: Sequence[Bool], replies: Int
) -> Bool:
    """``play.trick_over``: all but the top seat have passed (VG-PLAY-TRICK-SET-ASIDE), or under
    the one-lap reading of VG-AMB-EXAMPLE-TRICK-END every other player has had a turn."""
    return ite_bool(
        readings.one_lap,
        replies >= count - 1,
        all_of(top_seat.eq(s) | passed[s] for s in range(count)),
    )


def _kept_passes(readings: Readings, passed: Sequence[Bool]) -> list[Bool]:
    """After a play the passes stand only when a pass is final (VG-AMB-PASS-FINAL)."""
    return [readings.final & p for p in passed]


def _same(a: Sequence[Bool], b: Sequence[Bool]) -> Bool:
    return all_of(x.eq(y) for x, y in zip(a, b, strict=True))


def _empty(a: Sequence[Bool]) -> Bool:
    return all_of(~x for x in a)


def legal_play(
    pre: Table,
    laid: Sequence[Bool],
    options: ViggoOptions,
    round_no: int,
    weaken: frozenset[str] = frozenset(),
    *,
    judge: bool = True,
) -> tuple[Bool, Reply]:
    """Whether the player to act may lay the cards ``laid`` (``play._check_play``): they are in
    his hand (VG-PLAY-FIRST-HAND-LEADS-FREE), form a combination (VG-COMBO-*), and, on a reply,
    beat the combination on top (:func:`beats`); a club-four opening must hold the 4♣ under
    the must-include reading. Returns the condition and the reply's verdict. ``judge=False``
    keeps only "from his hand, during play" and leaves the verdict open: a looser relation,
    for theorems about where cards go, which no combination rule touches."""
    from_hand = all_of(implies(laid[c], pre.in_hand(pre.turn, c)) for c in range(CARDS))
    if "VG-PLAY-FIRST-HAND-LEADS-FREE" in weaken:
        from_hand = true()
    if not judge:
        loose = Reply(allowed=Bool.var("verdict"), equal_only=Bool.var("equal-only"))
        return pre.phase.eq(1) & from_hand & any_of(laid), loose
    new = card_combo(laid, options, weaken)
    old = card_combo(pre.top, options, weaken)
    reply = beats(new, old, options, weaken)
    leading = _empty(pre.trick)
    opening = true()
    if options.club_four_opening is ClubFourOpening.MUST_INCLUDE and club_four_opens(
        options, pre.count, round_no
    ):
        must = leading & _empty(pre.aside) & pre.in_hand(pre.turn, CLUB_FOUR_INDEX)
        opening = implies(must, laid[CLUB_FOUR_INDEX])
    legal = (
        pre.phase.eq(1)
        & from_hand
        & new.valid
        & ite_bool(leading, opening, old.valid & reply.allowed)
    )
    return legal, reply


def score_round(
    winner: Int,
    scores: Sequence[Int],
    left: Sequence[Int],
    after_round: Sequence[Int],
    weaken: frozenset[str],
) -> Bool:
    """``rounds.finish_round``'s points: the winner none (VG-SCORE-WINNER-ZERO), every other
    player one per card left (VG-SCORE-POINT-PER-CARD), added to his total
    (VG-SCORE-CUMULATIVE)."""
    terms = []
    for s, (total, cards) in enumerate(zip(scores, left, strict=True)):
        held = ite(cards > 0, cards - 1, 0) if "VG-SCORE-POINT-PER-CARD" in weaken else cards
        points = ite(winner.eq(s), WINNER_POINTS, POINTS_PER_CARD * held)
        new = points if "VG-SCORE-CUMULATIVE" in weaken else total + points
        terms.append(after_round[s].eq(new))
    return all_of(terms)


def game_lost(options: ViggoOptions, scores: Sequence[Int], weaken: frozenset[str]) -> Bool:
    """``rounds.losers`` is not empty: someone reached the losing total (VG-LOSS-FIRST-TO-53),
    53 or more, or exactly 53 (VG-AMB-LOSS-THRESHOLD)."""
    from regelverk.viggo.options import LossThresholdRule

    limit = options.loss_points
    if options.loss_threshold_rule is LossThresholdRule.EXACTLY:
        if "VG-LOSS-FIRST-TO-53" in weaken:
            return any_of(t >= limit for t in scores)  # loosened: passing 53 also loses
        return any_of(t.eq(limit) for t in scores)
    if "VG-LOSS-FIRST-TO-53" in weaken:
        return any_of(t > limit for t in scores)
    return any_of(t >= limit for t in scores)


def losers(options: ViggoOptions, winner: Int, totals: Sequence[Int]) -> list[Bool]:
    """``rounds.losers`` as terms, seat by seat: who has reached the losing total (VG-LOSS-
    FIRST-TO-53 under VG-AMB-LOSS-THRESHOLD), and of several the highest total, all of them, or
    the first after the round winner in the order of play (VG-AMB-SIMULTANEOUS-53)."""
    from regelverk.viggo.options import LossThresholdRule, SimultaneousLoss

    limit = options.loss_points
    n = len(totals)
    exact = options.loss_threshold_rule is LossThresholdRule.EXACTLY
    reached = [t.eq(limit) if exact else t >= limit for t in totals]
    rule = options.simultaneous_loss
    if rule is SimultaneousLoss.ALL_OVER_LOSE:
        return reached
    if rule is SimultaneousLoss.FIRST_IN_TURN_ORDER:
        step = _step(options)
        found = []
        for s in range(n):
            firsts = []
            for w in range(n):
                ahead = [(w + i * step) % n for i in range(1, n + 1)]
                before = ahead[: ahead.index(s)]
                firsts.append(winner.eq(w) & all_of(~reached[b] for b in before))
            found.append(reached[s] & any_of(firsts))
        return found
    return [
        reached[s] & all_of(implies(reached[o], totals[o] <= totals[s]) for o in range(n))
        for s in range(n)
    ]


def game_winners(options: ViggoOptions, totals: Sequence[Int], lost: Sequence[Bool]) -> list[Bool]:
    """``rounds.game_winners`` as terms: nobody (VG-WIN-GAME-LOSER-ONLY), or under the
    lowest-total reading of VG-AMB-GAME-WINNER every seat that did not lose (``lost``, seat by
    seat) with the lowest total among those that did not lose."""
    from regelverk.viggo.options import GameWinner

    if options.game_winner is GameWinner.LOSER_ONLY:
        return [false() for _ in totals]
    n = len(totals)
    return [
        ~lost[s] & all_of(implies(~lost[o], totals[s] <= totals[o]) for o in range(n))
        for s in range(n)
    ]


def first_hand(
    options: ViggoOptions,
    count: int,
    round_no: int,
    dealer: Int,
    winner: Int,
    *,
    weaken: frozenset[str] = frozenset(),
) -> Int:
    """First hand of round ``round_no``, who is dealt to first and, unless a club-four rule
    moves the opening, leads: in the first round the seat after the dealer
    (VG-SETUP-FIRST-DEALER); later the last round's winner (VG-TURN-WINNER-LEADS-NEXT-ROUND),
    except that under the most-cards house rule (VG-VAR-MOST-CARDS-DEAL) with the
    replaces-winner-lead reading of VG-AMB-MOST-CARDS-LEAD the seat after the new dealer
    (VG-VAR-MOST-CARDS-REPLACES-WINNER-LEAD). Weakening VG-SETUP-FIRST-DEALER makes the first
    round's dealer first hand himself, weakening VG-TURN-WINNER-LEADS-NEXT-ROUND a later
    round's dealer in place of the winner."""
    if round_no == 1:
        return dealer if "VG-SETUP-FIRST-DEALER" in weaken else after(options, count, dealer)
    if options.most_cards_deal and options.most_cards_lead is MostCardsLead.REPLACES_WINNER_LEAD:
        return after(options, count, dealer)
    return dealer if "VG-TURN-WINNER-LEADS-NEXT-ROUND" in weaken else winner


def next_dealers(
    options: ViggoOptions,
    count: int,
    dealer: Int,
    winner: Int,
    held: Sequence[Int],
    *,
    weaken: frozenset[str] = frozenset(),
) -> list[Bool]:
    """Seat by seat, whether that seat may deal the next round, given this round's ``dealer``,
    its ``winner`` and the cards each seat has left (``held``): the seat before the winner, so
    that the winner is first hand (or the seat after this round's dealer: VG-AMB-NEXT-DEALER);
    under the most-cards house rule the seat with most cards left (VG-VAR-MOST-CARDS-DEAL), a
    tie going to the first tied seat after the winner in turn order
    (VG-VAR-MOST-CARDS-TIE-BREAK), or to any of the tied, by lots (VG-AMB-MOST-CARDS-TIE).
    Weakening VG-VAR-MOST-CARDS-DEAL leaves the deal where the main rule puts it."""
    step = _step(options)
    if options.most_cards_deal and "VG-VAR-MOST-CARDS-DEAL" not in weaken:
        most = [all_of(held[s] >= held[o] for o in range(count)) for s in range(count)]
        if options.most_cards_tie is MostCardsTie.LOTS_AMONG_TIED:
            return most
        found = []
        for s in range(count):
            firsts = []
            for w in range(count):
                ahead = [(w + i * step) % count for i in range(1, count + 1)]
                before = ahead[: ahead.index(s)]
                firsts.append(winner.eq(w) & all_of(~most[b] for b in before))
            found.append(most[s] & any_of(firsts))
        return found
    if options.next_dealer is NextDealer.DEALER_ROTATES:
        return [after(options, count, dealer).eq(s) for s in range(count)]
    return [(winner - step).mod(count).eq(s) for s in range(count)]


@dataclass(frozen=True, slots=True)
class Shuffle:
    """What a shuffle decides for a deal to ``count`` players, card by card: whether the card
    is among those dealt (its deck place below the number dealt) and its *slot*, the place
    mod ``count`` (slot ``r`` goes to the ``r``-th seat from first hand); and first hand. A
    permutation of the deck exists for such a choice exactly when each slot holds as many
    dealt cards as its seat receives, which :func:`deal` asserts instead of the permutation
    itself (52 distinct integers are slow for Z3)."""

    dealt: tuple[Bool, ...]
    slot: tuple[tuple[Bool, ...], ...]
    first: Int

    @classmethod
    def fresh(cls, tag: str, count: int) -> Shuffle:
        """Unknowns."""
        return cls(
            dealt=tuple(Bool.var(f"{tag}dealt{c}") for c in range(CARDS)),
            slot=tuple(
                tuple(Bool.var(f"{tag}slot{c}_{r}") for r in range(count)) for c in range(CARDS)
            ),
            first=Int.var(f"{tag}first"),
        )

    @classmethod
    def witness(cls, state: ViggoState) -> Shuffle:
        """The slots that deal ``state``'s fresh hands (to check a deal the engine made)."""
        n = state.count
        step = 1 if state.options.direction is Direction.CLOCKWISE else -1
        seat_of = {card_number(c): s for s, hand in enumerate(state.hands) for c in hand}
        dealt, slot = [], []
        for c in range(CARDS):
            seat = seat_of.get(c, -1)
            nth = ((seat - state.first_hand) * step) % n if seat >= 0 else -1
            dealt.append(_const(seat >= 0))
            slot.append(tuple(_const(r == nth) for r in range(n)))
        return cls(tuple(dealt), tuple(slot), Int.const(state.first_hand))


def deal(
    post: Table,
    options: ViggoOptions,
    shuffle: Shuffle,
    weaken: frozenset[str] = frozenset(),
    *,
    sizes: bool = True,
) -> Bool:
    """``rounds.start_round``'s cards. With two players the whole deck is the stock, in shuffled
    order (positions 0-51; that they differ is not encoded) and nothing is dealt
    (VG-DRAFT-NO-DEAL-TWO-PLAYERS). With three or four, the card in slot ``r`` goes to the
    ``r``-th seat from first hand round the table (VG-DEAL-ROUND-THE-TABLE), each slot holding
    as many cards as VG-DEAL-THIRTEEN-EACH (or the three-player reading,
    VG-AMB-THREE-PLAYER-DEAL) gives that seat, and the cards not dealt stay out of play.
    ``sizes=False`` leaves the slot counts out: more deals, each card still placed as the
    engine places it (the counts make a proof about single cards slow and add nothing)."""
    n = post.count
    parts = [shuffle.first.between(0, n - 1), _empty(post.trick), _empty(post.top)]
    parts += [_empty(post.aside)]
    if n == 2:
        parts += [_empty(h) for h in post.hands] + [_empty(post.away)]
        parts += [post.stock[c] & post.order[c].between(0, CARDS - 1) for c in range(CARDS)]
        return all_of(parts)
    step = _step(options)
    parts.append(_empty(post.stock))
    seat_of_slot = [
        _lookup(shuffle.first, [(f + step * r) % n for f in range(n)]) for r in range(n)
    ]
    for r, size in enumerate(hand_sizes(options, n) if sizes else ()):
        parts.append(
            sum_of([d & sl[r] for d, sl in zip(shuffle.dealt, shuffle.slot, strict=True)]).eq(size)
        )
    for c in range(CARDS):
        slot = shuffle.slot[c]
        parts.append(all_of(~(slot[a] & slot[b]) for a in range(n) for b in range(a + 1, n)))
        parts.append(implies(shuffle.dealt[c], any_of(slot)))
        for s in range(n):
            to_seat = any_of(slot[r] & seat_of_slot[r].eq(s) for r in range(n))
            parts.append(post.hands[s][c].eq(shuffle.dealt[c] & to_seat))
        kept_out = ~shuffle.dealt[c]
        if "VG-DEAL-THIRTEEN-EACH" in weaken:
            kept_out = false()  # loosened: the cards left after the deal are not put anywhere
        parts.append(post.away[c].eq(kept_out))
    return all_of(parts)


def keep_step(
    pre: Table, kept: Sequence[Bool], post: Table, options: ViggoOptions, weaken: frozenset[str]
) -> tuple[Bool, Bool]:
    """The draft (``play._apply_keep``): (legal, relation). The drafter keeps one of the two top
    cards of the stock (VG-DRAFT-TAKE-TWO-SEE-ONE); the other goes out of play
    (VG-DRAFT-PUT-AWAY-OUT-OF-PLAY) or under the stock (VG-AMB-DRAFT-PUT-AWAY); the turn
    passes to the other player until both hold thirteen (VG-DRAFT-ALTERNATE-UNTIL-THIRTEEN)."""
    drawn = [pre.stock[c] & (pre.order[c] < 2) for c in range(CARDS)]
    one = sum_of(kept).eq(1)
    among = all_of(implies(kept[c], drawn[c]) for c in range(CARDS))
    if "VG-DRAFT-TAKE-TWO-SEE-ONE" in weaken:
        among = all_of(implies(kept[c], pre.stock[c]) for c in range(CARDS))
    legal = pre.phase.eq(0) & one & among
    other = [drawn[c] & ~kept[c] for c in range(CARDS)]
    size = sum_of(pre.stock)
    under = options.draft_discards is DraftDiscards.UNDER_STOCK
    parts = []
    for c in range(CARDS):
        for s in range(2):
            grown = pre.hands[s][c] | (pre.turn.eq(s) & kept[c])
            parts.append(post.hands[s][c].eq(grown))
        left = pre.stock[c] & ~drawn[c] & ~kept[c]
        if "VG-DRAFT-TAKE-TWO-SEE-ONE" in weaken:
            left = pre.stock[c] & ~drawn[c]
        away = pre.away[c]
        if under:
            left = left | other[c]
            order = ite(other[c], size - 2, pre.order[c] - 2)
            parts.append(implies(post.stock[c], post.order[c].eq(order)))
        else:
            parts.append(implies(post.stock[c], post.order[c].eq(pre.order[c] - 2)))
            if "VG-DRAFT-PUT-AWAY-OUT-OF-PLAY" not in weaken:
                away = away | other[c]
        parts.append(post.stock[c].eq(left))
        parts.append(post.away[c].eq(away))
        for name in ("trick", "top", "aside"):
            parts.append(getattr(post, name)[c].eq(getattr(pre, name)[c]))
    done = all_of(sum_of(post.hands[s]).eq(HAND_SIZE) for s in range(2))
    parts.append(ite_bool(done, post.phase.eq(1), post.phase.eq(0) & post.turn.eq(1 - pre.turn)))
    parts += [a.eq(b) for a, b in zip(post.scores, pre.scores, strict=True)]
    return legal, all_of(parts)


def _trick_fields(
    post: Table, *, turn: Int, passed: Sequence[Bool], top_seat: Int, highest: Int, replies: Int
) -> Bool:
    return all_of(
        [
            post.turn.eq(turn),
            _same(post.passed, passed),
            post.top_seat.eq(top_seat),
            post.highest.eq(highest),
            post.replies.eq(replies),
        ]
    )


def _closed(
    pre: Table, post: Table, options: ViggoOptions, highest: Int, weaken: frozenset[str]
) -> Bool:
    """``play._close_trick``: the trick's cards are set aside (VG-PLAY-TRICK-SET-ASIDE) and the
    seat after the one who laid highest leads (VG-PLAY-NEXT-LEAD-AFTER-HIGHEST)."""
    n = pre.count
    aside = [pre.aside[c] | post_trick for c, post_trick in enumerate(pre.trick)]
    if "VG-PLAY-TRICK-SET-ASIDE" in weaken:
        aside = list(pre.aside)  # loosened: the trick is cleared but its cards go nowhere
    return all_of(
        [
            _same(post.aside, aside),
            _empty(post.trick),
            _empty(post.top),
            _trick_fields(
                post,
                turn=after(options, n, highest),
                passed=[false()] * n,
                top_seat=Int.const(-1),
                highest=Int.const(-1),
                replies=Int.const(0),
            ),
        ]
    )


def pass_step(
    pre: Table,
    post: Table,
    options: ViggoOptions,
    readings: Readings,
    weaken: frozenset[str],
    *,
    loose: bool = False,
) -> tuple[Bool, Bool]:
    """A pass (``play._apply_pass``): (legal, relation). Allowed only on a reply
    (VG-PLAY-REPLY-OR-PASS), and under the must-beat reading of VG-AMB-PASS-WHEN-ABLE only by a
    player who cannot beat (:func:`can_beat`); no card moves; the passer is marked, and the
    trick is closed when :func:`trick_over` says so."""
    n = pre.count
    legal = pre.phase.eq(1) & any_of(pre.trick)
    if options.pass_when_able is PassWhenAble.MUST_BEAT:
        legal = legal & ~can_beat(pre, options)
    passed = [p | pre.turn.eq(s) for s, p in enumerate(pre.passed)]
    if "VG-PLAY-REPLY-OR-PASS" in weaken:
        passed = list(pre.passed)  # loosened: a pass is not recorded against the passer
    replies = pre.replies + 1
    over = trick_over(readings, n, pre.top_seat, passed, replies)
    if loose:
        over = Bool.var("trick-closes")
    cards = all_of(
        [_same(a, b) for a, b in zip(post.hands, pre.hands, strict=True)]
        + [_same(post.stock, pre.stock), _same(post.away, pre.away)]
        + [a.eq(b) for a, b in zip(post.scores, pre.scores, strict=True)]
        + [post.phase.eq(1)]
    )
    going_on = all_of(
        [
            _same(post.trick, pre.trick),
            _same(post.top, pre.top),
            _same(post.aside, pre.aside),
            true()
            if loose
            else _trick_fields(
                post,
                turn=next_to_act(options, n, pre.turn, passed),
                passed=passed,
                top_seat=pre.top_seat,
                highest=pre.highest,
                replies=replies,
            ),
        ]
    )
    return legal, cards & ite_bool(over, _closed(pre, post, options, pre.highest, weaken), going_on)


def play_step(
    pre: Table,
    laid: Sequence[Bool],
    post: Table,
    options: ViggoOptions,
    *,
    readings: Readings,
    round_no: int,
    shuffle: Shuffle | None,
    weaken: frozenset[str],
    loose: bool = False,
) -> tuple[Bool, Bool]:
    """Laying ``laid`` (``play._apply_play``): (legal, relation). The cards leave the hand for
    the trick; passes are forgotten unless a pass is final (VG-AMB-PASS-FINAL); a reply may
    close the trick; emptying the hand ends the round (VG-WIN-ROUND-ENDS-AT-FIRST-OUT): the
    points are scored and either the game is over or the next round is dealt from the deck
    order ``shuffle`` (``None``: this relation leaves out the re-deal, so a round-ending play
    must end the game)."""
    n = pre.count
    legal, reply = legal_play(pre, laid, options, round_no, weaken, judge=not loose)
    leading = _empty(pre.trick)
    hands = [
        [h[c] & ~(pre.turn.eq(s) & laid[c]) for c in range(CARDS)] for s, h in enumerate(pre.hands)
    ]
    trick = [t | a for t, a in zip(pre.trick, laid, strict=True)]
    passed = _kept_passes(readings, pre.passed)
    first_keeps = reply.equal_only & readings.first_to_play
    highest = ite(leading, pre.turn, ite(first_keeps, pre.highest, pre.turn))
    replies = ite(leading, 0, pre.replies + 1)
    out = any_of(pre.turn.eq(s) & _empty(hands[s]) for s in range(n))
    same_cards = [_same(post.stock, pre.stock), _same(post.away, pre.away)]
    laid_on = all_of(
        [_same(post.hands[s], hands[s]) for s in range(n)]
        + same_cards
        + [a.eq(b) for a, b in zip(post.scores, pre.scores, strict=True)]
        + [post.phase.eq(1)]
    )
    over = ~leading & trick_over(readings, n, pre.turn, passed, replies)
    if loose:
        over = ~leading & Bool.var("trick-closes")
    on_table = all_of(
        [
            _same(post.trick, trick),
            _same(post.top, laid),
            _same(post.aside, pre.aside),
            true()
            if loose
            else _trick_fields(
                post,
                turn=next_to_act(options, n, pre.turn, passed),
                passed=passed,
                top_seat=pre.turn,
                highest=highest,
                replies=replies,
            ),
        ]
    )
    closing = Table(
        count=n,
        hands=pre.hands,
        stock=pre.stock,
        order=pre.order,
        away=pre.away,
        trick=tuple(trick),
        top=tuple(laid),
        aside=pre.aside,
        turn=pre.turn,
        passed=tuple(passed),
        top_seat=pre.turn,
        highest=highest,
        replies=replies,
        scores=pre.scores,
        phase=pre.phase,
    )
    playing = laid_on & ite_bool(over, _closed(closing, post, options, highest, weaken), on_table)
    scored = score_round(pre.turn, pre.scores, [sum_of(h) for h in hands], post.scores, weaken)
    lost = game_lost(options, post.scores, weaken)
    if loose:
        scored, lost = true(), Bool.var("game-lost")
    ended = all_of(
        [_same(post.hands[s], hands[s]) for s in range(n)]
        + same_cards
        + [_same(post.trick, trick), _same(post.top, laid), _same(post.aside, pre.aside)]
        + [post.phase.eq(2)]
    )
    redealt = (
        false()
        if shuffle is None
        else deal(post, options, shuffle, weaken, sizes=not loose)
        & post.phase.eq(0 if n == 2 else 1)
    )
    finished = scored & ite_bool(lost, ended, redealt)
    return legal, ite_bool(out, finished, playing)


# ---------------------------------------------------------------------------------------------
# Counts, for termination
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Counts:
    """A table by counts: cards in each hand and in the trick, passes, turn, top seat, replies."""

    count: int
    held: tuple[Int, ...]
    trick: Int
    passed: tuple[Bool, ...]
    turn: Int
    top_seat: Int
    replies: Int

    @classmethod
    def fresh(cls, tag: str, count: int) -> Counts:
        """Unknowns."""
        return cls(
            count=count,
            held=tuple(Int.var(f"{tag}held{s}") for s in range(count)),
            trick=Int.var(f"{tag}trick"),
            passed=tuple(Bool.var(f"{tag}passed{s}") for s in range(count)),
            turn=Int.var(f"{tag}turn"),
            top_seat=Int.var(f"{tag}top"),
            replies=Int.var(f"{tag}replies"),
        )

    @classmethod
    def of_state(cls, state: ViggoState) -> Counts:
        """The engine's state by counts."""
        return cls(
            count=state.count,
            held=tuple(Int.const(len(h)) for h in state.hands),
            trick=Int.const(sum(len(laid.cards) for laid in state.trick)),
            passed=tuple(_const(s in state.passed) for s in range(state.count)),
            turn=Int.const(state.turn),
            top_seat=Int.const(state.trick[-1].seat if state.trick else -1),
            replies=Int.const(state.replies),
        )

    def held_by(self, seat: Int) -> Int:
        """How many cards seat ``seat`` holds."""
        return sum_of(ite(seat.eq(s), h, 0) for s, h in enumerate(self.held))

    def in_hands(self) -> Int:
        """All cards in hands."""
        return sum_of(self.held)

    def waiting(self) -> Int:
        """The seats that have not passed."""
        return sum_of(~p for p in self.passed)


def _count_fields(
    post: Counts, *, turn: Int, passed: Sequence[Bool], top: Int, replies: Int
) -> Bool:
    return all_of(
        [
            post.turn.eq(turn),
            _same(post.passed, passed),
            post.top_seat.eq(top),
            post.replies.eq(replies),
        ]
    )


def count_pass_step(
    pre: Counts, post: Counts, options: ViggoOptions, readings: Readings, weaken: frozenset[str]
) -> tuple[Bool, Bool, Bool]:
    """A pass by counts: (legal, closes the trick, relation); as :func:`pass_step`."""
    n = pre.count
    passed = [p | pre.turn.eq(s) for s, p in enumerate(pre.passed)]
    if "VG-PLAY-REPLY-OR-PASS" in weaken:
        passed = list(pre.passed)
    replies = pre.replies + 1
    over = trick_over(readings, n, pre.top_seat, passed, replies)
    if "VG-PLAY-TRICK-SET-ASIDE" in weaken:
        over = false()
    same_hands = all_of(a.eq(b) for a, b in zip(post.held, pre.held, strict=True))
    closed = (
        post.trick.eq(0)
        & _count_fields(
            post,
            turn=post.turn,
            passed=[false()] * n,
            top=Int.const(-1),
            replies=Int.const(0),
        )
        & post.turn.between(0, n - 1)
    )
    going = post.trick.eq(pre.trick) & _count_fields(
        post,
        turn=next_to_act(options, n, pre.turn, passed),
        passed=passed,
        top=pre.top_seat,
        replies=replies,
    )
    return pre.trick > 0, over, same_hands & ite_bool(over, closed, going)


def count_play_step(
    pre: Counts,
    laid: Int,
    post: Counts,
    options: ViggoOptions,
    *,
    readings: Readings,
    weaken: frozenset[str],
) -> tuple[Bool, Bool, Bool, Bool]:
    """Laying ``laid`` cards by counts: (legal, closes the trick, ends the round, relation).
    The hand loses them (a combination has one to five cards, VG-COMBO-*), the trick gains them,
    passes are forgotten unless final (VG-AMB-PASS-FINAL)."""
    n = pre.count
    legal = laid.between(1, 5) & (laid <= pre.held_by(pre.turn))
    if "VG-COMBO-SINGLE" in weaken:
        legal = laid.between(0, 5) & (laid <= pre.held_by(pre.turn))
    leading = pre.trick.eq(0)
    passed = _kept_passes(readings, pre.passed)
    replies = ite(leading, 0, pre.replies + 1)
    held = [ite(pre.turn.eq(s), h - laid, h) for s, h in enumerate(pre.held)]
    out = pre.held_by(pre.turn).eq(laid)
    over = ~leading & trick_over(readings, n, pre.turn, passed, replies)
    if "VG-PLAY-TRICK-SET-ASIDE" in weaken:
        over = false()
    hands = all_of(a.eq(b) for a, b in zip(post.held, held, strict=True))
    closed = (
        post.trick.eq(0)
        & _count_fields(
            post,
            turn=post.turn,
            passed=[false()] * n,
            top=Int.const(-1),
            replies=Int.const(0),
        )
        & post.turn.between(0, n - 1)
    )
    going = post.trick.eq(pre.trick + laid) & _count_fields(
        post,
        turn=next_to_act(options, n, pre.turn, passed),
        passed=passed,
        top=pre.turn,
        replies=replies,
    )
    return legal, over, out, hands & ite_bool(over, closed, going)


def _between(options: ViggoOptions, count: int, top: int, turn: int) -> list[int]:
    """The seats strictly after ``top`` and before ``turn`` in the order of play."""
    step = 1 if options.direction is Direction.CLOCKWISE else -1
    seats, seat = [], (top + step) % count
    while seat not in {turn, top}:
        seats.append(seat)
        seat = (seat + step) % count
    return seats


def trick_invariant(options: ViggoOptions, readings: Readings, table: Counts) -> Bool:
    """What holds during a trick in the engine (checked to hold after the lead and to be kept
    by every step): every hand holds a card, the player to act has not passed, no more passes
    than replies; where all others must pass (VG-PLAY-PASS-NOT-FINAL), the one on top has not
    passed, the turn is not his, and everyone between him and the turn has passed; after one
    lap at most ``n - 2`` replies were made."""
    n = table.count
    parts = [
        table.trick >= 1,
        table.turn.between(0, n - 1),
        table.top_seat.between(0, n - 1),
        table.replies >= 0,
        sum_of(table.passed) <= table.replies,
    ]
    parts += [h.between(1, 18) for h in table.held]
    parts += [implies(table.turn.eq(s), ~p) for s, p in enumerate(table.passed)]
    between = [
        implies(
            table.top_seat.eq(t) & table.turn.eq(u),
            all_of(table.passed[b] for b in _between(options, n, t, u)),
        )
        for t in range(n)
        for u in range(n)
    ]
    top_stays = [implies(table.top_seat.eq(s), ~p) for s, p in enumerate(table.passed)]
    others = all_of([table.turn.ne(table.top_seat), *between, *top_stays])
    parts.append(ite_bool(readings.one_lap, table.replies <= n - 2, others))
    return all_of(parts)
