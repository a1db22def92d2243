"""A package's public names loaded on first use: the `__getattr__` and `__dir__` a package's
`__init__` installs (PEP 562), so importing the package loads none of its heavy modules."""

from __future__ import annotations

import importlib
from collections.abc import Callable, MutableMapping
from typing import Any


def lazy_names(
    package: str, homes: dict[str, str], namespace: MutableMapping[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """`__getattr__` and `__dir__` for `package`, whose public names live in the submodules
    `homes` names (name -> module); a name is kept in `namespace` (the package's globals) once
    loaded, so the next lookup does not reach `__getattr__`."""

    def __getattr__(name: str) -> Any:
        module = homes.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted([*namespace, *homes])

    return __getattr__, __dir__
