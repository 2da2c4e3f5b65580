"""The smoke test's multi-table tournament, over HTTP on the embedded default: the demo admin creates one shaped
to end in a few rounds (the demo's game, two seats a table, stacks the first level's PCR busts at once: four
entrants make two tables, broken into a final table as they bust), new players register and pay, the admin
starts it, the players play every table with the engine's greedy bot until it is finished, and then the payout
must equal the pool, every entrant must have a place, and the ledger must hold one payout transfer of the pool."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from tournaments.engine import state_from_dict
from tournaments.engine.bots import greedy_move

from .api import Client, expect, fund, game_state, register
from .stack import Stack, StackFailed

ENTRANTS = 4
FUNDING = 1_000
BUY_IN = 100
FEE = 10
PLAY_SECONDS = 150.0
IDLE_SLEEP = 0.25
# A stack of 40 at PCR 25: a round lost by two points or more busts its loser, so the tournament is about three
# rounds (one at each of the two first tables, then the final table's).
TOURNAMENT: dict[str, Any] = {
    "kind": "multi",
    "game": "rummy500",
    "options": {"turn_seconds": 10, "time_bank_seconds": 0},
    "buy_in": BUY_IN,
    "fee": FEE,
    "guarantee": 0,
    "starting_stack": 40,
    "seats": 2,
    "pcr_schedule": [25],
    "rounds_per_level": 1,
    "min_entrants": 2,
    "max_entrants": ENTRANTS,
    "payouts": [70, 30],
}


def run(stack: Stack, log: Any, *, admin: Client, staff: Client) -> None:
    starts_at = datetime.now(UTC) + timedelta(hours=1)  # started by the admin long before beat would
    settings = {
        **TOURNAMENT,
        "name": f"Smoke multi {uuid.uuid4().hex[:6]}",
        "starts_at": starts_at.isoformat(),
    }
    tournament = admin.call("POST", "/tournaments/", expect=(201,), json=settings)
    tid = tournament["id"]
    players = {}
    for _ in range(ENTRANTS):
        player = register(stack.base, f"smoke-m-{uuid.uuid4().hex[:8]}")
        fund(admin, player, FUNDING)
        player.call(
            "POST",
            f"/tournaments/{tid}/register/",
            expect=(201,),
            headers={"Idempotency-Key": f"smoke-enter-{player.username}"},
        )
        players[player.username] = player
    started = admin.call("POST", f"/tournaments/{tid}/start/")
    expect(started["status"] == "running", f"the admin's start answered {started}")
    tables = admin.call("GET", f"/tournaments/{tid}/tables/")["results"]
    expect(len(tables) == 2, f"{ENTRANTS} entrants at two seats a table sat at {len(tables)} tables")
    log(f"tournament #{tid}: {ENTRANTS} registered over HTTP, started by the admin at {len(tables)} tables")

    moves, rounds = _play(stack, admin, players, tid)
    log(f"tournament #{tid}: finished after {rounds} rounds, {moves} moves")
    _check_payout(staff, players, tid)
    _check_notifications(players, tid)
    log(
        f"tournament #{tid}: every entrant told it started, the winner told of the prize (notifications' worker)"
    )


def _play(
    stack: Stack,
    admin: Client,
    players: dict[str, Client],
    tid: int,
    *,
    between: Callable[[], None] | None = None,
) -> tuple[int, int]:
    """Until the tournament is finished: at every open table, each of our players the game's full state (read
    from the database, as the bot needs) says may act, and whose own view offers legal moves at that version,
    plays the greedy bot's choice. The tournament and its tables are read again only when nobody could act (the
    tables change between rounds only); `between`, when given, is called then too (a rebuy, an add-on). Answers
    the moves made and the rounds dealt."""
    moves = 0
    rounds: set[tuple[int, int]] = set()
    games: list[int] = []
    deadline = time.monotonic() + PLAY_SECONDS
    while True:
        acted = False
        for game_id in games:
            version, state = game_state(stack.database, game_id)
            if state is None:
                continue
            round_state = state_from_dict(state)
            rounds.add((game_id, round_state.round_number))
            for username in round_state.may_act:
                player = players[username]
                view = player.call("GET", f"/games/{game_id}/")
                if view["version"] != version or not view.get("legal_moves"):
                    continue
                move = greedy_move(round_state, username)
                request: dict[str, Any] = {
                    "json": {**move, "expected_version": version},
                    "headers": {"Idempotency-Key": uuid.uuid4().hex},
                }
                # 409: the turn clock played first, or the table was broken or finished meanwhile
                answer = player.call("POST", f"/games/{game_id}/moves/", expect=(200, 409), **request)
                if "version" in answer:
                    moves += 1
                    acted = True
                break  # the state moved on: read it again
        if acted:
            continue
        if between is not None:
            between()
        status = admin.call("GET", f"/tournaments/{tid}/")["status"]
        if status == "finished":
            return moves, len(rounds)
        expect(status == "running", f"tournament {tid} became {status} while being played")
        if time.monotonic() > deadline:
            raise StackFailed(f"tournament {tid} was not finished within {PLAY_SECONDS:.0f}s ({moves} moves)")
        stack.check_alive()
        tables = admin.call("GET", f"/tournaments/{tid}/tables/")["results"]
        games = [table["game"] for table in tables if table["game"] is not None]
        time.sleep(IDLE_SLEEP)  # between rounds: the tables' jobs bust, balance and deal


def _check_notifications(players: dict[str, Client], tid: int, seconds: float = 60) -> None:
    """The notifications' queue, taken by `make run`'s worker: each entrant has "your tournament has started", the
    winner "you won a prize", in their centre (GET /me/notifications/)."""
    deadline = time.monotonic() + seconds
    while True:
        told = {
            name: {
                row["kind"]
                for row in player.call("GET", "/me/notifications/?page_size=100")["results"]
                if row["data"].get("tournament_id") == tid
            }
            for name, player in players.items()
        }
        started = all("tournament_started" in kinds for kinds in told.values())
        if started and any("prize_won" in kinds for kinds in told.values()):
            return
        expect(time.monotonic() < deadline, f"notifications of tournament {tid} not all there: {told}")
        time.sleep(0.5)


def _check_payout(staff: Client, players: dict[str, Client], tid: int) -> None:
    """The prizes sum to the pool (the buy-ins: no guarantee), one payout transfer pays exactly them into the
    winners' wallets, every entrant has a place and one winner, the fees went to the house."""
    standings = staff.call("GET", f"/tournaments/{tid}/standings/")["results"]
    places = sorted(row["place"] for row in standings)
    expect(len(standings) == ENTRANTS and None not in places, f"entrants without a place: {standings}")
    expect(places[0] == 1 and places.count(1) == 1, f"not one winner: {standings}")
    report = staff.call("GET", f"/tournaments/{tid}/payouts/")
    pool = ENTRANTS * BUY_IN
    paid = sum(prize["amount"] for prize in report["prizes"])
    expect(report["prize_pool"] == pool and paid == pool, f"prizes {paid} of a pool {pool}: {report}")
    transfers = staff.call("GET", f"/ledger/transfers/?tournament={tid}&kind=payout")["results"]
    expect(len(transfers) == 1, f"{len(transfers)} payout transfers for tournament {tid}")
    credited = sum(e["amount"] for e in transfers[0]["entries"] if e["account_kind"] == "wallet")
    expect(credited == pool, f"the payout transfer credits the wallets {credited}, the pool was {pool}")
    wallets = {name: player.call("GET", "/wallet/")["balance"] for name, player in players.items()}
    expect(
        sum(wallets.values()) == ENTRANTS * (FUNDING - FEE) + sum(p.welcome_chips for p in players.values()),
        f"the entrants' wallets {wallets}: only the fees should have left them",
    )
    winner = next(row for row in standings if row["place"] == 1)
    welcome = players[winner["username"]].welcome_chips
    expect(
        wallets[winner["username"]] == welcome + FUNDING - BUY_IN - FEE + winner["prize"], f"winner {winner}"
    )
