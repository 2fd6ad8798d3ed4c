"""A catalogue whose entries link back into themselves is read to an end (the reader follows
links to a bounded depth: ``MAX_DEPTH`` in bagm/io/bsdata), never recursing without end."""

from __future__ import annotations

from pathlib import Path

from test_bsdata import _bounds, _unit_xml, catalogue_of, read_test_catalogue


def _looping_catalogue() -> str:
    """A Looper whose "Bundle" gives nothing itself and holds a choice of the Bundle again (a
    link back to itself): the bundle-of-choices reading would follow it for ever."""
    again = ('<entryLinks><entryLink import="true" name="Bundle" hidden="false" id="el-again" '
             'type="selectionEntry" targetId="g-bundle"/></entryLinks>')
    choice = ('<selectionEntryGroup name="Choice" hidden="false" id="grp-choice">'
              f"<constraints>{_bounds('grp-choice', 1, 1)}</constraints>"
              f"{again}</selectionEntryGroup>")
    bundle = ('<selectionEntry type="upgrade" name="Bundle" hidden="false" id="g-bundle">'
              f"<constraints>{_bounds('g-bundle', None, 1)}</constraints>"
              f"<selectionEntryGroups>{choice}</selectionEntryGroups></selectionEntry>")
    model = ('<selectionEntry type="model" name="Looper" hidden="false" id="m-loop">'
             f"<constraints>{_bounds('m-loop', 1, 1)}</constraints>"
             f"<profiles>{_unit_xml('loop', 'Looper')}</profiles>"
             f"<selectionEntries>{bundle}</selectionEntries></selectionEntry>")
    unit = ('<selectionEntry type="unit" name="Loopers" hidden="false" id="u-loop">'
            f"<selectionEntries>{model}</selectionEntries></selectionEntry>")
    return catalogue_of("cat-loop", "Imperium - Loop Test", unit)


def test_an_entry_linking_back_into_itself_is_read_to_an_end(tmp_path: Path) -> None:
    """Before the depth bound this raised RecursionError; now the Bundle, which gives nothing
    at any depth, is no wargear: the Looper is read with his profile and no choices."""
    loopers = read_test_catalogue(tmp_path, "Imperium - Loop Test", _looping_catalogue())["Loopers"]
    assert [m["name"] for m in loopers["models"]] == ["Looper"]
    assert loopers["weapons"] == []
    assert [k.get("choices") for k in loopers["wargear"]] == [None]
