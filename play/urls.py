from django.urls import URLPattern, path

from play import views

app_name = "play"

urlpatterns: list[URLPattern] = [
    path("", views.ClientView.as_view(), name="client"),
    path("learn/<slug:preset>/", views.LearnView.as_view(), name="learn"),
    path("sw.js", views.ServiceWorkerView.as_view(), name="service-worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
]
