"""The players of simulated Vändåtta games (:mod:`regelverk.policies`).

``keen`` lays a card whenever one may be laid (uniformly among the plays), else takes any other
legal action uniformly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from regelverk.vandatta.state import Play

__all__ = ["POLICIES", "keen"]


def keen(state: Any, legal: Sequence[Any], chooser: random.Random) -> Any:
    """A card whenever one may be laid, else any legal action."""
    plays = [action for action in legal if type(action) is Play]
    return chooser.choice(plays or legal)


POLICIES: dict[str, Callable[[Any, Sequence[Any], random.Random], Any]] = {"keen": keen}
"""The family's own players, by the names of :data:`regelverk.policies.POLICIES`."""
