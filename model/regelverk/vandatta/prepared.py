"""The readings of one options object, decided once: what ``legal_actions`` asks at every step.

An options object is frozen, so whatever the rules say that depends on the options alone (and
on the card to play on) can be worked out once per options object and looked up afterwards,
instead of branching on the options again for every card of every hand. :func:`prepared` keeps
one :class:`Prepared` per options object, found by identity; each answer it holds is computed by
the very rule functions that judge a single card (:func:`~regelverk.vandatta.rules.plain_fits`),
so a lookup can never disagree with them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

from regelverk.cards import Card, Suit, french_deck
from regelverk.memo import by_identity
from regelverk.vandatta.options import (
    GoOutCall,
    LappenOmission,
    LastHandCardLocked,
    MultiCardPlay,
    RealChanceTest,
    RestartFallback,
    SeveralEights,
    VandattaOptions,
    VarningOmission,
    VoluntaryDraw,
)

__all__ = ["Prepared", "prepared"]

_Judge = Callable[[VandattaOptions, Card, Card | None, Suit | None], bool]
"""A rule deciding whether a card may begin a play on a top card with a suit named."""

_FACES = french_deck(1)
"""Every face once: the cards a fit is worked out for."""


class Prepared:
    """What one options object's readings decide, worked out once (see :func:`prepared`)."""

    __slots__ = (
        "_fits",
        "_judges",
        "calls_listed",
        "few_calls",
        "options",
        "plain_singles",
        "utgang",
        "voluntary",
    )

    def __init__(self, options: VandattaOptions) -> None:
        self.options = options
        self._fits: dict[tuple[int, int], frozenset[int]] = {}
        self._judges: tuple[object, ...] = ()
        self.utgang = options.go_out_call is GoOutCall.UTGANG
        """vvv8's utgång is the table's call (else vandatta's LAPPEN)."""
        self.calls_listed = (
            self.utgang
            or _lappen_left_to_player(options.lappen_omission)
            or _varning_left_to_player(options.varning_omission)
        )
        """A turn's last action is listed with and without a call (utgång, or a vandatta call
        the engine leaves to the player)."""
        self.plain_singles = _single_needs_no_restart(
            options.restart_fallback
        ) and _last_card_may_stay(options.last_hand_card_locked)
        """A one-card play that fits and does not empty the holding is never refused (no
        restart card needed, no emptied hand treated as a going out)."""
        self.few_calls = (
            self.utgang
            and options.real_chance_test is RealChanceTest.ONE_TURN_PLAYABLE
            and options.several_eights is SeveralEights.ONE_AT_A_TIME
            and options.multi_card_play is MultiCardPlay.SAME_RANK_ONLY
        )
        """A play lays cards of one rank or one eight, and a real chance needs no eight and the
        non-aces of one rank: so a hand (without penalty cards) holding two eights, or three
        ranks besides aces and eights, can make no call with any play."""
        self.voluntary = options.voluntary_draw is VoluntaryDraw.NEVER_OBLIGED
        """Nobody is obliged to lay a card (vvv8): every player counts as stuck."""

    def fitting_faces(
        self, top: Card | None, named: Suit | None, judges: tuple[_Judge, *tuple[object, ...]]
    ) -> frozenset[int]:
        """The ``id`` of every face that may begin a play on ``top`` with ``named`` named, in an
        ordinary turn (no restart, no free lead, no open start eight): computed once per pair by
        ``judges[0]`` (:func:`~regelverk.vandatta.rules.plain_fits`). ``judges`` are that
        function and the rule functions it asks: should any of them be another function than
        the faces were worked out with (a test breaking a rule on purpose), they are worked out
        anew."""
        if judges != self._judges:
            self._fits.clear()
            self._judges = judges
        key = (id(top), id(named))
        found = self._fits.get(key)
        if found is None:
            judge = judges[0]
            found = frozenset(id(card) for card in _FACES if judge(self.options, card, top, named))
            self._fits[key] = found
        return found


def _lappen_left_to_player(omission: LappenOmission) -> bool:
    """Whether saying LAPPEN is left to the player, so that a turn's last action is listed with
    and without it (VA-AMB-LAPPEN-FORGOTTEN): every reading but enforce-no-penalty, under which
    the referee has the call made."""
    match omission:
        case LappenOmission.ENFORCE_NO_PENALTY:
            return False
        case LappenOmission.NO_GO_OUT | LappenOmission.WIN_STANDS:
            return True
        case _:
            assert_never(omission)


def _varning_left_to_player(omission: VarningOmission) -> bool:
    """Whether saying varning is left to the player (VA-AMB-VARNING-FORGOTTEN): only under
    three-cards, where leaving it unsaid costs cards; under enforce-no-penalty the referee has
    the call made, and under ignore a missing call changes nothing."""
    match omission:
        case VarningOmission.THREE_CARDS:
            return True
        case VarningOmission.ENFORCE_NO_PENALTY | VarningOmission.IGNORE:
            return False
        case _:
            assert_never(omission)


def _single_needs_no_restart(fallback: RestartFallback) -> bool:
    """Whether a one-card play that fits is never refused for want of a card to restart with
    (VA-AMB-RESTART-WITHOUT-SUIT): every reading but ace-needs-follow, under which an ace or an
    eight may be laid only with such a card in hand."""
    match fallback:
        case RestartFallback.ACE_NEEDS_FOLLOW:
            return False
        case RestartFallback.EIGHT_OR_DRAW | RestartFallback.ANY_CARD:
            return True
        case _:
            assert_never(fallback)


def _last_card_may_stay(locked: LastHandCardLocked) -> bool:
    """Whether the last hand card may be laid while penalty cards are locked without counting as
    a going out (V8-AMB-EMPTY-HAND-WITH-PENALTY-CARDS)."""
    match locked:
        case LastHandCardLocked.ALLOWED_NOT_OUT:
            return True
        case LastHandCardLocked.TREATED_AS_GOING_OUT:
            return False
        case _:
            assert_never(locked)


prepared = by_identity(Prepared, limit=64)
"""The :class:`Prepared` readings of an options object, built once per options object."""
