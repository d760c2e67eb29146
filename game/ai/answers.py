"""Legal answers without judgement: the safe answer for any decision, and the largest legal part
of a chosen set. The rules of thumb fall back on them when their own choice would be refused."""

from __future__ import annotations

from game.engine.decisions import Decision

Answer = str | list[str]


def valid_subset(d: Decision, ids: list[str]) -> list[str]:
    """Drop chosen options, last first, until the decision's own check accepts the rest."""
    ids = list(dict.fromkeys(ids))[: d.max_count]
    while ids:
        chosen = [d.option(i) for i in ids]
        if (d.check is None or d.check(chosen) is None) and len(ids) >= d.min_count:
            return ids
        ids.pop()
    return safe_answer(d)  # type: ignore[return-value]


def safe_answer(d: Decision) -> Answer:
    """A legal answer for any decision: pass, the smallest legal choice, or the first option."""
    if d.ordered:
        return [o.id for o in d.options]
    ids = [o.id for o in d.options]
    if not d.multi:
        for cautious in ("pass", "keep", "dont", "none", "no"):
            if cautious in ids:
                return cautious
        return ids[0]
    for k in range(d.min_count, d.max_count + 1):
        pick = ids[:k]
        if d.check is None or d.check([d.option(i) for i in pick]) is None:
            return pick
    return ids[: d.min_count]
