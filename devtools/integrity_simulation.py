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
  can, a card the other can meld with, and otherwise play greedily;
- farming: a "master" and `farm_accounts` new accounts, each of which sits heads-up with the master at a table
  of high PCR with its grant (`farm_stack` chips) and loses it in `farm_rounds` round(s) (the dumper's play,
  as the server plays a player who left at the deal);
- regular (honest, for grant farming's false positives): a strong player (greedy) whom `farm_accounts` weak
  new players (random bots) each play heads-up for `rounds` rounds, the newcomers' only opponent.

Every simulated account counts as new, granted `GRANT` chips (the worst case for grant farming's false
positives: every honest loser's payments are a new account's).
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
GROUPS = ("farming", "regular")
STACK = 1_000_000
# What the house granted every simulated (new) account: a welcome grant.
GRANT = 1_000


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
    stack: int = STACK,
    chosen: Mapping[str, Any] | None = None,
) -> SimTable:
    """`rounds` rounds at a private table of `players` (the first two collude unless `behaviour` is honest);
    `chosen` names each player's bot instead of `behaviour`'s."""
    rules = Ruleset.preset(game)
    chosen = chosen if chosen is not None else _bots(behaviour, players, bots, seed)
    table = SimTable(
        table_id=table_id,
        behaviour=behaviour,
        players=tuple(players),
        colluders=tuple(players[:2]) if behaviour != "honest" else (),
    )
    left = dict.fromkeys(players, stack)
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
                stacks={p: left[p] for p in order},
                seat_order=order,
            )
            payments = tuple(Payment(payer=a, payee=b, amount=c) for a, b, c in settlement.transfers if c)
            for payment in payments:
                left[payment.payer] -= payment.amount
                left[payment.payee] += payment.amount
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
                new_players=frozenset(players),
            )
        )
        if any(chips <= 0 for chips in left.values()):
            break  # a player lost their stack: the table is over
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
    # Grant farming, per group (a master or a regular and the new accounts that played them).
    farms: int = 0
    farms_detected: int = 0
    regulars: int = 0
    regulars_flagged: int = 0


@dataclass(frozen=True)
class Group:
    """A `GROUPS` behaviour: the player at its centre and the tables where each new account played them."""

    behaviour: str
    centre: str
    tables: tuple[SimTable, ...]


def evaluate(tables: Sequence[SimTable], thresholds: Thresholds, groups: Sequence[Group] = ()) -> Rates:
    """Fold every table's rounds (with the baseline they give), run the pair signals on every pair and grant
    farming over every payee; `groups`' tables are read with the others."""
    grouped = [t for g in groups for t in g.tables]
    every = [r for t in (*tables, *grouped) for r in t.rounds]
    # The soft-play baseline of the tables measured (the groups' random newcomers would move it).
    measured = [r for t in tables for r in t.rounds]
    rates = {
        game: taken / offered
        for game, (offered, taken) in signals.game_feed_rates(measured).items()
        if offered
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
    new_paid: dict[tuple[str, str], int] = {}
    for (a, b), d in deltas.items():
        new_paid[(a, b)], new_paid[(b, a)] = d.new_paid_ab, d.new_paid_ba
    rounds = {pair: d.rounds for pair, d in deltas.items()}
    grants = dict.fromkeys({payer for payer, _ in new_paid}, GRANT)
    farmed = signals.grant_farming(new_paid=new_paid, rounds=rounds, grants=grants, thresholds=thresholds)
    for finding in farmed:
        for payer in finding.details["payers"]:
            flagged.setdefault(signals.pair_of(payer, finding.details["payee"]), set()).add(finding.kind)
    payees = {f.details["payee"] for f in farmed}
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
        farms=sum(1 for g in groups if g.behaviour == "farming"),
        farms_detected=sum(1 for g in groups if g.behaviour == "farming" and g.centre in payees),
        regulars=sum(1 for g in groups if g.behaviour == "regular"),
        regulars_flagged=sum(1 for g in groups if g.behaviour == "regular" and g.centre in payees),
    )


def simulate_group(
    *,
    first_table_id: int,
    behaviour: str,
    name: str,
    accounts: int,
    rounds: int,
    seed: int,
    game: str = "rummy500",
    farm_pcr: int = 1_000,
    farm_stack: int = GRANT,
) -> Group:
    """A farm (a master and `accounts` new accounts each losing `farm_stack` chips to them, heads-up at PCR
    `farm_pcr`, in at most `rounds` rounds) or a regular (a greedy player whom `accounts` new random bots each
    play heads-up for `rounds` rounds)."""
    rng = random.Random(seed)
    centre = f"{name}m"
    played = []
    for i in range(accounts):
        account = f"{name}n{i}"
        players = [account, centre]
        if behaviour == "farming":
            bots: dict[str, Any] = {account: DumperBot(), centre: GreedyBot()}
            pcr, stack = farm_pcr, farm_stack
        else:
            bots = {account: RandomBot(rng.randrange(1 << 30)), centre: GreedyBot()}
            pcr, stack = 1, STACK
        played.append(
            simulate_table(
                table_id=first_table_id + i,
                behaviour="honest",
                players=players,
                rounds=rounds,
                seed=rng.randrange(1 << 30),
                game=game,
                pcr=pcr,
                stack=stack,
                chosen=bots,
            )
        )
    return Group(behaviour=behaviour, centre=centre, tables=tuple(played))


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
    farms: int = 0,
    farm_accounts: int = 6,
    farm_rounds: int = 1,
) -> tuple[Rates, list[SimTable]]:
    """`tables` dumping and `tables` soft-playing tables among `honest_tables` honest ones (as many unless told),
    `rounds` rounds each, distinct players at every table; and `farms` grant farms beside as many regulars
    (`simulate_group`: `farm_accounts` new accounts each, `farm_rounds` rounds a farm account plays)."""
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
    groups: list[Group] = []
    for behaviour in GROUPS:
        for _ in range(farms):
            groups.append(
                simulate_group(
                    first_table_id=100_000 + len(groups) * 1_000,
                    behaviour=behaviour,
                    name=f"g{len(groups)}",
                    accounts=farm_accounts,
                    rounds=farm_rounds if behaviour == "farming" else rounds,
                    seed=rng.randrange(1 << 30),
                    game=game,
                )
            )
    every = played + [t for g in groups for t in g.tables]
    return evaluate(played, thresholds or Thresholds(), groups), every
