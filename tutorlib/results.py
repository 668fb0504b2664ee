"""Results with provenance, the one experiment runner, and the one reader of committed results.

A ``full``-profile run writes small JSON files into ``results/`` that the book plots beside the
paper's numbers. Each file says how it was produced: the command, the profile, the seeds,
tutorlib's version, the git commit, the date, the wall time and the number of CPUs.

:func:`run_experiment` runs any experiment: an experiment (an :class:`Experiment`) supplies only
the (run settings, seed) pairs a profile asks for, how to run one pair, and how to summarise the
finished ones. Runs are resumable: :class:`RunStore` saves each pair's record the moment it
finishes, keyed by the experiment, the run's full settings and its seed (never tutorlib's
version), and the runner skips finished pairs when started again. The runs go to this process,
to ``jobs`` worker processes, or to a Dask cluster (``scheduler``); only this process writes.

:func:`committed` and :func:`committed_runs` read the committed results that the chapters plot.

Examples
--------
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "demo.json"
>>> _ = write_results(path, {"accuracy": 0.97}, profile="ci", seeds=[0], wall_time=1.5)
>>> read_results(path)["data"]
{'accuracy': 0.97}
"""

from __future__ import annotations

import copy
import datetime as _dt
import hashlib
import importlib
import json
import math
import os
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tutorlib import __version__
from tutorlib.cache import atomic_write_bytes, canonical_json
from tutorlib.checks import check_seed as _check_seed
from tutorlib.profiles import RUNNABLE, check_profile
from tutorlib.profiles import settings as profile_settings
from tutorlib.textfiles import check_name, read_text

PROVENANCE_KEYS = ("command", "profile", "seeds", "tutorlib_version", "git_commit", "date",
                   "wall_time_seconds", "cpu_count")


def project_results(*parts: str) -> Path:
    """Path of a committed results file, under ``$TUTORLIB_RESULTS_DIR`` or the checkout's ``results/``.

    Examples
    --------
    >>> project_results("compositionality", "full.json").name
    'full.json'
    """
    root = os.environ.get("TUTORLIB_RESULTS_DIR")
    base = Path(root) if root else Path(__file__).resolve().parent.parent / "results"
    if not root and not base.is_dir():
        # an installed wheel: the committed runs are in the book's repository, not the package
        raise FileNotFoundError(
            f"tutorlib's committed results are not beside this installation (looked in {base}). "
            f"They are the results/ folder of a checkout of the book's repository: set "
            f"TUTORLIB_RESULTS_DIR to that folder, e.g. export TUTORLIB_RESULTS_DIR=/path/to/"
            f"checkout/results")
    return base.joinpath(*parts)


class RowLog:
    """A resumable table of finished measurements in one JSON file (``{"runs": [row, ...]}``),
    for screens that try many settings one after another: each row is written the moment it is
    added, and :meth:`has` tells a restarted screen which rows it already has.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> log = RowLog(pathlib.Path(tempfile.mkdtemp()) / "screen.json")
    >>> log.add({"recipe": "a", "seed": 0, "accuracy": 0.5})
    >>> RowLog(log.path).has(recipe="a", seed=0), log.has(recipe="a", seed=1)
    (True, False)
    """

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.rows: list[dict[str, Any]] = []
        if isinstance(path, str) and not path.strip():
            raise ValueError("RowLog needs a file name, got an empty path")
        if self.path.exists():
            try:
                data = json.loads(read_text(self.path))
            except json.JSONDecodeError as error:
                raise ValueError(f"{self.path} is not a row log: not valid JSON ({error})") from None
            if not isinstance(data, dict) or not isinstance(data.get("runs"), list):
                raise ValueError(f"{self.path} is not a row log: expected a JSON object with a "
                                 f"'runs' list")
            self.rows = data["runs"]

    def has(self, **match: Any) -> bool:
        """Whether a row has every given field equal to the given value."""
        return any(all(row.get(k) == v for k, v in match.items()) for row in self.rows)

    def add(self, row: dict[str, Any]) -> None:
        """Append ``row`` and write the whole log at once (atomically)."""
        self.rows.append(row)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self.path, json.dumps({"runs": self.rows}, indent=1).encode())


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
    profile = check_profile(profile)
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Iterable):
        raise ValueError(f"seeds must be a list of non-negative integers, got {seeds!r}")
    seeds = [_check_seed(s, "every seed") for s in seeds]
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
        "seeds": seeds,
        "tutorlib_version": __version__,
        "git_commit": git_commit(),
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
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
    if isinstance(path, str) and not path.strip():
        raise ValueError("read_results needs a file name, got an empty path")
    path = Path(path)
    try:
        record = json.loads(read_text(path))
    except FileNotFoundError:
        raise FileNotFoundError(f"no results file at {path}") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} is not valid JSON: {error}") from None
    if not isinstance(record, dict) or "data" not in record or "provenance" not in record:
        raise ValueError(f"{path} is not a results file: expected keys 'provenance' and 'data'")
    if not isinstance(record["provenance"], dict):
        raise ValueError(f"{path}: 'provenance' must be an object of {', '.join(PROVENANCE_KEYS)}, "
                         f"got {type(record['provenance']).__name__}")
    missing = [key for key in PROVENANCE_KEYS if key not in record["provenance"]]
    if missing:
        raise ValueError(f"{path}: provenance lacks {', '.join(missing)}")
    return record




