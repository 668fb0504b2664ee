"""Claims and verdicts: each published number the book tests, ours beside it, and a verdict.

Every :class:`Claim` names a part of the book, the chapter that tests it, the paper (a key of
``book/references.bib``), the claim in a sentence, the published number (read from the experiment
module's ``PAPER`` constant, never typed here), a *reader* that computes our number from the
committed full-profile results (``results/<experiment>/full.json``, through each experiment
module's own readers) and a :class:`Rule` that turns the two into a verdict:

- ``reproduced``: ours is within the rule's tolerance of the published number;
- ``partly``: ours points the same way but misses the tolerance (a wider one for accuracies;
  the same sign for correlations);
- ``not reproduced``: ours does not;
- ``stand-in``: our experiment stands in for the paper's (other data or another task), so the
  two numbers are shown side by side but do not test the claim;
- ``not yet run``: nothing is committed for it yet (``python -m tutorlib run EXPERIMENT --profile
  full`` produces it).

A verdict is *partial* when fewer runs are committed than the full profile plans (its seeds).

Examples
--------
>>> within(5, 15).verdict(99.7, 99.9), within(5, 15).verdict(90.0, 79.6)
('reproduced', 'partly')
>>> same_sign(0.15).verdict(0.71, -0.51)
'not reproduced'
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from tutorlib import profiles
from tutorlib.dbca import experiments as dbca_experiments
from tutorlib.orchard import experiments as orchard_experiments
from tutorlib.orchard import report as orchard_report
from tutorlib.pcfgset import experiments as pcfgset_experiments
from tutorlib.pcfgset import report as pcfgset_report
from tutorlib.scan import experiments as scan_experiments
from tutorlib.scan import translation
from tutorlib.tre import dynamics, generalisation

VERDICTS: tuple[str, ...] = ("reproduced", "partly", "not reproduced", "untested", "stand-in",
                             "not yet run")


@dataclass(frozen=True)
class Ours:
    """Our number for a claim: its value, how many committed runs it averages, and how many the
    full profile plans. ``fitted`` says whether the networks behind it learned their own
    training data (None: not recorded); a claim read from networks that did not is
    ``"untested"``, whatever the number. ``profile`` names the profile it was read from."""

    value: float
    runs: int
    planned: int
    fitted: bool | None = None
    profile: str = "full"

    @property
    def complete(self) -> bool:
        return self.runs >= self.planned


@dataclass(frozen=True)
class Rule:
    """How a verdict is reached. ``kind`` is ``"points"`` (absolute difference: within
    ``reproduced`` points is reproduced, within ``partly`` partly), ``"correlation"`` (the same
    sign and within ``reproduced`` is reproduced, the same sign alone partly) or ``"stand-in"``."""

    kind: str
    reproduced: float = 0.0
    partly: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in ("points", "correlation", "stand-in"):
            raise ValueError(f"a rule's kind is 'points', 'correlation' or 'stand-in', got {self.kind!r}")
        if self.kind == "points" and not 0 <= self.reproduced <= self.partly:
            raise ValueError(f"need 0 <= reproduced <= partly, got {self.reproduced} and {self.partly}")

    def verdict(self, published: float, ours: float | None) -> str:
        """The verdict for ``ours`` against ``published`` (``None``: not yet run)."""
        if self.kind == "stand-in":
            return "stand-in"
        if ours is None or (isinstance(ours, float) and math.isnan(ours)):
            return "not yet run"
        difference = abs(ours - published)
        if self.kind == "points":
            if difference <= self.reproduced:
                return "reproduced"
            return "partly" if difference <= self.partly else "not reproduced"
        if math.copysign(1, ours) != math.copysign(1, published):
            return "not reproduced"
        return "reproduced" if difference <= self.reproduced else "partly"

    def describe(self) -> str:
        if self.kind == "points":
            return f"within {self.reproduced:g} points; partly within {self.partly:g}"
        if self.kind == "correlation":
            return f"same sign, within {self.reproduced:g}; partly: same sign"
        return "our experiment stands in for the paper's"


def within(reproduced: float, partly: float) -> Rule:
    """Reproduced within ``reproduced`` points of the published number, partly within ``partly``."""
    return Rule("points", reproduced, partly)


def same_sign(reproduced: float) -> Rule:
    """For a correlation: reproduced with the same sign and within ``reproduced``; partly with
    the same sign; else not reproduced."""
    return Rule("correlation", reproduced)


STAND_IN = Rule("stand-in")
# Accuracies in %: within 5 points is reproduced, within 15 partly (the seeds' own spread on
# SCAN's harder splits is 5-17 points). Correlations: within 0.15 with the same sign.
ACCURACY = within(5, 15)
CORRELATION = same_sign(0.15)


@dataclass(frozen=True)
class Claim:
    """One published number and how the book checks it.

    ``read`` returns :class:`Ours` from the committed results, or ``None`` when there are none.
    ``chapter`` is the book's document name (``scan/03_scan_exp1``); ``unit`` is ``"%"`` or the
    correlation's symbol."""

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

    def ours(self) -> Ours | None:
        return self.read()

    def verdict(self, ours: Ours | None = None) -> str:
        """The verdict, without the partial mark (see :func:`table`): ``"untested"`` when the
        networks behind our number did not learn their training data."""
        ours = self.ours() if ours is None else ours
        if ours is not None and ours.fitted is False and self.rule.kind != "stand-in":
            return "untested"
        return self.rule.verdict(self.published, None if ours is None else ours.value)


