"""The clause search as a player meets it: the questions of ``search_queries.toml`` typed into
the built site's search page, in a headless Chromium, each finding its clause among the first
three; a typed id finding its clause first; the rulebook menu and a rulebook's name keeping to
that rulebook. Also, without a browser: the Pagefind index holds one record per clause, leading
to the clause's anchor, and every alias given by hand names a clause of its own rulebook.

The site is the one :func:`test_docs_site.site` provides (built once and kept in the cache, or
named by ``REGELVERK_DOCS_HTML``). The search page fetches its index, so the site is served on
a local address for the browser, as a reader's web server would serve it. The checks in a
browser are skipped, saying so, when no Chromium is installed.
"""

from __future__ import annotations

import gzip
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from test_docs_site import read_page, run_in_browser, shared, site

from regelverk.registry import default_registry

__all__ = ["site"]  # the fixture, shared with the site's other tests

ROOT = Path(__file__).resolve().parent.parent
QUERIES = tomllib.loads((Path(__file__).parent / "search_queries.toml").read_text("utf-8"))
SWEDISH = tomllib.loads((Path(__file__).parent / "search_queries_sv.toml").read_text("utf-8"))
"""The questions of the Swedish edition (its search page is ``sv/search.html``)."""
ALIASES = ROOT / "docs" / "search"
TOP = 3
"""A question's clause must be among this many first results."""


# Without a browser.


def records(site: Path) -> list[dict[str, Any]]:
    """The records of the site's Pagefind index, read from its fragments (gzip, after a
    signature, JSON)."""
    found = []
    for path in sorted((site / "pagefind" / "fragment").glob("*.pf_fragment")):
        data = gzip.decompress(path.read_bytes())
        found.append(json.loads(data[data.index(b"{") :]))
    return found


def test_the_index_holds_every_clause_and_leads_to_it(site: Path) -> None:
    registry = default_registry()
    expected = {c.id for b in registry.rulebooks for c in b.clauses}
    expected |= {a.id for b in registry.rulebooks for a in b.ambiguities}
    found = records(site)
    assert {r["meta"]["title"] for r in found} == expected
    ids_of: dict[str, set[str]] = {}
    missing = []
    for entry in found:
        path, _, anchor = entry["meta"]["url"].partition("#")
        target = site / path
        if path not in ids_of:
            ids_of[path] = read_page(target).ids if target.is_file() else set()
        if anchor != entry["meta"]["title"] or anchor not in ids_of[path]:
            missing.append(f"{entry['meta']['title']}: {entry['meta']['url']}")
    assert not missing, "\n".join(missing[:20])
    assert {r["filters"]["rulebook"][0] for r in found} == {b.id for b in registry.rulebooks}


def test_a_record_holds_its_card_names_and_the_texts_words(site: Path) -> None:
    content = {r["meta"]["title"]: r["content"] for r in records(site)}
    assert "8" in re.findall(r"\w+", content["V8-EIGHT-ON-ANY-CARD"])
    assert "åtta" in content["V8-EIGHT-ON-ANY-CARD"]
    assert "wild draw four" in content["UNO-WD4-EFFECT"].lower()
    assert "color" in content["UNO-WD4-NAME-COLOUR"]
    assert "talong" in content["V8-START-REST-IS-TALON"]
    # A count is no card: three penalty cards are no 'trea'; a game declared a draw draws no card.
    assert "trea" not in content["V8-PEN-STANDARD-THREE-CARDS"]
    assert "pick up" not in content["V8-TALON-DRAWN-ONE-DECK"]
    assert "pick up" in content["UNO-DRAW-TWO-EFFECT"]


def test_every_alias_names_a_clause_of_its_rulebook() -> None:
    registry = default_registry()
    for book in registry.rulebooks:
        path = ALIASES / f"{book.id}.toml"
        assert path.is_file(), f"{path.name} is missing"
        own = {c.id for c in book.clauses} | {a.id for a in book.ambiguities}
        given = tomllib.loads(path.read_text(encoding="utf-8"))
        assert set(given) <= own, f"{path.name}: {sorted(set(given) - own)}"
        assert all(
            isinstance(v, list) and all(isinstance(w, str) for w in v) for v in given.values()
        )
        swedish = ALIASES / "sv" / f"{book.id}.toml"  # the Swedish edition's own, if any
        if swedish.is_file():
            given = tomllib.loads(swedish.read_text(encoding="utf-8"))
            assert set(given) <= own, f"sv/{swedish.name}: {sorted(set(given) - own)}"


