"""How hard the state machines and the random walks are run.

The normal test run plays a fast slice (``REGELVERK_STRENGTH`` unset or ``fast``); the full run,
``REGELVERK_STRENGTH=full`` (what ``scripts/invariants.sh`` sets), plays :data:`FULL_FACTOR`
times as many examples of every state machine and as many walks of the conformance tests. Any
other value stops the run with an error naming the two it accepts.
"""

from __future__ import annotations

import os

from hypothesis import settings

__all__ = ["FACTOR", "FULL_FACTOR", "machine_settings", "scaled"]

FULL_FACTOR = 10
"""How many times the fast slice's examples the full run plays."""

_STRENGTHS = {"fast": 1, "full": FULL_FACTOR}


def _factor(value: str | None) -> int:
    """The factor of a ``REGELVERK_STRENGTH`` value; an unknown value is refused in words."""
    if value is None or value == "":
        return 1
    try:
        return _STRENGTHS[value]
    except KeyError:
        raise ValueError(
            f"REGELVERK_STRENGTH={value!r}: expected one of {', '.join(sorted(_STRENGTHS))}"
        ) from None


FACTOR = _factor(os.environ.get("REGELVERK_STRENGTH"))
"""The factor this run plays at: 1 for the fast slice, :data:`FULL_FACTOR` for the full run."""


def scaled(count: int) -> int:
    """``count`` examples, games or walks of the fast slice, at this run's strength."""
    return count * FACTOR


def machine_settings(max_examples: int, stateful_step_count: int) -> settings:
    """A state machine's settings: its fast slice's examples scaled to this run's strength, its
    steps as given, no deadline (a step that checks every invariant may be slow)."""
    return settings(
        max_examples=scaled(max_examples),
        stateful_step_count=stateful_step_count,
        deadline=None,
    )
