"""Positions and actions as plain data, for ``regelverk ask``.

The format is documented on the rulebook's page for asking UNO questions. In short: players by
name, hands by player, the discard pile with its top card last, the draw pile with its next card
first (leave it out to have the rest of the pack shuffled by ``seed``), the colour, whose turn it
is and what he must decide (``phase``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from regelverk.cards import Colour, UnoCard, UnoValue, missing_and_extra, parse_uno_card
from regelverk.engine import ActionError, Outcome, PositionError, position_seed
from regelverk.errors import CardError
from regelverk.marks import implements
from regelverk.uno.actions import deal_hand
from regelverk.uno.options import UnoOptions
from regelverk.uno.rules import COLOUR_NAMES, HAND_SIZE, deck_for
from regelverk.uno.state import (
    Action,
    CallUno,
    Catch,
    Challenge,
    Direction,
    Draw,
    NameColour,
    Pass,
    Phase,
    Play,
    UnoState,
    WildDrawFour,
)

__all__ = [
    "action_from_data",
    "action_to_data",
    "deal_from_data",
    "parse_colour",
    "position_from_data",
    "position_to_data",
]

_COLOUR_WORDS = {name: colour for colour, name in COLOUR_NAMES.items()} | {
    c.value.lower(): c for c in Colour
}


def parse_colour(text: object, where: str) -> Colour:
    """A colour from ``R``/``red`` (any case); :class:`PositionError` names ``where``.

    >>> parse_colour("Green", "colour")
    Colour.GREEN
    """
    if isinstance(text, str) and text.strip().lower() in _COLOUR_WORDS:
        return _COLOUR_WORDS[text.strip().lower()]
    raise PositionError(
        f"{where} must be a colour (red, yellow, green, blue or R, Y, G, B), not {text!r}"
    )


def _card(text: object, where: str) -> UnoCard:
    try:
        return parse_uno_card(text)  # type: ignore[arg-type]
    except CardError as error:
        raise PositionError(f"{where}: {error}") from None


def _cards(raw: object, where: str) -> tuple[UnoCard, ...]:
    if isinstance(raw, str):
        raw = raw.replace(",", " ").split()
    if not isinstance(raw, list | tuple):
        raise PositionError(f'{where} must be a list of cards such as ["R5", "W+4"], not {raw!r}')
    return tuple(_card(item, f"{where}[{i}]") for i, item in enumerate(raw))


def _seat(players: Sequence[str], raw: object, where: str) -> int:
    if isinstance(raw, str) and raw in players:
        return players.index(raw)
    raise PositionError(f"{where} must name a player ({', '.join(players)}), not {raw!r}")


def _int(data: Mapping[str, Any], key: str, default: int) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise PositionError(f"{key!r} must be a whole number of at least 0, not {value!r}")
    return value


def _enum(
    kind: type[Direction] | type[Phase], raw: object, where: str, names: Mapping[str, Any]
) -> Any:
    if isinstance(raw, str) and raw.lower() in names:
        return names[raw.lower()]
    raise PositionError(f"{where} must be one of {', '.join(names)}, not {raw!r}")


_DIRECTIONS = {
    "left": Direction.LEFT,
    "clockwise": Direction.LEFT,
    "right": Direction.RIGHT,
    "counter-clockwise": Direction.RIGHT,
}
_PHASES = {p.value: p for p in Phase}


def _players(data: Mapping[str, Any]) -> tuple[str, ...]:
    raw = data.get("players")
    if not isinstance(raw, list) or not all(isinstance(p, str) and p for p in raw):
        raise PositionError(f"'players' must be a list of names, not {raw!r}")
    if len(set(raw)) != len(raw):
        raise PositionError("'players' names someone twice")
    if not 2 <= len(raw) <= 10:
        raise PositionError(
            f"'players' must name 2 to 10 players (UNO-SETUP-PLAYERS), not {len(raw)}"
        )
    return tuple(raw)


def _hands(data: Mapping[str, Any], players: tuple[str, ...]) -> tuple[tuple[UnoCard, ...], ...]:
    raw = data.get("hands")
    if not isinstance(raw, dict):
        raise PositionError("'hands' must be a table of each player's cards by name")
    unknown = [k for k in raw if k not in players]
    if unknown:
        raise PositionError(f"'hands' names {unknown[0]!r}, who is not among the players")
    missing = [p for p in players if p not in raw]
    if missing:
        raise PositionError(f"'hands' has no entry for {missing[0]!r}")
    return tuple(_cards(raw[p], f"hands.{p}") for p in players)


def _scores(data: Mapping[str, Any], players: tuple[str, ...]) -> tuple[int, ...]:
    raw = data.get("scores", {})
    if not isinstance(raw, dict) or any(k not in players for k in raw):
        raise PositionError("'scores' must be a table of points by player name")
    scores = []
    for p in players:
        value = raw.get(p, 0)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise PositionError(f"scores.{p} must be a whole number of points, not {value!r}")
        scores.append(value)
    return tuple(scores)


def position_from_data(data: Mapping[str, Any], options: UnoOptions) -> UnoState:
    """Build a state from plain data; :class:`PositionError` names the bad field."""
    if not isinstance(data, Mapping):
        raise PositionError("a position must be a table")
    players = _players(data)
    hands = _hands(data, players)
    discard = _cards(data.get("discard"), "discard")
    if not discard:
        raise PositionError("'discard' must hold at least the top card")
    seed = position_seed(data)
    if "draw_pile" in data:
        pile = _cards(data["draw_pile"], "draw_pile")
    else:
        missing, extra = missing_and_extra(deck_for(options), [*hands, discard])
        if extra:
            raise PositionError(f"the position holds cards the pack has not: {_listing(extra)}")
        rest = sorted(missing.elements(), key=lambda c: c.code)
        random.Random(f"uno-position/{seed}").shuffle(rest)
        pile = tuple(rest)
    dealer = _seat(players, data.get("dealer", players[0]), "'dealer'")
    turn = _seat(players, data.get("turn"), "'turn'")
    direction = _enum(Direction, data.get("direction", "left"), "'direction'", _DIRECTIONS)
    phase: Phase = _enum(Phase, data.get("phase", "play"), "'phase'", _PHASES)
    top = discard[-1]
    if "colour" in data and data["colour"] is not None:
        colour: Colour | None = parse_colour(data["colour"], "'colour'")
    else:
        colour = top.colour
    after, drawn = _waiting(data, players, hands, discard, dealer=dealer, turn=turn, phase=phase)
    if phase is Phase.NAME_COLOUR and after is None:
        # a first Wild Draw Four laid by the dealer (UNO-AMB-FIRST-WD4-AS-DEALER-PLAY) skips
        # the player after him
        skipped = len(discard) == 1 and top.value is UnoValue.WILD_DRAW_FOUR
        after = (turn + direction * (2 if skipped else 1)) % len(players)
    pending = _int(data, "pending_draw", 2 if phase is Phase.STACK else 0)
    wd4 = None
    if phase is Phase.CHALLENGE:
        wd4 = _wd4(
            data.get("wild_draw_four", {}),
            players=players,
            hands=hands,
            discard=discard,
            turn=turn,
            direction=direction,
        )
    exposed = None
    if data.get("exposed") is not None:
        exposed = _seat(players, data["exposed"], "'exposed'")
    scores = _scores(data, players)
    winners: tuple[int, ...] = ()
    if phase is Phase.GAME_OVER:
        raw_winners = data.get("winners", [])
        if not isinstance(raw_winners, list):
            raise PositionError("'winners' must be a list of names")
        winners = tuple(_seat(players, w, "'winners'") for w in raw_winners)
    return UnoState(
        options=options,
        players=players,
        dealer=dealer,
        hands=hands,
        draw_pile=pile,
        discard=discard,
        colour=colour,
        turn=turn,
        direction=direction,
        phase=phase,
        after=after,
        pending_draw=pending,
        drawn=drawn,
        wild_draw_four=wd4,
        exposed=exposed,
        scores=scores,
        results=_results(data, players, scores),
        winners=winners,
        hand_number=_int(data, "hand_number", 1),
        seed=seed,
        shuffles=_int(data, "shuffles", 0),
    )


@implements("UNO-DEAL-SEVEN", "UNO-SETUP-DISCARD-PILE", "UNO-FIRST-CARD-AS-DEALER-PLAY")
def deal_from_data(data: Mapping[str, Any], options: UnoOptions) -> Outcome[UnoState]:
    """A first hand dealt with given cards: ``players``, ``dealer`` (default the first
    player), seven cards in each of ``hands``, the ``first`` card turned up, optionally the top
    of the ``draw_pile`` below it (top first; the rest of the pack lies below, shuffled by
    ``seed``). The deal goes as the engine deals: seven cards each from the dealer's left, then
    the first card, whose effect 004's first-card table gives (a first Wild Draw Four is sent
    back and another card turned, unless the options read it as the dealer's play)."""
    if not isinstance(data, Mapping):
        raise PositionError("a deal must be a table")
    players = _players(data)
    hands = _hands(data, players)
    for name, hand in zip(players, hands, strict=True):
        if len(hand) != HAND_SIZE:
            raise PositionError(
                f"'hands.{name}' holds {len(hand)} cards: each player is dealt {HAND_SIZE} "
                "(UNO-DEAL-SEVEN)"
            )
    first = _card(data.get("first"), "'first'")
    top = _cards(data.get("draw_pile", []), "draw_pile")
    missing, extra = missing_and_extra(deck_for(options), [*hands, (first,), top])
    if extra:
        raise PositionError(f"the deal holds cards the pack has not: {_listing(extra)}")
    seed = position_seed(data)
    rest = sorted(missing.elements(), key=lambda c: c.code)
    random.Random(f"uno-deal/{seed}").shuffle(rest)
    dealer = _seat(players, data.get("dealer", players[0]), "'dealer'")
    n = len(players)
    dealt = [hands[(dealer + k) % n][r] for r in range(HAND_SIZE) for k in range(1, n + 1)]
    pack = [*dealt, first, *top, *rest]
    return deal_hand(options, players, dealer=dealer, pack=pack, seed=seed)


