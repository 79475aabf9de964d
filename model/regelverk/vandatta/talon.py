"""The talon and the cards it gives out: drawing one card, rebuilding an empty talon, counting
its passes, the draws for an ace, turning the pile away, and a fresh start card.

Each rule is a function of the scratch :class:`~regelverk.vandatta.table.Table` that one call of
``apply`` changes; each cites its clauses. The callers in the other rule topics call them as
``talon.draw_one(table, seat)``.
"""

from __future__ import annotations

from regelverk.cards import Card
from regelverk.marks import implements
from regelverk.vandatta.options import (
    GoOutCall,
    StartAceDraw,
    StartEight,
    StartEightPlace,
)
from regelverk.vandatta.rules import (
    ANY_LEGAL,
    COFFEE_BREAK,
    DRAWN_AFTER_PASSES,
    FRESH_START_CARD,
    LAPPEN,
    NO_REBUILD,
    PER_ACE,
    REBUILD_AND_CONTINUE,
    REBUILD_UNSHUFFLED,
    SET_ASIDE,
    UNDER_STOCK,
    drawn_deal_passes,
    is_ace,
    is_eight,
    seats_after,
)
from regelverk.vandatta.state import Phase
from regelverk.vandatta.table import Table

__all__ = [
    "absent_ace_cards",
    "ace_draws",
    "count_pass",
    "draw_one",
    "fresh_start_card",
    "may_rebuild",
    "rebuild",
    "return_start_eight",
    "turn_pile_away",
    "viggo_plays",
]


@implements(
    "V8-TALON-REBUILD-TOP-ASIDE",
    "V8-TALON-REBUILD-UNSHUFFLED",
    "V8-TALON-REBUILD-REFERENCE-CARD",
    "VA-DRAW-STOCK-REBUILD",
)
def rebuild(table: Table) -> bool:
    """Make a new stock from the played cards when the stock is empty; whether it worked."""
    rule = table.options.empty_stock
    if rule is NO_REBUILD:
        return False
    spare = table.turned if table.options.turned_pile is SET_ASIDE else []
    cards = [*spare, *table.pile[:-1]]
    if not cards:
        return False
    if table.options.turned_pile is SET_ASIDE:
        table.turned = []
    table.pile = table.pile[-1:]
    if rule is REBUILD_UNSHUFFLED:
        cards.reverse()
        table.stock = cards
        table.say(
            "rebuild",
            f"The talon is rebuilt from {len(cards)} played cards, unshuffled; the top card "
            "stays face up to play on",
            (
                "V8-TALON-REBUILD-TOP-ASIDE",
                "V8-TALON-REBUILD-UNSHUFFLED",
                "V8-TALON-REBUILD-REFERENCE-CARD",
                "V8-TALON-REBUILD-DURING-ANY-DRAW",
            ),
        )
    else:
        table.rng("reshuffle").shuffle(cards)
        table.stock = cards
        table.say(
            "rebuild",
            f"The stock is empty: {len(cards)} played cards are shuffled into a new stock",
            ("VA-DRAW-STOCK-REBUILD",),
        )
    if table.options.rebuild_reference is FRESH_START_CARD and table.pile:
        fresh_start_card(table)
    return True


@implements(
    "V8-TALON-DRAWN-ONE-DECK", "V8-TALON-DRAWN-TWO-DECKS", "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK"
)
def count_pass(table: Table) -> None:
    """The talon has run out: count a pass, and in a coffee break (or wherever endless_deal =
    drawn-after-passes, VA-AMB-ENDLESS-DEAL) draw the deal at the limit."""
    table.talon_passes += 1
    options = table.options
    limited = options.endless_deal is DRAWN_AFTER_PASSES or (
        options.talon_pass_limit and options.session is COFFEE_BREAK
    )
    if not limited:
        return
    if table.talon_passes >= drawn_deal_passes(options, table.base.decks):
        table.drawn_deal = True


