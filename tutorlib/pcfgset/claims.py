"""The claims the book checks for Hupkes et al. (2020), PCFG SET: Table 1 and the findings of its
text, for our networks and for the paper's own released networks: each published number, the
reader that computes ours from the committed results, and the rule (the engine:
:mod:`tutorlib.verdicts`; the claims page: :mod:`tutorlib.claims`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from tutorlib import profiles
from tutorlib.pcfgset import experiments as pcfgset_experiments
from tutorlib.pcfgset import released
from tutorlib.pcfgset import report as pcfgset_report
from tutorlib.verdicts import (
    ORDER,
    Claim,
    Ours,
    close_to,
    order_reading,
    planned_seeds,
)


def _reduced(profile: str) -> bool:
    """Whether ``profile``'s networks train on a reduction of the paper's task."""
    return profiles.settings("pcfgset", profile).reduction is not None


def _pcfgset(test: str, network: str) -> Callable[[], Ours | None]:
    """Read from the committed profile (full or gpu) whose networks fit their training data
    best; untested unless every run behind the number passes the fit gate
    (``pcfgset.report.passes``), and a level not judged when that profile is a reduction."""
    def read() -> Ours | None:
        profile = pcfgset_report.best_fitted_profile(test, network)
        if profile is None:
            return None
        values, fits = pcfgset_report.claim_runs(test, network, profile)
        if not values:
            return None
        # the fit gate on each run (the engine leaves out a run that fails it)
        ours = Ours.mean_of(values, planned_seeds("pcfgset"), fits=fits, profile=profile,
                            passed=pcfgset_report.claim_passes(test, network, profile))
        return Ours(**{**ours.__dict__, "reduced": _reduced(profile)})
    return read


def _pcfgset_order(tests: Sequence[str], networks: Sequence[str]) -> Callable[[], Ours | None]:
    """PCFG SET's orderings: ``networks`` in the order given on one test, or ``tests`` in the
    order given for one network. Every score is read from one profile, the committed profile
    that has runs for all of them and whose least-fitted run fits best. An order of networks on
    the task itself, read from networks stopped at the fit gate, orders the levels the gate set
    (shown, not judged)."""
    def read() -> Ours | None:
        best = None
        for profile in pcfgset_report.COMMITTED_PROFILES:
            readings = {(t, n): pcfgset_report.claim_runs(t, n, profile)
                        for t in tests for n in networks}
            if any(not values for values, _ in readings.values()):
                continue
            lowest = min(min(fits) for _, fits in readings.values())
            if best is None or lowest > best[0]:
                best = (lowest, profile, readings)
        if best is None:
            return None
        _, profile, readings = best
        means = {(t if len(networks) == 1 else n): float(np.mean(values))
                 for (t, n), (values, _) in readings.items()}
        member = {(t, n): (t if len(networks) == 1 else n) for t, n in readings}
        runs = max(len(values) for values, _ in readings.values())
        order = list(tests) if len(networks) == 1 else list(networks)
        # each member's runs (in seed order) and the fit gate on each
        per_run = {member[k]: values for k, (values, _) in readings.items()}
        fits = {member[k]: run_fits for k, (_, run_fits) in readings.items()}
        passed = {member[k]: pcfgset_report.claim_passes(*k, profile) for k in readings}
        return order_reading(means, order, fits, runs, planned_seeds("pcfgset"), profile,
                             {t: t.replace("_", " ") for t in tests},
                             fitted=all(all(v) for v in passed.values()), per_run=per_run,
                             passed=passed, paired=False, reduced=_reduced(profile),
                             levels=(list(tests) == ["task"] and len(networks) > 1
                                     and pcfgset_report.stops_at_gate(
                                         profiles.settings("pcfgset", profile))))
    return read


#: The release holds three runs of each architecture.
_RELEASED_RUNS = len(released.RUNS)


def _released_values(test: str, network: str) -> list[float] | None:
    """One Table 1 row's score of each released run (%), None where the release lacks it."""
    architecture = {v: k for k, v in released.NAMES.items()}[network]
    values = released.run_scores(test, architecture)
    return None if values is None else [100 * v for v in values]


