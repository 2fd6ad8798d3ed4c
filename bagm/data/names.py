"""Name lookup: case-insensitive, tolerant of typographic quotes, with "did you mean"."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Generic, Iterable, TypeVar

T = TypeVar("T")

_QUOTES = str.maketrans({"’": "'", "‘": "'", "`": "'", "–": "-", "—": "-"})
_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=4096)
def norm(name: str) -> str:
    """The lookup key of a name: case-folded, accents dropped ("Khârn" finds "Kharn"), quotes
    and dashes unified, spaces collapsed."""
    text = _SPACES.sub(" ", name.translate(_QUOTES).strip()).casefold()
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(c))


def suggest(name: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """Close matches of ``name`` among ``candidates`` (original spelling kept)."""
    import difflib  # only needed when something is misspelt

    by_key = {norm(c): c for c in candidates}
    keys = difflib.get_close_matches(norm(name), list(by_key), n=n, cutoff=0.6)
    if not keys:  # a prefix or substring often finds what the ratio misses ("Crowe")
        key = norm(name)
        keys = [k for k in by_key if key and (key in k or k in key)][:n]
    return [by_key[k] for k in keys]


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    found = suggest(name, candidates)
    if not found:
        return ""
    return "did you mean " + " or ".join(f"'{c}'" for c in found) + "?"


class Index(Generic[T]):
    """Items by normalised name and alias."""

    def __init__(self) -> None:
        self._items: dict[str, T] = {}
        self._names: list[str] = []

    def add(self, item: T, name: str, aliases: Iterable[str] = ()) -> None:
        self._items[norm(name)] = item
        self._names.append(name)
        for alias in aliases:
            self._items.setdefault(norm(alias), item)

    def get(self, name: str) -> T | None:
        return self._items.get(norm(name))

    def names(self) -> list[str]:
        return list(self._names)

    def hint(self, name: str) -> str:
        return did_you_mean(name, self._names)
