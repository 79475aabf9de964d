"""Sphinx extension: the site's editions, English and Swedish, and the switch between them.

The English edition is the site's root; the Swedish one is built by
``scripts/build_rulebook.py`` into ``sv/`` beside it (``-D language=sv``). Only the pages in
:data:`TRANSLATED` have a Swedish catalogue (``docs/locales/sv/LC_MESSAGES/<page>.po``,
written by ``scripts/translations.sh``); every other page of the Swedish edition is the
English page, marked as English (``lang="en"``) and saying so at its top, so that the edition
holds the whole site and every link in it works.

Every page carries a link to the same page in the other edition, at the top of its content.
"""

from __future__ import annotations

import html
from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config

TRANSLATED: tuple[str, ...] = (
    "index",
    "search",
    "players/index",
    "players/vvv8",
    "players/vandatta",
    "players/viggo",
    "players/uno",
    "players/variants",
    "players/referee",
    "_generated/glossary",
    "_generated/disputes-vvv8",
)
"""The pages the Swedish edition translates: the players' pages (the quick rules, what the
readings change, every dispute of vvv8, the referee), the glossary, the search page and the
front page. (``search`` is Sphinx's own page; its words are the theme's.)"""

EDITIONS: dict[str, tuple[str, str]] = {"en": ("", "English"), "sv": ("sv/", "Svenska")}
"""Each edition's folder below the site's root and its name in its own language."""

ONLY_IN_ENGLISH = "Den här sidan finns bara på engelska."
"""What an untranslated page of the Swedish edition says at its top."""


def edition(app: Sphinx) -> str:
    """The edition being built: ``sv`` for a Swedish build, else ``en``."""
    language = (app.config.language or "en").split("_", maxsplit=1)[0].lower()
    return language if language in EDITIONS else "en"


def other_page(pagename: str, here: str, there: str, depth: int) -> str:
    """The address of ``pagename`` in edition ``there``, relative to the page itself (which
    lies ``depth`` folders below its edition's root, in edition ``here``)."""
    up = "../" * (depth + (1 if EDITIONS[here][0] else 0))
    return f"{up}{EDITIONS[there][0]}{pagename}.html"


def switch(app: Sphinx, pagename: str) -> str:
    """The link to the same page in the other edition (or, for Swedish, the others)."""
    here = edition(app)
    depth = pagename.count("/")
    links = [
        f'<a href="{html.escape(other_page(pagename, here, there, depth))}" hreflang="{there}" '
        f'lang="{there}">{html.escape(name)}</a>'
        for there, (_, name) in EDITIONS.items()
        if there != here
    ]
    return f'<nav class="edition-switch" aria-label="Language / Språk">{" ".join(links)}</nav>'


def page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Put the switch at the top of the page's content (a page drawn by its template alone,
    as the search page, places ``edition_switch`` itself); in the Swedish edition, mark a page
    without a translation as English and say so."""
    context["edition_switch"] = switch(app, pagename)
    if "body" not in context:
        return
    body = context["body"]
    if edition(app) != "en" and pagename not in TRANSLATED:
        body = (
            f'<p class="edition-note">{html.escape(ONLY_IN_ENGLISH)}</p><div lang="en">{body}</div>'
        )
    context["body"] = switch(app, pagename) + body


TITLES = {"sv": "regelverk regelbok"}
"""The site's title in each edition other than the English (whose is ``html_title``)."""


def edition_title(app: Sphinx, config: Config) -> None:
    """Name the site in the edition's language."""
    language = (config.language or "en").split("_", maxsplit=1)[0].lower()
    if language in TITLES:
        config.html_title = f"{TITLES[language]} {config.release}"


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("config-inited", edition_title)
    app.connect("html-page-context", page_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
