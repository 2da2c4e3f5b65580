"""The ledger's HTTP API: the player's wallet, admin adjustments and the staff audit endpoints."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from api.permissions import IsAdmin, IsStaff
from api.renderers import CSVRenderer
from api.schema import raises
from ledger import selectors
from ledger.errors import IdempotencyKeyInvalid, IdempotencyKeyRequired
from ledger.filters import AccountFilter, TransferFilter
from ledger.models import Account, Entry, ReconciliationRun, Transfer
from ledger.pagination import LedgerCursorPagination, NewestFirstCursorPagination
from ledger.serializers import (
    AccountSerializer,
    AdjustmentInputSerializer,
    ReconciliationRunSerializer,
    ReconciliationSerializer,
    StatementEntrySerializer,
    StatementQuerySerializer,
    StatementSerializer,
    TopUpResultSerializer,
    TransferSerializer,
    WalletEntrySerializer,
    WalletSerializer,
)
from ledger.services import grants, postings, reconciliation
from ledger.throttling import ReconciliationRequestThrottle, TopUpThrottle

CURRENCY = "chips"
MAX_IDEMPOTENCY_KEY = 200


def required_idempotency_key(request: Request) -> str:
    """The `Idempotency-Key` an admin's posting (an adjustment, a ticket grant) must carry, stripped: blank is
    `idempotency.key_required`, longer than MAX_IDEMPOTENCY_KEY `idempotency.key_invalid`."""
    key = request.headers.get("Idempotency-Key", "").strip()
    if not key:
        raise IdempotencyKeyRequired()
    if len(key) > MAX_IDEMPOTENCY_KEY:
        raise IdempotencyKeyInvalid()
    return key


FORMAT_PARAMETER = OpenApiParameter(
    "format", OpenApiTypes.STR, enum=["json", "csv"], description="`csv` exports the answer as CSV."
)

# Cursor-paginated answers carry their `next`/`previous` links in an RFC 8288 header too, which is where a CSV
# export (no room for them in its body) is walked from (ledger.pagination).
LINK_HEADER = OpenApiParameter(
    "Link",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[200],
    description='The next and previous pages, when there are any: `<url>; rel="next", <url>; rel="prev"`.',
)


class StaffAuditMixin:
    permission_classes: Sequence[Any] = [IsStaff]
    renderer_classes: Sequence[type[BaseRenderer]] = [JSONRenderer, CSVRenderer]


@extend_schema(tags=["ledger"], responses={200: WalletSerializer})
class WalletView(APIView):
    """The caller's balance, and where they stand with the house's daily top-up (`top_up`)."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request) -> Response:
        user: AbstractBaseUser = request.user  # type: ignore[assignment]
        balance = selectors.wallet_balance(user=user)
        wallet = selectors.Wallet(
            balance=balance,
            currency=CURRENCY,
            top_up=selectors.top_up(user=user, balance=selectors.chips_held(user=user), now=timezone.now()),
        )
        return Response(WalletSerializer(wallet).data)


class TopUpView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [TopUpThrottle]

    @raises(409, 422)
    @extend_schema(
        tags=["ledger"],
        request=None,
        responses={201: TopUpResultSerializer},
        description=(
            "The house's daily top-up: brings the caller's wallet up to the grant policy's floor, once per "
            "UTC day, when the balance is below it (a `grant` transfer from the house cashier). Refused, "
            "changing nothing: 409 `grant.not_available` (the site grants none), 409 "
            "`grant.already_claimed_today` (`details.transfer`, `details.next_at`), 422 `grant.above_floor`; "
            "rate-limited per player (429 `throttled`)."
        ),
    )
    def post(self, request: Request) -> Response:
        user: AbstractBaseUser = request.user  # type: ignore[assignment]
        claimed = grants.claim_daily_top_up(user=user)
        transfer = selectors.transfer_list().get(pk=claimed.transfer.pk)
        return Response(
            TopUpResultSerializer({"transfer": transfer, "balance": claimed.balance}).data,
            status=status.HTTP_201_CREATED,
        )


@extend_schema(tags=["ledger"], parameters=[LINK_HEADER])
class WalletHistoryView(generics.ListAPIView[Entry]):
    """The caller's own wallet history, newest first (cursor-paginated): every credit and debit of their
    wallet with its kind, reason, table and round, and the balance after it."""

    permission_classes = [IsAuthenticated]
    serializer_class = WalletEntrySerializer
    pagination_class = NewestFirstCursorPagination
    filter_backends: Sequence[Any] = []

    def get_queryset(self) -> Any:
        user: AbstractBaseUser = self.request.user  # type: ignore[assignment]
        return selectors.wallet_entries(user=user)


class AdjustmentView(APIView):
    permission_classes = [IsAdmin]

    @raises(409, 422)
    @extend_schema(
        tags=["ledger"],
        request=AdjustmentInputSerializer,
        responses={201: TransferSerializer},
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                {"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY, "pattern": r"\S"},
                OpenApiParameter.HEADER,
                required=True,
                description="Replays with the same key and body return the first answer; another body is 409. "
                "Blank is `idempotency.key_required`, longer than 200 characters `idempotency.key_invalid`.",
            )
        ],
        description="Credit (amount > 0) or debit (amount < 0) a player's wallet against the house cashier.",
    )
    def post(self, request: Request) -> Response:
        key = required_idempotency_key(request)
        data = AdjustmentInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        admin: AbstractBaseUser = request.user  # type: ignore[assignment]
        transfer = postings.adjust_wallet(
            user=data.validated_data["username"],
            amount=data.validated_data["amount"],
            reason=data.validated_data["reason"],
            # Keys are scoped to (user, method, path), as docs/api.md "Idempotency" says.
            idempotency_key=f"adjustment:{admin.pk}:{key}",
            posted_by=admin,
        )
        transfer = selectors.transfer_list().get(pk=transfer.pk)
        return Response(TransferSerializer(transfer).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["ledger"], parameters=[FORMAT_PARAMETER])
