"""Simulated tables for measuring the integrity signals: honest bots, chip dumpers and soft players.

Rounds are played by the engine's bots directly (no database), settled by the ledger's pure PCR maths and
returned as `signals.RoundFacts`, the values the job folds; `measure` runs many tables of each behaviour
through `signals.fold_rounds` and the signals and counts which pairs are flagged
(`manage.py simulate_integrity`; docs/performance.md "Integrity signals" reports the rates).

- honest: every player is the engine's greedy bot (or random bot with `bots="random"`; with `bots="mixed"`
  the first player is random, a weak player among greedy ones);
- dumping: one player (the dumper) never melds and discards their lowest card, keeping the high ones in
  hand, so that they lose every round to their partner, a greedy bot;
- soft: two partners who see each other's hands (as colluders on the phone do) each discard, whenever they
  can, a card the other can meld with, and otherwise play greedily.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from integrity import signals
from integrity.signals import Payment, RoundFacts, Thresholds
from ledger.settlement import pcr_settlement
from tournaments.engine import Ruleset, apply_move, close_claims, hand_value, legal_moves, new_round
from tournaments.engine.bots import GreedyBot, RandomBot
from tournaments.engine.cards import is_joker, rank_of, suit_of
from tournaments.engine.melds import single_extensions
from tournaments.engine.state import RoundState

BEHAVIOURS = ("honest", "dumping", "soft")
STACK = 1_000_000


def usable_by(card: str, hand: Sequence[str], state: RoundState | None = None) -> bool:
    """Whether `card` makes a set (two of its rank) or a run (two neighbours of its suit) with `hand`, or
    (given the round) may be laid off on a meld on the table."""
    if is_joker(card):
        return True
    if state is not None and any(card in single_extensions(m.cards, state.rules) for m in state.melds):
        return True
    naturals = [c for c in hand if not is_joker(c)]
    rank, suit = rank_of(card), suit_of(card)
    if sum(1 for c in naturals if rank_of(c) == rank) >= 2:
        return True
    near = {rank_of(c) for c in naturals if suit_of(c) == suit}
    return any({rank + a, rank + b} <= near for a, b in ((-2, -1), (-1, 1), (1, 2)))


class DumperBot:
    """Loses on purpose: draws from the stock, never melds, discards the lowest card it holds."""

    def choose(self, state: RoundState, player: str) -> dict[str, Any]:
        moves = legal_moves(state, player)
        if state.phase == "claims":
            return {"type": "pass_claim"}
        stock = [m for m in moves if m["type"] == "draw" and m.get("source") == "stock"]
        if stock:
            return stock[0]
        discards = [m for m in moves if m["type"] == "discard"]
        if discards:
            return min(discards, key=lambda m: (hand_value(m["card"], state.rules), m["card"]))
        return moves[0]


class SoftBot:
    """Greedy, but passes its partner the cards the partner can use: rather than melding or laying off such a
    card, or discarding another, it discards it."""

    def __init__(self, partner: str) -> None:
        self.partner = partner
        self.greedy = GreedyBot()

    def choose(self, state: RoundState, player: str) -> dict[str, Any]:
        move = self.greedy.choose(state, player)
        if move["type"] not in ("discard", "meld", "lay_off"):
            return move
        partner_hand = state.hand_of(self.partner)
        feeding = [
            m
            for m in legal_moves(state, player)
            if m["type"] == "discard" and usable_by(m["card"], partner_hand, state)
        ]
        return feeding[0] if feeding else move


@dataclass
class SimTable:
    table_id: int
    behaviour: str
    players: tuple[str, ...]
    colluders: tuple[str, ...]
    rounds: list[RoundFacts] = field(default_factory=list)


def _bots(behaviour: str, players: Sequence[str], bots: str, seed: int) -> dict[str, Any]:
    # "mixed": the first player random (a weak player), the others greedy.
    weak = {"random": range(len(players)), "mixed": range(1)}.get(bots, range(0))
    chosen: dict[str, Any] = {
        p: RandomBot(seed * 10 + i) if i in weak else GreedyBot() for i, p in enumerate(players)
    }
    if behaviour == "dumping":
        chosen[players[0]] = DumperBot()
        chosen[players[1]] = GreedyBot()
    elif behaviour == "soft":
        chosen[players[0]] = SoftBot(players[1])
        chosen[players[1]] = SoftBot(players[0])
    return chosen


def play(
    state: RoundState, bots: Mapping[str, Any], *, max_moves: int = 5000
) -> tuple[RoundState, list[tuple[str, dict[str, Any]]]]:
    """The round played to its end, and its moves in order (as the move log keeps them)."""
    log: list[tuple[str, dict[str, Any]]] = []
    for _ in range(max_moves):
        if state.phase == "over":
            return state, log
        if not state.may_act:
            state = close_claims(state)
            continue
        player = state.may_act[0]
        move = bots[player].choose(state, player)
        state = apply_move(state, player, move)
        log.append((player, move))
    raise RuntimeError("the round did not end")


def simulate_table(
    *,
    table_id: int,
    behaviour: str,
    players: Sequence[str],
    rounds: int,
    seed: int,
    game: str = "rummy500",
    pcr: int = 1,
    bots: str = "greedy",
) -> SimTable:
    """`rounds` rounds at a private table of `players` (the first two collude unless `behaviour` is honest)."""
    rules = Ruleset.preset(game)
    chosen = _bots(behaviour, players, bots, seed)
    table = SimTable(
        table_id=table_id,
        behaviour=behaviour,
        players=tuple(players),
        colluders=tuple(players[:2]) if behaviour != "honest" else (),
    )
    for number in range(rounds):
        round_id = table_id * 10_000 + number + 1
        state = new_round(rules, list(players), dealer=number % len(players), seed=seed * 100_003 + number)
        ended, log = play(state, chosen)
        assert ended.result is not None
        payments: tuple[Payment, ...] = ()
        if not ended.result.redeal:
            order = list(players)
            settlement = pcr_settlement(
                scores={p: int(ended.result.scores.get(p, 0)) for p in order},
                pcr=pcr,
                stacks=dict.fromkeys(order, STACK),
                seat_order=order,
            )
            payments = tuple(Payment(payer=a, payee=b, amount=c) for a, b, c in settlement.transfers)
        moves = tuple((p, m) for p, m in log if m["type"] in ("draw", "discard", "end_round"))
        table.rounds.append(
            RoundFacts(
                round_id=round_id,
                table_id=table_id,
                game=game,
                private=True,
                players=tuple(players),
                payments=payments,
                transfer_ids=(round_id,),
                moves=moves,
            )
        )
    return table


@dataclass(frozen=True)
class Rates:
    """Per behaviour: tables, colluding pairs flagged with the right kind; pairs of two honest players (and
    of a colluder with an honest player, at tables of three or more) flagged with any kind."""

    tables: dict[str, int]
    detected: dict[str, int]
    false_positive_pairs: int
    honest_pairs: int
    bystanders_flagged: int = 0
    bystander_pairs: int = 0


def evaluate(tables: Sequence[SimTable], thresholds: Thresholds) -> Rates:
    """Fold every table's rounds (with the baseline they give) and run the pair signals on every pair."""
    every = [r for t in tables for r in t.rounds]
    rates = {
        game: taken / offered for game, (offered, taken) in signals.game_feed_rates(every).items() if offered
    }
    deltas = signals.fold_rounds(every, rates)
    flagged: dict[tuple[str, str], set[str]] = {}
    for (a, b), d in deltas.items():
        counts = {
            n: getattr(d, n) for n in ("rounds", "paid_ab", "paid_ba", "pay_rounds_ab", "pay_rounds_ba")
        }
        counts |= {"timeout_paid_ab": d.timeout_paid_ab, "timeout_paid_ba": d.timeout_paid_ba}
        for finding in (
            signals.chip_dumping(a=a, b=b, counts=counts, thresholds=thresholds),
            signals.soft_play(
                a=a,
                b=b,
                offered=d.feeds_offered,
                taken=d.feeds_taken,
                expected=d.feeds_expected,
                thresholds=thresholds,
            ),
        ):
            if finding is not None:
                flagged.setdefault((a, b), set()).add(finding.kind)
    want = {"dumping": signals.CHIP_DUMPING, "soft": signals.SOFT_PLAY}
    detected = dict.fromkeys(want, 0)
    false_positive = honest_pairs = bystanders = bystanders_flagged = 0
    counted = dict.fromkeys(BEHAVIOURS, 0)
    for table in tables:
        counted[table.behaviour] += 1
        pairs = {signals.pair_of(a, b) for i, a in enumerate(table.players) for b in table.players[i + 1 :]}
        colluding = signals.pair_of(*table.colluders) if table.colluders else None
        for pair in pairs:
            if pair == colluding:
                detected[table.behaviour] += int(want[table.behaviour] in flagged.get(pair, set()))
            elif set(pair) & set(table.colluders):
                bystanders += 1
                bystanders_flagged += int(bool(flagged.get(pair)))
            else:
                honest_pairs += 1
                false_positive += int(bool(flagged.get(pair)))
    return Rates(
        tables=counted,
        detected=detected,
        false_positive_pairs=false_positive,
        honest_pairs=honest_pairs,
        bystanders_flagged=bystanders_flagged,
        bystander_pairs=bystanders,
    )


def measure(
    *,
    tables: int,
    honest_tables: int | None = None,
    rounds: int,
    seats: int = 2,
    seed: int = 0,
    game: str = "rummy500",
    bots: str = "greedy",
    thresholds: Thresholds | None = None,
) -> tuple[Rates, list[SimTable]]:
    """`tables` dumping and `tables` soft-playing tables among `honest_tables` honest ones (as many unless told),
    `rounds` rounds each, distinct players at every table."""
    rng = random.Random(seed)
    played: list[SimTable] = []
    count = {"honest": tables if honest_tables is None else honest_tables, "dumping": tables, "soft": tables}
    for behaviour in BEHAVIOURS:
        for _ in range(count[behaviour]):
            table_id = len(played) + 1
            players = [f"t{table_id}p{i}" for i in range(seats)]
            played.append(
                simulate_table(
                    table_id=table_id,
                    behaviour=behaviour,
                    players=players,
                    rounds=rounds,
                    seed=rng.randrange(1 << 30),
                    game=game,
                    bots=bots,
                )
            )
    return evaluate(played, thresholds or Thresholds()), played
