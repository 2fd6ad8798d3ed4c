"""Round-trip YAML for editing roster files: comments, key order, quotes and layout survive.

Loading goes through ``bagm.io.yamlsafe`` first (size limit, no anchors, tags or duplicate keys),
so ruamel.yaml only ever sees text that the validator would accept. The structural edits below
keep every comment the user wrote: ruamel.yaml attaches the comment lines that follow a value
to that value, so a plain ``del`` or ``append`` would drop or misplace them; these helpers move
such lines to the neighbour that now precedes them.

ruamel.yaml is imported lazily: only editing commands pay for it.
"""

from __future__ import annotations

import copy
import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from bagm.errors import BagmError
from bagm.io.yamlsafe import InputError, load, read_text

if TYPE_CHECKING:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

# mapping, sequence, offset (ruamel.yaml's names): ``units:\n  - unit: X\n    models: 5``
DEFAULT_INDENT = (2, 4, 2)
# ruamel.yaml is pure Python (about 1 ms a line): editing refuses what no roster needs, so a
# hostile file fails in about a second instead of minutes. A 500-point roster is a few KB;
# every unit costs points, so none holds more than 500 units.
EDIT_MAX_BYTES = 256_000
EDIT_MAX_UNITS = 500


@dataclass
class Document:
    """A roster file loaded for editing: its data with comments, and the file's layout."""

    data: "CommentedMap"
    indent: tuple[int, int, int] = DEFAULT_INDENT
    newline: str = "\n"
    explicit_start: bool = False

    def copy(self) -> "Document":
        """A deep copy (comments included) to edit without touching this one."""
        return Document(clone(self.data), self.indent, self.newline, self.explicit_start)


def _yaml(indent: tuple[int, int, int] = DEFAULT_INDENT) -> Any:
    from ruamel.yaml import YAML

    y = YAML(typ="rt", pure=True)
    y.preserve_quotes = True
    y.width = 4096  # never re-wrap a long line the user wrote
    y.brace_single_entry_mapping_in_flow_sequence = True  # keep "[{unit: X}]" as written
    mapping, sequence, offset = indent
    y.indent(mapping=mapping, sequence=sequence, offset=offset)
    return y


def load_document(path: Path | str, text: str | None = None) -> Document:
    """Load a roster file for editing; hostile or malformed input is an ``InputError``."""
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.error import YAMLError

    if text is None:
        text = read_text(Path(path))
    size = len(text.encode("utf-8"))
    if size > EDIT_MAX_BYTES:
        raise InputError(str(path), f"is too large to edit in place ({size:,} bytes; the limit "
                         f"is {EDIT_MAX_BYTES:,})", hint="is this really a roster file?")
    # the safe loader's limits and refusals, before ruamel.yaml sees the text
    data = load(path, text).data
    units = data.get("units") if isinstance(data, dict) else None
    if isinstance(units, list) and len(units) > EDIT_MAX_UNITS:
        raise InputError(str(path), f"has {len(units):,} units; a 500-point Boarding Patrol "
                         f"cannot hold more than {EDIT_MAX_UNITS}", hint="is this really a roster?")
    newline = "\r\n" if "\r\n" in text else "\n"
    text = text.replace("\r\n", "\n")
    try:
        data = _yaml().load(text)
    except YAMLError as exc:  # pragma: no cover - the safe loader refuses such text first
        raise InputError(str(path), f"invalid YAML: {exc}") from None
    if not isinstance(data, CommentedMap):
        raise InputError(str(path), "a roster must be a mapping (faction:, detachment:, units:)",
                         line=1)
    start = text.lstrip("\ufeff")
    return Document(data, _guess_indent(data), newline, start.startswith("---"))


