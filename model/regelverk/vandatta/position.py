"""Positions and actions as plain data (JSON or TOML), for ``regelverk ask`` and records.

The format is documented on the rulebook page ``docs/ask/vandatta.rst``. Every error is a
:class:`~regelverk.engine.PositionError` or :class:`~regelverk.engine.ActionError` naming the
field and what is wrong with it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from regelverk.cards import Card, Suit, missing_and_extra, parse_card
from regelverk.engine import ActionError, PositionError, position_seed
from regelverk.errors import CardError
from regelverk.marks import implements
from regelverk.vandatta.options import DealerWithoutLoser, Session, VandattaOptions
from regelverk.vandatta.setup import (
    deal_clause,
    deck_count,
    full_pack,
    most_decks,
    player_limit,
    too_few_cards,
)
from regelverk.vandatta.state import (
    Action,
    AskCount,
    Back,
    Complete,
    Deal,
    Draw,
    ExtraCard,
    ForgetAbsentCard,
    HideBundle,
    Join,
    LeapDay,
    LookBack,
    NameSuit,
    Pass,
    PenaltySet,
    Phase,
    Play,
    Record,
    Redeal,
    Remark,
    RemarkKind,
    Restart,
    ReturnSurplus,
    RevealCall,
    SayUtgang,
    Stall,
    State,
    StayOut,
    StepAway,
    StepIn,
    Veto,
    Withdrawn,
)

__all__ = ["action_from_data", "action_to_data", "position_from_data", "position_to_data"]

NEW_DRAW = DealerWithoutLoser.NEW_DRAW
"""Bound once, as the rules modules bind the readings they ask for."""

_SUITS = {s.value: s for s in Suit}
MAX_OWED = 6
"""The most extra cards a failed going out can owe (three, or six under penalty_cards)."""


def _cards(raw: Any, where: str, error: type[Exception] = PositionError) -> tuple[Card, ...]:
    if not isinstance(raw, list):
        raise error(f'{where} must be a list of cards such as ["9H", "10S"], not {raw!r}')
    found = []
    for number, item in enumerate(raw, 1):
        try:
            found.append(parse_card(item))
        except CardError as bad:
            raise error(f"{where}, card {number}: {bad}") from None
    return tuple(found)


def _suit(raw: Any, where: str, error: type[Exception] = PositionError) -> Suit | None:
    if raw is None:
        return None
    if isinstance(raw, str) and raw.strip().upper() in _SUITS:
        return _SUITS[raw.strip().upper()]
    raise error(f"{where} must be a suit C, D, H or S (or null), not {raw!r}")


class _Reader:
    """Reads the fields of a position, naming the field in every error."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        if not isinstance(data, Mapping):
            raise PositionError(f"a position must be a table of fields, not {data!r}")
        self.data = data
        players = data.get("players")
        if (
            not isinstance(players, list)
            or len(players) < 2
            or not all(isinstance(p, str) and p for p in players)
        ):
            raise PositionError(
                "'players' must list at least two player names, in seat order clockwise"
            )
        if len(set(players)) != len(players):
            raise PositionError("'players' names someone twice")
        self.players: tuple[str, ...] = tuple(players)

    def seat(self, raw: Any, where: str) -> int:
        if raw not in self.players:
            raise PositionError(
                f"{where} must be one of the players {list(self.players)}, not {raw!r}"
            )
        return self.players.index(raw)

    def seats(self, key: str) -> frozenset[int]:
        raw = self.data.get(key, [])
        if not isinstance(raw, list):
            raise PositionError(f"'{key}' must be a list of player names, not {raw!r}")
        return frozenset(self.seat(r, f"'{key}'") for r in raw)

    def integer(self, key: str, default: int, low: int = 0) -> int:
        raw = self.data.get(key, default)
        if not isinstance(raw, int) or isinstance(raw, bool) or raw < low:
            raise PositionError(f"'{key}' must be a whole number of at least {low}, not {raw!r}")
        return raw

    def per_player(self, key: str) -> dict[int, Any]:
        raw = self.data.get(key, {})
        if not isinstance(raw, Mapping):
            raise PositionError(f"'{key}' must be a table from player name to value, not {raw!r}")
        return {self.seat(name, f"'{key}'"): value for name, value in raw.items()}

    def enum(self, key: str, kind: type[Phase] | type[Restart], default: Any) -> Any:
        raw = self.data.get(key, default.value)
        try:
            return kind(raw)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in kind)
            raise PositionError(f"'{key}' must be one of {allowed}, not {raw!r}") from None


