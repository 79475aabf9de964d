#!/usr/bin/env bash
# Set up, run the invariant checks, build the annotated rulebook, and say where it is.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

echo "== invariant checks: spec, trace, and (with the texts at hand) locators and own words"
regelverk check
echo "== the rulebook"
start=$(date +%s)
sphinx-build -W --keep-going -q -b html docs docs/_build/html
echo "built in $(( $(date +%s) - start )) s"
echo "The rulebook is at $PWD/docs/_build/html/index.html"
