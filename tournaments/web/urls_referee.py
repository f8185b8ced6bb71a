"""Referee pages (``/referee/``); players of a match use the match pages for their own match."""

from __future__ import annotations

from django.urls import path

from tournaments.web import views_desk
from tournaments.web import views_referee as views

urlpatterns = [
    path("my/", views.my_matches, name="referee_my_matches"),
    path("t/<slug:slug>/desk/", views_desk.desk, name="desk"),
    path("t/<slug:slug>/desk/<int:entry_id>/", views_desk.desk_check_in, name="desk_check_in"),
    path("t/<slug:slug>/desk/<int:entry_id>/skip/", views_desk.desk_skip, name="desk_skip"),
    path("t/<slug:slug>/rounds/<int:number>/", views.round_view, name="referee_round"),
    path("t/<slug:slug>/matches/<int:match_id>/", views.match_view, name="referee_match"),
    path(
        "t/<slug:slug>/matches/<int:match_id>/result",
        views.result_enter,
        name="referee_result",
    ),
    path(
        "t/<slug:slug>/matches/<int:match_id>/preview",
        views.result_preview,
        name="referee_result_preview",
    ),
    path(
        "t/<slug:slug>/matches/<int:match_id>/confirm",
        views.result_confirm,
        name="referee_result_confirm",
    ),
    path(
        "t/<slug:slug>/matches/<int:match_id>/correct",
        views.result_correct,
        name="referee_result_correct",
    ),
    path(
        "t/<slug:slug>/matches/<int:match_id>/decide",
        views.result_decide,
        name="referee_result_decide",
    ),
]
