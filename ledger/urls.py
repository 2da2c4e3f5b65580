from django.urls import URLPattern, URLResolver, path

from ledger import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("wallet/", views.WalletView.as_view(), name="wallet"),
    path("wallet/top-up/", views.TopUpView.as_view(), name="wallet-top-up"),
    path("wallet/transfers/", views.WalletHistoryView.as_view(), name="wallet-transfers"),
    path("ledger/adjustments/", views.AdjustmentView.as_view(), name="ledger-adjustments"),
    path("ledger/accounts/", views.AccountListView.as_view(), name="ledger-accounts"),
    path("ledger/accounts/<int:pk>/statement/", views.StatementView.as_view(), name="ledger-statement"),
    path("ledger/transfers/", views.TransferListView.as_view(), name="ledger-transfers"),
    path("ledger/transfers/<int:pk>/", views.TransferDetailView.as_view(), name="ledger-transfer"),
    path("ledger/reconciliation/", views.ReconciliationView.as_view(), name="ledger-reconciliation"),
    path(
        "ledger/reconciliation/runs/",
        views.ReconciliationRunListView.as_view(),
        name="ledger-reconciliation-runs",
    ),
]
