from django.urls import URLPattern, URLResolver, path

from tournaments.fair_play import views as fair_play_views
from tournaments.live import views
from tournaments.practice import demo_views
from tournaments.practice import views as practice_views
from tournaments.tournament import views as tv

urlpatterns: list[URLPattern | URLResolver] = [
    path("tables/", views.TableListView.as_view(), name="tables"),
    path("tables/join/", views.TableJoinView.as_view(), name="tables-join"),
    path("tables/<int:table_id>/", views.TableDetailView.as_view(), name="table-detail"),
    path("tables/<int:table_id>/sit/", views.TableSitView.as_view(), name="table-sit"),
    path("tables/<int:table_id>/leave/", views.TableLeaveView.as_view(), name="table-leave"),
    path("tables/<int:table_id>/close/", views.TableCloseView.as_view(), name="table-close"),
    path("games/<int:game_id>/", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<int:game_id>/moves/", views.GameMovesView.as_view(), name="game-moves"),
    path("games/<int:game_id>/events/", views.GameEventsView.as_view(), name="game-events"),
    path("games/<int:game_id>/rounds/", views.GameRoundsView.as_view(), name="game-rounds"),
    path(
        "games/<int:game_id>/rounds/<int:number>/replay/",
        views.RoundReplayView.as_view(),
        name="game-round-replay",
    ),
    path("me/rounds/", views.MyRoundsView.as_view(), name="my-rounds"),
    path("me/fair-play/", fair_play_views.MyFairPlayView.as_view(), name="my-fair-play"),
    path("practice/", practice_views.PracticeView.as_view(), name="practice"),
    path("lobby/version/", tv.LobbyVersionView.as_view(), name="lobby-version"),
    path("tournaments/", tv.TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<int:tournament_id>/", tv.TournamentDetailView.as_view(), name="tournament-detail"),
    path("tournaments/<int:tournament_id>/register/", tv.RegisterView.as_view(), name="tournament-register"),
    path(
        "tournaments/<int:tournament_id>/unregister/",
        tv.UnregisterView.as_view(),
        name="tournament-unregister",
    ),
    path("tournaments/<int:tournament_id>/back/", tv.BackView.as_view(), name="tournament-back"),
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
