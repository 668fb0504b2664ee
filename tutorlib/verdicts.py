"""The verdict engine: each published number the book tests, ours beside it, and a verdict.

The parts' claims (``tutorlib.<part>.claims``) are built from these pieces, and
:mod:`tutorlib.claims` gathers them into the claims page.

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
  sign); an ordering: see rule 2 below;
- ``unresolved``: the runs do not settle it (rules 2 and 3 below);
- ``untested: did not fit``: too few of the networks behind our number learned their own data
  (they fail the fit gate, :func:`tutorlib.fit.passes`; rule 1 below), whatever the number;
- ``untested: reduced task``: our networks learned a reduction of the paper's task (PCFG SET's
  full profile, :data:`tutorlib.pcfgset.corpus.REDUCTIONS`), whose levels are not the paper's:
  a number (an accuracy, a consistency) is shown, not judged, and so is an ordering of levels
  that the training rule sets (networks each stopped at the fit gate have the task accuracy
  the gate asks for); an ordering of what a network does beyond its training distribution is
  judged;
- ``stand-in: effect shown`` / ``effect partly shown`` / ``effect not shown``: our experiment
  stands in for the paper's (other data or another task); the rule's ``effect`` says whether it
  shows the paper's effect;
- ``not yet run``: nothing is committed for it yet (``python -m tutorlib run EXPERIMENT --profile
  full`` produces it);
- ``ours: not measured``: a finding read from a paper's released networks only (their column,
  ``released``, has its own verdict by the same rule); no experiment of ours measures it.

What the runs support (:func:`Claim.verdict` applies it, for ours and for the paper's released
networks alike):

1. The fit gate holds for every run behind a row, not for their mean: a run that fails it is
   left out, the row reads the runs that pass and says how many were left out (``dropped``); when
   fewer than :data:`MIN_RUNS` runs pass, the row is ``untested: did not fit``.
2. An ordering (A better than B) is judged pair by pair on the runs (:func:`pair_support`): the
   runs support a pair when the 95% intervals of A and B separate, or, run by run (the same
   seeds), A is above B every time; they contradict it when the same holds the other way. Every
   pair supported: ``reproduced``; some: ``partly``; none supported and some contradicted: ``not
   reproduced``; none either way: ``unresolved`` (the runs do not settle it).
3. A level (a number set beside the paper's) needs at least :data:`MIN_RUNS` runs for an
   interval; with fewer it is ``unresolved``, and so is an ordering.

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
from tutorlib.stats import correlation_interval, mean_interval

UNTESTED = "untested: did not fit"
#: The runs do not settle the claim: fewer than :data:`MIN_RUNS` runs, or an ordering whose runs
#: support neither way.
UNRESOLVED = "unresolved"
#: The fewest runs behind an interval, a level or an ordering's member.
MIN_RUNS = 3
#: The columns of :func:`formatted` for the paper's own released networks scored by us.
RELEASED_COLUMN = "paper's networks, scored by us"
RELEASED_VERDICT_COLUMN = "verdict (paper's networks)"
EFFECT = {"reproduced": "stand-in: effect shown", "partly": "stand-in: effect partly shown",
          "not reproduced": "stand-in: effect not shown"}
#: Our verdict on a finding read from a paper's released networks only (no experiment of ours).
NOT_MEASURED = "ours: not measured"
#: Our verdict on a level (not an ordering) read from networks trained on a reduced task.
REDUCED = "untested: reduced task"
VERDICTS: tuple[str, ...] = ("reproduced", "partly", "not reproduced", UNRESOLVED, UNTESTED, REDUCED,
                             *EFFECT.values(), "not yet run", NOT_MEASURED)
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
    read; ``text`` shows the number where a figure alone does not (an ordering, two readings).
    ``reduced``: read from networks trained on a reduction of the paper's task, so a level is
    not compared with the paper's (:data:`REDUCED`), an ordering is, unless ``levels`` says that
    it orders levels the training rule set (the task accuracies of networks stopped at the fit
    gate). ``dropped``: committed runs left out because they fail the fit gate (``runs`` counts
    those read); ``pairs``: for an ordering, how many of its pairs the runs support, how many
    they contradict, and how many pairs there are (:func:`pair_support`; None: not known, which
    leaves an ordering unresolved); ``setting``: how the profile read differs from the paper's
    setting, in a few words ("trains on depths 3-4")."""

    value: float
    runs: int
    planned: int
    fitted: bool | None = None
    profile: str = "full"
    low: float | None = None
    high: float | None = None
    fit: float | None = None
    text: str = ""
    reduced: bool = False
    levels: bool = False
    dropped: int = 0
    pairs: tuple[int, int, int] | None = None
    setting: str = ""
    #: committed runs behind it where not ``runs + dropped`` (an ordering: its least-run member)
    committed: int | None = None

    def __post_init__(self) -> None:
        if self.runs < 0 or self.planned < 0:
            raise ValueError(f"Ours: runs and planned are counts (non-negative), got "
                             f"{self.runs!r} and {self.planned!r}")

    @property
    def complete(self) -> bool:
        committed = self.runs + self.dropped if self.committed is None else self.committed
        return committed >= self.planned

    @classmethod
    def mean_of(cls, values: Sequence[float], planned: int, *, fit: float | None = None,
                profile: str = "full", text: str = "", fits: Sequence[float] | None = None,
                passed: Sequence[bool] | None = None) -> Ours:
        """The mean of per-run ``values`` with its t interval. Give each run's fit (``fits``) or
        the fit gate's verdict on each run (``passed``; by default :func:`tutorlib.fit.passes`
        of ``fits``): the runs that fail are left out (``dropped``), and too few left
        (:data:`MIN_RUNS`) is not fitted. ``fit`` alone (one number for all runs) is the
        older form: fitted when it reaches :data:`FIT_THRESHOLD`."""
        values = [float(v) for v in values]
        if passed is None and fits is not None:
            passed = [gate.passes(float(f)) for f in fits]
        if passed is None:
            mean, low, high = mean_interval(values)
            return cls(mean, len(values), planned, None if fit is None else gate.passes(fit),
                       profile, low, high, fit, text)
        passed = [bool(p) for p in passed]
        if len(passed) != len(values) or (fits is not None and len(fits) != len(values)):
            raise ValueError(f"Ours.mean_of: one fit (or gate verdict) per value, got "
                             f"{len(values)} values and {len(passed)} verdicts")
        kept = [v for v, p in zip(values, passed) if p]
        kept_fits = [float(f) for f, p in zip(fits, passed) if p] if fits is not None else []
        lowest = min(kept_fits or [float(f) for f in fits]) if fits is not None else fit
        dropped = len(values) - len(kept)
        if not kept:
            return cls(float("nan"), 0, planned, False, profile, fit=lowest, text=text,
                       dropped=dropped)
        mean, low, high = mean_interval(kept)
        return cls(mean, len(kept), planned, not dropped or len(kept) >= MIN_RUNS, profile,
                   low, high, lowest, text, dropped=dropped)

    @classmethod
    def correlation(cls, x: Sequence[float], y: Sequence[float], planned: int, *,
                    text: str = "") -> Ours:
        """Pearson's r between ``x`` and ``y`` (one pair per run) with Fisher's z interval."""
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        r = float(np.corrcoef(x, y)[0, 1])
        low, high = correlation_interval(r, len(x))
        return cls(r, len(x), planned, low=low, high=high, text=text)


