"""A content-addressed store of finished simulation runs: re-runs compute nothing, interrupted sweeps resume.

One entry per run: the key is the SHA-256 of the run's full configuration
written as canonical JSON (algorithm name and options, ε, δ, the instance or
instance family with all its parameters, horizon, checkpoints, per-user flag,
the run's ``SeedSequence`` entropy and spawn key) together with the dpverify
version, so a changed setting, seed or release never reads a stale entry.
Labels are not part of the key (relabelling a curve reuses its runs).

Location: ``cache_dir`` when given, else ``$DPVERIFY_CACHE_DIR``, else
``$XDG_CACHE_HOME/dpverify/results``, else ``~/.cache/dpverify/results``
(:func:`default_cache_dir`). Entries are ``<key[:2]>/<key>.npz`` files written
to a temporary name and renamed into place, so an interrupted write never
leaves a half entry; deleting the directory clears the cache. Code changes
within one dpverify version are not seen by the key: pass ``cache=False``
(``--no-cache``) while developing an algorithm.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from dpverify import __version__
from dpverify._deprecation import renamed_parameters
from dpverify._validation import check_instance
from dpverify.execution import run_tasks

__all__ = ["ResultStore", "default_cache_dir", "canonical", "task_key", "open_store", "run_cached"]

#: Bumped when the stored outcome's layout or the simulator's semantics change.
STORE_FORMAT = 2


def default_cache_dir() -> Path:
    """``$DPVERIFY_CACHE_DIR``, else ``$XDG_CACHE_HOME/dpverify/results``, else ``~/.cache/dpverify/results``."""
    explicit = os.environ.get("DPVERIFY_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base).expanduser() / "dpverify" / "results"


def canonical(value: Any) -> Any:
    """``value`` as plain JSON data: dataclasses by type name and fields, arrays as lists, floats exact.

    Floats are written by ``float.hex`` (so 0.1 and 0.1000000000000001 differ
    and no rounding in printing can merge two settings).
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)
                  if f.name != "label"}
        return {"type": type(value).__qualname__, **fields}
    if isinstance(value, np.random.SeedSequence):
        return {"entropy": canonical(value.entropy), "spawn_key": list(value.spawn_key),
                "pool_size": value.pool_size}
    if isinstance(value, Mapping):
        return {str(k): canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if isinstance(value, np.ndarray):
        return {"array": canonical(value.tolist()), "dtype": str(value.dtype)}
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return {"float": value.hex()} if math.isfinite(value) else {"float": repr(value)}
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"cannot key a result on {value!r} ({type(value).__name__})")


def task_key(config: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of ``config`` plus the dpverify version and store format."""
    payload = {"config": canonical(config), "dpverify": __version__, "format": STORE_FORMAT}
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class ResultStore:
    """Outcomes of seeded runs on disk, by :func:`task_key`.

    An outcome is a tuple whose items are numpy arrays, floats or ``None``
    (e.g. ``(pseudo_regret, realised_regret, pulls, communication)`` of one
    simulated run); it comes back with arrays as arrays and scalars as floats.
    """

    def __init__(self, directory: str | Path | None = None) -> None:
        if directory is not None:
            check_instance(directory, "directory", (str, os.PathLike), "a directory path or None")
        self.directory = Path(directory).expanduser() if directory is not None else default_cache_dir()

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.npz"

    def __contains__(self, key: str) -> bool:
        return self._path(key).exists()

    def get(self, key: str) -> tuple | None:
        """The stored outcome, or ``None`` (also for an unreadable entry, which is then recomputed)."""
        try:
            with np.load(self._path(key), allow_pickle=False) as data:
                length = int(data["length"])
                items = []
                for i in range(length):
                    name = f"item_{i}"
                    if name not in data.files:
                        items.append(None)
                    elif data[f"scalar_{i}"]:
                        items.append(data[name].item())
                    else:
                        items.append(data[name])
                return tuple(items)
        except (OSError, KeyError, ValueError):
            return None

    @renamed_parameters(outcome="record")
    def put(self, key: str, record: tuple) -> None:
        """Write ``record`` atomically (temporary file, then rename)."""
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, np.ndarray] = {"length": np.asarray(len(record))}
        for i, item in enumerate(record):
            if item is not None:
                arrays[f"item_{i}"] = np.asarray(item)
                arrays[f"scalar_{i}"] = np.asarray(np.ndim(item) == 0 and not isinstance(item, np.ndarray))
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as file:
                np.savez(file, **arrays)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def __repr__(self) -> str:
        return f"ResultStore({str(self.directory)!r})"


def open_store(cache_dir: str | Path | None = None, cache: bool = True) -> ResultStore | None:
    """The store a runner uses: ``None`` when ``cache`` is false, else at ``cache_dir`` or the default."""
    return ResultStore(cache_dir) if cache else None


def run_cached(function: Any, tasks: list[tuple], configs: list[Any], store: ResultStore | None,
               **where: Any) -> tuple[list[Any], int]:
    """``[function(*task) ...]`` like :func:`dpverify.execution.run_tasks`, reading and filling ``store``.

    ``configs[i]`` is task ``i``'s full configuration (keyed by :func:`task_key`).
    Each computed outcome is stored as soon as it arrives (so an interrupted
    call resumes). Returns the outcomes in task order and how many were computed.
    """
    if store is None:
        return run_tasks(function, tasks, **where), len(tasks)
    keys = [task_key(config) for config in configs]
    outcomes: list[Any] = [store.get(key) for key in keys]
    missing = [i for i, outcome in enumerate(outcomes) if outcome is None]

    def keep(index: int, outcome: Any) -> None:
        outcomes[missing[index]] = outcome
        store.put(keys[missing[index]], outcome)

    run_tasks(function, [tasks[i] for i in missing], on_result=keep, **where)
    return outcomes, len(missing)
