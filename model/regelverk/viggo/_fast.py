"""PRIVATE, UNCHECKED: whole random Viggo rounds on integer-coded cards, for benchmarks only.

Nothing here is part of the API and nothing here is a referee: :func:`_random_round_fast` checks
no action, builds no state and no event, cites no clause, and trusts its own move generation
completely. Use :func:`regelverk.viggo.GAME.apply <regelverk.viggo.ViggoGame.apply>` for
anything a person relies on (python-chess users were burnt by a public unchecked ``push``; this
is why the only entry point has a leading underscore).

What it promises, and what ``tests/test_viggo_fast.py`` asserts over many seeds, player counts
and every option: driven by a :class:`random.Random` in the same state, it plays exactly the
first round that the public API plays when each step takes ``rng.choice(GAME.legal_actions(s))``
(the same hands, keeps, plays, passes, tricks, winner and points). That holds because it lists
the legal moves in the public order and draws the same ``rng.randrange(len(moves))`` that
``rng.choice`` draws; it counts the moves of a hand instead of building them wherever it can.

Cards are the numbers of :func:`~regelverk.viggo.combos.card_index` (position × 4 + suit).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product

from regelverk.cards import french_deck
from regelverk.viggo.combos import (
    CLUB_THREE_INDEX,
    THREE_POS,
    card_index,
    rank_class,
    run_starts,
)
from regelverk.viggo.options import (
    ClubFourOpening,
    ClubThree,
    ClubThreeOthers,
    ClubThreeSameRank,
    Direction,
    DraftDiscards,
    EqualRankReply,
    ExampleTrickEnd,
    LeadAfterTie,
    PassIsFinal,
    PassWhenAble,
    ThreeBeatsThree,
    ThreeInCombination,
    ViggoOptions,
)
from regelverk.viggo.rounds import HAND_SIZE, club_four_opens, hand_sizes, losers

__all__: list[str] = []

_DECK_INDEX = tuple(card_index(c) for c in french_deck())
"""The unshuffled deck as numbers, in :func:`~regelverk.cards.french_deck` order."""
_COMB = tuple(tuple(tuple(combinations(range(n), k)) for k in range(5)) for n in range(5))
"""``_COMB[n][k]``: the k-subsets of n cards in :func:`itertools.combinations` order."""
_NCOMB = tuple(tuple(len(c) for c in row) for row in _COMB)
_ALL_SETS = tuple(sum(row[1:]) for row in _NCOMB)
"""How many sets of any size n cards of one rank make."""

_NO, _STRICT, _MATCH = 0, 1, 2
"""A reply of equal strength: refused, allowed and beating, allowed and only matching."""


@dataclass(frozen=True, slots=True, kw_only=True)
class _FastRound:
    """PRIVATE: what :func:`_random_round_fast` played, cards as numbers.

    ``hands`` are the hands when play begins (after the deal or the draft), ``keeps`` the cards
    kept in the draft in order, ``moves`` each turn's seat with the cards laid (``None`` for a
    pass), ``tricks`` the cards of each trick set aside in the order laid.
    """

    hands: tuple[tuple[int, ...], ...]
    leader: int
    keeps: tuple[int, ...]
    moves: tuple[tuple[int, tuple[int, ...] | None], ...]
    tricks: tuple[tuple[int, ...], ...]
    winner: int
    points: tuple[int, ...]
    losers: tuple[int, ...]


def _deal(deck: list[int], options: ViggoOptions, count: int, step: int) -> list[list[int]]:
    sizes = hand_sizes(options, count)
    order = [(i * step) % count for i in range(count)]  # first hand is seat 0 in round 1
    dealt: list[list[int]] = [[] for _ in range(count)]
    cards = iter(deck)
    for turn in range(max(sizes)):
        for place, seat in enumerate(order):
            if turn < sizes[place]:
                dealt[seat].append(next(cards))
    return dealt


def _draft(
    deck: list[int], options: ViggoOptions, rng: random.Random, keeps: list[int]
) -> list[list[int]]:
    under = options.draft_discards is DraftDiscards.UNDER_STOCK
    stock = deck
    hands: list[list[int]] = [[], []]
    turn = top = 0
    while len(hands[0]) < HAND_SIZE or len(hands[1]) < HAND_SIZE:
        seen, other = stock[top], stock[top + 1]
        top += 2
        if rng.randrange(2):
            seen, other = other, seen
        keeps.append(seen)
        hands[turn].append(seen)
        if under:
            stock.append(other)
        turn = 1 - turn
    return hands


def _equal(
    new_club: bool,
    new_top: bool,
    single: bool,
    old: tuple[int, int, bool, bool, bool],
    flags: tuple[bool, bool, bool, bool, bool, bool],
) -> int:
    """``combos._equal_reply`` on numbers: _NO, _STRICT or _MATCH."""
    club_on_top, only_club, same_once, all_types, equal_allowed, once_first = flags
    _, _, old_top, old_has, old_club = old
    if club_on_top and not (same_once and once_first):
        if new_club and old_has:
            return _STRICT
        if old_club:
            return _NO
        if new_top and old_top and only_club:
            return _NO
    if same_once:
        return _NO
    if new_top and old_top and (all_types or single):
        return _MATCH
    return _MATCH if equal_allowed else _NO


_Anchor = tuple[int, int, bool, bool, tuple[int, ...]]


@lru_cache(maxsize=16)
def _reply_anchors(
    classes: tuple[int, ...], starts: tuple[int, ...]
) -> tuple[tuple[tuple[_Anchor, ...], ...], tuple[tuple[_Anchor, ...], ...]]:
    """For sets (index 0) and runs (index 1) and each key a top may have: the bunches, in the
    public order, whose key is at least it, as (anchor, key, top is a three, holds a three,
    positions)."""
    sets = [(pos, classes[pos], pos == THREE_POS, pos == THREE_POS, (pos,)) for pos in range(13)]
    runs = [
        (
            start,
            classes[(start + 4) % 13],
            (start + 4) % 13 == THREE_POS,
            start + 4 >= THREE_POS,
            tuple((start + i) % 13 for i in range(5)),
        )
        for start in starts
    ]
    return (
        tuple(tuple(a for a in sets if a[1] >= key) for key in range(13)),
        tuple(tuple(a for a in runs if a[1] >= key) for key in range(13)),
    )


def _all_leads(
    groups: list[list[int]], starts: tuple[int, ...]
) -> list[tuple[tuple[int, ...], int, int]]:
    """Every lead as (cards, size, anchor), in the public order."""
    found = [
        (cards, size, pos)
        for size in range(1, 5)
        for pos, g in enumerate(groups)
        for cards in combinations(g, size)
    ]
    for start in starts:
        run = [groups[(start + i) % 13] for i in range(5)]
        if all(run):
            found.extend((cards, 5, start) for cards in product(*run))
    return found


def _pick_lead(
    groups: list[list[int]], lens: list[int], starts: tuple[int, ...], rng: random.Random
) -> tuple[tuple[int, ...], int, int]:
    """A lead drawn as ``rng.choice(leads)`` would draw it, counting instead of listing
    (``lens`` holds the length of each group)."""
    sets = 0
    for n in lens:
        sets += _ALL_SETS[n]
    runs = []
    total = sets
    for start in starts:
        width = 1
        for i in range(5):
            width *= lens[(start + i) % 13]
        if width:
            runs.append((start, width))
            total += width
    r = rng.randrange(total)  # what rng.choice draws from as many moves
    if r < sets:
        for size in range(1, 5):
            for pos, n in enumerate(lens):
                many = _NCOMB[n][size]
                if r < many:
                    g = groups[pos]
                    return tuple(g[i] for i in _COMB[n][size][r]), size, pos
                r -= many
    r -= sets
    for start, width in runs:
        if r < width:
            return _run_at(groups, start, r), 5, start
        r -= width
    raise AssertionError("unreachable: the draw is below the total")


def _run_at(groups: list[list[int]], start: int, r: int) -> tuple[int, ...]:
    """The ``r``-th run from ``start`` in :func:`itertools.product` order."""
    picked = [0] * 5
    for i in range(4, -1, -1):
        g = groups[(start + i) % 13]
        r, d = divmod(r, len(g))
        picked[i] = g[d]
    return tuple(picked)


def _random_round_fast(  # noqa: PLR0912, PLR0915 - one loop, inlined on purpose
    options: ViggoOptions, count: int, seed: int, rng: random.Random
) -> _FastRound:
    """PRIVATE, UNCHECKED: play the first round of ``GAME.deal(options, players, seed)`` by
    random legal moves drawn from ``rng``; see the module docstring for what it promises.

    ``count`` must be 2, 3 or 4; nothing else is checked.
    """
    o = options
    step = 1 if o.direction is Direction.CLOCKWISE else -1
    classes = rank_class(o)
    starts = run_starts(o)
    trumps = o.three_in_combination is ThreeInCombination.THREE_TRUMPS
    first_to_play = o.lead_after_tie is LeadAfterTie.FIRST_TO_PLAY
    final = o.pass_is_final is PassIsFinal.FINAL
    one_lap = o.example_trick_end is ExampleTrickEnd.ONE_LAP
    flags = (
        o.club_three_on_top is ClubThree.CLUB_THREE_ON_TOP,
        o.club_three_others is ClubThreeOthers.ONLY_CLUB_BEATS_THREES,
        o.same_rank_once,
        o.three_beats_three is ThreeBeatsThree.ALL_TYPES,
        o.equal_rank_reply is EqualRankReply.EQUAL_ALLOWED,
        o.club_three_same_rank is ClubThreeSameRank.SAME_RANK_FORBIDS,
    )
    must_beat = o.pass_when_able is PassWhenAble.MUST_BEAT

    deck = list(_DECK_INDEX)
    random.Random(f"viggo/{seed}/1").shuffle(deck)
    keeps: list[int] = []
    dealt = _draft(deck, o, rng, keeps) if count == 2 else _deal(deck, o, count, step)
    for hand in dealt:
        hand.sort()
    turn = 0
    club_four = club_four_opens(o, count, 1)
    if club_four:
        turn = next((s for s, h in enumerate(dealt) if 0 in h), 0)
    must_club_four = (
        club_four and o.club_four_opening is ClubFourOpening.MUST_INCLUDE and 0 in dealt[turn]
    )
    hands = tuple(tuple(h) for h in dealt)
    leader = turn
    groups = [[[c for c in h if c >> 2 == pos] for pos in range(13)] for h in dealt]
    left = [len(h) for h in dealt]
    counts = [[len(g) for g in seat] for seat in groups]
    anchors = _reply_anchors(classes, starts)
    club_on_top = flags[0]
    draw = rng.randrange  # rng.choice(m) is m[rng.randrange(len(m))] in CPython's random
    everyone = (1 << count) - 1

    moves: list[tuple[int, tuple[int, ...] | None]] = []
    tricks: list[tuple[int, ...]] = []
    laid: list[int] = []
    old: tuple[int, int, bool, bool, bool] | None = None  # size, key, top three, three, 3♣
    top_seat = highest = -1
    passed = replies = 0
    while True:
        g = groups[turn]
        lens = counts[turn]
        strict = True
        if old is None:
            if must_club_four:
                leads = [lead for lead in _all_leads(g, starts) if 0 in lead[0]]
                cards, size, anchor = leads[draw(len(leads))]
                must_club_four = False
            else:
                cards, size, anchor = _pick_lead(g, lens, starts, rng)
        else:
            size, old_key, _, old_has, _ = old
            single = size == 1
            segments: list[tuple[int, int, list[tuple[tuple[int, ...], int]] | None, int]] = []
            total = 1
            run = size == 5
            for anchor, key, top_three, three, spots in anchors[run][0 if trumps else old_key]:
                if run:
                    width = (
                        lens[spots[0]]
                        * lens[spots[1]]
                        * lens[spots[2]]
                        * lens[spots[3]]
                        * lens[spots[4]]
                    )
                    if not width:
                        continue
                else:
                    n = lens[anchor]
                    if n < size:
                        continue
                    width = _NCOMB[n][size]
                if trumps and three != old_has:
                    if not three:
                        continue
                    verdict = _STRICT
                elif key > old_key:
                    verdict = _STRICT
                elif key < old_key:
                    continue
                elif club_on_top:  # the 3♣ makes combinations of one bunch differ
                    if run:
                        each = [_run_at(g, anchor, r) for r in range(width)]
                    else:
                        each = [tuple(g[anchor][i] for i in c) for c in _COMB[n][size]]
                    ok = []
                    for combo in each:
                        verdict = _equal(CLUB_THREE_INDEX in combo, top_three, single, old, flags)
                        if verdict:
                            ok.append((combo, verdict))
                    if ok:
                        segments.append((len(ok), anchor, ok, _NO))
                        total += len(ok)
                    continue
                else:
                    verdict = _equal(False, top_three, single, old, flags)
                    if not verdict:
                        continue
                segments.append((width, anchor, None, verdict))
                total += width
            # no pass while a reply beats, under the must-beat reading (VG-AMB-PASS-WHEN-ABLE)
            r = draw(total - 1) + 1 if must_beat and total > 1 else draw(total)
            if not r:
                moves.append((turn, None))
                passed |= 1 << turn
                replies += 1
                if replies >= count - 1 if one_lap else passed | 1 << top_seat == everyone:
                    tricks.append(tuple(laid))
                    laid = []
                    old = None
                    turn = (highest + step) % count
                    passed, highest, replies = 0, -1, 0
                else:
                    turn = (turn + step) % count
                    while passed >> turn & 1:
                        turn = (turn + step) % count
                continue
            r -= 1
            at = 0
            while r >= segments[at][0]:
                r -= segments[at][0]
                at += 1
            _, anchor, kept, verdict = segments[at]
            if kept is not None:
                cards, verdict = kept[r]
            elif size == 5:
                cards = _run_at(g, anchor, r)
            else:
                cards = tuple(g[anchor][i] for i in _COMB[lens[anchor]][size][r])
            strict = verdict == _STRICT
        # lay ``cards``
        seat = turn
        for c in cards:
            g[c >> 2].remove(c)
            lens[c >> 2] -= 1
        left[seat] -= size
        moves.append((seat, cards))
        laid.extend(cards)
        if size == 5:
            top = (anchor + 4) % 13
            top_three, three = top == THREE_POS, anchor + 4 >= THREE_POS
        else:
            top = anchor
            top_three = three = anchor == THREE_POS
        is_reply = old is not None
        old = (size, classes[top], top_three, three, CLUB_THREE_INDEX in cards)
        if not is_reply or strict or not first_to_play:
            highest = seat
        top_seat = seat
        if not final:
            passed = 0
        replies = replies + 1 if is_reply else 0
        if not left[seat]:
            break
        if is_reply and (replies >= count - 1 if one_lap else passed | 1 << seat == everyone):
            tricks.append(tuple(laid))
            laid = []
            old = None
            turn = (highest + step) % count
            passed, highest, replies = 0, -1, 0
            continue
        turn = (seat + step) % count
        while passed >> turn & 1:
            turn = (turn + step) % count
    points = tuple(0 if s == seat else n for s, n in enumerate(left))
    return _FastRound(
        hands=hands,
        leader=leader,
        keeps=tuple(keeps),
        moves=tuple(moves),
        tricks=tuple(tricks),
        winner=seat,
        points=points,
        losers=losers(o, points, seat),
    )
