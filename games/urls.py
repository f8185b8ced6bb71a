"""Battle URLs: public/player routes first, then the referee's (``referee/...``)."""

from __future__ import annotations

from django.urls import path

from games.web import views, views_events, views_hall, views_records, views_referee

app_name = "games"
urlpatterns = [
    path("<int:battle_id>/", views.battle_page, name="battle"),
    path("notices/events/", views_events.notices_events, name="notices"),
    path(
        "tournaments/<slug:slug>/events/", views_events.tournament_events, name="tournament_events"
    ),
    path("<int:battle_id>/diagram/", views.battle_diagram, name="diagram"),
    path("<int:battle_id>/record.txt", views_records.battle_record, name="record"),
    path("<int:battle_id>/replay/", views_records.replay, name="replay"),
    path("<int:battle_id>/analyse/", views_records.analyse, name="analyse"),
    path("<int:battle_id>/analysis/", views_records.analysis_status, name="analysis"),
    path("<int:battle_id>/events/", views_events.battle_events, name="events"),
    path("<int:battle_id>/touch/", views.touch, name="touch"),
    path("<int:battle_id>/move/", views.move, name="move"),
    path("<int:battle_id>/nudge/", views.nudge, name="nudge"),
    path("<int:battle_id>/ready/", views.ready, name="ready"),
    path("<int:battle_id>/no-show/", views.no_show, name="no_show"),
    path("<int:battle_id>/end/<str:action>/", views.end_offer, name="end"),
    path("<int:battle_id>/resume/", views.ask_resume, name="resume"),
    path("<int:battle_id>/resign/", views.resign_battle, name="resign"),
    path("match/<int:match_id>/", views.match_battles, name="match"),
    path("hall/<slug:slug>/", views_hall.hall_battles, name="hall_battles"),
    path("hall/<slug:slug>/events/", views_hall.hall_events, name="hall_events"),
    path("match/<int:match_id>/online/", views.start_online, name="start_online"),
    # Referee routes (every view gates with access_*_for_referee).
    path("referee/<int:battle_id>/", views_referee.referee_clock, name="referee_clock"),
    path("referee/<int:battle_id>/moves/", views_referee.enter_otb_moves, name="otb_moves"),
    path("referee/<int:battle_id>/survivors/", views_referee.survivors, name="survivors"),
    path("referee/<int:battle_id>/beat/", views_referee.referee_beat, name="referee_beat"),
    path(
        "referee/<int:battle_id>/<str:action>/", views_referee.referee_action, name="referee_action"
    ),
    path("referee/match/<int:match_id>/otb/", views_referee.start_otb, name="start_otb"),
    path("referee/round/<int:round_id>/pause/", views_referee.pause_round, name="pause_round"),
]
