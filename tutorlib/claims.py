"""Claims and verdicts: each published number the book tests, ours beside it, and a verdict.

Every :class:`Claim` names a part of the book, the chapter that tests it, the paper (a key of
``book/references.bib``), the claim in a sentence, the published number (read from the experiment
module's ``PAPER`` constant, never typed here), a *reader* that computes our number from the
committed results (``results/<experiment>/full.json``, through each experiment module's own
readers) and a :class:`Rule` that turns the two into a verdict.

Our number is a mean over seeds with its 95% interval (a t interval over the runs; Fisher's z
interval for a correlation) and, for trained networks, their *fit*: their accuracy on their own
training data (or in-distribution validation), the lowest of the parts recorded. The verdicts:

- ``reproduced``: ours is within the rule's tolerance of the published number (for accuracies:
  5 points; under 10%, half the published value and at least half a point; a published ±
  widens the band), or the published number lies in our interval and that interval is no wider
  than twice the band;
- ``partly``: neither, but our interval reaches into the tolerance band (a correlation: also the
  same sign and within 0.3);
- ``not reproduced``: our interval lies wholly outside the band (a correlation: or the other
  sign); an ordering: none of its pairs comes out in the paper's order;
- ``untested: did not fit``: the networks behind our number did not learn their own data (they
  fail the fit gate, :func:`tutorlib.fit.passes`), whatever the number;
- ``stand-in: effect shown`` / ``effect partly shown`` / ``effect not shown``: our experiment
  stands in for the paper's (other data or another task); the rule's ``effect`` says whether it
  shows the paper's effect;
- ``not yet run``: nothing is committed for it yet (``python -m tutorlib run EXPERIMENT --profile
  full`` produces it);
- ``ours: not measured``: a finding read from a paper's released networks only (their column,
  ``released``, has its own verdict by the same rule); no experiment of ours measures it.

A verdict is *partial* when fewer runs are committed than the full profile plans (its seeds).
Runs are deterministic on one machine and thread count, not across processors, so the intervals,
not single runs, carry the verdicts.

Examples
--------
>>> within(5).verdict(99.7, 99.9), within(5).verdict(90.0, 79.6, low=70.0, high=86.0)
('reproduced', 'partly')
>>> same_sign(0.15).verdict(0.71, -0.51)
'not reproduced'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from tutorlib import fit as gate
from tutorlib import profiles
from tutorlib.dbca import experiments as dbca_experiments
from tutorlib.dbca import report as dbca_report
from tutorlib.orchard import experiments as orchard_experiments
from tutorlib.orchard import report as orchard_report
from tutorlib.pcfgset import experiments as pcfgset_experiments
from tutorlib.pcfgset import released
from tutorlib.pcfgset import report as pcfgset_report
from tutorlib.scan import experiments as scan_experiments
from tutorlib.scan import translation
from tutorlib.stats import correlation_interval, mean_interval
from tutorlib.tre import dynamics, generalisation, judgments

UNTESTED = "untested: did not fit"
#: The columns of :func:`formatted` for the paper's own released networks scored by us.
RELEASED_COLUMN = "paper's networks, scored by us"
RELEASED_VERDICT_COLUMN = "verdict (paper's networks)"
EFFECT = {"reproduced": "stand-in: effect shown", "partly": "stand-in: effect partly shown",
          "not reproduced": "stand-in: effect not shown"}
#: Our verdict on a finding read from a paper's released networks only (no experiment of ours).
NOT_MEASURED = "ours: not measured"
VERDICTS: tuple[str, ...] = ("reproduced", "partly", "not reproduced", UNTESTED, *EFFECT.values(),
                             "not yet run", NOT_MEASURED)
#: The fit gate's bar on a network's own training data (:mod:`tutorlib.fit`, the one definition
#: every page reads): a claim read from networks that fail the gate is untested.
FIT_THRESHOLD = gate.TRAINING
#: Published accuracies (%) below this get a relative tolerance (half the value, at least
#: :data:`MIN_POINTS`): 5 points around 0.08% could never fail.
RELATIVE_BELOW = 10.0
MIN_POINTS = 0.5


@dataclass(frozen=True)
class Ours:
    """Our number for a claim: its value (a mean over runs, or a correlation), its 95% interval
    (``low``, ``high``; None without one), how many committed runs it averages and how many the
    full profile plans. ``fit`` is the networks' fit (a fraction; None: not a trained network
    or not recorded) and ``fitted`` whether it reaches :data:`FIT_THRESHOLD`; a claim read from
    networks that did not fit is untested, whatever the number. ``profile`` names the profile
    read; ``text`` shows the number where a figure alone does not (an ordering, two readings)."""

    value: float
    runs: int
    planned: int
    fitted: bool | None = None
    profile: str = "full"
    low: float | None = None
    high: float | None = None
    fit: float | None = None
    text: str = ""

    def __post_init__(self) -> None:
        if self.runs < 0 or self.planned < 0:
            raise ValueError(f"Ours: runs and planned are counts (non-negative), got "
                             f"{self.runs!r} and {self.planned!r}")

    @property
    def complete(self) -> bool:
        return self.runs >= self.planned

    @classmethod
    def mean_of(cls, values: Sequence[float], planned: int, *, fit: float | None = None,
                profile: str = "full", text: str = "") -> Ours:
        """The mean of per-run ``values`` with its t interval; fitted when ``fit`` (the lowest
        or mean fit of those runs) reaches :data:`FIT_THRESHOLD`."""
        mean, low, high = mean_interval(values)
        return cls(mean, len(values), planned, None if fit is None else gate.passes(fit),
                   profile, low, high, fit, text)

    @classmethod
    def correlation(cls, x: Sequence[float], y: Sequence[float], planned: int, *,
                    text: str = "") -> Ours:
        """Pearson's r between ``x`` and ``y`` (one pair per run) with Fisher's z interval."""
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        r = float(np.corrcoef(x, y)[0, 1])
        low, high = correlation_interval(r, len(x))
        return cls(r, len(x), planned, low=low, high=high, text=text)


def _overlaps(low: float | None, high: float | None, band: tuple[float, float]) -> bool:
    return low is not None and high is not None and low <= band[1] and high >= band[0]


@dataclass(frozen=True)
class Rule:
    """How a verdict is reached (the module's docstring states each rule).

    ``kind`` is ``"points"`` (accuracies in %: ``tolerance`` points, relative under
    :data:`RELATIVE_BELOW`), ``"value"`` (any other number: an absolute ``tolerance``),
    ``"correlation"`` (the same sign and within ``tolerance``; partly: the same sign and within
    ``partly``), ``"order"`` (ours is the share of the paper's pairwise orderings that hold) or
    ``"stand-in"`` (``effect``, another rule, says whether our stand-in shows the paper's
    effect)."""

    kind: str
    tolerance: float = 0.0
    partly: float = 0.0
    effect: Rule | None = None

    def __post_init__(self) -> None:
        kinds = ("points", "value", "correlation", "order", "stand-in")
        if self.kind not in kinds:
            raise ValueError(f"a rule's kind is one of {', '.join(map(repr, kinds))}, got {self.kind!r}")
        if not (isinstance(self.tolerance, (int, float)) and self.tolerance >= 0):
            raise ValueError(f"a rule's tolerance must be a number >= 0, got {self.tolerance!r}")
        if self.kind == "correlation" and not self.tolerance <= self.partly:
            raise ValueError(f"need tolerance <= partly, got {self.tolerance} and {self.partly}")
        if (self.kind == "stand-in") != (self.effect is not None) or (
                self.effect is not None and self.effect.kind == "stand-in"):
            raise ValueError("a stand-in rule needs an effect rule (not itself a stand-in); "
                             "other rules take none")

    def band(self, published: float, spread: float | None = None) -> tuple[float, float]:
        """The values around ``published`` that count as reproducing it."""
        tolerance = self.tolerance
        if self.kind == "points" and abs(published) < RELATIVE_BELOW:
            tolerance = max(abs(published) / 2, MIN_POINTS)
        tolerance = max(tolerance, spread or 0.0)
        return published - tolerance, published + tolerance

    def verdict(self, published: float, ours: float | None, low: float | None = None,
                high: float | None = None, spread: float | None = None) -> str:
        """The verdict for ``ours`` (with its interval ``low``-``high``, if any) against
        ``published`` (± ``spread``, if the paper gives one); ``None`` or NaN: not yet run."""
        if ours is None or (isinstance(ours, float) and math.isnan(ours)):
            return "not yet run"
        if self.kind == "stand-in":
            return EFFECT[self.effect.verdict(published, ours, low, high, spread)]
        if self.kind == "order":
            return "reproduced" if ours >= 1 else "not reproduced" if ours <= 0 else "partly"
        band = self.band(published, spread)
        # an interval that covers the published value says little when it is far wider than
        # the band itself (a few seeds that disagree): then it shows only compatibility
        covers = (low is not None and high is not None and low <= published <= high
                  and high - low <= 2 * (band[1] - band[0]))
        inside = band[0] <= ours <= band[1]
        if self.kind == "correlation":
            same = math.copysign(1, ours) == math.copysign(1, published)
            if (same and inside) or covers:
                return "reproduced"
            if (same and abs(ours - published) <= self.partly) or _overlaps(low, high, band):
                return "partly"
            return "not reproduced"
        if inside or covers:
            return "reproduced"
        return "partly" if _overlaps(low, high, band) else "not reproduced"

    def describe(self) -> str:
        if self.kind == "points":
            return (f"within {self.tolerance:g} points (under {RELATIVE_BELOW:g}%: half the "
                    f"published value, at least {MIN_POINTS:g}) or in our interval; partly: "
                    f"our interval reaches the band")
        if self.kind == "value":
            return f"within {self.tolerance:g} or in our interval; partly: our interval reaches the band"
        if self.kind == "correlation":
            return (f"same sign, within {self.tolerance:g}, or in our interval; partly: same "
                    f"sign within {self.partly:g}")
        if self.kind == "order":
            return "every pair in the paper's order; partly: some pairs"
        return f"a stand-in; its effect: {self.effect.describe()}"


def within(tolerance: float) -> Rule:
    """For an accuracy in %: reproduced within ``tolerance`` points of the published number
    (relative under :data:`RELATIVE_BELOW`) or with it in our interval."""
    return Rule("points", tolerance)


def close_to(tolerance: float) -> Rule:
    """For a number other than an accuracy or a correlation (an R², a count of 8)."""
    return Rule("value", tolerance)


def same_sign(tolerance: float, partly: float = 0.3) -> Rule:
    """For a correlation: reproduced with the same sign and within ``tolerance`` (or with the
    published value in our interval), partly with the same sign within ``partly``."""
    return Rule("correlation", tolerance, partly)


def stand_in(effect: Rule) -> Rule:
    """For a stand-in experiment: ``effect`` says whether it shows the paper's effect."""
    return Rule("stand-in", effect=effect)


ORDER = Rule("order")
# Accuracies in %: within 5 points is reproduced. Correlations: within 0.15 with the same sign,
# partly within 0.3.
ACCURACY = within(5)
CORRELATION = same_sign(0.15)


@dataclass(frozen=True)
class Claim:
    """One published number and how the book checks it.

    ``read`` returns :class:`Ours` from the committed results, or ``None`` when there are none.
    ``chapter`` is the book's document name (``scan/03_scan_exp1``); ``unit`` is ``"%"``, the
    correlation's symbol, another unit or ``"order"``. ``spread`` is the paper's own ± (its 95%
    interval's half-width), ``published_text`` how to show the published value where a number
    does not say it (a range, an ordering). ``released`` reads the same number from the paper's
    own networks, as their authors released their outputs, scored by our scorers (PCFG SET):
    a check of our implementation of the test, beside our own networks."""

    part: str
    chapter: str
    citation: str
    claim: str
    published: float
    unit: str
    read: Callable[[], Ours | None]
    rule: Rule = ACCURACY
    experiment: str = ""
    note: str = ""
    spread: float | None = None
    published_text: str = ""
    released: Callable[[], Ours | None] | None = None

    def ours(self) -> Ours | None:
        return self.read()

    def released_verdict(self, ours: Ours | None = None) -> str:
        """The verdict for the paper's released networks scored by us ("" for a claim without
        them; "not in the release" where the release lacks the predictions). They are the
        paper's own networks, trained at the paper's scale: no fit gate applies."""
        if self.released is None:
            return ""
        ours = self.released() if ours is None else ours
        if ours is None:
            return "not in the release"
        return self.rule.verdict(self.published, ours.value, ours.low, ours.high, self.spread)

    def verdict(self, ours: Ours | None = None) -> str:
        """The verdict, without the partial mark (see :func:`table`): :data:`UNTESTED` when the
        networks behind our number did not learn their training data."""
        ours = self.ours() if ours is None else ours
        if ours is not None and ours.fitted is False and self.rule.kind != "stand-in":
            return UNTESTED
        if ours is None and not self.experiment and self.released is not None:
            return NOT_MEASURED
        if ours is None:
            return self.rule.verdict(self.published, None)
        return self.rule.verdict(self.published, ours.value, ours.low, ours.high, self.spread)


# ---------------------------------------------------------------------------------------------
# Readers: each asks an experiment module for its committed full-profile results


def _planned_seeds(experiment: str, key: str = "seeds") -> int:
    return len(profiles.settings(experiment, "full")[key])


def _scan_runs(split: str | None, network: str, training: str = "batched"):
    runs = scan_experiments.committed_runs("full", training)
    if runs.empty:
        return runs
    chosen = runs["network"] == network
    if split is not None:
        chosen &= runs["split"] == split
    return runs[chosen]


def _scan(split: str, network: str = "overall_best",
          training: str = "batched") -> Callable[[], Ours | None]:
    def read() -> Ours | None:
        runs = _scan_runs(split, network, training)
        if runs.empty:
            return None
        return Ours.mean_of(100 * runs["accuracy"].to_numpy(), _planned_seeds("scan"),
                            fit=float(runs["train_accuracy"].mean()))
    return read


def _scan_oracle(network: str) -> Callable[[], Ours | None]:
    def read() -> Ours | None:
        runs = _scan_runs("length", network)
        if runs.empty:
            return None
        return Ours.mean_of(100 * runs["oracle_accuracy"].to_numpy(), _planned_seeds("scan"),
                            fit=float(runs["train_accuracy"].mean()))
    return read


def _scan_composed_jump(num: int) -> Callable[[], Ours | None]:
    def read() -> Ours | None:
        runs = _scan_runs(None, "overall_best")
        if runs.empty:
            return None
        runs = runs[runs["split"].str.startswith(f"addprim_complex_jump_num{num}_")]
        if runs.empty:
            return None
        # one value per replication (its mean over seeds), as Fig. 5 averages them
        per_rep = 100 * runs.groupby("split")["accuracy"].mean().to_numpy()
        return Ours.mean_of(per_rep, profiles.settings("scan", "full")["complex_jump_reps"],
                            fit=float(runs["train_accuracy"].mean()))
    return read


def _scan_translation(word: str) -> Callable[[], Ours | None]:
    def read() -> Ours | None:
        runs = translation.committed_runs("full")
        if runs.empty:
            return None
        return Ours.mean_of([float(r["right"]) for r in runs[word]],
                            _planned_seeds("scan_translation"))
    return read


def _tre_protocol(protocol: str, column: str) -> Callable[[], Ours | None]:
    def read() -> Ours | None:
        runs = generalisation.committed_protocols("full")
        if runs.empty:
            return None
        return Ours.correlation(runs[protocol], runs[column],
                                profiles.settings("tre_generalisation", "full")["runs"])
    return read


def _tre_dynamics(quantity: str) -> Callable[[], Ours | None]:
    """Sec. 4 from the committed runs. The compression phase is read from the longer runs
    (well into it), with the paper-length runs' number beside it in ``text``."""
    def read() -> Ours | None:
        committed = dynamics.committed_results("full")
        if committed is None or not committed["data"]["runs"]:
            return None
        data = committed["data"]
        runs = len(data["runs"])
        if quantity == "validation accuracy":
            values = [100 * r["final val_accuracy"] for r in data["runs"]]
            return Ours.mean_of(values, _planned_seeds("tre_dynamics"))
        short = float(data["pooled correlations"]["info_unit"][quantity])
        if quantity != "compression":
            return Ours(short, runs, _planned_seeds("tre_dynamics"))
        long = dynamics.committed_results("full", long=True)
        if long is None or not long["data"]["runs"]:
            return Ours(short, runs, _planned_seeds("tre_dynamics"))
        value = float(long["data"]["pooled correlations"]["info_unit"][quantity])
        planned = len(long["data"]["settings"]["seeds"])
        return Ours(value, len(long["data"]["runs"]), planned,
                    text=f"r = {value:.2f} ({len(long['data']['runs'])} runs twice as long); "
                         f"{short:.2f} ({runs} runs of the paper's length)".replace("-", "\u2212"))
    return read


def _tre_generalisation(column: str, successful: bool = False) -> Callable[[], Ours | None]:
    def read() -> Ours | None:
        runs = generalisation.committed_runs("full")
        if runs.empty:
            return None
        text = ""
        if successful:
            kept = runs[runs["test reward"] > generalisation.PAPER["successful test reward"]]
            if len(kept) == len(runs):
                # then the subset is every run, and the number is the row above's: say so
                text = f"every one of our {len(runs)} runs is successful: the all-runs number"
            runs = kept
        ours = Ours.correlation(runs["TRE"], runs[column],
                                profiles.settings("tre_generalisation", "full")["runs"])
        if text:
            low, high = _bound(ours.low, "r"), _bound(ours.high, "r")
            text = f"{_number(ours.value, 'r')} [{low}, {high}] ({text})"
        return Ours(**{**ours.__dict__, "text": text})
    return read


def _pcfgset(test: str, network: str) -> Callable[[], Ours | None]:
    """Read from the committed profile (full or gpu) whose networks fit their training data
    best; untested unless every run behind the number passes the fit gate
    (``pcfgset.report.passes``)."""
    def read() -> Ours | None:
        profile = pcfgset_report.best_fitted_profile(test, network)
        if profile is None:
            return None
        values, fits = pcfgset_report.claim_runs(test, network, profile)
        if not values:
            return None
        ours = Ours.mean_of(values, _planned_seeds("pcfgset"), fit=min(fits), profile=profile)
        return Ours(**{**ours.__dict__,
                       "fitted": all(pcfgset_report.claim_passes(test, network, profile))})
    return read


def _order_reading(means: dict[str, float], order: Sequence[str], fits: list[float],
                   runs: int, planned: int, profile: str, names: dict[str, str] | None = None,
                   fitted: bool | None = None) -> Ours:
    """An ordering claim: the share of the pairs of ``order`` (first > second > ...) that our
    ``means`` put the paper's way, shown as our means in the paper's order. ``fitted`` is the
    fit gate's verdict on every run behind it (by default, the lowest of ``fits`` on training
    alone)."""
    names = names or {}
    pairs = [(a, b) for i, a in enumerate(order) for b in order[i + 1:]]
    share = sum(means[a] > means[b] for a, b in pairs) / len(pairs)
    # a comparison of ours reads every member from one profile, and says which
    text = ("" if profile == "paper" else f"{profile} profile: ") + ", ".join(
        f"{names.get(k, k)} {means[k]:.1f}" for k in order)
    fit = min(fits) if fits else None
    if fitted is None and fit is not None:
        fitted = gate.passes(fit)
    return Ours(share, runs, planned, fitted, profile, fit=fit, text=text)


def _pcfgset_order(tests: Sequence[str], networks: Sequence[str]) -> Callable[[], Ours | None]:
    """PCFG SET's orderings: ``networks`` in the order given on one test, or ``tests`` in the
    order given for one network. Every score is read from one profile, the committed profile
    that has runs for all of them and whose least-fitted run fits best."""
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
        fits = [f for _, run_fits in readings.values() for f in run_fits]
        runs = max(len(values) for values, _ in readings.values())
        order = list(tests) if len(networks) == 1 else list(networks)
        passed = all(all(pcfgset_report.claim_passes(t, n, profile)) for t, n in readings)
        return _order_reading(means, order, fits, runs, _planned_seeds("pcfgset"), profile,
                              {t: t.replace("_", " ") for t in tests}, fitted=passed)
    return read


#: The release holds three runs of each architecture.
_RELEASED_RUNS = 3


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
        means = {}
        for test in tests:
            for network in networks:
                values = _released_values(test, network)
                if values is None:
                    return None
                means[test if len(networks) == 1 else network] = float(np.mean(values))
        order = list(tests) if len(networks) == 1 else list(networks)
        return _order_reading(means, order, [], _RELEASED_RUNS, _RELEASED_RUNS, "paper",
                              {t: t.replace("_", " ") for t in tests})
    return read


def _released_per_run(values: Callable[[], list[float]], *, percent: bool = False,
                      text: Callable[[float], str] | None = None) -> Callable[[], Ours | None]:
    """A finding computed once per released run, as the mean over the runs with its interval."""
    def read() -> Ours | None:
        per_run = [100 * v if percent else v for v in values()]
        ours = Ours.mean_of(per_run, _RELEASED_RUNS, profile="paper")
        return ours if text is None else Ours(**{**ours.__dict__, "text": text(ours.value)})
    return read


def _released_length_trend(network: str) -> Callable[[], Ours | None]:
    """The paper's Fig. 3 (red): task accuracy falls with input length. The share of three
    orderings of the accuracy in the thirds of the test inputs by length (shortest above both
    longer thirds, the middle above the longest), over the released runs' mean."""
    architecture = {v: k for k, v in released.NAMES.items()}[network]

    def read() -> Ours | None:
        bins = np.mean([released.length_terciles(architecture, run) for run in released.RUNS], axis=0)
        held = [bins[0] > bins[1], bins[0] > bins[2], bins[1] > bins[2]]
        return Ours(sum(held) / len(held), _RELEASED_RUNS, _RELEASED_RUNS, profile="paper",
                    text=" > ".join(f"{b:.1f}%" for b in bins))
    return read


def _not_measured() -> Ours | None:
    """Our networks: this finding is read from the released networks only."""
    return None


def _orchard(model: str, variant: str, tree: str = "first") -> Callable[[], Ours | None]:
    """ORCHARD at depth 12 on ``tree``, from the committed profile whose runs of ``model`` on
    ``variant`` fit best; untested unless every run behind the number fits
    (``orchard.report.FIT_THRESHOLD`` of the first and second trees in distribution)."""
    def read() -> Ours | None:
        found = orchard_report.claim_reading(model, variant, tree)
        if found is None:
            return None
        ours = Ours.mean_of(found["values"], _planned_seeds("orchard"), fit=found["fit"],
                            profile=found["profile"])
        return Ours(**{**ours.__dict__, "fitted": found["fitted"]})
    return read


_ORCHARD_NAMES = {"lstm": "LSTM", "transformer": "Transformer"}


def _orchard_order(keys: Sequence[tuple[str, str]], tree: str,
                   depths: tuple[int, ...]) -> Callable[[], Ours | None]:
    """An ORCHARD ordering over (model, variant) pairs on ``tree`` at ``depths``, every member
    read from one profile (the committed profile that has runs of all of them and whose
    least-fitted member fits best): every run behind it must fit for it to be tested."""
    def read() -> Ours | None:
        best = None
        for profile, records in orchard_report.committed_by_profile().items():
            found = {key: orchard_report.claim_reading(*key, tree, depth=depths,
                                                       by_profile={profile: records})
                     for key in keys}
            if any(f is None for f in found.values()):
                continue
            lowest = min(f["fit"] for f in found.values())
            if best is None or lowest > best[0]:
                best = (lowest, profile, found)
        if best is None:
            return None
        _, profile, found = best
        means = {f"{m}/{v}": found[(m, v)]["value"] for m, v in keys}
        fits = [f["fit"] for f in found.values()]
        runs = max(f["runs"] for f in found.values())
        names = {f"{m}/{v}": f"{_ORCHARD_NAMES[m]} {v.replace('_', ' ')}" for m, v in keys}
        return _order_reading(means, [f"{m}/{v}" for m, v in keys], fits, runs,
                              _planned_seeds("orchard"), profile, names,
                              fitted=all(f["fitted"] for f in found.values()))
    return read


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
        return Ours.mean_of(100 * runs["accuracy"].to_numpy(), _planned_seeds("dbca"),
                            fit=float(runs["train_accuracy"].mean()))
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
        return Ours.mean_of(per_seed, _planned_seeds("dbca"),
                            fit=float(runs["train_accuracy"].mean()))
    return read


def _dbca_r2(network: str) -> Callable[[], Ours | None]:
    """The dial's straight line (accuracy against reached D_C): its R², with its slope in
    ``text``; a line that rises does not show the paper's fall and reads as R² 0."""
    def read() -> Ours | None:
        runs = _dbca_dial_runs(network)
        if runs is None:
            return None
        regression = dbca_report.dial_regression(runs)
        if network not in regression.index:
            return None
        row = regression.loc[network]
        slope = float(row["slope (points per D_C)"])
        r2 = float(row["R²"]) if slope < 0 else 0.0
        return Ours(r2, int(row["runs"]), int(row["runs"]),
                    fit=float(runs["train_accuracy"].mean()),
                    fitted=gate.passes(float(runs["train_accuracy"].mean())),
                    text=f"R² = {float(row['R²']):.2f}, {-slope / 10:.1f} points lost per 0.1 of D_C")
    return read


#: Fig. 4's action lengths (the length split's test set has 24-48) in three bins
_LENGTH_BINS = ((24, 25), (26, 32), (33, 48))


def _scan_length_trend(network: str) -> Callable[[], Ours | None]:
    """Exp. 2, Fig. 4: the share of three orderings of the mean accuracy in
    :data:`_LENGTH_BINS` that hold (shortest above both longer bins, the middle not below the
    longest), over the committed length-split runs."""
    def read() -> Ours | None:
        runs = _scan_runs("length", network)
        if runs.empty:
            return None
        by_length: dict[int, list[float]] = {}
        for record in runs["by_length"]:
            for length, accuracy in record["action length"].items():
                by_length.setdefault(int(length), []).append(accuracy)
        bins = [100 * float(np.mean([np.mean(v) for k, v in by_length.items() if lo <= k <= hi]))
                for lo, hi in _LENGTH_BINS]
        held = [bins[0] > bins[1], bins[0] > bins[2], bins[1] >= bins[2]]
        fit = float(runs["train_accuracy"].mean())
        return Ours(sum(held) / len(held), len(runs), _planned_seeds("scan"),
                    gate.passes(fit), fit=fit,
                    text=" > ".join(f"{b:.1f}%" for b in bins))
    return read


def _tre_judgments() -> Ours | None:
    rhos = judgments.committed_rhos("full")
    if not rhos:
        return None
    return Ours.mean_of(rhos, _planned_seeds("tre_judgments", "corpus_seeds"))


# ---------------------------------------------------------------------------------------------
# The claims

_SCAN = scan_experiments.PAPER
_LAKE = "lake2018generalization"
_ANDREAS = "andreas2019measuring"


# Table 1's queries by the similarity of their nearest training command in the paper (highest
# first): run .73, run twice .72, jump twice .19, jump .15
_NEIGHBOUR_ORDER = ("run", "run twice", "jump twice", "jump")


def _scan_neighbour_order(state: str) -> Callable[[], Ours | None]:
    """Table 1's ordering of the queries by their nearest neighbour's similarity, from the
    committed full-profile study (:func:`tutorlib.scan.experiments.committed_neighbours`)."""
    def read() -> Ours | None:
        frame = scan_experiments.committed_neighbours()
        if frame.empty:
            return None
        first = frame[(frame["rank"] == 1) & (frame["state"] == state)]
        nearest = dict(zip(first["query"], first["similarity"]))
        fit = float(frame.attrs["train_accuracy"])
        ours = _order_reading(nearest, _NEIGHBOUR_ORDER, [fit], 1, 1, "full")
        text = ", ".join(f"{q} {nearest[q]:.2f}" for q in _NEIGHBOUR_ORDER)
        return Ours(ours.value, 1, 1, ours.fitted, "full", fit=fit, text=text)
    return read


def _scan_claims() -> list[Claim]:
    claims = [
        Claim("SCAN", "scan/03_scan_exp1", _LAKE,
              "Exp. 1: the overall-best network (LSTM 2 × 200) learns the simple (random) split",
              _SCAN["simple"]["overall_best"], "%", _scan("simple"), experiment="scan"),
    ]
    claims.append(Claim(
        "SCAN", "scan/03_scan_exp1", _LAKE,
        "Exp. 1: its top network (LSTM 2 × 200, no dropout) learns the simple split",
        _SCAN["simple"]["exp1_best"], "%", _scan("simple", "exp1_best"), experiment="scan"))
    for percent in (1, 2, 4):
        split = scan_experiments.split_name("size", percent=percent)
        claims.append(Claim(
            "SCAN", "scan/03_scan_exp1", _LAKE,
            f"Exp. 1: trained on {percent}% of SCAN, it generalises to the rest (Fig. 3; the text "
            f"says about {_SCAN[split]['overall_best']:g}%)",
            _SCAN[split]["overall_best"], "%", _scan(split), experiment="scan"))
    for percent in (2, 4):
        split = scan_experiments.split_name("size", percent=percent)
        claims.append(Claim(
            "SCAN", "scan/03_scan_exp1", _LAKE,
            f"Exp. 1: {percent}% of SCAN, trained one example at a time as the paper does",
            _SCAN[split]["overall_best"], "%", _scan(split, training="per_example"),
            experiment="scan"))
    names = {"overall_best": "the overall-best network",
             "exp2_best": "the length split's best network (GRU + attention)"}
    for network in ("overall_best", "exp2_best"):
        claims.append(Claim(
            "SCAN", "scan/04_scan_exp2", _LAKE,
            f"Exp. 2: {names[network]} fails on longer action sequences (length split)",
            _SCAN["length"][network], "%", _scan("length", network), experiment="scan"))
    for network in ("overall_best", "exp2_best"):
        claims.append(Claim(
            "SCAN", "scan/04_scan_exp2", _LAKE,
            f"Exp. 2 (Fig. 4): {names[network]} is right mostly on the shortest test action "
            f"sequences: accuracy at 24-25 actions > 26-32 > 33-48",
            1.0, "order", _scan_length_trend(network), ORDER, "scan",
            note="mean accuracy per action length, averaged within each bin",
            published_text="24-25 > 26-32 > 33-48"))
    for network in ("overall_best", "exp2_best"):
        claims.append(Claim(
            "SCAN", "scan/04_scan_exp2", _LAKE,
            f"Exp. 2: {names[network]}, told the output length (oracle length)",
            _SCAN["length_oracle"][network], "%", _scan_oracle(network), experiment="scan"))
    claims += [
        Claim("SCAN", "scan/05_scan_exp3", _LAKE,
              "Exp. 3: a new primitive, turn left, seen alone in training, is used in composition",
              _SCAN["addprim_turn_left"]["overall_best"], "%", _scan("addprim_turn_left"),
              experiment="scan"),
        Claim("SCAN", "scan/05_scan_exp3", _LAKE,
              "Exp. 3: turn left, trained one example at a time as the paper does",
              _SCAN["addprim_turn_left"]["overall_best"], "%",
              _scan("addprim_turn_left", training="per_example"), experiment="scan"),
        Claim("SCAN", "scan/05_scan_exp3", _LAKE,
              "Exp. 3: turn left, its top network (GRU + attention, 1 × 100), trained one example "
              "at a time", _SCAN["addprim_turn_left"]["turn_left_best"], "%",
              _scan("addprim_turn_left", "turn_left_best", "per_example"), experiment="scan"),
        Claim("SCAN", "scan/05_scan_exp3", _LAKE,
              "Exp. 3: a new primitive, jump, seen alone in training, is almost never composed",
              _SCAN["addprim_jump"]["overall_best"], "%", _scan("addprim_jump"), experiment="scan"),
        Claim("SCAN", "scan/05_scan_exp3", _LAKE,
              "Exp. 3: jump, its top network (LSTM + attention, 1 × 100)",
              _SCAN["addprim_jump"]["jump_best"], "%", _scan("addprim_jump", "jump_best"),
              experiment="scan"),
    ]
    similarities = scan_experiments.PAPER_SIMILARITIES
    for state in scan_experiments.STATES:
        claims.append(Claim(
            "SCAN", "scan/05_scan_exp3", _LAKE,
            f"Table 1 ({state}'s final state): the queries by the similarity of their nearest "
            f"training command, run > run twice > jump twice > jump (jump furthest)",
            1.0, "order", _scan_neighbour_order(state), ORDER, "scan",
            note="one network (the full profile's overall-best, seed 0), as in the paper",
            published_text=" > ".join(f"{similarities[q][0]:.2f}" for q in _NEIGHBOUR_ORDER)))
    for num in (4, 8, 16, 32):
        claims.append(Claim(
            "SCAN", "scan/05_scan_exp3", _LAKE,
            f"Exp. 3: jump with {num} composed jump commands in training (Fig. 5; a value per "
            f"replication)",
            _SCAN[f"addprim_complex_jump_num{num}"]["overall_best"], "%", _scan_composed_jump(num),
            experiment="scan"))
    note = "a generated English-French corpus stands in for the paper's"
    claims += [
        Claim("SCAN", "scan/05_scan_exp3", _LAKE,
              "Exp. 4: a new word (daxy), seen in one sentence, translated in 8 new constructions "
              "(right of 8; the effect: it is almost never right)",
              translation.PAPER["daxy"]["right"], "of 8", _scan_translation("daxy"),
              stand_in(close_to(1.5)), "scan_translation", note),
        Claim("SCAN", "scan/05_scan_exp3", _LAKE,
              "Exp. 4: the frequent adjective tired in the same 8 constructions (right of 8; the "
              "effect: it is almost always right)",
              translation.PAPER["tired"]["right"], "of 8", _scan_translation("tired"),
              stand_in(close_to(1.5)), "scan_translation", note),
    ]
    return claims


def _tre_claims() -> list[Claim]:
    dynamics_note = ("drawn digits stand in for Colour MNIST; ours is the mean per-unit "
                     "entropy (the paper's joint estimate is at its ceiling on our task)")
    reward = ("the paper's 'absolute performance': positive, so the more compositional (lower "
              "TRE) languages also get a lower reward")
    return [
        Claim("TRE", "tre/07_tre_dynamics", _ANDREAS,
              "Sec. 4: the few-shot concept learner's validation accuracy (the effect: it learns)",
              100 * dynamics.PAPER["validation accuracy"], "%", _tre_dynamics("validation accuracy"),
              stand_in(within(10)), "tre_dynamics",
              "drawn digits stand in for Colour MNIST; the task's concepts are our choice"),
        Claim("TRE", "tre/07_tre_dynamics", _ANDREAS,
              "Sec. 4: TRE goes with the information I(θ; X) over training, all snapshots",
              dynamics.PAPER["r(TRE, I(theta; X)), all runs"], "r", _tre_dynamics("all"),
              stand_in(CORRELATION), "tre_dynamics", dynamics_note),
        Claim("TRE", "tre/07_tre_dynamics", _ANDREAS,
              "Sec. 4: TRE falls with information in the compression phase (runs twice the "
              "paper's length, well into it; and runs of its length)",
              dynamics.PAPER["r(TRE, I(theta; X)), compression phase"], "r",
              _tre_dynamics("compression"), stand_in(CORRELATION), "tre_dynamics", dynamics_note),
        Claim("TRE", "tre/08_tre_judgments", _ANDREAS,
              "Sec. 5: TRE of noun compounds' word vectors against human compositionality ratings "
              "(the effect: a negative ρ, less compositional compounds have higher TRE)",
              judgments.PAPER["spearman rho(TRE, ratings)"], "ρ", _tre_judgments,
              stand_in(same_sign(1.0, 1.0)), "tre_judgments",
              "generated corpora with planted compositionality stand in for Gigaword and the "
              "ratings (a corpus per seed); planted values are exact, so a stronger ρ than the "
              "paper's is expected and only its sign is the effect"),
        Claim("TRE", "tre/10_tre_generalisation", _ANDREAS,
              "Sec. 7: more compositional languages (lower TRE) generalise better: r(TRE, gap)",
              generalisation.PAPER["r(TRE, generalisation gap)"], "r", _tre_generalisation("gap"),
              CORRELATION, "tre_generalisation"),
        Claim("TRE", "tre/10_tre_generalisation", _ANDREAS,
              "Sec. 7: the same over the successful runs only (held-out reward above 0.5)",
              generalisation.PAPER["r(TRE, generalisation gap), successful runs"], "r",
              _tre_generalisation("gap", successful=True), CORRELATION, "tre_generalisation"),
        Claim("TRE", "tre/10_tre_generalisation", _ANDREAS,
              "Sec. 7: ... but they get a lower absolute reward: r(TRE, held-out reward)",
              generalisation.PAPER["r(TRE, absolute reward)"], "r",
              _tre_generalisation("test reward"), CORRELATION, "tre_generalisation", reward),
        Claim("TRE", "tre/10_tre_generalisation", _ANDREAS,
              "Sec. 7: r(TRE, gap), TRE measured with the released code's protocol",
              generalisation.PAPER["r(TRE, generalisation gap)"], "r",
              _tre_protocol("release (L1)", "gap"), CORRELATION, "tre_generalisation",
              "RMSprop at a constant rate, unconverged, as the release fits it"),
        Claim("TRE", "tre/10_tre_generalisation", _ANDREAS,
              "Sec. 7: r(TRE, held-out reward), TRE measured with the released code's protocol",
              generalisation.PAPER["r(TRE, absolute reward)"], "r",
              _tre_protocol("release (L1)", "test reward"), CORRELATION, "tre_generalisation",
              "RMSprop at a constant rate, unconverged, as the release fits it"),
    ]


_PCFGSET_TESTS = {
    "task": "the task itself (accuracy)",
    "systematicity": "systematicity (accuracy)",
    "productivity": "productivity (accuracy)",
    "substitutivity_equally_distributed": "substitutivity, equally distributed (consistency)",
    "substitutivity_primitive": "substitutivity, primitive (consistency)",
    "localism": "localism (agreement with the unrolled input)",
    "overgeneralisation": "overgeneralisation (peak)",
}


def _paper_order(values: dict[str, float]) -> str:
    return " > ".join(f"{k.replace('_', ' ')} {v:g}" for k, v in values.items())


def _pcfgset_claims() -> list[Claim]:
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
                released=_released(test, network)))
    ranked = sorted(names, key=lambda n: -paper["task"][n])
    claims.append(Claim(
        "PCFG SET", chapter, key, f"on the task, {' > '.join(ranked)}", 1.0, "order",
        _pcfgset_order(["task"], ranked), ORDER, "pcfgset",
        published_text=_paper_order({n: paper["task"][n] for n in ranked}),
        released=_released_order(["task"], ranked)))
    ranked = sorted(names, key=lambda n: -paper["systematicity"][n])
    claims.append(Claim(
        "PCFG SET", chapter, key, f"Sec. 4.1: on systematicity, {' > '.join(ranked)}", 1.0,
        "order", _pcfgset_order(["systematicity"], ranked), ORDER, "pcfgset",
        published_text=_paper_order({n: paper["systematicity"][n] for n in ranked}),
        released=_released_order(["systematicity"], ranked)))
    for network in names:
        tests = ("task", "systematicity", "productivity")
        claims.append(Claim(
            "PCFG SET", chapter, key, f"{network}: task > systematicity > productivity", 1.0,
            "order", _pcfgset_order(tests, [network]), ORDER, "pcfgset",
            published_text=_paper_order({t: paper[t][network] for t in tests}),
            released=_released_order(tests, [network])))
    for network in names:
        tests = ("substitutivity_equally_distributed", "substitutivity_primitive")
        claims.append(Claim(
            "PCFG SET", chapter, key,
            f"{network}: more consistent on equally distributed synonyms than on primitive ones",
            1.0, "order", _pcfgset_order(tests, [network]), ORDER, "pcfgset",
            published_text=" > ".join(f"{paper[t][network]:g}" for t in tests),
            released=_released_order(tests, [network])))
    # Findings the paper states in words beyond Table 1, read from its released networks only
    only = "read from the paper's released networks only; our networks: not measured"
    for network in names:
        architecture = {v: k for k, v in released.NAMES.items()}[network]
        claims.append(Claim(
            "PCFG SET", chapter, key,
            f"Sec. 4.2, Fig. 3: {network}'s task accuracy falls with input length", 1.0, "order",
            _not_measured, ORDER, note=only, published_text="shortest > middle > longest third",
            released=_released_length_trend(network)))
        claims.append(Claim(
            "PCFG SET", chapter, key,
            f"Sec. 4.2, Fig. 3: {network}'s productivity score is below its task accuracy at "
            f"the same input length", 1.0, "share", _not_measured, close_to(0.2), note=only + (
                "; the share of input lengths (20 or more inputs in both test sets); "
                "\u201calmost all\u201d read as at least 80%"),
            published_text="at almost all lengths",
            released=_released_per_run(
                lambda a=architecture: released.productivity_below_task_by_run(a))))
        claims.append(Claim(
            "PCFG SET", chapter, key,
            f"Sec. 4.5: {network} hardly overgeneralises with 0.5% exceptions (peak)", 0.0, "%",
            _not_measured, close_to(10), note=only + "; \u201chardly any\u201d read as a peak "
            "within 10 points of none", published_text="hardly any",
            released=_released_per_run(
                lambda a=architecture: [released.overgeneralisation(a, 0.005, r)
                                        for r in released.RUNS], percent=True)))
    claims.append(Claim(
        "PCFG SET", chapter, key,
        "Sec. 4.4: LSTMS2S's localism mistakes are mostly unrolled steps applied to strings of "
        "more than five symbols", 1.0, "share", _not_measured, close_to(0.5), note=only + (
            "; the share of the inputs whose unrolled prediction differs that have such a step; "
            "\u201cmost common\u201d read as above half"),
        published_text="most of them",
        released=_released_per_run(
            lambda: [released.localism_mistakes_with_long_strings(r) for r in released.RUNS])))
    return claims


