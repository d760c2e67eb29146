"""The benchmarks' arithmetic and process accounting: quantiles, milliseconds, CPU seconds."""

from __future__ import annotations

import os
import resource
from pathlib import Path
from typing import Any


def quantile(values: list[float], q: float) -> float | None:
    """The q-quantile by linear interpolation (None without values)."""
    if not values:
        return None
    xs = sorted(values)
    pos = q * (len(xs) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 2)


def cpu_seconds(servers: list[Any]) -> dict[str, float]:
    """CPU time used so far by each server process and by this one (the bots)."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for i, s in enumerate(servers):
        try:
            fields = Path(f"/proc/{s.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            out[f"server{i + 1}"] = (int(fields[11]) + int(fields[12])) / tick
        except (OSError, AttributeError, IndexError):
            pass
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out["bots"] = usage.ru_utime + usage.ru_stime
    return out
