"""On-disk cache for trained models and expensive intermediate results.

An entry is keyed by a hash of its full configuration, tutorlib's version and the *format
number* of the code that makes it: every module that caches something keeps a ``CACHE_FORMAT``
next to that code and bumps it when the code changes what it computes, so a changed setting, a
changed training procedure or a new release never returns a stale result. An entry that can no
longer be read (truncated, or pickled from a class that has since moved) is a miss: it is
computed again, never a crash. Entries are written to a temporary file and renamed into place
(``os.replace`` is atomic), so a run killed mid-write leaves either the old entry or none.

The cache lives in ``$TUTORLIB_CACHE_DIR`` if set (``make`` sets it to ``.cache/`` in the
project), else in ``~/.cache/tutorlib``.

Examples
--------
>>> from tutorlib import cache
>>> value = cache.cached("squares", {"n": 4}, lambda: [i * i for i in range(4)])
>>> value
[0, 1, 4, 9]
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from tutorlib import __version__

T = TypeVar("T")


def cache_dir() -> Path:
    """The cache directory (``$TUTORLIB_CACHE_DIR`` or ``~/.cache/tutorlib``)."""
    root = os.environ.get("TUTORLIB_CACHE_DIR")
    return Path(root) if root else Path.home() / ".cache" / "tutorlib"


def canonical_json(config: Any) -> str:
    """``config`` as canonical JSON (sorted keys, no spaces): the text that keys hash."""
    try:
        return json.dumps(config, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"cache configuration must be JSON-serialisable (dicts, lists, str, int, finite float, "
            f"bool, None); got {config!r}: {error}"
        ) from None


def key_dict(values: dict, added_later: dict) -> dict:
    """``values`` without the fields added after runs were committed while they hold the
    default they were added with: the one rule by which a run key stays the same when a setting
    is added (architectures, recipes, experiments' run settings).

    Examples
    --------
    >>> key_dict({"cell": "lstm", "bidirectional": False}, {"bidirectional": False})
    {'cell': 'lstm'}
    >>> key_dict({"cell": "lstm", "bidirectional": True}, {"bidirectional": False})
    {'cell': 'lstm', 'bidirectional': True}
    """
    return {key: value for key, value in values.items()
            if key not in added_later or value != added_later[key]}


def config_hash(name: str, config: Any, format: int = 1) -> str:
    """Hex digest identifying ``(name, config, format, tutorlib version)``."""
    if not isinstance(name, str) or not name.strip() or "/" in name or name in (".", ".."):
        raise ValueError(f"a cache name is a non-empty word naming what is cached (one folder "
                         f"per name), got {name!r}")
    payload = canonical_json({"name": name, "config": config, "version": __version__}
                             | ({"format": format} if format != 1 else {}))
    return hashlib.sha256(payload.encode()).hexdigest()[:24]


def path_for(name: str, config: Any, directory: str | os.PathLike | None = None,
             format: int = 1) -> Path:
    """Where the entry for ``(name, config)`` made by code of format ``format`` is stored."""
    if not name or "/" in name or name.startswith("."):
        raise ValueError(f"cache name must be a non-empty plain name without '/', got {name!r}")
    if not isinstance(format, int) or isinstance(format, bool) or format < 1:
        raise ValueError(f"format must be a positive integer, got {format!r}")
    base = _directory(directory, "path_for")
    return base / name / f"{config_hash(name, config, format)}.pkl"


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the whole new one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def load(name: str, config: Any, directory: str | os.PathLike | None = None,
         format: int = 1) -> Any:
    """The cached value for ``(name, config)``; ``KeyError`` if there is none or it is unreadable.

    An unreadable entry (truncated, or pickled from a class that has moved or gone) is removed.
    """
    path = path_for(name, config, directory, format)
    try:
        with open(path, "rb") as handle:
            entry = pickle.load(handle)
    except FileNotFoundError:
        raise KeyError(f"no cache entry for {name!r} with this configuration ({path})") from None
    except OSError as error:  # a cache directory that cannot be read: a miss
        raise KeyError(f"cannot read the cache entry {path}: {error}") from None
    except Exception as error:  # noqa: BLE001 - any failure to unpickle is a miss
        path.unlink(missing_ok=True)
        raise KeyError(f"unreadable cache entry for {name!r} ({path}): "
                       f"{type(error).__name__}: {error}") from None
    # the entry names the key it was stored under: a file put there by anything else is a miss
    if not (isinstance(entry, dict) and entry.get("key") == _entry_key(name, config, format)
            and "value" in entry):
        path.unlink(missing_ok=True)
        raise KeyError(f"cache entry {path} was not stored for {name!r} with this "
                       f"configuration; removed")
    return entry["value"]


def _entry_key(name: str, config: Any, format: int) -> str:
    return canonical_json({"name": name, "config": config, "format": format,
                           "version": __version__})


def store(name: str, config: Any, value: Any, directory: str | os.PathLike | None = None,
          format: int = 1) -> Path:
    """Store ``value`` under ``(name, config)`` atomically and return its path."""
    path = path_for(name, config, directory, format)
    entry = {"key": _entry_key(name, config, format), "value": value}
    atomic_write_bytes(path, pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL))
    # The configuration beside the entry lets a person see what a file holds.
    atomic_write_bytes(path.with_suffix(".json"), canonical_json({"name": name, "config": config,
                                                              "version": __version__,
                                                              "format": format}).encode())
    return path


def cached(name: str, config: Any, compute: Callable[[], T],
           directory: str | os.PathLike | None = None, *, format: int = 1) -> T:
    """Return the cached value for ``(name, config)``, computing and storing it if absent.

    Parameters
    ----------
    name : str
        What is cached, e.g. ``"scan-model"``; one subdirectory per name.
    config : JSON-serialisable
        Everything the value depends on (hyperparameters, seed, data split...).
    compute : callable
        Called with no arguments when the entry is missing.
    directory : path, optional
        Cache directory; defaults to :func:`cache_dir`.
    format : int
        The format number of the code that computes the value (its module's ``CACHE_FORMAT``);
        bumping it makes earlier entries misses.
    """
    try:
        return load(name, config, directory, format)
    except KeyError:
        pass
    value = compute()
    try:
        store(name, config, value, directory, format)
    except OSError as error:  # a read-only or full cache loses the entry, never the value
        warnings.warn(f"could not store the cache entry for {name!r} "
                      f"({type(error).__name__}: {error}); the value is returned uncached",
                      stacklevel=2)
    return value


def _directory(directory: str | os.PathLike | None, function: str) -> Path:
    """The cache folder ``directory`` names (None: :func:`cache_dir`); an empty string is no
    folder (``Path("")`` would silently be the current one)."""
    if isinstance(directory, str) and not directory.strip():
        raise ValueError(f"{function}: directory must be a folder's path, got an empty string "
                         f"(None: the cache folder)")
    return Path(directory) if directory is not None else cache_dir()


def clear(directory: str | os.PathLike | None = None) -> int:
    """Delete every cache entry; return how many files were removed."""
    base = _directory(directory, "clear")
    removed = 0
    for path in sorted(base.glob("*/*")):
        if path.suffix in {".pkl", ".json", ".tmp"}:
            path.unlink()
            removed += 1
    return removed


from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals())
