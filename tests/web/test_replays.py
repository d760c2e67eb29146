"""Replays (services/replays.py, board/replay.py, the views): who sees what, every point the
same as a fresh rebuild of the game, stepping in both directions, the summary, and playing on
from a point."""

from __future__ import annotations

import html
import random
import re

import pytest
import yaml

from game import services
from game.engine.cards import CARDS
from game.engine.game import Engine, replay
from game.engine.view import replay_view
from game.models import Game, Player
from game.scenario.export import unwritable
from tests.sizes import sized

from .helpers import answer, pending, start_from_text
from .replay_helpers import played_game

pytestmark = pytest.mark.django_db
CARD_NAMES = sorted(CARDS, key=len, reverse=True)
# Every how many points of a replay the scan for hidden cards fetches (each fetch renders).
SCAN_EVERY = sized(small=5, full=1)


@pytest.fixture(autouse=True)
def fresh_timelines():
    services.clear_timelines()
    yield
    services.clear_timelines()


def _url(game: Game, at: int | None = None) -> str:
    return f"/g/{game.code}/replay/" + ("" if at is None else f"?at={at}")


# who sees what --------------------------------------------------------------------------------
def _known(engine: Engine, viewer: str | None, known: set[str]) -> None:
    """Add what `viewer` may know at this point (as tests/web/test_hidden_information.py):
    everything public, its own hand, the cards named in its own decisions."""
    g = engine.state
    known |= {o.name for o in g.battlefield} | {item.name for item in g.stack}
    for p in g.players:
        known.update(o.name for o in p.graveyard + p.exile)
        known.update(o.name for o in p.hand if o.revealed or p.name == viewer)
    d = engine.pending
    if d is not None and d.player == viewer:
        for o in d.options:
            known.update(n for n in CARD_NAMES if n in o.label)


def _secrets(engine: Engine, viewer: str | None, known: set[str]) -> set[str]:
    hidden: set[str] = set()
    for p in engine.state.players:
        hidden.update(o.name for o in p.library)
        if p.name != viewer:
            hidden.update(o.name for o in p.hand if not o.revealed)
    return hidden - known


@pytest.mark.timeout(240)  # every point of the game, rendered twice, at the full size
@pytest.mark.parametrize("who", ["alice", "spectator"])
def test_no_byte_of_a_running_games_replay_names_a_card_its_viewer_may_not_know(
    who, alice, bob, client, django_user_model
):
    game, _ = played_game(alice, bob, seed=21, answers=260, finish=False)
    assert game.status == Game.ACTIVE
    if who == "alice":
        client.force_login(alice.user)
        viewer = game.seats.get(player=alice).engine_name
    else:  # someone who is not seated: a spectator
        client.force_login(django_user_model.objects.create_user(username="carol"))
        viewer = None
    log = list(game.actions.order_by("index").values_list("seat__engine_name", "answer"))
    shadow = Engine(services.engine_setup(game))
    known: set[str] = set()
    _known(shadow, viewer, known)
    checked = 0
    for k in range(len(log) + 1):
        if k:
            shadow.apply_logged(*log[k - 1])
            _known(shadow, viewer, known)
        if k % SCAN_EVERY:
            continue  # known to the viewer from this point on all the same
        # What a step fetches, and the whole page of the point (what a shared link opens).
        bodies = [client.get(_url(game, k), HTTP_X_REPLAY_POINT="1"), client.get(_url(game, k))]
        secret = _secrets(shadow, viewer, known)
        assert secret, "a running game has cards its viewers may not know"
        for response in bodies:
            assert response.status_code == 200
            # Unescaped: a name with an apostrophe is written "Fates&#39; Reversal" in HTML.
            text = html.unescape(response.content.decode())
            for name in secret:
                assert not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text), (
                    f"{who} was sent {name!r} at point {k}, which it may not know then"
                )
            checked += 1
    assert checked > 2 * 260 // SCAN_EVERY
    # Neither the scenario file of a point nor a new game from it: both would hold every card.
    response = client.get(f"/g/{game.code}/replay/scenario.yaml?at=120")
    assert response.status_code == 400
    assert not any(n in response.content.decode() for n in CARD_NAMES)
    assert client.post(f"/g/{game.code}/replay/play-on/", {"at": "120"}).status_code == 302
    assert Game.objects.count() == 1