@implements("V8-TALON-REBUILD-DURING-ANY-DRAW")
def draw_one(table: Table, seat: int, *, own: bool = False) -> Card | None:
    """One card from the stock into a hand (rebuilding first if need be); None if none.

    ``own`` is a spelförare drawing for himself. Under talon_empty_mid_draw =
    draw-what-is-there (V8-AMB-TALON-EXHAUSTED-MIDDRAW) only such a draw rebuilds an empty
    talon; every other draw (penalties, draws for an ace) takes only what is left."""
    if not table.stock and not (may_rebuild(table, own=own) and rebuild(table)):
        return None
    if not table.stock:  # a fresh start ace's draws used the new stock up
        return None
    card = table.stock.pop()
    table.hands[seat] = (*table.hands[seat], card)
    if not table.stock:
        count_pass(table)
    return card


def may_rebuild(table: Table, *, own: bool) -> bool:
    """Whether this draw may rebuild an empty talon (talon_empty_mid_draw)."""
    return own or table.options.talon_empty_mid_draw is REBUILD_AND_CONTINUE


@implements(
    "V8-ACE-OTHERS-DRAW-ONE",
    "V8-ACE-ABSENT-ALSO-DRAWS",
    "VA-ACE-OTHERS-DRAW",
    "V8-CALL-ACE-DRAW-NOT-SPELFORARE",
)
def ace_draws(table: Table, seat: int, aces: int) -> None:
    """Every other player draws one card (per ace under ace_batch_draws = per-ace), in turn."""
    rounds = aces if table.options.ace_batch_draws is PER_ACE else 1
    others = seats_after(len(table.players), seat, table.record.out | table.benched)
    for _ in range(rounds):
        for other in others:
            if draw_one(table, other) is None or table.drawn_deal:
                break
    clauses: tuple[str, ...] = (
        ("V8-ACE-OTHERS-DRAW-ONE", "V8-CALL-ACE-DRAW-NOT-SPELFORARE")
        if table.options.ace_follow is ANY_LEGAL
        else ("VA-ACE-OTHERS-DRAW",)
    )
    warn = table.options.varning_cards
    if table.options.go_out_call is LAPPEN and any(len(table.hands[o]) == warn for o in others):
        clauses += ("VA-CALL-VARNING",)  # a count varning_trigger may call varning at
    names = ", ".join(table.name(o) for o in others)
    each = f"{rounds} cards" if rounds > 1 else "one card"
    table.say("ace-draws", f"{names} each draw {each} for the ace", clauses, seat)
    if table.away:
        absent_ace_cards(table, others)


@implements("V8-ACE-ABSENT-ALSO-DRAWS", "V8-ACE-NEXT-GIVES-ABSENT-CARD")
def absent_ace_cards(table: Table, others: list[int]) -> None:
    """An absent player's card for the ace is taken from the talon for him by the player
    whose draw follows his."""
    for index, other in enumerate(others):
        if other not in table.away:
            continue
        helper = next((o for o in others[index + 1 :] if o not in table.away), None)
        by = f", taken for him by {table.name(helper)}" if helper is not None else ""
        table.say(
            "absent-card",
            f"{table.name(other)} is away but gets his card for the ace{by}",
            ("V8-ACE-ABSENT-ALSO-DRAWS", "V8-ACE-NEXT-GIVES-ABSENT-CARD"),
            other,
        )


@implements("VA-EIGHT-TURNS-PILE")
def turn_pile_away(table: Table) -> None:
    """vandatta: the pile, the eight on top, is turned away (set aside, or dead for the deal
    under turned_pile = out-of-deal; either way it lies in the ``turned`` zone). Under
    turned_pile = under-stock it is turned face down and put under the stock at once: the
    pile's top card, the eight, becomes the stock's bottom card."""
    if table.options.turned_pile is UNDER_STOCK:
        table.stock[:0] = reversed(table.pile)
    else:
        table.turned.extend(table.pile)
    table.pile = []