def new_document(values: dict[str, Any]) -> Document:
    """A fresh document with the given top-level keys, in order (lists become block lists)."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    data = CommentedMap()
    for key, value in values.items():
        if isinstance(value, list):
            seq = CommentedSeq(value)
            seq.fa.set_block_style()
            value = seq
        data[key] = text_scalar(value) if isinstance(value, str) else value
    return Document(data)


class LayoutError(BagmError, ValueError):
    """ruamel.yaml could not write the document so that it reads back the same."""


def dump_document(doc: Document) -> str:
    """The document as text, in the layout it was read with (the document is unchanged).

    The text is read back and compared with the document before it is returned: ruamel.yaml
    0.19 garbles some mixes of flow items with end-of-line comments and block items (e.g.
    ``- {unit: A}  # note`` followed by ``- unit: B`` under a commented ``units:``). Such items
    are then written as block mappings, their comments kept; ``LayoutError`` if even that fails.
    """
    text = _dump(doc, doc.data)
    if _faithful(text, doc.data):
        return _newlines(doc, text)
    data = clone(doc.data)
    _block_items(data)
    text = _dump(doc, data)
    if _faithful(text, doc.data):
        return _newlines(doc, text)
    raise LayoutError("ruamel.yaml cannot write this file's layout back faithfully")


def _dump(doc: Document, data: Any) -> str:
    y = _yaml(doc.indent)
    y.explicit_start = doc.explicit_start
    out = io.StringIO()
    y.dump(clone(data), out)  # the emitter may consume comments: dump a copy
    return out.getvalue()


def _faithful(text: str, data: Any) -> bool:
    from ruamel.yaml.error import YAMLError

    try:
        return bool(_yaml().load(text) == data)  # mappings compare with their key order
    except YAMLError:
        return False


def _newlines(doc: Document, text: str) -> str:
    return text.replace("\n", "\r\n") if doc.newline == "\r\n" else text


def _block_items(node: Any) -> None:
    """Turn the flow mappings and lists that are items of block lists into block ones, moving
    the comment after each item onto its last value."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(node, CommentedMap):
        for value in node.values():
            _block_items(value)
    elif isinstance(node, CommentedSeq):
        block = not node.fa.flow_style()
        for i, item in enumerate(node):
            if block and _is_flow(item):
                item.fa.set_block_style()
                slot = node.ca.items.get(i)
                if slot is not None and slot[0] is not None:
                    slots, j = _last_slot(item)
                    slots[j], slot[0] = slot[0], None
            _block_items(item)


def _is_flow(node: Any) -> bool:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    return isinstance(node, (CommentedMap, CommentedSeq)) and bool(node) \
        and bool(node.fa.flow_style())


def clone(node: Any, memo: dict[int, Any] | None = None) -> Any:
    """A deep copy of loaded YAML with its comments and formats, in linear time.

    ``copy.deepcopy`` of ruamel.yaml 0.19 documents is quadratic (its ``copy_attributes`` drops
    the memo) and splits comment lists the loader shares between a key and its value, which
    the emitter then writes wrongly. Here every list and comment token is copied once, through
    one memo, so what was shared stays shared.
    """
    from ruamel.yaml.comments import (
        Comment,
        CommentedMap,
        CommentedSeq,
        Format,
        LineCol,
    )

    memo = {} if memo is None else memo
    if not isinstance(node, (CommentedMap, CommentedSeq)):
        return node  # scalars are immutable
    if id(node) in memo:
        return memo[id(node)]
    new: Any = CommentedMap() if isinstance(node, CommentedMap) else CommentedSeq()
    memo[id(node)] = new
    if isinstance(node, CommentedMap):
        for key, value in node.items():
            new[key] = clone(value, memo)
    else:
        new.extend(clone(item, memo) for item in node)
    if hasattr(node, Comment.attrib):
        old, ca = node.ca, Comment()
        ca.comment = _clone_comments(old.comment, memo)
        ca._items = {k: _clone_comments(v, memo) for k, v in old.items.items()}
        ca._post = _clone_comments(old.end, memo)
        ca._pre = _clone_comments(old.pre, memo)
        setattr(new, Comment.attrib, ca)
    if hasattr(node, Format.attrib):
        setattr(new, Format.attrib, copy.copy(node.fa))
    if hasattr(node, LineCol.attrib):
        lc = copy.copy(node.lc)
        lc.data = copy.copy(node.lc.data)
        setattr(new, LineCol.attrib, lc)
    return new


def _clone_comments(value: Any, memo: dict[int, Any]) -> Any:
    from ruamel.yaml.tokens import CommentToken

    if isinstance(value, list):
        if id(value) not in memo:
            out: list[Any] = []
            memo[id(value)] = out
            out.extend(_clone_comments(v, memo) for v in value)
        return memo[id(value)]
    if isinstance(value, CommentToken):
        if id(value) not in memo:
            memo[id(value)] = copy.copy(value)
        return memo[id(value)]
    return value


def _guess_indent(data: Any) -> tuple[int, int, int]:
    """The indentation of the first block list (``units:``), measured from its parent key."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if not isinstance(data, CommentedMap):
        return DEFAULT_INDENT
    for key, value in data.items():
        if (isinstance(value, CommentedSeq) and value and not value.fa.flow_style()
                and hasattr(value[0], "lc")):
            key_col = data.lc.key(key)[1]
            offset = value.lc.col - key_col
            sequence = value[0].lc.col - key_col
            if offset >= 0 and sequence >= offset + 2:
                return (2, sequence, offset)
    return DEFAULT_INDENT


# --- scalars ------------------------------------------------------------------------------------

_RESOLVER = yaml.resolver.Resolver()


def text_scalar(value: str) -> Any:
    """A string that reads back as the same string with the validator's loader (YAML 1.1).

    ruamel.yaml writes YAML 1.2, where ``yes``, ``on`` and ``1:30`` are plain strings; PyYAML
    would read them as a bool and a number, so they are quoted.
    """
    from ruamel.yaml.scalarstring import SingleQuotedScalarString

    tag = _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))
    return value if tag == "tag:yaml.org,2002:str" else SingleQuotedScalarString(value)


# --- comment-keeping structural edits -----------------------------------------------------------
# A comment slot is (list, index): ruamel.yaml keeps the comment that ends a mapping value at
# ``ca.items[key][2]`` and the one that ends a list item at ``ca.items[i][0]``. Such a token holds
# the end-of-line comment, then every full comment or blank line up to the next value (the
# "tail"). Tails are moved, never dropped.

Slot = tuple[list[Any], int]


def _is_block(node: Any) -> bool:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    return isinstance(node, (CommentedMap, CommentedSeq)) and bool(node) \
        and not node.fa.flow_style()


def _key_slot(mapping: "CommentedMap", key: Any) -> Slot:
    value = mapping[key]
    if _is_block(value):
        return _last_slot(value)
    return mapping.ca.items.setdefault(key, [None, None, None, None]), 2


def _item_slot(seq: "CommentedSeq", index: int) -> Slot:
    item = seq[index]
    if _is_block(item):
        return _last_slot(item)
    return seq.ca.items.setdefault(index, [None, None, None, None]), 0


def _last_slot(node: Any) -> Slot:
    """The slot holding what follows the last line of a non-empty block collection."""
    from ruamel.yaml.comments import CommentedMap

    if isinstance(node, CommentedMap):
        return _key_slot(node, list(node)[-1])
    return _item_slot(node, len(node) - 1)


def _pop_tail(slot: Slot) -> str:
    """Remove and return the full lines after the end-of-line comment of ``slot``."""
    slots, i = slot
    token = slots[i]
    if token is None or not isinstance(token.value, str):
        return ""
    head, _, rest = token.value.partition("\n")
    if not rest:
        return ""
    if head.strip():
        token.value = head + "\n"
    else:
        slots[i] = None
    return rest


def _push_tail(slot: Slot, rest: str) -> None:
    """Add full comment lines after the end-of-line comment of ``slot``."""
    from ruamel.yaml.error import CommentMark
    from ruamel.yaml.tokens import CommentToken

    if not rest:
        return
    slots, i = slot
    token = slots[i]
    if token is None:
        slots[i] = CommentToken("\n" + rest, CommentMark(0))
    else:
        token.value = (token.value if token.value.endswith("\n") else token.value + "\n") + rest


def _lines(tokens: list[Any]) -> str:
    """Full comment lines as text (a token's first line is stored without its indentation)."""
    return "".join(" " * (token.column or 0) + token.value for token in tokens)


def set_key(mapping: "CommentedMap", key: str, value: Any, order: list[str]) -> None:
    """Set ``key``; a new key goes where ``order`` puts it, after the comments that belong
    to the key before it stay where they were."""
    if isinstance(value, str):
        value = text_scalar(value)
    if key in mapping:
        mapping[key] = value
        return
    keys = list(mapping)
    rank = {k: i for i, k in enumerate(order)}
    mine = rank.get(key, len(order))
    position = len(keys)
    for i, k in enumerate(keys):
        if rank.get(k, len(order)) > mine:
            position = i
            break
    if position == 0:
        mapping.insert(0, key, value)
        return
    rest = _pop_tail(_key_slot(mapping, keys[position - 1]))
    mapping.insert(position, key, value)
    _push_tail(_key_slot(mapping, key), rest)


def delete_key(mapping: "CommentedMap", key: str) -> None:
    """Remove ``key`` and its line; comment lines that followed it are kept."""
    if key not in mapping:
        return
    keys = list(mapping)
    p = keys.index(key)
    rest = _pop_tail(_key_slot(mapping, key))
    del mapping[key]
    mapping.ca.items.pop(key, None)
    if not mapping:
        return  # pragma: no cover - a roster unit always keeps its 'unit' key
    _push_tail(_key_slot(mapping, keys[p - 1] if p > 0 else list(mapping)[-1]), rest)


def append_item(seq: "CommentedSeq", item: Any) -> None:
    """Append ``item`` after the last one; comment lines after the old last item stay last."""
    if not seq:
        seq.fa.set_block_style()
        seq.append(item)
        return
    last = seq[-1]
    if hasattr(item, "fa") and hasattr(last, "fa") and last.fa.flow_style():
        item.fa.set_flow_style()  # match a list written as '- {unit: X, models: 5}'
    rest = _pop_tail(_item_slot(seq, len(seq) - 1))
    seq.append(item)
    _push_tail(_item_slot(seq, len(seq) - 1), rest)


def delete_item(parent: "CommentedMap", key: str, index: int) -> None:
    """Remove item ``index`` of the list ``parent[key]``; the comment lines that followed it
    move to the item before it (or above the list), so none is lost."""
    from ruamel.yaml.error import CommentMark
    from ruamel.yaml.tokens import CommentToken

    seq = parent[key]
    # comment lines right after a flow item ('- {unit: X}') are kept as the next item's
    # "before" comments (``ca.items[i][1]``); they come first, then the item's own tail
    before_item = seq.ca.items.get(index)
    rest = ""
    if before_item and before_item[1]:
        rest = _lines(before_item[1])
        before_item[1] = None
    rest += _pop_tail(_item_slot(seq, index))
    del seq[index]
    if index > 0:
        _push_tail(_item_slot(seq, index - 1), rest)
        return
    # The comment lines above the first item: ruamel.yaml keeps them both on the key
    # (``ca.items[key][3]``) and on the list (``ca.comment[1]``), one shared list when loaded,
    # two copies after a deep copy; both are kept equal here.
    slots = parent.ca.items.setdefault(key, [None, None, None, None])
    above = slots[3] or (seq.ca.comment[1] if seq.ca.comment else None) or []
    if seq:  # the removed item was first: its tail goes above the new first item
        if rest:
            above.append(CommentToken(rest, CommentMark(0)))
            slots[3] = above
            if seq.ca.comment:
                seq.ca.comment[1] = above
            else:
                seq.ca.comment = [None, above]
        return
    # the list is now empty ('units: []'): keep its comments after the key
    lines = _lines(above)
    rest += _lines(seq.ca.end or [])
    slots[3] = None
    seq.ca.end = None
    _push_tail((slots, 2), lines + rest)
    seq.fa.set_flow_style()
    # as the loader has it for 'units: []  # note': one token, on the key and on the list
    seq.ca.comment = [slots[2], None] if slots[2] is not None else None
