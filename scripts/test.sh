#!/usr/bin/env bash
# Set up, then run every check CI runs: lint, format, types, the import layers, the theorems,
# the -W docs build, the tests (which also check the built site), and an install of the built
# wheel into a fresh environment used from another directory.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

echo "== ruff"
ruff check .
ruff format --check .
echo "== mypy --strict"
mypy
echo "== lint-imports (no import cycle, the model's layers, the model never importing the proofs)"
lint-imports --no-cache
echo "== regelverk check (spec, trace; locators and own words when the texts are at hand)"
regelverk check
echo "== regelverk prove (the Z3 theorems)"
mkdir -p docs/_build
regelverk prove --write-json docs/_build/proofs.json
echo "== sphinx-build -W, both editions (the tests then check the site it builds)"
rm -rf docs/_build/html/.doctrees  # left by builds before the doctrees had their own folder
REGELVERK_PROOF_RESULTS=docs/_build/proofs.json \
  python scripts/build_rulebook.py docs/_build/html --doctrees docs/_build/doctrees
echo "== pytest (on every core)"
REGELVERK_DOCS_HTML=docs/_build/html pytest -n auto
echo "== the wheel, installed into a fresh venv, used from another directory"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
python -m pip wheel --quiet --no-deps --no-build-isolation -w "$scratch/dist" .
python -m venv "$scratch/venv"
"$scratch/venv/bin/python" -m pip install --quiet --no-deps "$scratch"/dist/regelverk-*.whl
(cd "$scratch" && "$scratch/venv/bin/regelverk" rules >/dev/null \
  && "$scratch/venv/bin/regelverk" clause UNO-DECK-108 | grep -q "UNO-DECK-108" \
  && "$scratch/venv/bin/regelverk" trace --json >/dev/null \
  && "$scratch/venv/bin/regelverk" prove --list >/dev/null)
without_z3=$(cd "$scratch" && "$scratch/venv/bin/regelverk" prove 2>&1 || true)
grep -q "the proofs need z3-solver" <<<"$without_z3"
echo "wheel: regelverk works from $scratch with its clause texts (and asks for z3 to prove)"
