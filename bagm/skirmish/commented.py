"""Rewriting a campaign file without losing the comments its user wrote in it.

The campaign commands change plain data (dicts and lists) and the file is written anew after
each event. When the file holds comments, the new data is merged into the file as
``bagm.io.roundtrip`` loads it (the project's one home for comment-keeping YAML edits) and that
document is written back: unchanged values keep their line and comments, changed ones are set
in place, removed ones go with ``delete_key`` / ``delete_item`` (the comment lines after them
move to their neighbour), added ones come with ``set_key`` / ``append_item``.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any

from bagm.io.roundtrip import (
    Document,
    append_item,
    delete_item,
    delete_key,
    dump_document,
    load_document,
    set_key,
    text_scalar,
)


def has_comments(text: str, header: str = "") -> bool:
    """Whether ``text`` may hold a comment besides bagm's own ``header`` line (a ``#`` in a
    quoted value counts too: the comment-keeping path is then taken, which is still right)."""
    return "#" in (text[len(header):] if header and text.startswith(header) else text)


def rewrite(path: str, text: str, data: dict[str, Any]) -> str:
    """``text`` (a YAML mapping) with its values replaced by ``data``, its comments kept."""
    doc: Document = load_document(path, text)
    merge_map(doc.data, data)
    return dump_document(doc)


def _rt(value: Any) -> Any:
    """Plain data as round-trip nodes, every string as one PyYAML reads back as a string."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(value, dict):
        out = CommentedMap()
        for k, v in value.items():
            out[text_scalar(k) if isinstance(k, str) else k] = _rt(v)
        return out
    if isinstance(value, list):
        return CommentedSeq(_rt(v) for v in value)
    return text_scalar(value) if isinstance(value, str) else value


def _same(old: Any, new: Any) -> bool:
    """An unchanged scalar (``True`` is not ``1``, ``1.0`` is not ``1``)."""
    if isinstance(new, (dict, list)) or old != new:
        return False
    return isinstance(old, bool) == isinstance(new, bool) \
        and isinstance(old, float) == isinstance(new, float)


def merge_map(node: Any, new: dict[str, Any]) -> None:
    """Make the mapping ``node`` equal to ``new``, in ``new``'s key order for added keys."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    for key in [k for k in node if k not in new]:
        delete_key(node, key)
    order = list(new)
    for key, value in new.items():
        if key in node:
            old = node[key]
            if isinstance(old, CommentedMap) and isinstance(value, dict):
                merge_map(old, value)
                continue
            if isinstance(old, CommentedSeq) and isinstance(value, list):
                merge_seq(old, value, _remover(node, key))
                continue
            if _same(old, value):
                continue
            if _is_block(old) or isinstance(value, (dict, list)) and value:
                # a block becomes a scalar or the other way round: the comment lines after it
                # go to the key before and come back after the new value
                delete_key(node, key)
        set_key(node, key, _rt(value), order)


def _remover(parent: Any, key: str) -> Callable[[int], None]:
    def remove(i: int) -> None:
        delete_item(parent, key, i)

    return remove


def _is_block(node: Any) -> bool:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    return isinstance(node, (CommentedMap, CommentedSeq)) and bool(node)


def _key(item: Any) -> Any:
    """What identifies a list item across a change: a model's or Pack's name, an event's
    number, a scalar's value."""
    if isinstance(item, dict):
        for k in ("n", "name"):
            if isinstance(item.get(k), (str, int)):
                return (k, item[k])
        return ("map", len(item))
    if isinstance(item, list):
        return ("list", len(item))
    return ("value", type(item).__name__, item)


def merge_seq(seq: Any, new: list[Any], remove: Callable[[int], None]) -> None:
    """Make the list ``seq`` equal to ``new``: items matched by :func:`_key` are merged, the
    others removed (``remove(i)`` keeps the comments after them) or added."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    matcher = difflib.SequenceMatcher(None, [_key(x) for x in seq], [_key(x) for x in new],
                                      autojunk=False)
    for tag, i1, i2, j1, j2 in reversed(matcher.get_opcodes()):  # from the end: indices hold
        shared = i2 - i1 if tag == "equal" else min(i2 - i1, j2 - j1) if tag == "replace" else 0
        for d in range(shared):
            old, value = seq[i1 + d], new[j1 + d]
            if isinstance(old, CommentedMap) and isinstance(value, dict):
                merge_map(old, value)
            elif isinstance(old, CommentedSeq) and isinstance(value, list):
                merge_seq(old, value, old.__delitem__)  # a list in a list: no comments
            elif not _same(old, value):
                seq[i1 + d] = _rt(value)
        for i in range(i2 - 1, i1 + shared - 1, -1):
            remove(i)
        for j in range(j1 + shared, j2):
            at = i1 + shared + (j - j1 - shared)
            if at >= len(seq):
                append_item(seq, _rt(new[j]))
            else:
                seq.insert(at, _rt(new[j]))
