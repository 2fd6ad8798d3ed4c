"""Writing a data pack as YAML the way the bundled packs are laid out: key order kept, model
profiles and weapons one flow mapping a line, ``leader`` in block style."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

_FLOW_LIMIT = 88


class _Flow(dict):  # type: ignore[type-arg]
    """A mapping always written in flow style (model profiles, weapons)."""


class _Block(dict):  # type: ignore[type-arg]
    """A mapping always written in block style (``leader``: one key a line, as in the docs)."""


def _flat_len(obj: Any, budget: int) -> int:
    """Rough one-line length of ``obj`` in flow style, stopping once over ``budget``."""
    if isinstance(obj, dict):
        total = 2
        for k, v in obj.items():
            total += len(str(k)) + 4 + _flat_len(v, budget - total)
            if total > budget:
                return total
        return total
    if isinstance(obj, list):
        total = 2
        for v in obj:
            total += 2 + _flat_len(v, budget - total)
            if total > budget:
                return total
        return total
    if isinstance(obj, str):
        return budget + 1 if "\n" in obj else len(obj) + 2
    return len(str(obj))


def _dumper() -> type:
    import yaml

    class PackDumper(yaml.SafeDumper):
        def increase_indent(self, flow: bool = False, indentless: bool = False) -> Any:
            return super().increase_indent(flow, False)  # indent list items under their key

        # inside {...} / [...] lines break between items, never inside a name
        def write_plain(self, text: str, split: bool = True) -> None:
            super().write_plain(text, split and not self.flow_level)

        def write_single_quoted(self, text: str, split: bool = True) -> None:
            super().write_single_quoted(text, split and not self.flow_level)

        def write_double_quoted(self, text: str, split: bool = True) -> None:
            super().write_double_quoted(text, split and not self.flow_level)

    def rep_flow(dumper: Any, data: dict[str, Any]) -> Any:
        return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=True)

    def rep_dict(dumper: Any, data: dict[Any, Any]) -> Any:
        flow = bool(data) and _flat_len(data, _FLOW_LIMIT) <= _FLOW_LIMIT and \
            all(not isinstance(v, (dict, list)) or len(v) <= 8 for v in data.values())
        return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=flow)

    def rep_list(dumper: Any, data: list[Any]) -> Any:
        flow = bool(data) and all(not isinstance(v, (dict, list)) for v in data) and \
            _flat_len(data, _FLOW_LIMIT) <= _FLOW_LIMIT
        return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)

    def rep_block(dumper: Any, data: dict[str, Any]) -> Any:
        return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=False)

    PackDumper.add_representer(_Flow, rep_flow)
    PackDumper.add_representer(_Block, rep_block)
    PackDumper.add_representer(dict, rep_dict)
    PackDumper.add_representer(list, rep_list)
    return PackDumper


def _mark_flow(data: Any) -> Any:
    """Model profiles and weapons become flow-style mappings, ``leader`` a block-style one;
    everything else is unchanged."""
    if not isinstance(data, dict):
        return data
    units = data.get("units")
    if isinstance(units, list):
        for unit in units:
            if not isinstance(unit, dict):
                continue
            for key in ("models", "weapons"):
                if isinstance(unit.get(key), list):
                    unit[key] = [_Flow(v) if isinstance(v, dict) else v for v in unit[key]]
            if isinstance(unit.get("leader"), dict):
                unit["leader"] = _Block(unit["leader"])
    return data


def dump_pack(data: dict[str, Any]) -> str:
    """A pack as YAML text: key order kept, deterministic, 100 columns, unicode as is."""
    import yaml

    # the top level is always one key a line, however small the pack
    return yaml.dump(_Block(_mark_flow(data)), Dumper=_dumper(), sort_keys=False, allow_unicode=True,
                     width=100, default_flow_style=False)


_TOP_KEY = re.compile(r"([A-Za-z_][\w-]*):(?:\s|$)")


def _top_blocks(text: str) -> tuple[str, dict[str, str]]:
    """The comment header of a YAML file and the text of each top-level key's block; comment and
    blank lines at column 0 belong to the block they come before (a block's own heading)."""
    header = ""
    blocks: dict[str, str] = {}
    pending: list[str] = []
    key: str | None = None
    for line in text.splitlines(keepends=True):
        match = _TOP_KEY.match(line)
        if match:
            if key is None:
                header = "".join(pending)
                pending = []
            key = match.group(1)
            blocks[key] = "".join(pending) + line
            pending = []
        elif key is not None and line[:1] not in ("#", "\n", "\r", ""):
            blocks[key] += "".join(pending) + line  # the block goes on (indented lines)
            pending = []
        else:
            pending.append(line)
    if key is None:
        return "".join(pending), blocks
    blocks[key] += "".join(pending)
    return header, blocks


def pack_text(data: dict[str, Any], original: str = "") -> str:
    """``data`` as pack text. Given the file's ``original`` text, its comment header is kept, and
    every top-level block whose value did not change is kept as it was written, comments and
    layout included (an import rewrites ``units`` and leaves the hand-written tables alone)."""
    import yaml

    header, blocks = _top_blocks(original) if original else ("", {})
    before: Any = yaml.safe_load(original) if original else None
    if not isinstance(before, dict):
        before = {}
    parts = [header] if header.strip() else []
    for key, value in data.items():
        if key in blocks and key in before and before[key] == value:
            parts.append(blocks[key])
        else:
            parts.append(dump_pack({key: value}))
    return "".join(parts)


def write_pack(path: str | os.PathLike[str], data: dict[str, Any], original: str = "") -> None:
    """Write a pack atomically (the one ``bagm.io.atomic.write_atomic``), keeping what
    :func:`pack_text` keeps of the ``original`` text."""
    from bagm.io.atomic import write_atomic

    write_atomic(Path(path), pack_text(data, original))