def _released(test: str, network: str) -> Callable[[], Ours | None]:
    """A Table 1 number from the paper's released networks, scored by us."""
    def read() -> Ours | None:
        values = _released_values(test, network)
        return None if values is None else Ours.mean_of(values, _RELEASED_RUNS, profile="paper")
    return read


def _released_order(tests: Sequence[str], networks: Sequence[str]) -> Callable[[], Ours | None]:
    """An ordering of :func:`_pcfgset_order`'s kind, from the released networks."""
    def read() -> Ours | None:
        means, per_run = {}, {}
        for test in tests:
            for network in networks:
                values = _released_values(test, network)
                if values is None:
                    return None
                means[test if len(networks) == 1 else network] = float(np.mean(values))
                per_run[test if len(networks) == 1 else network] = values
        order = list(tests) if len(networks) == 1 else list(networks)
        return order_reading(means, order, [], _RELEASED_RUNS, _RELEASED_RUNS, "paper",
                             {t: t.replace("_", " ") for t in tests}, per_run=per_run,
                             paired=False)
    return read


def _released_per_run(values: Callable[[], list[float]], *, percent: bool = False,
                      text: Callable[[float], str] | None = None) -> Callable[[], Ours | None]:
    """A finding computed once per released run, as the mean over the runs with its interval."""
    def read() -> Ours | None:
        per_run = [100 * v if percent else v for v in values()]
        ours = Ours.mean_of(per_run, _RELEASED_RUNS, profile="paper")
        return ours if text is None else Ours(**{**ours.__dict__, "text": text(ours.value)})
    return read


def _trend(terciles: Sequence[Sequence[float]], planned: int, profile: str, **known) -> Ours:
    """The paper's Fig. 3 (red), task accuracy falling with input length, read from runs'
    accuracies in the thirds of the test inputs by length: the share of the three orderings
    (shortest above both longer thirds, the middle above the longest) that hold on the runs'
    mean."""
    bins = np.mean(terciles, axis=0)
    thirds = ", ".join(f"{name} {b:.1f}%"
                       for name, b in zip(("shortest", "middle", "longest"), bins, strict=True))
    # each third's value per run, for the engine to judge each pair on the runs; a run that
    # fails the fit gate (``passed``) is left out
    passed = known.pop("passed", None)
    per_run = {name: [float(t[i]) for t in terciles]
               for i, name in enumerate(("shortest", "middle", "longest"))}
    ours = order_reading({k: float(np.mean(v)) for k, v in per_run.items()}, list(per_run),
                         [known["fit"]] if known.get("fit") is not None else [], len(terciles),
                         planned, profile, per_run=per_run, paired=True,
                         passed=None if passed is None else {k: passed for k in per_run})
    return Ours(**{**ours.__dict__, "text": f"{profile} profile: {thirds}",
                   "fit": known.get("fit")})


def _released_length_trend(network: str) -> Callable[[], Ours | None]:
    """:func:`_trend` over the released runs."""
    architecture = {v: k for k, v in released.NAMES.items()}[network]

    def read() -> Ours | None:
        return _trend([released.length_terciles(architecture, run) for run in released.RUNS],
                      _RELEASED_RUNS, profile="paper")
    return read


def _length_reading(network: str, test: str, values: str) -> tuple[str, dict, list] | None:
    """For :func:`_length_trend` and :func:`_productivity_control`: the profile whose runs of
    ``network`` on ``test`` fit best, its :func:`~tutorlib.pcfgset.report.length_readings` and
    those runs' fits; None where the readings hold no ``values``."""
    profile = pcfgset_report.best_fitted_profile(test, network)
    if profile is None:
        return None
    readings = pcfgset_report.length_readings(network, profile)
    if not readings[values]:
        return None
    return profile, readings, pcfgset_report.claim_runs(test, network, profile)[1]


def _length_trend(network: str) -> Callable[[], Ours | None]:
    """:func:`_trend` over our task runs of ``network`` (the profile whose task runs fit best),
    tested only when every one passes the fit gate."""
    def read() -> Ours | None:
        found = _length_reading(network, "task", "terciles")
        if found is None:
            return None
        profile, readings, fits = found
        return _trend(readings["terciles"], planned_seeds("pcfgset"), profile=profile,
                      passed=readings["terciles_pass"], fit=min(fits))
    return read


