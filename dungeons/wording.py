"""A room's effect steps in the words a designer reads: "Each opponent loses 2 life.", "Put a
+1/+1 counter on target creature.", and the words of each parameter's values (the editor's
choices). The engine's registry (`game/engine/ops.py`) says what exists; this module only says it
in English. An operation without a sentence of its own here (a new one) reads as its registry
`does` text with its parameters, so the editor never shows a blank.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.engine.ops import data_ops

# A target phrase's kind in words (`target: creature` reads "target creature").
TARGET_WORDS = {
    "creature": "target creature",
    "creature_you_control": "target creature you control",
    "attacking_creature": "target attacking creature",
    "non_angel_demon_devil_dragon_creature": (
        "target non-Angel, non-Demon, non-Devil, non-Dragon creature"
    ),
    "attacking_cleric_rogue_warrior_wizard": "target attacking Cleric, Rogue, Warrior, or Wizard",
    "permanent": "target permanent",
    "player": "target player",
    "opponent": "target opponent",
    "any": "any target",
    "creature_or_planeswalker_spell": "target creature or planeswalker spell",
    "ability_noncreature_source": "target ability from a noncreature source",
    "creature_card_in_your_graveyard": "target creature card in your graveyard",
    "creature_card_in_a_graveyard": "target creature card in a graveyard",
}
# The other values a target parameter takes.
TARGET_REFERENCES = {
    "#0": "the first target again",
    "#1": "the second target again",
    "self": "this permanent",
    "it": "what the previous step made",
}
REFERENCE_OBJECT = {"#0": "that first target", "#1": "that second target"}

WHO = {
    "you": ("You", False),
    "each_player": ("Each player", True),
    "each_opponent": ("Each opponent", True),
    "target": ("Target player", True),
}
DURATION = {
    "end_of_turn": "until end of turn",
    "until_next_turn": "until your next turn",
    "permanent": "",
}
UNTIL = {
    "end_of_turn": "until end of turn",
    "end_of_next_turn": "until the end of your next turn",
    "end_of_game": "for the rest of the game",
}
VALUE_WORDS: dict[str, dict[str, str]] = {
    "who": {
        "you": "you",
        "each_player": "each player",
        "each_opponent": "each opponent",
        "target": "the target player",
    },
    "duration": {**DURATION, "permanent": "for as long as it stays"},
    "until": UNTIL,
    "unless": {"discard_card": "discard a card", "sacrifice": "sacrifice a permanent"},
}


def value_words(param: str, value: str) -> str:
    """How the editor names one allowed value of a parameter."""
    if param == "target":
        return TARGET_WORDS.get(value) or TARGET_REFERENCES.get(value) or value.replace("_", " ")
    return VALUE_WORDS.get(param, {}).get(value, value.replace("_", " "))


def _n(amount: Any, one: str, many: str) -> str:
    if amount in (None, 1):
        return one
    return f"{amount} {many}"


def _obj(step: dict[str, Any]) -> str:
    target = step.get("target")
    if target is None or target == "":
        return "target creature"
    if isinstance(target, int):
        target = f"#{target}"
    if target in REFERENCE_OBJECT:
        return REFERENCE_OBJECT[target]
    if target == "it":
        return "it"
    return value_words("target", target)


def _who(step: dict[str, Any], singular: str, plural: str) -> str:
    subject, third = WHO.get(step.get("who") or "you", (str(step.get("who")), True))
    return f"{subject} {plural if third else singular}"


def _life(verb: str, verbs: str) -> Callable[[dict[str, Any]], str]:
    return lambda s: f"{_who(s, verb, verbs)} {s.get('amount', '?')} life"


def _cards(verb: str, verbs: str) -> Callable[[dict[str, Any]], str]:
    return lambda s: f"{_who(s, verb, verbs)} {_n(s.get('amount'), 'a card', 'cards')}"


def _modify(s: dict[str, Any]) -> str:
    parts = []
    if s.get("power") is not None or s.get("toughness") is not None:
        parts.append(f"gets {int(s.get('power') or 0):+d}/{int(s.get('toughness') or 0):+d}")
    if s.get("keywords"):
        parts.append("gains " + " and ".join(s["keywords"]))
    if s.get("set_base") or s.get("set_subtypes"):
        base = "/".join(str(v) for v in s.get("set_base") or [])
        kinds = " ".join(s.get("set_subtypes") or [])
        parts.append("becomes a " + " ".join(p for p in (base, kinds) if p))
    if s.get("cant_attack"):
        parts.append("can't attack")
    what = ", ".join(parts) or "is unchanged"
    when = DURATION.get(s.get("duration") or "end_of_turn", "")
    return f"{_obj(s)[0].upper()}{_obj(s)[1:]} {what}{' ' + when if when else ''}"


def _unless(s: dict[str, Any]) -> str:
    base = _life("lose", "loses")(s)
    if s.get("unless") == "sacrifice":
        kinds = [_article(k.lower()) for k in s.get("types") or ["Artifact", "Creature", "Land"]]
        listed = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + ", or " + kinds[-1]
        return f"{base} unless they sacrifice {listed}"
    return f"{base} unless they discard a card"


def _article(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def _token(s: dict[str, Any]) -> str:
    count = s.get("count")
    name = s.get("token") or "?"
    if count in (None, 1):
        return f"Create {name}" if name.startswith("The ") else f"Create a {name} token"
    return f"Create {count} {name} tokens"


SENTENCES: dict[str, Callable[[dict[str, Any]], str]] = {
    "lose_life": _life("lose", "loses"),
    "gain_life": _life("gain", "gains"),
    "draw": _cards("draw", "draws"),
    "discard": _cards("discard", "discards"),
    "lose_life_unless": _unless,
    "scry": lambda s: f"Scry {s.get('amount', '?')}",
    "damage": lambda s: f"Deal {s.get('amount', '?')} damage to {_obj(s)}",
    "destroy": lambda s: f"Destroy {_obj(s)}",
    "counter": lambda s: f"Counter {_obj(s)}",
    "goad": lambda s: f"Goad {_obj(s)}",
    "explore": lambda s: f"{_obj(s)[0].upper()}{_obj(s)[1:]} explores",
    "return_to_hand": lambda s: f"Return {_obj(s)} to its owner's hand",
    "add_counters": lambda s: (
        f"Put {'a' if s.get('amount') in (None, 1) else s.get('amount')} "
        f"{s.get('counter') or '+1/+1'} "
        f"counter{'s' if s.get('amount') not in (None, 1) else ''} on {_obj(s)}"
    ),
    "create_token": _token,
    "modify": _modify,
    "shuffle": lambda s: "Shuffle your library",
    "take_initiative": lambda s: "You take the initiative",
    "venture": lambda s: (
        "Venture into Undercity" if s.get("undercity") else "Venture into the dungeon"
    ),
}


def sentence(step: dict[str, Any]) -> str:
    """One step in words, ending with a full stop ("" for a step without an operation)."""
    name = step.get("op")
    if not name:
        return ""
    words = SENTENCES.get(name)
    if words is not None:
        return words(step) + "."
    entry = data_ops().get(name)
    does = entry.does if entry else name.replace("_", " ")
    given = [f"{k.replace('_', ' ')} {v}" for k, v in step.items() if k != "op"]
    return does[0].upper() + does[1:] + (f" ({', '.join(given)})" if given else "") + "."


def steps_sentence(steps: list[dict[str, Any]]) -> str:
    """A room's whole ability in words: its steps' sentences, in order."""
    return " ".join(sentence(s) for s in steps if s.get("op"))
