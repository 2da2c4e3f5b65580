"""The Basic Rummy family at ring tables (issue 13): each preset is accepted, played through the HTTP API
and settled by PCR on the engine's scores (docs/rules.md "Settlement (PCR)": in Basic Rummy each loser pays
their own hand to the player who went out; in a block the differences to the lowest hand)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ledger.utils import assert_reconciled
from tests.tournaments.live.helpers import expected_transfers, hidden_cards, leaked, stacks
from tournaments import engine
from tournaments.engine.bots import GreedyBot
from tournaments.live.models import Game, Round
from tournaments.live.rounds import start as round_start

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("preset", "seats"), [("basic", 2), ("block", 3), ("wrotham", 2), ("romme", 2)])
def test_each_basic_preset_plays_over_http_and_settles_by_pcr(
    preset: str, seats: int, make_table: Any, make_player: Any, client_for: Any
) -> None:
    table = make_table(game=preset, seats=6, pcr=2, multiplier=3, min_buy_in=100, max_buy_in=5000)
    names = ["ann", "bob", "cid"][:seats]
    clients = {name: client_for(make_player(name)) for name in names}
    for name, chips in zip(names, (1000, 400, 700), strict=False):
        assert clients[name].post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": chips}).status_code == 200
    listed = clients["ann"].get(f"/api/v1/tables/{table.pk}/").json()
    assert listed["game"] == preset and len(listed["players"]) == seats
    game = Game.objects.get(table=table)
    assert round_start.start_round(game_id=game.pk) is not None
    bot = GreedyBot()
    for _ in range(400):
        round_ = Round.objects.get(game=game, number=1)
        if round_.ended_at is not None:
            break
        game.refresh_from_db()
        mover = game.turn_player
        view = clients[mover].get(f"/api/v1/games/{game.pk}/").json()
        for name in names:
            if name != mover:
                other = clients[name].get(f"/api/v1/games/{game.pk}/").json()
                assert not leaked(other, hidden_cards(game, name))
        assert game.state is not None
        move = bot.choose(engine.state_from_dict(game.state), mover)
        assert move in view["legal_moves"]
        answer = clients[mover].post(
            f"/api/v1/games/{game.pk}/moves/", {**move, "expected_version": view["version"]}, format="json"
        )
        assert answer.status_code == 200, answer.content
    else:
        raise AssertionError("the round did not end")
    assert round_.settled and round_.scores is not None
    assert round_.transfers == expected_transfers(round_)
    final = Game.objects.get(pk=game.pk).state
    assert final is not None
    result = engine.state_from_dict(final).result
    assert result is not None
    details = result.details
    hands = {p: details["players"][p]["hand_value"] for p in names}
    owed = {t["from"]: t["amount"] for t in round_.transfers}
    if details["went_out"] is not None:
        # each loser pays their own hand (doubled for going rummy) x PCR x multiplier, capped at the stacks
        factor = 2 if details["going_rummy"] else 1
        assert round_.scores == {p: -factor * hands[p] if p != details["went_out"] else 0 for p in names}
        for p in names:
            if p != details["went_out"]:
                cap = min(round_.stacks[p], round_.stacks[details["went_out"]])
                assert owed.get(p, 0) == min(factor * hands[p] * 6, cap)
    else:
        low = min(hands.values())
        assert round_.scores == {p: -hands[p] for p in names}
        assert all(owed.get(p, 0) <= (hands[p] - low) * 6 for p in names)
    won = dict.fromkeys(names, 0)
    for t in round_.transfers:
        won[t["from"]] -= t["amount"]
        won[t["to"]] += t["amount"]
    assert stacks(table.pk) == {p: round_.stacks[p] + won[p] for p in names}
    assert_reconciled()