def _productivity_control(network: str) -> Callable[[], Ours | None]:
    """The paper's Fig. 3 control on our runs: per seed, the share of input lengths at which
    productivity is below the task (:func:`tutorlib.pcfgset.report.productivity_below_task`),
    the mean over seeds; tested only when every run behind it passes the fit gate."""
    def read() -> Ours | None:
        found = _length_reading(network, "productivity", "below")
        if found is None:
            return None
        profile, readings, fits = found
        ours = Ours.mean_of(readings["below"], planned_seeds("pcfgset"), profile=profile,
                            passed=readings["below_pass"])
        return Ours(**{**ours.__dict__, "fit": min(fits)})
    return read


def _localism_mistakes() -> Ours | None:
    """The paper's reading of LSTMS2S's localism mistakes on our task runs (the profile whose
    runs fit best): per run, the share of the inputs whose unrolled prediction differs that
    have a step applied to a string of more than five symbols; tested only when every run
    behind it passes the fit gate."""
    profile = pcfgset_report.best_fitted_profile("localism", "LSTMS2S")
    if profile is None:
        return None
    runs = pcfgset_report.localism_mistake_records("LSTMS2S", profile)
    if not runs:
        return None
    return Ours.mean_of([r["localism_long_steps"] for r in runs], planned_seeds("pcfgset"),
                        profile=profile, fits=[float(r["train_accuracy"]) for r in runs],
                        passed=[pcfgset_report.passes(r) for r in runs])


def _ratio_profile(network: str, ratios: Sequence[float]) -> str | None:
    """The first committed profile (full before gpu) with runs of ``network`` at every one of
    ``ratios``; None when none has."""
    for profile in pcfgset_report.COMMITTED_PROFILES:
        if all(pcfgset_report.network_ratio_records(network, r, profile) for r in ratios):
            return profile
    return None


def _overgeneralisation_at(network: str, ratio: float) -> Callable[[], Ours | None]:
    """The peak share of the exceptions answered by the rule (%) of ``network``'s runs trained
    with ``ratio`` exceptions, tested when every one passes the fit gate (a level: not judged
    on a reduction)."""
    def read() -> Ours | None:
        profile = _ratio_profile(network, [ratio])
        if profile is None:
            return None
        runs = pcfgset_report.network_ratio_records(network, ratio, profile)
        ours = Ours.mean_of([100 * r["overgeneralisation_peak"] for r in runs],
                            planned_seeds("pcfgset"), profile=profile,
                            fits=[float(r["train_accuracy"]) for r in runs],
                            passed=[pcfgset_report.passes(r) for r in runs])
        return Ours(**{**ours.__dict__, "reduced": _reduced(profile)})
    return read


def _why_ratios(network: str, ratios: Sequence[float]) -> Callable[[], str]:
    """Why a claim on ``network``'s runs at ``ratios`` exceptions is untested: those of the
    profile it reads that fail the fit gate."""
    def why() -> str:
        profile = _ratio_profile(network, ratios) or "full"
        return pcfgset_report.unfit_runs_reason(
            [r for ratio in ratios
             for r in pcfgset_report.network_ratio_records(network, ratio, profile)], profile)
    return why


#: The paper's two exception ratios of Sec. 4.5's contrast, as the order it states: more
#: overgeneralisation at 0.1% than at 0.5%.
_RATIO_ORDER = {"0.1%": 0.001, "0.5%": 0.005}


