"""Combat (CR 506-509): declaring attackers and blockers (damage: combat_damage.py)."""

from __future__ import annotations

from .choices import Gen
from .continuous import chars
from .decisions import Decision, Option
from .kinds import DECLARE_ATTACKERS, DECLARE_BLOCKERS
from .state import Combat, GameState, Obj
from .targets import numbered_name, whose_after
from .triggers import fire


def can_attack(g: GameState, o: Obj) -> bool:
    c = chars(g, o)
    if "Creature" not in c.types or o.tapped or c.cant_attack or "defender" in c.keywords:
        return False
    # Summoning sickness (CR 302.6) unless haste.
    return not (o.sick and "haste" not in c.keywords)


def must_attack(g: GameState, o: Obj) -> bool:
    """Goaded creatures attack each combat if able (CR 701.15b)."""
    return bool(o.goaded_by)


def declare_attackers(g: GameState) -> Gen:
    """CR 508.1: the active player declares attackers; asked only when one can attack."""
    g.combat = Combat()
    attacker_player = g.active
    defender = g.opponent(attacker_player)
    able = [o for o in g.controlled(attacker_player) if can_attack(g, o)]
    if not able:
        return
    forced = {o.id for o in able if must_attack(g, o)}
    walkers = [w for w in g.controlled(defender) if "Planeswalker" in chars(g, w).types]
    options = []
    for o in able:
        options.append(Option(f"a{o.id}", o.name, (o.id,), (o, defender)))
        # CR 508.1b: a creature may attack a planeswalker the defending player controls.
        for w in walkers:
            options.append(
                Option(f"a{o.id}:{w.id}", f"{o.name} -> {w.name}", (o.id, w.id), (o, w.id))
            )

    def check(chosen: list[Option]) -> str | None:
        ids = [opt.data[0].id for opt in chosen]  # type: ignore[index]
        if len(ids) != len(set(ids)):
            return "A creature attacks only one player or planeswalker."
        missing = forced - set(ids)
        if missing:
            names = ", ".join(o.name for o in able if o.id in missing)
            return f"{names} must attack this combat (goaded, CR 701.15b)."
        return None

    prompt = "Declare attackers (choose any number)"
    if forced:
        names = ", ".join(o.name for o in able if o.id in forced)
        prompt = f"Declare attackers (choose any number; goaded, {names} must attack)"
    answer = yield Decision(
        attacker_player,
        DECLARE_ATTACKERS,
        prompt,
        options,
        multi=True,
        min_count=0,
        max_count=len(able),
        check=check,
        ticked=tuple(f"a{oid}" for oid in sorted(forced)),
    )
    picked = [opt.data for opt in options if opt.id in set(answer)]
    chosen = [o for o, _ in picked]  # type: ignore[misc]
    if not chosen:
        g.note(f"{attacker_player} declares no attackers")
        return
    parts = []
    for o, target in picked:  # type: ignore[misc]
        g.combat.attackers[o.id] = target
        if "vigilance" not in chars(g, o).keywords:
            o.tapped = True  # CR 508.1f
        if isinstance(target, int):
            walker = g.permanent(target)
            parts.append(f"{numbered_name(g, o)} (attacking {walker.name if walker else '?'})")
        else:
            parts.append(numbered_name(g, o))
    g.combat.attacked_alone = len(chosen) == 1
    g.combat.declared = True
    g.note(f"{attacker_player} attacks {defender} with " + ", ".join(parts), "CR 508.1")
    for o in chosen:
        fire(g, "attacks", obj=o)
    fire(g, "attackers_declared", player=attacker_player, attackers=chosen)


def can_block(g: GameState, blocker: Obj, attacker: Obj, *, alone: bool | None = None) -> bool:
    """Whether `blocker` may block `attacker` on its own; `alone` says whether the attacker
    attacks alone (None: as the combat declared)."""
    bc = chars(g, blocker)
    ac = chars(g, attacker)
    if "Creature" not in bc.types or blocker.tapped or bc.cant_block:
        return False
    if "flying" in ac.keywords and not ({"flying", "reach"} & bc.keywords):
        return False  # CR 702.9b
    if ac.cant_be_blocked_by_walls and "Wall" in bc.subtypes:
        return False
    if alone is None:
        alone = bool(g.combat and g.combat.attacked_alone)
    if attacker.card.extra.get("unblockable_alone") and alone:
        return False  # "can't be blocked as long as it's attacking alone" (Yuan-Ti Malison)
    return "protection from creatures" not in ac.keywords