@pytest.mark.parametrize("language", ["en", "sv"])
def test_the_query_set_covers_every_rulebook(language: str) -> None:
    """At least forty questions in each language, about all four rulebooks, each expecting
    clauses that exist."""
    queries = (QUERIES if language == "en" else SWEDISH)["query"]
    assert len(queries) >= 40
    registry = default_registry()
    known = {c.id for b in registry.rulebooks for c in b.clauses}
    known |= {a.id for b in registry.rulebooks for a in b.ambiguities}
    assert all(set(q["expect"]) <= known for q in queries), [
        q["q"] for q in queries if not set(q["expect"]) <= known
    ]
    prefixes = {ident.split("-")[0] for q in queries for ident in q["expect"]}
    assert prefixes == {book.prefix for book in registry.rulebooks}


# In a browser.

DRIVER = """<!doctype html><meta charset="utf-8"><title>search</title>
<body>
<script>
const asks = %(asks)s;
const found = {};
let waiting = asks.length;
function collect(frame, ask) {
  const doc = frame.contentDocument;
  const box = doc && doc.getElementById("clause-results");
  if (!box || box.dataset.done !== "true") {
    if (Date.now() - frame.started > 20000) {
      found[ask.key] = {error: box ? box.textContent : "no clause results"};
      return true;
    }
    return false;
  }
  const ids = [...box.querySelectorAll("a.clause-id")].map((a) => a.textContent);
  const links = [...box.querySelectorAll("a.clause-id")].map((a) => a.getAttribute("href"));
  found[ask.key] = {ids, links, title: box.querySelector("h2").textContent};
  return true;
}
let next = 0;
function take(frame) {
  if (next === asks.length) return;
  const ask = asks[next++];
  frame.onload = () => {
    const poll = setInterval(() => {
      if (!collect(frame, ask)) return;
      clearInterval(poll);
      waiting -= 1;
      if (waiting === 0) fetch("/__found__", {method: "POST", body: JSON.stringify(found)});
      take(frame);
    }, 50);
  };
  frame.started = Date.now();
  frame.src = ask.page;
}
for (let i = 0; i < 3; i++) {
  const frame = document.createElement("iframe");
  document.body.append(frame);
  take(frame);
}
</script>
"""


def search_in_browser(
    site: Path, asks: dict[str, str], edition: str = ""
) -> dict[str, dict[str, Any]]:
    """For each key, the search page's clause results when opened at ``search.html`` (of the
    edition in the folder ``edition``) plus its query string (the ids listed, their links, the
    heading), in a headless Chromium, the site served on a local address."""
    pages = [{"key": key, "page": f"/{edition}search.html{query}"} for key, query in asks.items()]
    driver = DRIVER % {"asks": json.dumps(pages)}
    return run_in_browser(site, driver, timeout=300, doing="search")


def query_string(q: str, rulebook: str = "") -> str:
    from urllib.parse import urlencode

    return "?" + urlencode({"q": q, **({"rulebook": rulebook} if rulebook else {})})


EXTRA = {
    "id": query_string("V8-EIGHT-ON-ANY-CARD"),
    "words": query_string("eight any card"),
    "menu": query_string("deal", "uno"),
    "named": query_string("viggo deal"),
    "person": query_string("start ace viggo"),
    "nothing": query_string("zebra crossing"),
}
"""Searches the tests below look at, beside the query set's."""


def typed_ids() -> list[str]:
    """Every 20th id of a clause or register entry (every one takes a minute longer; each of
    the 492 was found first when this was written), typed in lower case every other time."""
    registry = default_registry()
    ids = [c.id for b in registry.rulebooks for c in b.clauses]
    ids += [a.id for b in registry.rulebooks for a in b.ambiguities]
    return [i.lower() if n % 2 else i for n, i in enumerate(ids[::20])]