def _ratio_order(network: str) -> Callable[[], Ours | None]:
    """Sec. 4.5's contrast on ``network``'s runs: the mean peak at 0.1% exceptions above the
    mean peak at 0.5%, both read from one profile (an ordering: judged on a reduction too)."""
    def read() -> Ours | None:
        profile = _ratio_profile(network, list(_RATIO_ORDER.values()))
        if profile is None:
            return None
        runs = {name: pcfgset_report.network_ratio_records(network, ratio, profile)
                for name, ratio in _RATIO_ORDER.items()}
        means = {name: 100 * float(np.mean([r["overgeneralisation_peak"] for r in mine]))
                 for name, mine in runs.items()}
        every = [r for mine in runs.values() for r in mine]
        return order_reading(means, list(_RATIO_ORDER),
                             {n: [float(r["train_accuracy"]) for r in mine] for n, mine in runs.items()},
                             max(len(mine) for mine in runs.values()), planned_seeds("pcfgset"),
                             profile, {name: f"peak at {name}" for name in _RATIO_ORDER},
                             fitted=all(pcfgset_report.passes(r) for r in every),
                             reduced=_reduced(profile),
                             per_run={n: [100 * r["overgeneralisation_peak"] for r in mine]
                                      for n, mine in runs.items()},
                             passed={n: [pcfgset_report.passes(r) for r in mine]
                                     for n, mine in runs.items()}, paired=False)
    return read


def _released_ratio_order(architecture: str) -> Callable[[], Ours | None]:
    """:func:`_ratio_order` on the paper's released networks (their logged curves)."""
    def read() -> Ours | None:
        per_run = {name: [100 * released.overgeneralisation(architecture, ratio, r)
                          for r in released.RUNS] for name, ratio in _RATIO_ORDER.items()}
        means = {name: float(np.mean(v)) for name, v in per_run.items()}
        return order_reading(means, list(_RATIO_ORDER), [], _RELEASED_RUNS, _RELEASED_RUNS,
                             "paper", {name: f"peak at {name}" for name in _RATIO_ORDER},
                             per_run=per_run, paired=False)
    return read


_PCFGSET_TESTS = {
    "task": "the task itself (accuracy)",
    "systematicity": "systematicity (accuracy)",
    "productivity": "productivity (accuracy)",
    "substitutivity_equally_distributed": "substitutivity, equally distributed (consistency)",
    "substitutivity_primitive": "substitutivity, primitive (consistency)",
    "localism": "localism (agreement with the unrolled input)",
    "overgeneralisation": "overgeneralisation (peak)",
}


def _why(tests: Sequence[str], networks: Sequence[str]) -> Callable[[], str]:
    """Why a claim on ``tests`` of ``networks`` is untested: the full profile's runs behind it
    that fail the fit gate."""
    return lambda: pcfgset_report.unfit_reason(tests, networks)


def _paper_order(values: dict[str, float]) -> str:
    return " > ".join(f"{k.replace('_', ' ')} {v:g}" for k, v in values.items())