class AccountListView(StaffAuditMixin, generics.ListAPIView[Account]):
    serializer_class = AccountSerializer
    filterset_class = AccountFilter

    def get_queryset(self) -> Any:
        return selectors.account_list()


class StatementView(StaffAuditMixin, APIView):
    @extend_schema(
        tags=["ledger"],
        responses={200: StatementSerializer, 404: OpenApiResponse(description="No such account.")},
        parameters=[
            FORMAT_PARAMETER,
            OpenApiParameter("from", OpenApiTypes.DATETIME, description="Entries at or after this instant."),
            OpenApiParameter("to", OpenApiTypes.DATETIME, description="Entries before this instant."),
            OpenApiParameter(
                "at", OpenApiTypes.DATETIME, description="Also answer the balance at this instant."
            ),
            OpenApiParameter("cursor", OpenApiTypes.STR, description="The pagination cursor."),
            OpenApiParameter(
                "page_size",
                {"type": "integer", "minimum": 1, "maximum": LedgerCursorPagination.max_page_size},
                description="Entries per page (at most 1000).",
            ),
            LINK_HEADER,
        ],
        description="Every entry of the account with its running balance, oldest first (cursor-paginated).",
    )
    def get(self, request: Request, pk: int) -> Response:
        account = get_object_or_404(selectors.account_list(), pk=pk)
        query = StatementQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        start, end, at = (query.validated_data.get(name) for name in ("from", "to", "at"))
        paginator = LedgerCursorPagination()
        page = paginator.paginate_queryset(
            selectors.account_entries(account=account, start=start, end=end), request, view=self
        )
        if isinstance(request.accepted_renderer, CSVRenderer):
            response = Response(StatementEntrySerializer(page, many=True).data)
        else:
            statement = selectors.Statement(
                account=account,
                opening_balance=selectors.balance_at(account=account, at=start, inclusive=False)
                if start
                else 0,
                at=at,
                balance_at=selectors.balance_at(account=account, at=at) if at else None,
                next=paginator.get_next_link(),
                previous=paginator.get_previous_link(),
                results=list(page or []),
            )
            response = Response(StatementSerializer(statement).data)
        paginator.add_link_header(response)
        return response


@extend_schema(tags=["ledger"], parameters=[FORMAT_PARAMETER, LINK_HEADER])
class TransferListView(StaffAuditMixin, generics.ListAPIView[Transfer]):
    """Transfers with their reason and the computation behind them, oldest first (cursor-paginated)."""

    serializer_class = TransferSerializer
    filterset_class = TransferFilter
    pagination_class = LedgerCursorPagination

    def get_queryset(self) -> Any:
        return selectors.transfer_list()


@extend_schema(tags=["ledger"], parameters=[FORMAT_PARAMETER])
class TransferDetailView(StaffAuditMixin, generics.RetrieveAPIView[Transfer]):
    serializer_class = TransferSerializer

    def get_queryset(self) -> Any:
        return selectors.transfer_list()


class ReconciliationView(StaffAuditMixin, APIView):
    @extend_schema(
        tags=["ledger"],
        responses={200: ReconciliationSerializer},
        parameters=[FORMAT_PARAMETER],
        description=(
            "The last full reconciliation's result (every transfer balanced, every cached balance equal to "
            "its entries, chips conserved per chip type): `run`, `checked_at`, `stale` say which and how "
            "fresh; `POST /ledger/reconciliation/runs/` queues a new one. Only when no run ever finished is "
            "one run now."
        ),
    )
    def get(self, request: Request) -> Response:
        run = selectors.latest_reconciliation() or reconciliation.run_reconciliation(trigger="first_read")
        assert run.started_at is not None and run.finished_at is not None
        result = selectors.ReconciliationResult(
            run=run,
            stale=selectors.ledger_moved_since(run.started_at),
            pending=selectors.pending_reconciliation(),
        )
        return Response(ReconciliationSerializer(result).data)


class ReconciliationRunListView(StaffAuditMixin, generics.ListAPIView[ReconciliationRun]):
    """Reconciliation runs (nightly, queued by staff), newest first; POST queues a full run."""

    serializer_class = ReconciliationRunSerializer
    queryset = ReconciliationRun.objects.select_related("requested_by").order_by("-queued_at", "-id")

    def get_throttles(self) -> list[BaseThrottle]:
        return [ReconciliationRequestThrottle()] if self.request.method == "POST" else []

    @extend_schema(tags=["ledger"], parameters=[FORMAT_PARAMETER])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=["ledger"],
        request=None,
        responses={202: ReconciliationRunSerializer},
        description=(
            "Queue a full reconciliation on a worker; while one is queued or running, that one is answered "
            "(202 either way). Rate-limited per user (429 `throttled`)."
        ),
    )
    def post(self, request: Request) -> Response:
        user: AbstractBaseUser = request.user  # type: ignore[assignment]
        run, _ = reconciliation.request_reconciliation(requested_by=user)
        return Response(ReconciliationRunSerializer(run).data, status=status.HTTP_202_ACCEPTED)