def _orchard_claims() -> list[Claim]:
    paper = orchard_experiments.PAPER["first_tree_depth12_hard"]
    claims = []
    for model, per_variant in paper.items():
        for variant, published in per_variant.items():
            claims.append(Claim(
                "ORCHARD", "orchard/14_orchard", "pung2021orchard",
                f"{_ORCHARD_NAMES[model]} on {variant.replace('_', ' ')}: "
                f"first tree at depth 12 (trained on depths 3-6)", published, "%",
                _orchard(model, variant), experiment="orchard"))
    for variant in paper["transformer"]:
        claims.append(Claim(
            "ORCHARD", "orchard/14_orchard", "pung2021orchard",
            f"Transformer on {variant.replace('_', ' ')}: no better than chance on the second "
            f"tree at depth 12 (the references between the trees)",
            orchard_experiments.PAPER["chance"], "%", _orchard("transformer", variant, "second"),
            experiment="orchard"))
    in_distribution = tuple(range(3, 7))
    for variant in ("minmax_medium", "minmax_hard", "firstlast_medium", "firstlast_hard"):
        claims.append(Claim(
            "ORCHARD", "orchard/14_orchard", "pung2021orchard",
            f"at the training depths (3-6), the Transformer is ahead of the LSTM on "
            f"{variant.replace('_', ' ')} (both trees)", 1.0, "order",
            _orchard_order([("transformer", variant), ("lstm", variant)], "both",
                           in_distribution), ORDER, "orchard",
            published_text="Transformer > LSTM"))
    for model in ("lstm", "transformer"):
        for family in ("minmax", "firstlast"):
            keys = [(model, f"{family}_{level}") for level in ("easy", "medium", "hard")]
            claims.append(Claim(
                "ORCHARD", "orchard/14_orchard", "pung2021orchard",
                f"{_ORCHARD_NAMES[model]}, {family}: COPY makes the second tree harder (depth 12: "
                f"easy > medium > hard)", 1.0, "order",
                _orchard_order(keys, "second", (12,)), ORDER, "orchard",
                published_text="easy > medium > hard"))
    return claims


