"""Shared by the record tests: a deterministic game with captures, played by the engine."""

from __future__ import annotations

from django.urls import reverse

from games.models.battle import Battle
from games.thud import Position, format_move

HX = {"HTTP_HX_REQUEST": "true"}


def greedy_game(plies: int, policy: str = "subset", *, forfeit_at: int | None = None):
    """``plies`` plies preferring the most captures (then the first move in order);
    ``forfeit_at``: that ply is a forfeited turn (``None``). Returns (moves, final)."""
    position = Position.initial()
    moves: list[str | None] = []
    for ply in range(plies):
        if ply == forfeit_at:
            moves.append(None)
            position = position.pass_turn()
            continue
        legal = position.legal_moves(policy)
        if not legal:
            break
        best = max(legal, key=lambda m: (len(m.captures), -legal.index(m)))
        moves.append(format_move(best))
        position = position.apply(best)
    return moves, position


def play_through_site(client, battle: Battle, plies: int, *, forfeit_at=None) -> Battle:
    """Play the greedy game through the move endpoint, as the players' browsers do
    (the ply ``forfeit_at`` must already have been forfeited on the clock)."""
    moves, _ = greedy_game(plies, battle.capture_policy, forfeit_at=forfeit_at)
    for text in moves:
        if text is None:
            continue
        battle = Battle.objects.get(pk=battle.pk)
        side = battle.side_to_move
        client.force_login(
            (battle.first_entry if side == "dwarf" else battle.second_entry).player.user
        )
        frm, rest = text[2:].split("-", 1)
        to, *caps = rest.split(" x")
        data = {"from": frm, "to": to, "version": battle.clock_version, "confirm": "1"}
        data["captures"] = caps
        r = client.post(reverse("games:move", args=[battle.pk]), data, **HX)
        assert r.status_code == 200 and b"error-box" not in r.content, text
    return Battle.objects.get(pk=battle.pk)
