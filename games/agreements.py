"""What a battle's two players settle between themselves, beside ``games.battles``' end
offer: withdrawing one's own end offer.

Terminology and invariants:
- ``end_offered_by`` is the side key of the player whose offer to end the battle stands
  (``""``: none). Only that player withdraws it; the opponent accepts or declines it
  (``battles.accept_end`` / ``battles.decline_end``). Like an offer, a withdrawal does not
  touch the clock (no ``clock_version`` bump, so a move in flight still lands) and is
  published on commit so both pages show it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from . import battles
from .models import Battle


def withdraw_end(battle_id: int, *, side: str) -> Battle:
    """Withdraw ``side``'s own offer to end the battle; ``NotAllowed`` if it has none."""
    withdrawn = (
        Battle.objects.filter(pk=battle_id, end_offered_by=side)
        .exclude(end_offered_by="")
        .update(end_offered_by="")
    )
    if not withdrawn:
        raise battles.NotAllowed(_("You have no offer to end the battle to withdraw."))
    battle = Battle.objects.get(pk=battle_id)
    transaction.on_commit(
        lambda: battles.after_commit(battle.pk, battle.clock_version, battle.clock_state, "")
    )
    return battle