def _record(reader: _Reader) -> Record:
    raw = reader.data.get("record", {})
    if not isinstance(raw, Mapping):
        raise PositionError(f"'record' must be a table, not {raw!r}")
    sub = _Reader({"players": list(reader.players), **raw})
    count = len(reader.players)

    def column(key: str) -> tuple[int, ...]:
        values = [0] * count
        for seat, value in sub.per_player(key).items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise PositionError(f"'record.{key}' values must be whole numbers, not {value!r}")
            values[seat] = value
        return tuple(values)

    wins, losses = column("wins"), column("losses")
    return Record(
        deals=sub.integer("deals", sum(wins)),
        official=sub.integer("official", sum(wins)),
        wins=wins,
        losses=losses,
        points=column("points"),
        out=sub.seats("out"),
        champions=tuple(sorted(sub.seats("champions"))),
    )


def position_from_data(data: Mapping[str, Any], options: VandattaOptions) -> State:
    """A state from plain data. ``stock`` lists the top cards of the stock, top first; every card
    of the deck not found elsewhere lies below them, shuffled by ``seed``. Cards are checked
    against the deck (two decks from four players in vvv8)."""
    reader = _Reader(data)
    players = reader.players
    count = len(players)
    decks = reader.integer("decks", deck_count(options, count), 1)
    hands_raw = reader.per_player("hands")
    hands = tuple(_cards(hands_raw.get(s, []), f"'hands.{players[s]}'") for s in range(count))
    penalties_raw = reader.per_player("penalties")
    penalties = tuple(
        _penalty_sets(penalties_raw[s], f"'penalties.{players[s]}'") if s in penalties_raw else ()
        for s in range(count)
    )
    pile = _cards(data.get("pile", []), "'pile'")
    turned = _cards(data.get("turned", []), "'turned'")
    early = _cards(data.get("early", []), "'early'")
    seed = position_seed(data)
    most = most_decks(options)
    if not 1 <= decks <= most:
        raise PositionError(
            f"'decks' must be 1 or 2 (up to {most} where decks are added for many players, "
            f"max_players_free_time = add-decks), not {decks}"
            if most > 2
            else f"'decks' must be 1 or 2, not {decks}"
        )
    zones = [*hands, *(p.cards for sets in penalties for p in sets), pile, turned, early]
    top_cards = tuple(reversed(_cards(data.get("stock", []), "'stock'")))
    zones.append(top_cards)
    missing, extra = missing_and_extra(full_pack(decks), zones)
    if extra:
        shown = " ".join(str(c) for c in extra.elements())
        raise PositionError(
            f"the position holds more cards than {decks} deck(s) have: {shown} "
            "(each physical card is in exactly one place)"
        )
    rest = list(missing.elements())
    random.Random(f"{seed}:stock").shuffle(rest)
    stock = (*rest, *top_cards)
    phase = reader.enum("phase", Phase, Phase.PLAY)
    if phase is Phase.MISDEAL and len(pile) > 1:
        raise PositionError(
            "a misdeal is dealt with before play starts, so the pile holds at most the start "
            f"card, not {len(pile)} cards (V8-MISDEAL-TOO-FEW-COMPLETE)"
        )
    turn = reader.seat(data.get("turn", players[0]), "'turn'")
    dealer_raw = data.get("dealer")
    if dealer_raw is not None:
        dealer: int | None = reader.seat(dealer_raw, "'dealer'")
    elif "dealer" in data and phase in (Phase.READY, Phase.DEAL_OVER, Phase.MATCH_OVER):
        if not options.dealer_draw and options.dealer_without_loser is not NEW_DRAW:
            raise PositionError(
                "'dealer': null leaves the dealer to a draw for the deal, which these options do "
                "not hold (vvv8 draws for the deal, V8-DEALER-DRAW-HELD, and again after a "
                "deal without an official loser under dealer_without_loser = new-draw, "
                "V8-AMB-DEALER-AFTER-NO-LOSER): name the dealer"
            )
        dealer = None  # vvv8: the draw for the deal is still to come (also after a deal
        # without an official loser, under dealer_without_loser = new-draw, which may be the
        # match's last)
    else:
        dealer = (turn - 1) % count
    previous_raw = data.get("previous")
    winner_raw = data.get("winner")
    loser_raw = data.get("loser")
    calls = reader.seats("calls")
    vetoable, may_veto = _vetoable(reader, data.get("vetoable"), calls)
    state = State(
        options=options,
        players=players,
        seed=seed,
        decks=decks,
        phase=phase,
        deal_number=reader.integer("deal", 1),
        dealer=dealer,
        hands=hands,
        penalties=penalties,
        stock=stock,
        pile=pile,
        turned=turned,
        early=early,
        named_suit=_suit(data.get("named_suit"), "'named_suit'"),
        turn=turn,
        draws=reader.integer("draws", 0),
        restart=reader.enum("restart", Restart, Restart.NONE),
        free_lead=_position_flag(data, "free_lead"),
        calls=calls,
        false_calls=reader.seats("false_calls"),
        vetoed=reader.seats("vetoed"),
        away=reader.seats("away"),
        benched=reader.seats("waiting") | reader.seats("joining"),
        joining=reader.seats("joining"),
        short_deal=_short_deal(data),
        previous=None if previous_raw is None else reader.seat(previous_raw, "'previous'"),
        talon_passes=reader.integer("talon_passes", 0),
        shuffles=reader.integer("shuffles", 0),
        idle=reader.integer("idle", 0),
        active_at_start=reader.integer("active_at_start", count),
        winner=None if winner_raw is None else reader.seat(winner_raw, "'winner'"),
        loser=None if loser_raw is None else reader.seat(loser_raw, "'loser'"),
        record=_record(reader),
        vetoable=vetoable,
        may_veto=may_veto,
    )
    _check_table_limits(state)
    return state


