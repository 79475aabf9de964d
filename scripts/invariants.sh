#!/usr/bin/env bash
# Set up, then run every invariant check in full: the covering-array soak over every triple of
# option values at every player count, the state machines and the two-action-path walks at ten
# times the examples of the normal test run, and the theorems with their bindings at the full
# bounds their statements name. Exits non-zero if any of them finds a broken invariant.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

failed=0
echo "== the covering-array soak: every triple of option values, every player count"
python -m regelverk.soak --strength 3 || failed=1
echo "== the state machines and the action-path walks, full strength"
REGELVERK_STRENGTH=full pytest -n auto -p no:cacheprovider -q \
  tests/test_uno_stateful.py tests/test_vandatta_stateful.py \
  tests/test_vandatta_table_stateful.py tests/test_viggo_machine.py \
  tests/test_conformance.py || failed=1
echo "== the theorems, bindings at their full bounds"
REGELVERK_BINDINGS=full regelverk prove || failed=1
if [ "$failed" -ne 0 ]; then
  echo "an invariant check failed: see above" >&2
fi
exit "$failed"