# ---------------------------------------------------------------------------------------------
# Readers: each asks an experiment module for its committed full-profile results


def _planned_seeds(experiment: str, key: str = "seeds") -> int:
    return len(profiles.settings(experiment, "full")[key])


def _scan(split: str, network: str = "overall_best") -> Callable[[], Ours | None]:
    def read() -> Ours | None:
        table = scan_experiments.compare_with_paper([split])
        row = table.loc[(split, network)]
        if not row["seeds run"]:
            return None
        return Ours(float(row["test accuracy (%)"]), int(row["seeds run"]), _planned_seeds("scan"))
    return read


def _scan_oracle(network: str) -> Callable[[], Ours | None]:
    def read() -> Ours | None:
        runs = scan_experiments.committed_runs()
        runs = runs[(runs["split"] == "length") & (runs["network"] == network)]
        if runs.empty:
            return None
        return Ours(100 * float(runs["oracle_accuracy"].mean()), len(runs), _planned_seeds("scan"))
    return read


def _scan_per_example(split: str, network: str = "overall_best") -> Callable[[], Ours | None]:
    def read() -> Ours | None:
        table = scan_experiments.compare_with_paper([split], training="per_example")
        row = table.loc[(split, network)]
        if not row["seeds run"]:
            return None
        return Ours(float(row["test accuracy (%)"]), int(row["seeds run"]), _planned_seeds("scan"))
    return read


def _scan_composed_jump(num: int) -> Callable[[], Ours | None]:
    def read() -> Ours | None:
        runs = scan_experiments.committed_runs()
        runs = runs[runs["split"].str.startswith(f"addprim_complex_jump_num{num}_")]
        if runs.empty:
            return None
        summary = scan_experiments.accuracy_summary(runs, by="num").loc[num]
        return Ours(float(summary["accuracy"]), int(summary["runs"]),
                    profiles.settings("scan", "full")["complex_jump_reps"])
    return read


def _scan_translation(word: str) -> Callable[[], Ours | None]:
    def read() -> Ours | None:
        runs = translation.committed_runs("full")
        if runs.empty:
            return None
        return Ours(float(sum(r["right"] for r in runs[word]) / len(runs)), len(runs),
                    _planned_seeds("scan_translation"))
    return read


def _tre_protocol(protocol: str, column: str) -> Callable[[], Ours | None]:
    def read() -> Ours | None:
        runs = generalisation.committed_protocols("full")
        if runs.empty:
            return None
        target = runs["gap"] if column == "gap" else 1 - runs["test reward"]
        return Ours(float(runs[protocol].corr(target)), len(runs),
                    profiles.settings("tre_generalisation", "full")["runs"])
    return read


