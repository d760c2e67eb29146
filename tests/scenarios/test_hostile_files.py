"""Hostile scenario files (anyone may upload one on the New game form): each is refused with a
ScenarioError naming its line, after reading only what it must and in little memory, never with
another exception. "Quickly" is held as work done (YAML events read, no node ever composed),
not as a time, so a loaded machine cannot fail it. Limits: docs/scenarios.md, "Limits"; the
constants live in game/scenario/loader.py."""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.scenario import loader
from game.scenario.loader import ScenarioError, load_scenario, parse_scenario
from tests.sizes import examples

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent

VALID = """\
name: A valid position
seed: 7
players: [alice, bob]
turn: {number: 3, active: alice, step: precombat_main}
setup:
  alice:
    life: 17
    hand: [Forest]
    library: [Plains, Forest]
    battlefield:
      - {card: "Varis, Silverymoon Ranger", counters: {"+1/+1": 1}, damage: 1, as: varis}
      - {token: Treasure, tapped: true}
    completed: [Tomb of Annihilation]
    dungeon: {name: Lost Mine of Phandelver, room: Cave Entrance}
    initiative: true
    lands_played: 1
  bob:
    hand: [Zombie Ogre]
script:
  - alice: pass
  - resolve
expect:
  bob: {life: 20}
"""


class Work:
    """Counts the YAML events read and fails if a refused file is ever composed into nodes."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.events = 0
        read = yaml.SafeLoader.get_event

        def counted(loader: yaml.SafeLoader) -> yaml.Event:
            self.events += 1
            return read(loader)

        def never(loader: yaml.SafeLoader) -> None:
            raise AssertionError("a refused file was composed")

        monkeypatch.setattr(yaml.SafeLoader, "get_event", counted)
        monkeypatch.setattr(yaml.SafeLoader, "get_single_node", never)


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> Work:
    return Work(monkeypatch)


def refusal(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "hostile.yaml")
    return caught.value


def alias_bomb(levels: int = 7, width: int = 10) -> str:
    """The attacker's 429-byte file: each level is a list of ten aliases to the level below."""
    lines = ["name: bomb", "notes:", "  a0: &a0 [" + ", ".join(["lol"] * width) + "]"]
    for i in range(1, levels + 1):
        lines.append(f"  a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def test_the_valid_file_is_valid():
    scenario = parse_scenario(VALID, "valid.yaml")
    assert scenario.position["setup"]["alice"]["life"] == 17


# the shape of the YAML ---------------------------------------------------------------------------
def test_an_alias_bomb_is_refused_at_once_in_little_memory(work):
    text = alias_bomb()
    assert len(text) < 1024  # and 10**8 strings once expanded
    tracemalloc.start()
    try:
        error = refusal(text)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert work.events < 120  # the file's own events (about 90), never an expansion
    assert peak < 20 * 1024 * 1024
    assert "aliases" in error.message and f"{loader.MAX_NODES:,} entries" in error.message
    assert error.line > 0


def test_aliases_count_their_full_size_to_the_entry():
    # Level 2 of the bomb is a list of 1,111 entries; the file around `many` has 1,243 entries.
    # Sixteen aliases to level 2 make 1,243 + 16 x 1,111 = 19,019: under the bound. Seventeen make
    # 20,130: refused, each alias counted as the 1,111 entries it stands for, not as one.
    base = alias_bomb(levels=2).replace("name: bomb", "name: many")
    under = base + "  many: [" + ", ".join(["*a2"] * 16) + "]\n"
    assert len(parse_scenario(under).position) == 2
    over = base + "  many: [" + ", ".join(["*a2"] * 17) + "]\n"
    assert "aliases" in refusal(over).message


def test_aliases_within_the_bounds_still_work():
    text = VALID.replace("hand: [Forest]", "hand: &cards [Forest, Plains]").replace(
        "hand: [Zombie Ogre]", "hand: *cards"
    )
    scenario = parse_scenario(text)
    assert scenario.position["setup"]["bob"]["hand"] == ["Forest", "Plains"]


@pytest.mark.parametrize(
    "text",
    [
        "name: r\nnotes: &a [x, *a]\n",
        "name: r\nnotes: &a {k: [1, {j: *a}]}\n",
    ],
)
def test_a_recursive_alias_is_refused(text):
    error = refusal(text)
    assert "recursive alias" in error.message and error.line == 2


@pytest.mark.parametrize("bracket", ["[", "{a: ", "- "])
def test_deep_nesting_is_refused(bracket, work):
    if bracket == "- ":
        text = "name: deep\nnotes:\n" + "".join(f"{' ' * (2 * i)}- \n" for i in range(10_000))
    else:
        text = "name: deep\nnotes: " + bracket * 10_000 + "\n"
    error = refusal(text)
    # refused on the way down (a level is at most two events: a key and its mapping), the rest
    # of the 10,000 levels never read
    assert work.events <= 2 * loader.MAX_DEPTH + 10
    assert f"nested deeper than {loader.MAX_DEPTH} levels" in error.message


def test_nesting_through_aliases_counts():
    deep = "[" * 30 + "]" * 30
    text = f"name: d\nnotes:\n  a: &a {deep}\n  b: {'[' * 20}*a{']' * 20}\n"
    assert f"deeper than {loader.MAX_DEPTH}" in refusal(text).message
    parse_scenario(f"name: d\nnotes:\n  a: &a {deep}\n  b: [[*a]]\n")


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("1" * 5000, "5,000 digits"),
        ("-" + "9" * 31, "31 digits"),
        ("!!int " + "1" * 5000, "5,000 digits"),
        ("1." + "5" * 40 + "e+3", "digits"),
        ("x" * (loader.MAX_SCALAR_CHARS + 1), "characters"),
        ('"' + "x" * (loader.MAX_SCALAR_CHARS + 1) + '"', "characters"),
        ("2024-13-45", "can't be read"),
    ],
)
def test_values_too_long_or_unreadable_are_refused(value, words):
    error = refusal(f"name: n\nseed: {value}\n")
    assert words in error.message and error.line == 2


