"""The examples of the Python API page (docs/api.rst) run as they are written there."""

from __future__ import annotations

import doctest
from pathlib import Path

API_PAGE = Path(__file__).resolve().parent.parent / "docs" / "api.rst"


def test_the_api_page_examples_run_as_written() -> None:
    results = doctest.testfile(
        str(API_PAGE),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        raise_on_error=False,
        report=True,
        verbose=False,
    )
    assert results.attempted >= 15, "the page lost its examples"
    assert results.failed == 0, f"{results.failed} example(s) of docs/api.rst do not run as shown"