# ---------------------------------------------------------------------------------------------
# Finished runs, one file each


def run_key(experiment: str, settings: Any, seed: int) -> str:
    """The identity of one run: a hash of the experiment's name, the run's full settings and its
    seed. tutorlib's version is not part of it, so a new release keeps every committed run.

    Examples
    --------
    >>> run_key("scan", {"split": "simple"}, 0) == run_key("scan", {"split": "simple"}, 0)
    True
    >>> run_key("scan", {"split": "simple"}, 0) == run_key("scan", {"split": "simple"}, 1)
    False
    """
    check_seed(seed)
    payload = canonical_json({"experiment": experiment, "settings": settings, "seed": int(seed)})
    return hashlib.sha256(payload.encode()).hexdigest()[:24]


def check_seed(seed: Any) -> int:
    """``seed`` as an int if it is a non-negative integer (not a bool, not 1.5), else
    ``ValueError``: two seeds must never share a run's key.

    >>> check_seed(3)
    3
    """
    return _check_seed(seed, "a seed")


RECORD_FIELDS = frozenset({"experiment", "settings", "seed", "result"})


class RunStore:
    """One JSON file per finished (run settings, seed), so a stopped sweep loses nothing finished.

    Parameters
    ----------
    directory : path
        Where the records go, e.g. ``results/scan/runs``.
    experiment : str
        The experiment's name, part of every key (:func:`run_key`).
    """

    def __init__(self, directory: str | os.PathLike, experiment: str):
        self.directory = Path(directory)
        self.experiment = check_name(experiment, "experiment name")
        self._claims: dict[Path, Any] = {}  # lock path -> the lock this process holds

    def path(self, settings: Any, seed: int) -> Path:
        """The file of ``(settings, seed)``'s record."""
        return self.directory / f"{run_key(self.experiment, settings, seed)}.json"

    def has(self, settings: Any, seed: int) -> bool:
        """Whether ``(settings, seed)`` has a valid record (:meth:`valid`)."""
        path = self.path(settings, seed)
        return path.exists() and self.valid(path) is not None

    def valid(self, path: Path) -> dict[str, Any] | None:
        """The record at ``path`` if it is one this store wrote for that file's key; otherwise
        ``None``, after moving the file aside (``<name>.invalid-<time>``, never deleted) with a
        warning that names it, so that the run counts as unfinished and is done again.

        A record is invalid when it is unreadable, truncated or not JSON, lacks a field, belongs
        to another experiment, or holds an experiment, settings and seed whose key is not its
        file name (a record copied over another run's).
        """
        problem = None
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as error:
            problem = f"unreadable ({type(error).__name__}: {error})"
        else:
            if not isinstance(record, dict) or not RECORD_FIELDS <= set(record):
                problem = f"not a run record (it needs the fields {', '.join(sorted(RECORD_FIELDS))})"
            elif record["experiment"] != self.experiment:
                problem = f"a record of experiment {record['experiment']!r}, not {self.experiment!r}"
            else:
                try:
                    key = run_key(self.experiment, record["settings"], record["seed"])
                except ValueError as error:
                    key, problem = None, f"a record with a bad seed or settings ({error})"
                if key is not None and key != path.stem:
                    problem = ("a record of other settings or another seed than its file name "
                               "says (copied over another run's?)")
        if problem is None:
            return record
        aside = path.with_name(f"{path.name}.invalid-{time.strftime('%Y%m%dT%H%M%S')}")
        try:
            path.rename(aside)
            where = f"moved aside to {aside.name}"
        except OSError as error:
            where = f"could not be moved aside ({error})"
        warnings.warn(f"run record {path} is {problem}; {where}; the run counts as unfinished",
                      stacklevel=2)
        return None

    def save(self, settings: Any, seed: int, result: Any, seconds: float = 0.0) -> Path:
        """Record the result of ``(settings, seed)`` and how many seconds it took (atomically)."""
        path = self.path(settings, seed)
        atomic_write_bytes(path, _dumps({"experiment": self.experiment, "settings": settings,
                                         "seed": seed, "result": result,
                                         "seconds": round(seconds, 3),
                                         "tutorlib_version": __version__}))
        return path

    def lock_path(self, settings: Any, seed: int) -> Path:
        """The lock file that claims ``(settings, seed)`` while a process computes it."""
        return self.path(settings, seed).with_suffix(".lock")

    def claim(self, settings: Any, seed: int) -> bool:
        """Claim ``(settings, seed)`` for this process: an operating-system lock on a file beside
        its record (:class:`filelock.FileLock`, taken without waiting). False while another
        process holds it; True when this process does (or now does). The system releases the
        lock when its process ends, however it ends, so a dead sweep's runs are free at once;
        the lock file itself may stay behind, unlocked and harmless (git ignores it)."""
        from filelock import FileLock, Timeout

        key = self.lock_path(settings, seed)
        if key in self._claims:
            return True
        key.parent.mkdir(parents=True, exist_ok=True)
        lock = FileLock(key, timeout=0, is_singleton=False)
        try:
            lock.acquire()
        except Timeout:
            return False
        self._claims[key] = lock
        return True

    def release(self, settings: Any, seed: int) -> None:
        """Give up the claim on ``(settings, seed)`` (its record saved, or the run abandoned)."""
        lock = self._claims.pop(self.lock_path(settings, seed), None)
        if lock is not None:
            lock.release()

    def record(self, settings: Any, seed: int) -> dict[str, Any]:
        """The saved record of ``(settings, seed)``: ``settings``, ``seed``, ``result``, ``seconds``."""
        path = self.path(settings, seed)
        record = self.valid(path) if path.exists() else None
        if record is None:
            raise KeyError(f"no finished {self.experiment} run for seed {seed} and settings "
                           f"{settings!r} (no valid record {path})")
        return record

    def load(self, settings: Any, seed: int) -> Any:
        """The saved result of ``(settings, seed)``."""
        return self.record(settings, seed)["result"]

    def records(self) -> list[dict[str, Any]]:
        """Every valid finished record in the directory (invalid ones are moved aside)."""
        found = (self.valid(p) for p in sorted(self.directory.glob("*.json")))
        return [record for record in found if record is not None]

    def carry_to_longer_budget(self, settings: Any, seed: int, max_seconds: float) -> Path | None:
        """Save the record of ``(settings, seed)`` under the same settings with the longer time
        budget ``max_seconds`` (``settings["recipe"]["max_seconds"]``) when its budget did not
        bind, and return the new record's file; ``None`` when it did, or when there is no record.

        A run of the one trainer evaluates at fixed steps and stops at the first evaluation that
        passes its ``stop_at`` (or by patience or its epoch limit); the time budget is checked
        every step. A run that stopped for another reason than ``max_seconds`` and before its
        budget ran out is therefore step for step the run a longer budget would train, so its
        record stands for that run too (one thread, the same seed). The new record says so:
        ``result["budget_carried_from"]`` is the budget it was trained under. A run that reached
        its budget (``fit.stopped == "max_seconds"``, or an evaluation at the budget's last step)
        is not carried: a longer budget trains it further.

        Parameters
        ----------
        settings : dict
            The run's settings as recorded, with a ``recipe`` that holds ``max_seconds``.
        seed : int
            The run's seed.
        max_seconds : float
            The longer budget; more than the recorded one.

        Returns
        -------
        pathlib.Path or None
            The file of the carried record, or ``None`` if the run is not carried.
        """
        old = settings.get("recipe", {}).get("max_seconds") if isinstance(settings, dict) else None
        if old is None:
            raise ValueError(f"carry_to_longer_budget: the settings have no recipe with "
                             f"max_seconds: {settings!r}")
        if not max_seconds > old:
            raise ValueError(f"carry_to_longer_budget: max_seconds must be more than the "
                             f"recorded budget {old}, not {max_seconds}")
        path = self.path(settings, seed)
        record = self.valid(path) if path.exists() else None
        if record is None:
            return None
        fit = record["result"].get("fit") or {}
        if fit.get("stopped") in (None, "max_seconds") or not fit.get("train_seconds", old) < old:
            return None
        longer = copy.deepcopy(settings)
        longer["recipe"]["max_seconds"] = float(max_seconds)
        result = {**record["result"], "budget_carried_from": old}
        return self.save(longer, seed, result, record.get("seconds", 0.0))


