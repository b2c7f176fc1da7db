"""The faster attribute builder draws exactly what WTForms draws."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from markupsafe import Markup

from scorekeeper.web import widget_params

CASES: list[dict[str, Any]] = [
    {},
    {"name": "bid_0", "id": "bid_0", "type": "number", "value": 3, "min": 0, "max": 13},
    {"checked": True, "readonly": False, "name": "nil_1", "abc": "hello"},
    {"class_": "big", "for_": "x", "data_sum": "tricks", "data_sum_total": "13", "aria_describedby": "h"},
    {"value": 'He said "<b>&amp;</b>"', "title": "Ann & Bob's"},
    {"value": Markup('a "quoted" <i>safe</i>'), "placeholder": Markup("&lt;ok&gt;")},
    {"data_x_y_z": 0, "hx_post": "/m/1", "required": True, "disabled": False, "step": 1.5},
    {"value": None, "name": "ünïcødé €"},
]


@pytest.mark.parametrize("params", CASES)
def test_same_text_as_wtforms(params: dict[str, Any]) -> None:
    mine, theirs = widget_params.html_params(**params), widget_params.original(**params)
    assert mine == theirs
    assert isinstance(mine, Markup)


def test_installed_into_the_widgets(tmp_path: Path) -> None:
    from wtforms.widgets import core

    from scorekeeper.web import create_app

    create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "x"})
    assert core.html_params is widget_params.html_params
