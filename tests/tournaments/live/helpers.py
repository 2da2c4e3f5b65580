"""Shared test helpers for live play."""

from __future__ import annotations

import json
from typing import Any

from django.utils import timezone

from ledger.models import Transfer, TransferKind
from ledger.settlement import pcr_transfers
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.models import Game, GameStatus, Round, Seat
from tournaments.live.rounds import start as round_start

# A player's cards (a natural card or a joker) as they would appear in a JSON body.
CARD_CODES = {r + s for r in "A23456789TJQK" for s in "SHDC"}


def simple_move(view: dict[str, Any]) -> dict[str, Any]:
    """A dull but always legal policy: draw from the stock, discard the first discardable card."""
    moves = view["legal_moves"]
    for kind in ("draw", "discard"):
        for move in moves:
            if move["type"] == kind and move.get("source", "stock") == "stock":
                return dict(move)
    return dict(moves[0])


def expected_transfers(round_: Round) -> list[dict[str, Any]]:
    """What the round's settlement must be: pcr_transfers of its recorded scores (docs/rules.md "Settlement
    (PCR)")."""
    game = Game.objects.select_related("table").get(pk=round_.game_id)
    players = list(round_.players)
    start = (round_.dealer + 1) % len(players)
    order = players[start:] + players[:start]
    return [
        {"from": a, "to": b, "amount": c, "kind": "settlement"}
        for a, b, c in pcr_transfers(
            scores=round_.scores or {},
            pcr=game.table.pcr * game.table.multiplier,
            stacks=round_.stacks,
            seat_order=order,
        )
    ]


def stacks(table_id: int) -> dict[str, int]:
    return {
        s.player.username: s.stack_account.balance
        for s in Seat.objects.filter(table_id=table_id)
        .exclude(status="left")
        .select_related("player", "stack_account")
    }


def hidden_cards(game: Game, viewer: str | None) -> set[str]:
    """Cards the viewer must not see now: other players' hands and the stock (empty once the round is over)."""
    from tournaments import engine

    if game.state is None:
        return set()
    state = engine.state_from_dict(game.state)
    if state.result is not None:
        return set()
    secret: set[str] = set(state.stock)
    for index, name in enumerate(state.players):
        if name != viewer:
            secret |= set(state.hands[index])
    mine = set(state.hand_of(viewer)) if viewer in state.players else set()
    visible = set(state.discard) | {c for m in state.melds for c in m.cards} | mine
    return {c for c in secret - visible if c in CARD_CODES}


def leaked(body: Any, secret: set[str]) -> set[str]:
    """Secret cards that appear as a JSON string anywhere in a response body."""
    text = body if isinstance(body, str) else json.dumps(body)
    return {c for c in secret if f'"{c}"' in text}


def settle_a_round_that_moves_chips(dealt: dict[str, Any], client_for: Any) -> Round:
    """Play rounds with the dull policy until one ends with a settlement (a tie would move nothing)."""
    game: Game = dealt["game"]
    clients = {name: client_for(user) for name, user in dealt["users"].items()}
    for _ in range(5):
        round_ = Round.objects.filter(game=game).order_by("-number").first()
        assert round_ is not None
        for _ in range(500):
            round_.refresh_from_db()
            if round_.ended_at is not None:
                break
            game.refresh_from_db()
            view = clients[game.turn_player].get(f"/api/v1/games/{game.pk}/").json()
            move = {**simple_move(view), "expected_version": view["version"]}
            answer = clients[game.turn_player].post(f"/api/v1/games/{game.pk}/moves/", move)
            assert answer.status_code == 200, answer.content
        round_.refresh_from_db()
        assert round_.settled
        if Transfer.objects.filter(round_id=round_.pk, kind=TransferKind.SETTLEMENT).exists():
            return round_
        assert round_start.start_round(game_id=game.pk) is not None
    raise AssertionError("five rounds in a row ended without moving chips")


def play_out_by_clock(game: Game) -> Round:
    """The running round played to its end by the server (each turn's clock made due, each claim window
    closed); seats are late, never absent, so they stay for the next deal. Returns the settled round."""
    number = Round.objects.filter(game=game).count()
    for _ in range(1000):
        game.refresh_from_db()
        if game.status != GameStatus.PLAYING:
            round_ = Round.objects.get(game=game, number=number)
            assert round_.settled
            return round_
        if game.claims_deadline is not None:
            Game.objects.filter(pk=game.pk).update(claims_deadline=timezone.now())
            assert clock_runs.run_close_claims(game_id=game.pk, version=game.version)
        else:
            Seat.objects.filter(table_id=game.table_id).update(timeouts_in_row=0)
            Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now())
            assert clock_runs.run_turn_clock(game_id=game.pk, version=game.turn_version)
    raise AssertionError("the round did not end")
