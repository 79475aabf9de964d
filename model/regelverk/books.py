"""The rulebooks: one name each, one descriptor each, and the one line that registers them.

Every list of rulebooks in the project (the command line's choices, the clause registry, the
referee, the proofs, the mutation catalogue, the docs, the benchmarks and the tests) reads
:data:`RULEBOOKS` or :func:`rulebook` here; none keeps a list of its own.

A rulebook is served by an engine *family*: a subpackage ``regelverk.<family>`` whose module
``book`` holds ``BOOKS``, the :class:`Rulebook` descriptors of the rulebooks it serves, and
which imports nothing but this module (so reading a descriptor never loads an engine). Adding
a rulebook is a new family package (or a new preset of one) with its ``book`` module and its
``spec/<name>.toml``, and its name added to :data:`RulebookName`: that line is the registration.

>>> RULEBOOKS[:2], rulebook("viggo").prefix, rulebook("vvv8").family
(('vvv8', 'vandatta'), 'VG', 'vandatta')
"""

from __future__ import annotations

import functools
import importlib
import os
from dataclasses import dataclass
from typing import Literal, get_args

from regelverk.errors import RegelverkError, UnknownRulebookError

__all__ = [
    "RULEBOOKS",
    "CardNotation",
    "Counted",
    "Outcome",
    "Rulebook",
    "RulebookError",
    "RulebookName",
    "descriptors",
    "families",
    "rulebook",
]

RulebookName = Literal["vvv8", "vandatta", "viggo", "uno"]
"""The registered rulebooks, in the order the project shows them (that of their seed texts)."""

RULEBOOKS: tuple[RulebookName, ...] = get_args(RulebookName)
"""The names of :data:`RulebookName`, as a tuple."""

CardNotation = Literal["french", "uno"]
"""How a rulebook's cards are written: ``8♦`` / ``8D`` (:func:`regelverk.cards.parse_card`) or
UNO's ``R5``, ``W+4`` (:func:`regelverk.cards.parse_uno_card`)."""

Counted = Literal["wins", "losses"]
"""What a rulebook's simulation plots count per seat: who wins, or (Viggo, vvv8) who loses."""

Outcome = Literal["game", "deal"]
"""What one result of a rulebook's simulation is: a game, or (vvv8) each official deal of the
session, which has exactly one winner and one loser."""


class RulebookError(RegelverkError):
    """The rulebooks described (``regelverk.<family>.book``) and registered
    (:data:`RulebookName`) do not agree."""


@dataclass(frozen=True, slots=True)
class Rulebook:
    """What the project needs to know about one rulebook, in one place.

    The engine is ``regelverk.<family>``'s ``GAME``; the rulebook's preset of its options is
    ``GAME.options(name)``; its clauses are in ``spec/<name>.toml``; its question-file page is
    ``docs/ask/<family>.rst``.
    """

    name: RulebookName
    """The rulebook's id, as in ``spec/<name>.toml``'s ``[rulebook]`` table."""
    title: str
    """The name players know it by."""
    prefix: str
    """The prefix of every clause id of the rulebook (``V8-…``)."""
    family: str
    """The engine package under ``regelverk`` that serves it."""
    seats: tuple[int, ...]
    """The player counts the invariant checks play: every count the rulebook allows up to six
    (Viggo allows two to four; Vändåtta and UNO allow more: seven and up play like six, only
    with longer waits for a turn). A count the options refuse (six at vvv8's coffee break of at
    most five, say) is refused by the deal, with the clause, and counted as such."""
    cards: CardNotation
    """How its cards are written in ``spec/`` and in question files."""
    leftover: tuple[str, ...]
    """The position fields holding the cards a position does not place (stock, draw pile,
    cards set aside): where the unknown cards of a partial position come from."""
    proofs: tuple[str, ...]
    """The modules of ``regelverk_proofs`` whose theorems and scenarios are about it."""
    counted: Counted = "wins"
    """What its seat plot counts."""
    outcome: Outcome = "game"
    """What one result its simulations count is: a whole game, or (vvv8, whose session is
    about who loses each deal and never has to end) each official deal."""
    given_deal: str | None = None
    """Why a question may not give the cards of a deal, for a family whose deal is not one
    step the referee rules on (``None``: it may)."""

    @property
    def spec_file(self) -> str:
        """The file of its clauses, under ``spec/``."""
        return f"{self.name}.toml"


def _family_names() -> tuple[str, ...]:
    """The subpackages of ``regelverk`` that have a ``book`` module, in name order (read from
    the folder the package is installed in: cheaper than :mod:`importlib.resources`)."""
    root = os.path.dirname(__file__)
    return tuple(
        sorted(
            entry.name
            for entry in os.scandir(root)
            if entry.is_dir() and os.path.isfile(os.path.join(entry.path, "book.py"))
        )
    )


@functools.cache
def families() -> dict[str, tuple[Rulebook, ...]]:
    """Each engine family and the descriptors of the rulebooks it serves (its ``book.BOOKS``),
    in the order of their first rulebook in :data:`RULEBOOKS`."""
    found: dict[str, tuple[Rulebook, ...]] = {}
    for family in _family_names():
        books = importlib.import_module(f"regelverk.{family}.book").BOOKS
        for book in books:
            if book.family != family:
                raise RulebookError(
                    f"regelverk.{family}.book describes {book.name} of {book.family}"
                )
        found[family] = tuple(books)
    return dict(sorted(found.items(), key=lambda item: _first_registered(item[1])))


def _first_registered(books: tuple[Rulebook, ...]) -> int:
    """Where the first of ``books`` stands in :data:`RULEBOOKS` (after them all if nowhere)."""
    places = [RULEBOOKS.index(b.name) for b in books if b.name in RULEBOOKS]
    return min(places, default=len(RULEBOOKS))


@functools.cache
def descriptors() -> dict[str, Rulebook]:
    """Every registered rulebook's descriptor, in :data:`RULEBOOKS` order; an error if a
    descriptor's name is not registered or a registered name has no descriptor."""
    found: dict[str, Rulebook] = {}
    for book in (b for books in families().values() for b in books):
        if book.name in found:
            raise RulebookError(f"two descriptors of the rulebook {book.name}")
        found[book.name] = book
    stray = sorted(set(found) - set(RULEBOOKS))
    missing = [name for name in RULEBOOKS if name not in found]
    if stray or missing:
        raise RulebookError(
            "the rulebooks described (regelverk.<family>.book) and registered (RulebookName) "
            f"differ: described only: {', '.join(stray) or 'none'}; registered only: "
            f"{', '.join(missing) or 'none'}"
        )
    return {name: found[name] for name in RULEBOOKS}


def rulebook(name: str) -> Rulebook:
    """The descriptor of the rulebook ``name``, or :class:`UnknownRulebookError` naming the
    nearest registered one."""
    if name not in RULEBOOKS:
        raise UnknownRulebookError(name, RULEBOOKS)
    return descriptors()[name]