def _waiting(
    data: Mapping[str, Any],
    players: tuple[str, ...],
    hands: tuple[tuple[UnoCard, ...], ...],
    discard: tuple[UnoCard, ...],
    *,
    dealer: int,
    turn: int,
    phase: Phase,
) -> tuple[int | None, UnoCard | None]:
    """Who acts after the colour is named, and the card just drawn, by phase."""
    after = drawn = None
    if phase is Phase.NAME_COLOUR:
        first_player_names = len(discard) == 1 and turn != dealer
        if "after" in data or first_player_names:
            after = _seat(players, data.get("after", players[turn]), "'after'")
    if phase is Phase.DRAWN:
        if not hands[turn]:
            raise PositionError("'phase' is drawn but the player in turn holds no card")
        drawn = _card(data.get("drawn", hands[turn][-1].code), "'drawn'")
    return after, drawn


def _results(
    data: Mapping[str, Any], players: tuple[str, ...], scores: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """The points of each hand so far; without them, the scores count as one hand's."""
    raw = data.get("results")
    if raw is None:
        return (scores,) if any(scores) else ()
    ok = isinstance(raw, list) and all(
        isinstance(row, list)
        and len(row) == len(players)
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in row)
        for row in raw
    )
    if not ok:
        raise PositionError("'results' must be a list of rows of points, one number per player")
    return tuple(tuple(row) for row in raw)