# ---------------------------------------------------------------------------------------------
# The one experiment runner

RunPair = tuple[dict[str, Any], int]


def _no_summary(settings: Any, results: list[Any]) -> dict[str, Any]:
    return {}


def _seed_part(run_settings: dict[str, Any], seed: int) -> str:
    return str(seed)


@dataclass(frozen=True)
class Experiment:
    """What an experiment gives :func:`run_experiment`.

    Attributes
    ----------
    name : str
        One name across the CLI, :mod:`tutorlib.profiles`, and ``results/<name>/``.
    runs : callable ``settings -> [(run settings, seed), ...]``
        Every run a profile's settings ask for, in the order to run them. The run settings are
        a JSON-friendly dict of everything that changes the run's result.
    run : callable ``(run settings, seed, device) -> record``
        Runs one pair and returns a JSON-friendly record. A module-level function, so that
        worker processes and Dask workers can import it.
    summarise : callable ``(settings, results) -> dict``
        Extra summary data from the finished runs' results (the paper's numbers, pooled
        statistics...).
    part : callable ``(run settings, seed) -> str``
        How ``--only`` names a run (default: its seed).
    settings : dict, optional
        ``{profile: settings}`` for an experiment outside :mod:`tutorlib.profiles` (your own,
        run with ``run_experiment("your.module:EXPERIMENT", ...)``); by default the settings
        come from :func:`tutorlib.profiles.settings`.
    prepare : callable ``settings -> None``, optional
        Makes what every run shares (a generated corpus in the disk cache) once, in the
        sweep's own process, before runs start in parallel.
    skip : callable ``(run settings, seed, record_of) -> str or None``, optional
        Why a run need not be run, given the records saved so far (``record_of(run settings,
        seed)``: the saved record, or None), or None to run it: e.g. the card skips a later
        seed of a run whose first seed did not fit, since its cell cannot be fitted on every
        seed. A sweep asks before it queues a run, and a serial sweep again before it starts
        one; a skipped run counts as done for ``complete`` and is listed in the summary's
        ``skipped``.
    """

    name: str
    runs: Callable[[Any], list[RunPair]]
    run: Callable[..., Any]
    summarise: Callable[[Any, list[Any]], dict[str, Any]] = _no_summary
    part: Callable[[dict[str, Any], int], str] = _seed_part
    settings: dict[str, Any] | None = None
    prepare: Callable[[Any], None] | None = None
    skip: Callable[[dict[str, Any], int, Callable], str | None] | None = None


