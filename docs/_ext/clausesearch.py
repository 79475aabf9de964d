"""Sphinx extension: the clause search, built on Pagefind.

At the end of an HTML build every clause and every entry of the ambiguity register becomes one
Pagefind record, and Pagefind (the ``pagefind`` package, which ships its own binary) writes its
index into ``pagefind/`` in the built site. The search page (``_static/clausesearch.js``) asks
that index through Pagefind's JavaScript API and lists the clauses found above Sphinx's own page
results; everything it loads comes from the site itself.

A record holds, each part weighted by how much it says about the clause (:data:`WEIGHT_ID`,
:data:`WEIGHT_ALIAS`, :data:`WEIGHT_RULE`):

* the clause's id, as written and as words (``UNO-WD4-CONDITION``, ``uno wd4 condition``);
* the aliases a reader may type instead of the words of the rule (below);
* the rule in the project's words (for an ambiguity: its title and question).

and carries the rulebook as a filter (``rulebook``) and the id, rulebook, place, kind, rule and
address of the clause as metadata for the result list. Pagefind stems the words of the records
and of the query in the site's language (``language`` in ``conf.py``; English by default): a
site built in another language gets its records, and its index, in that language.

Aliases come from three places:

* ``docs/search/words.toml``: rules that derive aliases from the words of a clause's id, rule
  and hand-given aliases: number words in digits (``eight`` → ``8``), ranks as the text's own
  language names the card (``eight`` → ``åtta``, ``åttan``, ``åttor`` in the Swedish texts,
  ``åtter`` in the Norwegian one), cards and things under their other names (``Wild Draw Four``
  → ``wd4``, ``vilt dra fyra``; ``talon`` → ``talong``, ``stock``), and British spellings in
  American (``colour`` → ``color``). It also holds what the search page reads in a query: the
  words that name a rulebook, the little words it leaves out, and cards written with a ``+``
  (``W+4``), which the index cannot hold and the page asks for in words;
* ``spec/glossary.toml``: each Swedish or Norwegian term is an alias of the clauses it cites;
* ``docs/search/<rulebook>.toml``: aliases given by hand to a clause, chiefly the questions a
  player asks (``how many cards are dealt``) and the words he uses for the clause's subject;
  ``docs/search/<language>/<rulebook>.toml`` adds those of an edition in another language.

An edition in another language (``sv``) also lends each clause the words of every translated
message of its pages that cites it (:func:`translated_words`): the Swedish quick rules' lines
make their clauses found in Swedish.

Every alias, with accents and Nordic letters folded as well (``förhand``, ``forhand``), belongs
only to clauses whose rule concerns it: the derived ones come from the clause's own words, and a
test checks that every clause named by hand belongs to that rulebook.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import shutil
import tempfile
import time
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rulebook_site
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from regelverk.registry import default_registry

LOGGER = logging.getLogger(__name__)

ALIASES = "search"
"""The folder of ``docs/`` holding the alias files."""

INDEX = "pagefind"
"""The folder of the built site Pagefind writes its index into."""

UNUSED = ("pagefind-ui.*", "pagefind-modular-ui.*", "pagefind-highlight.js")
"""Files Pagefind writes beside its index for its own ready-made interface, which the search
page does not use (it asks the index through ``pagefind.js``): removed from the site."""

WEIGHT_ID = 6.0
"""The weight of a record's id and of the aliases derived from the id's words."""
WEIGHT_ALIAS = 3.0
"""The weight of the aliases given by hand and of the glossary's terms."""
WEIGHT_RULE = 1.0
"""The weight of the rule's words and of the aliases derived from them."""


UI: dict[str, dict[str, str]] = {
    "en": {
        "rulebook": "Rulebook",
        "all": "all four",
        "clauses": "Clauses",
        "one": "1 clause",
        "many": "{n} clauses",
        "in": "in",
        "and": "and",
        "more": "Show all {n}",
        "none": "No clause holds every word searched (the little words of a question aside): "
        "try fewer words, or other words for the same thing.",
        "unloaded": "The clause search could not load its index. It needs the site served over "
        "http (for a local copy: python -m http.server --directory <the built site>).",
        "find": "Find a rule by its id or by its words",
        "example": "V8-EIGHT-ON-ANY-CARD or: eight any card",
        "search": "Search",
    },
    "sv": {
        "rulebook": "Regelbok",
        "all": "alla fyra",
        "clauses": "Regler",
        "one": "1 regel",
        "many": "{n} regler",
        "in": "i",
        "and": "och",
        "more": "Visa alla {n}",
        "none": "Ingen regel innehåller alla sökta ord (frågans småord undantagna): "
        "försök med färre ord, eller andra ord för samma sak.",
        "unloaded": "Regelsökningen kunde inte läsa in sitt index. Webbplatsen måste visas "
        "över http (för en lokal kopia: python -m http.server --directory <den byggda "
        "webbplatsen>).",
        "find": "Hitta en regel på dess id eller dess ord",
        "example": "V8-EIGHT-ON-ANY-CARD eller: åtta vilket kort som helst",
        "search": "Sök",
    },
}
"""The search page's words, by the edition's language (``{n}``: a count); an edition without
its own words has the English ones."""

