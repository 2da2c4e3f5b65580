"""The integrity job (`run_checks`: load, fold, flag, save) and staff's decision on a flag (`decide`).

The job is incremental: a checkpoint holds the last settlement transfer and seat it read; each batch of new
rounds is folded into per-pair counters and the checkpoint moved in one transaction, under the checkpoint's
row lock (two runs wait for each other). A round is therefore counted once, and re-running changes nothing.
Flags are unique per (kind, subject, since): the job updates an open flag in place; once staff decide it, the
pair's counters for that signal restart after the last round read, and a later flag is a new one. Grant
farming is per payee (the subject is the payee's name), summed over the pairs of everyone who paid them."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from integrity import selectors, signals
from integrity.models import Checkpoint, Flag, FlagStatus, GameBaseline, PairStat
from integrity.signals import Finding, PairDelta, RoundFacts, Thresholds

COUNTERS = (
    "rounds",
    "paid_ab",
    "paid_ba",
    "pay_rounds_ab",
    "pay_rounds_ba",
    "timeout_paid_ab",
    "timeout_paid_ba",
    "feeds_offered",
    "feeds_taken",
    "feeds_expected",
    "new_paid_ab",
    "new_paid_ba",
)
DUMPING_COUNTERS = COUNTERS[:7]
SOFT_COUNTERS = COUNTERS[7:10]
ID_LISTS = ("round_ids", "transfer_ids", "table_ids", "private_table_ids")
# Each pair signal: the PairStat field its window starts after.
SINCE = {
    signals.CHIP_DUMPING: "dumping_since",
    signals.SOFT_PLAY: "soft_since",
    signals.FREQUENT_PAIR: "pair_since",
}


@dataclass(frozen=True)
class RunSummary:
    rounds: int
    tables: int
    flags_raised: int
    flags_updated: int
    seconds: float


def _checkpoint() -> Checkpoint:
    Checkpoint.objects.get_or_create(pk=1)
    return Checkpoint.objects.select_for_update().get(pk=1)


def run_checks(*, now: datetime | None = None, max_batches: int | None = None) -> RunSummary:
    """Read every round settled (and every seat taken) since the last run, and raise or update the flags."""
    started = time.perf_counter()
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.RAMINO_INTEGRITY_LAG_SECONDS)
    limits = selectors.thresholds()
    rounds = raised = updated = batches = 0
    while max_batches is None or batches < max_batches:
        with transaction.atomic():
            checkpoint = _checkpoint()
            facts, last = selectors.settlement_batch(
                after=checkpoint.last_transfer_id, limit=settings.RAMINO_INTEGRITY_BATCH_ROUNDS, cutoff=cutoff
            )
            if last == checkpoint.last_transfer_id:
                break
            r, u = _fold(facts, limits)
            checkpoint.last_transfer_id = last
            checkpoint.save(update_fields=["last_transfer_id"])
        rounds += len(facts)
        raised, updated, batches = raised + r, updated + u, batches + 1
    with transaction.atomic():
        checkpoint = _checkpoint()
        tables, last_seat = selectors.new_seats(after=checkpoint.last_seat_id, cutoff=cutoff)
        for table_id in sorted(tables):
            for finding in signals.shared_addresses(
                seats=selectors.table_addresses(table_id), thresholds=limits
            ):
                subject = f"table:{table_id}|{finding.details['address']}"
                moved = selectors.table_payments(table_id, finding.players)
                evidence = {"tables": [table_id], **_chips(moved)}
                r, u = _flag(finding, subject=subject, since=0, evidence=evidence)
                raised, updated = raised + r, updated + u
        seconds = time.perf_counter() - started
        checkpoint.last_seat_id = last_seat
        checkpoint.last_run_at = now
        checkpoint.last_run_seconds = seconds
        checkpoint.last_run_rounds = rounds
        checkpoint.save()
    return RunSummary(
        rounds=rounds, tables=len(tables), flags_raised=raised, flags_updated=updated, seconds=seconds
    )


def _baseline(facts: list[RoundFacts]) -> dict[str, float]:
    """Add the batch's feeds to each game's baseline; the rate of every game after it."""
    batch = signals.game_feed_rates(facts)
    rows = {row.game: row for row in GameBaseline.objects.select_for_update().filter(game__in=batch)}
    for game, (offered, taken) in batch.items():
        row = rows.get(game) or GameBaseline(game=game)
        row.offered += offered
        row.taken += taken
        row.save()
        rows[game] = row
    return {game: row.taken / row.offered for game, row in rows.items() if row.offered}


def _fold(facts: list[RoundFacts], limits: Thresholds) -> tuple[int, int]:
    if not facts:
        return 0, 0
    deltas = signals.fold_rounds(facts, _baseline(facts))
    last_round = max(f.round_id for f in facts)
    firsts = {a for a, _ in deltas}
    seconds = {b for _, b in deltas}
    stats = {
        (s.a, s.b): s
        for s in PairStat.objects.select_for_update().filter(a__in=firsts, b__in=seconds)
        if (s.a, s.b) in deltas
    }
    for key, delta in deltas.items():
        stat = stats.get(key)
        if stat is None:
            stat = stats[key] = PairStat(a=key[0], b=key[1])
        _add(stat, delta)
        stat.last_round_id = max(stat.last_round_id, last_round)
    # Rewritten as new rows (their ids kept): two statements for any number of pairs, where an UPDATE per
    # pair, or Django's bulk_update (one CASE per field), costs far more (docs/performance.md "Integrity job").
    PairStat.objects.filter(pk__in=[s.pk for s in stats.values() if s.pk is not None]).delete()
    PairStat.objects.bulk_create(list(stats.values()), batch_size=1000)
    return _evaluate(stats.values(), limits)


def _add(stat: PairStat, delta: PairDelta) -> None:
    for name in COUNTERS:
        setattr(stat, name, getattr(stat, name) + getattr(delta, name))
    for name in ID_LISTS:
        ids: list[Any] = list(getattr(stat, name))
        ids += [i for i in getattr(delta, name) if i not in ids]
        setattr(stat, name, ids[-signals.EVIDENCE_IDS :])


def _evaluate(stats: Iterable[PairStat], limits: Thresholds) -> tuple[int, int]:
    raised = updated = 0
    stats = list(stats)
    findings: list[tuple[PairStat, Finding]] = []
    for stat in stats:
        counts = {name: getattr(stat, name) for name in DUMPING_COUNTERS}
        dumping = signals.chip_dumping(a=stat.a, b=stat.b, counts=counts, thresholds=limits)
        soft = signals.soft_play(
            a=stat.a,
            b=stat.b,
            offered=stat.feeds_offered,
            taken=stat.feeds_taken,
            expected=stat.feeds_expected,
            thresholds=limits,
        )
        findings += [(stat, f) for f in (dumping, soft) if f is not None]
    candidates = [s for s in stats if len(s.private_table_ids) >= limits.pair_min_private_tables]
    counts_of = selectors.private_table_counts({n for s in candidates for n in (s.a, s.b)})
    for stat in candidates:
        pair = signals.frequent_pair(
            a=stat.a,
            b=stat.b,
            together=len(stat.private_table_ids),
            tables_a=counts_of.get(stat.a, 0),
            tables_b=counts_of.get(stat.b, 0),
            thresholds=limits,
        )
        if pair is not None:
            findings.append((stat, pair))
    for stat, finding in findings:
        since = getattr(stat, SINCE[finding.kind])
        tables = stat.private_table_ids if finding.kind == signals.FREQUENT_PAIR else stat.table_ids
        evidence = {
            "rounds": [r for r in stat.round_ids if r > since],
            "transfers": [t for r, t in stat.transfer_ids if r > since],
            "tables": tables,
            **_chips(signals.chips_moved(a=stat.a, b=stat.b, paid_ab=stat.paid_ab, paid_ba=stat.paid_ba)),
        }
        r, u = _flag(finding, subject=f"{stat.a}|{stat.b}", since=since, evidence=evidence)
        raised, updated = raised + r, updated + u
    r, u = _evaluate_farming(stats, limits)
    return raised + r, updated + u


def _chips(moved: list[dict[str, Any]]) -> dict[str, Any]:
    """A flag's chips: each flow between its players (`chips_moved`) and their sum (`chips`)."""
    return {"chips_moved": moved, "chips": sum(int(m["chips"]) for m in moved)}