def _check_table_limits(state: State) -> None:
    """A position seats no more players than its rules allow, and its pack serves the next deal:
    every player still in the game a hand, and a start card."""
    count, options = len(state.players), state.options
    most, clauses = player_limit(options)
    if count > most:
        where = " in a coffee break" if options.session is Session.COFFEE_BREAK else ""
        raise PositionError(
            f"at most {most} players may take part{where}, not {count} ({', '.join(clauses)})"
        )
    short = too_few_cards(options, count - len(state.record.out), state.decks)
    if short is not None:
        raise PositionError(f"{short} ({deal_clause(options)})")


def _penalty_sets(raw: Any, where: str) -> tuple[PenaltySet, ...]:
    """A player's face-down cards: a list of cards (one set, locked until his turn as
    spelförare is used up), or a list of sets ``{"cards": [...], "release_after": n}`` where
    ``n`` counts the turns as spelförare he must still use up (0: usable from the start of his
    next turn). A penalty the talon could not serve is a set with no cards. A set with
    ``"owed": n`` and no cards is the n extra cards a failed going out costs, still to be
    taken as the player hands the turn on (V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE)."""
    if not isinstance(raw, list):
        raise PositionError(f"{where} must be a list of cards or of penalty sets, not {raw!r}")
    if all(isinstance(item, str) for item in raw):
        return (PenaltySet(cards=_cards(raw, where)),) if raw else ()
    sets = []
    for number, item in enumerate(raw, 1):
        if not isinstance(item, Mapping) or "cards" not in item:
            raise PositionError(
                f"{where}[{number}] must be a table with 'cards' (and 'release_after'), "
                f"not {item!r}"
            )
        release = item.get("release_after", 1)
        if not isinstance(release, int) or isinstance(release, bool) or not 0 <= release <= 2:
            raise PositionError(
                f"{where}[{number}].release_after must be 0, 1 or 2, not {release!r}"
            )
        owe = item.get("owed", 0)
        if not isinstance(owe, int) or isinstance(owe, bool) or not 0 <= owe <= MAX_OWED:
            raise PositionError(f"{where}[{number}].owed must be 0 to {MAX_OWED}, not {owe!r}")
        cards = _cards(item["cards"], f"{where}[{number}]")
        if owe and cards:
            raise PositionError(
                f"{where}[{number}] owes {owe} cards not yet taken, so it holds none, not "
                f"{len(cards)} (V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE)"
            )
        sets.append(PenaltySet(cards=cards, release_after=release, owed=owe))
    return tuple(sets)


