"""Operations that belong to one official dungeon's rooms, one module per dungeon (named for
it). Each declares its operations into the shared registry (`ops.py`); dungeon data and the
admin may use them like any other. A new module here is loaded without being listed anywhere.
"""

from __future__ import annotations

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