def _wd4(
    raw: object,
    *,
    players: tuple[str, ...],
    hands: tuple[tuple[UnoCard, ...], ...],
    discard: tuple[UnoCard, ...],
    turn: int,
    direction: Direction,
) -> WildDrawFour:
    if not isinstance(raw, dict):
        raise PositionError("'wild_draw_four' must be a table (player, held, colour_before)")
    n = len(players)
    default_player = players[(turn - direction) % n]
    player = _seat(players, raw.get("player", default_player), "wild_draw_four.player")
    held = _cards(raw["held"], "wild_draw_four.held") if "held" in raw else hands[player]
    if raw.get("colour_before") is not None:
        before: Colour | None = parse_colour(raw["colour_before"], "wild_draw_four.colour_before")
    elif len(discard) >= 2 and discard[-2].colour is not None:
        before = discard[-2].colour
    else:
        raise PositionError(
            "wild_draw_four.colour_before must say which colour was current when the Wild Draw "
            "Four was laid on a wild card"
        )
    return WildDrawFour(player=player, held=held, colour_before=before)


def _listing(counter: Any) -> str:
    return " ".join(sorted(c.code for c in counter.elements()))


def position_to_data(state: UnoState) -> dict[str, Any]:
    """A state as plain data that :func:`position_from_data` reads back."""
    names = state.players
    data: dict[str, Any] = {
        "players": list(names),
        "dealer": names[state.dealer],
        "hands": {names[s]: [c.code for c in h] for s, h in enumerate(state.hands)},
        "discard": [c.code for c in state.discard],
        "draw_pile": [c.code for c in state.draw_pile],
        "colour": COLOUR_NAMES[state.colour] if state.colour else None,
        "direction": "left" if state.direction is Direction.LEFT else "right",
        "turn": names[state.turn],
        "phase": state.phase.value,
        "scores": {names[s]: v for s, v in enumerate(state.scores)},
        "results": [list(row) for row in state.results],
        "hand_number": state.hand_number,
        "seed": state.seed,
        "shuffles": state.shuffles,
        "exposed": None if state.exposed is None else names[state.exposed],
    }
    if state.after is not None:
        data["after"] = names[state.after]
    if state.phase is Phase.STACK:
        data["pending_draw"] = state.pending_draw
    if state.drawn is not None:
        data["drawn"] = state.drawn.code
    if state.wild_draw_four is not None:
        wd4 = state.wild_draw_four
        data["wild_draw_four"] = {
            "player": names[wd4.player],
            "held": [c.code for c in wd4.held],
            "colour_before": COLOUR_NAMES[wd4.colour_before] if wd4.colour_before else None,
        }
    if state.winners:
        data["winners"] = [names[w] for w in state.winners]
    return data