def _penalties_data(sets: tuple[PenaltySet, ...]) -> list[Any]:
    """A player's face-down cards as :func:`_penalty_sets` reads them: a plain list of cards
    for one ordinary set, else every set with its timing."""
    if len(sets) == 1 and sets[0].cards and sets[0].release_after == 1:
        return [c.code for c in sets[0].cards]
    return [
        {"cards": [c.code for c in p.cards], "release_after": p.release_after}
        | ({"owed": p.owed} if p.owed else {})
        for p in sets
    ]


def _position_flag(data: Mapping[str, Any], key: str) -> bool:
    """A true-or-false field of a position, false when absent."""
    raw = data.get(key, False)
    if not isinstance(raw, bool):
        raise PositionError(f"'{key}' must be true or false, not {raw!r}")
    return raw


def _short_deal(data: Mapping[str, Any]) -> bool:
    """``short_deal``: the deal was short and completed, so a new deal may be demanded."""
    raw = data.get("short_deal", False)
    if not isinstance(raw, bool):
        raise PositionError(f"'short_deal' must be true or false, not {raw!r}")
    return raw


def _vetoable(
    reader: _Reader, raw: Any, calls: frozenset[int]
) -> tuple[tuple[int, tuple[Card, ...]] | None, frozenset[int]]:
    """``vetoable``: ``{"player": name, "cards": [...], "may_veto": [names]}``, penalty cards
    just taken that the utgång callers may still veto, and who may still veto them
    (``may_veto``, by default every caller but the offender: V8-PEN-VETO-RIGHT)."""
    if raw is None:
        return None, frozenset()
    if (
        not isinstance(raw, Mapping)
        or not {"player", "cards"} <= set(raw)
        or not set(raw) <= {"player", "cards", "may_veto"}
    ):
        raise PositionError(
            "'vetoable' must be a table with 'player', 'cards' and optionally 'may_veto' (or "
            f"null), not {raw!r}"
        )
    seat = reader.seat(raw["player"], "'vetoable.player'")
    cards = _cards(raw["cards"], "'vetoable.cards'")
    if "may_veto" not in raw:
        return (seat, cards), calls - {seat}
    may = raw["may_veto"]
    if not isinstance(may, list) or not may:
        raise PositionError(f"'vetoable.may_veto' must be a non-empty list of names, not {may!r}")
    vetoers = frozenset(reader.seat(name, "'vetoable.may_veto'") for name in may)
    if not vetoers <= calls - {seat}:
        raise PositionError(
            "'vetoable.may_veto' names a player who has not called utgång, or the offender: only "
            "another player's standing call gives a veto (V8-PEN-VETO-RIGHT)"
        )
    return (seat, cards), vetoers


