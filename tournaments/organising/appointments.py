"""Appointing and removing a tournament's referees and co-organisers, and the site's
organiser role (the "Organisers" group a superuser manages on /manage/organisers/).

Invariants: only an active account is appointed (a deactivated account cannot log in, and
the role would come back unnoticed with the account); the owner is never a co-organiser
of their own tournament; removing someone who does not hold the role changes nothing and
says so. Who may call these is decided by the ``tournaments.permissions`` (``access_*``) gates.
"""

from __future__ import annotations

from django.contrib.auth.models import Group, User
from django.utils.translation import gettext as _

from tournaments.models.tournament import Tournament
from tournaments.permissions.roles import ORGANISERS_GROUP


class AppointmentError(ValueError):
    """An appointment or removal refused; the message is shown to the organiser."""


def _names(user: User) -> dict[str, str]:
    return {"name": user.get_username()}


def _require_active(user: User) -> None:
    if not user.is_active:
        raise AppointmentError(
            _("The account %(name)s is deactivated and cannot be appointed.") % _names(user)
        )


def appoint_referee(tournament: Tournament, user: User) -> None:
    _require_active(user)
    tournament.referees.add(user)


def remove_referee(tournament: Tournament, user: User) -> None:
    if not tournament.referees.filter(pk=user.pk).exists():
        raise AppointmentError(
            _("%(name)s is not a referee of this tournament; nothing changed.") % _names(user)
        )
    tournament.referees.remove(user)


def appoint_co_organiser(tournament: Tournament, user: User) -> None:
    if user.pk == tournament.owner_id:
        raise AppointmentError(_("The owner organises this tournament already."))
    _require_active(user)
    tournament.co_organisers.add(user)


def remove_co_organiser(tournament: Tournament, user: User) -> None:
    if not tournament.co_organisers.filter(pk=user.pk).exists():
        raise AppointmentError(
            _("%(name)s is not a co-organiser of this tournament; nothing changed.") % _names(user)
        )
    tournament.co_organisers.remove(user)


def organisers_group() -> Group:
    # Created by a migration; recreated here if someone deleted it in the admin.
    return Group.objects.get_or_create(name=ORGANISERS_GROUP)[0]


def grant_organiser_role(user: User) -> None:
    _require_active(user)
    organisers_group().user_set.add(user)


def revoke_organiser_role(user: User) -> None:
    group = organisers_group()
    if not group.user_set.filter(pk=user.pk).exists():
        raise AppointmentError(_("%(name)s is not an organiser; nothing changed.") % _names(user))
    group.user_set.remove(user)
