from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from navalwar import views

handler403 = "navalwar.errors.permission_denied"

urlpatterns = [
    path("", views.landing, name="landing"),
    # Our logout adds a message; the rest are Django's auth views (login, password change and reset).
    path("accounts/logout/", views.LogoutView.as_view(), name="logout"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("fleets/", include("fleets.urls")),
    # battles owns the dashboard and the campaign pages.
    path("", include("battles.urls")),
]

if settings.NAVALWAR_BENCH:
    # bench/run_all.py compares the battle page with this trivial view on the same server (not by default).
    urlpatterns.append(path("bench/bare/", views.bare, name="bench_bare"))
