"""The staff audit pages (/audit/): server-rendered, read-only but for "run reconciliation now".

Staff only (`is_staff`; others are sent to the admin's sign-in). They read through `audit.selectors` and the
ledger's selectors; no page shows a running round's hidden cards. docs/web.md describes them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.core.paginator import Paginator
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from audit import charts, exports
from audit import selectors as audit
from audit.computation import computation_rows
from audit.forms import KIND_NAMES, STATUS_NAMES, EntryFilterForm, PlayerSearchForm, TournamentSearchForm
from chat import selectors as chat_selectors
from ledger import selectors as ledger
from ledger.models import Entry
from ledger.services import reconciliation
from responsible.limits import selectors as limits
from responsible.limits.models import LimitName
from tournaments.fair_play import selectors as fair_play

ENTRIES_PER_PAGE = 100
RECONCILIATION_HISTORY = 20
RECENT_ROUNDS = 20
TOURNAMENTS_PER_PAGE = 20

View = Callable[..., HttpResponseBase]


def staff_page(view: View) -> View:
    return staff_member_required(view, login_url="admin:login")


def _missing(request: HttpRequest, what: str) -> HttpResponse:
    return render(request, "audit/message.html", {"title": _("Not found"), "message": what}, status=404)


def _bad_request(request: HttpRequest, form: Any) -> HttpResponse:
    return render(
        request, "audit/message.html", {"title": _("Bad request"), "errors": form.errors}, status=400
    )


def _reconciliation(request: HttpRequest) -> dict[str, Any]:
    run = ledger.latest_reconciliation()
    return {
        "latest": run,
        "stale": ledger.ledger_moved_since(run.started_at) if run and run.started_at else None,
        "pending": ledger.pending_reconciliation(),
        "history": ledger.reconciliation_history(limit=RECONCILIATION_HISTORY),
    }


@staff_page
@require_GET
def index(request: HttpRequest) -> HttpResponse:
    search = PlayerSearchForm(request.GET or None)
    if "username" in request.GET and search.is_valid():
        return HttpResponseRedirect(reverse("audit:player", args=[search.cleaned_data["username"]]))
    wanted = TournamentSearchForm(request.GET)
    found = wanted.cleaned_data if wanted.is_valid() else {}
    tournaments = Paginator(
        audit.tournament_list(search=found.get("name", ""), status=found.get("status", "")),
        TOURNAMENTS_PER_PAGE,
    )
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "audit/index.html",
        {
            "search": search if "username" in request.GET else PlayerSearchForm(),
            **_reconciliation(request),
            "rounds": audit.recent_rounds(limit=RECENT_ROUNDS),
            "export": EntryFilterForm(),
            "tournament_search": wanted,
            "tournaments": tournaments.get_page(request.GET.get("page")),
            "tournament_query": query.urlencode(),
            "status_names": STATUS_NAMES,
            "kind_names": KIND_NAMES,
        },
    )


@staff_page
@require_GET
def reconciliation_section(request: HttpRequest) -> HttpResponse:
    """The index's reconciliation section alone: audit/reconciliation.js fetches it while a run is pending."""
    return render(request, "audit/reconciliation.html", _reconciliation(request))


@staff_page
@require_GET
def reconciliation_status(request: HttpRequest) -> JsonResponse:
    """The latest finished run and the pending one, for scripts and monitors (staff only)."""
    run = ledger.latest_reconciliation()
    pending = ledger.pending_reconciliation()
    return JsonResponse(
        {
            "latest": None
            if run is None
            else {
                "id": run.pk,
                "ok": run.ok,
                "finished_at": run.finished_at.isoformat() if run.finished_at else None,
            },
            "pending": None if pending is None else {"id": pending.pk, "status": pending.status},
        }
    )


@staff_page
@require_POST
def run_reconciliation(request: HttpRequest) -> HttpResponse:
    # At most one run is queued at a time: pressing again while one waits answers that one.
    run, queued = reconciliation.request_reconciliation(requested_by=request.user)  # type: ignore[arg-type]
    if queued:
        messages.success(
            request,
            _("Reconciliation #%(id)s queued; a worker runs it shortly and this page shows the result.")
            % {"id": run.pk},
        )
    else:
        messages.info(request, _("Reconciliation #%(id)s is already waiting or running.") % {"id": run.pk})
    return HttpResponseRedirect(reverse("audit:index"))


@staff_page
@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    user = audit.player(username=username)
    if user is None:
        return _missing(request, _("No player is named %(name)s.") % {"name": username})
    flow = audit.chip_flow(user=user)
    entries = Paginator(ledger.player_entries(user=user).order_by("-id"), ENTRIES_PER_PAGE)
    page = entries.get_page(request.GET.get("page"))
    results = [(table, audit.settled_result(kinds), kinds) for table, kinds in sorted(flow.per_table.items())]
    return render(
        request,
        "audit/player.html",
        {
            "player": user,
            "flow": flow,
            "page": page,
            "per_table": results,
            "moves": audit.MOVES,
            "fair_play": fair_play.standing_of(player_id=user.pk),
            "abandonments": fair_play.recent_abandonments(player_id=user.pk, limit=10),
            "chat_time_outs": list(chat_selectors.time_outs_of(player_id=user.pk)[:20]),
            **_limits_context(user=user),
            "flow_chart": charts.step_chart(
                title=_("Chips of %(name)s over time") % {"name": username},
                series={
                    _("wallet"): flow.wallet_series,
                    _("wallet, tables and tournament entries"): flow.total_series,
                },
            ),
            "table_chart": charts.bar_chart(
                title=_("Settled result of %(name)s per table") % {"name": username},
                rows=[(_("table %(id)s") % {"id": table}, result) for table, result, _k in results],
            ),
        },
    )