def test_a_players_replay_shows_their_hand_then_and_the_other_as_a_count(alice, bob, client):
    game, _ = played_game(alice, bob, seed=22, answers=120, finish=False)
    client.force_login(bob.user)
    tl = services.timeline(game, bob)
    me = game.seats.get(player=bob).engine_name
    them = game.seats.get(player=alice).engine_name
    log = list(game.actions.order_by("index").values_list("seat__engine_name", "answer"))
    for k in (5, 40, 119):
        with tl.lock:
            view = tl.view(k)
        then = replay(services.engine_setup(game), log[:k])
        assert view["players"][me]["hand"] == [o.name for o in then.state.player(me).hand]
        assert view["players"][them]["hand"] is None
        assert view["players"][them]["hand_count"] == len(then.state.player(them).hand)
    assert "the game is still running: you see what bob saw then" in client.get(
        _url(game, 40)
    ).content.decode().lower().replace("’", "'")


def test_a_finished_games_replay_shows_both_hands_to_anyone(alice, bob, client):
    game, engine = played_game(alice, bob, seed=23, answers=200)
    assert game.status == Game.FINISHED
    text = html.unescape(client.get(_url(game, 60)).content.decode())  # not logged in
    then = replay(services.engine_setup(game), engine.answers[:60])
    for p in then.state.players:
        for o in p.hand:
            assert o.name in text
    assert text.count('class="replay-hand"') == 2
    assert "Summary" in text and 'id="life-chart"' in text


# every point, both directions -----------------------------------------------------------------
def test_every_point_is_the_game_rebuilt_to_it_whichever_way_it_is_reached(alice, bob):
    game, engine = played_game(alice, bob, seed=24, answers=400)
    tl = services.timeline(game, None)
    assert tl.last == len(engine.answers)
    assert len(tl.snapshots) >= 3
    setup = services.engine_setup(game)
    rng = random.Random(3)
    order = [tl.last, 0, 1, 2, 399, 398, 200, 201, 199, 64, 63, 65]
    order += [rng.randrange(tl.last + 1) for _ in range(25)]
    for k in order:
        with tl.lock:
            got = tl.view(k)
        expected = replay_view(replay(setup, engine.answers[:k]), None, reveal=True)
        assert got == expected, f"point {k}"
    # Backwards one answer at a time from the end, as the ← key goes.
    for k in range(tl.last, tl.last - 150, -1):
        with tl.lock:
            assert tl.view(k)["version"] == k


def test_stepping_never_replays_from_the_start(alice, bob, monkeypatch):
    game, engine = played_game(alice, bob, seed=25, answers=500)
    tl = services.timeline(game, None)
    built = []
    original = Engine.__init__

    def counting(self, setup):
        built.append(1)
        original(self, setup)

    monkeypatch.setattr(Engine, "__init__", counting)
    with tl.lock:
        for k in (480, 479, 300, 301, 250, 120, 119, 400):
            tl.view(k)
    assert built == [], "every point after the first snapshot comes from a snapshot"


def test_a_running_games_replay_opened_again_takes_only_the_new_answers(alice, bob):
    game, _ = played_game(alice, bob, seed=26, answers=80, finish=False)
    first = services.timeline(game, None)
    engine = first.engine
    log = list(game.actions.order_by("index").values_list("seat__engine_name", "answer"))
    assert first.last == len(log)
    # Two more answers are logged (passes, as the bot would).
    game.refresh_from_db()
    assert engine.pending is not None and engine.pending.kind == "priority"
    more = Engine(services.engine_setup(game))
    for entry in log:
        more.apply_logged(*entry)
    seat = game.seats.get(engine_name=more.pending.player)
    more.answer(more.pending.player, "pass")
    game.actions.create(index=len(log), seat=seat, answer="pass")
    game.version = len(log) + 1
    game.save()
    again = services.timeline(game, None)
    assert again is first and again.last == len(log) + 1


def test_events_turns_and_steps(alice, bob, client):
    game, _ = played_game(alice, bob, seed=27, answers=300)
    tl = services.timeline(game, None)
    nxt = tl.next_event(10)
    assert nxt > 10 and tl.frames[nxt].log_len > tl.frames[nxt - 1].log_len
    assert all(tl.frames[k].log_len == tl.frames[10].log_len for k in range(11, nxt))
    turns = tl.turn_starts()
    assert [t for t, _, _ in turns] == list(range(1, len(turns) + 1))
    for t, k, _ in turns[1:]:
        assert tl.frames[k].turn == t and tl.frames[k - 1].turn == t - 1
    text = client.get(_url(game, turns[3][1])).content.decode()
    assert f"Turn {turns[3][0]}" in text
    assert 'aria-current="true"' in text


