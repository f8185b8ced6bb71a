"""Casual play (``/play/``): challenges and seeks, your games, statistics, the engine league, notifications."""

from __future__ import annotations

from django.urls import path

from . import views, views_league

app_name = "play"
urlpatterns = [
    path("", views.start, name="start"),
    path("challenge/<int:challenge_id>/<str:action>/", views.answer, name="answer"),
    path("computer/", views.play_computer, name="computer"),
    path("users/", views.users, name="users"),
    path("games/", views.my_games, name="games"),
    path("stats/", views.stats, name="stats"),
    path("league/", views_league.league, name="league"),
    path("settings/", views.notifications, name="settings"),
    path("settings/bot/", views.become_bot, name="become_bot"),
]