@staff_page
@require_GET
def round_settlement(request: HttpRequest, round_id: int) -> HttpResponse:
    settlement = audit.round_settlement(round_id=round_id)
    if settlement is None:
        return _missing(request, _("There is no round %(id)s.") % {"id": round_id})
    return render(request, "audit/round.html", {"s": settlement, "c": settlement.computation})


@staff_page
@require_GET
def round_settlement_csv(request: HttpRequest, round_id: int) -> HttpResponseBase:
    settlement = audit.round_settlement(round_id=round_id)
    if settlement is None:
        return _missing(request, _("There is no round %(id)s.") % {"id": round_id})
    round_ = settlement.round
    rows = (
        [
            round_.pk,
            settlement.table.pk,
            round_.number,
            row.player,
            row.seat_number,
            row.stack,
            row.score,
            row.winner,
            row.difference,
            row.owed,
            row.capped_at_own_stack,
            row.payable,
            row.paid,
            row.kept,
            row.received,
            row.ledger_net,
        ]
        for row in settlement.rows
    )
    return exports.csv_response(
        exports.csv_lines(exports.SETTLEMENT_COLUMNS, rows), f"ramino-round-{round_.pk}-settlement.csv"
    )


@staff_page
@require_GET
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    found = audit.table_audit(table_id=table_id)
    if found is None:
        return _missing(request, _("There is no table %(id)s.") % {"id": table_id})
    return render(
        request,
        "audit/table.html",
        {
            "t": found,
            "flow_chart": charts.flow_matrix(
                title=_("Who paid whom at table %(id)s") % {"id": table_id},
                players=found.players,
                paid=found.paid,
            ),
            "standings_chart": charts.bar_chart(
                title=_("Settled result per player at table %(id)s") % {"id": table_id}, rows=found.standings
            ),
        },
    )


@staff_page
@require_GET
def transfer(request: HttpRequest, transfer_id: int) -> HttpResponse:
    found = audit.transfer_detail(transfer_id=transfer_id)
    if found is None:
        return _missing(request, _("There is no transfer %(id)s.") % {"id": transfer_id})
    transfer_, seats = found
    legs = [(entry, seats.get(entry.account_id)) for entry in transfer_.entries.all()]
    return render(
        request,
        "audit/transfer.html",
        {"transfer": transfer_, "legs": legs, "computation": computation_rows(transfer_.computation)},
    )


@staff_page
@require_GET
def tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    report = audit.payout_report(tournament_id=tournament_id)
    if report.tournament is None and not report.transfers:
        return _missing(request, _("There is no tournament %(id)s.") % {"id": tournament_id})
    return render(
        request,
        "audit/tournament.html",
        {
            "report": report,
            "status_names": STATUS_NAMES,
            "kind_names": KIND_NAMES,
            "standings_chart": charts.bar_chart(
                title=_("Payouts of tournament %(id)s") % {"id": tournament_id}, rows=report.standings
            ),
            "bounties": _bounties(report.transfers),
            "deals": audit.deals(tournament_id=tournament_id),
        },
    )


# The computations' `why` of a progressive knockout's bounty transfers (docs/rules.md "Progressive knockout").
BOUNTY_REASONS = ("knockout", "champion", "cancellation")


def _bounties(transfers: Any) -> list[dict[str, Any]]:
    """The tournament's bounty payments, each with its computation: a knockout's bounty, winners, the half paid
    at once and what was added to each winner's bounty; the champion's or a cancellation's own bounties."""
    rows = []
    for t in transfers:
        c = t.computation or {}
        if c.get("why") not in BOUNTY_REASONS or ("bounty" not in c and "bounties" not in c):
            continue
        rows.append(
            {
                "transfer": t,
                "why": c["why"],
                "player": c.get("player", ""),
                "winners": c.get("winners", []),
                "bounty": c.get("bounty"),
                "paid": c.get("paid") or c.get("bounties") or {},
                "added": c.get("added") or {},
            }
        )
    return rows


@staff_page
@require_GET
def entries_csv(request: HttpRequest) -> HttpResponseBase:
    form = EntryFilterForm(request.GET)
    if not form.is_valid():
        return _bad_request(request, form)
    wanted = form.entry_filter()
    rows = exports.entry_rows(wanted.apply(Entry.objects.all()))
    return exports.csv_response(exports.csv_lines(exports.ENTRY_COLUMNS, rows), wanted.file_name())


def _limits_context(*, user: Any) -> dict[str, Any]:
    """The player page's "Limits" panel: each limit set or pending, and the newest changes."""
    states = limits.states(player_id=user.pk, now=timezone.now())
    return {
        "limits": [
            {"name": name, "label": LimitName(name).label, "state": states[name]}
            for name in LimitName.values
            if states[name].value is not None or states[name].applies_at is not None
        ],
        "limit_history": list(limits.history(player_id=user.pk)[:20]),
    }