def _evaluate_farming(stats: list[PairStat], limits: Thresholds) -> tuple[int, int]:
    """Grant farming for every player paid by a new account in the batch: summed over all their payers'
    counters (not only this batch's pairs), each payer's share over all that payer paid while new."""
    payees = {s.b for s in stats if s.new_paid_ab} | {s.a for s in stats if s.new_paid_ba}
    if not payees:
        return 0, 0
    incoming = list(
        PairStat.objects.filter(Q(a__in=payees, new_paid_ba__gt=0) | Q(b__in=payees, new_paid_ab__gt=0))
    )
    payers = {s.a for s in incoming if s.b in payees and s.new_paid_ab}
    payers |= {s.b for s in incoming if s.a in payees and s.new_paid_ba}
    rows = {s.pk: s for s in incoming}
    rows.update(
        (s.pk, s)
        for s in PairStat.objects.filter(
            Q(a__in=payers, new_paid_ab__gt=0) | Q(b__in=payers, new_paid_ba__gt=0)
        )
    )
    new_paid: dict[tuple[str, str], int] = {}
    for s in rows.values():
        if s.new_paid_ab:
            new_paid[(s.a, s.b)] = s.new_paid_ab
        if s.new_paid_ba:
            new_paid[(s.b, s.a)] = s.new_paid_ba
    findings = [
        f
        for f in signals.grant_farming(
            new_paid=new_paid,
            rounds={(s.a, s.b): s.rounds for s in rows.values()},
            grants=selectors.granted(payers),
            thresholds=limits,
        )
        if f.details["payee"] in payees
    ]
    raised = updated = 0
    by_pair = {(s.a, s.b): s for s in rows.values()}
    for finding in findings:
        payee = finding.details["payee"]
        since = _farm_since(payee)
        fed = [by_pair[signals.pair_of(p, payee)] for p in finding.details["payers"]]
        evidence = {
            "rounds": _newest(r for s in fed for r in s.round_ids if r > since),
            "transfers": _newest(t for s in fed for r, t in s.transfer_ids if r > since),
            "tables": _newest(t for s in fed for t in s.table_ids),
        }
        r, u = _flag(finding, subject=payee, since=since, evidence=evidence)
        raised, updated = raised + r, updated + u
    return raised, updated


