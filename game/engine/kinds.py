"""The registry of decision kinds: every kind of `Decision` the engine may ask, declared once.

A decision's `kind` names what is asked ("priority", "choose_room", …). Everyone who answers or
shows a decision reads the kind, so each is declared here with everything they need:

    SCRY = kind(
        "scry",
        asks="which of the top cards to put on the bottom of the library (CR 701.22)",
        shape=SOME,
        layout="placement",
        answer="the cards to put on the bottom, …",
        computer="on_scry",
        waiting="is scrying",
    )

- `asks`: what the engine asks, in a sentence;
- `shape`: the answer's form (`ONE` option, `SOME` of them, `ONE_OR_SOME` by the decision's
  counts, or every one in `ORDER`), which the `Decision`'s `multi` and `ordered` follow and which
  says how a scenario file writes the answer (`ANSWER_FORMS`);
- `layout`: the part of the viewer's prompt panel that shows it (`LAYOUTS`: a branch of the
  `prompt_panel` macro in templates/jinja2/game/_macros.html, with the form fields it sends);
  a decision that lets several options be chosen shows as checkboxes, unless its kind names
  the one other layout made for such an answer (`placement`: a scry's cards placed on top or
  at the bottom in one prompt, which answers the order asked after it too);
- `answer`: the option labels a scenario file writes (docs/scenarios.md, "Option labels", is
  generated from it by `kinds_doc.py`);
- `computer`: the computer's rule for it, a method of `game.ai.policy.Policy` (its own
  `on_<kind>`, or a shared rule such as `choose_least_valuable`);
- `waiting`: what the other seat is told while the decision is pending ("Bob is scrying");
- `public`: whether the other seat sees the options too (only when the rules make them public);
- `forced_public`: whether the other seat can tell the options from public information alone
  (targets, permanents, combat, the amounts a division shares), so that whether only one answer
  is possible is public too: such a decision with one possible answer is answered for its
  player (engine/forced.py). A choice among cards in a hand or a library never is: that it has
  one answer would tell what the hand or the library holds.

Engine code names kinds by these constants (`Decision(player, SCRY, …)`); the constant is the
plain string, so building a decision costs nothing more. tests/engine/test_kinds.py fails on a
decision of an unregistered kind or of another shape, tests/web/test_decision_layouts.py on a
layout the panel lacks or whose fields differ, tests/ai/test_decisions.py on a kind without its
computer rule, and tests/engine/test_kinds.py again while docs/scenarios.md differs from the
registry. docs/how-to-add.md, "A kind of decision", lists the files a new kind touches.
"""

from __future__ import annotations

from dataclasses import dataclass

# The answer's shape.
ONE = "one"  # one option (not multi, not ordered)
SOME = "some"  # any number of options between the decision's bounds (multi)
ONE_OR_SOME = "one or some"  # one option, or several when the decision allows it (multi then)
ORDER = "order"  # every option, first to last (ordered)

# How a scenario file writes an answer of each shape (game/scenario/runner.py, `_answer`: a
# plain label counts as a list of one).
ANSWER_FORMS = {
    ONE: "one label",
    SOME: "a list of labels (`[]` for none)",
    ONE_OR_SOME: "one label; a list when more than one, or none, may be chosen",
    ORDER: "a list of every label, first to last",
}


@dataclass(frozen=True, slots=True)
class Layout:
    """A part of the viewer's prompt panel (a branch of `prompt_panel` in _macros.html)."""

    name: str
    shows: str
    # The form fields an answer sends besides `action`, `version` and `action_id`
    # (game/forms/actions.py, `parse_action`); `pos:<id>` is one field per option.
    sends: tuple[str, ...]


LAYOUTS = {
    layout.name: layout
    for layout in (
        Layout(
            "priority",
            "the pass button (Space), the plays and the activations as buttons, the mana "
            "abilities folded away",
            ("option",),
        ),
        Layout("buttons", "one button per option", ("option",)),
        Layout(
            "checkboxes",
            "a checkbox per option and one confirm button",
            ("option", "multi"),
        ),
        Layout("order", "a position per option and one confirm button", ("pos:<id>",)),
        Layout(
            "placement",
            "each looked-at card on top at a position or on the bottom, and one confirm "
            "button: the scry and the order of the cards kept on top answered at once "
            "(game/services/answers.py, `submit_scry`)",
            ("placement", "pos:<id>"),
        ),
        Layout(
            "dungeons",
            "every dungeon's map side by side, each a button",
            ("option",),
        ),
        Layout("rooms", "the dungeon's map with the reachable rooms as buttons", ("option",)),
        Layout(
            "division",
            "an amount per recipient turned into the option that has them, and every division "
            "as a button",
            ("option",),
        ),
    )
}
CHECKBOXES = "checkboxes"  # every decision that lets several options be chosen ...
PLACEMENT = "placement"  # ... but a scry's, whose page answers its order too

