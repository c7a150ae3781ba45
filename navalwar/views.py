from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


@login_not_required
@require_GET
def landing(request: HttpRequest) -> HttpResponse:
    """Render the public landing page for visitors; a logged-in user gets their dashboard here."""
    if request.user.is_authenticated:
        from battles.views import dashboard

        return dashboard(request)
    return render(request, "landing.html")


@require_GET
def bare(request: HttpRequest) -> HttpResponse:
    """Answer "ok": the benchmark's bare Django view (bench/run_all.py), routed only with NAVALWAR_BENCH=1.

    It goes through the whole middleware stack, log-in included, like the battle page it is compared with.
    """
    return HttpResponse("ok", content_type="text/plain")


class LogoutView(auth_views.LogoutView):
    """Log out (POST only, as in Django 5) and say so on the next page."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        messages.info(request, "You are logged out.")
        return response
