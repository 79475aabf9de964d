"""The rulebooks the Vändåtta engine serves: vvv8 (text 000) and vandatta (text 001)."""

from __future__ import annotations

from dataclasses import replace

from regelverk.books import Rulebook

__all__ = ["BOOKS"]

_PROOFS = (
    "vandatta.theorems.cards",
    "vandatta.theorems.end",
    "vandatta.theorems.endless",
    "vandatta.theorems.lead",
)

_GIVEN_DEAL = (
    "a Vändåtta deal is an action of its own: give a position in phase 'ready' with its "
    "'dealer', 'deal': 0 and a stock stacked as the cards are to be dealt, and the action "
    "{'action': 'deal'}"
)

_VVV8 = Rulebook(
    name="vvv8",
    title="VVVänd8",
    prefix="V8",
    family="vandatta",
    seats=(2, 3, 4, 5, 6),
    cards="french",
    leftover=("stock",),
    proofs=_PROOFS,
    given_deal=_GIVEN_DEAL,
    counted="losses",
    outcome="deal",
)

BOOKS = (
    _VVV8,
    replace(_VVV8, name="vandatta", title="Vändåtta", prefix="VA", counted="wins", outcome="game"),
)
"""The descriptors of ``vvv8`` and ``vandatta`` (:class:`regelverk.books.Rulebook`): one engine,
so the same seats, cards, proofs and deal. The name, title and clause prefix differ, and what a
simulation counts: who loses each official deal of a vvv8 session (V8-SESSION-LOSER-DEALS-NEXT),
who wins a game of Vändåtta (the last player under the points limit, VA-SCORING-GAME-WINNER)."""
