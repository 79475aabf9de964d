"""The rulebook the Viggo engine serves: viggo (text 003)."""

from __future__ import annotations

from regelverk.books import Rulebook

__all__ = ["BOOKS"]

BOOKS = (
    Rulebook(
        name="viggo",
        title="Viggo",
        prefix="VG",
        family="viggo",
        seats=(2, 3, 4),
        cards="french",
        leftover=("set_aside", "out_of_play"),
        proofs=("viggo.theorems.rules",),
        counted="losses",
        given_deal="a Viggo deal has no effect of its own to rule on: give the position after "
        "it (hands, and 'first_hand')",
    ),
)
"""The descriptor of ``viggo`` (:class:`regelverk.books.Rulebook`)."""