@implements("VA-START-EIGHT-RETURNED", "VA-START-EIGHT-TURN-AGAIN")
def return_start_eight(table: Table) -> None:
    """vandatta: a start eight goes back into the stock and a new card is turned."""
    eight = table.pile.pop()
    place = table.options.start_eight_place
    if place is StartEightPlace.BOTTOM:
        table.stock.insert(0, eight)
    elif place is StartEightPlace.RESHUFFLE:
        table.stock.append(eight)
        table.rng("start-eight").shuffle(table.stock)
    else:
        table.stock.insert(table.rng("start-eight").randint(0, len(table.stock)), eight)
    table.pile.append(table.stock.pop())
    table.say(
        "start-eight",
        f"The start card {eight} is an eight: it goes back into the stock "
        f"({place.value}) and {table.pile[-1]} is turned instead",
        ("VA-START-EIGHT-RETURNED", "VA-START-EIGHT-TURN-AGAIN"),
        cards=(eight,),
    )


def viggo_plays(table: Table) -> bool:
    """Whether the person Viggo is at the table (option, or a player of that name)."""
    return table.options.viggo_present or any(p.casefold() == "viggo" for p in table.players)


@implements(
    "V8-TALON-REBUILD-REFERENCE-CARD",
    "V8-START-ACE-ALL-DRAW",
    "V8-START-ACE-ONLY-WITH-VIGGO",
    "V8-START-EIGHT-DEALER-NAMES-SUIT",
    "VA-START-EIGHT-RETURNED",
    "VA-START-ACE-ALL-DRAW",
)
def fresh_start_card(table: Table) -> None:
    """rebuild_reference = fresh-start-card (V8-AMB-REBUILD-REFERENCE-STATUS): the card kept face
    up at a rebuild counts as a new start card. A suit named on it no longer binds, nor does a
    free lead (after_three_draws = pass-free-lead): the spelförare plays on the new card. A start
    eight goes back into the new stock and another card is turned (start_eight =
    back-into-stock), or the dealer names a suit (dealer-names-suit): play waits for him as at
    the start of a deal, the spelförare keeping his turn, his draws and the draw in progress. A
    start ace makes every player draw one card, in turn from the spelförare (where
    start_ace_draw says so); the turn stays with the spelförare whatever start_ace says, since
    the deal is under way and nobody else is to play first."""
    options = table.options
    table.named_suit = None
    table.free_lead = False
    utgang = options.go_out_call is GoOutCall.UTGANG
    table.say(
        "fresh-start-card",
        f"The card kept face up, {table.pile[-1]}, counts as a new start card",
        ("V8-TALON-REBUILD-REFERENCE-CARD",) if utgang else ("VA-START-CARD-SETS-MATCH",),
        cards=(table.pile[-1],),
    )
    if options.start_eight is StartEight.BACK_INTO_STOCK:
        for _ in range(len(table.stock)):
            if not is_eight(table.pile[-1]):
                break
            return_start_eight(table=table)
    top = table.pile[-1]
    if is_eight(top):
        if options.start_eight is StartEight.DEALER_NAMES_SUIT and table.dealer is not None:
            table.phase = Phase.START_SUIT
            table.say(
                "start-eight",
                f"The new start card is an eight: {table.name(table.dealer)} may name the suit",
                ("V8-START-EIGHT-DEALER-NAMES-SUIT",),
                table.dealer,
            )
        return
    if not is_ace(top):
        return
    rule = options.start_ace_draw
    if rule is StartAceDraw.NEVER or (
        rule is StartAceDraw.ONLY_WITH_VIGGO and not viggo_plays(table)
    ):
        table.say(
            "start-ace",
            "The new start card is an ace, but Viggo is not playing: nobody draws",
            ("V8-START-ACE-ONLY-WITH-VIGGO",),
        )
        return
    first = table.turn
    skip = table.record.out | table.benched
    for seat in [first, *seats_after(len(table.players), first, skip)]:
        if draw_one(table, seat) is None or table.drawn_deal:
            break
    table.say(
        "start-ace",
        f"The new start card is an ace: every player draws one card, in turn from "
        f"{table.name(first)}",
        ("V8-START-ACE-ALL-DRAW", "V8-START-ACE-ONLY-WITH-VIGGO")
        if utgang
        else ("VA-START-ACE-ALL-DRAW",),
    )
