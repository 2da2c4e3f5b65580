"""Progressive knockout in multi-table tournaments (docs/rules.md "Progressive knockout"): each entry's bounty
(`entry_payments.entry_bounty`, site chips held in the tournament's bounty account from its buy-in), the
bounty of a busted player split between the round's winners they paid (half paid at once to their wallets, the
rest added to their bounties), the champion's own bounty at the end, and the bounties of the players still in
when a running tournament is cancelled. Every payment a ledger transfer whose computation is kept as data
(`planning.bounties.Knockout.as_data`), keyed by its cause. The caller holds the tournament's row lock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger.models import Account, TransferKind
from ledger.services import accounts, postings
from tournaments.live.models import Round
from tournaments.multi_table.planning.bounties import from_dealers_left, knockout
from tournaments.tournament import events
from tournaments.tournament.entry_payments import bounty_account, entry_bounty, pool_account
from tournaments.tournament.models import EntryStatus, Tournament, TournamentEntry

SYSTEM = "tournaments.multi_knockouts"


def is_on(tournament: Tournament) -> bool:
    return entry_bounty(tournament) > 0


def start_bounties(tournament: Tournament, *, entry_ids: Sequence[int]) -> None:
    """At the start: the playing entries just seated (one batch of a batched start) carry the tournament's
    bounty (one UPDATE)."""
    bounty = entry_bounty(tournament)
    if bounty:
        TournamentEntry.objects.filter(
            tournament=tournament, status=EntryStatus.PLAYING, pk__in=list(entry_ids)
        ).update(bounty=bounty)


def new_bounty(tournament: Tournament, entry: TournamentEntry) -> None:
    """A late entry or a re-entry carries a new bounty (its buy-in paid it into the bounty account)."""
    bounty = entry_bounty(tournament)
    if bounty:
        entry.bounty = bounty
        entry.save(update_fields=["bounty"])


def _bust_round(round_: Round, entry: TournamentEntry) -> Round:
    """The round in which the entry lost its last chips (a bust held for a rebuy keeps its round)."""
    if entry.held_round is None or entry.held_round == round_.pk:
        return round_
    return Round.objects.filter(pk=entry.held_round).first() or round_


def winners_paid(round_: Round, name: str) -> list[str]:
    """The players `name` paid in the round, in seat order from the dealer's left."""
    paid_to = {str(t["to"]) for t in round_.transfers or [] if t.get("from") == name and int(t["amount"]) > 0}
    return from_dealers_left([str(p) for p in round_.players], int(round_.dealer), paid_to)


def knock_out(
    *, tournament: Tournament, busted: Sequence[tuple[TournamentEntry, str]], round_: Round
) -> list[dict[str, Any]]:
    """The bounties of the `busted` (entry, player) of a table's round: each split between the winners the
    player paid. Answers each knockout's computation."""
    done: list[dict[str, Any]] = []
    for entry, name in busted:
        if entry.bounty <= 0:
            continue
        bust_round = _bust_round(round_, entry)
        winners = winners_paid(bust_round, name)
        done.append(_pay_knockout(tournament, entry, name, bust_round, winners))
    if done:
        events.record(tournament=tournament, kind="knockouts", data={"knockouts": done})
    return done


def _pay_knockout(
    tournament: Tournament, entry: TournamentEntry, name: str, bust_round: Round, winners: list[str]
) -> dict[str, Any]:
    key = f"tournament:{tournament.pk}:entry:{entry.pk}:knockout:{entry.reentries}"
    source = Account.objects.select_for_update().get(pk=bounty_account(tournament).pk)
    bounty = entry.bounty
    computation: dict[str, Any] = {
        "why": "knockout",
        "entry": entry.pk,
        "player": name,
        "round": bust_round.pk,
        "winners": winners,
    }
    if not winners:
        # Nobody was paid (cannot happen in a settled round): the bounty joins the prize pool.
        computation |= {"bounty": bounty, "to_pool": bounty}
        postings.post_transfer(
            kind=TransferKind.TRANSFER,
            legs=[(source, -bounty), (pool_account(tournament), bounty)],
            idempotency_key=key,
            reason=f"bounty of entry {entry.pk} to the pool of tournament {tournament.pk}",
            tournament_id=tournament.pk,
            entry_id=entry.pk,
            computation=computation,
            posted_by_system=SYSTEM,
        )
    else:
        split = knockout(bounty=bounty, winners=winners)
        winner_entries = {
            e.player.get_username(): e
            for e in TournamentEntry.objects.select_for_update(of=("self",))
            .filter(tournament=tournament, player__username__in=winners)
            .exclude(status__in=[EntryStatus.UNREGISTERED, EntryStatus.REFUNDED])
            .select_related("player")
            .order_by("pk")
        }
        paid = dict(split.paid)
        added = dict(split.added)
        for winner, e in winner_entries.items():
            if e.status != EntryStatus.PLAYING:  # no head left to carry it: paid at once too
                paid[winner] += added.pop(winner)
        computation |= split.as_data() | {"paid": paid, "added": added}
        legs = [(accounts.get_wallet(user=winner_entries[w].player), a) for w, a in paid.items() if a]
        if legs:
            postings.post_transfer(
                kind=TransferKind.PAYOUT,
                legs=[(source, -sum(a for _, a in legs)), *legs],
                idempotency_key=key,
                reason=f"bounty of entry {entry.pk} in tournament {tournament.pk}",
                tournament_id=tournament.pk,
                entry_id=entry.pk,
                computation=computation,
                posted_by_system=SYSTEM,
            )
        for winner, e in winner_entries.items():
            e.bounty += added.get(winner, 0)
            e.bounties_won += paid.get(winner, 0)
            e.save(update_fields=["bounty", "bounties_won"])
    entry.bounty = 0
    entry.save(update_fields=["bounty"])
    return computation


def pay_own_bounties(*, tournament: Tournament, why: str) -> Any:
    """Every playing entry receives its own bounty (the champion at the end; the players still in when a
    running tournament is cancelled): one transfer, the bounty account left empty."""
    source = Account.objects.select_for_update().get(pk=bounty_account(tournament).pk)
    if source.balance == 0:
        return None
    holders = list(
        TournamentEntry.objects.select_for_update(of=("self",))
        .filter(tournament=tournament, status=EntryStatus.PLAYING, bounty__gt=0)
        .select_related("player")
        .order_by("pk")
    )
    owed = {e.player.get_username(): e.bounty for e in holders}
    assert sum(owed.values()) == source.balance, "every bounty is paid exactly once"
    transfer = postings.post_transfer(
        kind=TransferKind.PAYOUT,
        legs=[(source, -source.balance), *[(accounts.get_wallet(user=e.player), e.bounty) for e in holders]],
        idempotency_key=f"tournament:{tournament.pk}:bounties:{why}",
        reason=f"own bounties ({why}) of tournament {tournament.pk}",
        tournament_id=tournament.pk,
        computation={"why": why, "bounties": owed},
        posted_by_system=SYSTEM,
    )
    for e in holders:
        e.bounties_won += e.bounty
        e.bounty = 0
        e.save(update_fields=["bounty", "bounties_won"])
    events.record(tournament=tournament, kind="bounties_paid", data={"why": why, "bounties": owed})
    return transfer