@pytest.fixture(scope="module")
def answers(site: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The search page's clause results for every question of the query set, for the ids of
    :func:`typed_ids` and for :data:`EXTRA`, searched in one browser once per test run."""
    asks = {f"q{n}": query_string(q["q"]) for n, q in enumerate(QUERIES["query"])}
    asks |= {f"id:{i}": query_string(i) for i in typed_ids()}
    found: dict[str, dict[str, Any]] = shared(
        tmp_path_factory, "search-en", lambda: search_in_browser(site, {**asks, **EXTRA})
    )
    return found


@pytest.mark.parametrize(
    "number", range(len(QUERIES["query"])), ids=[q["q"] for q in QUERIES["query"]]
)
def test_a_player_s_question_finds_its_clause_in_the_top_three(
    answers: dict[str, dict[str, Any]], number: int
) -> None:
    assert_among_the_first(QUERIES["query"][number], answers[f"q{number}"])


def assert_among_the_first(query: dict[str, Any], found: dict[str, Any]) -> None:
    """One of the clauses ``query`` expects is among the first :data:`TOP` the page listed."""
    assert "error" not in found, found
    top = found["ids"][:TOP]
    assert set(top) & set(query["expect"]), (
        f"{query['q']!r}: wanted one of {query['expect']} in the first {TOP}, "
        f"found {found['ids'][:8]} ({found['title']})"
    )


def test_searching_a_clause_id_finds_that_clause_first(answers: dict[str, dict[str, Any]]) -> None:
    found = answers["id"]
    assert found["ids"][0] == "V8-EIGHT-ON-ANY-CARD"
    assert found["links"][0].endswith("#V8-EIGHT-ON-ANY-CARD")
    missed = {
        typed: answers[f"id:{typed}"]["ids"][:3]
        for typed in typed_ids()
        if answers[f"id:{typed}"]["ids"][:1] != [typed.upper()]
    }
    assert not missed, missed


def test_searching_words_finds_the_clauses_holding_them(
    answers: dict[str, dict[str, Any]],
) -> None:
    assert "V8-EIGHT-ON-ANY-CARD" in answers["words"]["ids"][:5]


def test_the_rulebook_menu_and_a_rulebook_s_name_keep_to_that_rulebook(
    answers: dict[str, dict[str, Any]],
) -> None:
    assert answers["menu"]["ids"] and all(i.startswith("UNO-") for i in answers["menu"]["ids"])
    assert answers["named"]["ids"] and all(i.startswith("VG-") for i in answers["named"]["ids"])


def test_a_rulebook_s_name_is_still_a_word_where_it_filters_out_everything(
    answers: dict[str, dict[str, Any]],
) -> None:
    """Viggo is the Norwegian game, and in the vvv8 text a person at the table."""
    assert "V8-START-ACE-ONLY-WITH-VIGGO" in answers["person"]["ids"][:3]


def test_the_search_page_loads_its_index_from_the_site_itself(site: Path) -> None:
    page = (site / "search.html").read_text(encoding="utf-8")
    scripts = re.findall(r'<script[^>]+src="([^"]+)"', page)
    assert any("clausesearch.js" in s for s in scripts)
    assert not [s for s in scripts if s.startswith(("http:", "https:", "//"))]
    assert (site / "pagefind" / "pagefind.js").is_file()


def test_a_search_that_finds_no_clause_says_so(answers: dict[str, dict[str, Any]]) -> None:
    assert answers["nothing"]["ids"] == []
    assert answers["nothing"]["title"] == "0 clauses"


# The Swedish edition.


def test_the_swedish_edition_has_its_own_index_of_every_clause_with_the_pages_words(
    site: Path,
) -> None:
    english = {r["meta"]["title"]: r for r in records(site)}
    swedish = {r["meta"]["title"]: r for r in records(site / "sv")}
    assert set(swedish) == set(english)
    # the quick rules' lines in Swedish lend their words to the clauses they cite
    assert "talongen" in swedish["V8-START-CARD-FACE-UP"]["content"].lower()
    assert "talongen" not in english["V8-START-CARD-FACE-UP"]["content"].lower()
    words = (site / "sv" / "_static" / "clausesearch-words.js").read_text(encoding="utf-8")
    assert '"more":"Visa alla {n}"' in words


@pytest.fixture(scope="module")
def svar(site: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The Swedish search page's clause results for every question of the Swedish query set,
    and for a search that finds nothing (once per test run)."""
    asks = {f"q{n}": query_string(q["q"]) for n, q in enumerate(SWEDISH["query"])}
    asks["nothing"] = query_string("zebra giraff")
    found: dict[str, dict[str, Any]] = shared(
        tmp_path_factory, "search-sv", lambda: search_in_browser(site, asks, edition="sv/")
    )
    return found


@pytest.mark.parametrize(
    "number", range(len(SWEDISH["query"])), ids=[q["q"] for q in SWEDISH["query"]]
)
def test_a_swedish_question_finds_its_clause_in_the_top_three(
    svar: dict[str, dict[str, Any]], number: int
) -> None:
    assert_among_the_first(SWEDISH["query"][number], svar[f"q{number}"])


def test_the_swedish_search_page_speaks_swedish(svar: dict[str, dict[str, Any]]) -> None:
    assert svar["nothing"]["ids"] == []
    assert svar["nothing"]["title"] == "0 regler"
