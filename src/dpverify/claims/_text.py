"""Plain values and their text: JSON-ready numbers, one formatted value, a Markdown table."""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["plain", "formatted", "markdown_table"]


def plain(value: Any) -> Any:
    """``value`` with numpy / mpmath numbers as floats or ints and tuples as lists (for JSON)."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (bool, str)) or value is None:
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    try:
        return float(value)
    except (TypeError, ValueError):
        return str(value)


def formatted(value: Any, *, markdown: bool = True) -> str:
    """One value as text: 6 significant digits, an underflow as "< 1e-300", "|" escaped for Markdown."""
    value = plain(value)
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != 0 and math.isfinite(value) and abs(value) < 1e-300:
            return "< 1e-300"  # a denormal is an underflow, not a measured value
        return f"{value:.6g}" if math.isfinite(value) else str(value)
    if isinstance(value, list):
        return "(" + ", ".join(formatted(v, markdown=markdown) for v in value) + ")"
    return str(value).replace("|", "\\|") if markdown else str(value)


def markdown_table(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Rows of mappings as a Markdown table (columns in order of first appearance)."""
    columns = list(dict.fromkeys(k for row in rows for k in row))
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(formatted(row.get(c, "")) for c in columns) + " |" for row in rows]
    return lines
