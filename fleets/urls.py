from django.urls import URLPattern, URLResolver, path

from . import views

app_name = "fleets"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.class_list, name="class_list"),
    path("classes/<slug:ruleset>/<slug:key>/", views.class_detail, name="class_detail"),
    path("rules/", views.rules_index, name="rules_index"),
    path("rules/<slug:key>/", views.rules_reference, name="rules_reference"),
]
