"""URL path converters of the site.

``<id:name>``: a database id, 1 to 18 digits. Django's ``<int:...>`` takes any number of digits, and a
number over 2**63 - 1 makes SQLite raise OverflowError when it reaches a query (a 500); with at most 18
digits such a URL simply does not match (a 404). Every id fits: ids are 64-bit (``BigAutoField``) and no
table here will hold 10**18 rows.
"""

from __future__ import annotations

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