_KINDS = ("play", "draw", "pass", "challenge", "name-colour", "call-uno", "catch")


def action_from_data(data: Mapping[str, Any], state: UnoState) -> Action:
    """Read an action; :class:`ActionError` names the bad field.

    ``player`` may be left out for the player in turn (for ``call-uno``: the player who has
    not called).
    """
    if not isinstance(data, Mapping):
        raise ActionError("an action must be a table")
    kind = data.get("action")
    if kind not in _KINDS:
        raise ActionError(f"'action' must be one of {', '.join(_KINDS)}, not {kind!r}")
    players = state.players
    default = state.exposed if kind == "call-uno" and state.exposed is not None else state.turn
    try:
        seat = players[_seat(players, data.get("player", players[default]), "'player'")]
        if kind == "play":
            card = _card(data.get("card"), "'card'")
            raw_colour = data.get("colour")
            colour = None if raw_colour is None else parse_colour(raw_colour, "'colour'")
            uno = data.get("uno", False)
            if not isinstance(uno, bool):
                raise ActionError(f"'uno' must be true or false, not {uno!r}")
            return Play(player=seat, card=card, colour=colour, uno=uno)
        if kind == "name-colour":
            return NameColour(player=seat, colour=parse_colour(data.get("colour"), "'colour'"))
        if kind == "catch":
            if "player" not in data:
                raise ActionError("a catch must name the catching 'player'")
            target = players[_seat(players, data.get("target"), "'target'")]
            return Catch(player=seat, target=target)
    except PositionError as error:
        raise ActionError(str(error)) from None
    simple: dict[str, type[Draw | Pass | Challenge | CallUno]] = {
        "draw": Draw,
        "pass": Pass,
        "challenge": Challenge,
        "call-uno": CallUno,
    }
    return simple[kind](player=seat)


def action_to_data(action: Action) -> dict[str, Any]:
    """An action as plain data that :func:`action_from_data` reads back."""
    who = action.player
    if isinstance(action, Play):
        data: dict[str, Any] = {"action": "play", "player": who, "card": action.card.code}
        if action.colour is not None:
            data["colour"] = COLOUR_NAMES[action.colour]
        if action.uno:
            data["uno"] = True
        return data
    if isinstance(action, NameColour):
        return {"action": "name-colour", "player": who, "colour": COLOUR_NAMES[action.colour]}
    if isinstance(action, Catch):
        return {"action": "catch", "player": who, "target": action.target}
    kind = {Draw: "draw", Pass: "pass", Challenge: "challenge", CallUno: "call-uno"}[type(action)]
    return {"action": kind, "player": who}
