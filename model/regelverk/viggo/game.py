"""The Viggo engine behind :data:`regelverk.viggo.GAME`, following
:class:`~regelverk.engine.Game`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from regelverk.engine import Outcome, PositionError
from regelverk.errors import UnknownRulebookError
from regelverk.viggo import play as _play
from regelverk.viggo.invariants import problems
from regelverk.viggo.options import ViggoOptions
from regelverk.viggo.position import (
    action_from_data,
    action_to_data,
    position_from_data,
    position_to_data,
)
from regelverk.viggo.rounds import before, start_round
from regelverk.viggo.state import Phase, ViggoAction, ViggoState

__all__ = ["GAME", "ViggoGame"]


class ViggoGame:
    """The Viggo engine, following :class:`regelverk.engine.Game`."""

    family = "viggo"
    rulebooks = ("viggo",)

    def options(self, rulebook: str) -> ViggoOptions:
        """The ``viggo`` preset: the main rules, every ambiguity at its default."""
        if rulebook not in self.rulebooks:
            raise UnknownRulebookError(rulebook, self.rulebooks)
        return ViggoOptions()

    def deal(self, options: ViggoOptions, players: Sequence[str], seed: int) -> ViggoState:
        """A new game: the first seat given is first hand, the seat before it deals."""
        return self.opening(options, players, seed).state

    def opening(
        self, options: ViggoOptions, players: Sequence[str], seed: int
    ) -> Outcome[ViggoState]:
        """The new game :meth:`deal` gives, with the events of its first deal."""
        names = tuple(players)
        if not 2 <= len(names) <= 4 or len(set(names)) != len(names):
            raise PositionError(
                f"Viggo is played by two to four players, each named once, not {list(names)} "
                "(VG-SETUP-TWO-TO-FOUR-PLAYERS)"
            )
        state, events = start_round(
            options,
            names,
            seed,
            round_no=1,
            dealer=before(options, len(names), 0),
            winner=-1,
            scores=(0,) * len(names),
            history=(),
        )
        return Outcome(state=state, events=events)

    def legal_actions(self, state: ViggoState) -> tuple[ViggoAction, ...]:
        """Every action the rules allow now."""
        return _play.legal_actions(state)

    def check(self, state: ViggoState, action: ViggoAction) -> None:
        """Raise :class:`~regelverk.engine.IllegalActionError` unless ``action`` is allowed."""
        _play.check(state, action)

    def apply(self, state: ViggoState, action: ViggoAction) -> Outcome[ViggoState]:
        """Check, then play ``action``."""
        return _play.apply(state, action)

    def is_over(self, state: ViggoState) -> bool:
        """Whether someone has lost the game."""
        return state.phase is Phase.OVER

    def problems(self, state: ViggoState) -> tuple[str, ...]:
        """Every invariant ``state`` breaks."""
        return problems(state)

    def position_from_data(self, data: Mapping[str, Any], options: ViggoOptions) -> ViggoState:
        """Read a position; see the rulebook's question-file page."""
        return position_from_data(data, options)

    def position_to_data(self, state: ViggoState) -> dict[str, Any]:
        """Write a position."""
        return position_to_data(state)

    def action_from_data(self, data: Mapping[str, Any], state: ViggoState) -> ViggoAction:
        """Read an action."""
        return action_from_data(data, state)

    def action_to_data(self, action: ViggoAction) -> dict[str, Any]:
        """Write an action."""
        return action_to_data(action)


GAME = ViggoGame()
"""The engine of the ``viggo`` rulebook."""
