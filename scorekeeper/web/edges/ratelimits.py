"""The limits on abuse as the server counts them, with ``limits``' moving window
(security.py says which limits there are and answers when one is reached). Not shipped
to a phone keeping the app (offline.py): it has no one to keep out."""
from __future__ import annotations

import math
import threading
import time
from typing import Any

from flask import Flask
from limits import RateLimitItemPerHour, RateLimitItemPerMinute
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from .security import SETTINGS


class BoundedMemoryStorage(MemoryStorage):
    """limits' in-process storage, with its memory bounded. limits 5.8 keeps an empty list
    for every key it has ever seen (100,000 addresses left 17 MiB behind for good) and, while
    hits come in, sweeps every key every 10 ms in a new thread (100,000 hits on distinct addresses
    took 6 s, 2 s here). Here a key whose entries have all expired is dropped, in a sweep at most
    once a second. (Both hooks are limits' private names: tests/web/test_abuse_limits.py fails if
    they go.)"""

    SWEEP_SECONDS = 1.0

    def __init__(self, uri: str | None = None, **options: Any) -> None:
        self.swept = 0.0
        super().__init__(uri, **options)

    def _MemoryStorage__schedule_expiry(self) -> None:  # the base class's private hook, called on every hit
        if time.time() - self.swept >= self.SWEEP_SECONDS and not self.timer.is_alive():
            self.swept = time.time()
            self.timer = threading.Timer(0.01, self._MemoryStorage__expire_events)
            self.timer.daemon = True
            self.timer.start()

    def _MemoryStorage__expire_events(self) -> None:  # the base class's private sweep, run by the timer above
        now = time.time()
        for key in list(self.events):
            with self.locks[key]:
                events = self.events.get(key) or []
                kept = [entry for entry in events if entry.expiry > now]  # newest first, a few per key
                if kept:
                    self.events[key] = kept
                else:
                    self.events.pop(key, None)
                    self.locks.pop(key, None)
        for key in [key for key, when in self.expirations.items() if when <= now]:
            self.storage.pop(key, None)
            self.expirations.pop(key, None)


class Limits:
    """Every limit on abuse, counted per address with ``limits``' moving window: at most N in
    any 60 s (or hour). The storage is a setting (``RATELIMIT_STORAGE_URI``, ``memory://`` by
    default; a ``redis://`` URI lets several server processes share one count). A request is
    counted when it is accepted, before its work, in one step with the check: requests sent
    at the same moment cannot all pass a check made before any of them is counted."""

    def __init__(self, app: Flask):
        uri = str(app.config["RATELIMIT_STORAGE_URI"])
        self.storage = BoundedMemoryStorage() if uri.startswith("memory://") else storage_from_string(uri)
        self.window = MovingWindowRateLimiter(self.storage)
        self.items = {name: RateLimitItemPerHour(int(app.config[setting])) if setting.endswith("_HOUR")
                      else RateLimitItemPerMinute(int(app.config[setting]))
                      for name, setting in SETTINGS.items()}
        self.lock = threading.Lock()  # the limits of one request are checked and counted together

    def take(self, key: str, costs: dict[str, int]) -> str | None:
        """Count ``costs`` (limit name: how many) for ``key`` when every limit has room for
        them and return None; else count nothing and return the first limit without room."""
        with self.lock:
            for name, cost in costs.items():
                if not self.window.test(self.items[name], name, key, cost=cost):
                    return name
            for name, cost in costs.items():
                if not self.window.hit(self.items[name], name, key, cost=cost):
                    return name  # another process (a shared storage) took the room meanwhile
        return None

    def room(self, name: str, key: str, cost: int) -> bool:
        """Has ``key`` room for ``cost`` more under this limit now? (Counts nothing.)"""
        return bool(self.window.test(self.items[name], name, key, cost=cost))

    def remaining(self, name: str, key: str) -> int:
        return max(0, self.window.get_window_stats(self.items[name], name, key).remaining)

    def retry_after(self, name: str, key: str) -> int:
        """Seconds until this limit has room for one more."""
        reset = self.window.get_window_stats(self.items[name], name, key).reset_time
        return max(1, math.ceil(reset - time.time()))

    def limit(self, name: str) -> int:
        return self.items[name].amount
