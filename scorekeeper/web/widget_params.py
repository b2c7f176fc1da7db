"""A faster ``wtforms.widgets.core.html_params`` giving the very same text.

Every save's answer draws the next hand's form, and WTForms builds each input's
attributes with one ``Markup.format`` per attribute: about a quarter of a save's
CPU went there. This builds the same attributes (sorted, keys cleaned as WTForms
cleans them, each escaped the same way) with plain string joins. ``install`` puts
it where the WTForms widgets look it up; tests/web/test_widget_params.py holds it
to WTForms' own output.
"""
from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape
from wtforms import widgets
from wtforms.widgets import core

_QUOTE, _ENTITY = Markup('"'), Markup("&quot;")
original = core.html_params


def html_params(**kwargs: Any) -> Markup:
    parts: list[str] = []
    for key, value in sorted(kwargs.items()):
        name = escape(core.clean_key(key))
        if value is True:
            parts.append(name)
        elif value is not False:
            text = escape(value)
            if '"' in text:  # only a value already marked safe can still hold one
                text = text.replace(_QUOTE, _ENTITY)
            parts.append(f'{name}="{text}"')
    return Markup(" ".join(parts))


def install() -> None:
    """Where WTForms looks it up: the widgets module (most widgets call it by name),
    the package (labels call ``widgets.html_params``) and the widget classes that hold
    it as a static method (Input and its kinds)."""
    core.html_params = html_params
    widgets.html_params = html_params
    for holder in vars(core).values():
        if isinstance(holder, type) and "html_params" in vars(holder):
            holder.html_params = staticmethod(html_params)  # type: ignore[attr-defined]
