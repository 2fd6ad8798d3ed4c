"""Matching keys for names as the catalogues and packs spell them."""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable


def dedupe(items: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        k = name_key(item)
        if k and k not in seen:
            seen.add(k)
            out.append(item)
    return out


_PUNCT = re.compile(r"[^\w\s]+")


def name_key(name: str) -> str:
    """Matching key: accents, case, apostrophes, punctuation and spacing ignored."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.replace("’", "").replace("'", "").replace("‘", "")
    text = _PUNCT.sub(" ", text.casefold())
    return " ".join(text.split())


def loose_key(name: str) -> str:
    """A looser key: also without "[Legends]" style tags and a leading "the"."""
    text = re.sub(r"\[[^\]]*\]|\((?:legends?|forge world)\)", " ", name, flags=re.I)
    key = name_key(text)
    return key[4:] if key.startswith("the ") else key
