"""Fuzz entries, group a (see tests/test_fuzz_every_entry_point.py)."""

from __future__ import annotations

from fuzz_harness import Entry

ENTRIES: list[Entry] = []
EXEMPT: dict[str, str] = {}
