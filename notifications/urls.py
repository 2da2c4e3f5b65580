from django.urls import URLPattern, path

from notifications import views

urlpatterns: list[URLPattern] = [
    path("me/notifications/", views.MyNotificationsView.as_view(), name="my-notifications"),
    path("me/notifications/unread/", views.MyUnreadView.as_view(), name="my-notifications-unread"),
    path("me/notifications/read/", views.MarkReadView.as_view(), name="my-notifications-read"),
    path(
        "me/notification-settings/",
        views.MyNotificationSettingsView.as_view(),
        name="my-notification-settings",
    ),
    path("me/push-subscriptions/", views.PushSubscriptionsView.as_view(), name="my-push-subscriptions"),
    path(
        "me/push-subscriptions/unsubscribe/",
        views.PushUnsubscribeView.as_view(),
        name="my-push-unsubscribe",
    ),
]
