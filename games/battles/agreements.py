"""What a battle's two players settle between themselves, beside ``games.battles``' end
offer: withdrawing one's own end offer, and resuming a paused casual battle.

Terminology and invariants:
- ``end_offered_by`` is the side key of the player whose offer to end the battle stands
  (``""``: none). Only that player withdraws it; the opponent accepts or declines it
  (``accept_end`` / ``decline_end``). Like an offer, a withdrawal does not
  touch the clock (no ``clock_version`` bump, so a move in flight still lands) and is
  published on commit so both pages show it.
- A casual battle has no referee, so a pause (a server outage, whatever the reason) ends
  when both players ask for it: the first ask is recorded in ``resume_asked_by`` with the
  ``clock_version`` it leaves (a compare-and-set write that bumps the version, so both
  pages refetch; the clock is stopped, so no move is in flight); the other player's ask
  resumes the battle through ``resume``. An ask counts only while the version is
  the one it left (``Battle.resume_asked``): whatever resumes the battle (a referee, the
  outage tick's bulk write) bumps it, so an old ask never resumes a later pause. A
  tournament battle is resumed by its referee.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.battles.errors import NotAllowed
from games.battles.play import REASON_AGREEMENT
from games.battles.referee import resume
from games.battles.store import on_commit_publish
from games.models.battle import Battle
from games.models.history import ClockEvent


def withdraw_end(battle_id: int, *, side: str, now: datetime) -> Battle:
    """Withdraw ``side``'s own offer to end the battle; ``NotAllowed`` if it has none."""
    withdrawn = (
        Battle.objects.filter(pk=battle_id, end_offered_by=side)
        .exclude(end_offered_by="")
        .update(end_offered_by="")
    )
    if not withdrawn:
        raise NotAllowed(_("You have no offer to end the battle to withdraw."))
    battle = Battle.objects.get(pk=battle_id)
    on_commit_publish(battle, now=now, offer="")
    return battle


def ask_resume(battle_id: int, *, side: str, now: datetime) -> Battle:
    """``side`` asks to resume a paused casual battle: recorded if the opponent has not
    asked yet, else the battle resumes. Asking again changes nothing."""
    with transaction.atomic():
        # Locked, so two first asks at once make one ask and one resume, not two asks.
        battle = Battle.objects.select_for_update().get(pk=battle_id)
        if not battle.is_casual:
            raise NotAllowed(_("A referee resumes a tournament battle."))
        if battle.status != Battle.Status.PAUSED:
            raise NotAllowed(_("This battle is not paused."))
        if battle.resume_asked == side:
            return battle
        if battle.resume_asked:
            return resume(battle_id, now=now, reason=REASON_AGREEMENT, via=ClockEvent.Via.PLAYER)
        version = battle.clock_version
        Battle.objects.filter(pk=battle_id, clock_version=version).update(
            resume_asked_by=side,
            resume_asked_version=version + 1,
            clock_version=version + 1,
            updated_at=now,
        )
        battle.resume_asked_by, battle.clock_version = side, version + 1
        battle.resume_asked_version = version + 1
        on_commit_publish(battle, now=now)
    return battle
