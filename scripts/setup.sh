# Sourced by the other scripts: make .venv/ in the checkout and install regelverk with its dev
# extra into it (editable), once; later runs reinstall only when pyproject.toml has changed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "regelverk needs Python 3.11 or newer; $python is $("$python" --version 2>&1)" >&2
  exit 2
fi
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
stamp=.venv/.regelverk-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[dev]'
  touch "$stamp"
fi
export PATH="$PWD/.venv/bin:$PATH"
# The tests look at the rulebook in a headless Chromium when one is installed
# (tests/test_docs_site.py). Install Debian's package where we may (root with apt-get), once
# per .venv; without it those checks are skipped, and nothing else changes.
browser_stamp=.venv/.regelverk-browser-tried
if [ ! -f "$browser_stamp" ] && ! command -v chromium >/dev/null 2>&1 \
  && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
  echo "== installing chromium (apt-get) for the rulebook's browser checks"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends chromium; } >/dev/null 2>&1; then
    echo "could not install chromium: the browser checks will be skipped" >&2
  fi
  touch "$browser_stamp"
fi
