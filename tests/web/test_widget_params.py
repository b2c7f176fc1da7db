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
    """Every input, label and select of a page is drawn by it once the app is made."""
    from wtforms import Form, IntegerField, SelectField, widgets
    from wtforms.widgets import core

    from scorekeeper.web import create_app

    create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "x"})
    assert core.html_params is widgets.html_params is widget_params.html_params
    calls: list[dict[str, Any]] = []
    real = widget_params.html_params

    def counted(**kwargs: Any) -> Markup:
        calls.append(kwargs)
        return real(**kwargs)

    widget_params.html_params = counted  # type: ignore[assignment]
    try:
        widget_params.install()

        class Hand(Form):
            bid = IntegerField("Bid", render_kw={"data_sum": "tricks"})
            trump = SelectField("Trump", choices=[("s", "Spades"), ("h", "Hearts")])

        form = Hand()
        html = form.bid() + form.bid.label() + form.trump()
    finally:
        widget_params.html_params = real  # type: ignore[assignment]
        widget_params.install()
    assert 'data-sum="tricks"' in html
    names = {c.get("name") for c in calls}
    assert {"bid", "trump"} <= names and any(c.get("for") == "bid" for c in calls)
