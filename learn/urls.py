from django.urls import path

from . import views

urlpatterns = [
    path("learn/", views.learn, name="learn"),
    path("learn/<slug:slug>/start/", views.lesson_start, name="lesson_start"),
    path("puzzles/", views.puzzles, name="puzzles"),
    path("puzzles/daily/", views.puzzle_daily, name="puzzle_daily"),
    path("puzzles/<slug:slug>/", views.puzzle, name="puzzle"),
    path("puzzles/<slug:slug>/start/", views.puzzle_start, name="puzzle_start"),
    path("t/<str:code>/give-up/", views.training_give_up, name="training_give_up"),
    path("t/<str:code>/again/", views.training_again, name="training_again"),
    path("g/<str:code>/replay/puzzle/", views.puzzle_draft, name="puzzle_draft"),
]
