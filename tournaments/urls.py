from django.urls import URLPattern, URLResolver, path

from tournaments import views

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
]
