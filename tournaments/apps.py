from __future__ import annotations

from django.apps import AppConfig, apps
from django.utils.translation import gettext_lazy as _

from tournaments.rules import scales


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def import_models(self) -> None:
        # The games' result scales, before the models: the result models' choices and
        # database check are built from them (``tournaments.contributions``).
        for config in apps.get_app_configs():
            if isinstance(config, scales.OffersGameScales):
                scales.register(config.game_scales)
        super().import_models()

    def ready(self) -> None:
        from django.db.models.signals import m2m_changed

        from tournaments.models.tournament import Tournament
        from tournaments.permissions.roles import forget_appointments

        for field in (Tournament.co_organisers, Tournament.referees):
            m2m_changed.connect(forget_appointments, sender=field.through)
