"""Data packs and overlays are read strictly (``bagm.data.schema.validate``): a number is never
read from ``true`` or from the text ``"2"``, nor text from a number; a wrong type is an error
naming the file, the line, the key and what was written, exit code 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.data.models import ModelWargear
from bagm.data.packs import Catalog, data_dirs
from bagm.data.schema import DataError, validate
from bagm.errors import BagmError


def overlay(tmp_path: Path, tokens: str) -> Path:
    (tmp_path / "aeldari.yaml").write_text(
        f"faction: Aeldari\nabilities:\n  - {{name: Battle Focus, tokens: {tokens}}}\n",
        encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("written", ["true", "'2'", "2.5", "[2]"])
def test_a_number_is_never_read_from_a_boolean_text_or_a_fraction(tmp_path: Path, written: str) -> None:
    with pytest.raises(BagmError) as err:
        Catalog(data_dirs([overlay(tmp_path, written)])).faction("Aeldari")
    text = str(err.value)
    assert "aeldari.yaml:3" in text and "'Battle Focus' > tokens" in text
    assert "valid integer" in text


def test_a_number_is_read_as_a_number(tmp_path: Path) -> None:
    pack = Catalog(data_dirs([overlay(tmp_path, "2")])).faction("Aeldari")
    assert [a.tokens for a in pack.pack.abilities if a.name == "Battle Focus"] == [2]


def test_the_cli_says_where_and_what_and_exits_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["datasheet", "Guardian Defenders"],
                                env={"BAGM_DATA": str(overlay(tmp_path, "yes"))})
    assert result.exit_code == 2, result.output
    assert "aeldari.yaml:3" in result.output and "not true" in result.output
    assert "Traceback" not in result.output


def test_text_is_never_read_from_a_number_and_sizes_key_by_number() -> None:
    with pytest.raises(DataError) as err:
        validate(ModelWargear, {"model": 3})
    assert str(err.value) == "model: Input should be a valid string, not 3"
    with pytest.raises(DataError) as err:
        validate(ModelWargear, {"model": "X", "max_from": {6: True}})
    assert err.value.loc == ("max_from", 6)  # the data's own key, to find its line
    assert validate(ModelWargear, {"model": "X", "max_from": {6: 2}}).max_from == {6: 2}


def test_a_yaml_date_where_text_goes_is_the_text_written() -> None:
    import datetime
    assert validate(ModelWargear, {"model": datetime.date(2024, 10, 1)}).model == "2024-10-01"