def _tre_dynamics(quantity: str, long: bool = False) -> Callable[[], Ours | None]:
    def read() -> Ours | None:
        committed = dynamics.committed_results("full", long=long)
        if committed is None or not committed["data"]["runs"]:
            return None
        data = committed["data"]
        if long:  # the earlier, longer runs: complete as committed
            planned = len(data["settings"]["seeds"])
            return Ours(float(data["pooled correlations"]["info_unit"][quantity]),
                        len(data["runs"]), planned)
        if quantity == "validation accuracy":
            value = 100 * data["mean final val_accuracy"]
        else:  # "all" or "compression": the per-unit estimate, as chapter 7 compares
            value = data["pooled correlations"]["info_unit"][quantity]
        return Ours(float(value), len(data["runs"]), _planned_seeds("tre_dynamics"))
    return read


def _tre_generalisation(column: str) -> Callable[[], Ours | None]:
    def read() -> Ours | None:
        runs = generalisation.committed_runs("full")
        if runs.empty:
            return None
        # held-out error = 1 - test reward: a positive r means that more compositional languages
        # (lower TRE) generalise better, for the gap and for the error alike (chapter 10)
        target = runs["gap"] if column == "gap" else 1 - runs["test reward"]
        return Ours(float(runs["TRE"].corr(target)), len(runs),
                    profiles.settings("tre_generalisation", "full")["runs"])
    return read


def _pcfgset(test: str, network: str) -> Callable[[], Ours | None]:
    """Read from the committed profile (full or gpu) whose networks fit their training data
    best; untested unless every run behind the number fits (``pcfgset.report.FIT_THRESHOLD``)."""
    def read() -> Ours | None:
        profile = pcfgset_report.best_fitted_profile(test, network)
        if profile is None:
            return None
        value, runs, fitted = pcfgset_report.claim_fit(test, network, profile)
        if value is None:
            return None
        return Ours(value, runs, _planned_seeds("pcfgset"), fitted=fitted, profile=profile)
    return read


def _dbca(split: str, network: str) -> Callable[[], Ours | None]:
    target = None if split == "mcd" else 0.0  # the lowest D_C of the dial stands for random

    def read() -> Ours | None:
        runs = dbca_experiments.committed_runs("full")
        if runs.empty:
            return None
        targets = runs["target_compound_divergence"]
        chosen = targets.isna() if target is None else targets == target
        runs = runs[chosen & (runs["network"] == network)]
        if runs.empty:
            return None
        return Ours(100 * float(runs["accuracy"].mean()), len(runs), _planned_seeds("dbca"))
    return read


def _orchard(model: str, variant: str, tree: str = "first") -> Callable[[], Ours | None]:
    """ORCHARD at depth 12 on ``tree``, from the committed profile whose runs of ``model`` on
    ``variant`` fit best; untested unless every run behind the number fits
    (``orchard.report.FIT_THRESHOLD`` of the first and second trees in distribution)."""
    def read() -> Ours | None:
        found = orchard_report.claim_reading(model, variant, tree)
        if found is None:
            return None
        return Ours(found["value"], found["runs"], _planned_seeds("orchard"),
                    fitted=found["fitted"], profile=found["profile"])
    return read


def _none() -> Ours | None:
    return None


# ---------------------------------------------------------------------------------------------
# The claims

