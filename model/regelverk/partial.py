"""Partial positions: a question that does not know every card.

At the table nobody sees the other hands. A question may therefore write ``"?"`` for a card it
does not know, in any hand of its position: ``"hands": {"Bo": ["?", "?", "?"]}``. The unknown
cards come from the cards the position places nowhere else (those the rulebook's reader would
put into the stock, the draw pile or, in Viggo, aside). Every way of dealing those cards into
the unknown places is a *completion*; the referee rules on the action in each completion and
answers:

* ``always``: the action is allowed in every completion tried;
* ``never``: it is not allowed in any completion tried (refused, penalised, or against the
  rules though it stands unless challenged);
* ``depends``: it is allowed in some and not in others.

These are verdicts of :class:`regelverk.verdicts.Verdict` (``ALWAYS``, ``NEVER`` and
``DEPENDS_ON_UNSEEN_CARDS``). The answer also shows one completion of each kind of ruling (its
verdict, and the clauses that decide). When there are at most :data:`EXHAUSTIVE` completions,
all of them are tried and ``always`` and ``never`` are certain; otherwise :data:`SAMPLED`
completions are drawn at random (seeded, so the same question gives the same answer) and the
answer says that it rests on a sample. A ``depends`` is always certain: both kinds were seen.
The order of whatever stays in the stock is the one the reader gives it from the position's
seed, as for any position.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from regelverk.books import rulebook as described
from regelverk.engine import Game, Ruling, adjudicate
from regelverk.errors import RegelverkError
from regelverk.records import record
from regelverk.verdicts import Verdict, unseen, verdict_of

__all__ = [
    "EXHAUSTIVE",
    "SAMPLED",
    "UNKNOWN",
    "Partial",
    "PartialError",
    "is_partial",
    "rule_on_partial",
]

UNKNOWN = "?"
"""How a question writes a card it does not know."""

EXHAUSTIVE = 2_000
"""Up to this many completions, every one is tried."""

SAMPLED = 300
"""Beyond :data:`EXHAUSTIVE`, this many completions are drawn at random."""


class PartialError(RegelverkError):
    """A partial position that cannot be completed."""


@record
class Partial:
    """The unknown places of a position: how many unknown cards each hand holds."""

    unknown: tuple[tuple[str, int], ...]


def is_partial(position: Mapping[str, Any]) -> Partial | None:
    """The unknown places of ``position`` (``None`` if every card is known)."""
    hands = position.get("hands")
    if not isinstance(hands, Mapping):
        return None
    unknown = tuple(
        (name, held.count(UNKNOWN))
        for name, held in hands.items()
        if isinstance(held, list) and UNKNOWN in held
    )
    return Partial(unknown=unknown) if unknown else None


def _known(position: Mapping[str, Any]) -> dict[str, Any]:
    """The position with its unknown cards left out."""
    hands = {
        name: [c for c in held if c != UNKNOWN] if isinstance(held, list) else held
        for name, held in position["hands"].items()
    }
    return {**position, "hands": hands}


def _pool(game: Game[Any, Any, Any], options: Any, position: Mapping[str, Any]) -> list[str]:
    """The cards the position places nowhere: those its reader puts among the leftovers."""
    leftover = described(game.rulebooks[0]).leftover
    built = game.position_to_data(game.position_from_data(_known(position), options))
    pool: Counter[str] = Counter()
    for key in leftover:
        given = position.get(key, [])
        pool += Counter(built.get(key, [])) - Counter(given if isinstance(given, list) else [])
    return sorted(pool.elements())


def _sub_multisets(pool: Counter[str], size: int) -> int:
    """How many different hands of ``size`` cards the pool can give (equal cards alike)."""
    ways = [1] + [0] * size
    for copies in pool.values():
        ways = [sum(ways[n - k] for k in range(min(copies, n) + 1)) for n in range(size + 1)]
    return ways[size]


def _completions_bound(pool: Counter[str], sizes: list[int]) -> int:
    """An upper bound on the ways the pool's cards fill hands of the unknown sizes."""
    return math.prod(_sub_multisets(pool, size) for size in sizes)


def _every(pool: list[str], sizes: list[int]) -> Iterator[tuple[tuple[str, ...], ...]]:
    """Every distinct filling of the unknown hands (equal cards are not told apart)."""
    if not sizes:
        yield ()
        return
    seen: set[tuple[str, ...]] = set()
    for chosen in itertools.combinations(range(len(pool)), sizes[0]):
        cards = tuple(pool[i] for i in chosen)
        if cards in seen:
            continue
        seen.add(cards)
        rest = [c for i, c in enumerate(pool) if i not in chosen]
        for others in _every(rest, sizes[1:]):
            yield (cards, *others)


