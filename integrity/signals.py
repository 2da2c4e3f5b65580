"""The integrity signals: pure functions over plain values (no Django), each a formula of docs/integrity.md.

The service (`integrity.services`) loads rounds, moves and seats into the values below, folds each batch of
new rounds into per-pair counters (`fold_rounds`) and asks the signals whether a pair's counters, since staff
last decided about that pair, cross the thresholds. Everything here is tested without a database.

Signals:
- chip dumping (`chip_dumping`): one-sided chip flow from one player to one other across the rounds they
  played together (a sign test on who paid whom, the net chips, the share of the flow that goes one way), or
  a player repeatedly timing out (or leaving, which the server plays out as timeouts) in rounds they pay the
  partner;
- soft play (`soft_play`): a pair that takes each other's discards from the pile far more often than the
  game's baseline (feeding: discarding the cards the partner can use);
- frequent pair (`frequent_pair`): two players together at many private tables, most of either's private
  tables;
- shared address (`shared_addresses`): several accounts sitting at one table from the same network address;
- grant farming (`grant_farming`): new accounts losing their chips (the house's grants) to one player, summed
  over that player's payers rather than pair by pair.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

CHIP_DUMPING = "chip_dumping"
SOFT_PLAY = "soft_play"
FREQUENT_PAIR = "frequent_pair"
SHARED_ADDRESS = "shared_address"
GRANT_FARMING = "grant_farming"
KINDS = (CHIP_DUMPING, SOFT_PLAY, FREQUENT_PAIR, SHARED_ADDRESS, GRANT_FARMING)
# How many round, transfer and table ids a pair's evidence keeps (the newest): the counters cover all of them.
EVIDENCE_IDS = 50


@dataclass(frozen=True)
class Thresholds:
    """When a signal flags (settings `RAMINO_INTEGRITY_*`, docs/integrity.md explains each)."""

    dumping_min_rounds: int = 20
    dumping_min_net_chips: int = 500
    dumping_min_one_sided: float = 0.8
    dumping_min_z: float = 3.0
    dumping_min_timeout_rounds: int = 5
    soft_min_offers: int = 60
    soft_min_ratio: float = 1.25
    soft_min_z: float = 4.0
    pair_min_private_tables: int = 5
    pair_min_share: float = 0.8
    address_min_accounts: int = 2
    farm_new_account_days: int = 14
    farm_min_accounts: int = 3
    farm_min_chips: int = 1_000
    farm_min_share: float = 0.8
    farm_min_grant_share: float = 0.5
    farm_max_rounds: int = 5


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: int


@dataclass(frozen=True)
class RoundFacts:
    """One settled round at a ring table, as the job reads it."""

    round_id: int
    table_id: int
    game: str
    private: bool
    players: tuple[str, ...]
    payments: tuple[Payment, ...]
    transfer_ids: tuple[int, ...] = ()
    # Players with at least one move the server played for them (their clock ran out, or they had left).
    timed_out: frozenset[str] = frozenset()
    # The round's draws and discards in order: (player, move JSON).
    moves: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    # Players whose account was new when the round was played (`farm_new_account_days` since joining).
    new_players: frozenset[str] = frozenset()


def pair_of(x: str, y: str) -> tuple[str, str]:
    return (x, y) if x < y else (y, x)


@dataclass
class PairDelta:
    """What one batch of rounds adds to an unordered pair's counters; `a` < `b` by name."""

    rounds: int = 0
    paid_ab: int = 0
    paid_ba: int = 0
    pay_rounds_ab: int = 0
    pay_rounds_ba: int = 0
    timeout_paid_ab: int = 0
    timeout_paid_ba: int = 0
    feeds_offered: int = 0
    feeds_taken: int = 0
    feeds_expected: float = 0.0
    # Chips a paid b while a's account was new (and b paid a while b's was): what grant farming sums.
    new_paid_ab: int = 0
    new_paid_ba: int = 0
    round_ids: list[int] = field(default_factory=list)
    # [round id, transfer id]: a signal whose window restarted shows only the transfers of its rounds.
    transfer_ids: list[list[int]] = field(default_factory=list)
    table_ids: list[int] = field(default_factory=list)
    private_table_ids: list[int] = field(default_factory=list)


