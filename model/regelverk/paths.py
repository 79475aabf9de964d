"""Where regelverk finds its data: the spec, and the test and proof folders it traces.

An installed wheel carries ``spec/`` and ``tests/`` inside the package (under
``regelverk/_data``) and the proofs as the package :mod:`regelverk_proofs` beside it, so
``regelverk`` works from any directory. Run from a source checkout, the package uses the
checkout's own folders instead (``proofs/`` is a second source root).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

__all__ = ["data_dir", "proofs_dir", "source_root", "spec_dir"]

_PACKAGE = Path(__file__).resolve().parent


def source_root() -> Path | None:
    """The root of the source checkout this package runs from, or ``None`` when installed."""
    root = _PACKAGE.parent.parent
    if (root / "pyproject.toml").is_file() and (root / "spec").is_dir():
        return root
    return None


def data_dir(name: str) -> Path | None:
    """The folder ``name`` (spec or tests): from the checkout, else from the wheel."""
    root = source_root()
    if root is not None and (root / name).is_dir():
        return root / name
    bundled = _PACKAGE / "_data" / name
    return bundled if bundled.is_dir() else None


def proofs_dir() -> Path | None:
    """The folder of the proof modules: the checkout's ``proofs/regelverk_proofs``, else the
    installed :mod:`regelverk_proofs` package (found without importing it), else ``None``."""
    root = source_root()
    if root is not None and (root / "proofs" / "regelverk_proofs").is_dir():
        return root / "proofs" / "regelverk_proofs"
    spec = importlib.util.find_spec("regelverk_proofs")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).resolve().parent


def spec_dir() -> Path:
    """The folder holding the rules data; :class:`FileNotFoundError` if it is missing.

    ``REGELVERK_SPEC`` names another folder, to try out a changed spec without reinstalling.
    """
    override = os.environ.get("REGELVERK_SPEC")
    if override:
        if not Path(override).is_dir():
            raise FileNotFoundError(f"REGELVERK_SPEC names {override!r}, which is not a folder")
        return Path(override)
    found = data_dir("spec")
    if found is None:
        raise FileNotFoundError(
            "the rules data (spec/) is missing from this installation of regelverk; "
            "reinstall it with 'pip install .' from a checkout"
        )
    return found