def _sampled(pool: list[str], sizes: list[int], seed: str) -> Iterator[tuple[tuple[str, ...], ...]]:
    """:data:`SAMPLED` fillings drawn at random, the same ones for the same question."""
    chooser = random.Random(seed)
    for _ in range(SAMPLED):
        cards = chooser.sample(pool, sum(sizes))
        filling, start = [], 0
        for size in sizes:
            filling.append(tuple(sorted(cards[start : start + size])))
            start += size
        yield tuple(filling)


def _complete(
    position: Mapping[str, Any], partial: Partial, filling: tuple[tuple[str, ...], ...]
) -> dict[str, Any]:
    """The position with each unknown hand's ``"?"`` replaced by the cards of ``filling``."""
    hands = dict(position["hands"])
    for (name, _), cards in zip(partial.unknown, filling, strict=True):
        known = [c for c in hands[name] if c != UNKNOWN]
        hands[name] = [*known, *cards]
    return {**position, "hands": hands}


def rule_on_partial(
    game: Game[Any, Any, Any],
    options: Any,
    position: Mapping[str, Any],
    build: Callable[[dict[str, Any]], Any],
    read_action: Callable[[Any], Any],
) -> dict[str, Any]:
    """Rule on an action in every completion of a partial position (or a seeded sample of
    them): always, never or depends, with one completion of each kind of ruling.

    ``build(data)`` reads a completed position into a state (raising on a bad field);
    ``read_action(state)`` reads the question's action against it."""
    partial = is_partial(position)
    if partial is None:
        raise PartialError("the position has no unknown card ('?') in any hand")
    pool = _pool(game, options, position)
    sizes = [n for _, n in partial.unknown]
    if sum(sizes) > len(pool):
        raise PartialError(
            f"the position leaves {len(pool)} card(s) unplaced, too few for its "
            f"{sum(sizes)} unknown card(s)"
        )
    bound = _completions_bound(Counter(pool), sizes)
    exhaustive = bound <= EXHAUSTIVE
    fillings = _every(pool, sizes) if exhaustive else _sampled(pool, sizes, repr(sorted(position)))
    kinds: dict[tuple[Verdict, bool, tuple[str, ...]], dict[str, Any]] = {}
    tried = seen = 0
    for filling in fillings:
        seen += 1
        state = build(_complete(position, partial, filling))
        if game.problems(state):
            continue
        ruling: Ruling[Any] = adjudicate(game, options, state, read_action(state))
        tried += 1
        ruled = verdict_of(game.family, state, ruling, game.problems(ruling.state))
        key = (ruled, ruling.allowed, ruling.clauses)
        if key not in kinds:
            shown = {
                name: list(cards) for (name, _), cards in zip(partial.unknown, filling, strict=True)
            }
            kinds[key] = {
                "verdict": ruled.token,
                "allowed": ruling.allowed,
                "message": ruling.message,
                "clauses": list(ruling.clauses),
                "events": [e.to_data() for e in ruling.events],
                "unknown_cards": shown,
                "count": 0,
            }
        kinds[key]["count"] += 1
    if not tried:
        raise PartialError("no completion of the position is one that can occur")
    verdict = unseen(k[0] for k in kinds)
    return {
        "partial": True,
        "verdict": verdict.token,
        "allowed": verdict is Verdict.ALWAYS,
        "exhaustive": exhaustive,
        "completions": seen if exhaustive else bound,
        "tried": tried,
        "kinds": sorted(kinds.values(), key=lambda k: (not k["allowed"], -k["count"])),
        "clauses": sorted({c for k in kinds.values() for c in k["clauses"]}),
        "message": _summary(verdict, exhaustive, tried, bound, len(kinds)),
        "problems": [],
    }


def _summary(verdict: Verdict, exhaustive: bool, tried: int, total: int, kinds: int) -> str:
    """The answer in words, beginning with the verdict's phrase."""
    scope = (
        f"in all {tried} ways the unknown cards can lie"
        if exhaustive
        else f"in {tried} of up to {total:,} ways the unknown cards can lie, drawn at random"
    )
    if verdict is Verdict.DEPENDS_ON_UNSEEN_CARDS:
        return f"{verdict.phrase}: allowed in some and not in others ({scope})"
    certainty = "" if exhaustive else "; the rest were not tried"
    differs = f"; what follows differs: {kinds} kinds of ruling" if kinds > 1 else ""
    return f"{verdict.phrase}: {scope}{certainty}{differs}"
