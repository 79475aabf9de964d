"""Players for simulated games: how a seat chooses among the legal actions.

A policy is a function of the state, its legal actions and the game's seeded chooser that
returns one of the actions; every seat of a game plays by the same policy, and the same seed
gives the same game under it. :data:`POLICIES` names them:

* ``random``: any legal action, uniformly (``chooser.choice(legal)``), as ``regelverk play``
  has always played: so many draws, catches and passes that a game of UNO takes some 1,000
  actions where people take about 60;
* ``keen``: a card whenever one may be laid (uniformly among the plays), else any other legal
  action uniformly. A family may give its own, quicker keen player in
  ``regelverk.<family>.policies``; otherwise the plays are the actions whose plain data
  (``action_to_data``) is of kind ``play``;
* ``sensible``: a simple player of the rulebook, as plain players play it, which each family
  defines in ``regelverk.<family>.policies`` (a family without one plays ``keen``). The
  statistics pages of the rulebook are played by it.

>>> from regelverk.games import game_for
>>> import random
>>> game = game_for("uno")
>>> state = game.deal(game.options("uno"), ["Ann", "Bo", "Cy"], seed=2)
>>> legal = game.legal_actions(state)
>>> choose = policy_for("uno", "keen")
>>> type(choose(state, legal, random.Random(1))).__name__
'Play'
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Any

from regelverk.books import rulebook
from regelverk.errors import RegelverkError
from regelverk.games import game_for

__all__ = ["POLICIES", "Policy", "PolicyError", "policy_for"]

Policy = Callable[[Any, Sequence[Any], random.Random], Any]
"""A player: ``policy(state, legal, chooser)`` returns one of ``legal``, choosing by
``chooser`` alone (no other source of chance)."""

POLICIES = ("random", "keen", "sensible")
"""The players a simulation may use, by name."""


class PolicyError(RegelverkError):
    """A player asked for by a name no policy has."""


def uniform(state: Any, legal: Sequence[Any], chooser: random.Random) -> Any:
    """``random``: any legal action, uniformly."""
    return chooser.choice(legal)


def _keen_by_kind(name: str) -> Policy:
    """``keen`` for a family without its own: the plays are the actions of kind ``play``."""
    game = game_for(name)

    def keen(state: Any, legal: Sequence[Any], chooser: random.Random) -> Any:
        plays = [a for a in legal if game.action_to_data(a).get("action") == "play"]
        return chooser.choice(plays or legal)

    return keen


def policy_for(name: str, policy: str) -> Policy:
    """The player ``policy`` (one of :data:`POLICIES`) for the rulebook ``name``."""
    if policy not in POLICIES:
        raise PolicyError(f"the player is one of {', '.join(POLICIES)}, not {policy!r}")
    if policy == "random":
        return uniform
    family = rulebook(name).family
    try:
        own = importlib.import_module(f"regelverk.{family}.policies")
    except ModuleNotFoundError as missing:
        if missing.name != f"regelverk.{family}.policies":
            raise
        return _keen_by_kind(name)
    found: Policy = own.POLICIES.get(policy, own.POLICIES["keen"])
    return found
