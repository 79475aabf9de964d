"""Build the rulebook site: the English edition into OUT, the Swedish one into OUT/sv.

Usage: ``python scripts/build_rulebook.py OUT [--doctrees DIR]``. Each edition is one
``sphinx-build -W --keep-going -q -b html`` run (warnings are errors), the Swedish one with
``-D language=sv`` and its own doctrees (a doctree holds its page's translated text). The
theorems' results are read from ``REGELVERK_PROOF_RESULTS`` when it is set, as by a single
build. Exits with the first failing build's status, saying which edition failed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = (("en", ""), ("sv", "sv"))
"""Each edition's language and its folder below the site's root."""


def build(out: Path, doctrees: Path) -> int:
    """Build every edition; the status of the first that fails, else 0."""
    for language, folder in EDITIONS:
        command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html"]
        command += ["-D", f"language={language}", "-d", str(doctrees / language)]
        command += [str(ROOT / "docs"), str(out / folder)]
        start = time.monotonic()
        status = subprocess.run(command, cwd=ROOT, check=False).returncode
        if status != 0:
            print(f"the {language} edition of the rulebook failed to build", file=sys.stderr)
            return status
        print(f"{language}: built in {time.monotonic() - start:.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("out", type=Path, help="the site's folder (the Swedish edition: OUT/sv)")
    parser.add_argument(
        "--doctrees", type=Path, help="Sphinx's doctrees (default: OUT/../doctrees)"
    )
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    doctrees: Path = (args.doctrees or out.parent / "doctrees").resolve()
    return build(out, doctrees)


if __name__ == "__main__":
    sys.exit(main())
