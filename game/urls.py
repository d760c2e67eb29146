from django.contrib import admin
from django.urls import include, path

from game import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/new/", views.create_game, name="create_game"),
    path("games/computer/", views.play_computer, name="play_computer"),
    path("seek/", views.play_now, name="play_now"),
    path("seek/status/", views.seek_status, name="seek_status"),
    path("seek/cancel/", views.cancel_seek, name="cancel_seek"),
    path("seeks/", views.seek_list, name="seek_list"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("turns/", views.your_turns, name="your_turns"),
    path("turns.json", views.turns_json, name="turns_json"),
    path("accounts/mail/", views.turn_mail_settings, name="turn_mail_settings"),
    path("mail/off/<str:token>/", views.turn_mail_off, name="turn_mail_off"),
    path("g/<str:code>/", views.game_page, name="game"),
    path("g/<str:code>/watch/", views.watch_game, name="watch_game"),
    path("g/<str:code>/join/", views.join_game, name="join_game"),
    path("g/<str:code>/act/", views.game_act, name="game_act"),
    path("g/<str:code>/chat/", views.game_chat, name="game_chat"),
    path("g/<str:code>/rematch/", views.rematch, name="rematch"),
    path("g/<str:code>/cancel/", views.cancel_game, name="cancel_game"),
    path("g/<str:code>/scenario.yaml", views.scenario_file, name="scenario_file"),
    path("g/<str:code>/replay/", views.replay, name="replay"),
    path("g/<str:code>/replay/scenario.yaml", views.replay_scenario, name="replay_scenario"),
    path("g/<str:code>/replay/play-on/", views.replay_play_on, name="replay_play_on"),
    path("cards.json", views.card_texts, name="card_texts"),
    path("dungeons/<int:card_id>/try/", views.try_dungeon, name="try_dungeon"),
    path("players/<int:pk>/", views.profile, name="profile"),
    path("me/", views.my_profile, name="my_profile"),
    path("accounts/guest/", views.guest, name="guest"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.login_view, name="login"),
    path("accounts/logout/", views.logout_view, name="logout"),
    path("accounts/", views.account, name="account"),
    path("admin/", admin.site.urls),
    path("", include("learn.urls")),  # Learn and Puzzles (learn/urls.py)
]
