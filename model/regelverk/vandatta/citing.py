"""How a ruling of the Vändåtta engine cites its clauses and words a refusal."""

from __future__ import annotations

from regelverk.engine import IllegalActionError
from regelverk.vandatta.options import GoOutCall
from regelverk.vandatta.state import State

__all__: list[str] = []

# The readings and state members these rules ask for, bound once (see rules.py).
UTGANG = GoOutCall.UTGANG


def _left(count: int) -> str:
    """How many cards a player has left, in words: one card, two cards."""
    return "1 card left" if count == 1 else f"{count} cards left"


def _cite(state: State, v8: tuple[str, ...], va: tuple[str, ...]) -> tuple[str, ...]:
    """The clauses of the text whose call the table uses (vvv8's utgång or vandatta's LAPPEN)."""
    return v8 if state.options.go_out_call is UTGANG else va


def _refuse(message: str, clauses: tuple[str, ...]) -> IllegalActionError:
    return IllegalActionError(message, clauses)
