"""Results with provenance, and resumable runs.

A ``paper``-profile run writes small JSON files into ``results/`` that the book plots beside the
paper's numbers. Each file says how it was produced: the command, the profile, the seeds,
tutorlib's version, the git commit, the date, the wall time and the number of CPUs.

Long runs are resumable: :class:`RunStore` saves each (configuration, seed) record the moment it
finishes and :func:`run_resumable` skips the finished ones when started again.

Examples
--------
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "demo.json"
>>> _ = write_results(path, {"accuracy": 0.97}, profile="ci", seeds=[0], wall_time=1.5)
>>> read_results(path)["data"]
{'accuracy': 0.97}
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterable

from tutorlib import __version__
from tutorlib.cache import atomic_write_bytes, config_hash
from tutorlib.profiles import check_profile

PROVENANCE_KEYS = ("command", "profile", "seeds", "tutorlib_version", "git_commit", "date",
                   "wall_time_seconds", "cpu_count")


def project_results(*parts: str) -> Path:
    """Path of a committed results file, under ``$TUTORLIB_RESULTS_DIR`` or the checkout's ``results/``.

    Examples
    --------
    >>> project_results("compositionality", "paper.json").name
    'paper.json'
    """
    root = os.environ.get("TUTORLIB_RESULTS_DIR")
    base = Path(root) if root else Path(__file__).resolve().parent.parent / "results"
    return base.joinpath(*parts)


def git_commit(directory: str | os.PathLike | None = None) -> str | None:
    """The current git commit of ``directory`` (default: this package's checkout), or ``None``."""
    where = Path(directory) if directory is not None else Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=where, capture_output=True,
                             text=True, timeout=10, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def provenance(*, profile: str, seeds: Iterable[int], wall_time: float,
               command: str | None = None) -> dict[str, Any]:
    """How a result was produced; see :data:`PROVENANCE_KEYS`."""
    check_profile(profile)
    if not (isinstance(wall_time, (int, float)) and math.isfinite(wall_time) and wall_time >= 0):
        raise ValueError(f"wall_time must be a finite number of seconds >= 0, got {wall_time!r}")
    if command is None:
        program = Path(sys.argv[0])
        # `python -m tutorlib` runs tutorlib/__main__.py; say so instead of "__main__.py"
        program_text = f"python -m {program.parent.name}" if program.name == "__main__.py" else program.name
        command = " ".join([program_text, *sys.argv[1:]])
    return {
        "command": command,
        "profile": profile,
        "seeds": [int(s) for s in seeds],
        "tutorlib_version": __version__,
        "git_commit": git_commit(),
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "wall_time_seconds": round(float(wall_time), 3),
        "cpu_count": os.cpu_count(),
    }


def _dumps(obj: Any) -> bytes:
    # One line: results hold long lists of numbers; `python -m tutorlib results` pretty-prints.
    try:
        return (json.dumps(obj, sort_keys=True, allow_nan=False, separators=(",", ":")) + "\n").encode()
    except (TypeError, ValueError) as error:
        raise ValueError(f"results must be JSON-serialisable with finite numbers: {error}") from None


def write_results(path: str | os.PathLike, data: Any, *, profile: str, seeds: Iterable[int],
                  wall_time: float, command: str | None = None) -> Path:
    """Write ``{"provenance": ..., "data": data}`` to ``path`` (atomically) and return the path."""
    record = {"provenance": provenance(profile=profile, seeds=seeds, wall_time=wall_time,
                                       command=command),
              "data": data}
    path = Path(path)
    atomic_write_bytes(path, _dumps(record))
    return path


def read_results(path: str | os.PathLike) -> dict[str, Any]:
    """Read a file written by :func:`write_results`, checking that its provenance is complete."""
    path = Path(path)
    try:
        record = json.loads(path.read_text())
    except FileNotFoundError:
        raise FileNotFoundError(f"no results file at {path}") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} is not valid JSON: {error}") from None
    if not isinstance(record, dict) or "data" not in record or "provenance" not in record:
        raise ValueError(f"{path} is not a results file: expected keys 'provenance' and 'data'")
    missing = [key for key in PROVENANCE_KEYS if key not in record["provenance"]]
    if missing:
        raise ValueError(f"{path}: provenance lacks {', '.join(missing)}")
    return record


