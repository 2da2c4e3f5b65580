from django.urls import URLPattern, path

from ratings import views

urlpatterns: list[URLPattern] = [
    path("players/<str:username>/", views.PlayerView.as_view(), name="player-detail"),
    path("players/<str:username>/history/", views.PlayerHistoryView.as_view(), name="player-history"),
    path("leaderboards/", views.LeaderboardView.as_view(), name="leaderboards"),
]
