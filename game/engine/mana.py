"""Mana costs, mana pools and automatic payment (CR 106, 107.4, 601.2g-h)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

COLORS = "WUBRG"
MANA_KINDS = (*COLORS, "C")  # what a mana pool holds: the five colors and colorless
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
) -> tuple[dict[str, int], list[tuple[ManaSource, str]]] | None:
    """Find how to pay `cost`: mana from the pool first, then sources in rank order.

    Returns (mana taken from the pool, [(source, color it makes)]) or None when it can't be paid.
    Each source appears at most once: one activation of its mana ability adds all of its mana,
    `amount` mana of the one color chosen (CR 605.3b, 106.4), and any of that mana may pay any
    symbol of its color or generic mana (CR 601.2h). So a source making {G}{G} pays two {G}
    symbols. Colored symbols are matched first with a small backtracking search, so a Forest is
    never spent on generic mana while a green requirement is left to a Treasure. Which sources to
    keep for the cards still in hand is `best_payment`'s choice, made with this plan.
    """
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
    ordered = sorted(sources, key=lambda s: (s.rank, s.obj_id))
    used: list[tuple[ManaSource, str]] = []
    taken: set[int] = set()
    # Mana the sources already chosen make beyond the symbols they pay so far, by color.
    spare: dict[str, int] = {}

    def assign(i: int) -> bool:
        if i == len(need_colored):
            return True
        color = need_colored[i]
        if spare.get(color, 0) > 0:
            # Mana of this color that a chosen source makes anyway pays the symbol: any payment
            # tapping another source for it instead can swap the two and lose nothing, so this
            # needs no other branch.
            spare[color] -= 1
            if assign(i + 1):
                return True
            spare[color] += 1
            return False
        tried: set[tuple[str, int, int]] = set()
        for s in ordered:
            kind = (s.produces, s.amount, s.rank)
            if s.obj_id in taken or color not in s.produces or kind in tried:
                continue
            tried.add(kind)  # an unused source alike would fare the same: not tried again
            taken.add(s.obj_id)
            used.append((s, color))
            spare[color] = spare.get(color, 0) + s.amount - 1
            if assign(i + 1):
                return True
            spare[color] -= s.amount - 1
            taken.discard(s.obj_id)
            used.pop()
        return False

    if not assign(0):
        return None
    # What the colored symbols leave of the chosen sources' mana pays generic mana first
    # (CR 106.4: mana left over stays in the pool).
    generic -= sum(spare.values())
    extra: list[tuple[ManaSource, str]] = []
    for s in ordered:
        if generic <= 0:
            break
        if s.obj_id in taken:
            continue
        extra.append((s, "C" if "C" in s.produces else s.produces[0]))
        generic -= s.amount
    if generic > 0:
        return None
    return from_pool, used + extra


def _without_spare(
    cost: ManaCost,
    pool: dict[str, int],
    plan: tuple[dict[str, int], list[tuple[ManaSource, str]]],
) -> tuple[dict[str, int], list[tuple[ManaSource, str]]]:
    """`plan` without the sources the others pay without, the latest in rank order left out
    first. The ordered plan may tap a land for a symbol that a source making several mana
    chosen later pays anyway; its mana would only wait in the pool."""
    used = [s for s, _ in plan[1]]
    for s in sorted(used, key=lambda s: (s.rank, s.obj_id), reverse=True):
        smaller = plan_payment(cost, pool, [x for x in used if x is not s])
        if smaller is not None:
            return _without_spare(cost, pool, smaller)
    return plan


# Keeping the hand castable ---------------------------------------------------------------------
# The ways to pay compared are the minimal sets of sources that pay, sources alike (same mana,
# amount and rank) taken as one kind. A board with more ways than this is paid by the ordered
# plan above alone: the search is there for ordinary boards, never to be a cost of its own.
MAX_WAYS = 400


def best_payment(
    cost: ManaCost,
    pool: dict[str, int],
    sources: list[ManaSource],
    hand: list[tuple[ManaCost, ...]],
    land_drop: Sequence[ManaSource] = (),
) -> tuple[dict[str, int], list[tuple[ManaSource, str]]] | None:
    """Among the legal ways to pay `cost`, one that leaves the most of `hand` (the cards still
    in hand, each as the costs it may be cast for) castable this turn: first the most cards the
    mana left can pay whole, with the best of `land_drop` added (the lands the player may still
    play this turn, one of them), then the most cards whose coloured symbols it can make, then
    the fewest sources of a later rank used (lands before other permanents, Treasures last),
    then the sources whose colours the hand's symbols ask for least. The sources untap next
    turn, so what the mana left pays this turn is what a careful player keeps it for: a Mountain
    kept for the Kick in the Door in hand rather than a Swamp for a spell two mana away.
    Returns a plan as `plan_payment` does, or None when `cost` can't be paid."""
    first = plan_payment(cost, pool, sources)
    if first is None or not sources:
        return first
    from_pool, ordered_plan = first
    need = cost.mana_value - sum(from_pool.values())
    if need <= 0:
        return first
    if sum(s.amount for s, _ in ordered_plan) > need:  # only then may a source be spare
        first = _without_spare(cost, pool, first)
    if not hand:
        return first
    pool_left = {c: n - from_pool.get(c, 0) for c, n in pool.items()}
    demand: dict[str, int] = {}  # the coloured symbols of the hand, for the last tie-break
    for faces in hand:
        for color, n in faces[0].colored:
            demand[color] = demand.get(color, 0) + n
    kinds: dict[tuple[str, int, int], list[ManaSource]] = {}
    for s in sorted(sources, key=lambda s: (s.rank, s.obj_id)):
        kinds.setdefault((s.produces, s.amount, s.rank), []).append(s)
    groups = list(kinds.values())
    # Lands in hand alike (same mana) would be counted alike: one of each.
    drops = list({(s.produces, s.amount): s for s in land_drop}.values())
    best: tuple[tuple[int, ...], tuple[dict[str, int], list[tuple[ManaSource, str]]]] | None = None
    for counts in _ways(groups, need):
        chosen = [s for group, n in zip(groups, counts, strict=True) for s in group[:n]]
        plan = plan_payment(cost, pool, chosen)
        if plan is None:
            continue
        used = {s.obj_id for s in chosen}
        left = [s for s in sources if s.obj_id not in used]
        score = (*_keeps(hand, pool_left, left, drops), -sum(s.rank for s in chosen))
        score += (-sum(max(demand.get(c, 0) for c in s.produces) for s in chosen),)
        if best is None or score > best[0]:
            best = (score, plan)
    return best[1] if best is not None else first