def test_bad_points_are_clamped_and_an_open_game_has_no_replay(alice, bob, client):
    game, _ = played_game(alice, bob, seed=28, answers=50)
    for bad in ("-5", "abc", "99999999", ""):
        assert client.get(f"/g/{game.code}/replay/?at={bad}").status_code == 200
    open_game = services.create_game(alice, deck_name="Varis", deck=["Forest"] * 40)
    response = client.get(_url(open_game))
    assert response.status_code == 302


# the summary ----------------------------------------------------------------------------------
def test_the_summary_agrees_with_the_game(alice, bob):
    game, engine = played_game(alice, bob, seed=29, answers=700)
    tl = services.timeline(game, None)
    s = services.summary(tl)
    g = engine.state
    for i, name in enumerate(s.players):
        assert s.life[i][0] == 20
        assert s.life[i][-1] == g.player(name).life
        assert s.completions[i] == len(g.player(name).completed)
    assert s.turns == (0, *range(1, g.turn + 1))
    # Damage to players adds up to what the players lost to damage, as the log says.
    to_players = sum(d.to_players for d in s.damage)
    lines = [line for line in g.log if " damage to " in line and "(now" in line]
    assert to_players == sum(int(line.split(" deals ")[1].split()[0]) for line in lines)
    for (turn, who), before in zip(s.leads, (None, *(w for _, w in s.leads)), strict=False):
        row = [s.life[i][s.turns.index(turn)] for i in range(2)]
        assert who == s.players[row.index(max(row))] and who != before
    assert s.lead_changes == max(0, len(s.leads) - 1)
    assert sum(n for row in s.cast for _, n in row) == sum(
        1 for a in tl.answers if a.label and a.label.startswith("cast ")
    )


# playing on -----------------------------------------------------------------------------------
def _comparable(engine: Engine) -> dict:
    """What a scenario's position sets, from the judge's view, ids and timestamps aside."""
    view = engine.state_json()
    out = {"turn": view["turn"], "stack": view["stack"]}
    for name, p in view["players"].items():
        out[name] = {
            key: p[key]
            for key in ("life", "hand", "library", "graveyard", "exile", "dungeon", "initiative")
        }
        out[name]["completed"] = [c["dungeon"] for c in p["completed"]]
        out[name]["battlefield"] = sorted(
            (
                {k: v for k, v in perm.items() if k not in ("id", "alias", "attached_to")}
                for perm in p["battlefield"]
            ),
            key=repr,
        )
    return out


def test_a_new_game_from_a_point_starts_where_the_replay_was(alice, bob, client):
    game, engine = played_game(alice, bob, seed=30, answers=500)
    tl = services.timeline(game, alice)
    at = tl.nearest_writable(350)
    assert at is not None and at > 100
    client.force_login(alice.user)
    response = client.post(f"/g/{game.code}/replay/play-on/", {"at": str(at)})
    new = Game.objects.exclude(pk=game.pk).get()
    assert response.status_code == 302 and response.url == new.get_absolute_url()
    assert new.is_scenario and new.created_by == alice
    # The file the new game starts from, played from: the same position as the replay's point.
    from game.scenario.loader import parse_scenario
    from game.services.lifecycle import _plain

    scenario = parse_scenario(new.scenario_text, "x.yaml")
    setup = services.engine_setup(game)
    started = Engine(
        type(setup)(
            players=scenario.players,
            seed=0,
            dungeons=setup.dungeons,
            position=_plain(scenario.position),
        )
    )
    point = replay(setup, engine.answers[:at])
    assert _comparable(started) == _comparable(point)
    assert started.pending.player == point.pending.player == point.state.active
    # The download is the same file.
    download = client.get(f"/g/{game.code}/replay/scenario.yaml?at={at}")
    assert download.status_code == 200
    assert yaml.safe_load(download.content) == yaml.safe_load(new.scenario_text)


def _renamed(data, rename: dict[str, str]):
    """`data` with every player name (a key or a whole value) renamed."""
    if isinstance(data, dict):
        return {rename.get(k, k): _renamed(v, rename) for k, v in data.items()}
    if isinstance(data, list):
        return [_renamed(v, rename) for v in data]
    return rename.get(data, data) if isinstance(data, str) else data


