from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = _("Play")

    def ready(self) -> None:
        from games.signals import turn_changed

        from . import notify

        turn_changed.connect(notify.on_turn_changed, dispatch_uid="play.notify.turn_changed")
