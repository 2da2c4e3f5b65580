"""Table groups of a large multi-table tournament (docs/tournaments.md "Table groups"): a group is a run of the
tournament's table ids, one row each (`TableGroup`). A table's seating plan reads and locks only its group's tables
when that keeps the whole field balanced (`planning.groups.plan_within_group`); otherwise it plans every open
table, and the groups are then merged as the field shrinks. A tournament of at most `RAMINO_TABLE_GROUP_TABLES`
tables has no groups: its plans read every table, as ever.

When the group alone will not do, the plan reads the groups whose histogram shows a table off the size every
kept table should have (`candidates`: the groups rebalanced against each other), else every open table. Each
group keeps a histogram of its open tables' sizes, written with the tournament's by the same writers (busts,
plans, late entries, the start); it only chooses the groups read: whether a plan over them is exact is decided
on the sizes read and the tournament's histogram, so a histogram gone wrong costs a plan over every table, never
a wrong plan.

Groups are made by the start (each batch's new tables), extended by a table opened later (it falls in the last
group), merged as the field shrinks and dropped once the open tables fit one group: by the exclusive job or a
plan holding the tournament's plans' lock alone. A group's histogram is written by the jobs holding the tournament's
counters: its busting jobs, its own plans (which hold its plans' lock alone, `quiet.group_lock`) and the plans over
several groups."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.conf import settings
from django.db import models
from django.db.models import Count, Q
from django.utils.translation import gettext_lazy as _

from tournaments.live.models import SEATED_STATUSES, Seat, Table, TableStatus
from tournaments.multi_table.planning import groups as plan_groups
from tournaments.multi_table.planning import table_sizes
from tournaments.tournament.models import Tournament


class TableGroup(models.Model):
    """A group of a multi-table tournament's tables: those of its tournament with ids from `first_table` to
    `last_table` (the last group's ends at `planning.groups.OPEN_END`)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="table_groups", verbose_name=_("tournament")
    )
    first_table = models.BigIntegerField(_("first table id"))
    last_table = models.BigIntegerField(_("last table id"))
    # How many of its open tables seat how many players ({"size": tables}), kept with the tournament's
    # `table_sizes` by the same writers; it only chooses which groups a plan reads (`candidates`).
    table_sizes = models.JSONField(_("table sizes"), default=dict, blank=True, editable=False)

    class Meta:
        ordering = ["tournament", "first_table"]
        verbose_name = _("table group")
        verbose_name_plural = _("table groups")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "first_table"], name="table_group_first_unique"),
            models.CheckConstraint(
                condition=Q(last_table__gte=models.F("first_table")), name="table_group_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.first_table}-{self.last_table}"


def per_group() -> int:
    return max(2, int(settings.RAMINO_TABLE_GROUP_TABLES))


# A plan reads at most this many groups; past that, every open table.
MAX_GROUPS_READ = 8


def grouped(tournament: Tournament, *, tables: int) -> bool:
    """Does a field of `tables` tables get groups?"""
    return tables > per_group()


def add_tables(tournament: Tournament, sizes: Mapping[int, int], *, last: bool) -> None:
    """The start's new tables (one batch: id -> players) made into groups; `last`: the last batch, whose last
    group is open-ended (late tables fall in it). Caller holds the tournament's lock."""
    runs = plan_groups.ranges(list(sizes), per_group=per_group())
    rows = [
        TableGroup(
            tournament=tournament,
            first_table=first,
            last_table=end,
            table_sizes=table_sizes.histogram(n for t, n in sizes.items() if first <= t <= end),
        )
        for first, end in runs
    ]
    if last and rows:
        rows[-1].last_table = plan_groups.OPEN_END
    TableGroup.objects.bulk_create(rows, ignore_conflicts=True)


def group_of(tournament: Tournament | int, table_id: int) -> TableGroup | None:
    """The group of `table_id` in `tournament` (or its id); None: the tournament has no groups."""
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    return TableGroup.objects.filter(
        tournament_id=tournament_id, first_table__lte=table_id, last_table__gte=table_id
    ).first()


def resize(tournament: Tournament, table_id: int, *, old: int, new: int) -> None:
    """One table's size changed from `old` to `new`: its group's histogram kept (no group: nothing)."""
    if old == new:
        return
    group = group_of(tournament, table_id)
    if group is not None:
        group.table_sizes = table_sizes.resized(group.table_sizes or {}, old=old, new=new)
        TableGroup.objects.filter(pk=group.pk).update(table_sizes=group.table_sizes)


def candidates(group: TableGroup, *, players_left: int, tables_open: int, seats: int) -> list[TableGroup]:
    """The groups a plan over more than its own group reads: `group` and every group whose histogram shows an
    open table off the size every kept table has or may have (`target`), at most `MAX_GROUPS_READ` of them;
    empty when there are more (the plan reads every open table). One statement over the tournament's groups."""
    surplus = max(0, tables_open - max(1, -(-players_left // seats)))
    low = plan_groups.band(players_left=players_left, tables_open=tables_open - surplus)
    target = str(min(low + 1, seats))
    chosen = [group]
    for row in TableGroup.objects.filter(tournament_id=group.tournament_id).exclude(pk=group.pk):
        if any(size != target for size, count in (row.table_sizes or {}).items() if int(count) > 0):
            chosen.append(row)
            if len(chosen) > MAX_GROUPS_READ:
                return []
    return chosen


def sizes_in(tournament: Tournament, chosen: Sequence[TableGroup]) -> dict[int, int]:
    """Every open table of these groups, its seated players: their open tables down the primary key's index,
    then their seats counted down the seats' index on their table (two statements reading these groups' rows
    only; one aggregate over a join made PostgreSQL scan every seat of the database)."""
    within = Q(pk__in=[])
    for group in chosen:
        within |= Q(pk__gte=group.first_table, pk__lte=group.last_table)
    tables = list(
        Table.objects.filter(within, tournament=tournament, status=TableStatus.OPEN).values_list(
            "pk", flat=True
        )
    )
    sizes = dict.fromkeys(tables, 0)
    seated = (
        Seat.objects.filter(table_id__in=tables, status__in=SEATED_STATUSES)
        .values("table_id")
        .annotate(size=Count("pk"))
        .values_list("table_id", "size")
        .order_by()
    )
    sizes.update(seated)
    return sizes


def planned(tournament: Tournament, chosen: Sequence[TableGroup], after: Mapping[int, int]) -> None:
    """After a plan over these groups (`after`: their open tables' sizes after it): their histograms rewritten,
    then the groups merged as the field shrinks."""
    for group in chosen:
        keep_histogram(group, after)
    merge(tournament)


def keep_histogram(group: TableGroup, after: Mapping[int, int]) -> None:
    """The group's histogram rewritten from its open tables' sizes (`after` may hold other groups' too)."""
    hist = table_sizes.histogram(n for t, n in after.items() if group.first_table <= t <= group.last_table)
    if hist != group.table_sizes:
        group.table_sizes = hist
        TableGroup.objects.filter(pk=group.pk).update(table_sizes=hist)


def merge_due(tournament: Tournament, group: TableGroup, *, tables: int, tables_open: int) -> bool:
    """Would `merge` change the groups once `group` has `tables` open tables and the tournament `tables_open` (a
    plan within the group made)? Such a plan is left to a plan that may merge them (`quiet`)."""
    if tables_open <= per_group():
        return True
    rows = list(TableGroup.objects.filter(tournament=tournament).order_by("first_table"))
    counted = [
        (
            row.first_table,
            row.last_table,
            tables if row.pk == group.pk else sum(int(c) for c in (row.table_sizes or {}).values()),
        )
        for row in rows
    ]
    return len(plan_groups.merged(counted, per_group=per_group())) != len(rows)


def rewrite(tournament: Tournament, sizes: Mapping[int, int]) -> None:
    """Every group's histogram from every open table's size (`sizes`, read by a plan over every table or a
    late entry), then the groups merged as the field shrinks."""
    planned(tournament, list(TableGroup.objects.filter(tournament=tournament)), sizes)


def merge(tournament: Tournament) -> int:
    """The groups merged as the field shrinks (`planning.groups.merged`, on their histograms' table counts), all
    dropped once the open tables fit one group. Answers how many groups are left."""
    rows = list(TableGroup.objects.filter(tournament=tournament).order_by("first_table"))
    if not rows:
        return 0
    if tournament.tables_open <= per_group():
        TableGroup.objects.filter(tournament=tournament).delete()
        return 0
    counted = [
        (row.first_table, row.last_table, sum(int(c) for c in (row.table_sizes or {}).values()))
        for row in rows
    ]
    runs = plan_groups.merged(counted, per_group=per_group())
    if len(runs) == len(rows):
        return len(rows)
    keep = dict(runs)
    merged_into: TableGroup | None = None
    for row in rows:
        if row.first_table in keep:
            merged_into = row
            if keep[row.first_table] != row.last_table:
                row.last_table = keep[row.first_table]
                TableGroup.objects.filter(pk=row.pk).update(last_table=row.last_table)
        else:
            assert merged_into is not None
            merged_into.table_sizes = table_sizes.added(
                merged_into.table_sizes or {},
                (int(size) for size, count in (row.table_sizes or {}).items() for _ in range(int(count))),
            )
            TableGroup.objects.filter(pk=merged_into.pk).update(table_sizes=merged_into.table_sizes)
            row.delete()
    return len(runs)