def claims() -> list[Claim]:
    paper = pcfgset_experiments.PAPER
    names = pcfgset_experiments.ARCHITECTURE_NAMES
    chapter, key = "pcfgset/12_pcfgset_tests", "hupkes2020compositionality"
    claims = []
    for test, published in paper.items():
        for network in names:
            claims.append(Claim(
                "PCFG SET", chapter, key,
                f"{_PCFGSET_TESTS.get(test, test.replace('_', ' '))}: {network}",
                published[network], "%", _pcfgset(test, network), experiment="pcfgset",
                released=_released(test, network), why_untested=_why([test], [network])))
    ranked = sorted(names, key=lambda n: -paper["task"][n])
    claims.append(Claim(
        "PCFG SET", chapter, key, f"on the task, {' > '.join(ranked)}", 1.0, "order",
        _pcfgset_order(["task"], ranked), ORDER, "pcfgset",
        published_text=_paper_order({n: paper["task"][n] for n in ranked}),
        released=_released_order(["task"], ranked), why_untested=_why(["task"], ranked)))
    ranked = sorted(names, key=lambda n: -paper["systematicity"][n])
    claims.append(Claim(
        "PCFG SET", chapter, key, f"Sec. 4.1: on systematicity, {' > '.join(ranked)}", 1.0,
        "order", _pcfgset_order(["systematicity"], ranked), ORDER, "pcfgset",
        published_text=_paper_order({n: paper["systematicity"][n] for n in ranked}),
        released=_released_order(["systematicity"], ranked),
        why_untested=_why(["systematicity"], ranked)))
    for network in names:
        tests = ("task", "systematicity", "productivity")
        claims.append(Claim(
            "PCFG SET", chapter, key, f"{network}: task > systematicity > productivity", 1.0,
            "order", _pcfgset_order(tests, [network]), ORDER, "pcfgset",
            published_text=_paper_order({t: paper[t][network] for t in tests}),
            released=_released_order(tests, [network]), why_untested=_why(tests, [network])))
    for network in names:
        tests = ("substitutivity_equally_distributed", "substitutivity_primitive")
        claims.append(Claim(
            "PCFG SET", chapter, key,
            f"{network}: more consistent on equally distributed synonyms than on primitive ones",
            1.0, "order", _pcfgset_order(tests, [network]), ORDER, "pcfgset",
            published_text=" > ".join(f"{paper[t][network]:g}" for t in tests),
            released=_released_order(tests, [network]), why_untested=_why(tests, [network])))
    # Findings the paper states in words beyond Table 1: the released networks', and ours where
    # the committed runs record what they need
    lengths = ("thirds of the test inputs by length; ours: the task's test set of the profile "
               "read (on the full profile, inputs of 1-3 functions)")
    for network in names:
        architecture = {v: k for k, v in released.NAMES.items()}[network]
        claims.append(Claim(
            "PCFG SET", chapter, key,
            f"Sec. 4.2, Fig. 3: {network}'s task accuracy falls with input length", 1.0, "order",
            _length_trend(network), ORDER, "pcfgset", note=lengths,
            published_text="shortest > middle > longest third",
            released=_released_length_trend(network), why_untested=_why(["task"], [network])))
        claims.append(Claim(
            "PCFG SET", chapter, key,
            f"Sec. 4.2, Fig. 3: {network}'s productivity score is below its task accuracy at "
            f"the same input length", 1.0, "share", _productivity_control(network),
            close_to(0.2), "pcfgset", note=(
                "the share of input lengths (20 or more inputs in both test sets), per run, the "
                "mean over runs; \u201calmost all\u201d read as at least 80%"),
            published_text="at almost all lengths",
            why_untested=_why(["task", "productivity"], [network]),
            released=_released_per_run(
                lambda a=architecture: released.productivity_below_task_by_run(a))))
        claims.append(Claim(
            "PCFG SET", chapter, key,
            f"Sec. 4.5: {network} hardly overgeneralises with 0.5% exceptions (peak)", 0.0, "%",
            _overgeneralisation_at(network, 0.005), close_to(10), "pcfgset", note=(
                "the highest share of the training exceptions answered by the rule during "
                "training, per run; \u201chardly any\u201d read as a peak within 10 points "
                "of none"), published_text="hardly any",
            why_untested=_why_ratios(network, [0.005]),
            released=_released_per_run(
                lambda a=architecture: [released.overgeneralisation(a, 0.005, r)
                                        for r in released.RUNS], percent=True)))
        claims.append(Claim(
            "PCFG SET", chapter, key,
            f"Sec. 4.5: {network} overgeneralises more with 0.1% exceptions than with 0.5% "
            f"(peak)", 1.0, "order", _ratio_order(network), ORDER, "pcfgset",
            published_text=f"0.1%: {paper['overgeneralisation'][network]:g}; 0.5%: hardly any",
            why_untested=_why_ratios(network, list(_RATIO_ORDER.values())),
            released=_released_ratio_order(architecture)))
    claims.append(Claim(
        "PCFG SET", chapter, key,
        "Sec. 4.4: LSTMS2S's localism mistakes are mostly unrolled steps applied to strings of "
        "more than five symbols", 1.0, "share", _localism_mistakes, close_to(0.5), "pcfgset",
        note=("the share of the inputs whose unrolled prediction differs that have such a "
              "step, per run; \u201cmost common\u201d read as above half"),
        published_text="most of them", why_untested=_why(["localism"], ["LSTMS2S"]),
        released=_released_per_run(
            lambda: [released.localism_mistakes_with_long_strings(r) for r in released.RUNS])))
    return claims


__all__ = ["claims"]
