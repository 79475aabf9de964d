"""Sphinx configuration for the regelverk rulebook.

The pages under ``_generated/`` are written at every build from ``spec/`` and the trace by the
``rulebook`` extension (``_ext/rulebook.py``); nothing in them is copied by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

import regelverk

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "regelverk"
author = "the regelverk project"
copyright = "the regelverk project"
version = release = regelverk.__version__
extensions = [
    "sphinx.ext.autodoc",
    "sphinx_needs",
    "rulebook_site",
    "clausesearch",
    "rulebook",
    "players",
    "disputes",
    "editions",
    "referee_page",
]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
exclude_patterns = ["_build"]

# The theme is Furo, chosen over the PyData theme for long reference text read at the table: a
# single readable column with the page's own contents in a sticky column beside it, a header
# with navigation and search at the top of a phone's screen (not below the page), light and
# dark colours from the reader's settings, and little JavaScript or CSS to load on a phone.
# The PyData theme is built for API sites with a top bar of many sections and weighs several
# times more. ``_static/rulebook.css`` keeps the contents column in view down to 1072 px
# (Furo folds it into a button below 1312 px) and styles the clause cards.
html_theme = "furo"
html_title = f"regelverk rulebook {release}"
# The footer says when the site was built (SOURCE_DATE_EPOCH, where set, fixes the date, so a
# build can be repeated exactly); the tab shows the favicon, a card.
html_last_updated_fmt = f"%Y-%m-%d, regelverk {release}"
html_favicon = "_static/favicon.svg"
html_short_title = "regelverk"
html_static_path = ["_static"]
templates_path = ["_templates"]  # search.html: the search page's link to the other edition
html_css_files = ["rulebook.css"]
html_js_files = ["rulebook.js"]
html_theme_options = {"navigation_with_keys": True, "top_of_page_buttons": []}
html_copy_source = False

# The Swedish edition (``scripts/build_rulebook.py`` builds it into ``sv/`` with
# ``-D language=sv``): the players' pages translated in ``locales/sv/LC_MESSAGES/<page>.po``,
# one catalogue per page, kept up to date by ``scripts/translations.sh`` (Sphinx's gettext
# builder, then sphinx-intl). A message without a translation stays in English, and every page
# without a catalogue is the English one, so the edition always has the whole site.
locale_dirs = ["locales/"]
gettext_compact = False
gettext_location = False  # no source paths (which name the machine) in the catalogues
gettext_uuid = False
# Every message the catalogues lack shows in English and carries the class "untranslated" in
# the Swedish edition, where the tests look for it on the translated pages.
translation_progress_classes = "untranslated"
html_show_sourcelink = False

needs_id_regex = r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$"
needs_id_required = True
needs_title_optional = True
needs_types = [
    {"directive": "clause", "title": "Clause", "prefix": "C-", "color": "#BFD8D2"},
    {"directive": "ambiguity", "title": "Ambiguity", "prefix": "A-", "color": "#FEDCD2"},
    {"directive": "codelink", "title": "Code", "prefix": "CODE-", "color": "#DF744A"},
    {"directive": "testlink", "title": "Test", "prefix": "TEST-", "color": "#DCB239"},
    {"directive": "prooflink", "title": "Proof", "prefix": "PROOF-", "color": "#9856A5"},
]
needs_fields = {
    "tag": {"description": "the clause's tag", "nullable": True},
    "locator": {"description": "text, section and paragraph", "nullable": True},
    "origin": {"description": "text, official or model", "nullable": True},
    "rulebook": {"description": "vvv8, vandatta, viggo or uno", "nullable": True},
    "kind": {"description": "the ambiguity's kind", "nullable": True},
    "option": {"description": "the option selecting a reading", "nullable": True},
    "default_reading": {"description": "the model's default reading", "nullable": True},
    "where": {"description": "file and line of the linked code", "nullable": True},
}
needs_links = {
    "refs": {"incoming": "referred to by", "outgoing": "see also"},
    "bears_on": {"incoming": "unclear because of", "outgoing": "bears on"},
    "implements": {"incoming": "implemented by", "outgoing": "implements"},
    "exercises": {"incoming": "tested by", "outgoing": "tests"},
    "proves": {"incoming": "cited by theorem", "outgoing": "rests on"},
}
needs_build_json = False
# A reference to a clause shows its id, to an ambiguity its title and id, in full.
needs_role_need_template = '{{ id if type == "clause" else title ~ " (" ~ id ~ ")" }}'
needs_role_need_max_title_length = -1
suppress_warnings: list[str] = []
