"""The smoke test's satellite chain (steps), over HTTP on the embedded default (docs/rules.md "Tickets and
satellites"): the demo admin creates a multi-table satellite whose prizes are tickets to the demo's tournament,
and a sit-and-go satellite whose one seat is a ticket to that multi-table satellite. Two new players play the
sit-and-go to its end; its winner finds the ticket in `GET /me/tickets/` and enters the multi-table satellite with
it, paying no chips, beside new players paying theirs; that satellite is played with the engine's greedy bot
until the players left fit its seats, and each winner enters the demo's tournament with the ticket won."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from . import multi
from .api import Client, expect, fund, register
from .stack import Stack

ENTRANTS = 4
FUNDING = 1_000
DEMO_TOURNAMENT = "Demo multi-table"


def run(stack: Stack, log: Any, *, admin: Client, staff: Client) -> None:
    listed = admin.call("GET", "/tournaments/?status=registering&page_size=100")["results"]
    demo = next((t for t in listed if t["name"] == DEMO_TOURNAMENT), None)
    expect(demo is not None, f"the demo's tournament {DEMO_TOURNAMENT!r} is not registering: {listed}")
    assert demo is not None
    face = demo["buy_in"] + demo["fee"]
    buy_in = -(-2 * face // ENTRANTS)  # two seats: the pool is at least twice the face value
    settings = {
        **multi.TOURNAMENT,
        "name": f"Smoke satellite {uuid.uuid4().hex[:6]}",
        "buy_in": buy_in,
        "fee": 0,
        "payouts": [100],
        "satellite_target": demo["id"],
        "starts_at": (datetime.now(UTC) + timedelta(hours=1)).isoformat(),
    }
    satellite = admin.call("POST", "/tournaments/", expect=(201,), json=settings)
    sid = satellite["id"]
    qualifier = _sit_and_go_step(stack, log, admin=admin, step2=sid, face=buy_in)
    before = qualifier.call("GET", "/wallet/")["balance"]
    qualifier.call("POST", f"/tournaments/{sid}/register/", expect=(201,), json={"payment": "ticket"})
    expect(qualifier.call("GET", "/me/tickets/")["tickets"] == [], f"{qualifier.username}'s ticket not spent")
    expect(
        qualifier.call("GET", "/wallet/")["balance"] == before,
        f"{qualifier.username} paid chips with a ticket",
    )
    players = {qualifier.username: qualifier}
    for _ in range(ENTRANTS - 1):
        player = register(stack.base, f"smoke-s-{uuid.uuid4().hex[:8]}")
        fund(admin, player, FUNDING)
        player.call("POST", f"/tournaments/{sid}/register/", expect=(201,))
        players[player.username] = player
    admin.call("POST", f"/tournaments/{sid}/start/")
    moves, rounds = multi._play(stack, admin, players, sid)
    seats = ENTRANTS * buy_in // face
    log(
        f"satellite #{sid} to the demo's tournament #{demo['id']}: {seats} seats, {rounds} rounds, {moves} moves"
    )
    ticket = f"ticket:tournament:{demo['id']}"
    winners = []
    for name, player in players.items():
        held = player.call("GET", "/me/tickets/")["tickets"]
        if held:
            expect([(x["chip_type"], x["count"]) for x in held] == [(ticket, 1)], f"{name} holds {held}")
            winners.append(name)
    expect(len(winners) == seats, f"{len(winners)} tickets won for {seats} seats")
    for name in winners:
        before = players[name].call("GET", "/wallet/")["balance"]
        players[name].call(
            "POST", f"/tournaments/{demo['id']}/register/", expect=(201,), json={"payment": "ticket"}
        )
        expect(players[name].call("GET", "/wallet/")["balance"] == before, f"{name} paid chips with a ticket")
        expect(players[name].call("GET", "/me/tickets/")["tickets"] == [], f"{name}'s ticket not spent")
    standings = staff.call("GET", f"/tournaments/{sid}/standings/")["results"]
    expect(
        sum(row["prize"] for row in standings) == ENTRANTS * buy_in, f"prizes of the satellite: {standings}"
    )
    log(f"satellite #{sid}: {', '.join(winners)} entered the demo's tournament with their tickets")


def _sit_and_go_step(stack: Stack, log: Any, *, admin: Client, step2: int, face: int) -> Client:
    """Step one: a sit-and-go (one table, one round) of two whose pool buys one seat in step two. Answers its
    winner, holding the ticket."""
    buy_in = -(-face // 2)
    step1 = admin.call(
        "POST",
        "/tournaments/",
        expect=(201,),
        json={
            "name": f"Smoke step 1 {uuid.uuid4().hex[:6]}",
            "kind": "quick",
            "game": "rummy500",
            "options": multi.TOURNAMENT["options"],
            "buy_in": buy_in,
            "fee": 0,
            "max_entrants": 2,
            "rounds": 1,
            "payouts": [100],
            "satellite_target": step2,
        },
    )
    players = {}
    for _ in range(2):
        player = register(stack.base, f"smoke-q-{uuid.uuid4().hex[:8]}")
        fund(admin, player, FUNDING)
        player.call("POST", f"/tournaments/{step1['id']}/register/", expect=(201,))  # the second starts it
        players[player.username] = player
    moves, rounds = multi._play(stack, admin, players, step1["id"])
    ticket = f"ticket:tournament:{step2}"
    held = {name: player.call("GET", "/me/tickets/")["tickets"] for name, player in players.items()}
    winners = [name for name, tickets in held.items() if tickets]
    expect(len(winners) == 1, f"one seat in step two, tickets held: {held}")
    won = held[winners[0]]
    expect([(x["chip_type"], x["count"]) for x in won] == [(ticket, 1)], f"{winners[0]} holds {won}")
    log(
        f"sit-and-go satellite #{step1['id']} ({rounds} rounds, {moves} moves): {winners[0]} won a ticket to #{step2}"
    )
    return players[winners[0]]
