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


class LogoutView(auth_views.LogoutView):
    """Log out (POST only, as in Django 5) and say so on the next page."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        messages.info(request, "You are logged out.")
        return response
