"""Tournaments (docs/tournaments.md; docs/api.md "Tournaments"): quick games, sit-and-gos and multi-table
tournaments, their entries, their event log and the templates of recurring ones. Their tables, seats and games
are the ring tables' own (`tournaments.models`), which re-exports everything here."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class TournamentKind(models.TextChoices):
    QUICK = "quick", _("quick game")
    SINGLE = "single", _("sit-and-go")
    MULTI = "multi", _("multi-table")


class TournamentStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("scheduled")
    REGISTERING = "registering", _("registering")
    RUNNING = "running", _("running")
    PAUSED = "paused", _("paused")
    FINISHED = "finished", _("finished")
    CANCELLED = "cancelled", _("cancelled")


class TournamentStage(models.TextChoices):
    """Where a running one-table tournament is: the main rounds, or tie-breaker rounds among the tied."""

    MAIN = "main", _("main rounds")
    TIEBREAK = "tiebreak", _("tie-breaker rounds")


# The kinds that play at one table, and their entrant bounds (docs/tournaments.md "Lifecycle").
ONE_TABLE_KINDS = (TournamentKind.QUICK, TournamentKind.SINGLE)
ONE_TABLE_MAX_ENTRANTS = 4
MULTI_MAX_ENTRANTS = 250_000


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(_("kind"), max_length=16, choices=TournamentKind.choices)
    game = models.CharField(_("game"), max_length=32)
    options = models.JSONField(_("game options"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.REGISTERING
    )
    buy_in = models.BigIntegerField(_("buy-in"))
    fee = models.BigIntegerField(_("fee"), default=0)
    guarantee = models.BigIntegerField(_("guaranteed prize pool"), default=0)
    starting_stack = models.BigIntegerField(_("starting chips"), null=True, blank=True)  # multi
    seats = models.PositiveSmallIntegerField(_("seats per table"), default=4)
    pcr_schedule = models.JSONField(_("PCR by level"), default=list, blank=True)  # multi: PCR by level
    rounds_per_level = models.PositiveSmallIntegerField(_("rounds per level"), null=True, blank=True)  # multi
    multiplier = models.PositiveIntegerField(_("multiplier"), default=1)
    target_score = models.PositiveIntegerField(_("target score"), null=True, blank=True)  # single
    rounds = models.PositiveSmallIntegerField(_("number of rounds"), null=True, blank=True)  # quick
    tiebreak_rounds = models.PositiveSmallIntegerField(_("most tie-breaker rounds"), default=5)
    min_entrants = models.PositiveIntegerField(_("fewest entrants"), default=2)
    max_entrants = models.PositiveIntegerField(_("most entrants"))
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)  # multi
    late_registration_levels = models.PositiveSmallIntegerField(_("late registration (levels)"), default=0)
    reentry = models.BooleanField(_("re-entry"), default=False)
    # Multi: rebuys and the add-on (docs/rules.md "Rebuys and the add-on"; off while `rebuy_levels` is 0).
    rebuy_levels = models.PositiveSmallIntegerField(_("rebuy period (levels)"), default=0)
    rebuy_cost = models.BigIntegerField(_("rebuy cost"), default=0)
    rebuy_fee = models.BigIntegerField(_("rebuy fee"), default=0)
    rebuy_chips = models.BigIntegerField(_("rebuy chips (empty: the starting stack)"), null=True, blank=True)
    max_rebuys = models.PositiveSmallIntegerField(_("most rebuys per entry (0: no limit)"), default=0)
    addon_cost = models.BigIntegerField(_("add-on cost"), default=0)
    addon_fee = models.BigIntegerField(_("add-on fee"), default=0)
    addon_chips = models.BigIntegerField(_("add-on chips (0: no add-on)"), default=0)
    addon_seconds = models.PositiveIntegerField(_("add-on break (seconds)"), default=60)
    # Multi: progressive knockout (docs/rules.md "Progressive knockout"; off at 0): the percent of each
    # buy-in that becomes the entrant's bounty.
    bounty_share = models.PositiveSmallIntegerField(_("bounty (percent of the buy-in)"), default=0)
    # Multi: what the rebuys and add-ons paid into the pool so far (the lobby's prize pool adds it).
    rebuys_pool = models.BigIntegerField(_("rebuys and add-ons in the pool"), default=0, editable=False)
    # Percentages by place, summing to 100 (a database trigger refuses any other sum: 0012's migration).
    payouts = models.JSONField(_("payouts (% by place)"), default=list)
    # The ledger account (kind prize_pool, reference "tournament:<id>") the buy-ins are paid into.
    pool_account = models.OneToOneField(
        "ledger.Account",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament",
        verbose_name=_("prize pool account"),
    )
    stage = models.CharField(
        _("stage"), max_length=16, choices=TournamentStage.choices, default=TournamentStage.MAIN
    )
    # Tie-breaker rounds played so far (at most `tiebreak_rounds`), and the number of the game's first one:
    # the rounds before it are the main rounds (`total`), from it on the tie-breaker's (`tiebreak_total`).
    tiebreaks_played = models.PositiveSmallIntegerField(_("tie-breaker rounds played"), default=0)
    tiebreak_from_round = models.PositiveIntegerField(_("first tie-breaker round"), null=True, blank=True)
    # Multi: when a scheduled tournament opens its registration (null: open when created).
    registration_opens_at = models.DateTimeField(_("registration opens at"), null=True, blank=True)
    # Multi: the ledger account (kind tournament_mint, chip type `tournament:<id>`) the tournament chips are
    # minted from at the start and retired to at the end: its balance is minus the chips in play.
    mint_account = models.OneToOneField(
        "ledger.Account",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="minting_tournament",
        editable=False,
        verbose_name=_("tournament chip mint"),
    )
    # Multi: the highest level any table has reached (0 before the start).
    level = models.PositiveIntegerField(_("level"), default=0)
    # Multi, at the bubble: tables deal round-for-round; `sync_round` is the synchronized round released.
    round_for_round = models.BooleanField(_("round for round"), default=False)
    sync_round = models.PositiveIntegerField(_("synchronized round"), default=0)
    # Multi: how many bust groups so far (a group: the players busted by one settlement); orders the busts.
    bust_groups = models.PositiveIntegerField(_("bust groups"), default=0)
    # Multi, kept by the runtime under the tournament's lock so that a table's job never counts entries or
    # tables: the entries still playing (seated with chips or waiting at a table) and the tables still open.
    players_left = models.PositiveIntegerField(_("players left"), default=0, editable=False)
    tables_open = models.PositiveIntegerField(_("tables open"), default=0, editable=False)
    # Multi: how many open tables seat how many players ({"size": tables}, `services.table_sizes`), kept by the
    # tables' jobs under the same lock: a job reads every table only when its plan could move someone.
    table_sizes = models.JSONField(_("table sizes"), default=dict, blank=True, editable=False)
    # Multi, while a large field's start seats it in batches (`multi_table.start`): the seed of its shuffle
    # (every batch computes the same tables from it) and when its last batch committed (the sweeper re-sends a
    # lost one); both cleared once every table is seated and dealt. Never shown.
    start_seed = models.BigIntegerField(_("start seed"), null=True, blank=True, editable=False)
    start_step_at = models.DateTimeField(_("start's last step at"), null=True, blank=True, editable=False)
    # Multi: the tables the start has seated (None before it). The start seats while this is short of the tables
    # the field needs; `tables_open` is no measure of that, since a job may break a table that the start dealt
    # while later steps still deal. Nullable so that SQLite adds the column in place (no table remade).
    tables_seated = models.PositiveIntegerField(_("tables seated"), null=True, blank=True, editable=False)
    # Kept in the transactions that change them (`tournament.counters`), so that the list, registration and the
    # lobby never count entries: the live entries (registered, playing, busted, finished) and the re-entries.
    # The reconciliation (`counters.check`) compares them with a count.
    entrants = models.PositiveIntegerField(_("entrants"), default=0, editable=False)
    reentries = models.PositiveIntegerField(_("re-entries"), default=0, editable=False)
    # Bumped by every `TournamentEvent` (the lobby's live updates follow it).
    version = models.PositiveIntegerField(_("version"), default=0)
    # A simulation's tournament (`simulate_tournament --instant`): each round's scores are drawn at random
    # instead of played. Never set for a real tournament.
    instant_rounds = models.BooleanField(_("simulated rounds"), default=False, editable=False)
    template = models.ForeignKey(
        "TournamentTemplate",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("template"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="created_tournaments",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # Multi: why its scheduled start failed (`tournament_schedule`), empty otherwise. While the tournament is
    # still registering, the last failure being retried; once cancelled, why it could not start. A start that
    # succeeds clears it; `start_failures` keeps the count of the attempts that failed.
    error = models.CharField(_("error"), max_length=500, blank=True, default="", editable=False)
    start_failures = models.PositiveIntegerField(_("failed starts"), default=0, editable=False)
    # A satellite (docs/rules.md "Satellites"): its prizes are tickets to one tournament, or to the next
    # tournament created from one recurring template (`tournaments.satellites`). Neither: not a satellite.
    satellite_target = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="satellites",
        verbose_name=_("satellite to tournament"),
    )
    satellite_template = models.ForeignKey(
        "TournamentTemplate",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="satellites",
        verbose_name=_("satellite to the next tournament of"),
    )
    # Entry rule: only entries paid with a ticket (`tournaments.tickets`).
    tickets_only = models.BooleanField(_("tickets only"), default=False)
    # Entry rules (docs/rules.md "Entry rules"; `tournaments.entry_rules`): a rating band in the tournament's game
    # family, newcomers only (fewer rated results than `max_rated_results`), and private (unlisted, joined with
    # `code`, as private tables are).
    min_rating = models.IntegerField(_("lowest rating"), null=True, blank=True)
    max_rating = models.IntegerField(_("highest rating"), null=True, blank=True)
    max_rated_results = models.PositiveIntegerField(
        _("newcomers: fewer rated results than"), null=True, blank=True
    )
    private = models.BooleanField(_("private"), default=False)
    code = models.CharField(_("join code"), max_length=16, null=True, blank=True, unique=True, editable=False)
    # Multi: the final-table deal (docs/rules.md "The final-table deal"; `tournaments.deals`): how long the
    # players have to answer an offer, and the percentage of the unpaid prizes kept to play for.
    deal_seconds = models.PositiveIntegerField(_("deal: seconds to answer"), default=60)
    deal_keep = models.PositiveSmallIntegerField(_("deal: % kept to play for"), default=10)

    class Meta:
        ordering = ["-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=TournamentKind.values), name="tournament_kind_known"),
            models.CheckConstraint(
                condition=Q(status__in=TournamentStatus.values), name="tournament_status_known"
            ),
            models.CheckConstraint(
                condition=Q(buy_in__gte=0, fee__gte=0, guarantee__gte=0), name="tournament_chips_non_negative"
            ),
            models.CheckConstraint(
                condition=Q(
                    rebuy_cost__gte=0,
                    rebuy_fee__gte=0,
                    addon_cost__gte=0,
                    addon_fee__gte=0,
                    addon_chips__gte=0,
                    bounty_share__lte=100,
                )
                & (Q(rebuy_chips__isnull=True) | Q(rebuy_chips__gte=1)),
                name="tournament_rebuy_addon_bounty_ranges",
            ),
            models.CheckConstraint(
                condition=Q(min_entrants__gte=2, max_entrants__gte=models.F("min_entrants")),
                name="tournament_entrant_range",
            ),
            models.CheckConstraint(
                condition=~Q(kind__in=[k.value for k in ONE_TABLE_KINDS])
                | Q(max_entrants__lte=ONE_TABLE_MAX_ENTRANTS),
                name="tournament_one_table_at_most_four",
            ),
            models.CheckConstraint(
                condition=~Q(kind=TournamentKind.QUICK)
                | Q(rounds__isnull=False, rounds__gte=1, rounds__lte=3),
                name="tournament_quick_has_rounds",
            ),
            models.CheckConstraint(
                condition=~Q(kind=TournamentKind.SINGLE) | Q(target_score__isnull=False, target_score__gte=1),
                name="tournament_single_has_target",
            ),
            models.CheckConstraint(
                condition=~Q(kind=TournamentKind.MULTI)
                | Q(
                    starting_stack__isnull=False,
                    starting_stack__gte=1,
                    rounds_per_level__isnull=False,
                    rounds_per_level__gte=1,
                    starts_at__isnull=False,
                ),
                name="tournament_multi_has_stack_levels_and_start",
            ),
            models.CheckConstraint(
                condition=Q(tiebreaks_played__lte=models.F("tiebreak_rounds")),
                name="tournament_tiebreaks_within_cap",
            ),
            models.CheckConstraint(
                condition=Q(stage=TournamentStage.MAIN) | Q(tiebreak_from_round__isnull=False),
                name="tournament_tiebreak_has_first_round",
            ),
            models.CheckConstraint(
                condition=Q(finished_at__isnull=True) | Q(status__in=["finished", "cancelled"]),
                name="tournament_finished_at_only_when_over",
            ),
            models.CheckConstraint(
                condition=Q(min_rating__isnull=True)
                | Q(max_rating__isnull=True)
                | Q(min_rating__lte=models.F("max_rating")),
                name="tournament_rating_band_ordered",
            ),
            models.CheckConstraint(
                condition=(Q(private=True) & Q(code__isnull=False))
                | (Q(private=False) & Q(code__isnull=True)),
                name="tournament_private_has_code",
            ),
            models.CheckConstraint(
                condition=Q(deal_keep__lte=100, deal_seconds__gte=1), name="tournament_deal_settings_in_range"
            ),
            # A template's beat firing twice creates one tournament (`tournament_templates.create_from_template`).
            models.CheckConstraint(
                condition=Q(satellite_target__isnull=True) | Q(satellite_template__isnull=True),
                name="tournament_satellite_one_target",
            ),
            models.UniqueConstraint(
                fields=["template", "starts_at"],
                condition=Q(template__isnull=False),
                name="tournament_one_per_template_start",
            ),
        ]

    def __str__(self) -> str:
        return _("tournament %(id)s: %(name)s") % {"id": self.pk, "name": self.name}


class EntryStatus(models.TextChoices):
    REGISTERED = "registered", pgettext_lazy("entry status", "registered")
    PLAYING = "playing", pgettext_lazy("entry status", "playing")
    BUSTED = "busted", pgettext_lazy("entry status", "busted")
    FINISHED = "finished", pgettext_lazy("entry status", "finished")
    # History: the entry was refunded before the start (unregistered, or the tournament cancelled).
    UNREGISTERED = "unregistered", pgettext_lazy("entry status", "unregistered")
    REFUNDED = "refunded", pgettext_lazy("entry status", "refunded")


LIVE_ENTRY_STATUSES = (EntryStatus.REGISTERED, EntryStatus.PLAYING, EntryStatus.BUSTED, EntryStatus.FINISHED)


class TournamentEntry(models.Model):
    """One player's entry into one tournament (a new row when registering again after unregistering)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="entries", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="tournament_entries",
        verbose_name=_("player"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=EntryStatus.choices, default=EntryStatus.REGISTERED
    )
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    # Points of the main rounds (quick, single), and of the tie-breaker rounds scored on their own.
    total = models.BigIntegerField(_("points"), default=0)
    in_tiebreak = models.BooleanField(_("in the tie-breaker"), default=False)
    tiebreak_total = models.BigIntegerField(_("tie-breaker points"), default=0)
    place = models.PositiveIntegerField(_("place"), null=True, blank=True)
    prize = models.BigIntegerField(_("prize"), default=0)
    table = models.ForeignKey(
        "tournaments.Table",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_entries",
        verbose_name=_("table"),
    )
    # Multi: the seat the entry plays from (its stack account holds the entry's tournament chips).
    seat = models.ForeignKey(
        "tournaments.Seat",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("seat"),
    )
    # Multi: how often balancing moved this player (the planner moves those moved least often first).
    times_moved = models.PositiveIntegerField(_("times moved"), default=0)
    # Multi: re-entries paid after busting (`reentry`), each a new buy-in and a new starting stack.
    reentries = models.PositiveIntegerField(_("re-entries"), default=0)
    # Multi, rebuys (docs/rules.md "Rebuys and the add-on"): rebuys paid since the entry's last (re-)entry,
    # whether it took the add-on, and the round in which it lost its last chips while it may still rebuy
    # (it stays seated until its table's next deal).
    rebuys = models.PositiveIntegerField(_("rebuys"), default=0)
    addon = models.BooleanField(_("add-on taken"), default=False)
    held_round = models.BigIntegerField(_("round of the bust held for a rebuy"), null=True, blank=True)
    # Multi, progressive knockout (docs/rules.md "Progressive knockout"): the bounty on the entry's head (site
    # chips held in the tournament's bounty account) and the bounties paid to the player so far.
    bounty = models.BigIntegerField(_("bounty"), default=0)
    bounties_won = models.BigIntegerField(_("bounties won"), default=0)
    # Multi, once busted: the bust group (`Tournament.bust_groups` at the time) and the keys ranking the busts
    # of one group (docs/tournaments.md "Multi-table tournaments: seating and places"): chips at the start of
    # that round, then the round's melded-and-built value.
    bust_group = models.PositiveIntegerField(_("bust group"), null=True, blank=True)
    bust_start_chips = models.BigIntegerField(
        _("chips at the start of the bust round"), null=True, blank=True
    )
    bust_melded = models.BigIntegerField(_("melded in the bust round"), null=True, blank=True)
    busted_at = models.DateTimeField(_("busted at"), null=True, blank=True)
    # The ticket's chip type when the entry was paid with a ticket (`tournaments.tickets`); empty: paid in chips.
    ticket = models.CharField(_("paid with ticket"), max_length=64, blank=True, default="")
    # A satellite's entry: the tickets it won (docs/rules.md "Satellites").
    tickets_won = models.PositiveSmallIntegerField(_("tickets won"), default=0)

    class Meta:
        ordering = ["tournament_id", "registered_at", "id"]
        verbose_name = _("tournament entry")
        verbose_name_plural = _("tournament entries")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(status__in=[s.value for s in LIVE_ENTRY_STATUSES]),
                name="tournament_entry_one_live_per_player",
            ),
            models.CheckConstraint(
                condition=Q(status__in=EntryStatus.values), name="tournament_entry_status_known"
            ),
            models.CheckConstraint(condition=Q(prize__gte=0), name="tournament_entry_prize_non_negative"),
            models.CheckConstraint(
                condition=Q(prize=0) | Q(place__isnull=False), name="tournament_entry_prize_has_place"
            ),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(place__gte=1), name="tournament_entry_place_positive"
            ),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(status__in=["busted", "finished"]),
                name="tournament_entry_place_only_when_out",
            ),
            models.CheckConstraint(
                condition=Q(bust_group__isnull=True) | Q(status__in=["busted", "finished"]),
                name="tournament_entry_bust_group_only_when_out",
            ),
        ]
        indexes = [
            # The busted entries by place: the standings' pages after the players still in
            # (tournaments/multi_table/selectors.py `running_standings`).
            models.Index(
                fields=["tournament", "place", "registered_at", "id"],
                condition=Q(status="busted"),
                name="tourn_entry_busted_by_place",
            ),
        ]

    def __str__(self) -> str:
        return _("entry %(id)s in tournament %(tournament)s") % {
            "id": self.pk,
            "tournament": self.tournament_id,
        }