class RunStore:
    """One JSON file per finished (configuration, seed), so a stopped run loses nothing finished.

    Parameters
    ----------
    directory : path
        Where the records go, e.g. ``results/scan/runs``.
    """

    def __init__(self, directory: str | os.PathLike):
        self.directory = Path(directory)

    def _path(self, config: Any, seed: int) -> Path:
        return self.directory / f"{config_hash('run', {'config': config, 'seed': seed})}.json"

    def has(self, config: Any, seed: int) -> bool:
        return self._path(config, seed).exists()

    def save(self, config: Any, seed: int, result: Any, seconds: float = 0.0) -> Path:
        """Record the result of ``(config, seed)`` and how many seconds it took."""
        path = self._path(config, seed)
        atomic_write_bytes(path, _dumps({"config": config, "seed": seed, "result": result,
                                         "seconds": round(seconds, 3),
                                         "tutorlib_version": __version__}))
        return path

    def record(self, config: Any, seed: int) -> dict[str, Any]:
        """The saved record of ``(config, seed)``: ``config``, ``seed``, ``result``, ``seconds``."""
        path = self._path(config, seed)
        if not path.exists():
            raise KeyError(f"no finished run for seed {seed} and configuration {config!r}")
        return json.loads(path.read_text())

    def load(self, config: Any, seed: int) -> Any:
        """The saved result of ``(config, seed)``."""
        return self.record(config, seed)["result"]

    def records(self) -> list[dict[str, Any]]:
        """Every finished record: dicts with ``config``, ``seed`` and ``result``."""
        return [json.loads(p.read_text()) for p in sorted(self.directory.glob("*.json"))]

    def write_summary(self, path: str | os.PathLike, pairs: list[tuple[Any, int]],
                      data: dict[str, Any], *, profile: str, seeds: list[int]) -> Path:
        """Write the summary of a resumable experiment with :func:`write_results`.

        ``data`` is extended with ``runs`` (the results of the finished pairs among ``pairs``,
        in their order) and ``complete`` (whether all of them are finished); the wall time is
        the sum of the finished runs' times.
        """
        finished = [self.record(config, seed) for config, seed in pairs if self.has(config, seed)]
        return write_results(path, {**data, "complete": len(finished) == len(pairs),
                                    "runs": [r["result"] for r in finished]},
                             profile=profile, seeds=seeds,
                             wall_time=sum(r["seconds"] for r in finished))


def run_resumable(store: RunStore, configs: Iterable[Any], seeds: Iterable[int],
                  run: Callable[[Any, int], Any], progress: bool = True,
                  after_each: Callable[[], Any] | None = None) -> tuple[list[Any], float]:
    """Run ``run(config, seed)`` for every pair not already in ``store``.

    Each result is saved the moment it finishes (then ``after_each()`` is called, e.g. to
    rewrite a summary), so calling this again after an interruption continues where it stopped.
    Returns the results of all pairs (configurations outer, seeds inner) and the total compute
    time in seconds, including that of runs finished earlier.
    """
    from tutorlib.train import progress_bar

    seeds = list(seeds)
    pairs = [(config, seed) for config in configs for seed in seeds]
    results, seconds = [], 0.0
    for config, seed in progress_bar(pairs, desc="runs", disable=None if progress else True):
        if not store.has(config, seed):
            start = time.perf_counter()
            result = run(config, seed)
            store.save(config, seed, result, seconds=time.perf_counter() - start)
            if after_each is not None:
                after_each()
        saved = store.record(config, seed)
        results.append(saved["result"])
        seconds += saved["seconds"]
    return results, seconds