def position_to_data(state: State) -> dict[str, Any]:
    """A state as plain data that :func:`position_from_data` reads back exactly."""
    names = state.players

    def codes(cards: tuple[Card, ...]) -> list[str]:
        return [c.code for c in cards]

    def column(values: tuple[int, ...]) -> dict[str, int]:
        return {names[s]: v for s, v in enumerate(values) if v}

    record = state.record
    return {
        "players": list(names),
        "phase": state.phase.value,
        "deal": state.deal_number,
        "decks": state.decks,
        "seed": state.seed,
        "dealer": None if state.dealer is None else names[state.dealer],
        "turn": names[state.turn],
        "hands": {names[s]: codes(h) for s, h in enumerate(state.hands)},
        "penalties": {
            names[s]: _penalties_data(sets) for s, sets in enumerate(state.penalties) if sets
        },
        "pile": codes(state.pile),
        "turned": codes(state.turned),
        "early": codes(state.early),
        "stock": codes(tuple(reversed(state.stock))),
        "named_suit": None if state.named_suit is None else state.named_suit.value,
        "draws": state.draws,
        "restart": state.restart.value,
        "free_lead": state.free_lead,
        "calls": [names[s] for s in sorted(state.calls)],
        "false_calls": [names[s] for s in sorted(state.false_calls)],
        "vetoed": [names[s] for s in sorted(state.vetoed)],
        "away": [names[s] for s in sorted(state.away)],
        "short_deal": state.short_deal,
        "joining": [names[s] for s in sorted(state.joining)],
        "waiting": [names[s] for s in sorted(state.benched - state.joining)],
        "previous": None if state.previous is None else names[state.previous],
        "talon_passes": state.talon_passes,
        "shuffles": state.shuffles,
        "idle": state.idle,
        "active_at_start": state.active_at_start,
        "winner": None if state.winner is None else names[state.winner],
        "loser": None if state.loser is None else names[state.loser],
        "record": {
            "deals": record.deals,
            "official": record.official,
            "wins": column(record.wins),
            "losses": column(record.losses),
            "points": column(record.points),
            "out": [names[s] for s in sorted(record.out)],
            "champions": [names[s] for s in record.champions],
        },
        "vetoable": None
        if state.vetoable is None
        else {
            "player": names[state.vetoable[0]],
            "cards": codes(state.vetoable[1]),
            "may_veto": [names[s] for s in sorted(state.may_veto)],
        },
    }


_KINDS = (
    "play",
    "draw",
    "pass",
    "deal",
    "name-suit",
    "leap-day",
    "step-away",
    "back",
    "remark",
    "look-back",
    "forget-absent-card",
    "hide-bundle",
    "veto",
    "join",
    "step-in",
    "stay-out",
    "return-surplus",
    "complete",
    "redeal",
    "extra-card",
    "reveal-call",
    "ask-count",
    "call",
    "stall",
)
CALL_WORDS = ("utgång", "utgang", "varning", "lappen")
"""Words the text names as the going-out call (V8-CALL-ALTERNATIVE-WORDS), in any case."""


@implements("V8-CALL-ALTERNATIVE-WORDS")
def _call(raw: Any) -> tuple[bool, str | None]:
    """``call`` is true or false, or the word said as the call: one of the text's words
    (utgång, varning, lappen: the call with no word of its own), or any other word, which
    counts as a call only where accepted_calls and agreed_calls say so."""
    if isinstance(raw, bool):
        return raw, None
    if isinstance(raw, str) and raw.strip():
        if raw.strip().casefold() in CALL_WORDS:
            return True, None
        return True, raw.strip()
    raise ActionError(
        f"'call' must be true, false or the word said as the call ({', '.join(CALL_WORDS)} "
        f"or one the table agreed on), not {raw!r}"
    )