class TournamentEvent(models.Model):
    """What happened in a tournament at each version (the lobby's live updates): started, level, busted,
    moved, table_broken, round_for_round, final_table, paused, resumed, finished, cancelled. Append-only."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.PROTECT,
        related_name="events",
        db_index=False,
        verbose_name=_("tournament"),
    )
    version = models.PositiveIntegerField(_("version"))
    kind = models.CharField(_("kind"), max_length=32)
    data = models.JSONField(_("data"), default=dict)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "version"]
        verbose_name = _("tournament event")
        verbose_name_plural = _("tournament events")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "version"], name="tournament_event_version_unique"),
        ]

    def __str__(self) -> str:
        return f"event {self.version} ({self.kind}) of tournament {self.tournament_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValueError("tournament events are append-only")
        super().save(*args, **kwargs)


class TournamentTemplate(models.Model):
    """A recurring multi-table tournament: a django-celery-beat periodic task (`periodic_task`, editable in the
    admin) creates a tournament from `settings` each time it fires, registering from then on and starting
    `registration_minutes` later."""

    name = models.CharField(_("name"), max_length=100, unique=True)
    # The tournament's settings as `tournament_setup.validate` takes them (name and times excluded).
    tournament_settings = models.JSONField(_("tournament settings"), default=dict)
    registration_minutes = models.PositiveIntegerField(_("registration minutes"), default=60)
    # When it fires: a cron line "minute hour day-of-month month day-of-week" in `crontab_timezone`, copied to
    # the periodic task's CrontabSchedule by `tournament_templates.save_template`.
    crontab = models.CharField(_("when (cron line)"), max_length=100, default="0 20 * * *")
    crontab_timezone = models.CharField(_("time zone"), max_length=63, default="UTC")
    active = models.BooleanField(_("active"), default=True)
    periodic_task = models.OneToOneField(
        "django_celery_beat.PeriodicTask",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_template",
        verbose_name=_("periodic task"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("created by")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("recurring tournament")
        verbose_name_plural = _("recurring tournaments")

    def __str__(self) -> str:
        return str(self.name)