# The most cards a placement shows (its form sends a field per card, game/forms/actions.py); a
# larger scry shows as checkboxes, its order then asked apart as the engine asks it.
PLACEMENT_MAX = 100

# The layouts an answer of each shape may show as (one of another shape: any).
_LAYOUTS_OF_SHAPE = {SOME: (CHECKBOXES, PLACEMENT), ORDER: ("order",)}


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of decision (see the module's docstring for each field)."""

    name: str
    asks: str
    shape: str
    layout: str
    answer: str
    computer: str
    waiting: str
    public: bool = False
    forced_public: bool = False


KINDS: dict[str, Kind] = {}


def kind(
    name: str,
    *,
    asks: str,
    shape: str,
    layout: str,
    answer: str,
    computer: str,
    waiting: str,
    public: bool = False,
    forced_public: bool = False,
) -> str:
    """Declare kind `name` and return it, the constant engine code names it by."""
    if name in KINDS:
        raise ValueError(f"decision kind {name!r} is declared twice")
    if shape not in ANSWER_FORMS:
        raise ValueError(f"decision kind {name!r}: unknown shape {shape!r}")
    if layout not in LAYOUTS:
        raise ValueError(f"decision kind {name!r}: unknown layout {layout!r}")
    if layout not in _LAYOUTS_OF_SHAPE.get(shape, (layout,)):
        raise ValueError(
            f"decision kind {name!r}: an answer of shape {shape!r} shows as "
            f"{' or '.join(map(repr, _LAYOUTS_OF_SHAPE[shape]))}, not {layout!r}"
        )
    if layout == PLACEMENT and name != "scry":
        raise ValueError(
            f"decision kind {name!r}: the placement is the scry's (services.submit_scry answers "
            "the scry and the order after it)"
        )
    if not (asks and answer and computer and waiting):
        raise ValueError(f"decision kind {name!r} needs asks, answer, computer and waiting")
    KINDS[name] = Kind(name, asks, shape, layout, answer, computer, waiting, public, forced_public)
    return name


def layout_of(kind_name: str, multi: bool) -> str:
    """The prompt panel's part for a decision of this kind (one that lets several options be
    chosen: checkboxes, or the placement its kind names)."""
    layout = KINDS[kind_name].layout
    return layout if not multi or layout in _LAYOUTS_OF_SHAPE[SOME] else CHECKBOXES


# The shared rules of the computer (game/ai/policy.py) for choices among objects: what is chosen
# is lost (the least valuable are chosen) or kept or gained (the most valuable).
GIVE_UP = "choose_least_valuable"
TAKE = "choose_most_valuable"
SAFE = "choose_safely"  # the cautious legal answer (game/ai/answers.py, `safe_answer`)

# the turn ---------------------------------------------------------------------------------------
PRIORITY = kind(
    "priority",
    asks="what to do with priority: pass, play a land, cast a spell or activate an ability "
    "(CR 117)",
    shape=ONE,
    layout="priority",
    answer="`pass` · `play <land>` · `cast <card>` (an adventurer card offers `cast <creature>` "
    "and `cast <adventure>`) · `activate <card>: <cost>` (`activate Dungeon Map: {3}, {T}`); "
    "mana abilities are options too (`activate Forest: {T}`, `activate Treasure: {T}, "
    "Sacrifice this artifact`)",
    computer="on_priority",
    waiting="has priority",
)
PLAY_OR_DRAW = kind(
    "play_or_draw",
    asks="whether the coin flip's winner takes the first turn (CR 103.1)",
    shape=ONE,
    layout="buttons",
    answer="`play` (take the first turn) · `draw` (the opponent takes it)",
    computer=SAFE,
    waiting="is choosing whether to play or draw",
)
MULLIGAN = kind(
    "mulligan",
    asks="whether to keep the opening hand (CR 103.5)",
    shape=ONE,
    layout="buttons",
    answer="`keep` · `mulligan`",
    computer="on_mulligan",
    waiting="is deciding whether to keep their hand",
)
MULLIGAN_BOTTOM = kind(
    "mulligan_bottom",
    asks="which cards of a kept hand go to the bottom, one per mulligan (CR 103.5)",
    shape=ONE_OR_SOME,
    layout="buttons",
    answer="the cards' names",
    computer="on_mulligan_bottom",
    waiting="is choosing cards to put on the bottom",
)
DISCARD = kind(
    "discard",
    asks="which cards to discard (to hand size, CR 514.1, or for an effect)",
    shape=ONE_OR_SOME,
    layout="buttons",
    answer="the cards' names",
    computer=GIVE_UP,
    waiting="is choosing a card to discard",
)
ORDER_TRIGGERS = kind(
    "order_triggers",
    asks="the order of the player's triggered abilities with different names waiting to go on "
    "the stack (CR 603.3b)",
    shape=ORDER,
    layout="order",
    answer="the abilities' names in the order they will resolve, the first listed on top",
    computer="on_order_triggers",
    waiting="is ordering triggered abilities",
)
LEGEND_RULE = kind(
    "legend_rule",
    asks="which of two or more legendary permanents with the same name to keep (CR 704.5j)",
    shape=ONE_OR_SOME,
    layout="buttons",
    answer="the name of the permanent to keep",
    computer=TAKE,
    waiting="is choosing which legendary permanent to keep",
    forced_public=True,
)

# combat -----------------------------------------------------------------------------------------
DECLARE_ATTACKERS = kind(
    "declare_attackers",
    asks="which creatures attack, and whom (CR 508.1)",
    shape=SOME,
    layout=CHECKBOXES,
    answer="the attacking creatures' names; `<creature> -> <planeswalker>` attacks a planeswalker",
    computer="on_declare_attackers",
    waiting="is declaring attackers",
)
DECLARE_BLOCKERS = kind(
    "declare_blockers",
    asks="which creatures block, and which attacker each blocks (CR 509.1)",
    shape=SOME,
    layout=CHECKBOXES,
    answer="`<blocker> blocks <attacker>` for each block",
    computer="on_declare_blockers",
    waiting="is declaring blockers",
)
ASSIGN_COMBAT_DAMAGE = kind(
    "assign_combat_damage",
    asks="how an attacker's combat damage is divided among its blockers (and, with trample, "
    "the player or planeswalker it attacks) (CR 510.1c)",
    shape=ONE,
    layout="division",
    answer="one label per division, the usual one first; blockers in the order they were "
    "declared, then (with trample) the player or planeswalker attacked; a recipient given "
    "nothing is left out: `3 to Goblin, 2 to Zombie`, `1 to Varis, Silverymoon Ranger, 3 to bob`",
    computer="on_assign_combat_damage",
    waiting="is dividing combat damage",
    forced_public=True,
)
ASSIGN_COMBAT_DAMAGE_PART = kind(
    "assign_combat_damage_part",
    asks="one recipient's share of a division of combat damage too large to list whole "
    "(more than 60 ways)",
    shape=ONE,
    layout="buttons",
    answer="`N to <recipient>` for one recipient at a time, in the same order, the usual "
    "amount first; the last recipient gets what is left",
    computer=SAFE,
    waiting="is dividing combat damage",
    forced_public=True,
)

# casting and abilities --------------------------------------------------------------------------
CHOOSE_TARGETS = kind(
    "choose_targets",
    asks="the targets of one target phrase of a spell or ability, in printed order (CR 601.2c)",
    shape=ONE_OR_SOME,
    layout="buttons",
    answer="a permanent's or card's name, a player's name, or a stack object's name (as in "
    '`stack`); a phrase that allows zero or several ("up to one", "one, two, or three") takes '
    "a list",
    computer="on_choose_targets",
    waiting="is choosing targets",
    forced_public=True,
)
DIVIDE = kind(
    "divide",
    asks="how a spell's damage is divided among its targets (CR 601.2d)",
    shape=ONE,
    layout="buttons",
    answer="one label per split, in target order: `2 to bob, 1 to Grizzled Outrider`",
    computer="on_divide",
    waiting="is dividing damage",
    forced_public=True,
)
CHOOSE_COLOR = kind(
    "choose_color",
    asks="the color of mana a source tapped by hand adds (a Treasure)",
    shape=ONE,
    layout="buttons",
    answer="`{W}` `{U}` `{B}` `{R}` `{G}`",
    computer="on_choose_color",
    waiting="is choosing a color",
)
TAP_COST = kind(
    "tap_cost",
    asks="which untapped legendary creature to tap to pay an ability's cost",
    shape=ONE_OR_SOME,
    layout="buttons",
    answer="the creature's name",
    computer=GIVE_UP,
    waiting="is choosing a creature to tap",
    forced_public=True,
)
ESCAPE_EXILE = kind(
    "escape_exile",
    asks="which other cards to exile from the graveyard to cast a card with escape (CR 702.138)",
    shape=ONE_OR_SOME,
    layout="buttons",
    answer="the cards' names",
    computer=GIVE_UP,
    waiting="is choosing cards to exile",
    forced_public=True,
)
PAY_WARD = kind(
    "pay_ward",
    asks="whether to pay a ward cost or have the spell or ability countered (CR 702.21a)",
    shape=ONE,
    layout="buttons",
    answer="paying reads as the cost (`Pay {1}`), not paying as what then happens "
    "(`Don't pay: Magic Missile is countered`, `Don't pay: Stirring Bard's ability is "
    "countered`); the earlier `pay <cost>` · `don't pay` · `Don't pay: Stirring Bard is "
    "countered` are still accepted",
    computer="on_pay_ward",
    waiting="is deciding whether to pay for ward",
)

# effects ----------------------------------------------------------------------------------------
YES_NO = kind(
    "yes_no",
    asks='whether to do what an optional instruction ("you may") offers',
    shape=ONE,
    layout="buttons",
    answer="`yes` · `no`",
    computer="on_yes_no",
    waiting="is making a choice",
)
UNLESS = kind(
    "unless",
    asks='whether to pay for "… unless that player pays", offered only when they can',
    shape=ONE,
    layout="buttons",
    answer="paying reads as the cost (`Discard a card`, `Sacrifice an artifact, a creature, or "
    "a land`, `Sacrifice a creature`), not paying as what then happens (`Lose 2 life`, `Let "
    "alice create a 2/2 black Zombie`); the earlier `pay <cost>` · `don't pay` are still "
    "accepted; what to discard or sacrifice is then a choice of card names",
    computer="on_unless",
    waiting="is deciding whether to pay",
)
SACRIFICE = kind(
    "sacrifice",
    asks="which permanents to sacrifice",
    shape=ONE_OR_SOME,
    layout="buttons",
    answer="the permanents' names",
    computer=GIVE_UP,
    waiting="is choosing what to sacrifice",
    forced_public=True,
)
UNTAP = kind(
    "untap",
    asks="which permanent to untap",
    shape=ONE_OR_SOME,
    layout="buttons",
    answer="the permanent's name",
    computer=TAKE,
    waiting="is choosing a creature to untap",
    forced_public=True,
)
CHOOSE_CARD = kind(
    "choose_card",
    asks="which card to take among cards revealed, looked at or in a graveyard",
    shape=ONE_OR_SOME,
    layout="buttons",
    answer="the card's name",
    computer=TAKE,
    waiting="is choosing a card",
)
SEARCH = kind(
    "search",
    asks="which card a library search finds; it may find nothing (CR 701.19b)",
    shape=ONE,
    layout="buttons",
    answer="each basic land card's name, once however many copies there are (`Swamp`; the "
    "earlier numbered labels, `Swamp #2`, are still accepted) · `find nothing`",
    computer="on_search",
    waiting="is searching their library",
)
SCRY = kind(
    "scry",
    asks="which of the top cards of the library go to the bottom (CR 701.22)",
    shape=SOME,
    # The page places every card at once, on top at a position or on the bottom; the service
    # turns that into this answer and the `scry_order` one after it (LAYOUTS).
    layout=PLACEMENT,
    answer="the cards to put on the bottom, in the order they go there (`[]` keeps all on top)",
    computer="on_scry",
    waiting="is scrying",
)
SCRY_ORDER = kind(
    "scry_order",
    asks="the order of the cards a scry leaves on top, when two or more stay (CR 701.22)",
    shape=ORDER,
    layout="order",
    answer="their names, top first",
    computer="on_scry_order",
    waiting="is scrying",
)
CAST_FREE = kind(
    "cast_free",
    asks="which revealed card to cast without paying its mana cost, if any",
    shape=ONE,
    layout="buttons",
    answer="`cast <card>` for each revealed card that can be cast · `don't cast`",
    computer="on_cast_free",
    waiting="is choosing a card to cast",
)

# dungeons ---------------------------------------------------------------------------------------
CHOOSE_DUNGEON = kind(
    "choose_dungeon",
    asks="which dungeon to venture into, when two or more may be entered (CR 701.49a)",
    shape=ONE,
    layout="dungeons",
    answer="the dungeon's name",
    computer="on_choose_dungeon",
    waiting="is choosing a dungeon",
    # Dungeons are outside the game or face up in the command zone.
    public=True,
    forced_public=True,
)
CHOOSE_ROOM = kind(
    "choose_room",
    asks="which room to move the venture marker into, at a fork (CR 701.49b)",
    shape=ONE,
    layout="rooms",
    answer="the room's name",
    computer="on_choose_room",
    waiting="is choosing a room",
    # The dungeon card is face up in the command zone.
    public=True,
    forced_public=True,
)
