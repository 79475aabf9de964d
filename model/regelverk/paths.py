"""Where regelverk finds its data: the spec, and the test and proof folders it traces.

An installed wheel carries ``spec/`` and ``tests/`` inside the package (under
``regelverk/_data``) and the proofs as the package :mod:`regelverk_proofs` beside it, so
``regelverk`` works from any directory. Run from a source checkout, the package uses the
checkout's own folders instead (``proofs/`` is a second source root).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["cache_dir", "cached_json", "data_dir", "proofs_dir", "source_root", "spec_dir"]

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


def cache_dir() -> Path | None:
    """Where readings of files are kept between runs (parsed spec files, the trace's links of
    each source file), each under a name made from the exact text read and the code that read
    it: ``$REGELVERK_CACHE`` (``off`` for nowhere), else ``$XDG_CACHE_HOME/regelverk`` or
    ``~/.cache/regelverk``. A cache only saves time: every answer is the same without it."""
    chosen = os.environ.get("REGELVERK_CACHE")
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "off", "0", "no") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:
            return None
    return Path(base) / "regelverk"


def cached_json(
    name: str, compute: Callable[[], Any], shape: type[list[Any] | dict[str, Any]]
) -> Any:
    """The JSON value kept in the cache as ``name``, else ``compute()``, kept for next time.

    ``name`` must be made from everything the value depends on (a digest of the text read and
    of the code that read it). ``shape`` is the kind of value ``compute`` gives (a list or a
    table). The file holds ``{"name": name, "value": value}``: one that cannot be read, that
    names another entry, or whose value is of another kind (a damaged or foreign file) is
    computed again; one that cannot be written, or a value JSON cannot hold, is passed over:
    the answer is the same."""
    folder = cache_dir()
    if folder is None:
        return compute()
    path = folder / name
    try:
        kept = json.loads(path.read_bytes())
    except (OSError, ValueError):
        pass
    else:
        if (
            isinstance(kept, dict)
            and kept.get("name") == name
            and isinstance(kept.get("value"), shape)
        ):
            return kept["value"]
    value = compute()
    scratch = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        kept = {"name": name, "value": value}
        scratch.write_text(json.dumps(kept, ensure_ascii=False), encoding="utf-8")
        scratch.replace(path)
    except (OSError, TypeError, ValueError):
        with contextlib.suppress(OSError):
            scratch.unlink()
    return value