def test_a_number_of_thirty_digits_and_a_long_description_are_fine():
    text = f"name: n\nseed: {'9' * loader.MAX_NUMBER_DIGITS}\ndescription: {'x' * 9_000}\n"
    assert parse_scenario(text).seed == int("9" * loader.MAX_NUMBER_DIGITS)


# the shape of each entry -------------------------------------------------------------------------
def setup_with(entry: str) -> str:
    return f"name: n\nsetup:\n  alice:\n    {entry}\n"


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ("hand: [[a]]", "unknown card name"),
        ("hand: [{a: 1}]", "unknown card name"),
        ("library: [7]", "unknown card name"),
        ("graveyard: Forest", "must be a list"),
        ("battlefield: 5", "must be a list"),
        ("battlefield: [{card: [x]}]", "unknown card name"),
        ("battlefield: [{card: {a: b}}]", "unknown card name"),
        ("battlefield: [{token: {}}]", "unknown token"),
        ("battlefield: [{token: [Treasure]}]", "unknown token"),
        ("battlefield: [[Forest]]", "a card name or a mapping"),
        ("battlefield: [{card: Forest, as: [x]}]", "as must be a name"),
        ("battlefield: [{card: Forest, as: {}}]", "as must be a name"),
        ("battlefield: [{card: Forest, attached_to: [x]}]", "attached_to must be a name"),
        ("battlefield: [{card: Forest, counters: [1]}]", "counters must map"),
        ("battlefield: [{card: Forest, counters: {a: [1]}}]", "counters must map"),
        ("battlefield: [{card: Forest, counters: {[a]: 1}}]", "a key must be a plain value"),
        ("battlefield: [{card: Forest, counters: {a: 1001}}]", "0 to 1,000"),
        ("battlefield: [{card: Forest, counters: {a: -1}}]", "0 to 1,000"),
        ("battlefield: [{card: Forest, damage: 1000001}]", "damage must be"),
        ("battlefield: [{card: Forest, damage: x}]", "damage must be"),
        ("battlefield: [{card: Forest, loyalty: [1]}]", "loyalty must be"),
        ("battlefield: [{card: Forest, loyalty: 1001}]", "loyalty must be"),
        ("battlefield: [{card: Forest, tapped: [x]}]", "tapped must be true or false"),
        ("battlefield: [{card: Forest, sick: 2024-01-01}]", "sick must be true or false"),
        ("dungeon: [x]", "dungeon must be"),
        ("dungeon: {name: [x]}", "dungeon must be"),
        ("dungeon: {name: Tomb of Annihilation, room: {}}", "dungeon must be"),
        ("completed: [[x]]", "completed must be a list of dungeon names"),
        ("completed: x", "completed must be a list of dungeon names"),
        ("initiative: [x]", "initiative must be true or false"),
        ("revealed: Forest", "revealed must be a list of card names"),
        ("revealed: [[Forest]]", "unknown card name"),
        ("revealed: [Not A Card]", "unknown card name"),
        ("revealed: [Forest]", "more times than setup.alice.hand holds it"),
        ("{hand: [Forest], revealed: [Forest, Forest]}", "more times than"),
        ("life: 1000001", "life must be a whole number"),
        ("life: -1000001", "life must be a whole number"),
        ("life: 2.5", "life must be a whole number"),
        ("lands_played: 101", "lands_played must be"),
        ("lands_played: [1]", "lands_played must be"),
        ("ventured_this_turn: 101", "ventured_this_turn must be"),
        ("ventured_this_turn: -1", "ventured_this_turn must be"),
        ("ventured_this_turn: true", "ventured_this_turn must be"),
        ("poison: 1001", "poison must be"),
        ("poison: -1", "poison must be"),
        ("poison: [1]", "poison must be"),
        ("mana_pool: [W]", "mana_pool must map"),
        ("mana_pool: {X: 1}", "mana_pool must map"),
        ("mana_pool: {WU: 1}", "mana_pool must map"),
        ("mana_pool: {w: 1}", "mana_pool must map"),
        ("mana_pool: {[W]: 1}", "a key must be a plain value"),
        ("mana_pool: {W: -1}", "mana_pool must map"),
        ("mana_pool: {W: 1001}", "mana_pool must map"),
        ("mana_pool: {W: [1]}", "mana_pool must map"),
        ("mana_pool: {W: true}", "mana_pool must map"),
    ],
)
def test_a_value_of_the_wrong_shape_is_refused(entry, words):
    error = refusal(setup_with(entry))
    assert words in error.message
    assert error.line >= 3


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("name: [x]", "'name' is required and must be text"),
        ("name: n\nseed: true", "'seed' must be a whole number"),
        ("name: n\nturn: {number: 0}", "turn.number"),
        ("name: n\nturn: {number: true}", "turn.number"),
        ("name: n\nturn: {number: 10001}", "turn.number"),
        ("name: n\nturn: {number: [3]}", "turn.number"),
        ("name: n\nturn: {creatures_died: -1}", "turn.creatures_died"),
        ("name: n\nturn: {creatures_died: 1001}", "turn.creatures_died"),
        ("name: n\nturn: {creatures_died: x}", "turn.creatures_died"),
        ("name: n\nturn: {died: 1}", "unknown turn key"),
        ("name: n\nturn: {step: [upkeep]}", "unknown step"),
        ("name: n\nturn: {active: [alice]}", "turn.active"),
        ("name: n\nturn: [3]", "'turn' must be a mapping"),
        ("name: n\nsetup: {[alice]: {}}", "a key must be a plain value"),
        ("name: n\nsetup: {alice: [x]}", "must be a mapping"),
        ("name: n\nscript: [{alice: {a: b}}]", "answer must be an option label or a list"),
        ("name: n\nscript: [{alice: [[x]]}]", "a list answer holds option labels"),
        ("name: n\nscript: [{advance: [upkeep]}]", "advance needs a step"),
        ("name: n\nscript: [{resolve: [all]}]", "resolve takes nothing"),
        ("name: n\nscript: [{concede: [alice]}]", "concede names a player"),
        ("name: n\nscript: [{illegal: [x]}]", "illegal takes one"),
        ("name: n\nscript: [[resolve]]", "unknown script step"),
        ("name: n\nscript: [{check: [x]}]", "expectations are a mapping"),
        ("name: n\nexpect: [x]", "expectations are a mapping"),
        ("name: n\nexpect: {alice: [x]}", "expectations are a mapping"),
    ],
)
def test_other_entries_of_the_wrong_shape_are_refused(text, words):
    assert words in refusal(text + "\n").message


