"""Reading many cards at once: do the benchmarks agree, does TRE predict behaviour, and does
compound divergence measure difficulty across benchmarks?

- :func:`plot_concurrency`: the tau-b of :func:`tutorlib.card.agreement.concurrence` between
  every two measures' rankings of the networks (Sun, Williams and Hupkes 2023 call agreement
  between benchmarks' rankings *concurrence*) as a heat map.
- :func:`tre_against_behaviour`: the TRE of each run's representations of SCAN commands against
  the same run's accuracy on its test split; the Pearson correlation with Fisher's interval.
- :func:`split_divergences`: the atom and compound divergences (Keysers et al. 2020) of the
  card's splits of SCAN, PCFG SET (over its derivation trees) and ORCHARD (over its expression
  trees), so that one measure of distribution shift sits beside every benchmark.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def measure_label(benchmark: str, task: str, test: str, score: str) -> str:
    """The name of one measure of the card, e.g. ``scan length: length (accuracy)``.

    Examples
    --------
    >>> measure_label("orchard", "minmax_hard", "depth 12", "second tree")
    'orchard minmax_hard: depth 12 (second tree)'
    """
    for name, value in (("benchmark", benchmark), ("task", task), ("test", test),
                        ("score", score)):
        if not value.strip():
            raise ValueError(f"{name} must be a non-empty name")
    return f"{benchmark} {task}: {test} ({score})"


def check_frame(frame: object, name: str, columns: Sequence[str]) -> None:
    """A ``TypeError`` unless ``frame`` is a pandas DataFrame with ``columns`` (the error names
    ``name``, the function's argument)."""
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame, got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} lacks the columns {', '.join(missing)}")


def _frame(rows: Sequence[dict]):
    import pandas as pd

    if not rows:
        raise ValueError("no card rows: give the rows of finished card runs (run_task's)")
    frame = pd.DataFrame(list(rows))
    missing = {"model", "benchmark", "task", "test", "score", "value", "seed",
               "fitted"} - set(frame.columns)
    if missing:
        raise ValueError(f"card rows lack {', '.join(sorted(missing))}: give run_task's rows")
    frame["measure"] = [measure_label(*key) for key in
                        zip(frame["benchmark"], frame["task"], frame["test"], frame["score"])]
    return frame


def concurrency_matrix(pairs):
    """The tau of :func:`~tutorlib.card.agreement.concurrence` as a square table (1 on the
    diagonal, NaN where not measured)."""
    import pandas as pd

    check_frame(pairs, "pairs", ("a", "b", "tau"))
    if len(pairs) == 0:
        raise ValueError("concurrency_matrix needs concurrence()'s rows")
    names = list(dict.fromkeys([*pairs["a"], *pairs["b"]]))
    matrix = pd.DataFrame(np.eye(len(names)), index=names, columns=names)
    for a, b, tau in zip(pairs["a"], pairs["b"], pairs["tau"]):
        value = np.nan if tau is None else float(tau)
        matrix.loc[a, b] = matrix.loc[b, a] = value
    return matrix


