"""Nations, ship classes (one per rule set) and ships.

A ship class's ``stats`` are the data its rule set's class schema asks for (``rules.get_ruleset(key)
.class_schema()``); they are validated by the rule set itself (``validate_class``), never by a second copy
of its rules here.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.urls import reverse

import rules
from navalwar.text import validate_name


def ruleset_choices() -> list[tuple[str, str]]:
    """Return (key, title) for every registered rule set."""
    return [(rs.key, rs.title) for rs in rules.all_rulesets()]


class Nation(models.Model):
    """A navy: name, short name and the colour its ships have on maps."""

    name = models.CharField(max_length=80, unique=True, validators=[validate_name])
    short_name = models.CharField(max_length=12, blank=True)
    colour = models.CharField(
        max_length=7,
        default="#888888",
        validators=[RegexValidator(r"^#[0-9a-fA-F]{6}$", "Enter a CSS colour like #1f4e9c.")],
        help_text="Map colour, CSS hex like #1f4e9c.",
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ShipClass(models.Model):
    """A class of ships under one rule set, with the stats that rule set needs."""

    ruleset = models.CharField(max_length=32, choices=ruleset_choices, db_index=True)
    key = models.SlugField(max_length=80, help_text="Stable key, as in scenario files.")
    name = models.CharField(max_length=120, validators=[validate_name])
    nation = models.ForeignKey(
        Nation, on_delete=models.PROTECT, null=True, blank=True, related_name="classes"
    )
    type = models.CharField(max_length=40, blank=True, help_text="Battleship, frigate, ironclad ...")
    stats = models.JSONField(default=dict, blank=True)
    source_note = models.TextField(blank=True, help_text="Where the data comes from.")
    heuristic = models.BooleanField(
        default=False, help_text="Record sheet authored with the house heuristic (rulings-product A4)."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["ruleset", "name"]
        verbose_name_plural = "ship classes"
        constraints = [
            models.UniqueConstraint(fields=["ruleset", "key"], name="shipclass_unique_key_per_ruleset")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.ruleset})"

    def get_absolute_url(self) -> str:
        return reverse("fleets:class_detail", kwargs={"ruleset": self.ruleset, "key": self.key})

    def stats_errors(self) -> dict[str, list[str]]:
        """Return the rule set's field errors for these stats (empty when valid or the rule set unknown)."""
        rs = self.rule_set
        if rs is None:
            return {}  # the ruleset field's choices report an unknown key
        stats: Any = self.stats if isinstance(self.stats, dict) else {}
        return rs.validate_class(stats)

    @property
    def rule_set(self) -> rules.RuleSet | None:
        """Return the class's rule set, or None when its key is not registered."""
        try:
            return rules.get_ruleset(self.ruleset)
        except rules.UnknownRuleset:
            return None

    def clean(self) -> None:
        """Refuse stats the rule set does not accept (``validate_class``), field by field."""
        errors = self.stats_errors()
        if not isinstance(self.stats, dict):
            errors = {"__all__": ["The stats must be a JSON object."]}
        if errors:
            raise ValidationError(
                {"stats": [m if k == "__all__" else f"{k}: {m}" for k, msgs in errors.items() for m in msgs]}
            )


class Ship(models.Model):
    """A named ship of a class, with an optional pennant number."""

    name = models.CharField(max_length=120, validators=[validate_name])
    ship_class = models.ForeignKey(ShipClass, on_delete=models.PROTECT, related_name="ships")
    pennant = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["name", "ship_class"], name="ship_unique_name_per_class")
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.pennant}".strip()

    def clean(self) -> None:
        """Refuse in a model form (the admin's ship form and its class's ship rows) a new name that another
        ship of one of her campaigns has, in any case and trimmed: a campaign's ships have one name each
        (docs/rulings.md NW-CAMP-25, NW-CAMP-32). Through the reverse relation ``campaign_ships``, so the
        fleets app needs nothing of the battles app."""
        if self.pk is None or not self.name:
            return  # a new ship is in no campaign yet
        campaign_ship = self.campaign_ships.model  # battles.CampaignShip
        clash = (
            campaign_ship.objects.filter(
                campaign__in=self.campaign_ships.values("campaign"), ship__name__iexact=self.name.strip()
            )
            .exclude(ship_id=self.pk)
            .select_related("campaign", "side", "ship__ship_class")
            .order_by("campaign__name", "pk")
            .first()
        )
        if clash is not None:
            raise ValidationError(
                {
                    "name": (
                        f"Her campaign {clash.campaign.name} already has a ship named {clash.ship.name} "
                        f"({clash.ship.ship_class.name}, {clash.side.name}): two ships of one name could not "
                        "be told apart in orders and the log. Give her another name."
                    )
                }
            )

    @property
    def nation(self) -> Nation | None:
        return self.ship_class.nation