def feed_offers(moves: Iterable[tuple[str, Mapping[str, Any]]]) -> list[tuple[str, str, bool]]:
    """(discarder, next drawer, took from the pile) for every discard followed by another player's draw.

    A draw from the discard pile right after a discard always takes the card just discarded (the top one;
    Rummy 500's deeper draws take every card above the one chosen), so the draw's `source` alone says it."""
    offers: list[tuple[str, str, bool]] = []
    last: str | None = None
    for player, move in moves:
        kind = move.get("type")
        if kind == "discard":
            last = player
        elif kind in ("draw", "end_round") and last is not None:
            if player != last:
                offers.append((last, player, kind == "draw" and move.get("source") == "discard"))
            last = None
    return offers


def game_feed_rates(rounds: Iterable[RoundFacts]) -> dict[str, tuple[int, int]]:
    """Per game: (discards offered to the next player, taken by them), over the given rounds."""
    totals: dict[str, tuple[int, int]] = {}
    for facts in rounds:
        offered, taken = totals.get(facts.game, (0, 0))
        for _, _, took in feed_offers(facts.moves):
            offered += 1
            taken += int(took)
        totals[facts.game] = (offered, taken)
    return totals


def _keep(ids: list[Any], new: Any) -> None:
    if new not in ids:
        ids.append(new)
        del ids[:-EVIDENCE_IDS]


def fold_rounds(
    rounds: Iterable[RoundFacts], baseline: Mapping[str, float]
) -> dict[tuple[str, str], PairDelta]:
    """The counters a batch of rounds adds to every pair that played together in it.

    `baseline`: per game, the rate at which the next player takes a discard (the expectation of soft play)."""
    deltas: dict[tuple[str, str], PairDelta] = {}
    for facts in rounds:
        players = sorted(set(facts.players))
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                delta = deltas.setdefault((a, b), PairDelta())
                delta.rounds += 1
                _keep(delta.round_ids, facts.round_id)
                _keep(delta.table_ids, facts.table_id)
                if facts.private:
                    _keep(delta.private_table_ids, facts.table_id)
        paid: dict[tuple[str, str], int] = {}
        for payment in facts.payments:
            if payment.payer != payment.payee and payment.amount > 0:
                key = (payment.payer, payment.payee)
                paid[key] = paid.get(key, 0) + payment.amount
        for (payer, payee), amount in paid.items():
            delta = deltas.setdefault(pair_of(payer, payee), PairDelta())
            timed_out = payer in facts.timed_out
            new = amount if payer in facts.new_players else 0
            if payer < payee:
                delta.paid_ab += amount
                delta.pay_rounds_ab += 1
                delta.timeout_paid_ab += int(timed_out)
                delta.new_paid_ab += new
            else:
                delta.paid_ba += amount
                delta.pay_rounds_ba += 1
                delta.timeout_paid_ba += int(timed_out)
                delta.new_paid_ba += new
            for transfer_id in facts.transfer_ids:
                _keep(delta.transfer_ids, [facts.round_id, transfer_id])
        rate = baseline.get(facts.game, 0.0)
        for discarder, drawer, took in feed_offers(facts.moves):
            delta = deltas.setdefault(pair_of(discarder, drawer), PairDelta())
            delta.feeds_offered += 1
            delta.feeds_taken += int(took)
            delta.feeds_expected += rate
    return deltas


@dataclass(frozen=True)
class Finding:
    """A signal that fired: its score (higher is stronger) and the numbers behind it."""

    kind: str
    players: tuple[str, ...]
    score: float
    details: dict[str, Any]


