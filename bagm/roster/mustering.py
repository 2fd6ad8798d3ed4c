"""The generic mustering engine: evaluates a Detachment's declarative rules on an army.

One function per rule kind; faction data never needs code here. Rules implement "Mustering your
Boarding Patrol", step 4: a unit only if "allowed by your Detachment's Mustering Rules".
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Callable, Iterable

from bagm.data.models import (
    Excludes,
    Exclusive,
    KeywordGroup,
    Limit,
    Ratio,
    Requires,
    Selector,
)
from bagm.data.names import norm
from bagm.roster.findings import Finding
from bagm.roster.report import ArmyUnit


def matches(selector: Selector, unit: ArmyUnit) -> bool:
    """A unit matches when the selector names its datasheet or it has all the keywords."""
    if unit.datasheet is None:
        return False
    if selector.units and norm(unit.datasheet.name) in {norm(n) for n in selector.units}:
        return True
    return bool(selector.keywords) and set(k.upper() for k in selector.keywords) <= unit.keywords


def _select(selector: Selector, army: Iterable[ArmyUnit]) -> list[ArmyUnit]:
    return [u for u in army if matches(selector, u)]


def _names(units: Iterable[ArmyUnit]) -> str:
    return ", ".join(u.display for u in units)


# a data pack's provenance prefix: which field of the source data a rule came from
# ("mustering keywordRatio: ..."); a user reads the rule, not the source's field names
_SOURCE_FIELD = re.compile(r"^\s*mustering\s+[a-z]+[A-Z]\w*\s*:?\s*")


def plain_note(note: str | None) -> str | None:
    """A rule's note in the book's words: the source's field name left out, nothing left if
    that was all it said."""
    if not note:
        return None
    text = _SOURCE_FIELD.sub("", note).strip()
    return text or None


def _why(rule: object) -> str:
    note = plain_note(getattr(rule, "note", None))
    return f" ({note})" if note else ""


def check_limit(rule: Limit, army: list[ArmyUnit]) -> list[Finding]:
    chosen = _select(rule.select, army)
    out: list[Finding] = []
    if len(chosen) > rule.max:
        extra = chosen[rule.max]
        out.append(Finding("BA160", f"at most {rule.max} unit(s) of {rule.select.describe()} "
                           f"allowed, found {len(chosen)}: {_names(chosen)}{_why(rule)}; "
                           "remove one", extra.line, extra.display))
    if rule.distinct:
        seen: Counter[str] = Counter()
        for u in chosen:
            seen[u.name] += 1
            if seen[u.name] == 2:
                out.append(Finding("BA160", f"{u.name} taken twice where each of "
                                   f"{rule.select.describe()} may be taken once{_why(rule)}",
                                   u.line, u.display))
    return out


def check_ratio(rule: Ratio, army: list[ArmyUnit]) -> list[Finding]:
    counted, per = _select(rule.count, army), _select(rule.per, army)
    allowed = rule.factor * len(per)
    if len(counted) <= allowed:
        return []
    last = counted[-1]
    return [Finding("BA161", f"{len(counted)} unit(s) of {rule.count.describe()} but only "
                    f"{allowed} allowed by {len(per)} unit(s) of {rule.per.describe()}"
                    f"{_why(rule)}; add one of {rule.per.describe()} or remove one",
                    last.line, last.display)]


def check_requires(rule: Requires, army: list[ArmyUnit]) -> list[Finding]:
    chosen = _select(rule.select, army)
    if not chosen or _select(rule.needs, army):
        return []
    return [Finding("BA162", f"{u.display} may only be included with a unit of "
                    f"{rule.needs.describe()}{_why(rule)}", u.line, u.display) for u in chosen]


def check_exclusive(rule: Exclusive, army: list[ArmyUnit]) -> list[Finding]:
    wanted = {norm(n) for n in rule.units}
    present: dict[str, ArmyUnit] = {}
    for u in army:
        if u.datasheet is not None and norm(u.datasheet.name) in wanted:
            present.setdefault(u.datasheet.name, u)
    if len(present) < 2:
        return []
    last = list(present.values())[-1]
    return [Finding("BA163", f"{' and '.join(present)} exclude each other: only one of "
                    f"{', '.join(rule.units)} may be included{_why(rule)}",
                    last.line, last.display)]


def check_excludes(rule: Excludes, army: list[ArmyUnit]) -> list[Finding]:
    chosen = _select(rule.select, army)
    if not chosen:
        return []
    others = [u for u in _select(rule.others, army) if u not in chosen]
    if not others:
        return []
    first = chosen[0]
    return [Finding("BA165", f"{first.display} cannot be included with {u.display}: with "
                    f"{first.name}, no other unit of {rule.others.describe()} may be taken"
                    f"{_why(rule)}", u.line, u.display) for u in others]


def check_keyword_group(rule: KeywordGroup, army: list[ArmyUnit]) -> list[Finding]:
    group = [k.upper() for k in rule.keywords]
    first: dict[str, ArmyUnit] = {}
    for u in army:
        for kw in group:
            if kw in u.keywords:
                first.setdefault(kw, u)
    if len(first) < 2:
        return []
    kws = list(first)
    last = first[kws[-1]]
    return [Finding("BA164", f"units of {' and '.join(kws)} cannot be mixed in one army"
                    f"{_why(rule)}; keep one of them", last.line, last.display)]


CHECKS: dict[type, Callable[..., list[Finding]]] = {
    Limit: check_limit,
    Ratio: check_ratio,
    Requires: check_requires,
    Exclusive: check_exclusive,
    Excludes: check_excludes,
    KeywordGroup: check_keyword_group,
}


def check_rules(rules: Iterable[object], army: list[ArmyUnit]) -> list[Finding]:
    out: list[Finding] = []
    for rule in rules:
        out += CHECKS[type(rule)](rule, army)
    return out