TRANSLATIONS = "locales"
"""The folder of ``docs/`` holding each edition's catalogues (``<language>/LC_MESSAGES``)."""

CITED = re.compile(r"<([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)>|:need:`([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)`")
"""A clause cited in a message of the pages (``:need:`[[id]] <UNO-DECK-108>```)."""
MARKUP = re.compile(r":[a-z]+:`[^`]*`|``[^`]*``|[*`]")
"""The markup of a message, left out of its words (references, literals, emphasis)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Words:
    """The rules of ``words.toml``."""

    numbers: Mapping[str, Sequence[str]]
    """A number word and its digits (``eight`` → ``8``), for every rulebook."""
    ranks: Mapping[str, Mapping[str, Sequence[str]]]
    """By rulebook: a rank word and the card's names in the language of its text."""
    names: Mapping[str, Sequence[str]]
    """A name of a card or thing (lower case, perhaps several words) and its other forms."""
    spelling: Mapping[str, Sequence[str]]
    """A British spelling and its American one."""
    unless: Mapping[str, Sequence[str]] = field(default_factory=dict)
    """A name of :attr:`names` and the phrases in which it means something else (``declared a
    draw`` is no draw of a card)."""
    rulebooks: Mapping[str, Sequence[str]] = field(default_factory=dict)
    """A word of a query that names rulebooks, and the rulebooks it names."""
    stop: Sequence[str] = ()
    """The little words of a question that the search leaves out."""
    typed: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """A card as players write it (``+4``, ``W+4``), which Pagefind cannot index: the
    ``words`` the search page asks the index instead, in the ``rulebooks`` that have it."""


