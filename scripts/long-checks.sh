#!/usr/bin/env bash
# Set up, then the long hardening runs that the normal test run only samples: the
# structure-aware fuzzer of what `regelverk ask` reads (REGELVERK_FUZZ_EXAMPLES inputs for each
# of its three tests, 100000 by default: 300,000 inputs) and the covering-array soak with
# REGELVERK_SOAK_SEEDS games (4 by default) for every triple of option values at every player
# count (about 4.5 million steps, each state held to every invariant). Prints Hypothesis's
# statistics (inputs run, time per input) and the soak's figures; exits non-zero if an input
# raised anything but the project's own errors, or a game broke an invariant. A run that hangs
# is stopped by REGELVERK_LONG_TIMEOUT (seconds, 14400 by default) and counts as failed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
examples=${REGELVERK_FUZZ_EXAMPLES:-100000}
seeds=${REGELVERK_SOAK_SEEDS:-4}
limit=${REGELVERK_LONG_TIMEOUT:-14400}
failed=0
echo "== fuzzing what ask reads: $examples inputs for each test"
REGELVERK_FUZZ_EXAMPLES=$examples timeout "$limit" pytest -p no:cacheprovider -q \
  tests/test_fuzz.py --hypothesis-show-statistics || failed=1
echo "== the covering-array soak: every triple of option values, $seeds games each"
timeout "$limit" python -m regelverk.soak --strength 3 --seeds "$seeds" --first-seed 1000 \
  || failed=1
if [ "$failed" -ne 0 ]; then
  echo "a long run failed: see above" >&2
fi
exit "$failed"