def action_from_data(data: Mapping[str, Any], state: State) -> Action:  # noqa: PLR0912
    """An action from plain data: ``{"action": "play", "cards": ["9S"], "suit": null,
    "call": false, "player": "A"}``; ``player`` defaults to the one whose turn it is."""
    if not isinstance(data, Mapping):
        raise ActionError(f"an action must be a table of fields, not {data!r}")
    kind = data.get("action")
    if kind not in _KINDS:
        raise ActionError(f"'action' must be one of {', '.join(_KINDS)}, not {kind!r}")
    if kind == "deal":
        return Deal()
    if kind == "leap-day":
        return LeapDay()
    if kind == "join":
        return _join_from_data(data, state)
    default = state.dealer if kind == "name-suit" and state.dealer is not None else state.turn
    raw_player = data.get("player", default)
    count = len(state.players)
    if isinstance(raw_player, int) and not isinstance(raw_player, bool) and 0 <= raw_player < count:
        player = raw_player
    elif raw_player in state.players:
        player = state.players.index(raw_player)
    else:
        raise ActionError(
            f"'player' must be one of {list(state.players)} or a seat number 0 to "
            f"{count - 1}, not {raw_player!r}"
        )
    if kind == "name-suit":
        return NameSuit(player=player, suit=_suit(data.get("suit"), "'suit'", ActionError))
    if kind not in ("play", "draw", "pass"):
        return _conduct_from_data(kind, data, state, player)
    call, word = _call(data.get("call", False))
    move: Play | Draw | Pass
    if kind == "draw":
        move = Draw(player=player, call=call, word=word)
    elif kind == "pass":
        move = Pass(player=player, call=call, word=word)
    else:
        if "cards" not in data:
            raise ActionError("a play needs 'cards', the cards laid, bottom first")
        cards = _cards(data["cards"], "'cards'", ActionError)
        suit = _suit(data.get("suit"), "'suit'", ActionError)
        leave = _flag(data, "leave", False)
        move = Play(player=player, cards=cards, suit=suit, call=call, word=word, leave=leave)
    withdrawn = data.get("withdrawn", False)
    if not isinstance(withdrawn, bool):
        raise ActionError(f"'withdrawn' must be true or false, not {withdrawn!r}")
    return Withdrawn(action=move) if withdrawn else move


def _other_seat(data: Mapping[str, Any], key: str, state: State) -> int:
    """Another seat named in an action, by name or number."""
    raw = data.get(key)
    count = len(state.players)
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < count:
        return raw
    if raw in state.players:
        return state.players.index(raw)
    raise ActionError(
        f"'{key}' must be one of {list(state.players)} or a seat number 0 to {count - 1}, "
        f"not {raw!r}"
    )


def _join_from_data(data: Mapping[str, Any], state: State) -> Join:
    """``{"action": "join", "name": "Eve", "seat": 1}``: Eve sits down at seat 1 (by default
    the last seat, on the right of the first player listed)."""
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise ActionError(f"'name' of a late joiner must be a non-empty text, not {name!r}")
    seat = _count(data, "seat", len(state.players))
    return Join(name=name, seat=seat)


def _flag(data: Mapping[str, Any], key: str, default: bool) -> bool:
    raw = data.get(key, default)
    if not isinstance(raw, bool):
        raise ActionError(f"'{key}' must be true or false, not {raw!r}")
    return raw


def _count(data: Mapping[str, Any], key: str, default: int | None) -> int:
    raw = data.get(key, default)
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < 0:
        raise ActionError(f"'{key}' must be a whole number of at least 0, not {raw!r}")
    return raw


def _conduct_from_data(  # noqa: PLR0911, PLR0912
    kind: str, data: Mapping[str, Any], state: State, player: int
) -> Action:
    """The actions at the table that are not moves of play (vvv8)."""
    if kind == "step-away":
        return StepAway(player=player)
    if kind == "back":
        return Back(player=player)
    if kind == "hide-bundle":
        return HideBundle(player=player)
    if kind == "step-in":
        return StepIn(player=player)
    if kind == "complete":
        return Complete(player=player)
    if kind == "redeal":
        return Redeal(player=player)
    if kind == "extra-card":
        return ExtraCard(player=player)
    if kind == "return-surplus":
        if "cards" not in data:
            raise ActionError("'return-surplus' needs 'cards', the surplus handed to the dealer")
        return ReturnSurplus(player=player, cards=_cards(data["cards"], "'cards'", ActionError))
    if kind == "stay-out":
        return StayOut(player=player)
    if kind == "veto":
        return Veto(player=player)
    if kind == "call":
        return SayUtgang(player=player)
    if kind == "stall":
        seconds = data.get("seconds")
        if not isinstance(seconds, int) or isinstance(seconds, bool) or seconds < 1:
            raise ActionError(
                f"'stall' needs 'seconds', the whole seconds the table has waited (at least 1), "
                f"not {seconds!r}"
            )
        return Stall(player=player, seconds=seconds)
    if kind in ("reveal-call", "ask-count"):
        caller = _other_seat(data, "caller", state)
        if kind == "ask-count":
            return AskCount(player=player, caller=caller)
        return RevealCall(player=player, caller=caller)
    if kind == "remark":
        raw = data.get("kind")
        try:
            remark = RemarkKind(raw)
        except ValueError:
            allowed = ", ".join(repr(k.value) for k in RemarkKind)
            raise ActionError(f"'kind' of a remark must be one of {allowed}, not {raw!r}") from None
        return Remark(player=player, kind=remark, truthful=_flag(data, "truthful", True))
    if kind == "look-back":
        return LookBack(
            player=player,
            cards=_count(data, "cards", None),
            latest_play=max(1, _count(data, "latest_play", 1)),
            checking_bundle=_flag(data, "checking_bundle", False),
        )
    absent = data.get("absent")
    count = len(state.players)
    if isinstance(absent, int) and not isinstance(absent, bool) and 0 <= absent < count:
        return ForgetAbsentCard(player=player, absent=absent)
    if absent not in state.players:
        raise ActionError(
            f"'absent' must be one of {list(state.players)} or a seat number, not {absent!r}"
        )
    return ForgetAbsentCard(player=player, absent=state.players.index(absent))


