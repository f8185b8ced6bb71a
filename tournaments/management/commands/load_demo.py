"""Load a small demo tournament with demo logins (idempotent)."""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from tournaments.models.people import Player
from tournaments.models.results import ResultVersion
from tournaments.models.tournament import Entry, Tournament
from tournaments.permissions.roles import ORGANISERS_GROUP
from tournaments.results.entry import confirm_result, enter_result
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import close_tournament, publish_round

DEMO_PASSWORD = "thud-demo"  # noqa: S105 - a published demo login, never used in production
DEMO_PLAYERS = [
    ("Agnes Nitt", "Lancre", "GB"),
    ("Carrot Ironfoundersson", "Ankh-Morpork", "GB"),
    ("Cheery Littlebottom", "Ankh-Morpork", "GB"),
    ("Detritus", "Ankh-Morpork", "GB"),
    ("Brick", "Ankh-Morpork", "GB"),
    ("Grag Bashfullsson", "Überwald", "DE"),
    ("Mr Shine", "Koom Valley", "NO"),
    ("Rhys Rhysson", "Llamedos", "IT"),
]


class Command(BaseCommand):
    help = "Create demo users and a small Swiss tournament (safe to run twice)."

    @transaction.atomic
    def handle(self, *args, **options) -> None:
        UserModel = get_user_model()

        def user(username: str, **extra: object) -> User:
            u, created = UserModel.objects.get_or_create(username=username, defaults=extra)
            if created:
                u.set_password(DEMO_PASSWORD)
                u.save()
            return u

        organiser = user("organiser", is_staff=True)
        # The organiser role (may create tournaments) is the group, not is_staff.
        Group.objects.get_or_create(name=ORGANISERS_GROUP)[0].user_set.add(organiser)
        referees = [user("referee1"), user("referee2")]
        tournament, created = Tournament.objects.get_or_create(
            slug="ankh-morpork-open",
            defaults={
                "name": "Ankh-Morpork Open",
                "venue": "The Mended Drum",
                "start_date": datetime.date.today(),
                "rounds": 4,
                "owner": organiser,
                "pairing_seed": 2002,
            },
        )
        tournament.referees.add(*referees)
        for seed, (name, club, country) in enumerate(DEMO_PLAYERS, start=1):
            player, _ = Player.objects.get_or_create(
                name=name, defaults={"club": club, "country": country}
            )
            if player.user_id is None:
                player.user = user(f"player{seed}")
                player.save(update_fields=["user"])
            Entry.objects.get_or_create(
                tournament=tournament, player=player, defaults={"seed": seed, "checked_in": True}
            )
        if not tournament.round_set.exists():
            # Round 1 paired and published, half its results confirmed: the demo has standings.
            round_ = publish_round(
                pair_next_round(tournament, by=organiser, now=timezone.now()), now=timezone.now()
            )
            demo_results = [(20, 2, 14, 3), (8, 5, 25, 1)]
            for match, survivors in zip(
                round_.matches.filter(player_b__isnull=False), demo_results, strict=False
            ):
                # Two people for every result: one referee enters, the other confirms.
                version = enter_result(
                    match,
                    survivors=survivors,
                    by=referees[0],
                    expected_lock_version=None,
                    now=timezone.now(),
                )
                confirm_result(
                    match,
                    version_id=version.pk,
                    by=referees[1],
                    expected_lock_version=None,
                    now=timezone.now(),
                )
        self._quickfire_demo(organiser, referees)
        self._rated_demo(organiser)
        verb = "Created" if created else "Kept"
        self.stdout.write(
            f"{verb} demo tournament '{tournament.slug}' with {len(DEMO_PLAYERS)} players."
        )

    def _quickfire_demo(self, organiser, referees) -> None:
        """A timed quickfire event (24 moves, 15 s + 5 s) to try online play and clocks."""
        tournament, created = Tournament.objects.get_or_create(
            slug="quickfire-cup",
            defaults={
                "name": "Quickfire Thud Cup",
                "venue": "Unseen University, Great Hall",
                "start_date": datetime.date.today(),
                "rounds": 3,
                "variant": Tournament.Variant.TIMED_24,
                "owner": organiser,
                "pairing_seed": 1989,
            },
        )
        tournament.referees.add(*referees)
        for seed, player in enumerate(
            Player.objects.filter(
                user__username__in=["player1", "player2", "player3", "player4"]
            ).order_by("user__username"),
            start=1,
        ):
            Entry.objects.get_or_create(
                tournament=tournament, player=player, defaults={"seed": seed, "checked_in": True}
            )
        if created and not tournament.round_set.exists():
            publish_round(
                pair_next_round(tournament, by=organiser, now=timezone.now()), now=timezone.now()
            )
        self.stdout.write(f"Demo quickfire tournament '{tournament.slug}': round 1 ready to play.")

    def _rated_demo(self, organiser) -> None:
        """A finished two-round event, so the ratings pages have something to show."""
        tournament, created = Tournament.objects.get_or_create(
            slug="lancre-spring",
            defaults={
                "name": "Lancre Spring Rapid",
                "venue": "Lancre Castle",
                "start_date": datetime.date.today() - datetime.timedelta(days=30),
                "rounds": 2,
                "owner": organiser,
                "pairing_seed": 1066,
            },
        )
        if not created:
            return
        players = Player.objects.filter(name__in=[name for name, _c, _n in DEMO_PLAYERS])
        for seed, player in enumerate(players.order_by("name"), start=1):
            Entry.objects.create(tournament=tournament, player=player, seed=seed)
        results = [(20, 2, 14, 3), (8, 5, 25, 1), (12, 4, 12, 4), (3, 6, 30, 0)]
        for _number in (1, 2):
            round_ = publish_round(
                pair_next_round(tournament, by=organiser, now=timezone.now()), now=timezone.now()
            )
            for match, survivors in zip(
                round_.matches.filter(player_b__isnull=False), results, strict=False
            ):
                record_final_result(
                    match,
                    survivors=survivors,
                    by=None,
                    source=ResultVersion.Source.IMPORT,
                    now=timezone.now(),
                )
            results.reverse()
        close_tournament(tournament, now=timezone.now())
        self.stdout.write(f"Demo rated tournament '{tournament.slug}': closed and rated.")
