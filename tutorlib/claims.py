"""The claims page: every published number the book tests, ours beside it, and a verdict.

Each part's claims live beside the part (``tutorlib.scan.claims``, ``tutorlib.tre.claims``,
``tutorlib.pcfgset.claims``, ``tutorlib.orchard.claims``, ``tutorlib.dbca.claims``); the verdict
engine (:class:`Claim`, :class:`Ours`, :class:`Rule` and the rules) is :mod:`tutorlib.verdicts`,
whose docstring states every verdict. This module gathers the claims (:data:`CLAIMS`) and makes
the page's tables: :func:`table`, :func:`formatted`, :func:`summary`, :func:`tested_counts` and
:func:`coverage` (numbers and tables: the page writes the sentences). The engine's names are
re-exported here, so ``claims.Claim`` and ``claims.within`` read as before.

Examples
--------
>>> within(5).verdict(99.7, 99.9), within(5).verdict(90.0, 79.6, low=70.0, high=86.0)
('reproduced', 'partly')
"""

from __future__ import annotations

import math

from tutorlib import profiles
from tutorlib.dbca.claims import claims as dbca_claims
from tutorlib.orchard.claims import claims as orchard_claims
from tutorlib.pcfgset.claims import claims as pcfgset_claims
from tutorlib.scan.claims import claims as scan_claims
from tutorlib.tre.claims import claims as tre_claims
from tutorlib.verdicts import (
    ACCURACY,
    CORRELATION,
    EFFECT,
    FIT_THRESHOLD,
    MIN_POINTS,
    MIN_RUNS,
    NOT_MEASURED,
    ORDER,
    REDUCED,
    RELATIVE_BELOW,
    RELEASED_COLUMN,
    RELEASED_VERDICT_COLUMN,
    UNRESOLVED,
    UNTESTED,
    VERDICTS,
    Claim,
    Ours,
    Rule,
    close_to,
    order_reading,
    planned_seeds,
    same_sign,
    stand_in,
    within,
)

# ---------------------------------------------------------------------------------------------
# The claims


#: The papers, as the table names them (keys of book/references.bib).
CITATIONS = {
    "lake2018generalization": "Lake & Baroni (2018)",
    "andreas2019measuring": "Andreas (2019)",
    "hupkes2020compositionality": "Hupkes et al. (2020)",
    "pung2021orchard": "Pung & Chan (2021)",
    "keysers2020measuring": "Keysers et al. (2020)",
}

#: Every claim the book checks, in the book's order: each part's claims live beside the part
#: (``tutorlib.<part>.claims``) and change with its code.
CLAIMS: list[Claim] = [*scan_claims(), *tre_claims(), *pcfgset_claims(), *orchard_claims(),
                       *dbca_claims()]


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
                     "left out": 0 if ours is None else ours.dropped,
                     "setting": "" if ours is None else ours.setting,
                     "fit": None if ours is None else ours.fit,
                     "fitted": None if ours is None else ours.fitted,
                     "profile": None if ours is None else ours.profile,
                     "verdict": verdict, "rule": claim.rule.describe(), "note": claim.note,
                     "why untested": (claim.why_untested() if claim.why_untested is not None
                                      and verdict.startswith(UNTESTED) else ""),
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
        # an interval of no width: every run gave the same value (a share of a few items)
        shown += (" [every run the same]" if low == high == value
                  else f" [{_bound(low, unit)}, {_bound(high, unit)}]")
    return shown


def _runs(row) -> str:
    """Runs read of runs planned, and how many committed runs the fit gate left out."""
    if not row["runs"]:
        return "—"
    left_out = int(row.get("left out", 0) or 0)
    return row["runs"].replace(" of ", "/") + (f" ({left_out} unfit left out)" if left_out else "")


def _profile(row) -> str:
    """The profile read, with how its setting differs from the paper's where it does."""
    if _missing(row.get("profile")):
        return "—"
    return row["profile"] + (f" ({row['setting']})" if row.get("setting") else "")


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


def _of_part(frame, part: str | None):
    """The rows of ``part`` (all without one), or an error naming the parts."""
    if part is None:
        return frame
    if part not in set(frame["part"]):
        raise ValueError(f"no claims for part {part!r}; the parts are "
                         f"{', '.join(dict.fromkeys(frame['part']))}")
    return frame[frame["part"] == part]


