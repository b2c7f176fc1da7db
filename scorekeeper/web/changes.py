"""What a correction changed, in words, for the match log: the fields of the
hand's input that differ, "points: 60/80 → 70/70". Only arranges the stored
inputs; nothing here scores."""
from __future__ import annotations

import json
from typing import Any


def _value(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        if value and all(isinstance(v, (bool, type(None))) for v in value):
            return "/".join("yes" if v else "no" for v in value)
        return "/".join(_value(v) if not isinstance(v, (list, dict)) else json.dumps(v) for v in value) or "none"
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


def hand_changes(before: Any, after: Any) -> list[str]:
    """One line per input field that differs between two stored hands, in the
    order the fields were entered; [] when either is not a hand."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    keys = list(before) + [k for k in after if k not in before]
    return [f"{key.replace('_', ' ')}: {_value(before.get(key))} → {_value(after.get(key))}"
            for key in keys if before.get(key) != after.get(key)]
