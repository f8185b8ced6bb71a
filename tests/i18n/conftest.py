"""A small running tournament with every role, for rendering each kind of page."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_battles
from games.models.battle import Battle
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments.permissions.roles import ORGANISERS_GROUP
from tournaments.results.entry import enter_result
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

# Discworld names: none of them is an English UI word the page tests look for.
NAMES = ["Rincewind", "Vimes", "Angua", "Detritus"]


@pytest.fixture
def world(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    organiser = UserFactory(username="vetinari")
    organiser.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    referees = [UserFactory(username="carrot"), UserFactory(username="cheery")]
    t = TournamentFactory(
        name="Ankh-Morpork 2026", slug="ankh", owner=organiser, rounds=3, variant="timed24"
    )
    t.referees.add(*referees)
    users = [UserFactory(username=name.lower()) for name in NAMES]
    entries = [
        EntryFactory(tournament=t, seed=i + 1, player=PlayerFactory(name=name, user=user))
        for i, (name, user) in enumerate(zip(NAMES, users, strict=True))
    ]
    round_ = publish_round(pair_next_round(t, by=organiser, now=timezone.now()), now=timezone.now())
    drawn, played = round_.matches.order_by("table")
    # A drawn match (Sonneborn–Berger halves in the standings) ...
    record_final_result(
        drawn, survivors=(10, 1, 10, 1), by=organiser, source="import", now=timezone.now()
    )
    # ... and one with its battles started and a result awaiting confirmation.
    battle1, _battle2 = create_battles(played, mode=Battle.Mode.OTB, now=timezone.now())
    played.refresh_from_db()
    enter_result(
        played,
        survivors=(20, 2, 15, 3),
        by=referees[0],
        expected_lock_version=played.lock_version,
        now=timezone.now(),
    )
    # A Swiss top 2 whose final was drawn: the bracket page with a playoff to come.
    cup = TournamentFactory(name="Lancre Cup", slug="lancre", owner=organiser, rounds=1, top_cut=2)
    for i, name in enumerate(("Magrat", "Nanny Ogg", "Granny", "Agnes"), start=1):
        EntryFactory(tournament=cup, seed=i, player=PlayerFactory(name=name))
    for _stage in ("swiss", "final"):
        for m in publish_round(
            pair_next_round(cup, by=organiser, now=timezone.now()), now=timezone.now()
        ).matches.all():
            record_final_result(
                m, survivors=(8, 2, 8, 2), by=organiser, source="import", now=timezone.now()
            )
    slug = t.slug
    player_user = played.player_a.player.user
    pages = {
        "home": ("/", None),
        "rules": (reverse("rules"), None),
        "tournament": (reverse("tournament", args=[slug]), None),
        "standings": (reverse("standings", args=[slug]), None),
        "pairings": (reverse("round_pairings", args=[slug, 1]), None),
        "player": (reverse("player", args=[slug, entries[0].pk]), None),
        "site statistics": (reverse("site_stats"), None),
        "engine league": (reverse("play:league"), None),
        "tournament statistics": (reverse("tournament_stats", args=[slug]), None),
        "player statistics": (reverse("player_stats", args=[entries[0].player_id]), None),
        "crosstable": (reverse("crosstable", args=[slug]), None),
        "final report": (reverse("report", args=[slug]), None),
        "login": (reverse("login"), None),
        "register": (reverse("register"), None),
        "not found": ("/no-such-page/", None),
        "battle": (reverse("games:battle", args=[battle1.pk]), player_user),
        "match battles": (reverse("games:match", args=[played.pk]), referees[0]),
        "referee clock": (reverse("games:referee_clock", args=[battle1.pk]), referees[0]),
        "referee round": (reverse("referee_round", args=[slug, 1]), referees[0]),
        "referee match (to confirm)": (
            reverse("referee_match", args=[slug, played.pk]),
            referees[1],
        ),
        "referee match (confirmed)": (reverse("referee_match", args=[slug, drawn.pk]), referees[0]),
        "player my matches": (reverse("referee_my_matches"), player_user),
        "player claim": (reverse("claim_player"), player_user),
        "organiser dashboard": (reverse("organiser_dashboard", args=[slug]), organiser),
        "organiser round": (reverse("organiser_round", args=[slug, 1]), organiser),
        "organiser pairings print": (
            reverse("organiser_round_print", args=[slug, 1, "pairings"]),
            organiser,
        ),
        "organiser slips": (reverse("organiser_round_print", args=[slug, 1, "slips"]), organiser),
        "organiser new tournament": (reverse("organiser_new"), organiser),
        "bracket": (reverse("bracket", args=["lancre"]), None),
        "organiser dashboard (playoff sides)": (
            reverse("organiser_dashboard", args=["lancre"]),
            organiser,
        ),
    }
    return SimpleNamespace(
        tournament=t, organiser=organiser, referees=referees, pages=pages, battle=battle1
    )