def formatted(frame=None, part: str | None = None):
    """:func:`table` for reading: a row per claim, the numbers as text with their units ("99.7%",
    "r = 0.50", "—" for none), ours with its 95% interval in brackets, the fit as a share. All
    parts, indexed by part (with its paper) and the claim's number in the part; or, given
    ``part``, that part's claims numbered from 1."""
    frame = _of_part(_claims_frame(frame, "formatted"), part)
    parts = [f"{name}: {CITATIONS.get(key, key)}" for name, key in zip(frame["part"], frame["paper"])]
    rows = frame.to_dict("records")
    shown = frame.assign(
        part=parts, number=frame.groupby("part").cumcount() + 1,
        published=[_published(r) for r in rows], ours=[_ours(r) for r in rows],
        fit=["—" if _missing(r["fit"]) else f"{r['fit']:.2f}" for r in rows],
        runs=[_runs(r) for r in rows], profile=[_profile(r) for r in rows])
    columns = ["claim", "published", "ours", "fit", "runs", "profile", "verdict"]
    if part is not None:
        if "released verdict" in frame and frame["released verdict"].astype(bool).any():
            # the paper's own networks scored by us, beside ours: a check of our scorers
            shown = shown.assign(**{RELEASED_COLUMN: [_released_shown(r) for r in rows],
                                    RELEASED_VERDICT_COLUMN: frame["released verdict"]})
            columns = ["claim", "published", RELEASED_COLUMN, RELEASED_VERDICT_COLUMN, "ours",
                       "fit", "runs", "profile", "verdict"]
        return shown.set_index("number")[columns].rename_axis(None)
    return shown.set_index(["part", "number"])[columns]


def untested_reasons(frame=None, part: str | None = None):
    """The claims that are untested because their networks did not fit, with why, where the
    claim knows from committed measurements.

    Parameters
    ----------
    frame : pandas.DataFrame, optional
        From :func:`table`; default: the claims page's table.
    part : str, optional
        One part (``"ORCHARD"``); its claims are numbered as :func:`formatted` numbers them.

    Returns
    -------
    pandas.DataFrame
        Columns ``claim`` and ``why`` ("—" where the claim does not say), indexed by the
        claim's number in its part.
    """
    frame = _of_part(_claims_frame(frame, "untested_reasons"), part)
    numbered = frame.assign(number=frame.groupby("part").cumcount() + 1)
    untested = numbered[numbered["verdict"].str.startswith(UNTESTED)]
    return (untested.assign(why=untested["why untested"].replace("", "—"))
            .set_index("number")[["claim", "why"]].rename_axis(None))


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


def tested_counts(frame=None):
    """How many claims each part tests, from the verdicts: a row a part, with its claims, those
    tested on networks of ours that learned their task, those shown with a stand-in, and, where
    the table has them, the paper's own released networks' verdicts (reproduced, of those
    judged); a last row ``all``."""
    import pandas as pd

    frame = _claims_frame(frame, "tested_counts")
    verdicts = frame["verdict"].str.replace(", partial", "", regex=False)
    judged = ["reproduced", "partly", "not reproduced"]
    counts = pd.DataFrame({"claims": 1, "tested on our networks": verdicts.isin(judged),
                           "with a stand-in": verdicts.str.startswith("stand-in"),
                           "part": frame["part"]})
    if "released verdict" in frame:  # the table's column (``formatted`` renames it)
        theirs = frame["released verdict"].fillna("").str.replace(", partial", "", regex=False)
        counts["judged on the released networks"] = theirs.isin(judged)
        counts["reproduced by the released networks"] = theirs == "reproduced"
    table = counts.groupby("part", sort=False).sum().astype(int)
    table.loc["all"] = table.sum()
    return table


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


__all__ = ["ACCURACY", "CITATIONS", "CLAIMS", "CORRELATION", "EFFECT", "FIT_THRESHOLD",
           "MIN_POINTS", "MIN_RUNS", "NOT_MEASURED", "ORDER", "REDUCED", "RELATIVE_BELOW",
           "RELEASED_COLUMN", "RELEASED_VERDICT_COLUMN", "UNRESOLVED", "UNTESTED", "VERDICTS",
           "Claim", "Ours", "Rule", "close_to", "coverage", "formatted", "order_reading",
           "planned_seeds", "same_sign", "stand_in", "summary", "table", "tested_counts",
           "untested_reasons", "within"]


from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals(), ["coverage", "formatted", "summary", "table", "tested_counts"])
