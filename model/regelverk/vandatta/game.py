"""The Vändåtta engine behind :data:`regelverk.vandatta.GAME`, following
:class:`~regelverk.engine.Game`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from regelverk.engine import OptionError, Outcome, Ruling
from regelverk.errors import UnknownRulebookError
from regelverk.vandatta import adjudication, attempts, checks, listing, position
from regelverk.vandatta.invariants import problems
from regelverk.vandatta.options import PRESETS, VandattaOptions
from regelverk.vandatta.setup import new_match
from regelverk.vandatta.state import Action, Phase, State

__all__ = ["GAME", "VandattaGame"]


class VandattaGame:
    """The Vändåtta family: see :class:`regelverk.engine.Game` for the protocol."""

    family = "vandatta"
    rulebooks = ("vvv8", "vandatta")

    def options(self, rulebook: str) -> VandattaOptions:
        """The preset of ``vvv8`` or ``vandatta``."""
        if rulebook not in PRESETS:
            if rulebook in ("viggo", "uno"):
                raise OptionError(f"{rulebook} is not served by the Vändåtta engine")
            raise UnknownRulebookError(rulebook, self.rulebooks)
        return PRESETS[rulebook]

    def deal(self, options: VandattaOptions, players: Sequence[str], seed: int) -> State:
        """A new match for the players named, in seat order clockwise; the first action deals."""
        return new_match(options, players, seed)

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        """Every action the rules allow now."""
        return listing.legal_actions(state)

    def check(self, state: State, action: Action) -> None:
        """Raise :class:`~regelverk.engine.IllegalActionError` unless ``action`` is allowed."""
        checks.check(state, action)

    def apply(self, state: State, action: Action) -> Outcome[State]:
        """Check, then play ``action``."""
        return adjudication.apply(state, action)

    def attempt(self, state: State, action: Action) -> Ruling[State]:
        """The referee's ruling on any attempt, mistakes included: vvv8's penalties of
        "Brott och straff", or (vandatta) a plain refusal (:mod:`regelverk.vandatta.attempts`)."""
        return attempts.attempt(state, action)

    def is_over(self, state: State) -> bool:
        """Whether the match has ended."""
        return state.phase is Phase.MATCH_OVER

    def problems(self, state: State) -> tuple[str, ...]:
        """Every invariant ``state`` breaks, in words."""
        return problems(state)

    def position_from_data(self, data: Mapping[str, Any], options: VandattaOptions) -> State:
        """A state from plain data (see ``docs/ask/vandatta.rst``)."""
        return position.position_from_data(data, options)

    def position_to_data(self, state: State) -> dict[str, Any]:
        """A state as plain data."""
        return position.position_to_data(state)

    def action_from_data(self, data: Mapping[str, Any], state: State) -> Action:
        """An action from plain data."""
        return position.action_from_data(data, state)

    def action_to_data(self, action: Action) -> dict[str, Any]:
        """An action as plain data."""
        return position.action_to_data(action)


GAME = VandattaGame()
"""The engine serving ``vvv8`` and ``vandatta``."""
