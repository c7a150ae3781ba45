"""The README's Quick start, checked against the Makefile it describes (found by QA: the README did not say
how to serve on another port, and docs/rules-json.md pointed at a Python that a checkout does not have)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_readme_says_how_to_choose_the_port_and_make_honours_it() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "`make run PORT=8019`" in readme
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    # -n: print the recipe, run nothing (the .venv prerequisites are what `make run` would build first).
    dry = subprocess.run(
        ["make", "-n", "run", "PORT=8019"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert "manage.py runserver 127.0.0.1:8019" in dry
    assert "PORT=8019" in dry  # passed on to honcho's Procfile.dev when REDIS_URL is set


def test_rules_json_names_the_python_a_checkout_has() -> None:
    text = (ROOT / "docs" / "rules-json.md").read_text()
    pythons = set(re.findall(r"`([^`\s]*/bin/python)`", text))
    assert pythons == {".venv/bin/python"}
