"""A division of combat damage (the attacking player's `assign_combat_damage` decision, CR
510.1c) as one amount per recipient, for the prompt's form of numbers: the engine lists every
legal division as an option whose id holds the amounts in recipient order ("cd:1,4") and whose
data is that tuple; the page sends the option whose amounts the player typed, so only a legal
division can be sent. Without JavaScript the options stay a list of buttons.

The amounts are filled in with the first listed division that kills the most blockers: the
usual one (lethal damage in declaration order) unless a blocker it cannot kill would soak up
the damage another could die of (a 4/4 attacker blocked by a 6/6 and then a 1/1 puts 1 on the
1/1, not all 4 on the 6/6: a playtest). Each blocker carries its lethal damage so the page
can say who dies as the amounts change."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from game.engine.kinds import KINDS

from .viewmodel import Division, Recipient

if TYPE_CHECKING:
    from game.engine.decisions import Decision

    from .whose import Owned


def division(
    d: Decision,
    owners: dict[str, Owned],
    names: dict[str, str],
    lethal: Sequence[int | None] = (),
) -> Division | None:
    """The decision as amounts per recipient, or None (another kind, or options that do not
    read as divisions: the list alone is shown). `lethal`: the damage that kills each blocker,
    in the order of the amounts, None for one damage can't kill (the decision's constraints)."""
    if KINDS[d.kind].layout != "division" or not d.options:
        return None
    shares: list[tuple[int, ...]] = []
    for o in d.options:
        share = o.data
        if not isinstance(share, tuple) or o.id != "cd:" + ",".join(map(str, share)):
            return None
        shares.append(share)
    usual = shares[0]
    total = sum(usual)
    if len(lethal) > len(usual):
        return None
    pick = max(range(len(shares)), key=lambda i: (_killed(shares[i], lethal), -i))
    filled = shares[pick]
    recipients = []
    for i in range(len(usual)):
        # A blocker can be given all the damage (any division is legal, CR 510.1c): that
        # option's words name it alone. The player a trampler attacks never can (lethal damage
        # to the blockers first, 702.19b): its name ends the words of an option that gives it
        # some.
        whole = next((o for o, s in zip(d.options, shares, strict=True) if s[i] == total), None)
        owned = owners.get(whole.id) if whole is not None else None
        prefix = f"{total} to "
        if owned is not None and owned.display.startswith(prefix):
            name = owned.display[len(prefix) :]
            recipients.append(Recipient(name, owned.marks, filled[i], _at(lethal, i)))
            continue
        some = next((o for o, s in zip(d.options, shares, strict=True) if s[i] > 0), None)
        if some is None:
            return None
        player = some.label.rsplit(" to ", 1)[-1]
        recipients.append(Recipient(names.get(player, player), f"p{player}", filled[i], None))
    return Division(
        total=total,
        recipients=tuple(recipients),
        filled_id=d.options[pick].id,
        legal_ids=" ".join(o.id for o in d.options),
    )


def _killed(share: tuple[int, ...], lethal: Sequence[int | None]) -> int:
    """How many blockers the division kills (static/js/combat.js's `deaths` says which)."""
    return sum(
        1
        for amount, need in zip(share, lethal, strict=False)
        if need is not None and 0 < amount >= need
    )


def _at(lethal: Sequence[int | None], i: int) -> int | None:
    return lethal[i] if i < len(lethal) else None
