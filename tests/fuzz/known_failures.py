"""(row key, parameter) pairs whose failures are known and not yet fixed, with the reason.

Keep this empty: an entry is a bug report, not a waiver. Remove entries as they are fixed.
"""

KNOWN_FAILURES: dict[tuple[str, str], str] = {}
