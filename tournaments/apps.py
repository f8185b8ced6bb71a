from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from django.db.models.signals import m2m_changed

        from tournaments.models.tournament import Tournament
        from tournaments.permissions.roles import forget_appointments

        for field in (Tournament.co_organisers, Tournament.referees):
            m2m_changed.connect(forget_appointments, sender=field.through)