def _dbca_claims() -> list[Claim]:
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
            spread=paper["random_interval"][network]))
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


#: The papers, as the table names them (keys of book/references.bib).
CITATIONS = {
    _LAKE: "Lake & Baroni (2018)",
    _ANDREAS: "Andreas (2019)",
    "hupkes2020compositionality": "Hupkes et al. (2020)",
    "pung2021orchard": "Pung & Chan (2021)",
    "keysers2020measuring": "Keysers et al. (2020)",
}

#: Every claim the book checks, in the book's order.
CLAIMS: list[Claim] = [*_scan_claims(), *_tre_claims(), *_pcfgset_claims(), *_orchard_claims(),
                       *_dbca_claims()]


def _check_claims(claims, caller: str) -> list[Claim]:
    """Every claim of the book for ``None``; otherwise ``claims``, each a :class:`Claim`."""
    if claims is None:
        return CLAIMS
    claims = list(claims)
    if not claims:
        raise ValueError(f"{caller}: claims is empty; give at least one Claim, or None for "
                         f"every claim of the book")
    for position, claim in enumerate(claims):
        if not isinstance(claim, Claim):
            raise TypeError(f"{caller}: claims[{position}] is a {type(claim).__name__}, not a "
                            f"Claim")
    return claims


def table(claims: list[Claim] | None = None):
    """The claims as a DataFrame, a row each: part, paper, claim, unit, published (and the
    paper's ``spread``), ours with its 95% interval (``low``, ``high``), runs (committed of
    planned), the networks' ``fit`` and whether they ``fitted`` (None: not recorded), the
    profile read, verdict (with ", partial" when fewer runs are committed than planned), rule,
    note, chapter, experiment, and the texts shown for the published and our number."""
    import pandas as pd

    rows = []
    bounds = {"%": (0.0, 100.0), "of 8": (0.0, 8.0), "share": (0.0, 1.0)}

    def bounded(ours: Ours | None, unit: str) -> Ours | None:
        if ours is not None and ours.low is not None and unit in bounds:
            # a t interval knows no bounds: show it within what the number can be
            floor, ceiling = bounds[unit]
            ours = Ours(**{**ours.__dict__, "low": max(floor, ours.low),
                           "high": min(ceiling, ours.high)})
        return ours

    for claim in _check_claims(claims, "table"):
        ours = claim.ours()
        verdict = claim.verdict(ours)
        ours = bounded(ours, claim.unit)
        theirs = None if claim.released is None else claim.released()
        released_verdict = claim.released_verdict(theirs)
        theirs = bounded(theirs, claim.unit)
        if ours is not None and not ours.complete and not verdict.startswith("stand-in"):
            verdict += ", partial"
        rows.append({"part": claim.part, "paper": claim.citation, "claim": claim.claim,
                     "unit": claim.unit, "published": claim.published, "spread": claim.spread,
                     "ours": None if ours is None else ours.value,
                     "low": None if ours is None else ours.low,
                     "high": None if ours is None else ours.high,
                     "runs": "" if ours is None else f"{ours.runs} of {ours.planned}",
                     "fit": None if ours is None else ours.fit,
                     "fitted": None if ours is None else ours.fitted,
                     "profile": None if ours is None else ours.profile,
                     "verdict": verdict, "rule": claim.rule.describe(), "note": claim.note,
                     "chapter": claim.chapter, "experiment": claim.experiment,
                     "published text": claim.published_text,
                     "ours text": "" if ours is None else ours.text,
                     "released": None if theirs is None else theirs.value,
                     "released low": None if theirs is None else theirs.low,
                     "released high": None if theirs is None else theirs.high,
                     "released text": "" if theirs is None else theirs.text,
                     "released verdict": released_verdict})
    return pd.DataFrame(rows)


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _number(value: float | None, unit: str) -> str:
    if _missing(value):
        return "—"
    if unit == "%":
        # two decimals where one would hide the number (0.08%) or round it up to 100.0%
        return f"{value:.2f}%" if abs(value) < 1 or 99.95 <= value < 100 else f"{value:.1f}%"
    if unit == "order":
        return f"{value:.0%} of pairs in order"
    if unit == "of 8":
        return f"{value:.1f} of 8"
    if unit == "share":
        return f"{value:.0%}"
    # no-break spaces and a true minus sign: "r = −0.51" stays on one line in a narrow column
    return f"{unit}\u00a0=\u00a0{value:.2f}".replace("-", "\u2212")