def chip_dumping(*, a: str, b: str, counts: Mapping[str, int], thresholds: Thresholds) -> Finding | None:
    """One-sided flow between `a` and `b` (counts: rounds, paid_ab, paid_ba, pay_rounds_ab/ba, timeout_paid_ab/ba).

    With k rounds in which the loser paid the winner and j the other way, the sign test's z = (k - j) / √(k + j);
    one-sidedness = net / gross chips. Fires when they played at least `dumping_min_rounds` rounds together,
    the net flow is at least `dumping_min_net_chips`, and either one-sidedness ≥ `dumping_min_one_sided` with
    z ≥ `dumping_min_z`, or the payer timed out in at least `dumping_min_timeout_rounds` rounds they paid."""
    if counts["paid_ab"] >= counts["paid_ba"]:
        payer, payee, suffix, other = a, b, "ab", "ba"
    else:
        payer, payee, suffix, other = b, a, "ba", "ab"
    paid, back = counts[f"paid_{suffix}"], counts[f"paid_{other}"]
    k, j = counts[f"pay_rounds_{suffix}"], counts[f"pay_rounds_{other}"]
    timeouts = counts[f"timeout_paid_{suffix}"]
    net, gross = paid - back, paid + back
    if (
        counts["rounds"] < thresholds.dumping_min_rounds
        or net < thresholds.dumping_min_net_chips
        or not gross
    ):
        return None
    one_sided = net / gross
    z = (k - j) / math.sqrt(k + j) if k + j else 0.0
    flow = one_sided >= thresholds.dumping_min_one_sided and z >= thresholds.dumping_min_z
    walked = timeouts >= thresholds.dumping_min_timeout_rounds
    if not (flow or walked):
        return None
    return Finding(
        kind=CHIP_DUMPING,
        players=(payer, payee),
        score=round(z, 2),
        details={
            "payer": payer,
            "payee": payee,
            "rounds_together": counts["rounds"],
            "paid": paid,
            "paid_back": back,
            "net": net,
            "one_sided": round(one_sided, 3),
            "rounds_paid": k,
            "rounds_paid_back": j,
            "z": round(z, 2),
            "timed_out_rounds_paid": timeouts,
        },
    )


def soft_play(
    *, a: str, b: str, offered: int, taken: int, expected: float, thresholds: Thresholds
) -> Finding | None:
    """Feeding: the pair took each other's discards `taken` times out of `offered`, where the game's baseline
    rate predicts `expected`. z = (taken - expected) / √(expected * (1 - p)), p = expected / offered (binomial).
    Fires with at least `soft_min_offers` offers, taken ≥ `soft_min_ratio` * expected and z ≥ `soft_min_z`."""
    if offered < thresholds.soft_min_offers or expected <= 0:
        return None
    p = min(expected / offered, 0.999)
    z = (taken - expected) / math.sqrt(expected * (1 - p))
    ratio = taken / expected
    if ratio < thresholds.soft_min_ratio or z < thresholds.soft_min_z:
        return None
    return Finding(
        kind=SOFT_PLAY,
        players=(a, b),
        score=round(z, 2),
        details={
            "offered": offered,
            "taken": taken,
            "expected": round(expected, 1),
            "baseline_rate": round(p, 4),
            "ratio": round(ratio, 2),
            "z": round(z, 2),
        },
    )


def frequent_pair(
    *, a: str, b: str, together: int, tables_a: int, tables_b: int, thresholds: Thresholds
) -> Finding | None:
    """Two players at `together` private tables, out of `tables_a` and `tables_b` private tables each.

    Chance puts two players of a site together at a private table (joined by its code) almost never, so the
    count itself is the measure; share = together / min(tables_a, tables_b). Fires at ≥ `pair_min_private_tables`
    tables with share ≥ `pair_min_share`. Score: together * share."""
    smaller = min(tables_a, tables_b)
    if together < thresholds.pair_min_private_tables or smaller <= 0:
        return None
    share = together / smaller
    if share < thresholds.pair_min_share:
        return None
    return Finding(
        kind=FREQUENT_PAIR,
        players=(a, b),
        score=round(together * share, 2),
        details={
            "private_tables_together": together,
            "private_tables": {a: tables_a, b: tables_b},
            "share": round(share, 3),
        },
    )