def _newest(ids: Iterable[int]) -> list[int]:
    return sorted(set(ids))[-signals.EVIDENCE_IDS :]


def _farm_since(payee: str) -> int:
    """The round after which a payee's grant-farming counters run (where staff last decided a flag of theirs)."""
    found = PairStat.objects.filter(Q(a=payee) | Q(b=payee)).aggregate(since=Max("farm_since"))["since"]
    return int(found or 0)


def _flag(finding: Finding, *, subject: str, since: int, evidence: dict[str, Any]) -> tuple[int, int]:
    """Raise the flag, or update the open one with the same window; (raised, updated)."""
    evidence = {**evidence, **finding.details}
    flag = Flag.objects.filter(kind=finding.kind, subject=subject, since=since).first()
    if flag is None:
        Flag.objects.create(
            kind=finding.kind,
            subject=subject,
            since=since,
            players=list(finding.players),
            score=finding.score,
            evidence=evidence,
        )
        return 1, 0
    if flag.status != FlagStatus.OPEN or (flag.evidence == evidence and flag.score == finding.score):
        return 0, 0
    flag.players, flag.score, flag.evidence, flag.updated_at = (
        list(finding.players),
        finding.score,
        evidence,
        timezone.now(),
    )
    flag.save(update_fields=["players", "score", "evidence", "updated_at"])
    return 0, 1


def decide(*, flag_id: int, status: str | None = None, note: str | None = None, by: AbstractBaseUser) -> Flag:
    """Staff set a flag's status and note, written to the admin's log; either left out (None) stays as it is,
    and a decision that changes nothing writes nothing (an empty PATCH). Deciding a pair's flag (dismissed or
    confirmed) restarts that signal's counters for the pair after the last round read."""
    if status is not None and status not in FlagStatus.values:
        raise ValueError(f"unknown status {status!r}")
    with transaction.atomic():
        flag = Flag.objects.select_for_update().get(pk=flag_id)
        status = flag.status if status is None else status
        note = flag.note if note is None else note
        before = (flag.status, flag.note)
        if (status, note) == before:
            return flag
        if flag.status == FlagStatus.OPEN and status != FlagStatus.OPEN and flag.kind in SINCE:
            _restart(flag)
        if (
            flag.status == FlagStatus.OPEN
            and status != FlagStatus.OPEN
            and flag.kind == signals.GRANT_FARMING
        ):
            _restart_farming(payee=flag.subject)
        flag.status, flag.note = status, note
        flag.decided_by = by if status != FlagStatus.OPEN else None  # type: ignore[assignment]
        flag.decided_at = timezone.now() if status != FlagStatus.OPEN else None
        flag.updated_at = timezone.now()
        flag.save(update_fields=["status", "note", "decided_by", "decided_at", "updated_at"])
        LogEntry.objects.log_actions(
            user_id=by.pk,
            queryset=[flag],
            action_flag=CHANGE,
            change_message=[{"changed": {"fields": ["status", "note"]}}],
            single_object=True,
        )
    return flag


def _restart_farming(*, payee: str) -> None:
    """The chips new accounts paid `payee` are counted again from the last round read."""
    for stat in PairStat.objects.select_for_update().filter(Q(a=payee) | Q(b=payee)).order_by("pk"):
        if stat.a == payee:
            stat.new_paid_ba = 0
        else:
            stat.new_paid_ab = 0
        stat.farm_since = stat.last_round_id
        stat.save(update_fields=["new_paid_ab", "new_paid_ba", "farm_since"])


def _restart(flag: Flag) -> None:
    a, _, b = flag.subject.partition("|")
    stat = PairStat.objects.select_for_update().filter(a=a, b=b).first()
    if stat is None:
        return
    if flag.kind == signals.CHIP_DUMPING:
        names: tuple[str, ...] = DUMPING_COUNTERS
    elif flag.kind == signals.SOFT_PLAY:
        names = SOFT_COUNTERS
    else:
        names = ()
        stat.private_table_ids = []
    for name in names:
        setattr(stat, name, 0.0 if name == "feeds_expected" else 0)
    setattr(stat, SINCE[flag.kind], stat.last_round_id)
    stat.save()
