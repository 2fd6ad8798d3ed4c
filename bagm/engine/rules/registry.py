"""Registries of rules that are entries: one table per kind, keyed by the entry's book name.

Stratagems, Enhancements and missions are registered here as small values (Pokemon Showdown's
``data/abilities.ts`` is the model): the phase code asks a registry for the entry by name and
reads its cost, timing, restrictions and effect fields, so adding an entry of a known shape
touches no phase code. Names are looked up as every name in bagm is (:mod:`bagm.data.names`:
case, accents and typographic quotes do not matter).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, Protocol, TypeVar

from bagm.data.names import Index


class Named(Protocol):
    @property
    def name(self) -> str: ...


E = TypeVar("E", bound=Named)


class Registry(Generic[E]):
    """Entries of one kind (``kind``: "Stratagem", "Enhancement"...) by their book name."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._index: Index[E] = Index()
        self._entries: list[E] = []

    def register(self, entry: E, aliases: tuple[str, ...] = ()) -> E:
        """Add ``entry``; a second entry of the same name is a programming error."""
        if self._index.get(entry.name) is not None:
            raise ValueError(f"{self.kind} '{entry.name}' is registered twice")
        self._index.add(entry, entry.name, aliases)
        self._entries.append(entry)
        return entry

    def get(self, name: str | None) -> E | None:
        return self._index.get(name) if name else None

    def __getitem__(self, name: str) -> E:
        entry = self.get(name)
        if entry is None:
            hint = self._index.hint(name)
            raise KeyError(f"no {self.kind} '{name}'" + (f"; {hint}" if hint else ""))
        return entry

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __iter__(self) -> Iterator[E]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)
