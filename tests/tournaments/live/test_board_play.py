"""Board Rummy over HTTP (issue 14): a private multiplier table joined by code, a refused deal (redealt by
the same dealer, nothing settled), then a close with the trump bonus, settled by PCR times the multiplier."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.board_stacking import board_deck
from tests.factories import FAST_CLOCKS
from tests.ledger.utils import assert_reconciled
from tests.tournaments.live.helpers import stacks
from tournaments import engine
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.models import Game, GameStatus, Round
from tournaments.live.rounds import start as round_start

pytestmark = pytest.mark.django_db

SIMPLE = ["R1", "R2", "R3", "Y5", "B5", "K5", "B9", "B10", "B11", "B12", "K11", "K12", "K13", "K1"]
PAIRS = ["R1", "R1", "Y2", "Y2", "B3", "B3"]


def _stack(monkeypatch: pytest.MonkeyPatch, deals: list[Any]) -> list[tuple[list[str], int]]:
    """Each new round takes the next of ``deals``: a function (players, dealer) -> a stacked deck."""
    seen: list[tuple[list[str], int]] = []

    def stacked(rules: Any, *, players: Any, dealer: int, round_number: int) -> Any:
        seen.append((list(players), dealer))
        deck = deals[len(seen) - 1](list(players), dealer)
        return engine.new_round(rules, list(players), dealer, round_number, deck=deck)

    monkeypatch.setattr(round_start, "new_round", stacked)
    return seen


def _hands(players: list[str], dealer: int, first: list[str], other: list[str]) -> list[list[str]]:
    """``first`` to the player left of the dealer, ``other`` to the other player (two players)."""
    opener = (dealer + 1) % 2
    return [first, other] if opener == 0 else [other, first]


def test_board_on_a_private_multiplier_table_with_a_refused_deal_and_the_trump_bonus(
    make_player: Any, client_for: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    ca, cb = client_for(ann), client_for(bob)
    created = ca.post(
        "/api/v1/tables/",
        {
            "game": "board",
            "options": dict(FAST_CLOCKS, turn_seconds=60),
            "seats": 2,
            "pcr": 2,
            "min_buy_in": 100,
            "max_buy_in": 5000,
            "multiplier": 3,
            "private": True,
        },
    )
    assert created.status_code == 201, created.content
    table = created.json()
    assert table["private"] is True and table["code"] and table["game"] == "board"
    assert cb.get(f"/api/v1/tables/{table['id']}/").status_code == 404  # private: not seated, no code

    # round 1: the opener was dealt three identical pairs and refuses; round 2: the opener closes a simple
    # hand (250) and the other player was dealt the trump tile's twin (100 from each opponent)
    seen = _stack(
        monkeypatch,
        [
            lambda players, dealer: board_deck(_hands(players, dealer, PAIRS, []), dealer=dealer, trump="K9"),
            lambda players, dealer: board_deck(
                _hands(players, dealer, [*SIMPLE, "Y13"], ["B4"]), dealer=dealer, trump="B4"
            ),
        ],
    )
    assert ca.post("/api/v1/tables/join/", {"code": table["code"], "buy_in": 5000}).status_code == 200
    joined = cb.post("/api/v1/tables/join/", {"code": table["code"], "buy_in": 4000})
    assert joined.status_code == 200, joined.content
    game = Game.objects.get(table_id=table["id"])
    assert round_start.start_round(game_id=game.pk) is not None
    game.refresh_from_db()
    players, dealer = seen[0]
    opener, other = players[(dealer + 1) % 2], players[dealer]
    clients = {"ann": ca, "bob": cb}

    view = clients[opener].get(f"/api/v1/games/{game.pk}/").json()
    assert view["phase"] == "deal" and view["trump"] == "K9" and len(view["hand"]) == 15
    assert view["legal_moves"] == [{"type": "keep_deal"}, {"type": "refuse_deal"}]
    assert (
        "legal_moves" not in clients[other].get(f"/api/v1/games/{game.pk}/").json()
        or not (clients[other].get(f"/api/v1/games/{game.pk}/").json()["legal_moves"])
    )
    before = stacks(table["id"])
    refused = clients[opener].post(
        f"/api/v1/games/{game.pk}/moves/", {"type": "refuse_deal", "expected_version": view["version"]}
    )
    assert refused.status_code == 200, refused.content
    first = Round.objects.get(game=game, number=1)
    assert first.result is not None and first.result["redeal"] is True and first.result["bonuses"] == []
    assert first.transfers == [] and stacks(table["id"]) == before

    # the same dealer deals again
    game.refresh_from_db()
    assert game.status == GameStatus.WAITING
    assert round_start.start_round(game_id=game.pk) is not None
    assert seen[1] == (players, dealer)
    game.refresh_from_db()
    view = clients[opener].get(f"/api/v1/games/{game.pk}/").json()
    assert view["phase"] == "play" and view["trump"] == "B4" and view["round"] == 2
    assert {"type": "close", "discard": "Y13"} in view["legal_moves"]
    assert clients[other].get(f"/api/v1/games/{game.pk}/").json()["trump_bonus"] is True
    closed = clients[opener].post(
        f"/api/v1/games/{game.pk}/moves/",
        {
            "type": "close",
            "discard": "Y13",
            "groups": [SIMPLE[:7], SIMPLE[7:]],
            "expected_version": view["version"],
        },
    )
    assert closed.status_code == 200, closed.content
    second = Round.objects.get(game=game, number=2)
    result = second.result
    assert result is not None and result["redeal"] is False and result["scores"] == {opener: 250, other: 0}
    assert result["bonuses"] == [{"player": other, "points": 100, "reason": "trump"}]
    assert result["details"]["hand"]["row"] == "simple"
    # PCR 2, multiplier 3: the close pays 250 * 6 = 1500, the bonus 100 * 6 = 600 the other way
    assert second.transfers == [
        {"from": other, "to": opener, "amount": 1500, "kind": "settlement"},
        {"from": opener, "to": other, "amount": 600, "kind": "bonus"},
    ]
    after = stacks(table["id"])
    assert after[opener] - before[opener] == 900 and after[other] - before[other] == -900
    rounds = clients[other].get(f"/api/v1/games/{game.pk}/rounds/").json()["results"]
    by_number = {r["number"]: r for r in rounds}
    assert by_number[1]["transfers"] == [] and by_number[2]["bonuses"] == result["bonuses"]
    assert {t["amount"] for t in by_number[2]["transfers"]} == {1500, 600}
    assert engine.verify_deal(by_number[2]["deal_commitment"], by_number[2]["deck"], by_number[2]["salt"])
    assert_reconciled()


def test_the_turn_clock_keeps_the_deal_for_everyone_who_has_not_answered(
    make_table: Any, make_player: Any, client_for: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.live.models import MoveLog

    table = make_table(game="board", seats=2)
    users = {name: make_player(name) for name in ("ann", "bob")}
    both = ["K1", "K1", "K2", "K2", "K3", "K3"]
    _stack(monkeypatch, [lambda players, dealer: board_deck([PAIRS, both], dealer=dealer, trump="B4")])
    for user in users.values():
        assert client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 200}).status_code == 200
    game = Game.objects.get(table=table)
    assert round_start.start_round(game_id=game.pk) is not None
    game.refresh_from_db()
    view = client_for(users["ann"]).get(f"/api/v1/games/{game.pk}/").json()
    assert view["phase"] == "deal" and sorted(view["deal"]["pending"]) == ["ann", "bob"]
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert clock_runs.run_turn_clock(game_id=game.pk, version=game.turn_version) is True
    game.refresh_from_db()
    view = client_for(users["ann"]).get(f"/api/v1/games/{game.pk}/").json()
    assert view["phase"] == "play" and game.status == GameStatus.PLAYING
    played = MoveLog.objects.filter(game=game, server_played=True).order_by("version")
    assert sorted(m.player for m in played) == ["ann", "bob"]
    assert all(m.move == {"type": "keep_deal"} for m in played)
