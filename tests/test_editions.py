"""The Swedish edition of the rulebook (``sv/`` in the built site; ``docs/_ext/editions.py``):
it holds every page of the English one, each page leads to itself in the other edition, the
players' pages are translated to the last message, and a page without a translation says so
and is marked English. The site is the one :func:`test_docs_site.site` provides.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from test_docs_site import pages_of, site

__all__ = ["site"]  # the fixture, shared with the site's other tests

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = ROOT / "docs" / "locales" / "sv" / "LC_MESSAGES"
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
from editions import ONLY_IN_ENGLISH, TRANSLATED  # noqa: E402

SWITCH = re.compile(r'<nav class="edition-switch"[^>]*><a href="([^"]+)" hreflang="(\w+)"')
LANG = re.compile(r'<html[^>]* lang="(\w+)"')


def english_pages(site: Path) -> list[str]:
    return [
        p.relative_to(site).as_posix()
        for p in pages_of(site)
        if p.relative_to(site).parts[0] != "sv" and "_source" not in p.relative_to(site).parts
    ]


def test_the_swedish_edition_holds_every_page_of_the_english(site: Path) -> None:
    english = set(english_pages(site))
    swedish = {
        p.relative_to(site / "sv").as_posix()
        for p in pages_of(site / "sv")
        if "_source" not in p.relative_to(site / "sv").parts
    }
    assert len(english) > 20
    assert swedish == english


@pytest.mark.parametrize("edition", ["", "sv/"])
def test_every_page_leads_to_itself_in_the_other_edition(site: Path, edition: str) -> None:
    wrong = []
    for name in english_pages(site):
        if name == "genindex.html":
            continue  # Sphinx's index of terms, drawn by the theme alone
        path = site / edition / name
        found = SWITCH.search(path.read_text(encoding="utf-8"))
        other = "sv" if not edition else "en"
        if found is None or found.group(2) != other:
            wrong.append(f"{edition}{name}: no link to the {other} edition")
            continue
        target = (path.parent / found.group(1)).resolve()
        expected = (site / ("sv/" if not edition else "") / name).resolve()
        if target != expected:
            wrong.append(f"{edition}{name}: leads to {found.group(1)}")
    assert not wrong, "\n".join(wrong[:20])


@pytest.mark.parametrize("page", TRANSLATED)
def test_a_translated_page_is_swedish_to_the_last_message(site: Path, page: str) -> None:
    """Sphinx marks every message its catalogue lacks (or holds only as fuzzy) with the class
    ``untranslated`` (``translation_progress_classes`` in ``conf.py``): a page of the players
    whose English has changed since it was translated shows it here, until
    ``scripts/translations.sh`` and a translator bring its catalogue up to date."""
    text = (site / "sv" / f"{page}.html").read_text(encoding="utf-8")
    assert LANG.search(text) and LANG.search(text).group(1) == "sv"  # type: ignore[union-attr]
    untranslated = re.findall(r'class="[^"]*\buntranslated\b[^"]*"[^>]*>(.{0,80})', text)
    assert not untranslated, f"{len(untranslated)} messages in English: {untranslated[:3]}"
    assert ONLY_IN_ENGLISH not in text


def test_a_page_without_a_translation_says_so_and_is_marked_english(site: Path) -> None:
    text = (site / "sv" / "_generated" / "trace.html").read_text(encoding="utf-8")
    assert ONLY_IN_ENGLISH in text
    assert '<div lang="en">' in text
    english = (site / "_generated" / "trace.html").read_text(encoding="utf-8")
    assert ONLY_IN_ENGLISH not in english and "untranslated" not in english


@pytest.mark.parametrize("page", [*(p for p in TRANSLATED if p != "search"), "site-words"])
def test_every_translated_page_has_a_whole_catalogue(page: str) -> None:
    """Every message of the catalogue is translated and none is fuzzy (a fuzzy message is one
    whose English changed: it shows in English until translated again). ``site-words`` holds
    the words the players' pages write as HTML (``docs/_ext/players.py``)."""
    path = CATALOGUES / f"{page}.po"
    with path.open("rb") as handle:
        catalogue = read_po(handle)
    messages = [m for m in catalogue if m.id]
    assert messages
    assert not [m.id for m in messages if not m.string], f"{path.name}: untranslated messages"
    assert not [m.id for m in messages if m.fuzzy], f"{path.name}: fuzzy messages"


def test_the_swedish_front_page_searches_in_swedish(site: Path) -> None:
    text = (site / "sv" / "index.html").read_text(encoding="utf-8")
    assert 'action="search.html"' in text and "Hitta en regel" in text
    assert "regelverk regelbok" in text


def test_the_pictures_of_the_players_pages_speak_swedish(site: Path) -> None:
    """The positions, the cards' names and the turn diagrams are HTML the extension writes,
    translated from ``site-words.po``."""
    swedish = (site / "sv" / "players" / "uno.html").read_text(encoding="utf-8")
    english = (site / "players" / "uno.html").read_text(encoding="utf-8")
    assert "kasthögen, översta kortet sist" in swedish and "(i tur)" in swedish
    assert "Så går en tur i UNO" in swedish and 'aria-label="röd Dra två"' in swedish
    assert "the discard pile, top card last" in english and "(to play)" in english
    assert "Så går en tur i UNO" not in english
    vvv8 = (site / "sv" / "players" / "vvv8.html").read_text(encoding="utf-8")
    assert 'aria-label="hjärter ' in vvv8 and 'aria-label="10 of hearts"' not in vvv8
