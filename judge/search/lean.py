"""whoosh's modules imported without two of their imports that judge never uses: a tenth of
a first search (issue 14: ≤ 0.5 s).

- `whoosh.compat` imports `urllib.request` (http.client, ssl, email: 25-35 ms) for
  `urlretrieve`, which whoosh exports and never calls;
- `whoosh.reading` imports the `cached-property` package, which imports asyncio (20-40 ms)
  for coroutine methods; whoosh has one cached property, a plain one.

While `imported` imports a module, stand-ins take their place in `sys.modules`: a
`urlretrieve` that imports the real one when called, and functools' `cached_property`. They
are taken out right after, so any later import gets the real modules; a module already
imported is never replaced. `sys.modules` is the process's: a thread that imported
`urllib.request` or `cached_property` during that window would get the stand-in, so
`judge.search` is best imported before threads start (the app's server has imported
urllib.request before, and nothing else in judge or Streamlit imports cached_property)."""

from __future__ import annotations

import functools
import importlib
import sys
import threading
from types import ModuleType
from typing import Any


def _urlretrieve(*args: Any, **kwargs: Any) -> Any:
    from urllib.request import urlretrieve  # the real one, the day something calls it

    return urlretrieve(*args, **kwargs)


# the module whose import pulls it in -> (the module judge does without, its stand-in's names)
_STAND_INS: dict[str, tuple[str, dict[str, object]]] = {
    "whoosh.compat": ("urllib.request", {"urlretrieve": _urlretrieve}),
    "whoosh.reading": ("cached_property", {"cached_property": functools.cached_property}),
}


def imported(name: str) -> ModuleType:
    """The whoosh module `name`, imported (the first time) with the stand-ins of
    `_STAND_INS` in `sys.modules` for the modules not imported yet."""
    known = sys.modules.get(name)
    if known is not None:
        return known
    with _LOCK:  # two callers at once: one places and takes out the stand-ins
        return _import_with_stand_ins(name)


_LOCK = threading.RLock()


def _import_with_stand_ins(name: str) -> ModuleType:
    placed: dict[str, ModuleType] = {}
    for importer, (missing, names) in _STAND_INS.items():
        if importer not in sys.modules and missing not in sys.modules:
            stand_in = ModuleType(missing, f"judge.search.lean: {missing} while whoosh imports")
            stand_in.__dict__.update(names)
            placed[missing] = sys.modules[missing] = stand_in
    try:
        return importlib.import_module(name)
    finally:
        for missing, stand_in in placed.items():
            if sys.modules.get(missing) is stand_in:
                del sys.modules[missing]
