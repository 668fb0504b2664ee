"""The ``tre_dynamics`` experiment: TRE and information over a concept learner's training
(Andreas 2019, Sec. 4 and Appendix A).

Section 4 of Andreas (2019), *Compositionality and learning dynamics*, trains a few-shot
concept learner on a Colour-MNIST task and follows, over training, how compositional its concept
representations are (TRE) and how much information they keep about their input (the
information-bottleneck view of Shwartz-Ziv & Tishby 2017). MNIST cannot be downloaded here, so
this module draws its own digits:

- **Images.** Each image shows a digit ``0``-``9`` in DejaVu Sans (matplotlib's bundled font),
  with a stroke weight (``normal`` or ``bold``), a digit colour and a different background colour
  from one palette of six (:data:`ATTRIBUTES`). Each of the 20 (digit, weight) glyphs is drawn
  once; every image then gets its own small rotation, scale and shift (:func:`render_batch`),
  so no two images of the same attributes are identical.
- **Concepts.** A concept is one attribute value (*red*) or a conjunction of two values of
  different attributes (*3 on a blue background*), see :class:`Concept`. Its derivation is a
  primitive (``"red"``) or a pair of primitives (``("3", "bg_blue")``), in the format of
  :mod:`tutorlib.trees`.
- **Task.** A triplet (:func:`make_triplets`) shows two positive examples of a concept and a
  query image, positive with probability 1/2; the learner says whether the query belongs to the
  concept. Two examples rarely pin a concept down, so even an ideal observer that reads the
  attributes without error is right only about 93% of the time
  (:func:`ideal_observer_accuracy`).
- **Model** (the paper's appendix). A small CNN encodes each image to ``z``; the concept is
  ``theta = tanh(W (z_1 + z_2))`` and the logit of the query is ``theta . z*``
  (:class:`ConceptLearner`).
- **Dynamics.** :func:`train_concepts` trains it and, at regular snapshots, records the
  validation accuracy, the representation ``theta`` of a fixed probe set (every concept once,
  for TRE) and of the validation example pairs (for :func:`binned_mutual_information`).

Where we differ from the paper: our digits are a font, not handwriting; the colours, the
concept distribution (:func:`~tutorlib.tre.concepts.concept_probabilities`), the negatives (uniform among the
concept's non-members by default, near misses on request) and centring the pixels on 0 are our
choices, because the paper does not spell them out.

The study is split by concern: :mod:`tutorlib.tre.digits` draws the images,
:mod:`tutorlib.tre.concepts` defines the concepts and the task, :mod:`tutorlib.tre.learner`
holds the model and its training, and this module measures the snapshots and runs the
experiment (``python -m tutorlib run tre_dynamics``).

Examples
--------
>>> from tutorlib.stats import binned_mutual_information
>>> binned_mutual_information([[0.1, 0.2], [0.1, 0.2], [0.5, -0.5]], bins=2) > 0
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from tutorlib import cache, fit, results
from tutorlib.checks import check_scalar
from tutorlib.profiles import Settings
from tutorlib.stats import binned_mutual_information, pearson
from tutorlib.tre.learner import ConceptConfig, ConceptRun, train_concepts
from tutorlib.tre.solver import tre

# Bump when the code below changes what it computes, so that cached results of the old code
# are not reused (tutorlib.cache).
CACHE_FORMAT = 1

# --------------------------------------------------------------------------------------------
# The Sec. 4 experiment: TRE and information over training
# --------------------------------------------------------------------------------------------

#: Andreas (2019), Sec. 4 and Fig. 3 (Colour MNIST, the appendix CNN).
@dataclass(frozen=True)
class DynamicsSettings(Settings):
    """Settings of the ``tre_dynamics`` experiment (Andreas 2019, Sec. 4).

    The few-shot concept learner on drawn coloured digits, snapshotted ``snapshots_per_epoch``
    times an epoch over ``epochs`` epochs; TRE (additive, cosine, ``tre_steps`` steps) of the 218
    probe concepts and binned information estimates of theta (``bins`` and ``coarse_bins``) on
    the ``n_val`` validation pairs at every snapshot. The paper's data sizes are 9,000 / 500.
    An epoch is ``batches_per_epoch`` batches of 128 (``None``: one pass over the training
    triplets, 71 batches); the paper's released notebook trains 20 epochs of 100 batches.
    ``representation_size`` is that of ``z`` and ``theta`` (the paper's 64); ``stop_at``
    (training, validation) ends a run at the first snapshot that reaches both
    (:class:`~tutorlib.tre.learner.ConceptConfig`), ``epochs`` then being a cap.
    """

    seeds: list[int]
    epochs: int
    n_train: int
    n_val: int
    snapshots_per_epoch: int
    tre_steps: int
    bins: int
    coarse_bins: int
    batches_per_epoch: int | None = None
    representation_size: int = 64
    stop_at: list[float] | None = None


PAPER = {"validation accuracy": 0.752, "r(TRE, I(theta; X)), all runs": 0.70,
         "r(TRE, I(theta; X)), compression phase": 0.71}

#: Where the live run stops: the fit gate's two bars for the concept learner (tutorlib.fit:
#: 90% of a sample of its training triplets; the paper's validation accuracy less the margin),
#: each with a little to spare (3 and 1 points), so that a run whose last digits differ on
#: another machine still passes the gate.
STOP_AT = (round(fit.TRAINING + 0.03, 3),
           round(fit.in_distribution_bar(PAPER["validation accuracy"]) + 0.01, 3))

SETTINGS: dict[str, DynamicsSettings] = {
    "ci": DynamicsSettings(seeds=[0], epochs=2, n_train=256, n_val=100, snapshots_per_epoch=2,
                           tre_steps=30, bins=30, coarse_bins=3),
    # the book's live run: the paper's data, theta of 256 units (with the paper's 64 the
    # learner does not reach the fit gate on a CPU budget), trained to the gate
    "tutorial": DynamicsSettings(seeds=[0], epochs=30, n_train=9000, n_val=500,
                                 snapshots_per_epoch=2, tre_steps=300, bins=30, coarse_bins=3,
                                 representation_size=256, stop_at=list(STOP_AT)),
    # the paper's setting, as its released notebook trains: ten runs of 20 epochs of 100 batches
    # of 128 (2,000 steps). The full profile trained 8 runs of 60 passes over the training set
    # (4,260 steps) before; their summary is kept as FULL_60_EPOCHS.
    "full": DynamicsSettings(seeds=list(range(10)), epochs=20, n_train=9000, n_val=500,
                              snapshots_per_epoch=2, tre_steps=500, bins=30, coarse_bins=3,
                              batches_per_epoch=100),
}


# The earlier full profile's committed summary (8 runs, 60 epochs of 71 batches), for comparison
FULL_60_EPOCHS = "full-60-epochs.json"

#: The information estimates :func:`measure_dynamics` records: the paper's joint binning
#: estimate, the joint estimate with coarse bins, and the mean over units of each unit's own
#: binned entropy (see :func:`mean_unit_entropy`).
INFORMATION = ("info_joint", "info_coarse", "info_unit")


def mean_unit_entropy(activations: Any, bins: int = 30, low: float = -1.0, high: float = 1.0,
                      base: float = math.e) -> float:
    """Mean over units of each unit's binned entropy: the average of ``I(T_u; X)`` over units.

    :func:`binned_mutual_information` bins all units jointly: with 64 units and 30 bins there are
    30**64 cells for a few hundred inputs, so as soon as the units vary at all every input gets a
    cell of its own and the estimate sits at its ceiling ``log n``. Binning each unit on its own
    (``bins`` cells for ``n`` inputs) keeps the estimate well below its ceiling ``log bins`` and
    lets it move; the price is that it ignores what the units share (it is not ``I(T; X)``, but
    the mean of the per-unit informations, which bounds ``I(T; X) / units`` from above).

    Parameters
    ----------
    activations, bins, low, high, base
        As for :func:`binned_mutual_information`.

    Returns
    -------
    float

    Examples
    --------
    >>> mean_unit_entropy([[0.0, 0.9], [0.5, 0.9]], bins=4)  # log 2 for the first unit, 0 for the second
    0.34657359027997264
    """
    values = np.asarray(activations, dtype=np.float64)
    if values.ndim != 2 or values.shape[0] == 0 or values.shape[1] == 0:
        raise ValueError(f"activations must be a non-empty (inputs, units) array, got shape "
                         f"{values.shape}")
    return float(np.mean([binned_mutual_information(values[:, [unit]], bins, low, high, base)
                          for unit in range(values.shape[1])]))


def measure_dynamics(run: ConceptRun, tre_steps: int = 500, bins: int = 30,
                     coarse_bins: int = 3) -> dict[str, list]:
    """TRE and the information estimates at every snapshot of ``run``; cached on disk.

    TRE is that of the probe concepts' ``theta`` (every concept once) with the additive
    composition and the cosine distance, as in the paper, fitted afresh at each snapshot. The
    information estimates use the validation pairs' ``theta``.

    Parameters
    ----------
    run : ConceptRun
    tre_steps : int
        Optimisation steps of each TRE fit.
    bins : int
        Bins per unit of the paper's joint estimate and of :func:`mean_unit_entropy`.
    coarse_bins : int
        Bins per unit of the coarse joint estimate.

    Returns
    -------
    dict of lists, one entry per snapshot
        ``step``, ``epoch``, ``val_accuracy``; ``tre`` and its means over single-value concepts
        (``tre_single``) and conjunctions (``tre_conjunction``); ``info_joint``,
        ``info_coarse`` and ``info_unit`` (nats); ``saturation``, the share of the validation
        pairs' ``theta`` values in the outermost bin at either end (``|theta| >= 1 - 2 / bins``).
    """


    if not isinstance(run, ConceptRun):
        raise ValueError(f"run must be a ConceptRun, got {type(run).__name__}")
    for name, value in (("tre_steps", tre_steps), ("bins", bins), ("coarse_bins", coarse_bins)):
        check_scalar(value, name, int, min_val=1)
    single = np.array([isinstance(d, str) for d in run.probe_derivations])

    def compute() -> dict[str, list]:
        table: dict[str, list] = {key: [] for key in (
            "step", "epoch", "val_accuracy", "tre", "tre_single", "tre_conjunction",
            *INFORMATION, "saturation")}
        for snapshot, step in enumerate(run.steps):
            fit = tre(run.probe_theta[snapshot], run.probe_derivations, "additive", "cosine",
                          steps=tre_steps)
            theta = run.val_theta[snapshot]
            table["step"].append(int(step))
            table["epoch"].append(float(run.epochs[snapshot]))
            table["val_accuracy"].append(float(run.val_accuracy[snapshot]))
            table["tre"].append(fit.value)
            table["tre_single"].append(float(fit.per_datum[single].mean()))
            table["tre_conjunction"].append(float(fit.per_datum[~single].mean()))
            # + 0.0 turns the -0.0 of an entropy of one cell into 0.0
            table["info_joint"].append(binned_mutual_information(theta, bins=bins) + 0.0)
            table["info_coarse"].append(binned_mutual_information(theta, bins=coarse_bins) + 0.0)
            table["info_unit"].append(mean_unit_entropy(theta, bins=bins) + 0.0)
            table["saturation"].append(float((np.abs(theta) >= 1 - 2 / bins).mean()))
        return table

    key = {"config": asdict(run.config), "steps": [int(s) for s in run.steps],
           "tre_steps": tre_steps, "bins": bins, "coarse_bins": coarse_bins}
    return cache.cached("concept-dynamics", key, compute, format=CACHE_FORMAT)


def _pearson3(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Pearson's r over at least 3 points, else ``None``."""
    return pearson(x, y) if len(x) >= 3 else None


def correlations(tables: Mapping[str, list] | Sequence[Mapping[str, list]]) -> dict[str, Any]:
    """How TRE goes with information and with validation accuracy over training.

    For every estimate of :data:`INFORMATION`: Pearson's r between TRE and the estimate over all
    snapshots (``"all"``), and over the *compression phase* (``"compression"``), the snapshots
    from the one where the estimate peaks to the end of training (``None`` when fewer than three),
    and the epoch of the peak (``"peak_epoch"``); and r between TRE and validation accuracy.
    Given several runs' tables, snapshots are pooled (each run's compression phase starting at
    its own peak) and ``peak_epoch`` is the mean over runs.

    Parameters
    ----------
    tables : dict of lists, or a sequence of them
        What :func:`measure_dynamics` returns.

    Returns
    -------
    dict
        ``{"info_unit": {"all": r, "compression": r, "peak_epoch": e}, ...,
        "val_accuracy": r}``.
    """
    tables = [tables] if isinstance(tables, Mapping) else list(tables)
    if not tables:
        raise ValueError("correlations need at least one table of snapshots")
    out: dict[str, Any] = {}
    for name in INFORMATION:
        tre_all, info_all, tre_late, info_late, peaks = [], [], [], [], []
        for table in tables:
            info = np.asarray(table[name])
            peak = int(np.argmax(info))
            peaks.append(table["epoch"][peak])
            tre_all += list(table["tre"])
            info_all += list(info)
            tre_late += list(table["tre"][peak:])
            info_late += list(info[peak:])
        out[name] = {"all": _pearson3(tre_all, info_all),
                     "compression": _pearson3(tre_late, info_late),
                     "peak_epoch": float(np.mean(peaks))}
    out["val_accuracy"] = _pearson3([v for t in tables for v in t["tre"]],
                                   [v for t in tables for v in t["val_accuracy"]])
    return out


def until_best_validation(table: Mapping[str, list]) -> dict[str, list]:
    """The snapshots of one run up to its best validation accuracy (the first, if tied): what
    the run would have been had training ended when it stopped improving on held-out data, as
    the paper's Appendix A ends it."""
    best = int(np.argmax(table["val_accuracy"]))
    return {key: list(values[:best + 1]) for key, values in table.items()}


def phases(tables: Sequence[Mapping[str, list]], early_stopped: bool = False):
    """Where each run's phases fall: a row per run with the epoch of its best validation
    accuracy, the epoch where the per-unit information peaks, how many snapshots follow that
    peak, and r(TRE, per-unit information) over all snapshots and over those after the peak
    (``None`` with fewer than three). ``early_stopped``: each run cut at its best validation
    accuracy first (:func:`until_best_validation`).

    Returns
    -------
    pandas.DataFrame
    """
    import pandas as pd

    rows = []
    for table in tables:
        best = int(np.argmax(table["val_accuracy"]))
        if early_stopped:
            table = until_best_validation(table)
        peak = int(np.argmax(table["info_unit"]))
        r = correlations(table)["info_unit"]
        rows.append({"best validation accuracy": float(max(table["val_accuracy"])),
                     "at epoch": float(table["epoch"][min(best, len(table["epoch"]) - 1)]),
                     "information peaks at epoch": float(table["epoch"][peak]),
                     "snapshots after the peak": len(table["epoch"]) - 1 - peak,
                     "r(TRE, information), all": np.nan if r["all"] is None else r["all"],
                     "r, after the peak": np.nan if r["compression"] is None
                     else r["compression"]})
    return pd.DataFrame(rows)


def dynamics_config(settings: Mapping[str, Any], seed: int) -> tuple[ConceptConfig, int]:
    """The training run a profile's ``tre_dynamics`` settings describe, and its snapshot interval
    in steps (``snapshots_per_epoch`` evenly spaced snapshots an epoch)."""
    config = ConceptConfig(epochs=settings["epochs"], n_train=settings["n_train"],
                           n_val=settings["n_val"], seed=seed,
                           batches_per_epoch=settings.get("batches_per_epoch"),
                           representation_size=settings.get("representation_size", 64),
                           stop_at=settings.get("stop_at"))
    every = max(1, config.steps_per_epoch // settings["snapshots_per_epoch"])
    return config, every


def dynamics_run(settings: Mapping[str, Any], seed: int, progress: bool = False,
                 device: str = "cpu") -> dict:
    """Train one seed on ``device``, measure every snapshot; a small JSON-friendly record (no
    ``theta``)."""
    start = time.perf_counter()
    config, every = dynamics_config(settings, seed)
    run = train_concepts(config, progress=progress, snapshot_every=every, device=device)
    table = measure_dynamics(run, settings["tre_steps"], settings["bins"], settings["coarse_bins"])
    if run.train_accuracy is not None:
        # what the fit gate reads (tutorlib.fit); records made before this have none, and fail it
        table = {**table, "train_accuracy": [float(v) for v in run.train_accuracy]}
    # Five decimals keep the record small; correlations use the stored numbers, so that those
    # pooled over the saved records agree with the per-run ones.
    table = {k: [round(v, 5) for v in values] for k, values in table.items()}
    return {"seed": seed,
            "final val_accuracy": table["val_accuracy"][-1],
            "best val_accuracy": max(table["val_accuracy"]),
            "snapshots": table,
            "correlations": correlations(table),
            "seconds": time.perf_counter() - start}


def runs(settings: DynamicsSettings) -> list[tuple[dict, int]]:
    """One run per seed of ``settings.seeds``, all with the same settings."""
    # keys of runs from before these settings: left out at their defaults
    config = cache.key_dict({k: v for k, v in settings.to_dict().items() if k != "seeds"},
                            {"batches_per_epoch": None, "representation_size": 64,
                             "stop_at": None})
    return [(config, seed) for seed in settings["seeds"]]


def run_one(config: dict, seed: int, device: str = "cpu") -> dict:
    """One training run of the sweep and its measurements, trained on ``device``."""
    return dynamics_run(config, seed, device=device)


def summarise(settings: DynamicsSettings, finished: list[dict]) -> dict:
    """Correlations pooled over the finished runs, their mean final accuracy, and the published
    numbers (``"published"``: :data:`PAPER`)."""
    pooled = correlations([r["snapshots"] for r in finished]) if finished else None
    mean_final = (float(np.mean([r["final val_accuracy"] for r in finished]))
                  if finished else None)
    return {"pooled correlations": pooled, "mean final val_accuracy": mean_final,
            "published": PAPER}


EXPERIMENT = results.Experiment(name="tre_dynamics", runs=runs, run=run_one, summarise=summarise)


def committed_results(profile: str = "full", long: bool = False) -> dict | None:
    """The committed ``results/tre_dynamics/<profile>.json`` (provenance and data), or ``None``.

    ``long=True``: the earlier full profile's longer runs instead (8 seeds, 60 passes over the
    training set; :data:`FULL_60_EPOCHS`), which the TRE appendix describes.
    """
    if not long:
        return results.committed("tre_dynamics", profile)
    path = results.project_results("tre_dynamics", FULL_60_EPOCHS)
    return results.read_results(path) if path.exists() else None


def committed_runs(profile: str = "full", long: bool = False):
    """The committed runs' snapshots as one DataFrame, a row per (seed, snapshot); empty if none
    (``long``: as :func:`committed_results`)."""
    import pandas as pd

    columns = ["seed", "step", "epoch", "val_accuracy", "tre", "tre_single", "tre_conjunction",
               *INFORMATION, "saturation"]
    results = committed_results(profile, long=long)
    if results is None or not results["data"]["runs"]:
        return pd.DataFrame(columns=columns)
    frames = [pd.DataFrame(r["snapshots"]).assign(seed=r["seed"]) for r in results["data"]["runs"]]
    return pd.concat(frames, ignore_index=True)[columns]
