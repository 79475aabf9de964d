"""Sphinx extension: the pages for players, with pictures and the referee's own answers.

* ``.. cards:: 9H 9S 10S 8C`` draws cards (French or UNO notation) as small coloured cards that
  wrap on a narrow screen.
* ``.. referee:: examples/vandatta/go-out-on-an-eight.json`` runs the referee on a question file
  of ``examples/`` when the page is built and shows the position as cards, the attempt, and the
  ruling with the clauses that decide it, as links. An answer on these pages therefore cannot
  drift from the rules: change the engine and the page changes with it (and the example tests
  hold each file to its expected ruling).
* ``.. turn-flow:: vvv8`` draws the course of a turn of one game as an inline SVG diagram.
* ``.. simulation-figure:: seats`` (``length``, ``readings-vvv8`` …) shows a plot drawn with
  matplotlib from ``players/simulation.csv``, the table ``regelverk simulate`` wrote (a test
  checks that the command gives it again for its seed); ``.. simulation-table:: vvv8`` gives the
  same figures as a table.

Nothing on these pages needs Graphviz: the diagrams are drawn here.
"""

from __future__ import annotations

import base64
import html
import json
import os
import re
import textwrap
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ExtensionError
from sphinx.locale import get_translator, is_translator_registered
from sphinx.util.docutils import SphinxDirective

from regelverk.books import RULEBOOKS
from regelverk.books import rulebook as described
from regelverk.cards import parse_card, parse_uno_card
from regelverk.errors import RegelverkError
from regelverk.registry import registry_for
from regelverk.simulate import Row, Table, rate, table_from_csv, wilson
from regelverk.verdicts import Verdict, first_words

ROOT = Path(__file__).resolve().parent.parent.parent
"""The checkout: question files are named relative to it."""

STATIC = Path(__file__).resolve().parent / "players_static"
TABLE = Path("players") / "simulation.csv"
"""The committed simulation table, relative to the docs source folder."""

CATALOGUE = "site-words"
"""The message catalogue of the words this extension writes as HTML (a position's captions,
the cards' names, the turn diagrams): ``docs/locales/<language>/LC_MESSAGES/site-words.po``.
What it writes as reStructuredText is translated with the page (its own catalogue)."""


def _(message: str) -> str:
    """``message`` in the edition's language, from :data:`CATALOGUE`; as given in English or
    outside a Sphinx build."""
    if is_translator_registered(CATALOGUE):
        return get_translator(CATALOGUE).gettext(message)
    return message


def N_(message: str) -> str:  # noqa: N802 (gettext's name for a marker)
    """Mark ``message`` for the catalogue where it is written; :func:`_` translates it later."""
    return message


IDS = re.compile(r"\b(?:V8|VA|VG|UNO)-[A-Z0-9]+(?:-[A-Z0-9]+)+\b")

SUIT_NAMES = {"♣": N_("clubs"), "♦": N_("diamonds"), "♥": N_("hearts"), "♠": N_("spades")}
COLOUR_NAMES = {"red": N_("red"), "yellow": N_("yellow"), "green": N_("green"), "blue": N_("blue")}
UNO_COLOURS = {"RED": "r", "YELLOW": "y", "GREEN": "g", "BLUE": "b"}
UNO_FACES = {
    "SKIP": ("⊘", N_("Skip")),
    "REVERSE": ("⇄", N_("Reverse")),
    "DRAW_TWO": ("+2", N_("Draw Two")),
    "WILD": ("W", N_("Wild")),
    "WILD_DRAW_FOUR": ("+4", N_("Wild Draw Four")),
    "SHUFFLE_HANDS": ("⤮", N_("Shuffle Hands")),
    "BLANK_WILD": ("✎", N_("blank wild")),
}


def esc(text: str) -> str:
    """Escape reStructuredText markup in plain text."""
    return re.sub(r"([\\*`|_\[\]])", r"\\\1", text)


def need(ident: str) -> str:
    """A checked link to a clause or ambiguity that shows its id."""
    return f":need:`[[id]] <{ident}>`"


def cited(text: str) -> str:
    """Plain text with every clause or ambiguity id in it turned into a checked link."""
    parts = IDS.split(text)
    found = IDS.findall(text)
    out = [esc(parts[0])]
    for ident, rest in zip(found, parts[1:], strict=True):
        out += [need(ident) if _known(ident) else esc(ident), esc(rest)]
    return "".join(out)


def unrepeated(message: str, clauses: Sequence[str]) -> str:
    """A referee's message without the lists of clause ids that the ruling names anyway.

    >>> unrepeated("No (A-B-C, D-E-F); next (X-Y-Z)", ["A-B-C", "D-E-F"])
    'No; next (X-Y-Z)'
    """

    def drop(match: re.Match[str]) -> str:
        named = [i.strip() for i in match.group(1).split(",")]
        return "" if all(i in clauses for i in named) else match.group(0)

    return re.sub(r" \(((?:[A-Z0-9]+-[A-Z0-9-]+)(?:, [A-Z0-9]+-[A-Z0-9-]+)*)\)", drop, message)


