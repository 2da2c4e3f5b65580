from django.urls import URLPattern, URLResolver, path

from tournaments.deals import views as deal_views
from tournaments.entry_rules import views as entry_views
from tournaments.fair_play import views as fair_play_views
from tournaments.live.http import views
from tournaments.multi_table import views as multi_views
from tournaments.practice import views as practice_views
from tournaments.practice.demo import views as demo_views
from tournaments.presence import views as presence_views
from tournaments.tickets import views as ticket_views
from tournaments.tournament import views as tv

urlpatterns: list[URLPattern | URLResolver] = [
    path("tables/", views.TableListView.as_view(), name="tables"),
    path("tables/join/", views.TableJoinView.as_view(), name="tables-join"),
    path("tables/play-now/", views.PlayNowView.as_view(), name="tables-play-now"),
    path("tables/<int:table_id>/", views.TableDetailView.as_view(), name="table-detail"),
    path("tables/<int:table_id>/sit/", views.TableSitView.as_view(), name="table-sit"),
    path("tables/<int:table_id>/leave/", views.TableLeaveView.as_view(), name="table-leave"),
    path("tables/<int:table_id>/close/", views.TableCloseView.as_view(), name="table-close"),
    path("games/<int:game_id>/", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<int:game_id>/moves/", views.GameMovesView.as_view(), name="game-moves"),
    path("games/<int:game_id>/events/", views.GameEventsView.as_view(), name="game-events"),
    path("games/<int:game_id>/rounds/", views.GameRoundsView.as_view(), name="game-rounds"),
    path("games/<int:game_id>/while-away/", presence_views.WhileAwayView.as_view(), name="game-while-away"),
    path(
        "games/<int:game_id>/rounds/<int:number>/replay/",
        views.RoundReplayView.as_view(),
        name="game-round-replay",
    ),
    path("me/rounds/", views.MyRoundsView.as_view(), name="my-rounds"),
    path("me/tickets/", ticket_views.MyTicketsView.as_view(), name="my-tickets"),
    path("tickets/grant/", ticket_views.TicketGrantView.as_view(), name="tickets-grant"),
    path("me/fair-play/", fair_play_views.MyFairPlayView.as_view(), name="my-fair-play"),
    path("practice/", practice_views.PracticeView.as_view(), name="practice"),
    path("lobby/version/", tv.LobbyVersionView.as_view(), name="lobby-version"),
    path("tournaments/", tv.TournamentListView.as_view(), name="tournaments"),
    path("tournaments/join/", entry_views.TournamentJoinView.as_view(), name="tournament-join"),
    path("tournaments/<int:tournament_id>/", tv.TournamentDetailView.as_view(), name="tournament-detail"),
    path("tournaments/<int:tournament_id>/deal/", deal_views.DealView.as_view(), name="tournament-deal"),
    path(
        "tournaments/<int:tournament_id>/deal/<int:deal_id>/answer/",
        deal_views.DealAnswerView.as_view(),
        name="tournament-deal-answer",
    ),
    path(
        "tournaments/<int:tournament_id>/deals/", deal_views.DealAuditView.as_view(), name="tournament-deals"
    ),
    path("tournaments/<int:tournament_id>/register/", tv.RegisterView.as_view(), name="tournament-register"),
    path(
        "tournaments/<int:tournament_id>/unregister/",
        tv.UnregisterView.as_view(),
        name="tournament-unregister",
    ),
    path("tournaments/<int:tournament_id>/back/", tv.BackView.as_view(), name="tournament-back"),
    path("tournaments/<int:tournament_id>/rebuy/", multi_views.RebuyView.as_view(), name="tournament-rebuy"),
    path("tournaments/<int:tournament_id>/addon/", multi_views.AddonView.as_view(), name="tournament-addon"),
    path(
        "tournaments/<int:tournament_id>/standings/", tv.StandingsView.as_view(), name="tournament-standings"
    ),
    path("tournaments/<int:tournament_id>/tables/", tv.TablesView.as_view(), name="tournament-tables"),
    path(
        "tournaments/<int:tournament_id>/tables/<int:table_id>/",
        tv.TableView.as_view(),
        name="tournament-table",
    ),
    path("tournaments/<int:tournament_id>/events/", tv.EventsView.as_view(), name="tournament-events"),
    path("tournaments/<int:tournament_id>/start/", tv.StartView.as_view(), name="tournament-start"),
    path("tournaments/<int:tournament_id>/pause/", tv.PauseView.as_view(), name="tournament-pause"),
    path("tournaments/<int:tournament_id>/resume/", tv.ResumeView.as_view(), name="tournament-resume"),
    path("tournaments/<int:tournament_id>/cancel/", tv.CancelView.as_view(), name="tournament-cancel"),
    path("tournaments/<int:tournament_id>/payouts/", tv.PayoutsView.as_view(), name="tournament-payouts"),
    path("demo/", demo_views.DemoView.as_view(), name="demo"),
]
