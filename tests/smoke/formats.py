"""The smoke test's tournament formats, over HTTP on the embedded default (docs/rules.md "Rebuys and the add-on",
"Progressive knockout", "The final-table deal"): a rebuy-and-add-on knockout tournament played by the greedy bot
to its payout, the bots rebuying when busted in the rebuy period and taking the add-on in its break (the pool and
every bounty paid exactly once); then a final-table deal declined (nothing changes) and one accepted (paid at once,
the tournament played on to its payout for the title and the amount kept)."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from tournaments.engine import state_from_dict
from tournaments.engine.bots import greedy_move

from . import multi
from .api import Client, expect, fund, game_state, register
from .stack import Stack, StackFailed

ENTRANTS = 3
FUNDING = 1_000
BUY_IN = 100
FEE = 10
BETWEEN_SECONDS = 90.0
# One table of three; stacks of 40 at PCR 25 then 50: a round lost by two points or more busts its loser. The
# first level is the rebuy period (a bust in it may rebuy once), its end the add-on's break.
FORMATS: dict[str, Any] = {
    **multi.TOURNAMENT,
    "seats": 4,
    "max_entrants": ENTRANTS,
    "pcr_schedule": [25, 50],
    "payouts": [100],
    "rebuy_levels": 1,
    "rebuy_cost": BUY_IN,
    "rebuy_fee": FEE,
    "max_rebuys": 1,
    "addon_cost": BUY_IN,
    "addon_fee": FEE,
    "addon_chips": 40,
    "addon_seconds": 3,
    "bounty_share": 50,
}
DEAL: dict[str, Any] = {
    **multi.TOURNAMENT,
    "seats": 4,
    "max_entrants": ENTRANTS,
    "starting_stack": 400,
    "pcr_schedule": [25, 50, 100],
    "payouts": [60, 40],
    "deal_seconds": 120,
    "deal_keep": 10,
}


def _tournament(
    stack: Stack, admin: Client, settings: dict[str, Any], prefix: str
) -> tuple[int, dict[str, Client]]:
    starts_at = datetime.now(UTC) + timedelta(hours=1)  # started by the admin long before beat would
    name = f"Smoke {prefix} {uuid.uuid4().hex[:6]}"
    tid = admin.call(
        "POST",
        "/tournaments/",
        expect=(201,),
        json={**settings, "name": name, "starts_at": starts_at.isoformat()},
    )["id"]
    players = {}
    for _ in range(ENTRANTS):
        player = register(stack.base, f"smoke-{prefix}-{uuid.uuid4().hex[:8]}")
        fund(admin, player, FUNDING)
        player.call("POST", f"/tournaments/{tid}/register/", expect=(201,))
        players[player.username] = player
    return tid, players


def run(stack: Stack, log: Any, *, admin: Client, staff: Client) -> None:
    _rebuys_and_knockouts(stack, log, admin=admin, staff=staff)
    _deals(stack, log, admin=admin, staff=staff)


def _rebuys_and_knockouts(stack: Stack, log: Any, *, admin: Client, staff: Client) -> None:
    tid, players = _tournament(stack, admin, FORMATS, "k")
    admin.call("POST", f"/tournaments/{tid}/start/")
    bought = {"rebuy": 0, "addon": 0}

    def between() -> None:
        for player in players.values():
            offer = player.call("GET", f"/tournaments/{tid}/rebuy/")
            for action in ("rebuy", "addon"):
                if offer[f"can_{action}"] and (action == "addon" or offer["chips"] <= 0):
                    # 409: the table dealt first
                    answer = player.call("POST", f"/tournaments/{tid}/{action}/", expect=(200, 409))
                    bought[action] += "can_rebuy" in answer

    moves, rounds = multi._play(stack, admin, players, tid, between=between)
    standings = staff.call("GET", f"/tournaments/{tid}/standings/")["results"]
    rebuys = sum(row["rebuys"] for row in standings)
    addons = sum(1 for row in standings if row["addon"])
    expect((rebuys, addons) == (bought["rebuy"], bought["addon"]), f"bought {bought}, standings {standings}")
    bounty = BUY_IN // 2
    pool = ENTRANTS * (BUY_IN - bounty) + (rebuys + addons) * BUY_IN
    expect(sum(row["prize"] for row in standings) == pool, f"prizes of a pool of {pool}: {standings}")
    expect(sum(row["bounties_won"] for row in standings) == ENTRANTS * bounty, f"bounties: {standings}")
    expect(all(row["bounty"] == 0 for row in standings), f"a bounty left unpaid: {standings}")
    wallets = {name: player.call("GET", "/wallet/")["balance"] for name, player in players.items()}
    start = sum(FUNDING + p.welcome_chips for p in players.values())
    spent = ENTRANTS * (BUY_IN + FEE) + (rebuys + addons) * (BUY_IN + FEE)
    expect(
        sum(wallets.values()) == start - spent + pool + ENTRANTS * bounty,
        f"the entrants' wallets {wallets}: only the fees should have left them",
    )
    log(
        f"rebuy, add-on and knockout tournament #{tid}: {rounds} rounds, {moves} moves, {rebuys} rebuys, "
        f"{addons} add-ons, the pool of {pool} and {ENTRANTS} bounties of {bounty} paid once"
    )


def _deals(stack: Stack, log: Any, *, admin: Client, staff: Client) -> None:
    tid, players = _tournament(stack, admin, DEAL, "d")
    admin.call("POST", f"/tournaments/{tid}/start/")
    admin.call("POST", f"/tournaments/{tid}/pause/")  # a pause holds the table between rounds
    ann, bob, cid = players
    view = _between_rounds(stack, admin, players, tid)
    pool = ENTRANTS * BUY_IN
    expect(view["preview"]["unpaid"] == pool, f"the deal's preview: {view}")
    before = {name: player.call("GET", "/wallet/")["balance"] for name, player in players.items()}

    offer = players[ann].call("POST", f"/tournaments/{tid}/deal/", expect=(201,), json={"method": "chips"})
    declined = players[bob].call(
        "POST", f"/tournaments/{tid}/deal/{offer['id']}/answer/", json={"accept": False}
    )
    expect(declined["status"] == "declined", f"a refusal answered {declined}")
    after = {name: player.call("GET", "/wallet/")["balance"] for name, player in players.items()}
    expect(after == before, f"a declined deal moved chips: {before} -> {after}")

    deal = players[bob].call("POST", f"/tournaments/{tid}/deal/", expect=(201,), json={"method": "icm"})
    players[ann].call("POST", f"/tournaments/{tid}/deal/{deal['id']}/answer/", json={"accept": True})
    accepted = players[cid].call(
        "POST", f"/tournaments/{tid}/deal/{deal['id']}/answer/", json={"accept": True}
    )
    expect(
        accepted["status"] == "accepted" and accepted["transfer"], f"the last acceptance answered {accepted}"
    )
    paid = {name: player.call("GET", "/wallet/")["balance"] for name, player in players.items()}
    expect(
        {name: paid[name] - before[name] for name in players} == deal["amounts"],
        f"the deal's amounts {deal['amounts']}, the wallets {before} -> {paid}",
    )
    transfer = staff.call("GET", f"/ledger/transfers/{accepted['transfer']}/")
    expect(transfer["computation"]["why"] == "deal", f"the deal's transfer: {transfer}")
    log(
        f"deal tournament #{tid}: a chip-count offer declined, nothing moved; an ICM offer accepted, paid at once"
    )

    admin.call("POST", f"/tournaments/{tid}/resume/")
    moves, rounds = multi._play(stack, admin, players, tid)
    standings = staff.call("GET", f"/tournaments/{tid}/standings/")["results"]
    winner = next(row["username"] for row in standings if row["place"] == 1)
    for row in standings:
        kept = deal["keep"] if row["username"] == winner else 0
        expect(row["prize"] == deal["amounts"][row["username"]] + kept, f"{row} after the deal {deal}")
    expect(sum(row["prize"] for row in standings) == pool, f"prizes of a pool of {pool}: {standings}")
    log(
        f"deal tournament #{tid}: played on for the title ({rounds} rounds, {moves} moves), {winner} won the rest"
    )


def _between_rounds(stack: Stack, admin: Client, players: dict[str, Client], tid: int) -> dict[str, Any]:
    """Play the round the pause let finish (if one was dealt) until a player may propose a deal: the final
    table between rounds with its job done. Answers the deal view."""
    watcher = next(iter(players.values()))
    deadline = time.monotonic() + BETWEEN_SECONDS
    while time.monotonic() < deadline:
        view = watcher.call("GET", f"/tournaments/{tid}/deal/")
        if view["can_propose"]:
            return dict(view)
        stack.check_alive()
        acted = False
        for table in admin.call("GET", f"/tournaments/{tid}/tables/")["results"]:
            if table["game"] is None:
                continue
            version, state = game_state(stack.database, table["game"])
            if state is None:
                continue
            round_state = state_from_dict(state)
            for username in round_state.may_act:
                move = greedy_move(round_state, username)
                answer = players[username].call(
                    "POST",
                    f"/games/{table['game']}/moves/",
                    expect=(200, 409),
                    json={**move, "expected_version": version},
                    headers={"Idempotency-Key": uuid.uuid4().hex},
                )
                acted = acted or "version" in answer
                break
        if not acted:
            time.sleep(0.25)
    raise StackFailed(
        f"tournament {tid}'s final table never came between rounds within {BETWEEN_SECONDS:.0f}s"
    )
