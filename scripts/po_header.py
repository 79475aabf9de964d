"""Give every catalogue of the Swedish edition the project's header (scripts/translations.sh
runs it after sphinx-intl, which writes placeholders into a new catalogue's header)."""

from __future__ import annotations

import re
import sys
from pathlib import Path


def tidy(path: Path, root: Path) -> None:
    text = path.read_text(encoding="utf-8")
    _, mark, rest = text.partition('msgid ""')
    page = path.relative_to(root).with_suffix("").as_posix()
    what = (
        "the words the players' pages write as HTML" if page == "site-words" else f"the page {page}"
    )
    head = f"# The Swedish edition of the regelverk rulebook: {what}.\n#\n#, fuzzy\n"
    rest = re.sub(r'"Report-Msgid-Bugs-To: [^"]*\\n"\n', "", rest)
    rest = re.sub(r'"PO-Revision-Date: YEAR[^"]*\\n"\n', "", rest)
    rest = re.sub(
        r'"Last-Translator: [^"]*\\n"\n', r'"Last-Translator: the regelverk project\\n"\n', rest
    )
    rest = re.sub(r'"Language-Team: [^"]*\\n"\n', r'"Language-Team: Swedish\\n"\n', rest)
    tidied = head + mark + rest
    if tidied != text:
        path.write_text(tidied, encoding="utf-8")


if __name__ == "__main__":
    folder = Path(sys.argv[1])
    for found in sorted(folder.rglob("*.po")):
        tidy(found, folder)
