"""A table's busts after its round (docs/tournaments.md "Multi-table tournaments: seating and places"): the
players left without chips out, one bust group for the round, their places once no comeback is possible. Run
by the exclusive job (`progress`, the tournament's row `FOR UPDATE`) and by a busting job on the shared path
(`quiet`): the table's part first (the seats freed, the entries out), then, once `before_counting` has taken the
tournament's counters for the transaction, the counted part (the bust group, `players_left`, the places, the
knockouts and the events), so that busting jobs take turns only for that last part."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils import timezone

from tournaments.live import cash_out, melded_values, seats_with_stacks, table_settings
from tournaments.live.models import Round, Table
from tournaments.multi_table import faults, knockouts, rebuys
from tournaments.multi_table.planning.bust_ranking import Bust, places_for_busts
from tournaments.multi_table.policy import MultiTablePolicy
from tournaments.tournament import events
from tournaments.tournament.models import EntryStatus, Tournament, TournamentEntry


def comeback_possible(tournament: Tournament) -> bool:
    """Can registration still bring a player in (late registration, re-entry)? Until then busts get no place
    (the finish places them, `bust_ranking.final_places`)."""
    return tournament.level <= tournament.late_registration_levels


@dataclass(frozen=True)
class TablesPart:
    """A table's busts with its part done (the seats freed, the stacks retired, the entries out), their counted
    part to come (`count_busts`: the bust group and the places); the players held for a rebuy, to be told so the
    first time (`fresh`)."""

    busts: tuple[tuple[TournamentEntry, str], ...]
    fresh: tuple[str, ...]


def bust_players(
    tournament: Tournament, table: Table, round_: Round, *, before_counting: Callable[[], None] | None = None
) -> None:
    """Seats of this table left without chips: their entries busted, one bust group for the round. The caller
    holds the table's game lock and the tournament's row: `FOR UPDATE` (the exclusive job), or shared with
    `before_counting` given, which takes the counters (`quiet.Counters.take`: the row `FOR NO KEY UPDATE`, the
    counters read again) before anything reads or writes them or records an event."""
    part = bust_table(tournament, table, round_)
    if part is not None:
        count_busts(tournament, table, round_, part, before_counting=before_counting)


def bust_table(tournament: Tournament, table: Table, round_: Round) -> TablesPart | None:
    """The table's part of its busts: the seats without chips freed (a player held for a rebuy stays), nothing
    the counters hold read or written. None: nobody without chips."""
    seats = [s for s in seats_with_stacks(table) if s.stack_account.balance <= 0]
    if not seats:
        return None
    entries = {
        e.seat_id: e
        for e in TournamentEntry.objects.select_for_update(of=("self",)).filter(
            seat_id__in=[s.pk for s in seats], status=EntryStatus.PLAYING
        )
    }
    # In the rebuy period a player without chips stays until the table's next deal (docs/rules.md "Rebuys and
    # the add-on"); an event tells their page the first time (a job run again records nothing new).
    before = {pk: e.held_round for pk, e in entries.items()}
    held = [
        s
        for s in seats
        if s.pk in entries
        and rebuys.keep_seated(
            tournament=tournament,
            table=table,
            round_=round_,
            entry=entries[s.pk],
            name=s.player.get_username(),
        )
    ]
    fresh = tuple(s.player.get_username() for s in held if before[s.pk] is None)
    seats = [s for s in seats if s not in held]
    busts: list[tuple[TournamentEntry, str]] = []
    if seats:
        melded = melded_values(round_.result or {}, table_settings.build_rules(table.game, table.options))
        now = timezone.now()
        policy = MultiTablePolicy(tournament, table)
        for seat in seats:
            cash_out(seat=seat, table=table, policy=policy)  # no chips: the chair is freed
            entry = entries.get(seat.pk)
            if entry is None:
                continue
            name = seat.player.get_username()
            entry.status = EntryStatus.BUSTED
            entry.busted_at = now
            entry.bust_start_chips = int((round_.stacks or {}).get(name, 0))
            entry.bust_melded = int(melded.get(name, 0))
            entry.seat = None
            # Saved now: a plan made before the busts are counted reads the table's players (`quiet`).
            entry.save(update_fields=["status", "busted_at", "bust_start_chips", "bust_melded", "seat"])
            busts.append((entry, name))
    return TablesPart(busts=tuple(busts), fresh=fresh)


def count_busts(
    tournament: Tournament,
    table: Table,
    round_: Round,
    part: TablesPart,
    *,
    before_counting: Callable[[], None] | None = None,
) -> None:
    """The counted part of a table's busts, after `bust_table`: the players held for a rebuy told, one bust group
    numbered, `players_left`, the places, the knockouts, the entries saved and the `busted` event. One job at a
    time per tournament (the counters, taken by `before_counting` first), in the order that numbers the bust
    groups."""
    if not part.fresh and not part.busts:
        return
    (before_counting or (lambda: None))()
    if part.fresh:
        events.record(
            tournament=tournament,
            kind="rebuy_wait",
            data={"table": table.pk, "round": round_.number, "waiting": list(part.fresh)},
        )
    busts = list(part.busts)
    if not busts:
        return
    tournament.bust_groups += 1
    for entry, _ in busts:
        entry.bust_group = tournament.bust_groups
    tournament.players_left -= len(busts)
    knockouts.knock_out(tournament=tournament, busted=busts, round_=round_)
    places: dict[int, int] = {}
    if not comeback_possible(tournament):
        places = places_for_busts(
            [
                Bust(entry=e.pk, start_chips=int(e.bust_start_chips or 0), melded=int(e.bust_melded or 0))
                for e, _ in busts
            ],
            still_in=tournament.players_left,
        )
    for entry, _ in busts:
        entry.place = places.get(entry.pk)
        entry.save(update_fields=["bust_group", "place"])
    tournament.save(update_fields=["bust_groups", "players_left"])
    events.record(
        tournament=tournament,
        kind="busted",
        data={
            "table": table.pk,
            "round": round_.number,
            "group": tournament.bust_groups,
            "players": [{"entry": e.pk, "player": name, "place": e.place} for e, name in busts],
            "players_left": tournament.players_left,
        },
    )
    faults.pause_point(faults.ROUND_END)  # the crash tests' SIGKILL (tournaments/multi_table/faults.py)
