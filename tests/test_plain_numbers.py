"""Numbers typed into forms are plain ASCII numbers (navalwar/numbers.py): Python's int() and float() read
``1_0`` as 10 and ``٣`` (an Arabic-Indic digit) as 3, so a course typed with a slip was saved as another
course without a word (fresh-user check)."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms
from django.http import QueryDict
from django.test import Client
from django.urls import reverse

import rules
from battles import services
from battles.map_forms import order_data_from_query
from battles.models import Order
from navalwar.numbers import PlainFloatField, PlainIntegerField
from tests.factories import scenario_campaign

NOT_PLAIN = ["1_0", "٣", "\uff13", "1e1", "0x10", "inf", "nan", "1.2.3", "--1", "+", ".", "1 0"]


@pytest.mark.parametrize("text", NOT_PLAIN)
def test_plain_fields_refuse_what_int_and_float_accept_beyond_plain_digits(text: str) -> None:
    """Refused; a number with an exponent is told so (a fresh-user check typed -1e9 and read only "Enter a
    number.")."""
    exponent = f"Enter the number in plain digits: {text} has an exponent."
    with pytest.raises(forms.ValidationError) as whole:
        PlainIntegerField().clean(text)
    assert whole.value.messages == [exponent if text == "1e1" else "Enter a whole number."]
    with pytest.raises(forms.ValidationError) as number:
        PlainFloatField().clean(text)
    assert number.value.messages == [exponent if text == "1e1" else "Enter a number."]


@pytest.mark.parametrize(
    ("text", "whole", "number"),
    [
        ("10", 10, 10.0),
        (" -1 ", -1, -1.0),
        ("+3", 3, 3.0),
        ("27.0", 27, 27.0),
        ("6.5", None, 6.5),
        (".5", None, 0.5),
    ],
)
def test_plain_fields_take_signed_ascii_numbers_with_a_decimal_point(
    text: str, whole: int | None, number: float
) -> None:
    if whole is None:
        with pytest.raises(forms.ValidationError):
            PlainIntegerField().clean(text)
    else:
        assert PlainIntegerField().clean(text) == whole
    assert PlainFloatField().clean(text) == number


def test_the_map_preview_keeps_a_number_that_is_not_plain_as_text_for_the_rules_to_refuse() -> None:
    fields = rules.get_ruleset("ww2_jackson").order_fields()
    data = order_data_from_query(fields, QueryDict("course=1_0&speed=%D9%A3&torpedo_mount=-1"))
    assert data["course"] == "1_0" and data["speed"] == "٣" and data["torpedo_mount"] == -1


@pytest.mark.django_db
@pytest.mark.parametrize(("course", "speed"), [("1_0", "20"), ("300", "٣"), ("300", "2_0")])
def test_an_order_with_a_number_that_is_not_plain_is_a_form_error_and_the_saved_order_stays(
    settings: Any, course: str, speed: str
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    game = scenario_campaign("denmark_strait_1941")
    player = game.players["britain"]
    saved = services.orders_submit(
        phase=game.phase, user=player, ship_key="hood", data={"course": 300.0, "speed": 20.0}
    )
    client = Client()
    client.force_login(player)
    response = client.post(
        reverse("battles:order_save", args=[game.battle.pk, "hood"]),
        {"phase": str(game.phase.pk), "course": course, "speed": speed},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 400
    assert "Enter a number." in response.content.decode()
    assert Order.objects.get(pk=saved.pk).data == saved.data
