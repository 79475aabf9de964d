#!/usr/bin/env bash
# Bring the Swedish edition's catalogues up to date with the English pages: Sphinx's gettext
# builder writes a template (.pot) per page, and sphinx-intl merges those of the translated
# pages (docs/_ext/editions.py, TRANSLATED) into docs/locales/sv/LC_MESSAGES/<page>.po, and the
# words the players' pages write as HTML into site-words.po, keeping
# every translation whose English is unchanged and marking the changed ones fuzzy (a fuzzy
# message shows in English until it is translated again; the tests count them).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
proofs=docs/_build/proofs.json
if [ ! -f "$proofs" ]; then
  mkdir -p docs/_build
  regelverk prove --write-json "$proofs" >/dev/null || true
fi
REGELVERK_PROOF_RESULTS=$proofs \
  sphinx-build -q -b gettext -d "$scratch/doctrees" docs "$scratch/all"
pages=$(cd docs/_ext && python -c 'import editions; print(*editions.TRANSLATED)')
for page in $pages; do
  if [ -f "$scratch/all/$page.pot" ]; then
    mkdir -p "$scratch/chosen/$(dirname "$page")"
    cp "$scratch/all/$page.pot" "$scratch/chosen/$page.pot"
  fi
done
# the words docs/_ext/players.py writes as HTML (positions, cards, turn diagrams), marked _()/N_()
pybabel --quiet extract --no-location --no-default-keywords -k _ -k N_ --project regelverk \
  -o "$scratch/chosen/site-words.pot" docs/_ext/players.py
sphinx-intl update --pot-dir "$scratch/chosen" --locale-dir docs/locales --language sv \
  --line-width 99 >/dev/null
python scripts/po_header.py docs/locales/sv/LC_MESSAGES
sphinx-intl stat --locale-dir docs/locales --language sv