def _bound(value: float, unit: str) -> str:
    if unit == "share":
        return f"{value:.0%}"
    return (f"{value:.1f}" if unit in ("%", "of 8") else f"{value:.2f}").replace("-", "\u2212")


def _published(row) -> str:
    if row["published text"]:
        return row["published text"]
    shown = _number(row["published"], row["unit"])
    if not _missing(row["spread"]):
        shown = shown.replace("%", f" ± {row['spread']:.1f}%") if row["unit"] == "%" else (
            f"{shown} ± {row['spread']:g}")
    return shown


def _shown(value, low, high, text: str, unit: str) -> str:
    if _missing(value):
        return "—"
    shown = text or _number(float(value), unit)
    if not text and not _missing(low) and not _missing(high):
        shown += f" [{_bound(low, unit)}, {_bound(high, unit)}]"
    return shown


def _ours(row) -> str:
    return _shown(row["ours"], row["low"], row["high"], row["ours text"], row["unit"])


def _released_shown(row) -> str:
    if not row["released verdict"]:
        return ""
    return _shown(row["released"], row["released low"], row["released high"],
                  row["released text"], row["unit"])


def _claims_frame(frame, caller: str):
    """``frame`` if it is a table of :func:`table`'s kind, :func:`table` if it is ``None``."""
    import pandas as pd

    if frame is None:
        return table()
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"{caller}: frame must be a table from claims.table() (a DataFrame) or "
                        f"None, got {type(frame).__name__}")
    missing = [c for c in ("part", "paper", "claim", "verdict") if c not in frame]
    if missing:
        raise ValueError(f"{caller}: frame lacks the columns {', '.join(missing)} of "
                         f"claims.table()")
    return frame