def _skip_reason(spec: Experiment, store: RunStore, run_settings: dict[str, Any],
                 seed: int) -> str | None:
    """Why ``spec`` skips a run, given ``store``'s records (None: run it)."""
    if spec.skip is None:
        return None
    return spec.skip(run_settings, seed,
                     lambda s, sd: store.record(s, sd) if store.has(s, sd) else None)


def experiment(name: str) -> Experiment:
    """The :class:`Experiment` called ``name``: one of :data:`tutorlib.profiles.RUNNABLE`, or
    ``"module:ATTRIBUTE"`` for one defined elsewhere (importable by every worker)."""
    from tutorlib.profiles import SOURCES

    if ":" in name:
        module, attribute = name.split(":", 1)
        try:
            found = getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError) as error:
            raise ValueError(f"cannot load experiment {name!r}: {error}") from None
        if not isinstance(found, Experiment):
            raise ValueError(f"{name!r} is not a tutorlib.results.Experiment")
        return found
    if name not in RUNNABLE:
        raise ValueError(f"unknown experiment {name!r}: expected one of {', '.join(RUNNABLE)}")
    return importlib.import_module(SOURCES[name]).EXPERIMENT


def execute_run(name: str, run_settings: dict[str, Any], seed: int, device: str = "cpu",
                threads: int | None = None) -> dict[str, Any]:
    """Run one pair of experiment ``name`` (in this process, a worker process or a Dask worker).

    Returns ``{"result": record, "seconds": wall time}``; writes nothing.
    """
    if threads is not None:
        import torch

        torch.set_num_threads(threads)
    start = time.perf_counter()
    base = os.environ.get(CHECKPOINTS_VARIABLE)
    if base:  # a sweep that checkpoints: this run's networks save theirs in the run's own
        # folder, where the same run started again finds them (tutorlib.seq2seq.train_once)
        os.environ[CHECKPOINTS_VARIABLE] = str(checkpoint_folder(base, name, run_settings, seed))
    try:
        result = experiment(name).run(run_settings, seed, device=device)
    finally:
        if base:
            os.environ[CHECKPOINTS_VARIABLE] = base
    return {"result": result, "seconds": time.perf_counter() - start}


