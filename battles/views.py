"""Pages of the battles app (filled in with the pages deliverable)."""

from django.http import Http404, HttpRequest, HttpResponse


def _todo(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
    raise Http404("not yet")


dashboard = settings_page = invitation = campaign = campaign_sinkings = battle = battle_log = _todo
battle_sinkings = ship_sheet = orders_post = ready_post = _todo