def formatted(frame=None, part: str | None = None):
    """:func:`table` for reading: a row per claim, the numbers as text with their units ("99.7%",
    "r = 0.50", "—" for none), ours with its 95% interval in brackets, the fit as a share. All
    parts, indexed by part (with its paper) and the claim's number in the part; or, given
    ``part``, that part's claims numbered from 1."""
    frame = _claims_frame(frame, "formatted")
    if part is not None:
        if part not in set(frame["part"]):
            raise ValueError(f"no claims for part {part!r}; the parts are "
                             f"{', '.join(dict.fromkeys(frame['part']))}")
        frame = frame[frame["part"] == part]
    parts = [f"{name}: {CITATIONS.get(key, key)}" for name, key in zip(frame["part"], frame["paper"])]
    rows = frame.to_dict("records")
    shown = frame.assign(
        part=parts, number=frame.groupby("part").cumcount() + 1,
        published=[_published(r) for r in rows], ours=[_ours(r) for r in rows],
        fit=["—" if _missing(r["fit"]) else f"{r['fit']:.2f}" for r in rows],
        runs=frame["runs"].replace("", "—").str.replace(" of ", "/", regex=False))
    columns = ["claim", "published", "ours", "fit", "runs", "verdict"]
    if part is not None:
        if "released verdict" in frame and frame["released verdict"].astype(bool).any():
            # the paper's own networks scored by us, beside ours: a check of our scorers
            shown = shown.assign(**{RELEASED_COLUMN: [_released_shown(r) for r in rows],
                                    RELEASED_VERDICT_COLUMN: frame["released verdict"]})
            columns = ["claim", "published", RELEASED_COLUMN, RELEASED_VERDICT_COLUMN, "ours",
                       "fit", "runs", "verdict"]
        return shown.set_index("number")[columns].rename_axis(None)
    return shown.set_index(["part", "number"])[columns]


