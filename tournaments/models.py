"""The app's models, for Django (which loads `<app>.models`) and for migrations: each is defined beside its
concern, live play's in `tournaments/live/models.py` and the tournaments' in `tournaments/tournament/models.py`.
Code imports them from those modules."""

from tournaments.deals.models import Deal, DealMethod, DealStatus
from tournaments.fair_play.models import Abandonment, AbandonmentKind, BarLift
from tournaments.live.models import (
    SEATED_STATUSES,
    Game,
    GameEvent,
    GameStatus,
    IdempotentRequest,
    MoveLog,
    Round,
    RoundPlayer,
    Seat,
    SeatStatus,
    Table,
    TableStatus,
)
from tournaments.multi_table.groups import TableGroup
from tournaments.practice.models import BotLevel, PracticeTable
from tournaments.presence.models import PresenceLease, PresenceReturn, ReconnectAllowance
from tournaments.tournament.models import (
    LIVE_ENTRY_STATUSES,
    MULTI_MAX_ENTRANTS,
    ONE_TABLE_KINDS,
    ONE_TABLE_MAX_ENTRANTS,
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentEvent,
    TournamentKind,
    TournamentStage,
    TournamentStatus,
    TournamentTemplate,
)

__all__ = [
    "LIVE_ENTRY_STATUSES",
    "MULTI_MAX_ENTRANTS",
    "ONE_TABLE_KINDS",
    "ONE_TABLE_MAX_ENTRANTS",
    "SEATED_STATUSES",
    "Abandonment",
    "AbandonmentKind",
    "BarLift",
    "BotLevel",
    "Deal",
    "DealMethod",
    "DealStatus",
    "EntryStatus",
    "Game",
    "GameEvent",
    "GameStatus",
    "IdempotentRequest",
    "MoveLog",
    "PracticeTable",
    "PresenceLease",
    "PresenceReturn",
    "ReconnectAllowance",
    "Round",
    "RoundPlayer",
    "Seat",
    "SeatStatus",
    "Table",
    "TableGroup",
    "TableStatus",
    "Tournament",
    "TournamentEntry",
    "TournamentEvent",
    "TournamentKind",
    "TournamentStage",
    "TournamentStatus",
    "TournamentTemplate",
]