def _ways(groups: list[list[ManaSource]], need: int) -> list[tuple[int, ...]]:
    """How many sources of each kind to use so that they make at least `need` mana and none of
    them is spare (none at all when there are more than MAX_WAYS ways)."""
    out: list[tuple[int, ...]] = []

    def walk(i: int, counts: tuple[int, ...], made: int, smallest: int) -> None:
        if made >= need:
            if made - smallest < need:  # without its smallest source it would not pay
                out.append(counts + (0,) * (len(groups) - i))
            return
        if i == len(groups) or len(out) > MAX_WAYS:
            return
        amount = groups[i][0].amount
        for n in range(len(groups[i]) + 1):
            walk(i + 1, counts + (n,), made + n * amount, min(smallest, amount) if n else smallest)
            if made + n * amount >= need:
                break  # more of this kind would be spare

    walk(0, (), 0, 1 << 30)
    return out if len(out) <= MAX_WAYS else []


def _keeps(
    hand: list[tuple[ManaCost, ...]],
    pool: dict[str, int],
    sources: list[ManaSource],
    land_drop: list[ManaSource],
) -> tuple[int, int]:
    """How many cards of the hand (each the costs it may be cast for) the mana left could pay
    for whole, and by their coloured symbols alone: the best of these counts with the sources
    left, or with them and one land of `land_drop`."""

    def counts(sources: list[ManaSource]) -> tuple[int, int]:
        colours = whole = 0
        for faces in hand:
            if any(plan_payment(ManaCost(0, c.colored), pool, sources) is not None for c in faces):
                colours += 1
                if any(plan_payment(c, pool, sources) is not None for c in faces):
                    whole += 1
        return whole, colours

    return max([counts(sources)] + [counts([*sources, land]) for land in land_drop])


def pool_text(pool: dict[str, int]) -> str:
    return "".join(f"{{{c}}}" * n for c, n in pool.items() if n) or "nothing"
