"""A one-line description of the machine a figure was measured on (the benchmarks and the recorded runs print it)."""

from __future__ import annotations

import os
import platform


def machine() -> str:
    cpu = "unknown cpu"
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"
