"""What the ORCHARD chapter shows about its runs: the figure by depth, the paper's claims beside
ours, how our setting differs from the paper's, and the facts the prose states.

Each function reads run records (:func:`tutorlib.orchard.experiments.run`) or the table
:func:`tutorlib.orchard.experiments.by_depth_table` makes of them (a row per variant, model,
seed, tree and depth, with ``accuracy (%)``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tutorlib import seq2seq as s2s
from tutorlib.orchard.experiments import CHANCE, MODELS, PAPER, TREES, run_settings, vocabularies
from tutorlib.orchard.generator import TRAIN_DEPTHS

NAMES = {"lstm": "LSTM", "transformer": "Transformer"}
# The last training depth: the edge the prose compares the deepest bin with.
EDGE = TRAIN_DEPTHS[1]
# The five claims of Pung & Chan (2021) the chapter checks, and what the paper reports.
CLAIMS = {
    "both models fall as depth grows past the training range": "yes",
    "LSTM beats the Transformer on deep first trees (hard variants)":
        "86.7% / 88.7% vs 54.1% / 48.3% (MIN-MAX / FIRST-LAST, depth 12)",
    "the Transformer falls to chance (10%) at depth 12": "yes",
    "both models fail on the second tree of the hard variant": "yes",
    "COPY makes every variant harder": "yes (easy > medium > hard)",
}


def plot_by_depth(table: pd.DataFrame, title: str, train_depths=TRAIN_DEPTHS):
    """Accuracy by depth: one row of panels per variant, one panel per tree, a line per model.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`tutorlib.orchard.experiments.by_depth_table`.
    title : str
        The figure's title.
    train_depths : (int, int)
        The training depths, shaded.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (chance dotted: 10% on one tree, 1% on both).
    """
    import matplotlib.pyplot as plt

    variants = list(dict.fromkeys(table["variant"]))
    fig, axes = plt.subplots(len(variants), 3, figsize=(9, 2.6 * len(variants) + 0.6),
                             sharex=True, sharey=True, squeeze=False)
    means = table.groupby(["variant", "model", "tree", "depth"])["accuracy (%)"].mean()
    for row, name in enumerate(variants):
        for col, tree in enumerate(TREES):
            ax = axes[row, col]
            ax.axvspan(train_depths[0] - 0.5, train_depths[1] + 0.5, color="0.9", zorder=0)
            ax.axhline(CHANCE if tree != "both" else CHANCE ** 2 / 100, color="0.5",
                       ls=":", lw=1)
            for model, marker in zip(MODELS, "os"):
                if (name, model, tree) in means.index.droplevel("depth"):
                    curve = means.loc[(name, model, tree)]
                    ax.plot(curve.index, curve.values, marker=marker, ms=4, label=model)
            ax.set_title(f"{name}: {tree} tree" if tree != "both" else f"{name}: both trees",
                         fontsize=9)
            ax.set_ylim(-3, 103)
            ax.set_xticks(sorted(set(table["depth"])))
            if row == len(variants) - 1:
                ax.set_xlabel("depth of both trees")
            if col == 0:
                ax.set_ylabel("accuracy (%)")
    axes[0, 0].legend(loc="lower left", fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def mean_accuracy(table: pd.DataFrame, *, model: str, tree: str, depth: int,
                  variant: str | None = None) -> float:
    """Mean accuracy (%) of ``model`` on ``tree`` at ``depth`` (over variants and seeds, or of
    one variant).

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`tutorlib.orchard.experiments.by_depth_table`.
    model : {"lstm", "transformer"}
        The model.
    tree : {"first", "second", "both"}
        Which tree's value is scored.
    depth : int
        The test bin.
    variant : str, optional
        One variant only.

    Returns
    -------
    float
        The mean, ``nan`` where the table has no such row.
    """
    rows = table[(table["model"] == model) & (table["tree"] == tree) & (table["depth"] == depth)]
    if variant is not None:
        rows = rows[rows["variant"] == variant]
    return rows["accuracy (%)"].mean()


def _fit(records: list[dict], part: str) -> dict[str, float]:
    return {model: 100 * np.mean([r[part]["first"] for r in records if r["model"] == model])
            for model in MODELS}


def fit_verdict(records: list[dict]) -> str:
    """How far each model has learned the first tree of the training distribution, in words,
    from its accuracy on training inputs and on validation inputs of the training depths.

    Parameters
    ----------
    records : list of dict
        Run records (each with ``model``, ``train`` and ``valid`` accuracies per tree).

    Returns
    -------
    str
        A paragraph: learned well (validation at least 60%), partly (at least 2.5 times
        chance) or not; whether it did ten points better on its own inputs; and what that
        means for reading its accuracy past the training depths.
    """
    train_first, valid_first = _fit(records, "train"), _fit(records, "valid")

    def phrase(model: str) -> str:
        if valid_first[model] >= 60:
            return f"the {NAMES[model]} has learned it well"
        if valid_first[model] >= 2.5 * CHANCE:
            return f"the {NAMES[model]} has learned part of it, well above chance"
        return f"the {NAMES[model]} has not learned it"

    learned = [model for model in MODELS if valid_first[model] >= 2.5 * CHANCE]
    memorised = [model for model in MODELS if train_first[model] - valid_first[model] >= 10]
    return (
        f"On the first tree, {phrase('lstm')} and {phrase('transformer')}. "
        + ("Neither does much worse on the validation inputs than on its training inputs, so "
           "what it learned is the training distribution, not its examples. " if not memorised
           else f"The {' and the '.join(NAMES[m] for m in memorised)} does at least ten points "
                f"better on its training inputs than on new ones: part of what it learned is "
                f"its examples. ")
        + ("What happens past depth 6 is then generalisation from what each model learned "
           "inside the training range, which is far from perfect; a fully trained model may "
           "generalise differently." if len(learned) == len(MODELS) else
           "A model that has not learned the task inside the training range cannot show a "
           "failure to generalise beyond it: its low accuracy past depth 6 is no evidence "
           "either way."))


def run_facts(records: list[dict], table: pd.DataFrame, deepest: int) -> dict[str, str]:
    """The facts the chapter states about its own runs: each model's fit, and its accuracy on
    each tree at the training edge (depth 6) and at the deepest bin.

    Parameters
    ----------
    records : list of dict
        This profile's run records.
    table : pandas.DataFrame
        :func:`tutorlib.orchard.experiments.by_depth_table` of ``records``.
    deepest : int
        The deepest test bin of the profile.

    Returns
    -------
    dict of str to str
        Name -> text.
    """
    facts = {"deepest": f"{deepest}", "fit_verdict": fit_verdict(records)}
    for part, values in (("train", _fit(records, "train")), ("valid", _fit(records, "valid"))):
        facts |= {f"{model}_{part}_first": f"{values[model]:.1f}" for model in MODELS}
    for model in MODELS:
        for tree in TREES:
            facts[f"{model}_{tree}_d6"] = \
                f"{mean_accuracy(table, model=model, tree=tree, depth=EDGE):.1f}"
            facts[f"{model}_{tree}_deep"] = \
                f"{mean_accuracy(table, model=model, tree=tree, depth=deepest):.1f}"
    return facts


def copy_verdict(table: pd.DataFrame) -> str:
    """Whether COPY makes the MIN-MAX variants harder: the LSTM's second-tree accuracy at depth
    6 on the easy, medium and hard variants, when all three have runs.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`tutorlib.orchard.experiments.by_depth_table` (the full profile's).

    Returns
    -------
    str
        The three accuracies, in the paper's order when they fall easy > medium > hard.
    """
    rows = table[(table["model"] == "lstm") & (table["tree"] == "second")
                 & (table["depth"] == EDGE) & table["variant"].str.startswith("minmax")]
    means = rows.groupby("variant")["accuracy (%)"].mean()
    names = ["minmax_easy", "minmax_medium", "minmax_hard"]
    if not set(names) <= set(means.index):
        return "needs the easy and medium variants: the full profile only (not all committed)"
    head = "full profile, LSTM, second tree at depth 6: "
    if means[names[0]] > means[names[1]] > means[names[2]]:
        return head + " > ".join(f"{name.split('_')[1]} {means[name]:.1f}%" for name in names)
    return (head + ", ".join(f"{name.split('_')[1]} {means[name]:.1f}%" for name in names)
            + " (not in that order)")


def _percent(values) -> str:
    """The mean of the values that exist, in %, or a dash where there is none."""
    values = [v for v in values if not np.isnan(v)]
    return f"{np.mean(values):.1f}%" if values else "–"


def claim_column(table: pd.DataFrame, deep: int) -> list[str]:
    """The first four claims' quantities in one table of results, at depth ``deep``.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`tutorlib.orchard.experiments.by_depth_table`.
    deep : int
        The depth the claims are read at (the paper's: 12).

    Returns
    -------
    list of str
        Whether each model falls from depth 6 to ``deep`` (both trees); the first-tree
        accuracies of the two models on the hard variants; the Transformer's; and the
        second-tree accuracy of both models.
    """
    hard = [v for v in ("minmax_hard", "firstlast_hard") if v in set(table["variant"])]
    first = {model: _percent([mean_accuracy(table, model=model, tree="first", depth=deep,
                                            variant=v) for v in hard])
             for model in MODELS}
    falls = {}
    for model in MODELS:
        deep_both, edge_both = (mean_accuracy(table, model=model, tree="both", depth=d)
                                for d in (deep, EDGE))
        falls[model] = ("has no run" if np.isnan(deep_both) or np.isnan(edge_both)
                        else "falls" if deep_both < edge_both else "does not fall")
    second = _percent([mean_accuracy(table, model=m, tree="second", depth=deep, variant=v)
                       for m in MODELS for v in hard])
    return [f"LSTM {falls['lstm']}, Transformer {falls['transformer']} (both trees, depth "
            f"{EDGE} to {deep})",
            f"{first['lstm']} vs {first['transformer']} (mean of the hard variants, depth {deep})",
            f"{first['transformer']} on the first tree at depth {deep}",
            f"{second} (both models, depth {deep})"]


def claims_table(table: pd.DataFrame, deepest: int, committed: pd.DataFrame | None = None,
                 committed_runs: int = 0, planned_runs: int = 0) -> pd.DataFrame:
    """The paper's claims, what it reports, and the same quantities from our runs.

    Parameters
    ----------
    table : pandas.DataFrame
        This profile's :func:`tutorlib.orchard.experiments.by_depth_table`.
    deepest : int
        This profile's deepest bin.
    committed : pandas.DataFrame, optional
        The committed full profile's table (a column of its own, read at its deepest bin).
    committed_runs, planned_runs : int
        How many of the full profile's runs are committed, of how many.

    Returns
    -------
    pandas.DataFrame
        A row per claim.
    """
    claims = pd.DataFrame({
        "claim": list(CLAIMS), "published": list(CLAIMS.values()),
        "this run": [*claim_column(table, deepest), "needs the easy and medium variants: the "
                     "full profile only"]}).set_index("claim")
    if committed is not None:
        claims[f"full profile ({committed_runs} of {planned_runs} runs)"] = [
            *claim_column(committed, max(committed["depth"])), copy_verdict(committed)]
    return claims


def _epochs(settings) -> str:
    """Passes over the training set, per model where the models differ."""
    per_model = {model: run_settings(settings["variants"][0], model, settings)["presentations"]
                 / settings["train_size"] for model in settings["models"]}
    if len(set(per_model.values())) == 1:
        return f"{next(iter(per_model.values())):g}"
    return ", ".join(f"{model} {value:g}" for model, value in per_model.items())


def _transformer_training(settings) -> str:
    """A profile's Transformer training in a few words."""
    config = run_settings(settings["variants"][0], "transformer", settings)
    return (f"learning rate {config['learning_rate']:g}, warmup "
            f"{config.get('warmup_steps', 0)} steps, {config.get('embedding_init', 'pytorch')} "
            f"embedding initialisation")


def _parameters(settings) -> dict[str, int]:
    source, target = vocabularies()
    return {name: sum(p.numel() for p in s2s.build_model(s2s.Seq2SeqConfig(**config),
                                                         len(source), len(target)).parameters())
            for name, config in settings["models"].items()}


def _record_parameters(records: list[dict]) -> dict[str, int]:
    """Each model's parameter count, from its first run record."""
    found = {}
    for model in MODELS:
        counts = [r["parameters"] for r in records if r["model"] == model]
        if not counts:
            raise ValueError(f"no run of the {model} among the {len(records)} records: the "
                             f"setting compares both models ({', '.join(MODELS)})")
        found[model] = counts[0]
    return found


def setting_table(settings, full, records: list[dict], profile: str) -> pd.DataFrame:
    """Every difference between the paper's setting and ours: the paper, this page's runs and
    the full profile, a column each.

    Parameters
    ----------
    settings : tutorlib.profiles.Settings
        This page's ``orchard`` settings.
    full : tutorlib.profiles.Settings
        The full profile's.
    records : list of dict
        This page's run records (their parameter counts).
    profile : str
        This page's profile.

    Returns
    -------
    pandas.DataFrame
        A row per aspect (training examples, epochs, sizes, decoding, hardware...).
    """
    paper = PAPER["training"]
    ours = _record_parameters(records)
    full_parameters = _parameters(full)

    def column(s, parameters, hardware, test_size) -> dict[str, str]:
        return {"training examples": f"{s['train_size']:,}", "epochs": _epochs(s),
                "batch size": f"{s['batch_size']}",
                "LSTM parameters": f"{parameters['lstm'] / 1e6:.3f}M",
                "Transformer parameters": f"{parameters['transformer'] / 1e6:.3f}M",
                "decoding": "greedy", "checkpoint": "last", "hardware": hardware,
                "test examples per depth bin": test_size,
                "Transformer training": _transformer_training(s),
                "seeds": f"{len(s['seeds'])}"}

    return pd.DataFrame({
        "Pung & Chan (2021)": {
            "training examples": f"{paper['examples']:,}", "epochs": f"{paper['epochs']}",
            "batch size": f"{paper['batch_size']}",
            "LSTM parameters": f"{paper['lstm_parameters'] / 1e6:.1f}M",
            "Transformer parameters": f"{paper['transformer_parameters'] / 1e6:.1f}M",
            "decoding": paper["decoding"], "checkpoint": paper["checkpoint"],
            "hardware": f"{paper['gpus']} GPUs, {paper['hours']} hours",
            "test examples per depth bin": "the release's test sets",
            "Transformer training": "fairseq", "seeds": "-"},
        f"this run ({profile})": column(settings, ours, "CPU", f"{settings['test_size']}"),
        "our full profile": column(full, full_parameters, "CPU, about 10 core-hours for 36 runs",
                                   f"{full['test_size']:,}"),
    })


def setting_facts(settings, tutorial_variants: list[str], records: list[dict]) -> dict[str, str]:
    """The facts the prose states about the setting: this page's models' share of the paper's
    parameters, and how many times fewer examples they see.

    Parameters
    ----------
    settings : tutorlib.profiles.Settings
        This page's ``orchard`` settings.
    tutorial_variants : list of str
        The variants the tutorial profile runs.
    records : list of dict
        This page's run records.

    Returns
    -------
    dict of str to str
        Name -> text.
    """
    paper = PAPER["training"]
    parameters = _record_parameters(records)
    most = max(run_settings(settings["variants"][0], model, settings)["presentations"]
               for model in settings["models"])
    return {
        "lstm_share": f"{100 * parameters['lstm'] / paper['lstm_parameters']:.1f}",
        "transformer_share":
            f"{100 * parameters['transformer'] / paper['transformer_parameters']:.1f}",
        "tutorial_variants": " and ".join(tutorial_variants),
        "presentation_ratio": f"{paper['examples'] * paper['epochs'] / most:,.0f}",
    }
