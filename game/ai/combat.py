"""Combat: which creatures attack and which block which attacker.

Both read the combat calculator (combat_math.py); the blocks are planned in blocks.py. Combat
damage among several blockers is divided in damage_division.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from game.engine.combat import can_block
from game.engine.continuous import chars
from game.engine.decisions import Decision
from game.engine.ops import reading
from game.engine.state import GameState, Obj
from game.engine.targets import PARTY_TYPES
from game.engine.worth import permanent_value

from .answers import Answer, valid_subset
from .block_problem import BlockProblem, block_problem, initiative_worth, may_attack_later
from .blocks import DANGER, Race, worst_order
from .combat_math import Body, fight, least_damage_through, min_blockers
from .features import body
from .habits import Habits, habits
from .lethal import burn_reach
from .rooms import initiative_drain
from .rules import Rules, is_creature

# How far down a trade the attacker offers when ahead or racing for the initiative: the blocker
# it takes must be worth at least this share of the attacker.
TRADE_DOWN = 0.5
# The life the other side's next attack takes when the creatures of a set attack now.
Cost = Callable[[set[int]], int]
# A library this small, and no bigger than the other player's, will run out first.
DECKS_SOON = 12
# Racing: the other side's next attacks kill the seat within this many of its turns even with
# every creature of the seat's kept home to block.
RACE_LOST_TURNS = 3


class CombatRules(Rules):
    def on_declare_attackers(self, g: GameState, d: Decision) -> Answer:
        me, opp = self.seat, g.opponent(self.seat)
        objs: dict[int, Obj] = {}
        mine: dict[int, Body] = {}
        for opt in d.options:
            obj = opt.data[0]  # type: ignore[index]
            objs[obj.id] = obj
            mine[obj.id] = body(g, obj)
        # Medium reads the other player's habits from the log (habits.py); Easy doesn't.
        read = habits(g, opp) if self.sloppy == 0 else Habits()
        blockers = [o for o in g.controlled(opp) if _can_ever_block(g, o)]
        if read.never_blocks:
            # It has let every attacker through so far; a free kill is still taken by anyone.
            # Declined blocks say little when every block lost a creature: read from four
            # declines against a first-strike deathtouch attacker, Hard sent Barrowin (6/6)
            # into an untapped Purple Worm (9/8) and lost it for nothing (a playtest).
            blockers = [o for o in blockers if any(beats(g, o, objs[oid]) for oid in mine)]
        objs.update((o.id, o) for o in blockers)
        theirs = [body(g, o) for o in blockers]
        shield = shielded(g, me, [objs[oid] for oid in mine])

        def legal(a: Body, b: Body) -> bool:
            return a.id not in shield and can_block(g, objs[b.id], objs[a.id])

        opp_life = g.player(opp).life
        forced = self._forced_attackers(d)
        chosen = set(forced)
        # Lethal first: everything attacks when the damage gets through their best blocks
        # (evasion, menace and trample counted), with what a spell in hand can still deal to
        # their face after combat (`burn_reach`). Easy sees it only with nothing to block.
        if self.sloppy == 0:
            reach = burn_reach(g, me)
            lethal = least_damage_through(list(mine.values()), theirs, legal) + reach >= opp_life
        else:
            reach = 0
            lethal = not theirs and sum(fight(b).to_defender for b in mine.values()) >= opp_life
        if lethal:
            return [f"a{oid}" for oid in sorted(mine)]
        if reach:
            # ... or one that can't be blocked attacking alone (Yuan-Ti Malison), with the burn.
            for oid in self._alone(d, forced, objs):
                if fight(mine[oid]).to_defender + reach >= opp_life:
                    return [f"a{oid}"]
        my_life = g.player(me).life
        their_all = [body(g, o) for o in g.controlled(opp) if may_attack_later(g, o)]
        if read.never_attacks:
            their_all = []  # it has kept every creature home so far: no counter-attack to fear
        ahead = self._board(g, me) > self._board(g, opp) + 2 or _wins_race(
            list(mine.values()), their_all, my_life, opp_life
        )
        trades = self.sloppy == 0  # Easy attacks only where nothing can kill it
        crack_back = self._crack_back(g, their_all)
        racing = trades and self._defence_fails(forced, crack_back, my_life)
        for oid, a in sorted(mine.items()):
            able = [b for b in theirs if legal(a, b)]
            if not self._attack_is_good(
                a, able, ahead and trades, g.player(opp).initiative and trades, racing
            ):
                continue
            if self.slip(0.4):
                continue  # held back out of caution
            chosen.add(oid)
        # Waiting loses (see _must_press): everything goes while their best blocks still let
        # damage through.
        if (
            self.sloppy == 0
            and self._must_press(g, read.never_attacks)
            and least_damage_through(list(mine.values()), theirs, legal) > 0
        ):
            chosen |= {oid for oid, a in mine.items() if a.power > 0}
        if self.sloppy == 0:
            if g.player(opp).initiative:
                chosen = self._together_for_the_initiative(
                    g,
                    d,
                    chosen,
                    mine,
                    theirs,
                    legal,
                    lambda s: self._keep_guard(s, forced, mine, crack_back, my_life, racing),
                )
            chosen = self._alone_if_better(g, d, chosen, forced, objs)
            chosen = self._keep_guard(chosen, forced, mine, crack_back, my_life, racing)
        return [f"a{oid}" for oid in sorted(chosen)]

    def _alone_if_better(
        self, g: GameState, d: Decision, chosen: set[int], forced: set[int], objs: dict[int, Obj]
    ) -> set[int]:
        """A creature that can't be blocked while it attacks alone (Yuan-Ti Malison) goes alone
        when the combat calculator rates that above the attack chosen: sent with a Shortcut
        Seeker into two deathtouch blockers, both were blocked and died (a game against Hard)."""
        alone = self._alone(d, forced, objs)
        if not alone or len(chosen) == 1 and chosen <= set(alone):
            return chosen
        worth = attack_answer_worth(g, d, self.seat)
        best, best_worth = chosen, worth([f"a{oid}" for oid in sorted(chosen)])
        for oid in alone:
            if (w := worth([f"a{oid}"])) > best_worth:
                best, best_worth = {oid}, w
        return best

    @staticmethod
    def _alone(d: Decision, forced: set[int], objs: dict[int, Obj]) -> list[int]:
        """The seat's creatures that can't be blocked while attacking alone and may attack
        alone (no other creature must attack)."""
        return [
            oid
            for oid in sorted(objs)
            if any(o.id == f"a{oid}" for o in d.options)
            and objs[oid].card.extra.get("unblockable_alone")
            and forced <= {oid}
        ]

    def _together_for_the_initiative(
        self,
        g: GameState,
        d: Decision,
        chosen: set[int],
        mine: dict[int, Body],
        theirs: list[Body],
        legal: Callable[[Body, Body], bool],
        guard: Callable[[set[int]], set[int]],
    ) -> set[int]:
        """The other player holds the initiative, and combat damage to it takes it (CR 725.2).
        Judged one by one, an attacker stays home before a blocker that kills it; together,
        more attackers than there are blockers connect. Every creature with power attacks when
        their best blocks still let damage through and the combat calculator rates that attack
        above the one chosen (`attack_answer_worth`: the initiative is worth its rooms to the
        player who keeps it). Three 2/1s had stayed home against one 3/3 (a game against the
        scripted aggro player). The guards the crack-back needs (`guard`) stay home first: what
        is left must still get through, or a lone 2/1 would run into the blocker."""
        everything = guard(chosen | {oid for oid, a in mine.items() if a.power > 0})
        if everything <= chosen:
            return chosen
        if least_damage_through([mine[i] for i in everything], theirs, legal) <= 0:
            return chosen
        worth = attack_answer_worth(g, d, self.seat)
        if worth([f"a{oid}" for oid in sorted(everything)]) > worth(
            [f"a{oid}" for oid in sorted(chosen)]
        ):
            return everything
        return chosen

    def _keep_guard(
        self,
        chosen: set[int],
        forced: set[int],
        mine: dict[int, Body],
        crack_back: Cost,
        life: int,
        racing: bool,
    ) -> set[int]:
        """Call attackers back, the best blockers first, while the other side's next attack
        would leave the seat in danger against the creatures left at home, or, racing (no
        guards keep it out of danger), while that attack would kill it."""
        # The crack-back must leave the seat out of danger, not merely alive: a burn spell, a
        # pump or a room's drain on top of it finishes a player left at DANGER or less. Racing,
        # a guard that only makes the loss slower is a creature the race needs.
        floor = life if racing else life - DANGER
        chosen = set(chosen)
        through = crack_back(chosen)
        while through >= floor:
            # The attacker whose staying home stops most of the crack-back, the toughest first.
            best: tuple[int, int] | None = None
            for oid in sorted(chosen - forced, key=lambda i: (-mine[i].toughness, i)):
                left = crack_back(chosen - {oid})
                if left < through and (best is None or left < best[0]):
                    best = (left, oid)
            if best is None:
                break  # no guard stops any of it: attacking is the only way out
            through = best[0]
            chosen.discard(best[1])
        return chosen

    @staticmethod
    def _defence_fails(forced: set[int], crack_back: Cost, life: int) -> bool:
        """Whether the seat has lost the defence: with every creature it may keep home kept home
        to block, the other side's next attack still leaves it in danger (DANGER life or less)
        and kills it within RACE_LOST_TURNS of its turns (fliers it cannot block, say). Then
        staying home only waits to lose, and the seat races: a good player's "I can't
        stabilize, so I race"."""
        hit = crack_back(forced)
        return hit > 0 and hit >= life - DANGER and -(-life // hit) <= RACE_LOST_TURNS

    def _crack_back(self, g: GameState, their_all: list[Body]) -> Cost:
        """The life the other side's next attack takes from the seat when the creatures of a
        given set attack now and the rest stay home to block (their best blocks against it:
        vigilance keeps an attacker a guard), the initiative's drain counted: whoever holds it
        after this attack hands it over to a crack-back that connects, and the other player,
        taking it or holding it at its upkeep, ventures into a room that may drain more
        (Trap!)."""
        me = self.seat
        home_objs = {
            o.id: o
            for o in g.controlled(me)
            if is_creature(g, o) and not o.tapped and not chars(g, o).cant_block
        }
        their_objs = {o.id: o for o in g.controlled(g.opponent(me))}

        def guards(attacking: set[int]) -> list[Body]:
            return [
                body(g, o)
                for oid, o in home_objs.items()
                if oid not in attacking or "vigilance" in chars(g, o).keywords
            ]

        opp = g.opponent(me)
        shield = shielded(g, opp, [their_objs[a.id] for a in their_all])

        def legal(a: Body, b: Body) -> bool:
            return a.id not in shield and _could_block(g, home_objs[b.id], their_objs[a.id])

        they_hold = g.player(opp).initiative
        drain = initiative_drain(g, opp, me) if they_hold or g.player(me).initiative else 0

        def cost(attacking: set[int]) -> int:
            hit = least_damage_through(their_all, guards(attacking), legal)
            return hit + drain if hit > 0 or (they_hold and not attacking) else hit

        return cost

    def _must_press(self, g: GameState, they_never_attack: bool) -> bool:
        """Whether waiting loses the game: the seat's library runs out first (CR 704.5b) in a
        stalled board, or the other player holds the initiative and never attacks, so it
        ventures at every upkeep (CR 725.2) and only combat damage to it takes it back.

        The seat attacks on its own turn, after its draw; the other player draws next, so with
        libraries of the same size the other player's runs out first."""
        me, opp = g.player(self.seat), g.player(g.opponent(self.seat))
        decks_first = len(me.library) < len(opp.library) and len(me.library) <= DECKS_SOON
        return decks_first or (opp.initiative and they_never_attack)

    def _forced_attackers(self, d: Decision) -> set[int]:
        forced = set()
        for opt in d.options:
            obj = opt.data[0]  # type: ignore[index]
            if obj.goaded_by:
                forced.add(obj.id)
        return forced

    def _attack_is_good(
        self, a: Body, able: list[Body], ahead: bool, they_hold_initiative: bool, racing: bool
    ) -> bool:
        if a.power <= 0:
            return False
        # The blocks they could make: one creature, or two against menace.
        groups: list[Sequence[Body]] = (
            [[b] for b in able] if min_blockers(a) == 1 else list(combinations(able, 2))
        )
        for group in groups:
            out = fight(a, worst_order(a, group))
            if a.id in out.dead:
                lost = out.lost(group)
                if lost == 0:
                    return False  # they would block and win the fight
                # A trade: worth offering for a card as good, or, when ahead or for the
                # initiative, for one worth at least TRADE_DOWN of it; never further down (a 7/5
                # trampler for a 1/2 deathtouch blocker is a loss whatever the board).
                even = lost >= a.value
                pressing = (ahead or they_hold_initiative) and lost >= TRADE_DOWN * a.value
                # Racing (`_defence_fails`), a creature home only waits to lose: any trade
                # goes, and what tramples over the blocker is damage the race needs.
                if not (even or pressing or racing):
                    return False
        return True

    def _board(self, g: GameState, name: str) -> float:
        return sum(permanent_value(g, o) for o in g.controlled(name) if is_creature(g, o))

    def on_declare_blockers(self, g: GameState, d: Decision) -> Answer:
        # Easy doesn't see the initiative, the drain that comes with it or the race.
        blocks = block_problem(g, d, self.seat, careful=self.sloppy == 0).plan(self.slip)
        chosen = [f"b{b.id}:{aid}" for aid, group in blocks.items() for b in group]
        return valid_subset(d, chosen)


def shielded(g: GameState, player: str, attackers: Sequence[Obj]) -> set[int]:
    """The attackers of `player`'s that its "whenever you attack" shields would take past every
    blocker (`Reading.shields`: Seasoned Dungeoneer gives an attacking party creature protection
    from creatures, CR 702.16): one for each such trigger, the party creatures that would deal
    the most damage first. Medium had left a lethal attack of two Dungeoneers unmade, and had
    counted its blockers against attackers they could not block."""
    count = sum(
        1
        for o in g.controlled(player)
        for t in o.card.triggers
        if t.trigger == "you_attack" and any(reading(s).shields for s in t.effect)
    )
    if count == 0:
        return set()
    party = [o for o in attackers if PARTY_TYPES & set(chars(g, o).subtypes)]
    party.sort(key=lambda o: (-fight(body(g, o)).to_defender, o.id))
    return {o.id for o in party[:count]}


def beats(g: GameState, blocker: Obj, attacker: Obj) -> bool:
    """Whether `blocker` may block `attacker` and, alone in front of it, kills it and lives (by
    the combat calculator): a block a player who never blocks still makes."""
    if not can_block(g, blocker, attacker, alone=False):
        return False
    out = fight(body(g, attacker), [body(g, blocker)])
    return attacker.id in out.dead and blocker.id not in out.dead


def attack_answer_worth(g: GameState, d: Decision, seat: str) -> Callable[[Answer], float]:
    """What each answer to the attack decision `d` is worth to `seat`, from the combat
    calculator alone: the other player blocks it as Medium would (`plan_blocks` from its side,
    its race, the initiative and Trap! counted, no slips), and the attack is worth what that
    plan is worth to it, negated. Hard's search ranks every attack by it before it samples worlds
    (search.PRUNERS). Public information only: the battlefield, the life totals, the dungeons."""
    opp = g.opponent(seat)
    attackers: dict[str, tuple[Body, bool]] = {}  # option id: the attacker, at a planeswalker
    objs: dict[int, Obj] = {}
    for opt in d.options:
        obj, aim = opt.data  # type: ignore[misc]
        objs[obj.id] = obj
        attackers[opt.id] = (body(g, obj), not isinstance(aim, str))
    blockers = [o for o in g.controlled(opp) if _can_ever_block(g, o)]
    theirs = {o.id: body(g, o) for o in blockers}
    able = {
        aid: [theirs[o.id] for o in blockers if can_block(g, o, obj, alone=False)]
        for aid, obj in objs.items()
    }
    # Yuan-Ti Malison can't be blocked while it attacks alone.
    able_alone = {
        aid: [theirs[o.id] for o in blockers if can_block(g, o, obj, alone=True)]
        for aid, obj in objs.items()
    }
    keep_clear = initiative_worth(g, opp)
    on_hit = initiative_drain(g, seat, opp) if g.player(opp).initiative else 0
    life = g.player(opp).life
    later = {
        o.id: body(g, o)
        for o in g.controlled(seat)
        if may_attack_later(g, o, upkeep_first=g.active == seat)
    }

    def worth(answer: Answer) -> float:
        chosen = [attackers[i] for i in ([answer] if isinstance(answer, str) else answer)]
        going = [a for a, _ in chosen]
        at_walkers = frozenset(a.id for a, at_walker in chosen if at_walker)
        ids = {a.id for a in going}
        race = Race(sum(fight(b).to_defender for oid, b in later.items() if oid not in ids))
        blocks = able_alone if len(going) == 1 else able
        theirs = BlockProblem(
            going, {a.id: blocks[a.id] for a in going}, life, at_walkers, keep_clear, on_hit, race
        )
        return -theirs.worth(theirs.plan())

    return worth


def all_in_is_safe(g: GameState, d: Decision, seat: str, answer: Answer) -> bool:
    """Whether `answer` to the attack decision `d` sends every creature that can attack, their
    combat damage unblocked is at least the other player's life, and the other player's whole
    board (every creature of theirs that could attack next turn, unblocked), with the drain of
    their next venture into Undercity when the initiative is in play, leaves the seat out of
    danger (above DANGER: a burn spell or a pump on top of it does not kill). Such an attack
    wins unless the blocks stop it, and costs nothing the crack-back can punish, so Hard keeps
    it without searching: its
    sampled games end before its next attack, so they count the creatures the blocks trade
    and never the follow-up that wins (Hard sent Clattering Skeletons alone into an 8-life
    aggro player with exactly 8 power on its board, and lost what the all-in won)."""
    ids = answer if isinstance(answer, list) else [answer]
    going: set[int] = set()
    at_them = 0  # their combat damage to the player, unblocked
    for i in ids:
        obj, aim = d.option(i).data  # type: ignore[misc]
        going.add(obj.id)
        if isinstance(aim, str):  # at the player, not a planeswalker
            at_them += fight(body(g, obj)).to_defender
    if not going or going != {opt.data[0].id for opt in d.options}:  # type: ignore[index]
        return False
    opp = g.opponent(seat)
    if at_them < g.player(opp).life:
        return False
    crack_back = sum(
        fight(body(g, o)).to_defender for o in g.controlled(opp) if may_attack_later(g, o)
    )
    # Combat damage to the initiative's holder hands it over (CR 725.2): either holding it, the
    # other player may venture at its upkeep, Trap! included (as `_crack_back` counts it).
    if g.player(opp).initiative or g.player(seat).initiative:
        crack_back += initiative_drain(g, opp, seat)
    return crack_back < g.player(seat).life - DANGER


def _can_ever_block(g: GameState, o: Obj) -> bool:
    return is_creature(g, o) and not o.tapped and not chars(g, o).cant_block


def _could_block(g: GameState, blocker: Obj, attacker: Obj) -> bool:
    """Whether `blocker` could block `attacker` on the other player's turn (the attacker is
    untapped by then, and may be tapped now)."""
    bc, ac = chars(g, blocker), chars(g, attacker)
    if "flying" in ac.keywords and not ({"flying", "reach"} & bc.keywords):
        return False
    if ac.cant_be_blocked_by_walls and "Wall" in bc.subtypes:
        return False
    return "protection from creatures" not in ac.keywords


def _wins_race(mine: list[Body], theirs: list[Body], my_life: int, their_life: int) -> bool:
    """Does the seat win a race where both sides attack with everything, unblocked?"""
    mine_hit = sum(fight(b).to_defender for b in mine)
    theirs_hit = sum(fight(b).to_defender for b in theirs)
    if mine_hit <= 0:
        return False
    my_turns = -(-their_life // mine_hit)
    if theirs_hit <= 0:
        return True
    their_turns = -(-my_life // theirs_hit)
    return my_turns <= their_turns
