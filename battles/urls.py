from django.urls import URLPattern, URLResolver, path

from battles import order_views, urls_map, views
from navalwar import converters  # noqa: F401 - registers <id:...>

app_name = "battles"

urlpatterns: list[URLPattern | URLResolver] = [
    path("dashboard/", views.dashboard, name="dashboard"),
    path("settings/", views.settings_page, name="settings"),
    path("invite/<str:token>/", views.invitation, name="invitation"),
    path("campaigns/new/", views.campaign_new, name="campaign_new"),
    path("campaigns/<id:campaign_id>/", views.campaign, name="campaign"),
    path("campaigns/<id:campaign_id>/invite/", views.campaign_invite, name="campaign_invite"),
    path(
        "campaigns/<id:campaign_id>/invitations/<id:invitation_id>/revoke/",
        views.invitation_revoke,
        name="invitation_revoke",
    ),
    path("campaigns/<id:campaign_id>/settings/", views.campaign_settings, name="campaign_settings"),
    path(
        "campaigns/<id:campaign_id>/battles/scenario/",
        views.battle_scenario,
        name="battle_scenario",
    ),
    path("campaigns/<id:campaign_id>/battles/new/", views.battle_new, name="battle_new"),
    path("campaigns/<id:campaign_id>/ships/new/", views.campaign_ship_new, name="campaign_ship_new"),
    path("campaigns/<id:campaign_id>/ships/<id:ship_id>/", views.campaign_ship, name="campaign_ship"),
    path("campaigns/<id:campaign_id>/sinkings/", views.campaign_sinkings, name="campaign_sinkings"),
    path("battles/<id:battle_id>/", views.battle, name="battle"),
    path("battles/<id:battle_id>/ready/", views.ready_post, name="ready"),
    # The orders of a turn (battles/order_views.py): one ship's form, the side's ready flag, the status poll.
    path("battles/<id:battle_id>/status/", order_views.battle_status, name="battle_status"),
    path("battles/<id:battle_id>/side/ready/", order_views.side_ready, name="side_ready"),
    path("battles/<id:battle_id>/orders/<str:ship_key>/", order_views.order_save, name="order_save"),
    path("battles/<id:battle_id>/orders/<str:ship_key>/panel/", order_views.order_panel, name="order_panel"),
    path("battles/<id:battle_id>/orders/<str:ship_key>/check/", order_views.order_check, name="order_check"),
    path("battles/<id:battle_id>/orders/<str:ship_key>/clear/", order_views.order_clear, name="order_clear"),
    path(
        "battles/<id:battle_id>/orders/<str:ship_key>/repeat/", order_views.order_repeat, name="order_repeat"
    ),
    path("battles/<id:battle_id>/umpire/", views.umpire_post, name="umpire"),
    path("battles/<id:battle_id>/log/", views.battle_log, name="battle_log"),
    path("battles/<id:battle_id>/sinkings/", views.battle_sinkings, name="battle_sinkings"),
    path("battles/<id:battle_id>/ships/<str:ship_key>/", views.ship_sheet, name="ship_sheet"),
]
urlpatterns += urls_map.urlpatterns