# A sweep's checkpoint folder: set, every run's networks save a checkpoint at least once a
# minute under it (tutorlib.seq2seq.train_once reads the same variable) and resume from it.
CHECKPOINTS_VARIABLE = "TUTORLIB_CHECKPOINT_DIR"


def checkpoint_folder(base: str | os.PathLike, name: str, run_settings: Any, seed: int) -> Path:
    """The folder under a sweep's checkpoint folder ``base`` that holds one run's checkpoints."""
    return Path(base) / name / run_key(name, run_settings, seed)


RUN_STATES = ("done", "partial", "left")


def sweep_status(name: str, profile: str, out_dir: str | os.PathLike = "results",
                 checkpoints: str | os.PathLike | None = None) -> list[dict[str, Any]]:
    """Every run of experiment ``name`` at ``profile`` and where it stands: ``done`` (its record
    is in ``out_dir``), ``skipped`` (the experiment's ``skip`` gives a reason), ``partial`` (a
    checkpoint of it is in ``checkpoints``, default ``$TUTORLIB_CHECKPOINT_DIR``) or ``left``.

    Returns
    -------
    list of dict
        ``{"part", "seed", "state"}`` per run, in the order the sweep runs them.
    """
    spec = experiment(name)
    settings, profile = _settings_at(spec, name, profile)
    store = RunStore(Path(out_dir) / spec.name / "runs", spec.name)
    checkpoints = checkpoints or os.environ.get(CHECKPOINTS_VARIABLE) or None
    rows = []
    for run_settings, seed in spec.runs(settings):
        if store.has(run_settings, seed):
            state = "done"
        elif _skip_reason(spec, store, run_settings, seed) is not None:
            state = "skipped"
        elif checkpoints is not None and any(
                checkpoint_folder(checkpoints, spec.name, run_settings, seed).glob("*.pt")):
            state = "partial"
        else:
            state = "left"
        rows.append({"part": spec.part(run_settings, seed), "seed": seed, "state": state})
    return rows


def _one_thread_worker(threads: int = 1) -> None:
    os.environ["OMP_NUM_THREADS"] = str(threads)
    os.environ.setdefault("TQDM_DISABLE", "1")
    _exit_with_parent()
    import torch

    torch.set_num_threads(threads)


