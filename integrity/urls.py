from django.urls import URLPattern, path

from integrity import views

urlpatterns: list[URLPattern] = [
    path("integrity/flags/", views.FlagListView.as_view(), name="integrity-flags"),
    path("integrity/flags/<int:pk>/", views.FlagDetailView.as_view(), name="integrity-flag"),
]
