from django.urls import URLPattern, path

from responsible.sessions import views

urlpatterns: list[URLPattern] = [
    path("me/session/", views.MySessionView.as_view(), name="my-session"),
    path("me/session/reality-check/", views.RealityCheckView.as_view(), name="my-reality-check"),
]
