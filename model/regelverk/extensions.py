"""Extensions: the parts of regelverk above the model, found as plugins.

The model never imports the proofs (:mod:`regelverk_proofs`, which needs Z3). They plug in
the way pytest's plugins do, through an entry point of the group :data:`GROUP` that names an
object with the methods of :class:`Extension`: it adds its commands to ``regelverk`` (``prove``
and ``mutate``), answers "can it ever happen?" questions and lists the facts they can name.
The distribution registers the proofs' entry point in ``pyproject.toml``::

    [project.entry-points."regelverk.extensions"]
    proofs = "regelverk_proofs.commands:EXTENSION"

Where no extension is installed, what needs one raises :class:`ExtensionMissingError`, a
one-line message that says how to install it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from regelverk.errors import RegelverkError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = [
    "GROUP",
    "AddCommand",
    "Command",
    "Extension",
    "ExtensionMissingError",
    "installed",
    "missing",
    "required",
]

GROUP = "regelverk.extensions"
"""The entry-point group extensions register under."""

Command = Callable[[argparse.Namespace], int]
"""A command's function: its parsed arguments in, its exit status out."""

AddCommand = Callable[[str, Command, str], argparse.ArgumentParser]
"""Adds a sub-command to ``regelverk``: its name, function and help text in, its parser (with
``--json`` already on it) out, for the command's own arguments."""


@runtime_checkable
class Extension(Protocol):
    """What an extension gives the model: commands, and answers to "can" questions."""

    def add_commands(self, add: AddCommand) -> None:
        """Add the extension's sub-commands to ``regelverk`` through ``add``."""

    def can(self, question: Mapping[str, Any]) -> dict[str, Any]:
        """The answer, as data, to a checked "can it ever happen?" question: a ``rulebook``, a
        condition under ``can`` and, where given, the ``scenario`` it is about."""

    def facts(self, rulebook: str) -> list[dict[str, Any]]:
        """The scenarios "can" questions about ``rulebook`` can name, each with its
        ``scenario`` name, ``description``, ``facts`` (name to meaning) and ``constants``."""


class ExtensionMissingError(RegelverkError):
    """Something that needs the proofs part of regelverk, which is not installed."""


def missing(needs: str) -> ExtensionMissingError:
    """The error for ``needs`` (``'regelverk prove'``) with no extension installed: one line
    that says how to install it."""
    return ExtensionMissingError(
        f"{needs} needs the proofs part of regelverk (regelverk_proofs), which is not "
        "installed: install regelverk with its 'prove' extra (pip install 'regelverk[prove]')"
    )


def _load(point: EntryPoint) -> Extension | None:
    """The extension ``point`` names; ``None`` where its module is gone (metadata left over
    from an install of another version)."""
    try:
        loaded = point.load()
    except ModuleNotFoundError as error:
        gone = error.name
        if gone is not None and (point.module == gone or point.module.startswith(f"{gone}.")):
            return None
        raise
    if not isinstance(loaded, Extension):
        raise RegelverkError(
            f"the extension {point.name} ({point.value}) lacks add_commands, can or facts"
        )
    return loaded


@cache
def installed() -> tuple[Extension, ...]:
    """The installed extensions, in the order their entry points are found (loaded once; the
    metadata reader is imported only here, as a command that needs no extension never asks)."""
    from importlib.metadata import entry_points

    found = (_load(point) for point in entry_points(group=GROUP))
    return tuple(extension for extension in found if extension is not None)


def required(needs: str) -> Extension:
    """The first installed extension, for ``needs`` (named in the error if there is none)."""
    found = installed()
    if not found:
        raise missing(needs)
    return found[0]