def plot_concurrency(pairs, labels: dict[str, str] | None = None):
    """The tau matrix as a heat map (blue: the rankings agree, red: they are reversed, grey:
    not measured).

    Parameters
    ----------
    pairs : pandas.DataFrame
        From :func:`~tutorlib.card.agreement.concurrence`.
    labels : dict of str to str, optional
        Shorter names for the measures.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    check_frame(pairs, "pairs", ("a", "b", "tau"))
    if len(pairs) == 0:
        fig, ax = plt.subplots(figsize=(5, 2))
        ax.text(0.5, 0.5, "no measures to compare", ha="center", va="center")
        ax.set_axis_off()
        return fig
    if pairs["tau"].isna().all() and "models" in pairs:
        return _plot_models_in_common(pairs, labels)
    matrix = concurrency_matrix(pairs)
    names = [(labels or {}).get(name, name) for name in matrix.index]
    size = len(names)
    fig, ax = plt.subplots(figsize=(min(12.0, 3.0 + 0.5 * size), min(11.0, 2.2 + 0.45 * size)),
                           layout="constrained")
    cmap = plt.get_cmap("RdBu").with_extremes(bad="0.85")
    image = ax.imshow(np.ma.masked_invalid(matrix.to_numpy(dtype=float)), cmap=cmap, vmin=-1,
                      vmax=1)
    for i in range(size):
        for j in range(size):
            value = matrix.iat[i, j]
            if i != j and np.isfinite(value):
                ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(size), names, rotation=60, ha="right")
    ax.set_yticks(range(size), names)
    ax.grid(False)
    fig.colorbar(image, ax=ax, label="Kendall's tau between the rankings")
    return fig


def _plot_models_in_common(pairs, labels: dict[str, str] | None):
    """Where no pair of measures can be ranked: how many fitted networks each pair has in
    common, the number a tau needs (three) marked in the title."""
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys([*pairs["a"], *pairs["b"]]))
    matrix = np.full((len(names), len(names)), np.nan)
    where = {name: i for i, name in enumerate(names)}
    for a, b, models in zip(pairs["a"], pairs["b"], pairs["models"]):
        matrix[where[a], where[b]] = matrix[where[b], where[a]] = float(models)
    shown = [(labels or {}).get(name, name) for name in names]
    size = len(names)
    fig, ax = plt.subplots(figsize=(min(12.0, 3.0 + 0.5 * size), min(11.0, 2.2 + 0.45 * size)),
                           layout="constrained")
    cmap = plt.get_cmap("Greens").with_extremes(bad="0.85")
    image = ax.imshow(np.ma.masked_invalid(matrix), cmap=cmap, vmin=0, vmax=max(3.0, np.nanmax(matrix)))
    for i in range(size):
        for j in range(size):
            if i != j and np.isfinite(matrix[i, j]):
                ax.text(j, i, f"{int(matrix[i, j])}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(size), shown, rotation=60, ha="right")
    ax.set_yticks(range(size), shown)
    ax.grid(False)
    ax.set_title("No pair of measures has the 3 fitted networks a tau needs:\n"
                 "networks fitted in common by each pair", fontsize=10)
    fig.colorbar(image, ax=ax, label="networks fitted on both tasks, every seed")
    return fig


def tre_against_behaviour(rows: Sequence[dict], *, fitted_only: bool = True,
                          within_task: bool = True):
    """Each run's TRE of its representations of its task's inputs against the same run's
    accuracy on its test split, and their Pearson correlation with Fisher's 95% interval.

    Andreas (2019) asks whether representations that are closer to compositional (lower TRE)
    go with better generalisation; here a "run" is one model trained on one split with one
    seed, so TRE and accuracy come from the same network. Splits differ far more in difficulty
    than networks do, so by default both are compared *within* each split: each run's TRE and
    accuracy minus its split's means, pooled over splits (Fisher's interval then counts one
    fewer degree of freedom per split beyond the first).

    Parameters
    ----------
    rows : sequence of dict
        Card rows; runs with a ``TRE`` row are used, with their test accuracy (the mean over a
        task's test sets; ORCHARD's: the second tree at its deepest test depth, where the
        variants differ).
    fitted_only : bool
        Only runs whose model fitted its training data.
    within_task : bool
        Correlate deviations from each split's means (True) or the raw values (False).

    Returns
    -------
    tuple of (pandas.DataFrame, dict)
        The points (``model``, ``benchmark``, ``task``, ``seed``, ``tre``, ``accuracy`` in %)
        and ``{"r", "low", "high", "runs", "tasks", "by_benchmark"}`` (``r`` None for fewer than
        3 points or no variation; ``by_benchmark``: the same summary, without ``by_benchmark``,
        over each benchmark's runs alone).
    """
    import pandas as pd

    from tutorlib.stats import correlation_interval, pearson

    frame = _frame(rows)
    keys = ["model", "benchmark", "task", "seed"]
    tre = frame[frame["score"] == "TRE"].groupby(keys)["value"].mean()
    orchard = frame["benchmark"] == "orchard"
    depths = frame.loc[orchard & frame["test"].str.startswith("depth "), "test"]
    deepest = (f"depth {max(int(t.split()[-1]) for t in depths)}" if len(depths) else None)
    accuracy = frame[((frame["score"] == "accuracy") & (frame["test"] != "representations"))
                     | (orchard & (frame["score"] == "second tree") & (frame["test"] == deepest))]
    if fitted_only:
        accuracy = accuracy[accuracy["fitted"].astype(bool)]
    accuracy = accuracy.groupby(keys)["value"].mean()
    points = pd.DataFrame({"tre": tre, "accuracy": 100 * accuracy}).dropna().reset_index()

    def correlate(part) -> dict:
        tasks = part.groupby(["benchmark", "task"]).ngroups if len(part) else 0
        x, y = part["tre"], part["accuracy"]
        if within_task and len(part):
            groups = part.groupby(["benchmark", "task"])
            x = x - groups["tre"].transform("mean")
            y = y - groups["accuracy"].transform("mean")
        effective = len(part) - (tasks - 1 if within_task and tasks else 0)
        r = pearson(list(x), list(y)) if effective >= 3 else None
        low, high = (correlation_interval(r, effective) if r is not None and effective >= 1
                     else (None, None))
        return {"r": r, "low": low, "high": high, "runs": len(part), "tasks": tasks}

    by_benchmark = ({benchmark: correlate(part) for benchmark, part in points.groupby("benchmark")}
                    if len(points) else {})
    return points, {**correlate(points), "by_benchmark": by_benchmark}


def _pcfgset_tree(source: str):
    """A PCFG SET input as a tree of function applications; every string argument is one
    ``string`` leaf (the tests are about how functions combine, not which letters); the
    substitutivity test's twins (``append_twin``) are functions of their own."""
    from tutorlib import pcfgset

    functions = set(pcfgset.FUNCTIONS) | set(pcfgset.TWINS)  # a twin is a word of its own

    def convert(node):
        if isinstance(node, tuple) and node and isinstance(node[0], str) and \
                node[0] in functions:
            return (node[0], *(convert(child) for child in node[1:]))
        return "string"

    return convert(pcfgset.parse(source, synonyms=pcfgset.TWINS))


def _orchard_tree(line: str):
    """An ORCHARD input as a tree: ``X`` over its two trees of operators; a digit is one ``n``
    leaf, a ``[COPY k ]`` one ``COPY`` leaf."""
    from tutorlib import orchard

    first, second = orchard.parse(line)
    return ("X", orchard.nested(first, digits=False), orchard.nested(second, digits=False))


def split_divergences(tasks: Sequence, *, sample: int | None = 2000, seed: int = 0):
    """Atom and compound divergence (Keysers et al. 2020) between each task's training pairs
    and each of its test sets, on one scale for every benchmark.

    SCAN's commands are read by SCAN's grammar (:func:`tutorlib.dbca.scan_divergences`,
    compounds weighted over all of SCAN); PCFG SET's inputs as trees of functions
    (a string argument is one leaf); ORCHARD's inputs as the first tree's operators (a number is
    one leaf); their compounds are weighted over the two sides together. Divergences are
    computed on seeded samples of ``sample`` pairs a side: compare splits at one sample size,
    since a smaller sample sees fewer of the training compounds and so diverges more.

    Parameters
    ----------
    tasks : sequence of Task
        Card tasks (:mod:`tutorlib.card.tasks`).
    sample : int, optional
        Pairs drawn from each side (None: all).
    seed : int
        Seeds the samples.

    Returns
    -------
    pandas.DataFrame
        ``benchmark``, ``task``, ``test``, ``atom divergence``, ``compound divergence``.
    """
    import pandas as pd

    from tutorlib import dbca
    from tutorlib.card.tasks import Task, sample_pairs
    from tutorlib.dbca.scan_splits import scan_divergences

    if isinstance(tasks, (str, bytes)) or not len(tasks) or not all(
            isinstance(task, Task) for task in tasks):
        raise TypeError("tasks must be a non-empty list of card Tasks (card.scan_task(...), ...)")
    out = []
    for task in tasks:
        train = sample_pairs(task.train, sample, seed)
        for test, pairs in task.tests.items():
            if task.scorer in ("consistency", "overgeneralisation") and test != next(
                    iter(task.tests)):
                continue  # twins and rules share the first test set's inputs
            pairs = sample_pairs(pairs, sample, seed)
            if task.benchmark in ("scan", "dbca"):
                atom, compound = scan_divergences(train, pairs)
            else:
                read = _pcfgset_tree if task.benchmark == "pcfgset" else _orchard_tree
                left = [read(source) for source, _ in train]
                right = [read(source) for source, _ in pairs]
                atom, compound = dbca.divergences(left, right)
            out.append({"benchmark": task.benchmark, "task": task.name, "test": test,
                        "atom divergence": atom, "compound divergence": compound})
    return pd.DataFrame(out)


__all__ = ["check_frame", "concurrency_matrix", "measure_label", "plot_concurrency",
           "split_divergences", "tre_against_behaviour"]
