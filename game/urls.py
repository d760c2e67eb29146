from django.contrib import admin
from django.urls import include, path

from game.views import accounts, dungeon_editor, game_page, lobby, profiles, replays

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("games/new/", lobby.create_game, name="create_game"),
    path("games/computer/", lobby.play_computer, name="play_computer"),
    path("seek/", lobby.play_now, name="play_now"),
    path("seek/status/", lobby.seek_status, name="seek_status"),
    path("seek/cancel/", lobby.cancel_seek, name="cancel_seek"),
    path("seeks/", lobby.seek_list, name="seek_list"),
    path("leaderboard/", profiles.leaderboard, name="leaderboard"),
    path("turns/", lobby.your_turns, name="your_turns"),
    path("turns.json", lobby.turns_json, name="turns_json"),
    path("accounts/mail/", accounts.turn_mail_settings, name="turn_mail_settings"),
    path("mail/off/<str:token>/", accounts.turn_mail_off, name="turn_mail_off"),
    path("g/<str:code>/", game_page.game_page, name="game"),
    path("g/<str:code>/watch/", game_page.watch_game, name="watch_game"),
    path("g/<str:code>/join/", game_page.join_game, name="join_game"),
    path("g/<str:code>/act/", game_page.game_act, name="game_act"),
    path("g/<str:code>/chat/", game_page.game_chat, name="game_chat"),
    path("g/<str:code>/rematch/", game_page.rematch, name="rematch"),
    path("g/<str:code>/cancel/", game_page.cancel_game, name="cancel_game"),
    path("g/<str:code>/scenario.yaml", game_page.scenario_file, name="scenario_file"),
    path("g/<str:code>/replay/", replays.replay, name="replay"),
    path("g/<str:code>/replay/scenario.yaml", replays.replay_scenario, name="replay_scenario"),
    path("g/<str:code>/replay/play-on/", replays.replay_play_on, name="replay_play_on"),
    path("cards.json", game_page.card_texts, name="card_texts"),
    path("dungeons/<int:card_id>/try/", dungeon_editor.try_dungeon, name="try_dungeon"),
    path("players/<int:pk>/", profiles.profile, name="profile"),
    path("me/", profiles.my_profile, name="my_profile"),
    path("accounts/guest/", accounts.guest, name="guest"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.login_view, name="login"),
    path("accounts/logout/", accounts.logout_view, name="logout"),
    path("accounts/", accounts.account, name="account"),
    path("admin/", admin.site.urls),
    path("", include("learn.urls")),  # Learn and Puzzles (learn/urls.py)
]
