"""URLs of the battle map (included by battles/urls.py, in the ``battles`` namespace)."""

from django.urls import URLPattern, path

from battles import views_map
from navalwar import converters  # noqa: F401 - registers <id:...>

urlpatterns: list[URLPattern] = [
    path("battles/<id:battle_id>/map/", views_map.battle_map, name="battle_map"),
    path("battles/<id:battle_id>/map.svg", views_map.battle_map_svg, name="battle_map_svg"),
    path("battles/<id:battle_id>/setup/map/", views_map.battle_setup_map, name="battle_setup_map"),
    path("battles/<id:battle_id>/start/", views_map.battle_start, name="battle_start"),
]
