"""The integrity signals as pure functions: each formula, its thresholds, and the simulation at small scale."""

from __future__ import annotations

from typing import Any

import pytest

from devtools import integrity_simulation as simulation
from integrity import signals
from integrity.signals import Payment, RoundFacts, Thresholds

LIMITS = Thresholds()


def _round(round_id: int, payments: list[tuple[str, str, int]], **extra: object) -> RoundFacts:
    return RoundFacts(
        round_id=round_id,
        table_id=extra.pop("table_id", 7),  # type: ignore[arg-type]
        game="rummy500",
        private=bool(extra.pop("private", True)),
        players=tuple(extra.pop("players", ("ann", "bob"))),  # type: ignore[arg-type]
        payments=tuple(Payment(a, b, c) for a, b, c in payments),
        transfer_ids=(round_id * 10,),
        **extra,  # type: ignore[arg-type]
    )


def _counts(delta: signals.PairDelta) -> dict[str, int]:
    return {
        n: getattr(delta, n)
        for n in (
            "rounds",
            "paid_ab",
            "paid_ba",
            "pay_rounds_ab",
            "pay_rounds_ba",
            "timeout_paid_ab",
            "timeout_paid_ba",
        )
    }


def test_fold_counts_each_direction_of_the_flow_and_keeps_the_ids() -> None:
    rounds = [
        _round(1, [("bob", "ann", 30)]),
        _round(2, [("ann", "bob", 10)]),
        _round(3, [("bob", "ann", 5)], timed_out=frozenset({"bob"})),
    ]
    delta = signals.fold_rounds(rounds, {})[("ann", "bob")]
    assert _counts(delta) == {
        "rounds": 3,
        "paid_ab": 10,
        "paid_ba": 35,
        "pay_rounds_ab": 1,
        "pay_rounds_ba": 2,
        "timeout_paid_ab": 0,
        "timeout_paid_ba": 1,
    }
    assert (
        delta.round_ids == [1, 2, 3]
        and delta.transfer_ids == [[1, 10], [2, 20], [3, 30]]
        and delta.private_table_ids == [7]
    )


def test_one_sided_flow_is_chip_dumping_and_names_payer_and_payee() -> None:
    rounds = [_round(i, [("bob", "ann", 40)]) for i in range(1, 26)]
    delta = signals.fold_rounds(rounds, {})[("ann", "bob")]
    found = signals.chip_dumping(a="ann", b="bob", counts=_counts(delta), thresholds=LIMITS)
    assert found is not None and found.players == ("bob", "ann")
    assert found.details["net"] == 1000 and found.details["one_sided"] == 1.0 and found.score == 5.0


@pytest.mark.parametrize(
    ("flows", "why"),
    [
        ([("bob", "ann", 40)] * 19, "too few rounds together"),
        ([("bob", "ann", 10)] * 25, "net below the chips threshold"),
        ([("bob", "ann", 60)] * 13 + [("ann", "bob", 60)] * 12, "two-sided flow"),
        ([("bob", "ann", 100)] * 8 + [("ann", "bob", 5)] * 2 + [("bob", "ann", 1)] * 0, "too few rounds"),
    ],
)
def test_flows_play_explains_are_not_dumping(flows: list[tuple[str, str, int]], why: str) -> None:
    delta = signals.fold_rounds([_round(i, [f]) for i, f in enumerate(flows, 1)], {})[("ann", "bob")]
    assert signals.chip_dumping(a="ann", b="bob", counts=_counts(delta), thresholds=LIMITS) is None, why


