"""The claims the book checks for Andreas (2019), Tree Reconstruction Error: each published number,
the reader that computes ours from the committed results, and the rule (the engine:
:mod:`tutorlib.verdicts`; the claims page: :mod:`tutorlib.claims`)."""

from __future__ import annotations

from collections.abc import Callable

from tutorlib import profiles
from tutorlib.tre import dynamics, generalisation, judgments
from tutorlib.verdicts import (
    CORRELATION,
    Claim,
    Ours,
    planned_seeds,
    same_sign,
    stand_in,
    within,
)


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
            return Ours.mean_of(values, planned_seeds("tre_dynamics"))
        short = float(data["pooled correlations"]["info_unit"][quantity])
        if quantity != "compression":
            return Ours(short, runs, planned_seeds("tre_dynamics"))
        long = dynamics.committed_results("full", long=True)
        if long is None or not long["data"]["runs"]:
            return Ours(short, runs, planned_seeds("tre_dynamics"))
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
            # as the claims page shows a correlation, with a true minus sign
            text = (f"r\u00a0=\u00a0{ours.value:.2f} [{ours.low:.2f}, {ours.high:.2f}] "
                    f"({text})").replace("-", "\u2212")
        return Ours(**{**ours.__dict__, "text": text})
    return read


def _tre_judgments() -> Ours | None:
    rhos = judgments.committed_rhos("full")
    if not rhos:
        return None
    return Ours.mean_of(rhos, planned_seeds("tre_judgments", "corpus_seeds"))


_ANDREAS = "andreas2019measuring"


def claims() -> list[Claim]:
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


__all__ = ["claims"]
