from django.urls import URLPattern, path

from responsible.limits import views

urlpatterns: list[URLPattern] = [
    path("me/limits/", views.MyLimitsView.as_view(), name="my-limits"),
    path("me/limits/withdraw/", views.WithdrawView.as_view(), name="my-limits-withdraw"),
    path("me/limits/history/", views.MyLimitHistoryView.as_view(), name="my-limits-history"),
    path("responsible/limits/", views.LimitChangeListView.as_view(), name="responsible-limit-changes"),
    path(
        "responsible/players/<str:username>/limits/",
        views.PlayerLimitsView.as_view(),
        name="responsible-player-limits",
    ),
]
