"""What a player expects of the computer's move in a set position: each function takes the game at
the decision and the options chosen, and says why the move is wrong (None when it is right).
The cases that use them are in position_cases.py."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from game.engine.continuous import chars
from game.engine.game import Engine


def _controllers(game: Engine, ids: list[str]) -> list[str]:
    d = game.pending
    assert d is not None
    return [game.state.find(obj).controller for i in ids for obj in d.option(i).objs]


def _first_target_is_own(game: Engine, ids: list[str]) -> str | None:
    whose = _controllers(game, ids[:1])
    return None if whose == ["bob"] else f"the pump went on {whose}'s creature"


def _target_is_opponents(game: Engine, ids: list[str]) -> str | None:
    whose = _controllers(game, ids)
    return None if whose == ["alice"] else f"the removal went on {whose}'s creature"


def _on_the_crawler(game: Engine, ids: list[str]) -> str | None:
    got = _labels(game, ids)
    return None if got == ["Dungeon Crawler"] else f"the counters went on {got}"


def _no_target(game: Engine, ids: list[str]) -> str | None:
    return None if ids == [] else f"it targeted {_labels(game, ids)}"


def _labels(game: Engine, ids: list[str]) -> list[str]:
    d = game.pending
    assert d is not None
    return sorted(d.option(i).label for i in ids)


def _attacks_with(*names: str) -> Callable[[Engine, list[str]], str | None]:
    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        return None if got == sorted(names) else f"attacked with {got}"

    return wrong


def _blocks(*wanted: str, never: tuple[str, ...] = ()) -> Callable[[Engine, list[str]], str | None]:
    """The blocks include every `wanted` one and none naming a blocker in `never`."""

    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        missing = Counter(wanted) - Counter(got)
        bad = [g for g in got if g.split(" blocks ")[0] in never]
        return f"blocked {got}" if missing or bad else None

    return wrong


def _never_attacks_with(name: str) -> Callable[[Engine, list[str]], str | None]:
    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        return f"attacked with {got}" if name in got else None

    return wrong


def _keeps_one_home(game: Engine, ids: list[str]) -> str | None:
    """At least one creature stays home (both staying to block together is a fair choice)."""
    got = _labels(game, ids)
    return f"attacked with {got}, leaving nothing home" if len(got) > 1 else None


def _passes(game: Engine, ids: list[str]) -> str | None:
    return None if ids == ["pass"] else f"played {_labels(game, ids)}"


def _casts(name: str) -> Callable[[Engine, list[str]], str | None]:
    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        return None if got == [f"cast {name}"] else f"answered {got}"

    return wrong


def _only(name: str, did: str) -> Callable[[Engine, list[str]], str | None]:
    """The answer is the one option labelled `name`; otherwise "`did` [what it chose]"."""

    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        return None if got == [name] else f"{did} {got}"

    return wrong


def _land(name: str) -> Callable[[Engine, list[str]], str | None]:
    """The land played is a `name` (whichever of the hand's copies)."""

    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        played = len(got) == 1 and got[0].split(" #")[0] == f"play {name}"
        return None if played else f"it chose {got}"

    return wrong


def _first_target(name: str) -> Callable[[Engine, list[str]], str | None]:
    return _only(name, "targeted")


def _activates(prefix: str) -> Callable[[Engine, list[str]], str | None]:
    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        return None if len(got) == 1 and got[0].startswith(prefix) else f"answered {got}"

    return wrong


def _none_of_its_own(game: Engine, ids: list[str]) -> str | None:
    whose = _controllers(game, ids)
    return f"it made its own creature a 1/1 Bird ({whose})" if "bob" in whose else None


def _refs(game: Engine, ids: list[str]) -> list[object]:
    d = game.pending
    assert d is not None
    return [d.option(i).data for i in ids]


def _not_activated(card: str) -> Callable[[Engine, list[str]], str | None]:
    def wrong(game: Engine, ids: list[str]) -> str | None:
        used = [label for label in _labels(game, ids) if label.startswith("activate " + card)]
        return f"it chose {used[0]!r}" if used else None

    return wrong


def _cast(card: str) -> Callable[[Engine, list[str]], str | None]:
    def wrong(game: Engine, ids: list[str]) -> str | None:
        labels = _labels(game, ids)
        cast = labels[0].startswith("cast") and card in labels[0]
        return None if cast else f"it chose {labels}"

    return wrong


def _not_both(*pair: str) -> Callable[[Engine, list[str]], str | None]:
    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        return f"chose {got}" if all(p in got for p in pair) else None

    return wrong


def _chooses(label: str) -> Callable[[Engine, list[str]], str | None]:
    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        return None if got == [label] else f"chose {got}"

    return wrong


def _one_of(*labels: str) -> Callable[[Engine, list[str]], str | None]:
    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        return None if len(got) == 1 and got[0] in labels else f"chose {got}"

    return wrong


def _never(label: str) -> Callable[[Engine, list[str]], str | None]:
    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        return f"chose {got}" if label in got else None

    return wrong


def _returns_a_creature_card(game: Engine, ids: list[str]) -> str | None:
    return None if ids else "it chose no creature card to return"


def _damage_kills_or_is_lethal(game: Engine, ids: list[str]) -> str | None:
    """Divided damage of 3: every creature chosen can die of it, together, and none is the
    caster's own; a player chosen is the opponent."""
    g = game.state
    creatures, left = [], 0
    for kind, what in _refs(game, ids):  # type: ignore[misc]
        if kind == "player":
            if what != "alice":
                return f"it aimed the damage at {what}"
            continue
        obj = g.permanent(what)
        if obj.controller != "alice":
            return f"it aimed the damage at its own {obj.name}"
        creatures.append(obj.name)
        left += chars(g, obj).toughness - obj.damage
    if not creatures:
        return "it sent all 3 damage at a player that survives it"
    return None if left <= 3 else f"3 damage can't kill all of {creatures}"


def _only_the_face(game: Engine, ids: list[str]) -> str | None:
    refs = _refs(game, ids)
    return None if refs == [("player", "alice")] else f"it chose {_labels(game, ids)}"


def _keeps(game: Engine, ids: list[str]) -> str | None:
    return None if ids == ["keep"] else "took a mulligan"


def _mulligans(game: Engine, ids: list[str]) -> str | None:
    return None if ids == ["mulligan"] else "kept the hand"


def _bottoms_purple_worm(game: Engine, ids: list[str]) -> str | None:
    names = [game.state.find(obj).name for i in ids for obj in game.pending.option(i).objs]
    return None if names == ["Purple Worm"] else f"put {names} on the bottom"


def _room(name: str) -> Callable[[Engine, list[str]], str | None]:
    return _only(name, "it ventured into")


def _loses_the_life(game: Engine, ids: list[str]) -> str | None:
    return None if ids == ["dont"] else f"it paid: {_labels(game, ids)}"


def _at_least(n: int) -> Callable[[Engine, list[str]], str | None]:
    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        return None if len(got) >= n else f"attacked with {got}"

    return wrong


def _pays(game: Engine, ids: list[str]) -> str | None:
    return None if ids == ["pay"] else f"it lost the life: {_labels(game, ids)}"


def _not_cast(name: str) -> Callable[[Engine, list[str]], str | None]:
    def wrong(game: Engine, ids: list[str]) -> str | None:
        got = _labels(game, ids)
        return f"answered {got}" if f"cast {name}" in got else None

    return wrong


def _sacrifices(name: str) -> Callable[[Engine, list[str]], str | None]:
    return _only(name, "it sacrificed")


def _alice_alone(game: Engine, ids: list[str]) -> str | None:
    d = game.pending
    assert d is not None
    labels = [d.option(i).label for i in ids]
    return None if labels == ["alice"] else f"Magic Missile went at {labels}, not all at alice"


def _solar_on_the_flyer_worm_on_the_ground(game: Engine, ids: list[str]) -> str | None:
    d = game.pending
    assert d is not None
    labels = sorted(d.option(i).label for i in ids)
    want = [
        "Purple Worm blocks White Plume Adventurer",
        "Radiant Solar blocks Eccentric Apprentice",
    ]
    return None if labels == want else f"blocked {labels}"
