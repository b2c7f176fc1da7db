"""What a correction changed, in words, for the match log: the fields of the
hand's input that differ, "points: Ann 60 → 70, Bob 80 → 70" (a number per seat:
only the seats that changed, by name). Only arranges the stored inputs; nothing
here scores."""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeGuard

from ...games.base import Setting


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


def hand_changes(before: Any, after: Any, players: list[str] | None = None) -> list[str]:
    """One line per input field that differs between two stored hands, in the
    order the fields were entered; [] when either is not a hand. The dealer of a
    hand dealt out of turn is named ("dealer: in turn → Bob")."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    keys = list(before) + [k for k in after if k not in before]

    def shown(key: str, value: Any) -> str:
        if key == "dealer":
            if value is None:
                return "in turn"
            if players and isinstance(value, int) and 0 <= value < len(players):
                return f"{players[value]} (out of turn)"
        return _value(value)
    def changed(key: str) -> str:
        old, new = before.get(key), after.get(key)
        if players and _by_seat(old, players) and _by_seat(new, players):
            # one value per seat: at eight players "0/13/-10/5/8/2/1/7" cannot be read
            return ", ".join(f"{name} {_value(a)} → {_value(b)}" for name, a, b in zip(players, old, new) if a != b)
        return f"{shown(key, old)} → {shown(key, new)}"
    return [f"{key.replace('_', ' ')}: {changed(key)}" for key in keys if before.get(key) != after.get(key)]


def _by_seat(value: Any, players: list[str]) -> TypeGuard[list[Any]]:
    """A value per seat, each a plain one (a number, a word, yes/no or none)."""
    return isinstance(value, list) and len(value) == len(players) and \
        all(not isinstance(v, (list, dict)) for v in value)


def setup_changes(before: Any, after: Any, settings: Mapping[str, Setting]) -> list[str]:
    """What a change of players, settings or first dealer changed, for the match log:
    "Tom is now Thomas", "Target: 500 → 300", "first dealer: Ann → Bob" (``settings``: the
    game's, by name: each says its label and how its values read)."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    old_names, new_names = before.get("players") or [], after.get("players") or []
    lines = [f"{a} is now {b}" for a, b in zip(old_names, new_names) if a != b]
    old_settings, new_settings = before.get("settings") or {}, after.get("settings") or {}
    for name in list(old_settings) + [k for k in new_settings if k not in old_settings]:
        if old_settings.get(name) != new_settings.get(name):
            setting = settings.get(name)
            if setting is None:  # a setting the game no longer has: its key and raw values
                lines.append(f"{name}: {_value(old_settings.get(name))} → {_value(new_settings.get(name))}")
                continue
            lines.append(f"{setting.label}: {setting.text(old_settings.get(name))} → "
                         f"{setting.text(new_settings.get(name))}")
    a, b = before.get("first_dealer"), after.get("first_dealer")
    if a != b and isinstance(a, int) and isinstance(b, int) and max(a, b) < len(new_names):
        lines.append(f"first dealer: {new_names[a]} → {new_names[b]}")
    return lines