def read_words(path: Path) -> Words:
    """Read ``words.toml``."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return Words(
        numbers=data["numbers"],
        ranks=data["ranks"],
        names=data["names"],
        spelling=data["spelling"],
        rulebooks=data["rulebooks"],
        stop=data["stop"]["words"],
        typed=data["typed"],
        unless=data.get("unless", {}),
    )


#: Words after a rank word that make it a count, not a card: "three cards", "four players".
COUNTED = re.compile(
    r"\s+(?:or\s+\w+\s+)?(?:more\s+)?(cards?|players?|points?|times?|rounds?|decks?|packs?|turns?|"
    r"complete|further|extra|penalty|new|of\s+a\s+kind|in\s+all|at\s+a\s+time|deals?|passes)\b"
)
PLURALS = {"six": "sixes"}


def rank_is_card(text: str, word: str) -> bool:
    """Whether ``text`` uses the rank ``word`` as a card (``an eight``, ``eights``, ``the three
    of clubs``) and not only as a count (``three cards``, ``four players``)."""
    plural = PLURALS.get(word, f"{word}s")
    if re.search(rf"\b{plural}\b", text):
        return True
    return any(not COUNTED.match(text, m.end()) for m in re.finditer(rf"\b{word}\b", text))


def derived(text: str, words: Words, rulebook: str) -> list[str]:
    """The aliases ``words.toml`` derives from ``text`` (a rule, or an id's words) of
    ``rulebook``."""
    lower = text.lower()
    found: list[str] = []
    for word, digits in words.numbers.items():
        if re.search(rf"\b{word}s?\b", lower):
            found += digits
    for word, names in words.ranks.get(rulebook, {}).items():
        if rank_is_card(lower, word):
            found += names
    for name, forms in words.names.items():
        other = lower
        for phrase in words.unless.get(name, ()):
            other = other.replace(phrase, " ")
        if re.search(rf"\b{re.escape(name)}s?\b", other):
            found += forms
    for british, american in words.spelling.items():
        if re.search(rf"\b{re.escape(british)}\b", lower):
            found += american
    return list(dict.fromkeys(found))


def translated_words(folder: Path) -> dict[str, list[str]]:
    """By clause id, the translated sentences of the pages that cite it: every message of the
    catalogues in ``folder`` (``docs/locales/<language>/LC_MESSAGES``) whose English cites a
    clause lends that clause the words of its translation (a quick rule's line in Swedish
    makes its clauses found in Swedish)."""
    from babel.messages.pofile import read_po  # Sphinx's own dependency

    found: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("*.po")):
        with path.open("rb") as handle:
            catalog = read_po(handle)
        for message in catalog:
            if not message.id or not message.string or message.fuzzy:
                continue
            english = message.id if isinstance(message.id, str) else message.id[0]
            text = message.string if isinstance(message.string, str) else message.string[0]
            words = " ".join(MARKUP.sub(" ", text).split())
            for cited in CITED.finditer(english):
                found.setdefault(cited.group(1) or cited.group(2), []).append(words)
    return found


def read_aliases(folder: Path, books: Iterable[str]) -> dict[str, list[str]]:
    """The aliases given by hand in ``<rulebook>.toml``, by clause id."""
    aliases: dict[str, list[str]] = {}
    for book in books:
        path = folder / f"{book}.toml"
        if not path.exists():
            continue
        for ident, given in tomllib.loads(path.read_text(encoding="utf-8")).items():
            aliases.setdefault(ident, []).extend(given)
    return aliases


FOLDED = str.maketrans({"å": "a", "ä": "a", "ö": "o", "ø": "o", "æ": "ae", "é": "e"})


def with_folded(words: Iterable[str]) -> list[str]:
    """The words, and each with accents and Nordic letters folded (``förhand``, ``forhand``),
    as a reader without a Swedish keyboard types it."""
    found: list[str] = []
    for word in words:
        found += [word, word.lower().translate(FOLDED)]
    return list(dict.fromkeys(found))


def id_words(ident: str) -> str:
    """An id as words: ``UNO-WD4-CONDITION`` → ``uno wd4 condition``."""
    return ident.replace("-", " ").lower()


def block(text: str, weight: float) -> str:
    return f'<p data-pagefind-weight="{weight:g}">{html.escape(text)}</p>'


def meta(key: str, value: str) -> str:
    return f'<span data-pagefind-meta="{key}" data-pagefind-ignore>{html.escape(value)}</span>'


def record(
    entry: Mapping[str, str],
    *,
    name: str,
    site_language: str,
    words: Words,
    given: Sequence[str],
    translated: Sequence[str] = (),
) -> str:
    """One clause's record: a small HTML page for Pagefind to read."""
    ident = entry["id"]
    from_id = with_folded(derived(id_words(ident), words, entry["book"]))
    from_rule = with_folded(derived(entry["text"], words, entry["book"]))
    given = with_folded([*given, *derived(" ".join(given), words, entry["book"])])
    parts = [
        f'<div data-pagefind-filter="rulebook:{html.escape(entry["book"])}"></div>',
        f'<h1 data-pagefind-meta="title" data-pagefind-weight="{WEIGHT_ID:g}">{ident}</h1>',
        block(" ".join([id_words(ident), *from_id]), WEIGHT_ID),
    ]
    if given:
        parts.append(block(" · ".join(given), WEIGHT_ALIAS))
    parts.append(block(" ".join([entry["text"], *from_rule]), WEIGHT_RULE))
    if translated:  # the edition's own words for the rule, from its pages' translations
        parts.append(block(" · ".join(with_folded(translated)), WEIGHT_RULE))
    parts += [
        meta("url", entry["url"]),
        meta("book", name),
        meta("where", entry["where"]),
        meta("kind", entry["kind"]),
        meta("text", entry["text"]),
    ]
    body = "\n".join(parts)
    return (
        f'<!doctype html><html lang="{site_language}"><head><meta charset="utf-8">'
        f"<title>{ident}</title></head><body>{body}</body></html>\n"
    )


async def write_index(pages: Path, into: Path, language: str) -> int:
    """Index the record pages in ``pages`` and write the index into ``into``; the count."""
    from pagefind.index import IndexConfig, PagefindIndex  # the docs extra: see build_index

    config: IndexConfig = {"output_path": str(into), "force_language": language}
    async with PagefindIndex(config=config) as index:
        found = await index.add_directory(str(pages))
    return int(found["page_count"])


def site_language(app: Sphinx) -> str:
    """The language of the built pages, as Pagefind names it."""
    language: str = app.config.language or "en"
    return language.split("_", maxsplit=1)[0].lower()


def build_index(app: Sphinx, exception: BaseException | None) -> None:
    """Write the Pagefind index of every clause into the built site, and the search page's
    words (rulebook names and left-out words) into ``_static/clausesearch-words.js``."""
    if exception is not None or app.builder.format != "html":
        return
    try:
        import pagefind.index  # noqa: F401 (only to say what is missing)
    except ImportError:
        LOGGER.warning(
            "the clause search needs Pagefind: pip install -e '.[docs]' (the site is built "
            "without its index, and the search page lists no clauses)"
        )
        return
    started = time.perf_counter()
    folder = Path(app.srcdir) / ALIASES
    words = read_words(folder / "words.toml")
    registry = default_registry()
    books = {book.id: book for book in registry.rulebooks}
    language = site_language(app)
    given = read_aliases(folder, books)
    if language != "en":  # the edition's own aliases, beside the shared ones
        for ident, more in read_aliases(folder / language, books).items():
            given.setdefault(ident, []).extend(more)
    for term in registry.glossary:
        name = term.term.split(" (")[0]
        for ident in term.clauses:
            given.setdefault(ident, []).append(name)
    table = rulebook_site.clause_table(app)
    unknown = sorted(set(given) - {entry["id"] for entry in table})
    if unknown:
        LOGGER.warning("search aliases name no clause of the site: %s", ", ".join(unknown))
    translated = (
        translated_words(Path(app.srcdir) / TRANSLATIONS / language / "LC_MESSAGES")
        if language != "en"
        else {}
    )
    out = Path(app.outdir)
    with tempfile.TemporaryDirectory(prefix="clause-records-") as scratch:
        pages = Path(scratch)
        for number, entry in enumerate(table):
            book = books[entry["book"]]
            text = record(
                entry,
                name=f"{book.name} ({book.id})",
                site_language=language,
                words=words,
                given=given.get(entry["id"], []),
                translated=translated.get(entry["id"], []),
            )
            (pages / f"{number:04d}.html").write_text(text, encoding="utf-8")
        shutil.rmtree(out / INDEX, ignore_errors=True)
        count = asyncio.run(write_index(pages, out / INDEX, language))
    for pattern in UNUSED:
        for unused in (out / INDEX).glob(pattern):
            unused.unlink()
    if count != len(table):
        LOGGER.warning("the search index holds %d of %d clauses", count, len(table))
    static = out / "_static"
    static.mkdir(exist_ok=True)
    settings = {
        "rulebooks": words.rulebooks,
        "books": {book.id: f"{book.name} ({book.id})" for book in registry.rulebooks},
        "prefixes": [book.prefix for book in registry.rulebooks],
        "stop": list(words.stop),
        "typed": words.typed,
        "index": f"{INDEX}/",
        "ui": UI.get(language, UI["en"]),
    }
    data = json.dumps(settings, ensure_ascii=False, separators=(",", ":"))
    (static / "clausesearch-words.js").write_text(
        f"window.clauseSearchWords = {data};\n", encoding="utf-8"
    )
    size = sum(p.stat().st_size for p in (out / INDEX).rglob("*") if p.is_file())
    LOGGER.info(
        "search: %d clauses indexed in %.1f s, %.0f kB",
        count,
        time.perf_counter() - started,
        size / 1000,
    )


def search_page_scripts(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Load the clause search on the search page only."""
    if pagename == "search":
        app.add_js_file("clausesearch-words.js")
        app.add_js_file("clausesearch.js")


class FindForm(SphinxDirective):
    """``.. rulebook-find::``: the form that sends a query to the search page, in the
    edition's language."""

    def run(self) -> list[nodes.Node]:
        language = (self.config.language or "en").split("_", maxsplit=1)[0].lower()
        words = UI.get(language, UI["en"])
        form = (
            '<form class="rulebook-find" action="search.html" method="get" role="search">\n'
            f'  <label for="rulebook-find-q">{html.escape(words["find"])}</label>\n'
            '  <input id="rulebook-find-q" type="search" name="q" autocomplete="off"\n'
            f'         placeholder="{html.escape(words["example"])}">\n'
            f'  <button type="submit">{html.escape(words["search"])}</button>\n'
            "</form>"
        )
        return [nodes.raw("", form, format="html")]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the index writer, the search page's scripts and the search form."""
    app.add_directive("rulebook-find", FindForm)
    app.connect("html-page-context", search_page_scripts)
    app.connect("build-finished", build_index)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