_SCAN = scan_experiments.PAPER
_LAKE = "lake2018generalization"
_ANDREAS = "andreas2019measuring"


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
            f"Exp. 1: trained on {percent}% of SCAN, it generalises to the rest (Fig. 3, read off the plot)",
            _SCAN[split]["overall_best"], "%", _scan(split), experiment="scan"))
    for percent in (2, 4):
        split = scan_experiments.split_name("size", percent=percent)
        claims.append(Claim(
            "SCAN", "scan/03_scan_exp1", _LAKE,
            f"Exp. 1: {percent}% of SCAN, trained one example at a time as the paper does",
            _SCAN[split]["overall_best"], "%", _scan_per_example(split), experiment="scan"))
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
            f"Exp. 2: {names[network]}, told the output length (oracle length)",
            _SCAN["length_oracle"][network], "%", _scan_oracle(network), experiment="scan"))
    claims += [
        Claim("SCAN", "scan/05_scan_exp3", _LAKE,
              "Exp. 3: a new primitive, turn left, seen alone in training, is used in composition",
              _SCAN["addprim_turn_left"]["overall_best"], "%", _scan("addprim_turn_left"),
              experiment="scan"),
        Claim("SCAN", "scan/05_scan_exp3", _LAKE,
              "Exp. 3: turn left, trained one example at a time as the paper does",
              _SCAN["addprim_turn_left"]["overall_best"], "%", _scan_per_example("addprim_turn_left"),
              experiment="scan"),
        Claim("SCAN", "scan/05_scan_exp3", _LAKE,
              "Exp. 3: turn left, its top network (GRU + attention, 1 × 100), trained one example "
              "at a time", _SCAN["addprim_turn_left"]["turn_left_best"], "%",
              _scan_per_example("addprim_turn_left", "turn_left_best"), experiment="scan"),
        Claim("SCAN", "scan/05_scan_exp3", _LAKE,
              "Exp. 3: a new primitive, jump, seen alone in training, is almost never composed",
              _SCAN["addprim_jump"]["overall_best"], "%", _scan("addprim_jump"), experiment="scan"),
        Claim("SCAN", "scan/05_scan_exp3", _LAKE,
              "Exp. 3: jump, its top network (LSTM + attention, 1 × 100)",
              _SCAN["addprim_jump"]["jump_best"], "%", _scan("addprim_jump", "jump_best"),
              experiment="scan"),
    ]
    for num in (4, 8, 16, 32):
        claims.append(Claim(
            "SCAN", "scan/05_scan_exp3", _LAKE,
            f"Exp. 3: jump with {num} composed jump commands in training (Fig. 5)",
            _SCAN[f"addprim_complex_jump_num{num}"]["overall_best"], "%", _scan_composed_jump(num),
            experiment="scan"))
    stand_in = "a generated English-French corpus stands in for the paper's"
    claims += [
        Claim("SCAN", "scan/05_scan_exp3", _LAKE,
              "Exp. 4: a new word (daxy), seen in one sentence, translated in 8 new constructions "
              "(right of 8)", translation.PAPER["daxy"]["right"], "of 8",
              _scan_translation("daxy"), STAND_IN, "scan_translation", stand_in),
        Claim("SCAN", "scan/05_scan_exp3", _LAKE,
              "Exp. 4: the frequent adjective tired in the same 8 constructions (right of 8)",
              translation.PAPER["tired"]["right"], "of 8", _scan_translation("tired"), STAND_IN,
              "scan_translation", stand_in),
    ]
    return claims


