"""The refusals of the battle workflows: a message for the user, and nothing changed."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    from games.models.battle import Battle


class BattleError(Exception):
    """A refused action; ``message`` is shown to the user and nothing changed."""

    def __init__(self, message: StrOrPromise) -> None:
        super().__init__(str(message))
        self.message = message


class StaleVersion(BattleError):
    pass


class NotAllowed(BattleError):
    pass


class UnreadableRecord(NotAllowed):
    """The battle's stored board cannot be read by its engine (an imported or damaged row,
    issue 40): nothing may be played, touched or offered on it; its pages say so."""

    def __init__(self, message: StrOrPromise, battle: Battle) -> None:
        super().__init__(message)
        self.battle = battle


class InvalidInput(NotAllowed):
    """Refused for what was sent (not a square of the board, not a legal move), whatever
    the battle's state; the other refusals conflict with the state (stale, out of turn)."""