def _exit_with_parent(every: float = 1.0) -> None:
    """Make this worker process exit when the sweep that started it dies (a killed parent would
    otherwise leave its workers computing runs nobody will save)."""
    import threading

    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(every)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def worker_threads(device: str, jobs: int, cores: int | None = None) -> int:
    """Threads of each of ``jobs`` worker processes: one on the CPU (runs are small, and one
    thread a run wastes nothing); on a GPU, each worker's share of the machine's cores (at
    least one), which feed the GPU with kernels.

    Examples
    --------
    >>> worker_threads("cpu", 2, cores=16), worker_threads("cuda", 4, cores=16)
    (1, 4)
    """
    if not str(device).startswith("cuda"):
        return 1
    return max(1, (cores or os.cpu_count() or 1) // jobs)


def start_mps() -> bool:
    """Start NVIDIA's Multi-Process Service if its control program is installed, so that the
    worker processes of a GPU sweep share the GPU at once instead of taking turns; True when a
    daemon runs (started here or before). Its pipe and log directories default to
    ``/tmp/nvidia-mps`` and ``/tmp/nvidia-log`` (``CUDA_MPS_PIPE_DIRECTORY``,
    ``CUDA_MPS_LOG_DIRECTORY``), set in this process's environment for its workers."""
    import shutil

    control = shutil.which("nvidia-cuda-mps-control")
    if control is None:
        return False
    pipe = Path(os.environ.setdefault("CUDA_MPS_PIPE_DIRECTORY", "/tmp/nvidia-mps"))
    log = Path(os.environ.setdefault("CUDA_MPS_LOG_DIRECTORY", "/tmp/nvidia-log"))
    pipe.mkdir(parents=True, exist_ok=True)
    log.mkdir(parents=True, exist_ok=True)
    if (pipe / "control").exists():
        return True
    try:
        started = subprocess.run([control, "-d"], capture_output=True, timeout=30)
        if started.returncode != 0:
            return False
        # a daemon that cannot serve would fail every worker: check that CUDA works through it
        probe = subprocess.run([sys.executable, "-c", "import torch; "
                                "torch.ones(1, device='cuda').sum().item()"],
                               capture_output=True, timeout=120)
        if probe.returncode == 0:
            return True
        subprocess.run([control], input=b"quit\n", capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        pass
    return False


def _run_serial(name, todo, device, on_done, progress, finished=lambda s, seed: False):
    """The runs one after another in this process, skipping any that ``finished`` says another
    process saved since the sweep started (two sweeps of one experiment never repeat a run)."""
    from tutorlib.train import progress_bar

    for run_settings, seed in progress_bar(todo, desc=f"{name} runs",
                                           disable=None if progress else True):
        if not finished(run_settings, seed):
            on_done(run_settings, seed, execute_run(name, run_settings, seed, device))


def _run_processes(name, todo, device, on_done, progress, jobs):
    """``jobs`` worker processes (one thread each on the CPU; on a GPU, their share of the cores
    and CUDA MPS when installed); a worker that dies has its run started again."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    from tutorlib.train import progress_bar

    pending = list(todo)
    failures: list[tuple[dict, int, BaseException]] = []
    threads = worker_threads(device, jobs)
    mps = str(device).startswith("cuda") and start_mps()
    bar = progress_bar(total=len(pending), desc=f"{name} runs ({jobs} processes, {threads} "
                                                f"thread(s) each{', CUDA MPS' if mps else ''})",
                       disable=None if progress else True)
    retries = 0
    while pending:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                                 initializer=_one_thread_worker, initargs=(threads,)) as pool:
            futures = {pool.submit(execute_run, name, s, seed, device, threads): (s, seed)
                       for s, seed in pending}
            broken = False
            while futures:
                done, _ = wait(futures, return_when=FIRST_COMPLETED)
                for future in done:
                    run_settings, seed = futures.pop(future)
                    try:
                        outcome = future.result()
                    except BrokenProcessPool:
                        broken = True
                        continue
                    except Exception as error:  # noqa: BLE001 - reported after the others finish
                        failures.append((run_settings, seed, error))
                        pending.remove((run_settings, seed))
                        continue
                    try:
                        on_done(run_settings, seed, outcome)
                    except BaseException:
                        # leaving the pool waits for its futures: cancel those not started, or
                        # every remaining run would be trained and its result thrown away
                        for waiting in futures:
                            waiting.cancel()
                        raise
                    pending.remove((run_settings, seed))
                    bar.update(1)
                if broken:
                    break
        if broken:
            retries += 1
            if retries > 3:
                raise RuntimeError(f"worker processes died 4 times; {len(pending)} runs of "
                                   f"{name} are not finished (the finished ones are saved)")
    bar.close()
    _raise_failures(name, failures)


def _raise_failures(name: str, failures: list) -> None:
    if failures:
        run_settings, seed, error = failures[0]
        raise RuntimeError(f"{len(failures)} run(s) of {name} failed (the others are saved); the "
                           f"first, seed {seed} with settings {run_settings!r}: "
                           f"{type(error).__name__}: {error}") from error


def _run_dask(name, todo, device, on_done, progress, scheduler):
    """Send the runs to a Dask cluster; each task's key is its run key, so a second client on
    the same sweep shares the same tasks, and Dask reruns a task whose worker died."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ValueError("--scheduler needs Dask: pip install -e '.[cluster]'") from None
    from tutorlib.train import progress_bar

    # an unreachable scheduler is reported in seconds, not after Dask's default 30
    client = scheduler if isinstance(scheduler, Client) else Client(scheduler, timeout="5s")
    try:
        futures = {}
        for run_settings, seed in todo:
            key = f"{name}-{run_key(name, run_settings, seed)}"
            future = client.submit(execute_run, name, run_settings, seed, device, 1, key=key,
                                   pure=False)
            futures[future] = (run_settings, seed)
        bar = progress_bar(total=len(futures), desc=f"{name} runs (Dask)",
                           disable=None if progress else True)
        failures = []
        for future in as_completed(futures):
            run_settings, seed = futures[future]
            try:
                outcome = future.result()
            except Exception as error:  # noqa: BLE001 - reported after the others finish
                failures.append((run_settings, seed, error))
                continue
            on_done(run_settings, seed, outcome)
            bar.update(1)
        bar.close()
        _raise_failures(name, failures)
    finally:
        if not isinstance(scheduler, Client):
            client.close()


def run_experiment(name: str, profile: str, out_dir: str | os.PathLike = "results", *,
                   only: list[str] | None = None, seeds: list[int] | None = None,
                   jobs: int = 1, scheduler: Any = None,
                   device: str = "cpu", progress: bool = True) -> Path:
    """Run every (run settings, seed) pair of experiment ``name`` at ``profile``, resumably.

    Parameters
    ----------
    name : str
        One of :data:`tutorlib.profiles.RUNNABLE`.
    profile : str
        ``"ci"``, ``"tutorial"`` or ``"full"``, or ``"gpu"`` where the experiment has one.
    out_dir : path
        Results directory: records go to ``out_dir/<name>/runs/``, the summary to
        ``out_dir/<name>/<profile>.json``.
    only : list of str, optional
        Run only these parts (``Experiment.part`` names, e.g. SCAN's split names), to share a
        sweep between processes by hand; ``[]`` only rewrites the summary.
    seeds : list of int, optional
        Run only these seeds (with ``only``: these seeds of those parts), another way to share
        a sweep by hand.
    jobs : int
        Worker processes (one thread each); 1 runs in this process.
    scheduler : str or distributed.Client, optional
        A Dask scheduler's address (``tcp://host:8786``) or a client: the runs go to the cluster.
    device : str
        ``"cpu"``, ``"cuda"``, ``"mps"`` or ``"auto"`` (:func:`tutorlib.train.resolve_device`).

    Returns
    -------
    Path
        The summary file: ``{"settings", ..., "complete", "runs"}`` with provenance.

    Notes
    -----
    Each record is saved by this process, atomically, the moment its run finishes, and the
    summary is rewritten; a run started again skips the pairs already saved. A worker that dies
    loses only the run it was doing, which is started again. Before it starts, a sweep claims
    its runs with operating-system locks on files beside their records (:meth:`RunStore.claim`),
    so a second sweep of the same runs leaves them to the first; the system releases the locks
    of a sweep that was killed, and the next sweep takes its runs.
    """
    spec = experiment(name)
    settings, profile = _settings_at(spec, name, profile)
    pairs = spec.runs(settings)
    if not (isinstance(jobs, int) and not isinstance(jobs, bool) and jobs >= 1):
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    if jobs > 1 and scheduler is not None:
        raise ValueError("give either jobs (local processes) or scheduler (a Dask cluster)")
    if scheduler is None:  # a device this machine lacks fails here, before any work
        from tutorlib.train import resolve_device

        resolve_device(device)
    if only is not None:
        known = {spec.part(s, seed) for s, seed in pairs}
        unknown = sorted(set(only) - known)
        if unknown:
            raise ValueError(f"--only names parts that {name} at profile {profile} does not run: "
                             f"{', '.join(unknown)}; it runs {', '.join(sorted(known))}")
    if seeds is not None:
        known_seeds = sorted({seed for _, seed in pairs})
        unknown = sorted(set(seeds) - set(known_seeds))
        if unknown:
            raise ValueError(f"--seeds names seeds that {name} at profile {profile} does not run: "
                             f"{', '.join(map(str, unknown))}; it runs "
                             f"{', '.join(map(str, known_seeds))}")
    directory = Path(out_dir) / spec.name
    store = RunStore(directory / "runs", spec.name)

    def write_summary() -> Path:
        return _write_summary(spec, settings, pairs, store, directory / f"{profile}.json", profile)

    todo = [(s, seed) for s, seed in pairs
            if (only is None or spec.part(s, seed) in only)
            and (seeds is None or seed in seeds) and not store.has(s, seed)
            and _skip_reason(spec, store, s, seed) is None]

    def on_done(run_settings: dict, seed: int, outcome: dict) -> None:
        store.save(run_settings, seed, outcome["result"], seconds=outcome["seconds"])
        store.release(run_settings, seed)
        write_summary()  # after every run, so a stopped sweep leaves a current summary

    try:  # an output that cannot be written fails here, before any work
        store.directory.mkdir(parents=True, exist_ok=True)
        probe = store.directory / f".write-test-{os.getpid()}"
        probe.touch()
        probe.unlink()
    except OSError as error:
        raise ValueError(f"cannot write results into {store.directory}: {error}") from None
    # claim the runs first: a second sweep of the same runs leaves them to this one
    claimed = [(s, seed) for s, seed in todo if store.claim(s, seed)]
    if len(claimed) < len(todo):
        warnings.warn(f"{len(todo) - len(claimed)} run(s) of {name} are claimed by another "
                      f"process (lock files in {store.directory}); this sweep leaves them to it",
                      stacklevel=2)
    try:
        if claimed:
            if spec.prepare is not None:
                spec.prepare(settings)
            if scheduler is not None:
                _run_dask(name, claimed, device, on_done, progress, scheduler)
            elif jobs > 1:
                _run_processes(name, claimed, device, on_done, progress, jobs)
            else:
                _run_serial(name, claimed, device, on_done, progress,
                            finished=lambda s, seed: store.has(s, seed)
                            or _skip_reason(spec, store, s, seed) is not None)
    finally:
        for run_settings, seed in claimed:
            store.release(run_settings, seed)
    return write_summary()


def _settings_at(spec: Experiment, name: str, given: str) -> tuple[Any, str]:
    """The experiment's settings at profile ``given``, and the profile's name."""
    profile = check_profile(given)
    if spec.settings is None:
        return profile_settings(name, profile), profile
    if profile not in spec.settings:
        raise ValueError(f"experiment {name} has no settings for profile {given!r}; it has "
                         f"{', '.join(spec.settings)}")
    return copy.deepcopy(spec.settings[profile]), profile


def _write_summary(spec: Experiment, settings: Any, pairs: list, store: RunStore, path: Path,
                   profile: str, command: str | None = None) -> Path:
    finished = [store.record(s, seed) for s, seed in pairs if store.has(s, seed)]
    results = [r["result"] for r in finished]
    skipped = [{"settings": s, "seed": seed, "why": why} for s, seed in pairs
               if not store.has(s, seed)
               and (why := _skip_reason(spec, store, s, seed)) is not None]
    plain = settings.to_dict() if hasattr(settings, "to_dict") else settings
    data = {"settings": plain, **spec.summarise(settings, results),
            "complete": len(finished) + len(skipped) == len(pairs), "runs": results}
    if skipped:
        data["skipped"] = skipped
    return write_results(path, data, profile=profile, seeds=sorted({seed for _, seed in pairs}),
                         wall_time=sum(r["seconds"] for r in finished), command=command)


def summarise_runs(name: str, profile: str, out_dir: str | os.PathLike = "results") -> Path:
    """Rewrite ``out_dir/<name>/<profile>.json`` from the runs saved in ``out_dir/<name>/runs/``,
    running nothing: for runs finished elsewhere (another machine, a GPU) and copied in."""
    spec = experiment(name)
    settings, profile = _settings_at(spec, name, profile)
    directory = Path(out_dir) / spec.name
    return _write_summary(spec, settings, spec.runs(settings), RunStore(directory / "runs", spec.name),
                          directory / f"{profile}.json", profile,
                          command=f"python -m tutorlib run {spec.name} --profile {profile}")


# ---------------------------------------------------------------------------------------------
# The one reader of committed results


def committed(name: str, profile: str = "full") -> dict[str, Any] | None:
    """The committed ``results/<name>/<profile>.json`` (``provenance`` and ``data``), or ``None``."""
    check_name(name, "experiment name")
    profile = check_profile(profile)
    path = project_results(name, f"{profile}.json")
    return read_results(path) if path.exists() else None


def committed_runs(name: str, profile: str = "full", columns: list[str] | None = None):
    """The committed runs of ``name`` at ``profile`` as a DataFrame, a row per run.

    Empty (with ``columns``) when nothing is committed yet.
    """
    import pandas as pd

    results = committed(name, profile)
    runs = results["data"].get("runs", []) if results is not None else []
    if not runs:
        return pd.DataFrame(columns=columns or [])
    return pd.DataFrame(runs)


from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals())
