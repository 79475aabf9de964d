"""The exceptions regelverk raises: one type per kind of failure, each a :class:`ValueError`.

Every message is a whole sentence that names the bad input and where it was found, so that the
command line can print it as it is, without a traceback.
"""

from __future__ import annotations

__all__ = [
    "CardError",
    "DeckError",
    "RegelverkError",
    "SpecError",
    "UnknownClauseError",
    "UnknownRulebookError",
]


class RegelverkError(ValueError):
    """The base of every error regelverk raises on bad input."""


class CardError(RegelverkError):
    """A card written in notation that does not parse, or a card that cannot exist."""


class DeckError(RegelverkError):
    """A deck asked for that no rulebook uses (a bad count of decks or extra cards)."""


class SpecError(RegelverkError):
    """The rules data in ``spec/`` breaks its format; ``problems`` lists every fault found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = tuple(problems)
        count = len(self.problems)
        head = f"the rules data has {count} problem{'s' if count != 1 else ''}:"
        super().__init__("\n  ".join([head, *self.problems]))


class UnknownClauseError(RegelverkError, KeyError):
    """A clause id (or ambiguity, note or example id) that ``spec/`` does not define."""

    def __init__(self, ident: str, suggestions: tuple[str, ...] = ()) -> None:
        self.ident = ident
        self.suggestions = suggestions
        hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"{ident!r} is not an id defined in spec/{hint}")

    def __str__(self) -> str:
        return str(self.args[0])


class UnknownRulebookError(RegelverkError, KeyError):
    """A rulebook id that is not registered (:data:`regelverk.books.RULEBOOKS`)."""

    def __init__(self, ident: str, known: tuple[str, ...]) -> None:
        import difflib  # only for the message of a fault

        self.ident = ident
        near = difflib.get_close_matches(str(ident).lower(), known, n=1, cutoff=0.5)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        super().__init__(f"{ident!r} is not a rulebook{hint}; the rulebooks are {', '.join(known)}")

    def __str__(self) -> str:
        return str(self.args[0])