def shared_addresses(*, seats: Sequence[tuple[str, str]], thresholds: Thresholds) -> list[Finding]:
    """Seats at one table as (player, client address): every address behind at least `address_min_accounts`
    distinct accounts. Score: the number of accounts."""
    players_at: dict[str, set[str]] = {}
    for player, address in seats:
        if address:
            players_at.setdefault(address, set()).add(player)
    return [
        Finding(
            kind=SHARED_ADDRESS,
            players=tuple(sorted(players)),
            score=float(len(players)),
            details={"address": address, "accounts": len(players)},
        )
        for address, players in sorted(players_at.items())
        if len(players) >= thresholds.address_min_accounts
    ]


def chips_moved(*, a: str, b: str, paid_ab: int, paid_ba: int) -> list[dict[str, Any]]:
    """The chips a pair paid each other, as a flag's evidence names them: `[{from, to, chips}]`, largest first."""
    moved = [(a, b, paid_ab), (b, a, paid_ba)]
    return [{"from": x, "to": y, "chips": c} for x, y, c in sorted(moved, key=lambda m: -m[2]) if c > 0]


def grant_farming(
    *,
    new_paid: Mapping[tuple[str, str], int],
    rounds: Mapping[tuple[str, str], int],
    grants: Mapping[str, int],
    thresholds: Thresholds,
) -> list[Finding]:
    """New accounts losing their grants to one player. `new_paid[(payer, payee)]`: the chips `payer` paid
    `payee` while `payer`'s account was new (`farm_new_account_days`); `rounds[pair_of(payer, payee)]`: the
    rounds they played together; `grants[payer]`: the chips the house granted the payer.

    A payer *feeds* a payee when it lost to that one payee at least `farm_min_share` of everything it paid
    while new, at least `farm_min_grant_share` of its grants, in at most `farm_max_rounds` rounds together:
    a grant handed over, not a newcomer's slow losses to a better player. Summed over each payee's feeders
    (not pair by pair: six accounts each dumping once are six small pairs but one large flow), it fires when
    at least `farm_min_accounts` accounts fed the payee at least `farm_min_chips` chips in all. Score: the
    number of feeding accounts."""
    total: dict[str, int] = {}
    for (payer, _), chips in new_paid.items():
        total[payer] = total.get(payer, 0) + chips
    fed: dict[str, dict[str, int]] = {}
    for (payer, payee), chips in new_paid.items():
        granted = grants.get(payer, 0)
        if (
            payer != payee
            and chips > 0
            and granted > 0
            and chips >= thresholds.farm_min_share * total[payer]
            and chips >= thresholds.farm_min_grant_share * granted
            and rounds.get(pair_of(payer, payee), 0) <= thresholds.farm_max_rounds
        ):
            fed.setdefault(payee, {})[payer] = chips
    findings = []
    for payee, payers in sorted(fed.items()):
        chips = sum(payers.values())
        if len(payers) < thresholds.farm_min_accounts or chips < thresholds.farm_min_chips:
            continue
        findings.append(
            Finding(
                kind=GRANT_FARMING,
                players=(payee, *sorted(payers)),
                score=float(len(payers)),
                details={
                    "payee": payee,
                    "new_accounts": len(payers),
                    "chips": chips,
                    "payers": dict(sorted(payers.items())),
                    "grants": {p: int(grants.get(p, 0)) for p in sorted(payers)},
                    "rounds_together": {p: rounds.get(pair_of(p, payee), 0) for p in sorted(payers)},
                    "chips_moved": [
                        {"from": p, "to": payee, "chips": c}
                        for p, c in sorted(payers.items(), key=lambda pc: (-pc[1], pc[0]))
                    ],
                },
            )
        )
    return findings
