"""The match database: the ONLY package that touches SQLite.

By concern:
  ``schema``      the migrations (frozen history: never the engine or the games)
  ``connection``  opening the database (schema, then stale derived rows rebuilt)
  ``matches``     the typed MatchRecord, every write, versions, request keys, the audit log
  ``derived``     the match summaries and the players' stats rows, grown hand by hand
  ``devices``     devices and their grants, the links that hand them out
  ``history``     a device's matches, known players, search; every match for the CLI
  ``stats``       the stats rows as the stats pages read them
  ``backup``      a consistent copy of the live file
  ``errors``      NotFound, StaleVersion / AlreadySaved (conflicts), LimitReached

Callers use one way: ``from scorekeeper import store`` and ``store.x``; every public
name of the modules above is re-exported here. Bad input is ``engine.MatchError``
(also re-exported); the store's own errors say something about the stored match and
each caller translates them.
"""
from __future__ import annotations

from sqlite_utils import Database

from ..engine import MatchError
from .backup import backup
from .connection import connect
from .core import KEEP_DELETED_DAYS, MAX_HANDS, MAX_LOG, now, today, writing
from .derived import DERIVED_VERSION, refresh_stale
from .devices import (
    access_of,
    device_key,
    device_known,
    device_of,
    grant,
    new_token,
    poll_state,
    renew_link,
    replace_device,
)
from .errors import AlreadySaved, Conflict, LimitReached, NotFound, StaleVersion, StoreError
from .history import (
    all_matches,
    deleted_matches,
    device_history,
    device_matches,
    device_matches_by_batch,
    hand_counts,
    known_players,
    match_ids_on,
)
from .matches import (
    MatchRecord,
    add_hand,
    audit_log,
    audit_page,
    changes_since,
    check_details,
    count_changes_since,
    create_match,
    delete_match,
    edit_hand,
    get_record,
    get_tokens,
    get_version,
    import_match,
    import_once,
    imported_with_key,
    linked_matches,
    match_for_token,
    restore_match,
    saved_request,
    take_hands,
    undo_last,
    update_details,
    update_setup,
)
from .notices import keep_notices, take_notices
from .schema import migrations
from .stats import fact_hands, met_players, player_list, player_rows

__all__ = [
    "DERIVED_VERSION",
    "KEEP_DELETED_DAYS",
    "MAX_HANDS",
    "MAX_LOG",
    "AlreadySaved",
    "Conflict",
    "Database",
    "LimitReached",
    "MatchError",
    "MatchRecord",
    "NotFound",
    "StaleVersion",
    "StoreError",
    "access_of",
    "add_hand",
    "all_matches",
    "audit_log",
    "audit_page",
    "backup",
    "changes_since",
    "check_details",
    "connect",
    "count_changes_since",
    "create_match",
    "delete_match",
    "deleted_matches",
    "device_history",
    "device_key",
    "device_known",
    "device_matches",
    "device_matches_by_batch",
    "device_of",
    "edit_hand",
    "fact_hands",
    "get_record",
    "get_tokens",
    "get_version",
    "grant",
    "hand_counts",
    "import_match",
    "import_once",
    "imported_with_key",
    "keep_notices",
    "known_players",
    "linked_matches",
    "match_for_token",
    "match_ids_on",
    "met_players",
    "migrations",
    "new_token",
    "now",
    "player_list",
    "player_rows",
    "poll_state",
    "refresh_stale",
    "renew_link",
    "replace_device",
    "restore_match",
    "saved_request",
    "take_hands",
    "take_notices",
    "today",
    "undo_last",
    "update_details",
    "update_setup",
    "writing",
]
