"""Verdicts: the referee's answer in a player's words, one vocabulary for every output.

A ruling (:class:`regelverk.engine.Ruling`) says whether an attempt is ``allowed``; players need
more than yes or no: a move against the rules may stand until someone challenges it, a mistake
may be penalised or simply taken back, the answer may turn on how an unclear rule is read, or on
cards nobody sees. :class:`Verdict` names each of these once, with a stable token for machines
(the ``verdict`` field of ``regelverk ask --json``) and the short phrase a player reads first
(``regelverk ask`` and the rulebook's pages begin every ruling with it). Each phrase is true on
its own: read without the rest of the ruling, it does not mislead.

:func:`verdict_of` derives the verdict of one ruling from what the engine decided (allowed or
not, whether the position changed, the events); :func:`overall` gives the answer's verdict when
the readings of an unclear rule disagree; :func:`unseen` the verdict on a position with unknown
cards.

>>> Verdict.STANDS_UNLESS_CHALLENGED.token
'stands-unless-challenged'
>>> Verdict.STANDS_UNLESS_CHALLENGED.phrase
'Against the rules, but it stands unless challenged'
>>> Verdict.from_token("refused") is Verdict.REFUSED
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any

from regelverk.engine import Ruling

__all__ = [
    "STANDS_UNLESS_CHALLENGED_EVENTS",
    "Verdict",
    "first_words",
    "overall",
    "unseen",
    "verdict_of",
]


class Verdict(enum.Enum):
    """What the referee answers, in a player's words: each verdict has a stable ``token`` (its
    value, the ``verdict`` of ``--json``), the ``phrase`` a ruling begins with, and its meaning
    (its docstring).

    The ``allowed`` field that answers carried before verdicts existed is kept beside the
    ``verdict`` for compatibility: it is true for a legal move and for a move that the engine
    plays on although it breaks a rule (UNO's unchallenged Wild Draw Four), false otherwise.
    """

    _value_: str
    phrase: str
    """The words a ruling begins with, true on their own."""

    ALLOWED = (
        "allowed",
        "Allowed",
        "A legal move: the rules allow it, and it is played as made.",
    )
    STANDS_UNLESS_CHALLENGED = (
        "stands-unless-challenged",
        "Against the rules, but it stands unless challenged",
        "A move that breaks a rule, which the rulebook lets stand until someone challenges it: "
        "UNO's Wild Draw Four laid while holding a card of the current colour "
        "(UNO-WD4-CONDITION, UNO-WD4-CHALLENGE-EXISTS); vvv8's utgång called without a real "
        "chance, void, and penalised only once caught (V8-PEN-FALSE-CALL-CAUGHT).",
    )
    PENALISED = (
        "penalised",
        "Not allowed: a mistake the rulebook penalises",
        "A mistake the rulebook answers with a penalty: penalty cards dealt, a wrong card taken "
        "back, a card drawn too many kept but locked, an early card held for the dealer's "
        "choice (vvv8's Brott och straff, 000 §3). The ruling says what the penalty is.",
    )
    REFUSED = (
        "refused",
        "Not allowed: taken back, without penalty",
        "A mistake refused outright: the move is taken back and nothing else happens (every "
        "mistake under a rulebook without penalties, and those vvv8 does not penalise).",
    )
    DEPENDS_ON_READING = (
        "depends-on-reading",
        "It depends on how the rules are read",
        "The readings of an unclear rule (the ambiguity register) give different verdicts: the "
        "ruling under the readings the question takes comes first, then what the others give.",
    )
    ALWAYS = (
        "always",
        "Always allowed",
        "A position with unknown cards: allowed in every way they can lie (in every way "
        "tried, when there are too many to try them all).",
    )
    NEVER = (
        "never",
        "Never allowed",
        "A position with unknown cards: not allowed in any way they can lie (in any way "
        "tried, when there are too many); how it is not allowed may differ.",
    )
    DEPENDS_ON_UNSEEN_CARDS = (
        "depends",
        "It depends on the unknown cards",
        "A position with unknown cards: allowed in some ways they can lie and not in others.",
    )
    CANNOT_OCCUR = (
        "cannot-occur",
        "The position cannot occur",
        "Under a reading, an earlier action of the question is refused, so the position asked "
        "about is never reached; or the ruling leaves a position that breaks an invariant of "
        "the game.",
    )

    def __new__(cls, token: str, phrase: str, meaning: str) -> Verdict:
        member = object.__new__(cls)
        member._value_ = token
        member.phrase = phrase
        member.__doc__ = meaning
        return member

    @property
    def token(self) -> str:
        """The stable token of ``--json`` (the member's value)."""
        return self._value_

    @classmethod
    def from_token(cls, token: str) -> Verdict:
        """The verdict of a ``--json`` token; :class:`ValueError` names the tokens there are."""
        for verdict in cls:
            if verdict.token == token:
                return verdict
        tokens = ", ".join(v.token for v in cls)
        raise ValueError(f"{token!r} is no verdict; the verdicts are {tokens}")


STANDS_UNLESS_CHALLENGED_EVENTS: Mapping[str, frozenset[str]] = {
    "uno": frozenset({"bluff"}),
    "vandatta": frozenset({"false-call"}),
}
"""By game family, the kinds of event with which the engine marks a move that breaks a rule
but stands unless challenged: UNO's Wild Draw Four played against its condition
(UNO-WD4-CHALLENGE-EXISTS), Vändåtta's false utgång left void until caught
(V8-PEN-FALSE-CALL-CAUGHT)."""


def verdict_of(
    family: str, before: Any, ruling: Ruling[Any], problems: Iterable[str] = ()
) -> Verdict:
    """The verdict of ``ruling`` on an attempt made in the state ``before`` by a game of
    ``family``, given the invariants its resulting state breaks (``problems``).

    Not checked: that ``ruling`` was made in ``before``."""
    if tuple(problems):
        return Verdict.CANNOT_OCCUR
    marked = STANDS_UNLESS_CHALLENGED_EVENTS.get(family, frozenset())
    if any(event.kind in marked for event in ruling.events):
        return Verdict.STANDS_UNLESS_CHALLENGED
    if ruling.allowed:
        return Verdict.ALLOWED
    return Verdict.REFUSED if ruling.state == before else Verdict.PENALISED


def overall(asked: Verdict, readings: Iterable[Verdict]) -> Verdict:
    """The answer's verdict: ``asked`` (the ruling under the readings the question takes),
    unless another reading gives another verdict."""
    return asked if all(v is asked for v in readings) else Verdict.DEPENDS_ON_READING


def first_words(answer: Mapping[str, Any]) -> str:
    """The words a ruling in ``--json`` form (``verdict``, ``verdict_as_asked``, ``readings``)
    begins with, in ``regelverk ask`` and on the rulebook's pages: its verdict's phrase; where
    the readings disagree, that first, then the verdict under the readings the question takes
    (by default, or as the question's options read the rules).

    >>> first_words({"verdict": "refused", "verdict_as_asked": "refused"})
    'Not allowed: taken back, without penalty'
    >>> asked = {"asked": True, "default": True}
    >>> first_words({"verdict": "depends-on-reading", "verdict_as_asked": "refused",
    ...              "readings": [asked]})
    'It depends on how the rules are read; by default, not allowed: taken back, without penalty'
    """
    verdict = Verdict.from_token(answer["verdict"])
    asked = Verdict.from_token(answer.get("verdict_as_asked", answer["verdict"]))
    if verdict is asked:
        return asked.phrase
    taken = [r for r in answer.get("readings", []) if r.get("asked")]
    how = "by default" if all(r["default"] for r in taken) else "as the question reads them"
    return f"{verdict.phrase}; {how}, {asked.phrase[:1].lower()}{asked.phrase[1:]}"


def unseen(verdicts: Iterable[Verdict]) -> Verdict:
    """The verdict on a position with unknown cards, from the verdicts of the ways they lie."""
    allowed = {v is Verdict.ALLOWED for v in verdicts}
    if allowed == {True}:
        return Verdict.ALWAYS
    return Verdict.DEPENDS_ON_UNSEEN_CARDS if True in allowed else Verdict.NEVER


def _listing() -> str:
    """The vocabulary as a reStructuredText list (token, phrase, meaning), added to
    :class:`Verdict`'s docstring, which the rulebook's page on asking shows: generated from the
    members, so the page cannot drift from the code."""
    rows = [f"* ``{v.token}``: **{v.phrase}.** {v.__doc__}" for v in Verdict]
    return "\n\n    The verdicts, each with its token and the words a ruling begins with:\n\n" + (
        "\n".join(f"    {row}" for row in rows) + "\n"
    )


Verdict.__doc__ = (Verdict.__doc__ or "").rstrip() + _listing()
