"""A division of combat damage (the attacking player's `assign_combat_damage` decision, CR
510.1c) as one amount per recipient, for the prompt's form of numbers: the engine lists every
legal division as an option whose id holds the amounts in recipient order ("cd:1,4") and whose
data is that tuple; the page sends the option whose amounts the player typed, so only a legal
division can be sent. Without JavaScript the options stay a list of buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.engine.kinds import KINDS

from .viewmodel import Division, Recipient

if TYPE_CHECKING:
    from game.engine.decisions import Decision

    from .whose import Owned


def division(d: Decision, owners: dict[str, Owned], names: dict[str, str]) -> Division | None:
    """The decision as amounts per recipient, or None (another kind, or options that do not
    read as divisions: the list alone is shown)."""
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
            recipients.append(Recipient(owned.display[len(prefix) :], owned.marks, usual[i]))
            continue
        some = next((o for o, s in zip(d.options, shares, strict=True) if s[i] > 0), None)
        if some is None:
            return None
        player = some.label.rsplit(" to ", 1)[-1]
        recipients.append(Recipient(names.get(player, player), f"p{player}", usual[i]))
    return Division(
        total=total,
        recipients=tuple(recipients),
        usual_id=d.options[0].id,
        legal_ids=" ".join(o.id for o in d.options),
    )
