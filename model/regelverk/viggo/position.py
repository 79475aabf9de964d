"""Viggo positions and actions as plain data (JSON or TOML), for ``regelverk ask``.

The format is documented, with worked question files, on the rulebook's question-file page.
Every bad field raises :class:`~regelverk.engine.PositionError` or
:class:`~regelverk.engine.ActionError` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regelverk.cards import Card, french_deck, missing_and_extra, parse_card, parse_cards
from regelverk.engine import ActionError, PositionError, position_seed
from regelverk.errors import CardError
from regelverk.viggo.combos import describe
from regelverk.viggo.options import ViggoOptions
from regelverk.viggo.rounds import before, sort_hand
from regelverk.viggo.state import Keep, Laid, Pass, Phase, Play, ViggoAction, ViggoState

__all__ = ["action_from_data", "action_to_data", "position_from_data", "position_to_data"]


def _codes(cards: tuple[Card, ...]) -> list[str]:
    return [c.code for c in cards]


def position_to_data(state: ViggoState) -> dict[str, Any]:
    """A state as plain data that :func:`position_from_data` reads back."""
    names = state.players
    data: dict[str, Any] = {
        "players": list(names),
        "seed": state.seed,
        "round": state.round,
        "phase": state.phase.value,
        "dealer": names[state.dealer],
        "first_hand": names[state.first_hand],
        "turn": names[state.turn],
        "hands": {names[s]: _codes(h) for s, h in enumerate(state.hands)},
        "trick": [{"player": names[t.seat], "cards": _codes(t.cards)} for t in state.trick],
        "passed": [names[s] for s in sorted(state.passed)],
        "highest": names[state.highest] if state.highest >= 0 else None,
        "replies": state.replies,
        "set_aside": _codes(state.set_aside),
        "out_of_play": _codes(state.put_away),
        "stock": _codes(state.stock),
        "scores": {names[s]: p for s, p in enumerate(state.scores)},
        "history": [list(row) for row in state.history],
    }
    if state.phase is Phase.OVER:
        data["losers"] = [names[s] for s in state.losers]
        data["winners"] = [names[s] for s in state.winners]
    return data


def _get(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], default: Any) -> Any:
    if name not in data:
        if default is _REQUIRED:
            raise PositionError(f"the position has no field {name!r}")
        return default
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise PositionError(f"the position's {name!r} has the wrong form: {value!r}")
    return value


_REQUIRED = object()


def _seat(players: tuple[str, ...], value: Any, field: str) -> int:
    if value not in players:
        raise PositionError(f"{field!r} is {value!r}, which is none of the players {list(players)}")
    return players.index(value)


def _cards(value: Any, field: str) -> tuple[Card, ...]:
    if not isinstance(value, list | str):
        raise PositionError(f"{field!r} must be a list of cards such as ['5C', '5D']")
    try:
        return parse_cards(value)
    except CardError as error:
        raise PositionError(f"{field!r}: {error}") from None


def _players(data: Mapping[str, Any]) -> tuple[str, ...]:
    raw = _get(data, "players", list, _REQUIRED)
    if not all(isinstance(p, str) and p for p in raw) or len(set(raw)) != len(raw):
        raise PositionError("'players' must name each player once, as text")
    if not 2 <= len(raw) <= 4:
        raise PositionError(
            f"'players' names {len(raw)}; Viggo is played by two to four "
            "(VG-SETUP-TWO-TO-FOUR-PLAYERS)"
        )
    return tuple(raw)


def _trick(data: Mapping[str, Any], players: tuple[str, ...]) -> tuple[Laid, ...]:
    trick = []
    for number, raw in enumerate(_get(data, "trick", list, []), 1):
        if not isinstance(raw, dict):
            raise PositionError(f"trick[{number}] must be a table with 'player' and 'cards'")
        seat = _seat(players, raw.get("player"), f"trick[{number}].player")
        trick.append(Laid(seat=seat, cards=_cards(raw.get("cards"), f"trick[{number}].cards")))
    return tuple(trick)


def _scores(data: Mapping[str, Any], players: tuple[str, ...]) -> tuple[int, ...]:
    raw = _get(data, "scores", dict, {})
    for name, value in raw.items():
        _seat(players, name, "scores")
        if not isinstance(value, int) or isinstance(value, bool):
            raise PositionError(f"scores.{name} must be a whole number, not {value!r}")
    return tuple(int(raw.get(p, 0)) for p in players)


def _history(data: Mapping[str, Any], scores: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    raw = _get(data, "history", list, None)
    if raw is None:
        return (scores,) if any(scores) else ()
    rows = []
    for number, row in enumerate(raw, 1):
        if not isinstance(row, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in row
        ):
            raise PositionError(f"history[{number}] must be a list of whole numbers")
        rows.append(tuple(row))
    return tuple(rows)


def position_from_data(data: Mapping[str, Any], options: ViggoOptions) -> ViggoState:
    """Build a state from plain data; cards not placed anywhere are taken as set aside in
    earlier tricks (or, in the draft, as put away)."""
    players = _players(data)
    raw_phase = _get(data, "phase", str, "play")
    try:
        phase = Phase(raw_phase)
    except ValueError:
        raise PositionError(f"'phase' is {raw_phase!r}; it must be draft, play or over") from None
    count = len(players)
    first = _seat(players, _get(data, "first_hand", str, players[0]), "first_hand")
    default_dealer = players[before(options, count, first)]
    dealer = _seat(players, _get(data, "dealer", str, default_dealer), "dealer")
    turn = _seat(players, _get(data, "turn", str, _REQUIRED), "turn")
    raw_hands = _get(data, "hands", dict, _REQUIRED)
    for name in raw_hands:
        _seat(players, name, "hands")
    hands = tuple(sort_hand(_cards(raw_hands.get(p, []), f"hands.{p}")) for p in players)
    trick = _trick(data, players)
    passed = frozenset(_seat(players, p, "passed") for p in _get(data, "passed", list, []))
    raw_highest = _get(data, "highest", (str, type(None)), None)
    if raw_highest is None:
        highest = trick[-1].seat if trick else -1
    else:
        highest = _seat(players, raw_highest, "highest")
    replies = _get(data, "replies", int, max(len(trick) - 1, 0) + len(passed))
    stock = _cards(_get(data, "stock", list, []), "stock")
    scores = _scores(data, players)
    placed = [*hands, stock, *(t.cards for t in trick)]
    set_aside = _cards(_get(data, "set_aside", list, []), "set_aside")
    put_away = _cards(_get(data, "out_of_play", list, []), "out_of_play")
    rest, _ = missing_and_extra(french_deck(), [*placed, set_aside, put_away])
    leftover = sort_hand(list(rest.elements()))
    if phase is Phase.PLAY and "set_aside" not in data:
        set_aside = leftover
    elif "out_of_play" not in data:
        put_away = leftover
    losers = tuple(_seat(players, p, "losers") for p in _get(data, "losers", list, []))
    winners = tuple(_seat(players, p, "winners") for p in _get(data, "winners", list, []))
    return ViggoState(
        options=options,
        players=players,
        seed=position_seed(data),
        round=_get(data, "round", int, 1),
        phase=phase,
        dealer=dealer,
        first_hand=first,
        turn=turn,
        hands=hands,
        stock=stock,
        put_away=put_away,
        trick=trick,
        passed=passed,
        highest=highest,
        replies=replies,
        set_aside=set_aside,
        scores=scores,
        history=_history(data, scores),
        losers=losers,
        winners=winners,
    )


def action_to_data(action: ViggoAction) -> dict[str, Any]:
    """An action as plain data that :func:`action_from_data` reads back."""
    if isinstance(action, Play):
        data: dict[str, Any] = {"action": "play", "cards": _codes(action.cards)}
    elif isinstance(action, Pass):
        data = {"action": "pass"}
    else:
        data = {"action": "keep", "card": action.card.code}
    if action.player is not None:
        data["player"] = action.player
    return data


def action_from_data(data: Mapping[str, Any], state: ViggoState) -> ViggoAction:
    """Read ``{"action": "play", "cards": [...]}``, ``{"action": "pass"}`` or
    ``{"action": "keep", "card": "7H"}`` (or ``"which": "seen"`` / ``"other"`` in the draft),
    each with an optional ``"player"``."""
    kind = data.get("action")
    player = data.get("player")
    if player is not None and player not in state.players:
        raise ActionError(f"'player' is {player!r}, which is none of {list(state.players)}")
    if kind == "pass":
        return Pass(player=player)
    if kind == "play":
        raw = data.get("cards")
        if not isinstance(raw, list | str) or not raw:
            raise ActionError("a play needs 'cards', a list of cards such as ['5C', '5D']")
        try:
            cards = parse_cards(raw)
        except CardError as error:
            raise ActionError(f"'cards': {error}") from None
        if len(set(cards)) != len(cards):
            raise ActionError(f"'cards' names a card twice: {describe(cards)}")
        return Play(cards=cards, player=player)
    if kind == "keep":
        return Keep(card=_kept(data, state), player=player)
    raise ActionError(f"'action' is {kind!r}; it must be 'play', 'pass' or 'keep'")


def _kept(data: Mapping[str, Any], state: ViggoState) -> Card:
    which = data.get("which")
    if which is not None:
        if which not in ("seen", "other") or len(state.stock) < 2:
            raise ActionError("'which' must be 'seen' or 'other', during the draft")
        return state.stock[0] if which == "seen" else state.stock[1]
    raw = data.get("card")
    if not isinstance(raw, str):
        raise ActionError("a keep needs 'card' (such as '7H') or 'which' ('seen' or 'other')")
    try:
        return parse_card(raw)
    except CardError as error:
        raise ActionError(f"'card': {error}") from None