def test_a_message_quotes_a_hostile_value_briefly():
    error = refusal(setup_with(f"hand: [[{', '.join(['x' * 50] * 100)}]]"))
    assert len(error.message) < 200


# the limits of a real game -----------------------------------------------------------------------
def zone_text(zone: str, count: int) -> str:
    if zone == "battlefield":
        return setup_with("battlefield: [" + ", ".join(["Forest"] * count) + "]")
    if zone == "completed":
        return setup_with("completed: [" + ", ".join(["Tomb of Annihilation"] * count) + "]")
    return setup_with(f"{zone}: [" + ", ".join(["Forest"] * count) + "]")


LIMITS = {
    **loader.MAX_ZONE_CARDS,
    "battlefield": loader.MAX_PERMANENTS,
    "completed": loader.MAX_COMPLETED,
}


@pytest.mark.parametrize(("zone", "most"), LIMITS.items())
def test_each_zone_holds_up_to_its_limit_and_no_more(zone, most):
    parse_scenario(zone_text(zone, most))
    error = refusal(zone_text(zone, most + 1))
    assert f"{most + 1:,}" in error.message and f"at most {most}" in error.message
    assert error.line == 4


@pytest.mark.parametrize(
    "text",
    [
        setup_with(f"lands_played: {loader.MAX_LANDS_PLAYED}"),
        setup_with(f"ventured_this_turn: {loader.MAX_VENTURES}"),
        setup_with(f"poison: {loader.MAX_POISON}"),
        setup_with(f"mana_pool: {{W: 0, C: {loader.MAX_POOL_MANA}}}"),
        f"name: n\nturn: {{creatures_died: {loader.MAX_CREATURES_DIED}}}\n",
    ],
)
def test_a_count_of_this_turn_is_read_up_to_its_limit(text):
    parse_scenario(text)


