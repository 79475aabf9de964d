"""Sphinx configuration for the regelverk rulebook.

The pages under ``_generated/`` are written at every build from ``spec/`` and the trace by the
``rulebook`` extension (``_ext/rulebook.py``); nothing in them is copied by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "regelverk"
author = "the regelverk project"
copyright = "the regelverk project"
extensions = ["sphinx_needs", "rulebook", "players"]
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_title = "regelverk: the annotated rulebook"
html_theme_options = {"description": "Four card-game rulebooks, clause by clause"}

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
suppress_warnings: list[str] = []