def _tre_claims() -> list[Claim]:
    return [
        Claim("TRE", "tre/07_tre_dynamics", _ANDREAS,
              "Sec. 4: the few-shot concept learner's validation accuracy",
              100 * dynamics.PAPER["validation accuracy"], "%", _tre_dynamics("validation accuracy"),
              STAND_IN, "tre_dynamics",
              "drawn digits stand in for Colour MNIST; the task's concepts are our choice"),
        Claim("TRE", "tre/07_tre_dynamics", _ANDREAS,
              "Sec. 4: TRE goes with the information I(θ; X) over training, all snapshots",
              dynamics.PAPER["r(TRE, I(theta; X)), all runs"], "r", _tre_dynamics("all"),
              CORRELATION, "tre_dynamics",
              "ours: the mean per-unit entropy (the joint estimate is at its ceiling)"),
        Claim("TRE", "tre/07_tre_dynamics", _ANDREAS,
              "Sec. 4: TRE falls with information in the compression phase",
              dynamics.PAPER["r(TRE, I(theta; X)), compression phase"], "r",
              _tre_dynamics("compression"), CORRELATION, "tre_dynamics",
              "ours: the mean per-unit entropy, in the paper's 2,000 steps, whose compression "
              "phase lasts only a few snapshots"),
        Claim("TRE", "tre/07_tre_dynamics", _ANDREAS,
              "Sec. 4: the same, in runs trained twice as long (well into the compression phase)",
              dynamics.PAPER["r(TRE, I(theta; X)), compression phase"], "r",
              _tre_dynamics("compression", long=True), CORRELATION, "tre_dynamics",
              "ours: the mean per-unit entropy, 8 runs of 4,260 steps"),
        Claim("TRE", "tre/08_tre_judgments", _ANDREAS,
              "Sec. 5: TRE of noun compounds' word vectors against human compositionality ratings",
              -0.34, "ρ", _none, STAND_IN, "",
              "a generated corpus with planted compositionality stands in for Gigaword and the ratings; "
              "the chapter computes its correlation live"),
        Claim("TRE", "tre/10_tre_generalisation", _ANDREAS,
              "Sec. 7: more compositional languages (lower TRE) generalise better: r(TRE, gap)",
              generalisation.PAPER["r(TRE, generalisation gap)"], "r", _tre_generalisation("gap"),
              CORRELATION, "tre_generalisation"),
        Claim("TRE", "tre/10_tre_generalisation", _ANDREAS,
              "Sec. 7: r(TRE, held-out error) over the reference games",
              generalisation.PAPER["r(TRE, absolute reward)"], "r", _tre_generalisation("error"),
              CORRELATION, "tre_generalisation", "the paper's 'absolute performance'"),
        Claim("TRE", "tre/10_tre_generalisation", _ANDREAS,
              "Sec. 7: r(TRE, gap), TRE measured with the released code's protocol",
              generalisation.PAPER["r(TRE, generalisation gap)"], "r",
              _tre_protocol("release (L1)", "gap"), CORRELATION, "tre_generalisation",
              "RMSprop at a constant rate, unconverged, as the release fits it"),
        Claim("TRE", "tre/10_tre_generalisation", _ANDREAS,
              "Sec. 7: r(TRE, held-out error), TRE measured with the released code's protocol",
              generalisation.PAPER["r(TRE, absolute reward)"], "r",
              _tre_protocol("release (L1)", "error"), CORRELATION, "tre_generalisation",
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


def _pcfgset_claims() -> list[Claim]:
    claims = []
    for test, published in pcfgset_experiments.PAPER.items():
        for network in pcfgset_experiments.ARCHITECTURE_NAMES:
            claims.append(Claim(
                "PCFG SET", "pcfgset/12_pcfgset_tests", "hupkes2020compositionality",
                f"{_PCFGSET_TESTS.get(test, test.replace('_', ' '))}: {network}",
                published[network], "%", _pcfgset(test, network), experiment="pcfgset"))
    return claims


def _orchard_claims() -> list[Claim]:
    claims = []
    for model, per_variant in orchard_experiments.PAPER["first_tree_depth12_hard"].items():
        for variant, published in per_variant.items():
            claims.append(Claim(
                "ORCHARD", "orchard/14_orchard", "pung2021orchard",
                f"{'LSTM' if model == 'lstm' else 'Transformer'} on {variant.replace('_', ' ')}: "
                f"first tree at depth 12 (trained on depths 3-6)", published, "%",
                _orchard(model, variant), experiment="orchard"))
    for variant in orchard_experiments.PAPER["first_tree_depth12_hard"]["transformer"]:
        claims.append(Claim(
            "ORCHARD", "orchard/14_orchard", "pung2021orchard",
            f"Transformer on {variant.replace('_', ' ')}: no better than chance on the second "
            f"tree at depth 12 (the references between the trees)",
            orchard_experiments.PAPER["chance"], "%", _orchard("transformer", variant, "second"),
            experiment="orchard"))
    return claims


def _dbca_claims() -> list[Claim]:
    names = {"lstm_attention": "LSTM + attention", "transformer": "Transformer"}
    claims = []
    for network, name in names.items():
        claims.append(Claim(
            "DBCA", "dbca/15_dbca", "keysers2020measuring",
            f"SCAN's MCD splits (maximum compound divergence) defeat the {name}",
            dbca_experiments.PAPER["mcd"][network], "%", _dbca("mcd", network), experiment="dbca"))
        claims.append(Claim(
            "DBCA", "dbca/15_dbca", "keysers2020measuring",
            f"the {name} solves a random split (ours: the dial at D_C 0)",
            dbca_experiments.PAPER["random"][network], "%", _dbca("random", network),
            experiment="dbca"))
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


def table(claims: list[Claim] | None = None):
    """The claims as a DataFrame, a row each: part, paper, claim, published, ours, runs (committed
    of planned), whether the networks behind ours fitted their training data (None: not
    recorded) and the profile read, verdict (with ", partial" when fewer runs are committed than
    planned), rule."""
    import pandas as pd

    rows = []
    for claim in CLAIMS if claims is None else claims:
        ours = claim.ours()
        verdict = claim.verdict(ours)
        if ours is not None and not ours.complete and verdict != "stand-in":
            verdict += ", partial"
        rows.append({"part": claim.part, "paper": claim.citation, "claim": claim.claim,
                     "unit": claim.unit, "published": claim.published,
                     "ours": None if ours is None else ours.value,
                     "runs": "" if ours is None else f"{ours.runs} of {ours.planned}",
                     "fitted": None if ours is None else ours.fitted,
                     "profile": None if ours is None else ours.profile,
                     "verdict": verdict, "rule": claim.rule.describe(), "note": claim.note,
                     "chapter": claim.chapter, "experiment": claim.experiment})
    return pd.DataFrame(rows)


def _number(value: float | None, unit: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if unit == "%":
        # two decimals where one would hide the number (0.08%) or round it up to 100.0%
        return f"{value:.2f}%" if abs(value) < 1 or 99.95 <= value < 100 else f"{value:.1f}%"
    # no-break spaces and a true minus sign: "r = −0.51" stays on one line in a narrow column
    return f"{unit}\u00a0=\u00a0{value:.2f}".replace("-", "\u2212")


def formatted(frame=None, part: str | None = None):
    """:func:`table` for reading: a row per claim, the numbers as text with their units ("99.7%",
    "r = 0.50", "—" for none). All parts, indexed by part (with its paper) and the claim's number
    in the part; or, given ``part``, that part's claims numbered from 1."""
    frame = table() if frame is None else frame
    if part is not None:
        if part not in set(frame["part"]):
            raise ValueError(f"no claims for part {part!r}; the parts are "
                             f"{', '.join(dict.fromkeys(frame['part']))}")
        frame = frame[frame["part"] == part]
    parts = [f"{name}: {CITATIONS.get(key, key)}" for name, key in zip(frame["part"], frame["paper"])]
    shown = frame.assign(
        part=parts, number=frame.groupby("part").cumcount() + 1,
        published=[_number(v, u) for v, u in zip(frame["published"], frame["unit"])],
        ours=[_number(None if v is None else float(v), u) for v, u in zip(frame["ours"], frame["unit"])],
        runs=frame["runs"].replace("", "—").str.replace(" of ", "/", regex=False))
    columns = ["claim", "published", "ours", "runs", "verdict"]
    if part is not None:
        return shown.set_index("number")[columns].rename_axis(None)
    return shown.set_index(["part", "number"])[columns]


def summary(frame=None):
    """How many claims of each part got each verdict (``", partial"`` folded in), a row a part."""
    import pandas as pd

    frame = table() if frame is None else frame
    verdicts = frame["verdict"].str.replace(", partial", "", regex=False)
    counts = pd.crosstab(pd.Categorical(frame["part"], categories=list(dict.fromkeys(frame["part"]))),
                         pd.Categorical(verdicts, categories=list(VERDICTS)), dropna=False)
    counts.index.name, counts.columns.name = "part", "verdict"
    counts.loc["all parts"] = counts.sum()
    return counts


def coverage(claims: list[Claim] | None = None):
    """For each experiment the claims read: the full-profile runs committed, the runs the profile
    plans, and the command that runs (or completes) it, a row an experiment."""
    import pandas as pd

    from tutorlib import results

    rows = []
    names = dict.fromkeys(c.experiment for c in (CLAIMS if claims is None else claims) if c.experiment)
    for name in names:
        spec = results.experiment(name)
        settings = profiles.settings(name, "full")
        committed = results.committed(name, "full")
        rows.append({"experiment": name,
                     "committed runs": len(committed["data"].get("runs", [])) if committed else 0,
                     "planned runs": len(spec.runs(settings)),
                     "command": f"python -m tutorlib run {name} --profile full"})
    return pd.DataFrame(rows).set_index("experiment")


__all__ = ["ACCURACY", "CITATIONS", "CLAIMS", "CORRELATION", "Claim", "Ours", "Rule", "STAND_IN",
           "VERDICTS", "coverage", "formatted", "same_sign", "summary", "table", "within"]