def summary(frame=None):
    """How many claims of each part got each verdict (``", partial"`` folded in), a row a part."""
    import pandas as pd

    frame = _claims_frame(frame, "summary")
    verdicts = frame["verdict"].str.replace(", partial", "", regex=False)
    counts = pd.crosstab(pd.Categorical(frame["part"], categories=list(dict.fromkeys(frame["part"]))),
                         pd.Categorical(verdicts, categories=list(VERDICTS)), dropna=False)
    counts.index.name, counts.columns.name = "part", "verdict"
    counts.loc["all parts"] = counts.sum()
    return counts


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def what_holds(frame=None) -> dict[str, str]:
    """For each part, what holds in words, generated from the verdicts: how many of its claims
    were tested and reproduced (fully or in part), how many were not, how many are untested
    because the networks did not fit, and what the stand-ins show."""
    frame = _claims_frame(frame, "what_holds")
    sentences = {}
    for part, rows in frame.groupby("part", sort=False):
        verdicts = rows["verdict"].str.replace(", partial", "", regex=False)
        count = verdicts.value_counts()
        tested = int(count.get("reproduced", 0) + count.get("partly", 0)
                     + count.get("not reproduced", 0))
        paper = CITATIONS.get(rows["paper"].iloc[0], rows["paper"].iloc[0])
        bits = []
        if tested:
            held = [c for c, v in zip(rows["claim"], verdicts) if v == "reproduced"]
            failed = [c for c, v in zip(rows["claim"], verdicts) if v == "not reproduced"]
            bits.append(f"of {_count(tested, 'tested claim')}, {count.get('reproduced', 0)} "
                        f"reproduced, {count.get('partly', 0)} partly and "
                        f"{count.get('not reproduced', 0)} not")
            if held:
                bits.append(f"reproduced, for example: \u201c{held[0]}\u201d")
            if failed:
                bits.append(f"not reproduced, for example: \u201c{failed[0]}\u201d")
        if count.get(UNTESTED, 0):
            bits.append(f"{_count(int(count[UNTESTED]), 'claim')} untested because our "
                        f"networks did not fit their own training data")
        stand_ins = {k: int(count.get(v, 0)) for k, v in EFFECT.items() if count.get(v, 0)}
        if stand_ins:
            shown = stand_ins.get("reproduced", 0)
            bits.append(f"{_count(sum(stand_ins.values()), 'stand-in')}, {shown} showing the "
                        f"paper's effect")
        if count.get("not yet run", 0):
            bits.append(f"{_count(int(count['not yet run']), 'claim')} not yet run")
        if count.get(NOT_MEASURED, 0):
            bits.append(f"{_count(int(count[NOT_MEASURED]), 'finding')} read from the paper's "
                        f"released networks only")
        theirs = rows["released verdict"] if "released verdict" in rows else None
        if theirs is not None and theirs.astype(bool).any():
            scored = theirs[theirs.isin(["reproduced", "partly", "not reproduced"])]
            bits.append(f"the paper's own released networks, scored by our scorers, reproduce "
                        f"{int((scored == 'reproduced').sum())} of the "
                        f"{_count(len(scored), 'claim')} the release allows, partly "
                        f"{int((scored == 'partly').sum())}, not {int((scored == 'not reproduced').sum())}")
        text = "; ".join(bits) if bits else "nothing is tested yet"
        sentences[part] = f"{paper}: {text[0].upper() + text[1:]}."
    return sentences


