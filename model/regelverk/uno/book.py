"""The rulebook the UNO engine serves: uno (text 004 and the official rules it presupposes)."""

from __future__ import annotations

from regelverk.books import Rulebook

__all__ = ["BOOKS"]

BOOKS = (
    Rulebook(
        name="uno",
        title="UNO",
        prefix="UNO",
        family="uno",
        seats=(2, 3, 4, 5, 6),
        cards="uno",
        leftover=("draw_pile",),
        proofs=("uno.theorems.rules",),
    ),
)
"""The descriptor of ``uno`` (:class:`regelverk.books.Rulebook`)."""
