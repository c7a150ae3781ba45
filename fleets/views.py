"""Players' pages: the ship class list, a class's card or record sheet, and each rule set's quick
reference."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

import rules

from . import selectors
from .forms import ClassFilterForm
from .presentation import chart_sections, sheet_view


@require_GET
@vary_on_headers("HX-Request")
def class_list(request: HttpRequest) -> HttpResponse:
    """List the ship classes, filtered by rule set, nation and name (GET form; works without JS)."""
    form = ClassFilterForm(request.GET or None, nations=selectors.nation_choices(user=request.user))
    filters = form.cleaned_data if form.is_bound and form.is_valid() else {}
    classes = selectors.shipclass_list(
        user=request.user,
        ruleset=filters.get("ruleset", ""),
        nation=filters.get("nation", ""),
        q=filters.get("q", ""),
    )
    titles = {rs.key: rs.title for rs in rules.all_rulesets()}
    context = {"form": form, "classes": classes, "titles": titles, "rulesets": rules.all_rulesets()}
    template = "fleets/class_list.html#results" if request.htmx else "fleets/class_list.html"
    return render(request, template, context)


@require_GET
def class_detail(request: HttpRequest, ruleset: str, key: str) -> HttpResponse:
    """Show a class: its record sheet (or card), derived values, ships and source note."""
    ship_class = selectors.shipclass_get(user=request.user, ruleset=ruleset, key=key)
    rs = ship_class.rule_set
    if rs is None:
        raise Http404("This class's rule set is not installed.")
    context = {"ship_class": ship_class, "sheet": sheet_view(rs, ship_class.stats), "ruleset": rs}
    return render(request, "fleets/class_detail.html", context)


@require_GET
def rules_index(request: HttpRequest) -> HttpResponse:
    """List the rule sets with links to their quick references and classes."""
    return render(request, "fleets/rules_index.html", {"rulesets": rules.all_rulesets()})


@require_GET
def rules_reference(request: HttpRequest, key: str) -> HttpResponse:
    """Show every chart of a rule set (``RuleSet.tables()``), readable on a phone and printable."""
    try:
        rs = rules.get_ruleset(key)
    except rules.UnknownRuleset as exc:
        raise Http404(str(exc)) from exc
    context = {"ruleset": rs, "sections": chart_sections(rs.tables()), "schema": rs.class_schema()}
    return render(request, "fleets/rules_reference.html", context)
