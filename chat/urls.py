from django.urls import URLPattern, path

from chat import views

urlpatterns: list[URLPattern] = [
    path("chat/phrases/", views.PhrasesView.as_view(), name="chat-phrases"),
    path("chat/rooms/<str:room>/", views.RoomView.as_view(), name="chat-room"),
    path("chat/rooms/<str:room>/messages/", views.RoomMessagesView.as_view(), name="chat-messages"),
    path("chat/messages/<int:pk>/report/", views.ReportView.as_view(), name="chat-report"),
    path("chat/reports/", views.ReportListView.as_view(), name="chat-reports"),
    path("chat/time-outs/", views.TimeOutsView.as_view(), name="chat-time-outs"),
    path("me/chat/mutes/", views.MyMutesView.as_view(), name="chat-mutes"),
    path("me/chat/mutes/<str:username>/", views.MyMuteView.as_view(), name="chat-mute"),
    path("me/chat/blocks/", views.MyBlocksView.as_view(), name="chat-blocks"),
    path("me/chat/blocks/<str:username>/", views.MyBlockView.as_view(), name="chat-block"),
]