def _known(ident: str) -> bool:
    try:
        registry_for(ident).entry(ident)
    except (RegelverkError, KeyError):
        return False
    return True


# ---------------------------------------------------------------------------------- cards


def card_html(text: str) -> str:
    """One card as HTML: a French card with its suit symbol in red or black, an UNO card in
    its colour. Raises :class:`RegelverkError` for a card that is neither."""
    try:
        card = parse_card(text)
    except RegelverkError:
        return _uno_html(text)
    shown = str(card)
    rank, suit = shown[:-1], shown[-1]
    colour = "red" if suit in "♥♦" else "black"
    label = _("{rank} of {suit}").format(rank=rank, suit=_(SUIT_NAMES[suit]))
    return (
        f'<span class="pc pc-{colour}" role="img" aria-label="{label}" title="{label}">'
        f'<span class="pc-rank">{html.escape(rank)}</span><span class="pc-suit">{suit}</span>'
        "</span>"
    )


def _uno_html(text: str) -> str:
    card = parse_uno_card(text)
    value = card.value.name
    colour = UNO_COLOURS[card.colour.name] if card.colour is not None else "w"
    face, name = UNO_FACES.get(value, (str(card)[1:], ""))
    colour_name = _(COLOUR_NAMES[card.colour.name.lower()]) if card.colour is not None else ""
    label = f"{colour_name} {_(name) if name else face}".strip()
    return (
        f'<span class="pc uc uc-{colour}" role="img" aria-label="{label}" title="{label}">'
        f'<span class="pc-rank">{html.escape(face)}</span></span>'
    )


def cards_html(cards: Sequence[str], *, more: int = 0) -> str:
    """A row of cards that wraps; ``more`` face-down cards are counted after them."""
    body = "".join(card_html(c) for c in cards)
    if more:
        title = _("{count} more").format(count=more)
        body += f'<span class="pc pc-back" title="{title}">+{more}</span>'
    return f'<span class="pc-row">{body}</span>'


def raw(markup: str) -> list[str]:
    """A raw HTML block for the HTML builders."""
    return [".. raw:: html", "", *(f"   {line}" for line in markup.splitlines()), ""]


REFEREE_PAGE = "players/referee.html"
"""The page that runs the referee in the browser (``docs/_ext/referee_page.py``)."""


def question_fragment(question: dict[str, Any]) -> str:
    """The referee page's address fragment for ``question``: ``q=`` and its JSON, deflated
    (raw, as the browser's ``DecompressionStream("deflate-raw")`` reads it) and base64url."""
    packer = zlib.compressobj(level=9, wbits=-15)
    text = json.dumps(question, ensure_ascii=False, separators=(",", ":"))
    packed = packer.compress(text.encode()) + packer.flush()
    return "q=" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def open_in_referee(path: Path, up: str) -> list[str]:
    """A link that opens the question file ``path`` in the referee page (``up``: the way from
    the page to the site's root), its expected ruling left out: the page rules it afresh."""
    question = json.loads(path.read_text(encoding="utf-8"))
    question.pop("expect", None)
    href = f"{up}{REFEREE_PAGE}#{question_fragment(question)}"
    words = html.escape(_("Open this question in the referee"))
    return raw(f'<p class="referee-open"><a href="{href}">{words}</a></p>')


# ------------------------------------------------------------------------------- positions


def _pile(position: dict[str, Any]) -> tuple[str, list[str], int]:
    """The name of the face-up pile, its top cards (top last, at most three) and how many
    lie below them."""
    for key, name in (("pile", N_("the pile")), ("discard", N_("the discard pile"))):
        cards = position.get(key)
        if isinstance(cards, list) and cards:
            return _(name), [str(c) for c in cards[-3:]], max(0, len(cards) - 3)
    return _("the pile"), [], 0