def _started_as_point(new: Game, game: Game, at: int, engine: Engine) -> None:
    """`new` started from point `at` of `game`: the same position, each side renamed to the
    player now sitting at its seat."""
    old_names = services.engine_setup(game).players
    new_names = services.engine_setup(new).players
    rename = dict(zip(old_names, new_names, strict=True))
    point = replay(services.engine_setup(game), engine.answers[:at])
    expected = _renamed(_comparable(point), rename)
    started = Engine(services.engine_setup(new))  # as it started, before anyone answered
    assert _comparable(started) == expected
    assert started.pending.player == rename[point.pending.player]


def test_playing_on_against_the_computer_starts_at_once_on_the_side_chosen(alice, bob, client):
    game, engine = played_game(alice, bob, seed=30, answers=500)
    alice_side = services.engine_setup(game).players.index(game.seats.get(player=alice).engine_name)
    tl = services.timeline(game, alice)
    at = tl.nearest_writable(350)
    client.force_login(alice.user)
    # Alice takes Bob's side this time; the position's first player is the computer's.
    side = 1 - alice_side
    form = {"at": str(at), "side": str(side), "opponent": "medium"}
    response = client.post(f"/g/{game.code}/replay/play-on/", form)
    new = Game.objects.exclude(pk=game.pk).get()
    assert response.status_code == 302 and response.url == new.get_absolute_url()
    assert new.status == Game.ACTIVE and new.is_scenario and new.created_by == alice
    seats = {s.position: s.player for s in new.seats.select_related("player")}
    assert seats[side] == alice and seats[1 - side].computer_level == "medium"
    assert new.dungeons == game.dungeons  # the cards that game was played with
    _started_as_point(new, game, at, engine)


def test_playing_on_against_a_friend_on_the_second_side_seats_the_friend_first(alice, bob, client):
    game, engine = played_game(alice, bob, seed=30, answers=500)
    at = services.timeline(game, alice).nearest_writable(300)
    client.force_login(alice.user)
    form = {"at": str(at), "side": "1", "opponent": "friend"}
    new = Game.objects.get(code=_new_code(client.post(f"/g/{game.code}/replay/play-on/", form)))
    assert new.status == Game.OPEN and new.seats.get().position == 1
    waiting = html.unescape(client.get(new.get_absolute_url()).content.decode())
    second = services.engine_setup(game).players[1]
    assert f"you play {second}’s side" in waiting
    client.force_login(bob.user)
    join = html.unescape(client.get(new.get_absolute_url()).content.decode())
    assert f"You play {services.engine_setup(game).players[0]}’s side" in join
    services.join_game(new.pk, bob)
    new.refresh_from_db()
    assert {s.position: s.player for s in new.seats.all()} == {0: bob, 1: alice}
    _started_as_point(new, game, at, engine)


def _new_code(response) -> str:
    assert response.status_code == 302, response
    return response.url.rstrip("/").split("/")[-1]


@pytest.mark.parametrize(
    "form",
    [
        {"at": "x", "side": "0", "opponent": "friend"},
        {"at": "10", "side": "2", "opponent": "friend"},
        {"at": "10", "side": "0", "opponent": "grandmaster"},
        {"at": "10", "side": "-1", "opponent": "easy"},
        {"opponent": "easy"},
        {"at": "9" * 5000, "side": "0", "opponent": "easy"},
    ],
)
def test_a_bad_play_on_form_says_why_and_makes_no_game(alice, bob, client, form):
    game, _ = played_game(alice, bob, seed=30, answers=60)
    client.force_login(alice.user)
    response = client.post(f"/g/{game.code}/replay/play-on/", form, follow=True)
    assert response.status_code == 200
    assert "This new game can't start" in html.unescape(response.content.decode())
    assert Game.objects.count() == 1
    assert not Player.objects.filter(computer_level__gt="").exists()


def test_a_point_the_format_cannot_start_from_offers_the_nearest_earlier_one(alice, bob, client):
    game, engine = played_game(alice, bob, seed=31, answers=400)
    tl = services.timeline(game, None)
    setup = services.engine_setup(game)
    at = next(
        k
        for k in range(200, 400)
        if not tl.frames[k].writable
        and tl.frames[k].kind == "priority"
        and tl.frames[k - 1].writable is False
    )
    reason = unwritable(replay(setup, engine.answers[:at]))
    assert reason
    nearest = tl.nearest_writable(at)
    assert nearest is not None and nearest < at
    assert all(not tl.frames[k].writable for k in range(nearest + 1, at + 1))
    text = html.unescape(client.get(_url(game, at)).content.decode())
    assert "A scenario file cannot start at this point" in text
    assert f"?at={nearest}" in text
    response = client.get(f"/g/{game.code}/replay/scenario.yaml?at={at}")
    assert response.status_code == 400 and str(nearest) in response.content.decode()


