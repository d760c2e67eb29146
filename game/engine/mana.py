"""Mana costs, mana pools and automatic payment (CR 106, 107.4, 601.2g-h)."""

from __future__ import annotations

import re
from dataclasses import dataclass

COLORS = "WUBRG"
COLOR_NAMES = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green", "C": "colorless"}
_SYMBOL = re.compile(r"\{([^}]+)\}")


@dataclass(frozen=True, slots=True)
class ManaCost:
    generic: int = 0
    colored: tuple[tuple[str, int], ...] = ()  # e.g. (("G", 2),); "C" means specifically colorless
    text: str = ""

    @property
    def mana_value(self) -> int:
        return self.generic + sum(n for _, n in self.colored)

    def reduced(self, amount: int) -> ManaCost:
        """A cost reduction lowers only the generic part (CR 601.2f)."""
        generic = max(0, self.generic - amount)
        return ManaCost(generic, self.colored, render(generic, self.colored))

    def units(self) -> list[str]:
        out: list[str] = []
        for color, n in self.colored:
            out += [color] * n
        return out + ["1"] * self.generic


def render(generic: int, colored: tuple[tuple[str, int], ...]) -> str:
    text = f"{{{generic}}}" if generic or not colored else ""
    for color, n in colored:
        text += f"{{{color}}}" * n
    return text


def parse_cost(text: str | None) -> ManaCost | None:
    if text is None:
        return None
    generic = 0
    colored: dict[str, int] = {}
    for sym in _SYMBOL.findall(text):
        if sym.isdigit():
            generic += int(sym)
        elif sym in COLORS or sym == "C":
            colored[sym] = colored.get(sym, 0) + 1
        else:
            raise ValueError(f"unknown mana symbol {{{sym}}} in {text!r}")
    order = tuple((c, colored[c]) for c in "WUBRGC" if c in colored)
    return ManaCost(generic, order, text)


@dataclass(slots=True)
class ManaSource:
    """One way to make mana right now: a permanent's mana ability."""

    obj_id: int
    name: str
    produces: str  # a set of symbols it may make: "G", "C", "WUBRG" (any color)
    amount: int
    rank: int  # payment order: 0 lands, 1 other permanents, 2 sources that sacrifice (Treasures)
    ability_index: int


def plan_payment(
    cost: ManaCost,
    pool: dict[str, int],
    sources: list[ManaSource],
    demand: dict[str, int] | None = None,
) -> tuple[dict[str, int], list[tuple[ManaSource, str]]] | None:
    """Find how to pay `cost`: mana from the pool first, then sources in rank order.

    Returns (mana taken from the pool, [(source, color it makes)]) or None when it can't be paid.
    Colored requirements are matched first with a small backtracking search, so a Forest is never
    spent on generic mana while a green requirement is left to a Treasure. Within a rank,
    generic mana comes first from sources whose colors are least in `demand` (the colored
    symbols of the cards still in hand), so paying for one spell doesn't strand another.
    """
    demand = demand or {}
    pool = dict(pool)
    from_pool: dict[str, int] = {}
    need_colored: list[str] = []
    for color, n in cost.colored:
        for _ in range(n):
            if pool.get(color, 0) > 0:
                pool[color] -= 1
                from_pool[color] = from_pool.get(color, 0) + 1
            else:
                need_colored.append(color)
    generic = cost.generic
    # Generic from the pool: colorless first, then the colors least likely to be wanted.
    for color in "CWUBRG":
        while generic and pool.get(color, 0) > 0:
            pool[color] -= 1
            from_pool[color] = from_pool.get(color, 0) + 1
            generic -= 1
    ordered = sorted(
        sources,
        key=lambda s: (s.rank, max((demand.get(c, 0) for c in s.produces), default=0), s.obj_id),
    )
    used: list[tuple[ManaSource, str]] = []
    taken: set[int] = set()

    def assign(i: int) -> bool:
        if i == len(need_colored):
            return True
        color = need_colored[i]
        for s in ordered:
            if s.obj_id in taken or color not in s.produces:
                continue
            taken.add(s.obj_id)
            used.append((s, color))
            if assign(i + 1):
                return True
            taken.discard(s.obj_id)
            used.pop()
        return False

    if not assign(0):
        return None
    # A source that makes more than one mana (CR 106.4: the rest stays in the pool) is
    # treated as making its whole amount for the first requirement it is used for.
    surplus = sum(s.amount - 1 for s, _ in used)
    generic = max(0, generic - surplus)
    for s in ordered:
        if generic <= 0:
            break
        if s.obj_id in taken:
            continue
        taken.add(s.obj_id)
        color = "C" if "C" in s.produces else s.produces[0]
        used.append((s, color))
        generic -= s.amount
    if generic > 0:
        return None
    return from_pool, used


def pool_text(pool: dict[str, int]) -> str:
    return "".join(f"{{{c}}}" * n for c, n in pool.items() if n) or "nothing"
