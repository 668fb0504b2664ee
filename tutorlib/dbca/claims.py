"""The claims the book checks for Keysers et al. (2020), DBCA on SCAN: each published number, the
reader that computes ours from the committed results, and the rule (the engine:
:mod:`tutorlib.verdicts`; the claims page: :mod:`tutorlib.claims`)."""

from __future__ import annotations

from collections.abc import Callable

from tutorlib import fit as gate
from tutorlib.dbca import experiments as dbca_experiments
from tutorlib.dbca import report as dbca_report
from tutorlib.verdicts import (
    Claim,
    Ours,
    close_to,
    planned_seeds,
)


def _dbca(split: str, network: str) -> Callable[[], Ours | None]:
    def read() -> Ours | None:
        runs = _dbca_dial_runs(network)
        if runs is None:
            return None
        targets = runs["target_compound_divergence"]
        # the MCD split, or the lowest D_C of the dial, standing for a random split
        runs = runs[targets.isna()] if split == "mcd" else runs[targets == 0.0]
        if runs.empty:
            return None
        return Ours.mean_of(100 * runs["accuracy"].to_numpy(), planned_seeds("dbca"),
                            fits=runs["train_accuracy"].to_numpy())
    return read


def _dbca_dial_runs(network: str):
    runs = dbca_experiments.committed_runs("full")
    if runs.empty:
        return None
    runs = runs[runs["network"] == network]
    return None if runs.empty else runs


def _dbca_low_dial(network: str, up_to: float) -> Callable[[], Ours | None]:
    """Accuracy on the dial's splits of target D_C at most ``up_to``, a value per seed."""
    def read() -> Ours | None:
        runs = _dbca_dial_runs(network)
        if runs is None:
            return None
        runs = runs[runs["target_compound_divergence"].notna()
                    & (runs["target_compound_divergence"] <= up_to + 1e-9)]
        if runs.empty:
            return None
        per_seed = 100 * runs.groupby("seed")["accuracy"].mean().to_numpy()
        # a seed passes the fit gate when each of its networks does (its lowest fit)
        return Ours.mean_of(per_seed, planned_seeds("dbca"),
                            fits=runs.groupby("seed")["train_accuracy"].min().to_numpy())
    return read


def _dbca_r2(network: str) -> Callable[[], Ours | None]:
    """The dial's straight line (accuracy against reached D_C): its R², with its slope in
    ``text``; a line that rises does not show the paper's fall and reads as R² 0."""
    def read() -> Ours | None:
        runs = _dbca_dial_runs(network)
        if runs is None:
            return None
        # the line through the runs that pass the fit gate (each run, not their mean)
        every = len(runs)
        runs = runs[[gate.passes(float(a)) for a in runs["train_accuracy"]]]
        if runs.empty:
            return Ours(float("nan"), 0, every, False, dropped=every)
        regression = dbca_report.dial_regression(runs)
        if network not in regression.index:
            return None
        row = regression.loc[network]
        slope = float(row["slope (points per D_C)"])
        r2 = float(row["R²"]) if slope < 0 else 0.0
        return Ours(r2, int(row["runs"]), every, fit=float(runs["train_accuracy"].min()),
                    fitted=True, dropped=every - len(runs),
                    text=f"R² = {float(row['R²']):.2f}, {-slope / 10:.1f} points lost per 0.1 of D_C")
    return read


def _clipped(mean: float, half: float) -> str:
    """The paper's mean with its 95% interval, as an interval where mean + half passes 100%."""
    if mean + half <= 100:
        return ""
    return f"{mean:.1f}% [{max(0.0, mean - half):.1f}, 100.0]"


def claims() -> list[Claim]:
    names = {"lstm_attention": "LSTM + attention", "transformer": "Transformer"}
    paper = dbca_experiments.PAPER
    claims = []
    for network, name in names.items():
        claims.append(Claim(
            "DBCA", "dbca/15_dbca", "keysers2020measuring",
            f"SCAN's MCD splits (maximum compound divergence) defeat the {name}",
            paper["mcd"][network], "%", _dbca("mcd", network), experiment="dbca",
            spread=paper["mcd_interval"][network]))
        claims.append(Claim(
            "DBCA", "dbca/15_dbca", "keysers2020measuring",
            f"the {name} solves a random split (ours: the dial at D_C 0)",
            paper["random"][network], "%", _dbca("random", network), experiment="dbca",
            spread=paper["random_interval"][network],
            # Table 4's interval clipped to [0, 100] where it passes 100% (99.9 ± 2.7)
            published_text=_clipped(paper["random"][network], paper["random_interval"][network])))
    for network, name in {"lstm": "LSTM", **names}.items():
        claims.append(Claim(
            "DBCA", "dbca/15_dbca", "keysers2020measuring",
            f"the {name}: about 100% up to D_C 0.2 (the dial's targets 0-0.2)", 100.0, "%",
            _dbca_low_dial(network, 0.2), experiment="dbca"))
    low, high = paper["cfq_r2"]
    for network, name in {"lstm": "LSTM", **names}.items():
        claims.append(Claim(
            "DBCA", "dbca/15_dbca", "keysers2020measuring",
            f"the {name}: accuracy falls as D_C rises, along a line (R²; the paper's on CFQ)",
            (low + high) / 2, "R²", _dbca_r2(network), close_to(0.1), "dbca",
            "a line that rises reads as R² 0", spread=(high - low) / 2,
            published_text=f"{low:.2f}-{high:.2f}"))
    return claims


__all__ = ["claims"]
