"""A finished round's replay is built once per viewer and then served from the cache, never another viewer's;
replays are throttled per player (issue 31, defect 11; docs/api.md "Replays")."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.tournaments.live.rounds.helpers import Played, deal, play
from tournaments.live.http.throttling import ReplayThrottle
from tournaments.live.rounds.replays import replay_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(make_player: Any, admin_user: Any, staff_user: Any) -> Played:
    users = {name: make_player(name) for name in ("ann", "bob")}
    played = deal(preset="rummy500", options={}, users=users, staff=staff_user, admin=admin_user)
    play(played, rng=random.Random(11))
    return played


def _url(played: Played) -> str:
    return f"/api/v1/games/{played.game.pk}/rounds/{played.round.number}/replay/"


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """The viewers each replay was rebuilt for (round_history.replay_round's calls)."""
    calls: list[str | None] = []

    def counting(**kwargs: Any) -> Any:
        calls.append(kwargs["viewer"])
        return replay_round(**kwargs)

    monkeypatch.setattr("tournaments.live.rounds.history.replay_round", counting)
    return calls


def _hands(replay: dict[str, Any]) -> list[list[str] | None]:
    return [step["view"].get("hand") for step in replay["steps"]]


def test_a_replay_is_built_once_per_viewer_and_never_shows_another_viewers_cards(
    finished: Played, client_for: Any, staff_user: Any, builds: list[str | None]
) -> None:
    ann, bob = (client_for(finished.users[name]) for name in ("ann", "bob"))
    first = ann.get(_url(finished))
    assert first.status_code == 200, first.content
    assert builds == ["ann"]
    again = ann.get(_url(finished))
    assert again.json() == first.json()
    assert builds == ["ann"]  # served from the cache
    # bob is not served ann's cached answer: he gets his own hand, built for him
    bobs = bob.get(_url(finished)).json()
    assert builds == ["ann", "bob"]
    # the deck holds one of each card but two jokers, which share a code: two hands may both hold one
    ann_cards = set(_hands(first.json())[0] or []) - {"JK"}
    bob_cards = set(_hands(bobs)[0] or []) - {"JK"}
    assert ann_cards and bob_cards and not ann_cards & bob_cards
    assert bob.get(_url(finished)).json() == bobs and builds == ["ann", "bob"]
    # staff who did not play get the spectator's view: no hand at any step, whoever filled the cache first
    spectator = client_for(staff_user).get(_url(finished)).json()
    assert all(hand is None for hand in _hands(spectator))
    assert builds == ["ann", "bob", None]
    client_for(staff_user).get(_url(finished))
    assert builds == ["ann", "bob", None]


def test_access_is_checked_before_the_cache(
    finished: Played, client_for: Any, make_player: Any, builds: list[str | None]
) -> None:
    assert client_for(finished.users["ann"]).get(_url(finished)).status_code == 200
    outsider = client_for(make_player("dan")).get(_url(finished))
    assert outsider.status_code == 404 and outsider.json()["error"]["code"] == "round.not_found"
    assert builds == ["ann"]


def test_replays_are_throttled_per_player(
    finished: Played, client_for: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ReplayThrottle, "THROTTLE_RATES", {"replay": "2/min"})
    ann = client_for(finished.users["ann"])
    statuses = [ann.get(_url(finished)).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    refused = ann.get(_url(finished))
    assert refused.json()["error"]["code"] == "throttled"
    # another player's replays are counted apart
    assert client_for(finished.users["bob"]).get(_url(finished)).status_code == 200