def test_timing_out_while_the_partner_collects_is_dumping_even_when_the_flow_is_mixed() -> None:
    flows = [_round(i, [("ann", "bob", 150)], timed_out=frozenset({"ann"})) for i in range(1, 7)]
    flows += [_round(i, [("bob", "ann", 20)]) for i in range(7, 22)]
    delta = signals.fold_rounds(flows, {})[("ann", "bob")]
    found = signals.chip_dumping(a="ann", b="bob", counts=_counts(delta), thresholds=LIMITS)
    assert (
        found is not None and found.players == ("ann", "bob") and found.details["timed_out_rounds_paid"] == 6
    )
    assert (
        signals.chip_dumping(
            a="ann", b="bob", counts=_counts(delta), thresholds=Thresholds(dumping_min_timeout_rounds=7)
        )
        is None
    )


def test_feed_offers_read_the_next_draw_after_each_discard() -> None:
    moves: list[tuple[str, dict[str, Any]]] = [
        ("ann", {"type": "discard", "card": "7H"}),
        ("bob", {"type": "draw", "source": "discard", "card": "7H", "index": 3}),
        ("bob", {"type": "discard", "card": "2C"}),
        ("ann", {"type": "draw", "source": "stock"}),
        ("ann", {"type": "discard", "card": "KD"}),
        ("bob", {"type": "end_round"}),
    ]
    assert signals.feed_offers(moves) == [("ann", "bob", True), ("bob", "ann", False), ("ann", "bob", False)]


def test_soft_play_is_a_take_rate_far_above_the_games_baseline() -> None:
    assert signals.soft_play(a="a", b="b", offered=400, taken=80, expected=80.0, thresholds=LIMITS) is None
    assert (
        signals.soft_play(a="a", b="b", offered=50, taken=50, expected=10.0, thresholds=LIMITS) is None
    )  # few offers
    found = signals.soft_play(a="a", b="b", offered=400, taken=140, expected=80.0, thresholds=LIMITS)
    assert (
        found is not None and found.details["ratio"] == 1.75 and found.score == pytest.approx(7.5, abs=0.01)
    )


def test_frequent_pair_needs_many_private_tables_and_most_of_them() -> None:
    assert signals.frequent_pair(a="a", b="b", together=4, tables_a=4, tables_b=4, thresholds=LIMITS) is None
    assert (
        signals.frequent_pair(a="a", b="b", together=6, tables_a=6, tables_b=30, thresholds=LIMITS)
        is not None
    )
    assert (
        signals.frequent_pair(a="a", b="b", together=6, tables_a=10, tables_b=30, thresholds=LIMITS) is None
    )


def test_shared_addresses_group_distinct_accounts() -> None:
    seats = [("ann", "10.0.0.1"), ("bob", "10.0.0.1"), ("ann", "10.0.0.1"), ("cy", "10.0.0.2"), ("dee", "")]
    found = signals.shared_addresses(seats=seats, thresholds=LIMITS)
    assert [(f.players, f.details["address"]) for f in found] == [(("ann", "bob"), "10.0.0.1")]


def test_the_simulation_flags_dumpers_and_soft_players_and_not_honest_bots() -> None:
    rates, _ = simulation.measure(tables=2, honest_tables=4, rounds=25, seed=3)
    assert rates.tables == {"honest": 4, "dumping": 2, "soft": 2}
    assert rates.detected == {"dumping": 2, "soft": 2}
    assert rates.false_positive_pairs == 0 and rates.honest_pairs == 4


def _farm_rounds(payee: str, payers: list[str], chips: int) -> list[RoundFacts]:
    return [
        _round(i + 1, [(p, payee, chips)], players=(p, payee), new_players=frozenset({p}), table_id=i + 1)
        for i, p in enumerate(payers)
    ]


def _farming(rounds: list[RoundFacts], grants: dict[str, int]) -> list[signals.Finding]:
    deltas = signals.fold_rounds(rounds, {})
    new_paid: dict[tuple[str, str], int] = {}
    for (a, b), d in deltas.items():
        new_paid[(a, b)], new_paid[(b, a)] = d.new_paid_ab, d.new_paid_ba
    counts = {pair: d.rounds for pair, d in deltas.items()}
    return signals.grant_farming(new_paid=new_paid, rounds=counts, grants=grants, thresholds=LIMITS)