def action_to_data(action: Action) -> dict[str, Any]:  # noqa: PLR0911, PLR0912
    """An action as plain data that :func:`action_from_data` reads back (the player by seat
    number, 0 being the first player listed)."""
    if isinstance(action, Withdrawn):
        return {**action_to_data(action.action), "withdrawn": True}
    if isinstance(action, Stall):
        return {"action": "stall", "player": action.player, "seconds": action.seconds}
    if isinstance(action, StepAway | Back | HideBundle | Veto | SayUtgang):
        names = {
            StepAway: "step-away",
            Back: "back",
            HideBundle: "hide-bundle",
            Veto: "veto",
            SayUtgang: "call",
        }
        return {"action": names[type(action)], "player": action.player}
    if isinstance(action, Remark):
        return {
            "action": "remark",
            "player": action.player,
            "kind": action.kind.value,
            "truthful": action.truthful,
        }
    if isinstance(action, LookBack):
        return {
            "action": "look-back",
            "player": action.player,
            "cards": action.cards,
            "latest_play": action.latest_play,
            "checking_bundle": action.checking_bundle,
        }
    if isinstance(action, ForgetAbsentCard):
        return {"action": "forget-absent-card", "player": action.player, "absent": action.absent}
    if isinstance(action, RevealCall | AskCount):
        kind = "reveal-call" if isinstance(action, RevealCall) else "ask-count"
        return {"action": kind, "player": action.player, "caller": action.caller}
    if isinstance(action, Join):
        return {"action": "join", "name": action.name, "seat": action.seat}
    if isinstance(action, StepIn | StayOut | Complete | Redeal | ExtraCard):
        kinds = {
            StepIn: "step-in",
            StayOut: "stay-out",
            Complete: "complete",
            Redeal: "redeal",
            ExtraCard: "extra-card",
        }
        return {"action": kinds[type(action)], "player": action.player}
    if isinstance(action, ReturnSurplus):
        return {
            "action": "return-surplus",
            "player": action.player,
            "cards": [c.code for c in action.cards],
        }
    if isinstance(action, Deal):
        return {"action": "deal"}
    if isinstance(action, LeapDay):
        return {"action": "leap-day"}
    name = action.player
    if isinstance(action, NameSuit):
        return {
            "action": "name-suit",
            "player": name,
            "suit": None if action.suit is None else action.suit.value,
        }
    data: dict[str, Any]
    if isinstance(action, Play):
        data = {"action": "play", "player": name, "cards": [c.code for c in action.cards]}
        if action.suit is not None:
            data["suit"] = action.suit.value
        if action.leave:
            data["leave"] = True
    else:
        data = {"action": "draw" if isinstance(action, Draw) else "pass", "player": name}
    if action.call:
        data["call"] = True if action.word is None else action.word
    return data