def coverage(claims: list[Claim] | None = None):
    """For each experiment the claims read: the full-profile runs committed, the runs the profile
    plans, and the command that runs (or completes) it, a row an experiment."""
    import pandas as pd

    from tutorlib import results

    rows = []
    names = dict.fromkeys(c.experiment for c in _check_claims(claims, "coverage") if c.experiment)
    for name in names:
        spec = results.experiment(name)
        settings = profiles.settings(name, "full")
        committed = results.committed(name, "full")
        rows.append({"experiment": name,
                     "committed runs": len(committed["data"].get("runs", [])) if committed else 0,
                     "planned runs": len(spec.runs(settings)),
                     "command": f"python -m tutorlib run {name} --profile full"})
    return pd.DataFrame(rows).set_index("experiment")


__all__ = ["ACCURACY", "CITATIONS", "CLAIMS", "CORRELATION", "EFFECT", "FIT_THRESHOLD", "NOT_MEASURED",
           "ORDER", "RELEASED_COLUMN", "RELEASED_VERDICT_COLUMN", "UNTESTED", "VERDICTS", "Claim",
           "Ours",
           "Rule", "close_to", "coverage", "formatted",
           "same_sign", "stand_in", "summary", "table", "what_holds", "within"]


from tutorlib.checks import guard_exports as _guard_exports  # noqa: E402

_guard_exports(globals())