def position_html(position: dict[str, Any], actor: str | None) -> str:
    """A position at the table: each seat's hand as cards (the player to act marked), and
    what lies face up."""
    hands: dict[str, list[str]] = position.get("hands", {})
    turn = position.get("turn")
    rows = []
    for name in position.get("players", list(hands)):
        held = [str(c) for c in hands.get(name, [])]
        marks = []
        if name == turn:
            marks.append(_("to play"))
        if name in position.get("calls", []):
            marks.append(_("has called"))
        if name == position.get("exposed"):
            marks.append(_("did not call UNO"))
        mark = f' <span class="pc-mark">({", ".join(marks)})</span>' if marks else ""
        cards = cards_html(held) if held else f'<span class="pc-none">{_("no cards")}</span>'
        css = "pc-seat pc-actor" if name == actor else "pc-seat"
        rows.append(
            f'<div class="{css}"><span class="pc-name">{html.escape(name)}{mark}</span>'
            f"{cards}</div>"
        )
    name, top, below = _pile(position)
    table = []
    if top:
        below_text = " " + _("({count} more below)").format(count=below) if below else ""
        caption = _("{pile}, top card last").format(pile=name)
        table.append(
            f'<div class="pc-seat pc-pile"><span class="pc-name">{caption}'
            f"{below_text}</span>{cards_html(top)}</div>"
        )
    for play in position.get("trick", []):
        caption = _("in the trick, from {player}").format(player=html.escape(str(play["player"])))
        table.append(
            f'<div class="pc-seat pc-pile"><span class="pc-name">{caption}</span>'
            f"{cards_html(play['cards'])}</div>"
        )
    notes = []
    if position.get("named_suit"):
        suit = str(parse_card(f"2{position['named_suit']}"))[-1]
        notes.append(_("the suit named is {suit}").format(suit=f"{_(SUIT_NAMES[suit])} {suit}"))
    if position.get("colour"):
        colour = str(position["colour"])
        named = _(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour
        notes.append(_("the colour is {colour}").format(colour=html.escape(named)))
    if "stock" in position and not position["stock"]:
        notes.append(_("the talon is empty"))
    note = f'<div class="pc-note">{"; ".join(notes)}</div>' if notes else ""
    return '<div class="pc-table">' + "".join(rows + table) + note + "</div>"


def action_text(action: dict[str, Any], position: dict[str, Any]) -> tuple[str, list[str]]:
    """Who attempts what, in words, and the cards involved."""
    who: Any = action.get("player", position.get("turn", "the player to act"))
    seats = position.get("players", [])
    if isinstance(who, int) and not isinstance(who, bool) and 0 <= who < len(seats):
        who = seats[who]  # an engine writes a seat by its number
    who = str(who)
    kind = str(action.get("action", "act"))
    given = action.get("cards", [action["card"]] if "card" in action else [])
    cards = [str(c) for c in given] if isinstance(given, list) else []
    words = {
        "play": "lays",
        "draw": "draws a card",
        "pass": "passes",
        "catch": f"points out that {action.get('target')} did not call UNO",
        "challenge": "challenges the Wild Draw Four",
        "call-uno": "calls UNO",
        "look-back": f"looks {given} cards down the pile",
        "remark": "makes a remark about another player's hand",
        "veto": "vetoes the penalty draw",
        "redeal": "demands a new deal",
        "step-in": "steps in",
    }.get(kind, kind.replace("-", " "))
    extra = []
    if action.get("suit"):
        extra.append(f"naming {SUIT_NAMES[str(parse_card('2' + str(action['suit'])))[-1]]}")
    if action.get("colour"):
        extra.append(f"naming {action['colour']}")
    if action.get("call") or action.get("uno"):
        extra.append("and calls")
    return " ".join([who, words, *extra]), cards


def _differs(readings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The readings whose answer is not the one their ambiguity's default gives."""
    default = {r["ambiguity"]: r for r in readings if r["default"]}
    return [
        r
        for r in readings
        if not r["default"]
        and (r["allowed"], r["summary"])
        != (
            default.get(r["ambiguity"], {}).get("allowed"),
            default.get(r["ambiguity"], {}).get("summary"),
        )
    ]


def ruling_lines(step: dict[str, Any]) -> list[str]:
    """A ruling in words: the verdict (:func:`regelverk.verdicts.first_words`, as ``regelverk
    ask`` begins it), what happens, the deciding clauses, other readings."""
    verdict = f"**{esc(first_words(step))}.**"
    lines = [f"{verdict} {cited(unrepeated(step['message'], step.get('clauses', [])))}", ""]
    if step.get("clauses"):
        refs = ", ".join(need(c) for c in step["clauses"])
        lines += [f"*Decided by:* {refs}", ""]
    other = _differs(step.get("readings", []))
    if other:
        lines += ["*Where the rules are unclear, another reading rules otherwise:*", ""]
        for r in other:
            phrase = Verdict.from_token(r["verdict"]).phrase
            answer = phrase[:1].lower() + phrase[1:]
            lines += [
                f"* ``{r['option']} = {r['reading']}`` ({need(r['ambiguity'])}): {answer}; "
                f"{cited(r['summary'])}"
            ]
        lines.append("")
    return lines


def _dealt(deal: Any) -> dict[str, Any]:
    """A given UNO deal as a position to draw: the hands, and the first card turned up."""
    if not isinstance(deal, dict):
        return {}
    first = [deal["first"]] if deal.get("first") else []
    return {"players": deal.get("players", []), "hands": deal.get("hands", {}), "discard": first}


def referee_lines(path: Path, rel: str, up: str = "../") -> list[str]:
    """The reStructuredText for one question file: the position, the attempt, the ruling, and
    a link that opens it in the referee page (``up``: the way from the page to the site's root).
    """
    from regelverk.referee import ask, load_question

    question = load_question(path)
    answer = ask(question)
    position = question.get("position") or _dealt(question.get("deal"))
    lines: list[str] = []
    if question.get("options"):
        pairs = ", ".join(f"``{k} = {v}``" for k, v in question["options"].items())
        lines += [f"*Played with:* {pairs}.", ""]
    if position:
        first = question.get("action") or (question.get("actions") or [{}])[0]
        actor = str(first.get("player", position.get("turn", "")))
        lines += raw(position_html(position, actor))
    if answer.get("opening"):
        lines += ["*The deal:*", ""]
        for event in answer["opening"]:
            refs = ", ".join(need(c) for c in event["clauses"])
            lines.append(f"* {cited(event['text'])}" + (f" ({refs})" if refs else ""))
        lines.append("")
    if "steps" in answer:
        for step in answer["steps"]:
            said, cards = action_text(step["action"], position)
            lines += [f"**{step['number']}.** {esc(said)}", ""]
            if cards:
                lines += raw(cards_html(cards))
            lines += ruling_lines(step)
    elif "action" in question:
        said, cards = action_text(question["action"], position)
        lines += [f"*The attempt:* {esc(said)}", ""]
        if cards:
            lines += raw(cards_html(cards))
        lines += ruling_lines(answer)
    lines += [
        f"*Ask it yourself:* ``regelverk ask {rel}``",
        "",
    ]
    lines += open_in_referee(path, up)
    return lines


# ----------------------------------------------------------------------------- turn flows


@dataclass(frozen=True, slots=True)
class Box:
    """A step of a turn diagram at a place in a two-column grid."""

    key: str
    text: str
    row: int
    col: int = 0
    kind: str = "step"
    """``step``, ``choice`` (a question), ``end`` (the game or deal is over) or ``card``."""


@dataclass(frozen=True, slots=True)
class Arrow:
    """An arrow between two boxes, with an optional label; ``back`` arrows run up the left."""

    start: str
    end: str
    label: str = ""
    back: bool = False
    dashed: bool = False
    """A dashed line without a head: the box on the right says more about the one on the left."""


FLOWS: dict[str, tuple[tuple[Box, ...], tuple[Arrow, ...], str]] = {
    "vvv8": (
        (
            Box("deal", N_("Draw for the deal; seven cards each; turn up the start card"), 0),
            Box(
                "turn",
                N_("Your turn: lay a card of the top card's suit or rank, plus more of that rank"),
                1,
            ),
            Box("ace", N_("Ace: everyone else draws one, and you lay again"), 1, 1, "card"),
            Box("draw", N_("Cannot or will not lay? Draw one at a time, at most three"), 2),
            Box(
                "eight",
                N_("Eight: on any card, one at a time; name the suit to follow"),
                2,
                1,
                "card",
            ),
            Box(
                "out",
                N_("Last card gone? Only after 'utgång' last turn; never an ace or an eight"),
                3,
                0,
                "choice",
            ),
            Box("next", N_("The next player takes the turn"), 3, 1),
            Box("win", N_("You win; the player before you loses"), 4, 0, "end"),
        ),
        (
            Arrow("deal", "turn"),
            Arrow("turn", "draw"),
            Arrow("draw", "out"),
            Arrow("out", "win", N_("yes")),
            Arrow("out", "next", N_("no")),
            Arrow("next", "turn", back=True),
            Arrow("turn", "ace", dashed=True),
            Arrow("draw", "eight", dashed=True),
        ),
        N_("The course of a vvv8 turn"),
    ),
    "vandatta": (
        (
            Box("deal", N_("Seven cards each; turn up the start card (an eight goes back)"), 0),
            Box(
                "turn",
                N_(
                    "Your turn: lay a card of the top card's suit or rank "
                    "(several of a rank at once)"
                ),
                1,
            ),
            Box(
                "ace",
                N_("Ace, of the same suit only: the others draw one; you lay again in its suit"),
                1,
                1,
                "card",
            ),
            Box("draw", N_("Nothing to lay? Draw until you can, at most three"), 2),
            Box(
                "eight",
                N_("Eight, stuck or by choice: the pile turns away; name a suit, start again"),
                2,
                1,
                "card",
            ),
            Box(
                "calls",
                N_("Three cards left: call 'varning!'; one card to go out on: 'LAPPEN!'"),
                3,
                0,
                "choice",
            ),
            Box("next", N_("The next player's turn"), 3, 1),
            Box(
                "out",
                N_("Last card gone, no ace or eight: the deal is yours; the others count points"),
                4,
                0,
                "end",
            ),
        ),
        (
            Arrow("deal", "turn"),
            Arrow("turn", "draw"),
            Arrow("draw", "calls"),
            Arrow("calls", "out", N_("out")),
            Arrow("calls", "next"),
            Arrow("next", "turn", back=True),
            Arrow("turn", "ace", dashed=True),
            Arrow("draw", "eight", dashed=True),
        ),
        N_("The course of a vandatta turn"),
    ),
    "viggo": (
        (
            Box("deal", N_("Thirteen cards each (two players draft theirs)"), 0),
            Box(
                "lead",
                N_(
                    "Lead any combination: a single, a pair, three or four of a kind, "
                    "or a run of five"
                ),
                1,
            ),
            Box("order", N_("Low to high: 4 5 6 7 8 9 10 J Q K A 2 3"), 1, 1, "card"),
            Box("reply", N_("Each next player lays the same kind, higher, or passes"), 2),
            Box("three", N_("A three beats a three; nobody switches kinds"), 2, 1, "card"),
            Box("trick", N_("Nobody beats it? The trick is set aside"), 3, 0, "choice"),
            Box("next", N_("The player after the highest leads again"), 3, 1),
            Box(
                "out",
                N_("First with no cards wins the round; the others score a point a card; 53 loses"),
                4,
                0,
                "end",
            ),
        ),
        (
            Arrow("deal", "lead"),
            Arrow("lead", "reply"),
            Arrow("reply", "trick"),
            Arrow("trick", "next"),
            Arrow("next", "lead", back=True),
            Arrow("trick", "out", N_("a hand empties")),
            Arrow("lead", "order", dashed=True),
            Arrow("reply", "three", dashed=True),
        ),
        N_("The course of a Viggo round"),
    ),
    "uno": (
        (
            Box(
                "deal",
                N_("Seven cards each; the first card turned up acts as if the dealer laid it"),
                0,
            ),
            Box("turn", N_("Your turn: match the top card's colour, number or symbol"), 1),
            Box(
                "wild",
                N_("Wild: any time, name a colour; Wild Draw Four only without that colour"),
                1,
                1,
                "card",
            ),
            Box("draw", N_("Nothing to lay, or rather not? Draw one; lay it if it fits"), 2),
            Box(
                "action",
                N_("Skip, Reverse, Draw Two: the next player loses a turn, or the direction turns"),
                2,
                1,
                "card",
            ),
            Box(
                "uno", N_("One card left? Say 'UNO' before the next player starts"), 3, 0, "choice"
            ),
            Box("next", N_("The next player in the direction of play"), 3, 1),
            Box(
                "out", N_("No cards left: score the others' cards; 500 wins the game"), 4, 0, "end"
            ),
        ),
        (
            Arrow("deal", "turn"),
            Arrow("turn", "draw"),
            Arrow("draw", "uno"),
            Arrow("uno", "out", N_("out")),
            Arrow("uno", "next"),
            Arrow("next", "turn", back=True),
            Arrow("turn", "wild", dashed=True),
            Arrow("draw", "action", dashed=True),
        ),
        N_("The course of an UNO turn"),
    ),
}
"""Each game's turn as boxes in a two-column grid and the arrows between them."""

_W, _GAP, _LEFT, _LINE, _PAD = 172, 16, 20, 17, 8
_FILL = {"step": "#eef3f8", "choice": "#fff7e0", "end": "#e3f4e1", "card": "#fdecea"}


def flow_svg(rulebook: str) -> str:
    """The turn diagram of a rulebook as a self-contained SVG that scales to its container."""
    boxes, arrows, english = FLOWS[rulebook]
    title = _(english)
    wrapped = {b.key: textwrap.wrap(_(b.text), 21) for b in boxes}
    rows = max(b.row for b in boxes) + 1
    heights = [
        max((len(wrapped[b.key]) for b in boxes if b.row == r), default=1) * _LINE + 2 * _PAD
        for r in range(rows)
    ]
    tops = [sum(heights[:r]) + 38 * r + 8 for r in range(rows)]
    width = _LEFT + 2 * _W + _GAP + 8
    height = tops[-1] + heights[-1] + 8
    where = {b.key: b for b in boxes}

    def box_x(col: int) -> int:
        return _LEFT + col * (_W + _GAP)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'class="pc-flow" role="img" aria-label="{html.escape(title)}" '
        'font-family="sans-serif">',
        f"<title>{html.escape(title)}</title>",
        '<defs><marker id="pc-arrow-' + rulebook + '" viewBox="0 0 10 10" refX="9" refY="5" '
        'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>',
    ]
    for b in boxes:
        x, y, h = box_x(b.col), tops[b.row], heights[b.row]
        parts.append(
            f'<rect x="{x}" y="{y}" width="{_W}" height="{h}" rx="8" fill="{_FILL[b.kind]}" '
            'stroke="#7a8a99"/>'
        )
        lines = wrapped[b.key]
        first = y + h / 2 - (len(lines) - 1) * _LINE / 2 + 4
        for number, line in enumerate(lines):
            parts.append(
                f'<text x="{x + _W / 2}" y="{first + number * _LINE:.1f}" '
                f'text-anchor="middle" font-size="14">{html.escape(line)}</text>'
            )
    marker = f'marker-end="url(#pc-arrow-{rulebook})"'
    for a in arrows:
        s, e = where[a.start], where[a.end]
        sx, sy, sh = box_x(s.col), tops[s.row], heights[s.row]
        ex, ey, eh = box_x(e.col), tops[e.row], heights[e.row]
        lx: float
        ly: float
        if a.back:
            gutter = 8
            path = (
                f"M{sx},{sy + sh / 2} H{gutter} V{ey + eh / 2} H{ex}"
                if s.col == 0
                else f"M{sx + _W / 2},{sy + sh} V{sy + sh + 10} H{gutter} V{ey + eh / 2} H{ex}"
            )
            lx, ly = gutter + 4, (sy + ey) / 2
        elif s.row == e.row:
            left = s.col < e.col
            path = f"M{sx + (_W if left else 0)},{sy + sh / 2} H{ex + (0 if left else _W)}"
            lx, ly = (sx + ex + _W) / 2, sy + sh / 2 - 4
        elif s.col == e.col:
            path = f"M{sx + _W / 2},{sy + sh} V{ey}"
            lx, ly = sx + _W / 2 + 5, ey - 5
        else:
            mid = (sy + sh + ey) / 2
            path = f"M{sx + _W / 2},{sy + sh} V{mid} H{ex + _W / 2} V{ey}"
            lx, ly = (sx + ex + _W) / 2, mid - 4
        style = 'stroke-dasharray="4 3"' if a.dashed else marker
        parts.append(f'<path d="{path}" fill="none" stroke="#555" stroke-width="1.4" {style}/>')
        if a.label:
            parts.append(
                f'<text x="{lx:.1f}" y="{ly:.1f}" font-size="13" font-style="italic" '
                f'fill="#333">{html.escape(_(a.label))}</text>'
            )
    parts.append("</svg>")
    return "\n".join(parts)


# ------------------------------------------------------------------------------- plots

BOOKS = RULEBOOKS
"""The rulebooks plotted, in the order of :data:`regelverk.books.RULEBOOKS`."""


def load_table(srcdir: Path) -> Table:
    """The committed simulation table."""
    return table_from_csv((srcdir / TABLE).read_text(encoding="utf-8"))


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ExtensionError(
            "the players' pages draw their plots with matplotlib: pip install 'regelverk[docs]'"
        ) from None
    matplotlib.use("Agg")
    matplotlib.rcParams.update(
        {"svg.hashsalt": "regelverk", "svg.fonttype": "none", "font.size": 9}
    )
    import matplotlib.pyplot as plt

    return plt


def _save(plt: Any, figure: Any, path: Path) -> None:
    figure.tight_layout()
    figure.savefig(path, format="svg", metadata={"Date": None})
    plt.close(figure)


def _preset(table: Table, book: str) -> Row:
    return next(r for r in table.rows if r.rulebook == book and not r.option)


def _plotted(table: Table) -> tuple[str, ...]:
    """The rulebooks of :data:`BOOKS` the table has a row of the preset for (a rulebook
    registered after the table was simulated has none yet, and no players' page either)."""
    return tuple(b for b in BOOKS if any(r.rulebook == b and not r.option for r in table.rows))


def error_bars(counts: Sequence[int], of: int) -> list[list[float]]:
    """Matplotlib's ``yerr`` (or ``xerr``) for counts out of ``of``: the distance from each
    share down and up to its 95% Wilson interval (:func:`regelverk.simulate.wilson`)."""
    below, above = [], []
    for count in counts:
        share = count / of if of else 0.0
        low, high = wilson(count, of)
        below.append(max(0.0, share - low))
        above.append(max(0.0, high - share))
    return [below, above]


def fair_share(row: Row, losses: bool) -> float:
    """What each seat's share would be if no seat were favoured: the results not tied, split
    evenly. The seat shares can meet it, since ties are counted apart from every seat."""
    tied = row.tied_losses if losses else row.tied_wins
    seats = len(row.losses if losses else row.wins)
    return (row.outcomes - tied) / row.outcomes / seats if row.outcomes and seats else 0.0


def plot_seats(table: Table, path: Path) -> None:
    """Each seat's share of the results it won (lost) alone, where losses are what the rulebook
    counts (:attr:`regelverk.books.Rulebook.counted`: Viggo, vvv8), under each preset, with its
    95% interval and the fair share as a dashed line. A vvv8 result is an official deal."""
    plt = _pyplot()
    books = _plotted(table)
    rows = -(-len(books) // 2)
    figure, axes = plt.subplots(rows, 2, figsize=(4.4, 2.1 * rows), sharey=True, squeeze=False)
    for ax, book in zip(axes.flat, books, strict=False):
        row = _preset(table, book)
        losses = described(book).counted == "losses"
        counts = row.losses if losses else row.wins
        seats = [f"P{n}" for n in range(1, len(counts) + 1)]
        ax.bar(
            seats,
            [n / row.outcomes if row.outcomes else 0.0 for n in counts],
            color="#c0392b" if losses else "#2e6da4",
            yerr=error_bars(counts, row.outcomes),
            ecolor="#333",
            capsize=2,
        )
        ax.axhline(fair_share(row, losses), color="#777", linestyle="--", linewidth=1)
        verb = "loses" if losses else "wins"
        ax.set_title(f"{book}: {verb} a deal" if row.outcome == "deal" else f"{book}: {verb}")
        ax.set_ylim(0, 1)
    for ax in axes.flat[len(books) :]:
        ax.set_visible(False)
    for line in axes:
        line[0].set_ylabel("share of results")
    _save(plt, figure, path)


def plot_length(table: Table, path: Path) -> None:
    """The average number of actions and of deals, rounds or hands per game, per preset."""
    plt = _pyplot()
    figure, (left, right) = plt.subplots(1, 2, figsize=(4.4, 2.8))
    books = _plotted(table)
    rows = [_preset(table, b) for b in books]
    left.bar(books, [r.mean_actions for r in rows], color="#2e6da4")
    left.set_title("actions per game")
    right.bar(books, [r.mean_rounds for r in rows], color="#5b8c3a")
    right.set_title("deals, rounds or hands")
    for ax in (left, right):
        ax.tick_params(axis="x", labelrotation=30)
    _save(plt, figure, path)


def plot_readings(table: Table, book: str, path: Path) -> None:
    """For each other reading: the share of games it changes at all, and the share whose
    result it changes."""
    plt = _pyplot()
    rows = [r for r in table.rows if r.rulebook == book and r.option]
    figure, ax = plt.subplots(figsize=(4.0, 0.62 * len(rows) + 1.0))
    if not rows:  # a rulebook with no reading simulated apart from its preset
        ax.text(0.5, 0.5, "no other reading simulated", ha="center", va="center")
        ax.set_axis_off()
        _save(plt, figure, path)
        return
    ys = [1.1 * n for n in range(len(rows))]
    for offset, pick, label in (
        (0.08, "diverged", "game goes otherwise"),
        (0.4, "changed", "result changes"),
    ):
        shares = [getattr(r, pick) / r.games for r in rows]
        bars = [error_bars([getattr(r, pick)], r.games) for r in rows]
        ax.barh(
            [y + offset for y in ys],
            shares,
            0.3,
            label=label,
            xerr=[[b[0][0] for b in bars], [b[1][0] for b in bars]],
            ecolor="#333",
            capsize=2,
        )
    for y, row in zip(ys, rows, strict=True):
        ax.text(0.005, y - 0.2, f"{row.option} = {row.reading}", fontsize=9, va="center")
    ax.set_yticks([])
    ax.set_ylim(ys[-1] + 0.7, -0.55)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize=9, frameon=False)
    _save(plt, figure, path)


def draw_plots(app: Sphinx) -> None:
    """Write every plot of the simulation table into ``_generated/players/``."""
    srcdir = Path(app.srcdir)
    table_path = srcdir / TABLE
    if not table_path.is_file():
        return
    out = srcdir / "_generated" / "players"
    out.mkdir(parents=True, exist_ok=True)
    stamp = out / "table.csv"
    text = table_path.read_text(encoding="utf-8")
    table = table_from_csv(text)
    books = _plotted(table)
    names = ["seats.svg", "length.svg", *(f"readings-{b}.svg" for b in books)]
    fresh = stamp.is_file() and stamp.read_text(encoding="utf-8") == text
    if fresh and all((out / n).is_file() for n in names):
        return
    plot_seats(table, out / "seats.svg")
    plot_length(table, out / "length.svg")
    for book in books:
        plot_readings(table, book, out / f"readings-{book}.svg")
    stamp.write_text(text, encoding="utf-8")


# --------------------------------------------------------------------------- directives


class CardsDirective(SphinxDirective):
    """``.. cards:: 9H 9S 10S 8C``: a row of cards."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[Any]:
        try:
            markup = cards_html(self.arguments[0].split())
        except RegelverkError as error:
            raise self.error(f"cards: {error}") from None
        return self.parse_text_to_nodes("\n".join(raw(markup)))


class RefereeDirective(SphinxDirective):
    """``.. referee:: examples/…/file.json``: the position, the attempt and the ruling."""

    required_arguments = 1

    def run(self) -> list[Any]:
        rel = self.arguments[0]
        path = ROOT / rel
        if not path.is_file():
            raise self.error(f"referee: no question file {rel}")
        self.env.note_dependency(str(path))
        try:
            lines = referee_lines(path, rel, "../" * self.env.docname.count("/"))
        except RegelverkError as error:
            raise self.error(f"referee: {rel}: {error}") from None
        return self.parse_text_to_nodes("\n".join(lines))


class TurnFlowDirective(SphinxDirective):
    """``.. turn-flow:: vvv8``: the course of a turn as a diagram."""

    required_arguments = 1

    def run(self) -> list[Any]:
        book = self.arguments[0]
        if book not in FLOWS:
            raise self.error(f"turn-flow: no diagram for {book!r}")
        markup = f'<figure class="pc-figure">{flow_svg(book)}</figure>'
        return self.parse_text_to_nodes("\n".join(raw(markup)))


class SimulationFigureDirective(SphinxDirective):
    """``.. simulation-figure:: seats``: a plot of the simulation table, with a caption."""

    required_arguments = 1
    has_content = True

    def run(self) -> list[Any]:
        name = self.arguments[0]
        self.env.note_dependency(str(Path(self.env.srcdir) / TABLE))
        caption = "\n".join(f"   {line}" for line in self.content)
        text = f".. figure:: /_generated/players/{name}.svg\n   :width: 100%\n\n{caption}\n"
        return self.parse_text_to_nodes(text)


class SimulationTableDirective(SphinxDirective):
    """``.. simulation-table:: vvv8``: the readings of a rulebook in the table, as figures."""

    required_arguments = 1

    def run(self) -> list[Any]:
        book = self.arguments[0]
        srcdir = Path(self.env.srcdir)
        self.env.note_dependency(str(srcdir / TABLE))
        table = load_table(srcdir)
        preset = _preset(table, book)
        lines = [
            f"{preset.games} games under the preset, every seat played by the {table.policy} "
            f"player: {preset.finished} finished, "
            f"{preset.mean_actions:g} actions and {preset.mean_rounds:g} deals, rounds or hands "
            "on average.",
            "",
            ".. list-table::",
            "   :header-rows: 1",
            "",
            "   * - reading",
            "     - goes otherwise",
            "     - result changes",
        ]
        by_option = {a.option: a.id for a in registry_for(book).rulebook(book).ambiguities}
        for row in table.rows:
            if row.rulebook != book or not row.option:
                continue
            link = f" ({need(by_option[row.option])})" if row.option in by_option else ""
            lines += [
                f"   * - ``{row.option} = {row.reading}``{link}",
                f"     - {_percent(row.diverged, row.games)}",
                f"     - {_percent(row.changed, row.games)}",
            ]
        return self.parse_text_to_nodes("\n".join(lines))


def _percent(count: int, of: int) -> str:
    """A share with its 95% interval, as the tables print it: ``12% (7-20%)``."""
    share, low, high = rate(count, of)
    return f"{share:.0%} ({low:.0%}-{high:.0%})"


def always_read(
    app: Sphinx, env: Any, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Read the players' pages again at every build: their rulings come from the engine, which
    Sphinx does not watch, so an answer can never be left over from older code."""
    return sorted(d for d in env.found_docs if d.startswith("players/") and d not in added)


def add_static(app: Sphinx, config: Config) -> None:
    """Serve the card and diagram styles."""
    config.html_static_path.append(str(STATIC))


LOCALES = Path(__file__).resolve().parent.parent / "locales"
"""The catalogues of the site's editions (``docs/locales``)."""


def compiled(language: str | None) -> None:
    """Compile the edition's :data:`CATALOGUE` (``.po``) into the ``.mo`` gettext reads, when
    it is missing or older; nothing for English or an edition without one."""
    if not language or language.startswith("en"):
        return
    source = LOCALES / language / "LC_MESSAGES" / f"{CATALOGUE}.po"
    target = source.with_suffix(".mo")
    if not source.is_file():
        return
    if target.is_file() and target.stat().st_mtime >= source.stat().st_mtime:
        return
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with source.open("rb") as handle:
        catalogue = read_po(handle)
    scratch = target.with_suffix(f".{os.getpid()}.part")  # two builds may compile at once
    with scratch.open("wb") as handle:
        write_mo(handle, catalogue)
    scratch.replace(target)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directives, the styles, the plots and the catalogue of this extension's
    words."""
    compiled(app.config.language)
    app.add_message_catalog(CATALOGUE, LOCALES)
    app.add_directive("cards", CardsDirective)
    app.add_directive("referee", RefereeDirective)
    app.add_directive("turn-flow", TurnFlowDirective)
    app.add_directive("simulation-figure", SimulationFigureDirective)
    app.add_directive("simulation-table", SimulationTableDirective)
    app.connect("config-inited", add_static)
    app.connect("builder-inited", draw_plots)
    app.connect("env-get-outdated", always_read)
    app.add_css_file("players.css")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
