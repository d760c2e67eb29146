"""Combat damage (CR 510): the attacking player divides a blocked creature's damage, then all
combat damage of the step is dealt at once.

CR 510.1c: a creature blocked by two or more creatures assigns its combat damage divided as its
controller chooses among them (no damage assignment order, since the Foundations rules update);
one blocked by exactly one assigns it all to that blocker; one whose blockers are all gone
assigns none, unless it has trample (CR 702.19e). With trample (CR 702.19b) damage beyond lethal
to every blocker may go to the player or planeswalker it attacks; lethal counts damage already
marked, and with deathtouch any nonzero amount is lethal (CR 702.2c). The attacking player is
asked only when there are two or more legal divisions; the usual one (lethal damage to each
blocker in the order they were declared, the rest to the last one or, with trample, to the
player) is always the first option.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from .choices import Gen
from .continuous import chars, is_creature
from .decisions import Decision, Option
from .effects import deal_damage
from .initiative import combat_damage_to_holder
from .kinds import ASSIGN_COMBAT_DAMAGE, ASSIGN_COMBAT_DAMAGE_PART
from .state import Combat, GameState, Obj
from .targets import numbered_name
from .triggers import fire

# Past this many divisions one decision would be a wall of buttons (and a list this size for a
# 20-power trampler blocked by three creatures is 1,771 long): the division is asked recipient by
# recipient instead (docs/scenarios.md, "Option labels").
MAX_DIVISIONS = 60

Recipient = tuple[str, object]  # ("obj", id) or ("player", name), as effects.deal_damage takes


def has_first_strike_step(g: GameState) -> bool:
    c = g.combat
    if c is None:
        return False
    ids = set(c.attackers) | set(c.blocking)
    return any(
        {"first strike", "double strike"} & chars(g, o).keywords
        for o in g.battlefield
        if o.id in ids
    )


def _defender_ref(defender: str | int) -> Recipient:
    """What an unblocked attacker deals damage to: a player or the planeswalker it attacks."""
    return ("obj", defender) if isinstance(defender, int) else ("player", defender)


@dataclass(frozen=True, slots=True)
class Incoming:
    """One attacker's combat damage at the player it attacks, as the table shows it before the
    damage: public information, which a trick still to come can change."""

    attacker: int
    power: int  # each strike's
    strikes: int  # 2 with double strike (CR 702.4b)
    trample: bool
    # With trample: the lethal damage each of the defending player's creatures would need from
    # it as a blocker (deathtouch makes it 1, CR 702.2c), for a page that follows blocks chosen.
    needs: tuple[tuple[int, int], ...]
    blocked_by: tuple[int, ...] | None  # its blockers once declared; None while unblocked

    @property
    def dealt(self) -> int:
        need = dict(self.needs)
        blockers = None if self.blocked_by is None else [need.get(b, 0) for b in self.blocked_by]
        return past_blockers(self.power, self.strikes, self.trample, blockers)


def past_blockers(power: int, strikes: int, trample: bool, needs: list[int] | None) -> int:
    """What an attacker deals the player it attacks: every strike's power while unblocked
    (`needs` None); once blocked, none, unless it has trample (CR 702.19b): what each strike
    has left after lethal damage to its blockers, a later strike needing only what the earlier
    one left (and all of it once they are gone, CR 702.19e). `static/js/combat.js` (the blocks
    prompt's line) does the same sum."""
    if needs is None:
        return power * strikes
    if not trample:
        return 0
    left = sum(needs)
    dealt = 0
    for _ in range(strikes):
        dealt += max(0, power - left)
        left = max(0, left - power)
    return dealt


def between_strikes(g: GameState) -> bool:
    """Whether the first-strike combat damage is dealt and the regular damage still to come
    (the priority round of the first combat damage step, CR 510.4)."""
    c = g.combat
    return (
        c is not None
        and g.step == "combat_damage"
        and bool(c.dealt_first_strike)
        and not c.regular_dealt
    )


def damage_coming(g: GameState, player: str) -> list[Incoming]:
    """Each attacker at `player` with what it still deals: before blocks every attacker
    unblocked; after them the blocks declared; after the first-strike damage, the strikes left."""
    c = g.combat
    if c is None:
        return []
    mine = [o for o in g.battlefield if o.controller == player and is_creature(g, o)]
    coming = []
    for o in g.battlefield:
        if c.attackers.get(o.id) != player:
            continue
        ch = chars(g, o)
        trample = "trample" in ch.keywords
        needs = tuple((b.id, lethal_damage(g, o, b)) for b in mine) if trample else ()
        blocked = tuple(c.blockers[o.id]) if o.id in c.blockers else None
        strikes = 2 if "double strike" in ch.keywords else 1
        if o.id in c.dealt_first_strike:
            strikes -= 1  # its first-strike damage is dealt (CR 510.4)
        coming.append(Incoming(o.id, max(0, ch.power), strikes, trample, needs, blocked))
    return coming


def lethal_damage(g: GameState, attacker: Obj, blocker: Obj) -> int:
    """Lethal damage for damage assignment (CR 702.19b, 702.2c): what the blocker still needs
    after the damage already marked on it; with deathtouch, 1."""
    if "deathtouch" in chars(g, attacker).keywords:
        return 1
    return max(0, chars(g, blocker).toughness - blocker.damage)


def usual_division(power: int, lethal: list[int], trample: bool) -> tuple[int, ...]:
    """Lethal damage to each blocker in declaration order, the rest to the last blocker or, with
    trample, to the player (the last entry when `trample`)."""
    out = []
    remaining = power
    for need in lethal:
        give = min(remaining, need)
        out.append(give)
        remaining -= give
    if trample:
        out.append(remaining)
    else:
        out[-1] += remaining
    return tuple(out)


def divisions(power: int, lethal: list[int], trample: bool) -> Iterator[tuple[int, ...]]:
    """Every legal division of `power` among the blockers (and, with trample, the player last),
    in descending order of the amounts: each blocker any amount, the player some only when every
    blocker has lethal damage (CR 510.1c, 702.19b)."""
    k = len(lethal)

    def split(total: int, parts: int) -> Iterator[tuple[int, ...]]:
        if parts == 1:
            yield (total,)
            return
        for first in range(total, -1, -1):
            for rest in split(total - first, parts - 1):
                yield (first, *rest)

    if not trample:
        yield from split(power, k)
        return
    for share in split(power, k + 1):
        if share[-1] == 0 or all(a >= need for a, need in zip(share, lethal, strict=False)):
            yield share


def _count_up_to(found: Iterator[tuple[int, ...]], most: int) -> int:
    n = 0
    for _ in found:
        n += 1
        if n > most:
            break
    return n


def _recipient_names(g: GameState, refs: list[Recipient]) -> list[str]:
    """Names for labels; two recipients with one name get ` #N` in order (two Goblin tokens)."""
    names = []
    for kind, value in refs:
        if kind == "player":
            names.append(str(value))
        else:
            o = g.permanent(value)  # type: ignore[arg-type]
            names.append(o.name if o else "?")
    counts = Counter(names)
    seen: Counter[str] = Counter()
    out = []
    for n in names:
        if counts[n] > 1:
            seen[n] += 1
            n = f"{n} #{seen[n]}"
        out.append(n)
    return out


def _label(share: tuple[int, ...], names: list[str], refs: list[Recipient]) -> Option:
    parts = [(amount, name, ref) for amount, name, ref in zip(share, names, refs, strict=True)]
    given = [(a, n, r) for a, n, r in parts if a > 0]
    label = ", ".join(f"{a} to {n}" for a, n, _ in given)
    objs = tuple(r[1] for _, _, r in given if r[0] == "obj")
    return Option("cd:" + ",".join(map(str, share)), label, objs, share)  # type: ignore[arg-type]


def choose_division(g: GameState, attacker: Obj, blockers: list[Obj], defender: str | int) -> Gen:
    """Ask the attacking player how `attacker` divides its damage; returns (recipient, amount)
    pairs. Not asked when only one division is legal."""
    ac = chars(g, attacker)
    power = max(0, ac.power)
    trample = "trample" in ac.keywords
    lethal = [lethal_damage(g, attacker, b) for b in blockers]
    refs: list[Recipient] = [("obj", b.id) for b in blockers]
    if trample:
        refs.append(_defender_ref(defender))
    usual = usual_division(power, lethal, trample)
    count = _count_up_to(divisions(power, lethal, trample), MAX_DIVISIONS)
    if count <= 1:
        return list(zip(refs, usual, strict=True))
    names = _recipient_names(g, refs)
    prompt = f"{attacker.name}: divide {power} combat damage among its blockers"
    if trample:
        prompt += f" (trample: once each has lethal damage, the rest may go to {names[-1]})"
    if count <= MAX_DIVISIONS:
        shares = [usual] + [s for s in divisions(power, lethal, trample) if s != usual]
        options = [_label(s, names, refs) for s in shares]
        # The attacker and what kills each blocker are public; a computer dividing the damage
        # reads the attacker (game/ai), the page says who dies (board/division.py).
        answer = yield Decision(
            attacker.controller,
            ASSIGN_COMBAT_DAMAGE,
            prompt,
            options,
            constraints={"attacker": attacker.id, "lethal": _kills(g, blockers, lethal)},
        )
        share = next(o.data for o in options if o.id == answer)
        return list(zip(refs, share, strict=True))  # type: ignore[arg-type]
    share = yield from _divide_by_parts(g, attacker, power, lethal, trample, refs, names, usual)
    return list(zip(refs, share, strict=True))


def _kills(g: GameState, blockers: list[Obj], lethal: list[int]) -> list[int | None]:
    """The damage that kills each blocker, or None for one damage can't kill: indestructible
    (CR 702.12b), or its damage from creatures prevented (protection from creatures)."""
    return [
        None if {"indestructible", "protection from creatures"} & chars(g, b).keywords else need
        for b, need in zip(blockers, lethal, strict=True)
    ]


def _divide_by_parts(
    g: GameState,
    attacker: Obj,
    power: int,
    lethal: list[int],
    trample: bool,
    refs: list[Recipient],
    names: list[str],
    usual: tuple[int, ...],
) -> Gen:
    """A division too large to list whole: one amount per recipient in order, the last taking
    what remains; each decision offers only amounts a legal division can continue from."""
    shares: list[int] = []
    remaining = power
    short = False  # a blocker got less than lethal: with trample the player can get nothing
    last = len(refs) - 1
    for i in range(last):
        if trample and i == last - 1 and (short or remaining < lethal[i]):
            amounts = [remaining]  # everything left must stay on the blockers
        elif trample and i == last - 1:
            amounts = [remaining, *range(remaining - 1, lethal[i] - 1, -1)]
        else:
            amounts = list(range(remaining, -1, -1))
        first = min(usual[i], remaining)
        if first in amounts:
            amounts.remove(first)
            amounts.insert(0, first)
        if len(amounts) == 1:
            amount = amounts[0]
        else:
            options = [
                Option(f"cd{i}:{a}", f"{a} to {names[i]}", _objs(refs[i]), a) for a in amounts
            ]
            answer = yield Decision(
                attacker.controller,
                ASSIGN_COMBAT_DAMAGE_PART,
                f"{attacker.name}: {remaining} combat damage left to divide",
                options,
            )
            amount = next(o.data for o in options if o.id == answer)  # type: ignore[assignment]
        shares.append(amount)  # type: ignore[arg-type]
        short = short or amount < lethal[i]
        remaining -= amount  # type: ignore[operator]
    shares.append(remaining)
    return tuple(shares)


def _objs(ref: Recipient) -> tuple[int, ...]:
    return (ref[1],) if ref[0] == "obj" else ()  # type: ignore[return-value]


def combat_damage(g: GameState, first_strike: bool | None) -> Gen:
    """Assign and deal combat damage simultaneously (CR 510.1-510.2).

    `first_strike` True: the first-strike damage step; False: the regular step after one;
    None: the only combat damage step. Every division is chosen before any damage is dealt.
    """
    c = g.combat
    assert c is not None

    def deals(o: Obj) -> bool:
        kw = chars(g, o).keywords
        if first_strike is None:
            return True
        if first_strike:
            return bool({"first strike", "double strike"} & kw)
        return "double strike" in kw or o.id not in c.dealt_first_strike

    events: list[tuple[Obj, Recipient, int]] = []
    for a_id, defender in list(c.attackers.items()):
        a = g.permanent(a_id)
        if a is None or not deals(a):
            continue
        power = max(0, chars(g, a).power)
        if power == 0:
            continue
        if a_id not in c.blockers:
            events.append((a, _defender_ref(defender), power))
            continue
        blockers = [b for b in (g.permanent(x) for x in c.blockers[a_id]) if b is not None]
        if not blockers:
            if "trample" in chars(g, a).keywords:  # CR 702.19e
                events.append((a, _defender_ref(defender), power))
            continue  # CR 510.1c: blocked, with no blockers left, it assigns no damage
        assigned = yield from choose_division(g, a, blockers, defender)
        events += [(a, ref, amount) for ref, amount in assigned if amount > 0]
        _log_division(g, a, assigned)
    for b_id, a_id in list(c.blocking.items()):
        b = g.permanent(b_id)
        if b is None or not deals(b) or g.permanent(a_id) is None:
            continue
        power = max(0, chars(g, b).power)
        if power:
            events.append((b, ("obj", a_id), power))
    _mark_first_strikers(g, c, first_strike)
    c.regular_dealt = not first_strike
    _deal(g, events)


def _log_division(g: GameState, attacker: Obj, assigned: list[tuple[Recipient, int]]) -> None:
    if len(assigned) < 2:
        return
    names = _recipient_names(g, [ref for ref, _ in assigned])
    parts = ", ".join(f"{n} to {name}" for (_, n), name in zip(assigned, names, strict=True) if n)
    g.note(f"{attacker.controller} assigns {attacker.name}'s combat damage: {parts}", "CR 510.1c")


def _mark_first_strikers(g: GameState, c: Combat, first_strike: bool | None) -> None:
    if not first_strike:
        return
    for o in g.battlefield:
        in_combat = o.id in c.attackers or o.id in c.blocking
        if in_combat and {"first strike", "double strike"} & chars(g, o).keywords:
            c.dealt_first_strike.add(o.id)


def _deal(g: GameState, events: list[tuple[Obj, Recipient, int]]) -> None:
    hit_players: dict[str, set[str]] = {}
    for source, ref, amount in events:
        kw = chars(g, source).keywords
        deal_damage(
            g,
            numbered_name(g, source),
            source,
            ref,  # type: ignore[arg-type]
            amount,
            combat=True,
            deathtouch="deathtouch" in kw,
            lifelink_to=source.controller if "lifelink" in kw else None,
        )
        if ref[0] == "player":
            hit_players.setdefault(source.controller, set()).add(ref[1])  # type: ignore[arg-type]
            fire(g, "combat_damage_player", source=source, player=ref[1], amount=amount)
    combat_damage_to_holder(g, hit_players)
