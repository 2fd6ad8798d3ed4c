"""The one Jinja2 environment for every page and picture bagm writes from a template.

Jinja2 because it is Python's standard template engine: autoescape is on for every template,
so a name or label a user wrote is escaped by the engine, never by hand, and never by string
concatenation. Templates live in ``bagm/render/templates/``; ``tojson`` puts data into a page's
``<script type="application/json">`` safely.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jinja2 import Environment


@lru_cache(maxsize=1)
def environment() -> Environment:
    """Autoescape on for every template (HTML and SVG alike); an undefined name is an error."""
    from jinja2 import Environment, PackageLoader, StrictUndefined

    return Environment(loader=PackageLoader("bagm.render", "templates"), autoescape=True,
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                       keep_trailing_newline=True)


def render(template: str, **values: object) -> str:
    return environment().get_template(template).render(**values)
