"""A full page, or only its partial for htmx: one rule for every answer,
error pages included."""
from __future__ import annotations

from typing import Any

from flask import render_template, request


def is_partial_request() -> bool:
    htmx = getattr(request, "htmx", None)
    if not htmx:
        return False
    # a history restore (back/reload of a pushed URL missing from htmx's cache) swaps the whole body
    return not htmx.boosted and not htmx.history_restore_request


def render_page_or_partial(template: str, **context: Any) -> str:
    """``templates/partial/<template>`` for an htmx request that is not boosted,
    else the full page ``templates/<template>`` (which includes the partial)."""
    if is_partial_request():
        return render_template(f"partial/{template}", **context)
    return render_template(template, **context)
