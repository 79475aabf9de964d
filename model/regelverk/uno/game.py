"""The UNO engine behind :data:`regelverk.uno.GAME`, following :class:`~regelverk.engine.Game`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from regelverk.engine import OptionError, Outcome, PositionError
from regelverk.marks import implements
from regelverk.uno import invariants, position, rules
from regelverk.uno.actions import _apply_unchecked, opening
from regelverk.uno.options import UnoOptions, uno_options
from regelverk.uno.state import Action, Phase, UnoState

__all__ = ["GAME", "UnoGame"]

GAME_OVER = Phase.GAME_OVER
"""The phase, read once: reading a member off its enum class costs a call in Python 3.11."""
_listed = rules.LISTED.listed
"""Whether an action is one :func:`~regelverk.uno.rules.legal_actions` has just listed."""


class UnoGame:
    """UNO: text 004's action cards and the official rules around them.

    >>> from regelverk.uno import GAME
    >>> state = GAME.deal(GAME.options("uno"), ["Anna", "Bo", "Cia"], seed=3)
    >>> GAME.problems(state)
    ()
    >>> outcome = GAME.apply(state, GAME.legal_actions(state)[0])
    >>> all(event.clauses for event in outcome.events)
    True
    """

    family = "uno"
    rulebooks = ("uno",)

    def options(self, rulebook: str) -> UnoOptions:
        """The preset of the ``uno`` rulebook (every ambiguity at its default)."""
        if rulebook != "uno":
            raise OptionError(f"the UNO engine serves the rulebook 'uno', not {rulebook!r}")
        return uno_options()

    @implements("UNO-SETUP-PLAYERS")
    def deal(self, options: UnoOptions, players: Sequence[str], seed: int) -> UnoState:
        """A new game: a dealer chosen by drawing, seven cards each, the first card turned."""
        return self.opening(options, players, seed).state

    @implements("UNO-SETUP-PLAYERS")
    def opening(self, options: UnoOptions, players: Sequence[str], seed: int) -> Outcome[UnoState]:
        """The new game :meth:`deal` gives, with the events of choosing the dealer, dealing and
        turning up the first card (whose effect the first-card table gives)."""
        names = tuple(players)
        if not 2 <= len(names) <= 10:
            raise PositionError(f"UNO is for 2 to 10 players (UNO-SETUP-PLAYERS), not {len(names)}")
        if len(set(names)) != len(names) or not all(isinstance(p, str) and p for p in names):
            raise PositionError("every player needs a name of his own")
        return opening(options, names, seed)

    def deal_from_data(self, data: Mapping[str, Any], options: UnoOptions) -> Outcome[UnoState]:
        """A first hand dealt with the cards given (see the page on asking UNO questions), with
        the events of the deal and of the first card."""
        return position.deal_from_data(data, options)

    def legal_actions(self, state: UnoState) -> tuple[Action, ...]:
        """Every action the rules allow now, including catches and late UNO calls."""
        return rules.legal_actions(state)

    def check(self, state: UnoState, action: Action) -> None:
        """Raise :class:`~regelverk.engine.IllegalActionError` unless ``action`` is allowed."""
        rules.check(state, action)

    def apply(self, state: UnoState, action: Action) -> Outcome[UnoState]:
        """Check ``action``, then play it: the next state and the events with their clauses.

        An action object :meth:`legal_actions` has just listed for this state object has been
        judged already (:class:`~regelverk.engine.Listed`); any other action is checked now."""
        if not _listed(state, action):
            rules.check(state, action)
        return _apply_unchecked(state, action)

    def is_over(self, state: UnoState) -> bool:
        """Whether somebody has won the game."""
        return state.phase is GAME_OVER

    def problems(self, state: UnoState) -> tuple[str, ...]:
        """Every invariant ``state`` breaks, in words."""
        return invariants.problems(state)

    def position_from_data(self, data: Mapping[str, Any], options: UnoOptions) -> UnoState:
        """Build a state from plain data (see the page on asking UNO questions)."""
        return position.position_from_data(data, options)

    def position_to_data(self, state: UnoState) -> dict[str, Any]:
        """A state as plain data."""
        return position.position_to_data(state)

    def action_from_data(self, data: Mapping[str, Any], state: UnoState) -> Action:
        """Read an action from plain data."""
        return position.action_from_data(data, state)

    def action_to_data(self, action: Action) -> dict[str, Any]:
        """An action as plain data."""
        return position.action_to_data(action)


GAME = UnoGame()
"""The UNO engine."""
