"""The rules package stays pure (issue 3, TEAM.md): no web side, no clock, no global random.

Every module under ``rules/`` is parsed with ``ast``; the test fails on one import of Django, Celery or the
apps, of a clock (``time``, ``datetime``), of ``random`` outside ``rules/dice.py`` (where only
``random.Random`` may be used), or of process and entropy modules outside the command line ``rules/cli.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "rules"

WEB = {"django", "celery", "battles", "fleets", "navalwar", "kombu", "redis", "psycopg"}
CLOCK = {"time", "datetime", "zoneinfo", "calendar"}
IO = {"socket", "subprocess", "urllib", "http", "requests", "uuid", "threading", "asyncio"}
CLI_ONLY = {"secrets", "os", "concurrent", "multiprocessing", "argparse"}


def violations(source: str, relpath: str) -> list[str]:
    """Return what in ``source`` (the module at ``relpath`` under rules/) breaks the package's purity."""
    tree = ast.parse(source, filename=relpath)
    found: list[str] = []
    random_names: set[str] = set()
    for node in ast.walk(tree):
        modules: list[tuple[str, int]] = []
        if isinstance(node, ast.Import):
            for alias in node.names:
                modules.append((alias.name, node.lineno))
                if alias.name == "random":
                    random_names.add(alias.asname or "random")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.append((node.module, node.lineno))
            if node.module == "random":
                found.append(f"{relpath}:{node.lineno}: from random import ... (use rules.dice.Dice)")
        for name, line in modules:
            top = name.split(".")[0]
            if top in WEB:
                found.append(f"{relpath}:{line}: imports {name} (the web side)")
            elif top in CLOCK:
                found.append(f"{relpath}:{line}: imports {name} (a clock)")
            elif top in IO:
                found.append(f"{relpath}:{line}: imports {name} (I/O the adjudicator does not do)")
            elif top in CLI_ONLY and relpath != "cli.py":
                found.append(f"{relpath}:{line}: imports {name} (only the command line may)")
            elif top == "random" and relpath != "dice.py":
                found.append(f"{relpath}:{line}: imports random (dice come in through rules.dice.Dice)")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
            found.append(f"{relpath}:{node.lineno}: __import__()")
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in random_names
            and node.attr != "Random"
        ):
            found.append(f"{relpath}:{node.lineno}: random.{node.attr} (only random.Random, seeded)")
    return found


def modules() -> list[Path]:
    return sorted(RULES.rglob("*.py"))


def test_the_package_is_found() -> None:
    names = {p.relative_to(RULES).as_posix() for p in modules()}
    assert {
        "__init__.py",
        "model.py",
        "dice.py",
        "engine.py",
        "cli.py",
        "rulesets/ultra_simple/ruleset.py",
    } <= names
    assert (RULES / "py.typed").is_file()


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.relative_to(RULES).as_posix())
def test_module_is_pure(path: Path) -> None:
    assert violations(path.read_text(encoding="utf-8"), path.relative_to(RULES).as_posix()) == []


@pytest.mark.parametrize(
    ("source", "relpath", "expected"),
    [
        pytest.param(
            "import django.db\n", "engine.py", "engine.py:1: imports django.db (the web side)", id="django"
        ),
        pytest.param("from battles.models import Battle\n", "base.py", "imports battles.models", id="app"),
        pytest.param("from celery import shared_task\n", "x.py", "imports celery", id="celery"),
        pytest.param("import time\n", "geometry.py", "imports time (a clock)", id="time"),
        pytest.param(
            "from datetime import datetime\n", "model.py", "imports datetime (a clock)", id="datetime"
        ),
        pytest.param("import random\n", "rulesets/x/ruleset.py", "imports random", id="random-outside-dice"),
        pytest.param("from random import randint\n", "dice.py", "from random import", id="from-random"),
        pytest.param(
            "import random\nrandom.randint(1, 6)\n", "dice.py", "random.randint", id="global-random"
        ),
        pytest.param("import random as r\nr.shuffle([])\n", "dice.py", "random.shuffle", id="aliased-random"),
        pytest.param("import secrets\n", "engine.py", "only the command line may", id="secrets-outside-cli"),
        pytest.param("import os\n", "scenario.py", "only the command line may", id="os-outside-cli"),
        pytest.param("def f():\n    import subprocess\n", "cli.py", "imports subprocess", id="nested-import"),
    ],
)
def test_the_guard_catches(source: str, relpath: str, expected: str) -> None:
    found = violations(source, relpath)
    assert found and expected in found[0]


def test_the_guard_allows_what_is_allowed() -> None:
    assert violations("import random\nrng = random.Random(3)\n", "dice.py") == []
    assert violations("import secrets\nimport os\n", "cli.py") == []
    assert violations("from .dice import Dice\nimport math\n", "engine.py") == []