def test_the_game_page_its_game_over_screen_and_the_profile_link_to_the_replay(alice, bob, client):
    running, _ = played_game(alice, bob, seed=32, answers=40, finish=False)
    finished, _ = played_game(alice, bob, seed=33, answers=60)
    client.force_login(alice.user)
    page = client.get(running.get_absolute_url()).content.decode()
    assert f'href="{_url(running)}"' in page
    over = client.get(finished.get_absolute_url()).content.decode()
    assert re.search(rf'id="replay-link" href="{re.escape(_url(finished))}"', over)
    profile = client.get(f"/players/{alice.pk}/").content.decode()
    assert f'href="{_url(running)}"' in profile and f'href="{_url(finished)}"' in profile


def test_the_other_seats_choices_are_not_named_while_the_game_runs(alice, bob):
    game, _ = played_game(alice, bob, seed=34, answers=200, finish=False)
    me = game.seats.get(player=alice).engine_name
    tl = services.timeline(game, alice)
    theirs = [a for a in tl.answers if a.player != me]
    assert {a.label for a in theirs if a.kind not in ("choose_dungeon", "choose_room")} <= {
        None,
        "pass",
    }
    assert any(a.label is None for a in theirs) and any(a.label == "pass" for a in theirs)
    mine = [a for a in tl.answers if a.player == me]
    assert all(a.label is not None for a in mine)


def test_the_life_chart_puts_each_turn_and_life_where_the_axes_say():
    from game.board.lifechart import life_chart

    turns = tuple(range(27))
    life = (tuple(20 - t for t in turns), tuple([20] * 27))
    chart = life_chart(("a", "b"), {"a": "Ann"}, turns, life, current_turn=13)
    left, top, right, bottom = chart.plot
    first, second = chart.lines
    assert first.player == "Ann" and second.player == "b"
    assert len(first.dots) == 27 and first.dots[0][0] == left and first.dots[-1][0] == right
    zero = next(t.at for t in chart.y_ticks if t.label == "0")
    twenty = next(t.at for t in chart.y_ticks if t.label == "20")
    assert first.dots[0][1] == twenty == top and first.dots[20][1] == zero
    assert first.dots[-1][1] == bottom > zero  # -6, the lowest life, at the bottom
    assert chart.marker == first.dots[13][0]
    labels = [t.label for t in chart.x_ticks]
    assert labels[0] == "0" and labels[-1] == "26" and len(labels) <= 14


def test_the_life_charts_names_have_room_beside_it_and_a_long_one_is_shortened():
    from game.board.lifechart import life_chart

    names = {"a": "Computer (Medium)", "b": "Bartholomew the Unhurried Wanderer"}
    chart = life_chart(("a", "b"), names, (0, 1), ((20, 18), (20, 20)))
    labels = [line.label for line in chart.lines]
    assert labels == ["Computer (Medium) 18", "Bartholomew the Unh… 20"]
    assert chart.lines[1].player == names["b"]  # whole in the tooltips and the description
    # the label starts 8 px after the line's end (replay.html); 7.7 px a character at 12 px bold
    assert all(chart.plot[2] + 8 + 7.7 * len(label) <= chart.width for label in labels)


def test_the_summary_counts_a_source_fighting_its_namesake_under_its_name(alice, bob):
    """When two Dungeon Crawlers fight, the log names whose dealt the damage ("alice's Dungeon
    Crawler deals 2 damage to Dungeon Crawler (bob's)"); the summary's table still counts each
    source by its name, in one row."""
    text = """
name: Two Crawlers
players: [alice, bob]
turn: {number: 3, active: alice, step: precombat_main}
setup:
  alice: {battlefield: [Dungeon Crawler], library: [Swamp, Swamp]}
  bob: {battlefield: [Dungeon Crawler], library: [Swamp, Swamp]}
"""
    game = start_from_text(alice, bob, text)
    game = answer(game, alice, ["Dungeon Crawler"])
    while (d := pending(game)).kind != "declare_blockers":
        game = answer(game, alice if d.player == "Alice" else bob, "pass")
    game = answer(game, bob, ["Dungeon Crawler blocks Dungeon Crawler"])
    services.concede(game.pk, bob)
    game.refresh_from_db()
    tl = services.timeline(game, None)
    assert any(line.startswith("alice's Dungeon Crawler deals 2") for line in tl.log(tl.last))
    rows = {d.source: d.total for d in services.summary(tl).damage}
    assert rows == {"Dungeon Crawler": 4}, rows
