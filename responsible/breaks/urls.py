from django.urls import URLPattern, path

from responsible.breaks import views

urlpatterns: list[URLPattern] = [
    path("me/breaks/", views.MyBreaksView.as_view(), name="my-breaks"),
    path("me/breaks/revoke/", views.RevokeMyExclusionView.as_view(), name="my-breaks-revoke"),
    path("responsible/breaks/", views.BreakListView.as_view(), name="responsible-breaks"),
]