def test_ten_thousand_permanents_are_refused():
    error = refusal(zone_text("battlefield", 10_000))
    assert "10,000 permanents; at most 100" in error.message


def test_no_scenario_here_comes_near_the_limits():
    files = sorted(HERE.rglob("*.yaml")) + sorted((ROOT / "tests/web/positions").glob("*.yaml"))
    assert len(files) > 300
    for path in files:
        scenario = load_scenario(path)  # refuses anything past a limit
        for spec in scenario.position["setup"].values():
            for zone, most in LIMITS.items():
                assert len(spec.get(zone) or []) <= most // 2, (path, zone)
        assert len(path.read_bytes()) < loader.MAX_FILE_BYTES // 4, path


def test_the_doc_states_each_limit():
    doc = (ROOT / "docs/scenarios.md").read_text(encoding="utf-8")
    section = doc.split("## Limits", 1)[1].split("\n## ", 1)[0]
    numbers = {int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", section)}
    for name in (
        "MAX_DEPTH",
        "MAX_NODES",
        "MAX_SCALAR_CHARS",
        "MAX_NUMBER_DIGITS",
        "MAX_PERMANENTS",
        "MAX_COMPLETED",
        "MAX_LIFE",
        "MAX_COUNTERS",
        "MAX_DAMAGE",
        "MAX_LOYALTY",
        "MAX_TURN",
        "MAX_LANDS_PLAYED",
        "MAX_VENTURES",
        "MAX_CREATURES_DIED",
        "MAX_POOL_MANA",
        "MAX_POISON",
    ):
        assert getattr(loader, name) in numbers, name
    for zone, most in loader.MAX_ZONE_CARDS.items():
        assert re.search(rf"{zone}\D*{most}", section), zone
    assert f"{loader.MAX_FILE_BYTES // 1024} KiB" in section
    assert "200 characters" in section  # the name, refused on upload (game/services.py)
    from game.bodylimit import MAX_BODY_BYTES

    assert f"{MAX_BODY_BYTES // 1024} KiB" in section


# anything at all ---------------------------------------------------------------------------------
SLOTS = {
    "name": "A valid position",
    "seed": "7",
    "players": "[alice, bob]",
    "number": "3",
    "active": "alice",
    "step": "precombat_main",
    "life": "17",
    "hand": "[Forest]",
    "card": "Forest",
    "library": "[Plains]",
    "battlefield_entry": '{card: "Varis, Silverymoon Ranger", as: varis}',
    "bf_card": '"Varis, Silverymoon Ranger"',
    "counters": '{"+1/+1": 1}',
    "damage": "1",
    "as": "varis",
    "attached_to": "varis",
    "loyalty": "3",
    "tapped": "true",
    "token": "Treasure",
    "dungeon": "{name: Lost Mine of Phandelver, room: Cave Entrance}",
    "completed": "[Tomb of Annihilation]",
    "initiative": "true",
    "lands_played": "1",
    "mana_pool": "{W: 1, C: 2}",
    "poison": "3",
    "ventured_this_turn": "1",
    "creatures_died": "2",
    "answer": "pass",
    "step_entry": "resolve",
    "expect": "{bob: {life: 20}}",
}
TEMPLATE = """\
name: @name@
seed: @seed@
players: @players@
turn: {number: @number@, active: @active@, step: @step@, creatures_died: @creatures_died@}
setup:
  alice:
    life: @life@
    hand: @hand@
    library: @library@
    graveyard: [@card@]
    battlefield:
      - @battlefield_entry@
      - {card: @bf_card@, counters: @counters@, damage: @damage@, as: @as@, loyalty: @loyalty@}
      - {token: @token@, tapped: @tapped@, attached_to: @attached_to@}
    dungeon: @dungeon@
    completed: @completed@
    initiative: @initiative@
    lands_played: @lands_played@
    mana_pool: @mana_pool@
    poison: @poison@
    ventured_this_turn: @ventured_this_turn@
script:
  - alice: @answer@
  - @step_entry@
expect: @expect@
"""


def fill(values: dict[str, str]) -> str:
    text = TEMPLATE
    for slot, default in SLOTS.items():
        text = text.replace(f"@{slot}@", values.get(slot, default))
    return text


def test_the_template_is_valid():
    parse_scenario(fill({}))


_scalars = st.one_of(
    st.sampled_from(
        [
            "null",
            "~",
            "true",
            "no",
            "2024-13-45",
            "2024-01-01",
            "1e999",
            ".nan",
            "-.inf",
            "0x" + "f" * 40,
            "!!binary aGk=",
            "!!str 3",
            "!!float x",
            "!!set {a: 1}",
            "*nope",
            "&a [x, *a]",
            "!!python/object:os.system {}",
            '"\\x00"',
            "''",
            "Forest",
            "alice",
        ]
    ),
    st.integers(-(10**40), 10**40).map(str),
    st.integers(1, 6_000).map(lambda n: "7" * n),
    st.integers(9_000, 12_000).map(lambda n: "y" * n),
    st.text(max_size=30).map(lambda s: '"' + s.encode("unicode_escape").decode() + '"'),
)
_hostile = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.lists(st.tuples(_scalars, inner), max_size=3).map(
            lambda kvs: "{" + ", ".join(f"{k}: {v}" for k, v in kvs) + "}"
        ),
    ),
    max_leaves=12,
)
HOSTILE_FILES = st.dictionaries(st.sampled_from(sorted(SLOTS)), _hostile, min_size=1, max_size=3)


@settings(max_examples=examples(250), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=HOSTILE_FILES)
def test_a_hostile_value_in_any_slot_is_a_scenario_error_or_valid(values):
    text = fill(values)
    try:
        parse_scenario(text, "fuzz.yaml")
    except ScenarioError as e:
        assert e.message and len(e.message) < 1_000
