from django.urls import URLPattern, path

from responsible.verification import views

urlpatterns: list[URLPattern] = [
    path("me/verification/", views.MyVerificationView.as_view(), name="my-verification"),
    path(
        "responsible/verifications/", views.VerificationListView.as_view(), name="responsible-verifications"
    ),
]
