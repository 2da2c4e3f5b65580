from django.urls import URLPattern, URLResolver, path

from accounts import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("auth/register/", views.RegisterView.as_view(), name="auth-register"),
    path("auth/token/", views.TokenView.as_view(), name="auth-token"),
    path("auth/logout/", views.LogoutView.as_view(), name="auth-logout"),
    path("auth/logout-all/", views.LogoutAllView.as_view(), name="auth-logout-all"),
]