def test_grant_farming_sums_new_accounts_paying_one_player_over_the_payers() -> None:
    """Six new accounts each losing its 1,000 in one round to one master: six pairs too small to be anything,
    one flag for the master, naming each payer's chips and grant."""
    payers = [f"n{i}" for i in range(6)]
    rounds = _farm_rounds("master", payers, 1_000)
    deltas = signals.fold_rounds(rounds, {})
    assert all(
        signals.chip_dumping(a=a, b=b, counts=_counts(d), thresholds=LIMITS) is None
        for (a, b), d in deltas.items()
    )
    [found] = _farming(rounds, dict.fromkeys(payers, 1_000))
    assert found.kind == signals.GRANT_FARMING and found.players == ("master", *payers)
    assert found.score == 6 and found.details["chips"] == 6_000
    assert found.details["payers"] == dict.fromkeys(payers, 1_000)
    assert found.details["chips_moved"][0] == {"from": "n0", "to": "master", "chips": 1_000}


@pytest.mark.parametrize(
    ("why", "payers", "chips", "grants", "extra"),
    [
        ("two accounts are not a farm", ["n0", "n1"], 1_000, 1_000, []),
        ("too few chips in all", ["n0", "n1", "n2"], 300, 400, []),
        ("no grant to lose: not a grant farm", ["n0", "n1", "n2"], 1_000, 0, []),
        ("a small part of the grant", ["n0", "n1", "n2"], 400, 1_000, []),
        # Most of what n0, n1, n2 paid went to someone else: they do not feed the master.
        (
            "losses spread over players",
            ["n0", "n1", "n2"],
            500,
            1_000,
            [("n0", "x", 600), ("n1", "y", 600), ("n2", "z", 600)],
        ),
    ],
)
def test_grant_farming_needs_several_accounts_most_of_their_grants_and_most_of_their_losses(
    why: str, payers: list[str], chips: int, grants: int, extra: list[tuple[str, str, int]]
) -> None:
    rounds = _farm_rounds("master", payers, chips)
    rounds += [
        _round(100 + i, [(a, b, c)], players=(a, b), new_players=frozenset({a}), table_id=100 + i)
        for i, (a, b, c) in enumerate(extra)
    ]
    assert _farming(rounds, dict.fromkeys(payers, grants)) == [], why


def test_a_newcomer_losing_slowly_to_a_better_player_is_not_a_farm() -> None:
    """Three newcomers each losing their grant to one regular over 25 rounds: a better player, not a farm."""
    rounds = [
        _round(
            p * 100 + r,
            [(f"n{p}", "regular", 40)],
            players=(f"n{p}", "regular"),
            new_players=frozenset({f"n{p}"}),
        )
        for p in range(3)
        for r in range(25)
    ]
    assert _farming(rounds, {f"n{p}": 1_000 for p in range(3)}) == []
    # The same chips handed over in a round each are a farm; and accounts no longer new pay nothing it counts.
    assert (
        len(
            _farming(
                _farm_rounds("regular", ["n0", "n1", "n2"], 1_000), dict.fromkeys(["n0", "n1", "n2"], 1_000)
            )
        )
        == 1
    )
    old = [
        _round(i + 1, [(p, "regular", 1_000)], players=(p, "regular"))
        for i, p in enumerate(["n0", "n1", "n2"])
    ]
    assert _farming(old, dict.fromkeys(["n0", "n1", "n2"], 1_000)) == []


def test_the_simulation_flags_grant_farms_and_not_regulars_beating_newcomers() -> None:
    rates, _ = simulation.measure(tables=0, honest_tables=2, rounds=25, seed=5, farms=2, farm_accounts=4)
    assert (rates.farms, rates.farms_detected) == (2, 2)
    assert (rates.regulars, rates.regulars_flagged) == (2, 0)
    assert rates.false_positive_pairs == 0
