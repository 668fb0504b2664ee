"""The claims the book checks for Pung & Chan (2021), ORCHARD: each published number, the reader
that computes ours from the committed results, and the rule (the engine:
:mod:`tutorlib.verdicts`; the claims page: :mod:`tutorlib.claims`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tutorlib import profiles
from tutorlib.orchard import experiments as orchard_experiments
from tutorlib.orchard import report as orchard_report
from tutorlib.verdicts import (
    ORDER,
    Claim,
    Ours,
    order_reading,
    planned_seeds,
)


def _setting(profile: str) -> str:
    """How ``profile``'s training depths differ from the paper's (3-6), "" where they do not."""
    low, high = profiles.settings("orchard", profile)["train_depths"]
    return "" if (low, high) == (3, 6) else f"trains on depths {low}-{high}"


def _orchard(model: str, variant: str, tree: str = "first",
             pair: Sequence[str] = ()) -> Callable[[], Ours | None]:
    """ORCHARD at depth 12 on ``tree``, from the committed profile whose runs of ``model`` on
    ``variant`` fit best (the paper's task before a reduction, which cannot judge a level), or,
    with ``pair`` (the models the paper compares on ``variant``), the one profile that
    :func:`_one_profile` chooses for all of them; the fit gate on every run (the engine leaves
    out a run that fails it on ``tree``: ``orchard.report.fits``), and a level not compared with
    the paper's when those runs trained on a reduction (the full profile's depths 3-4:
    ``orchard.report.reduced``)."""
    def read() -> Ours | None:
        if pair:
            chosen = _one_profile([(m, variant) for m in pair], tree, (12,), level=True)
            found = None if chosen is None else chosen[1][(model, variant)]
        else:
            found = orchard_report.claim_reading(model, variant, tree, level=True)
        if found is None:
            return None
        ours = Ours.mean_of(found["values"], planned_seeds("orchard"), fits=found["fits"],
                            passed=found["passed"], profile=found["profile"])
        return Ours(**{**ours.__dict__, "reduced": found["reduced"],
                       "setting": _setting(found["profile"])})
    return read


_ORCHARD_NAMES = {"lstm": "LSTM", "transformer": "Transformer"}


def _orchard_order(keys: Sequence[tuple[str, str]], tree: str,
                   depths: tuple[int, ...]) -> Callable[[], Ours | None]:
    """An ORCHARD ordering over (model, variant) pairs on ``tree`` at ``depths``, every member
    read from one profile (of the committed profiles that have runs of all of them: one whose
    runs all fit, then the most complete, then the one whose least-fitted member fits best):
    every run behind it must fit for it to be tested."""
    def read() -> Ours | None:
        chosen = _one_profile(keys, tree, depths)
        if chosen is None:
            return None
        profile, found = chosen
        means = {f"{m}/{v}": found[(m, v)]["value"] for m, v in keys}
        runs = max(f["runs"] for f in found.values())
        names = {f"{m}/{v}": f"{_ORCHARD_NAMES[m]} {v.replace('_', ' ')}" for m, v in keys}
        ours = order_reading(means, [f"{m}/{v}" for m, v in keys],
                             {f"{m}/{v}": found[(m, v)]["fits"] for m, v in keys}, runs,
                             planned_seeds("orchard"), profile, names,
                             fitted=all(f["fitted"] for f in found.values()),
                             reduced=any(f["reduced"] for f in found.values()),
                             per_run={f"{m}/{v}": found[(m, v)]["values"] for m, v in keys},
                             passed={f"{m}/{v}": found[(m, v)]["passed"] for m, v in keys})
        return Ours(**{**ours.__dict__, "setting": _setting(profile)})
    return read


def _one_profile(keys: Sequence[tuple[str, str]], tree: str, depths: tuple[int, ...],
                 level: bool = False) -> tuple[str, dict] | None:
    """The one committed profile an ordering (or a pair of levels the paper compares) reads for
    every member of ``keys``, and each member's :func:`~tutorlib.orchard.report.claim_reading`
    there; None when no profile has runs of all of them."""
    best = None
    for profile, records in orchard_report.committed_by_profile().items():
        found = {key: orchard_report.claim_reading(*key, tree, depth=depths,
                                                   by_profile={profile: records}, level=level)
                 for key in keys}
        if any(f is None for f in found.values()):
            continue
        # runs trained to fit the trees it reads first, then every member fitted, then (for
        # levels) not trained on a reduction, then the fewest runs of a member (a finished
        # profile before a begun one), then the least-fitted member's fit
        rank = (all(f["trained_for"] for f in found.values()),
                all(f["fitted"] for f in found.values()),
                level and not any(f["reduced"] for f in found.values()),
                min(f["runs"] for f in found.values()),
                min(f["fit"] for f in found.values()))
        if best is None or rank > best[0]:
            best = (rank, profile, found)
    return None if best is None else (best[1], best[2])


def _why(tree: str, keys: Sequence[tuple[str, str]]) -> Callable[[], str]:
    """Why a claim on ``tree`` of the (model, variant) ``keys`` is untested: for the networks
    whose committed runs do not fit it (a network that fits is not the reason), the committed
    CPU pilots nearest the gate and the committed runs the claim reads."""
    def reason() -> str:
        by_profile = orchard_report.committed_by_profile()
        unfitted = [(model, variant) for model, variant in keys
                    if not orchard_report.fits_committed(tree, model, variant, by_profile)]
        unfitted = unfitted or list(keys)
        return "; ".join(part for part in (
            orchard_report.pilot_reason(tree, unfitted),
            orchard_report.committed_reason(tree, unfitted, by_profile)) if part)
    return reason


def claims() -> list[Claim]:
    paper = orchard_experiments.PAPER["first_tree_depth12_hard"]
    claims = []
    for model, per_variant in paper.items():
        for variant, published in per_variant.items():
            claims.append(Claim(
                "ORCHARD", "orchard/14_orchard", "pung2021orchard",
                f"{_ORCHARD_NAMES[model]} on {variant.replace('_', ' ')}: "
                f"first tree at depth 12", published, "%",
                _orchard(model, variant, pair=tuple(paper)), experiment="orchard",
                why_untested=_why("first", [(model, variant)])))
    for variant in paper["transformer"]:
        claims.append(Claim(
            "ORCHARD", "orchard/14_orchard", "pung2021orchard",
            f"Transformer on {variant.replace('_', ' ')}: no better than chance on the second "
            f"tree at depth 12 (the references between the trees)",
            orchard_experiments.PAPER["chance"], "%", _orchard("transformer", variant, "second"),
            experiment="orchard", why_untested=_why("second", [("transformer", variant)])))
    in_distribution = tuple(range(3, 7))
    for variant in ("minmax_medium", "minmax_hard", "firstlast_medium", "firstlast_hard"):
        claims.append(Claim(
            "ORCHARD", "orchard/14_orchard", "pung2021orchard",
            f"at the training depths (3-6), the Transformer is ahead of the LSTM on "
            f"{variant.replace('_', ' ')} (both trees)", 1.0, "order",
            _orchard_order([("transformer", variant), ("lstm", variant)], "both",
                           in_distribution), ORDER, "orchard",
            published_text="Transformer > LSTM",
            why_untested=_why("both", [("transformer", variant), ("lstm", variant)])))
    beyond = tuple(range(9, 13))
    for variant in ("minmax_medium", "minmax_hard", "firstlast_medium", "firstlast_hard"):
        claims.append(Claim(
            "ORCHARD", "orchard/14_orchard", "pung2021orchard",
            f"at depths 9-12, the LSTM is ahead of the Transformer on "
            f"{variant.replace('_', ' ')} (first tree)", 1.0, "order",
            _orchard_order([("lstm", variant), ("transformer", variant)], "first", beyond),
            ORDER, "orchard", published_text="LSTM > Transformer",
            why_untested=_why("first", [("lstm", variant), ("transformer", variant)]),
            note="Sec. 5 (\u201cfar outperforms ... for greater depths of tree (\u2265 9)\u201d); "
                 "read as the mean first-tree accuracy over depths 9 to 12"))
    for model in ("lstm", "transformer"):
        for level in ("medium", "hard"):
            claims.append(Claim(
                "ORCHARD", "orchard/14_orchard", "pung2021orchard",
                f"{_ORCHARD_NAMES[model]}, {level}: FIRST-LAST is easier than MIN-MAX (both "
                f"trees)", 1.0, "order",
                _orchard_order([(model, f"firstlast_{level}"), (model, f"minmax_{level}")],
                               "both", orchard_experiments.TEST_DEPTHS), ORDER, "orchard",
                published_text="FIRST-LAST > MIN-MAX",
                why_untested=_why("both", [(model, f"firstlast_{level}"),
                                           (model, f"minmax_{level}")]),
                note="Sec. 5 (both models \u201cperform better on the FIRST-LAST dataset for "
                     "ORCHARD-med and ORCHARD-hard\u201d); read as the mean accuracy on both "
                     "trees over the test depths 3 to 12"))
    for model in ("lstm", "transformer"):
        for family in ("minmax", "firstlast"):
            keys = [(model, f"{family}_{level}") for level in ("easy", "medium", "hard")]
            claims.append(Claim(
                "ORCHARD", "orchard/14_orchard", "pung2021orchard",
                f"{_ORCHARD_NAMES[model]}, {family}: COPY makes the second tree harder (depth 12: "
                f"easy > medium > hard)", 1.0, "order",
                _orchard_order(keys, "second", (12,)), ORDER, "orchard",
                published_text="easy > medium > hard",
                why_untested=_why("second", keys)))
    return claims


__all__ = ["claims"]