def pair_support(above: Sequence[float], below: Sequence[float], paired: bool = False) -> int:
    """Whether the runs say ``above`` is higher than ``below`` (one value per run each): 1 when
    they support it (the two 95% intervals separate with ``above`` higher, or, ``paired``, the
    same seeds in the same order and ``above`` higher on every one), -1 when they support the
    reverse the same way, 0 when they settle neither (or fewer than :data:`MIN_RUNS` runs).

    >>> pair_support([90, 91, 92], [80, 81, 82]), pair_support([90, 70, 92], [80, 81, 82])
    (1, 0)
    >>> pair_support([90, 70, 92], [80, 69, 82], paired=True)
    1
    """
    above, below = [float(v) for v in above], [float(v) for v in below]
    if min(len(above), len(below)) < MIN_RUNS:
        return 0
    _, a_low, a_high = mean_interval(above)
    _, b_low, b_high = mean_interval(below)
    if a_low > b_high:
        return 1
    if b_low > a_high:
        return -1
    if paired and len(above) == len(below):
        differences = np.subtract(above, below)
        if (differences > 0).all():
            return 1
        if (differences < 0).all():
            return -1
    return 0


def order_verdict(supported: int, contradicted: int, pairs: int) -> str:
    """An ordering's verdict from how many of its ``pairs`` the runs support and contradict."""
    if pairs and supported == pairs:
        return "reproduced"
    if supported:
        return "partly"
    return "not reproduced" if contradicted else UNRESOLVED


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
            return "every pair supported by the runs; partly: some pairs; else unresolved"
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
    a check of our implementation of the test, beside our own networks. ``why_untested``
    says in one line, from committed measurements, why networks that fit cannot be had for it
    at this book's scale (shown when the verdict is :data:`UNTESTED`; "" when it does not
    know)."""

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
    why_untested: Callable[[], str] | None = None

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
        return self._judged(ours)

    def _judged(self, ours: Ours) -> str:
        """What the runs support (the module's rules 2 and 3): an ordering by its pairs, a level
        only on :data:`MIN_RUNS` runs or more, then the claim's rule."""
        if self.rule.kind == "order":
            return UNRESOLVED if ours.pairs is None else order_verdict(*ours.pairs)
        if ours.runs < MIN_RUNS and not (isinstance(ours.value, float) and math.isnan(ours.value)):
            return UNRESOLVED
        return self.rule.verdict(self.published, ours.value, ours.low, ours.high, self.spread)

    def verdict(self, ours: Ours | None = None) -> str:
        """The verdict, without the partial mark (see :func:`table`): :data:`UNTESTED` when the
        networks behind our number did not learn their training data."""
        ours = self.ours() if ours is None else ours
        if ours is not None and ours.fitted is False and self.rule.kind != "stand-in":
            return UNTESTED
        if ours is not None and ours.dropped and ours.runs < MIN_RUNS:
            return UNTESTED  # too few runs pass the gate
        if ours is not None and ours.reduced and (self.rule.kind in ("points", "value")
                                                   or ours.levels):
            return REDUCED
        if ours is None and not self.experiment and self.released is not None:
            return NOT_MEASURED
        if ours is None:
            return self.rule.verdict(self.published, None)
        return self._judged(ours)


# ---------------------------------------------------------------------------------------------
# What the parts' readers share (each part's claims and readers: tutorlib.<part>.claims)


def planned_seeds(experiment: str, key: str = "seeds") -> int:
    """How many runs (seeds, by default) the full profile of ``experiment`` plans."""
    return len(profiles.settings(experiment, "full")[key])


def order_reading(means: dict[str, float], order: Sequence[str],
                  fits: list[float] | dict[str, Sequence[float]],
                   runs: int, planned: int, profile: str, names: dict[str, str] | None = None,
                   fitted: bool | None = None, reduced: bool = False,
                   levels: bool = False, per_run: dict[str, Sequence[float]] | None = None,
                   passed: dict[str, Sequence[bool]] | None = None, paired: bool = False) -> Ours:
    """An ordering claim: the share of the pairs of ``order`` (first > second > ...) that our
    ``means`` put the paper's way, shown as our means in the paper's order. ``fitted`` is the
    fit gate's verdict on every run behind it (by default, the lowest of ``fits`` on training
    alone).

    ``per_run`` (each member's value per run, in seed order) lets the runs judge each pair
    (:func:`pair_support`; ``paired`` when each run gives every member, as the bins of one
    test set do, so that run by run is a like-with-like comparison); without it the ordering
    is unresolved. ``passed`` (the fit gate per run, aligned with ``per_run``) leaves
    the runs that fail out: the means are then those of the runs kept, and a member with fewer
    than :data:`MIN_RUNS` runs kept is not fitted. ``fits`` may then be a dict aligned with
    ``per_run``, so that the fit shown is the lowest of the runs kept."""
    if len(order) < 2:
        raise ValueError(f"order_reading: an ordering needs at least two items, got {list(order)!r}")
    missing = [k for k in order if k not in means]
    if missing:
        raise ValueError(f"order_reading: no mean for {', '.join(map(repr, missing))} in means")
    names = names or {}
    pairs = [(a, b) for i, a in enumerate(order) for b in order[i + 1:]]
    support, dropped, committed = None, 0, None
    if per_run is not None:
        committed = min(len(per_run[k]) for k in order)
        kept = {k: [float(v) for v, ok in zip(per_run[k], (passed or {}).get(k, [True] * len(per_run[k])))
                    if ok] for k in order}
        dropped = sum(len(per_run[k]) - len(kept[k]) for k in order)
        if dropped:
            paired = False  # the runs left out break the seeds' pairing
            # a member none of whose runs passes has no number: nothing unfit is read
            means = {**means, **{k: float(np.mean(v)) if v else math.nan for k, v in kept.items()}}
            fitted = all(len(v) >= MIN_RUNS for v in kept.values())
        elif passed is not None and fitted is None:
            fitted = True
        runs = min(len(v) for v in kept.values())  # the runs read: its least-run member's
        if isinstance(fits, dict):
            fits = [float(f) for k in order for f, ok in zip(
                fits[k], (passed or {}).get(k, [True] * len(fits[k]))) if ok] or [
                float(f) for k in order for f in fits[k]]
        found = [pair_support(kept[a], kept[b], paired) for a, b in pairs]
        support = (found.count(1), found.count(-1), len(pairs))
    share = sum(means[a] > means[b] for a, b in pairs) / len(pairs)
    # a comparison of ours reads every member from one profile, and says which
    text = ("" if profile == "paper" else f"{profile} profile: ") + ", ".join(
        f"{names.get(k, k)} " + ("—" if math.isnan(means[k]) else f"{means[k]:.1f}") for k in order)
    if isinstance(fits, dict):
        fits = [float(f) for k in order for f in fits[k]]
    fit = min(fits) if fits else None
    if fitted is None and fit is not None:
        fitted = gate.passes(fit)
    return Ours(share, runs, planned, fitted, profile, fit=fit, text=text, reduced=reduced,
                levels=levels, dropped=dropped, pairs=support, committed=committed)


__all__ = ["ACCURACY", "CORRELATION", "EFFECT", "FIT_THRESHOLD", "MIN_POINTS", "MIN_RUNS",
           "NOT_MEASURED", "ORDER", "REDUCED", "RELATIVE_BELOW", "RELEASED_COLUMN",
           "RELEASED_VERDICT_COLUMN", "UNRESOLVED", "UNTESTED", "VERDICTS", "Claim", "Ours", "Rule",
           "close_to", "order_reading", "order_verdict", "pair_support", "planned_seeds",
           "same_sign", "stand_in", "within"]


from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals(), __all__)