def block_pairs(g: GameState) -> list[tuple[Obj, Obj]]:
    """The (blocker, attacker) pairs the defending player could declare, each legal on its own;
    none outside combat. From the battlefield alone, public information (engine/stops.py reads
    it too)."""
    c = g.combat
    if c is None or not c.attackers:
        return []
    defender = g.opponent(g.active)
    attackers = [o for o in g.battlefield if o.id in c.attackers]
    able_blockers = [b for b in g.controlled(defender) if "Creature" in chars(g, b).types]
    pairs = [(b, a) for b in able_blockers for a in attackers if can_block(g, b, a)]
    # Menace (CR 702.110b): blocking it takes two or more creatures, so with fewer possible
    # blockers no block of it can be declared and it isn't offered.
    for a in attackers:
        if "menace" in chars(g, a).keywords and sum(1 for _, x in pairs if x is a) < 2:
            pairs = [(b, x) for b, x in pairs if x is not a]
    return pairs


def block_words(g: GameState, blocker: Obj, attacker: Obj) -> str:
    """ "Nadaar blocks Gloom Stalker #2": the blocker is the defender's, named at the start of
    the line; an attacker of the blocker's own name says whose it is ("Wolf blocks Wolf
    (alice's)"), or the line would not tell them apart (a playtest)."""
    mark = f" {whose_after(attacker.controller)}" if attacker.name == blocker.name else ""
    return f"{numbered_name(g, blocker)} blocks {numbered_name(g, attacker)}{mark}"


def declare_blockers(g: GameState) -> Gen:
    """CR 509.1: the defending player declares blockers; asked only when one can block.

    The options are exactly the blocker -> attacker pairs that are legal on their own; what makes
    a set of pairs illegal (one blocker for two attackers, CR 509.1a; menace, CR 702.110b) is
    checked on the answer, named in the refusal, and published as the decision's `constraints`
    so a board can refuse it before sending."""
    c = g.combat
    assert c is not None
    defender = g.opponent(g.active)
    attackers = [o for o in g.battlefield if o.id in c.attackers]
    pairs = block_pairs(g)
    menace = [a for a in attackers if "menace" in chars(g, a).keywords]
    if not pairs:
        return
    options = [
        Option(f"b{b.id}:{a.id}", f"{b.name} blocks {a.name}", (b.id, a.id), (b, a))
        for b, a in pairs
    ]
    blockers_offered = {b.id for b, _ in pairs}
    menace_offered = [a for a in menace if any(x is a for _, x in pairs)]

    def check(chosen: list[Option]) -> str | None:
        blocks: dict[int, list[Obj]] = {}
        per_attacker: dict[int, int] = {}
        for opt in chosen:
            b, a = opt.data  # type: ignore[misc]
            blocks.setdefault(b.id, []).append(a)
            per_attacker[a.id] = per_attacker.get(a.id, 0) + 1
        for opt in chosen:
            b = opt.data[0]  # type: ignore[index]
            if len(blocks[b.id]) > 1:
                names = " and ".join(x.name for x in blocks[b.id])
                return (
                    f"{b.name} can't block both {names}: a creature blocks only one attacker "
                    "(CR 509.1a)."
                )
        for a in menace_offered:
            if per_attacker.get(a.id, 0) == 1:
                return (
                    f"{a.name} has menace: it can't be blocked except by two or more "
                    "creatures (CR 702.110b)."
                )
        return None

    answer = yield Decision(
        defender,
        DECLARE_BLOCKERS,
        "Declare blockers: each blocker blocks one attacker",
        options,
        multi=True,
        min_count=0,
        max_count=len(blockers_offered),
        check=check,
        constraints={
            "one_attacker_per_blocker": True,
            "menace": [a.id for a in menace_offered],
        },
    )
    chosen = [opt.data for opt in options if opt.id in set(answer)]
    if not chosen:
        g.note(f"{defender} declares no blockers")
        return
    for b, a in chosen:  # type: ignore[misc]
        c.blockers.setdefault(a.id, []).append(b.id)
        c.blocking[b.id] = a.id
    g.note(f"{defender} blocks: " + "; ".join(block_words(g, b, a) for b, a in chosen), "CR 509.1")  # type: ignore[misc]
    for a_id in c.blockers:
        a = g.permanent(a_id)
        if a is not None:
            fire(g, "becomes_blocked", obj=a)
