"""regelverk: four Scandinavian card-game rulebooks as data, a referee, and proofs.

The rules of each text are clauses with stable ids (:mod:`regelverk.registry`); the cards of
every deck the games use are in :mod:`regelverk.cards`; the trace (:mod:`regelverk.trace`) links
each clause to the code, tests and proofs behind it; ``regelverk`` on the command line reads them
all (:mod:`regelverk.cli`).
"""

from __future__ import annotations

__version__ = "0.1.0"
