"""The fit gate: one definition, hand-checked at its edges, and read by every part."""

import pytest

from tutorlib import fit


def test_the_gate_at_its_edges():
    # training at least 0.9
    assert fit.passes(0.9, None) and not fit.passes(0.899, None)
    # in distribution: the paper's own accuracy minus 5 points (LSTMS2S on PCFG SET: 0.79)
    assert fit.passes(0.95, 0.74, paper=0.79) and not fit.passes(0.95, 0.739, paper=0.79)
    # or 0.9 where the paper gives none
    assert fit.passes(0.95, 0.9) and not fit.passes(0.95, 0.89)
    # the paper's own LSTMS2S (0.79 on the test set) passes its own bar; a bar of 0.9 would not
    assert fit.passes(1.0, 0.79, paper=0.79) and not fit.passes(1.0, 0.79)
    assert not fit.passes(None, 0.99)
    assert fit.in_distribution_bar(0.85) == pytest.approx(0.80)
    assert fit.in_distribution_bar() == fit.IN_DISTRIBUTION == 0.9


def test_the_gate_says_why():
    assert fit.reason(0.5, 0.9) == "training 0.50 < 0.90"
    assert fit.reason(0.95, 0.7, paper=0.79) == (
        "in distribution 0.70 < 0.74 (the paper's own minus 5 points)")
    assert fit.reason(0.95, None).endswith("in distribution not measured")


@pytest.mark.parametrize("bad", [1.5, -0.1, float("nan"), "0.9", True])
def test_an_accuracy_that_is_not_one_is_refused(bad):
    with pytest.raises(ValueError, match="must be an accuracy from 0 to 1"):
        fit.passes(bad, 0.9)
    with pytest.raises(ValueError, match="must be an accuracy from 0 to 1"):
        fit.passes(0.95, 0.95, paper=bad)


def test_every_part_reads_the_one_gate(monkeypatch):
    """PCFG SET, ORCHARD, the card and the claims decide fit through tutorlib.fit.passes."""
    from tutorlib import claims
    from tutorlib.card import contract
    from tutorlib.orchard import report as orchard_report
    from tutorlib.pcfgset import report as pcfgset_report

    calls = []

    def spy(*args, **kwargs):
        calls.append((args, kwargs))
        return True  # every network passes: only the gate could say so of these

    monkeypatch.setattr(fit, "passes", spy)
    run = {"network": "LSTMS2S", "split": "pcfgset", "train_accuracy": 0.5, "accuracy": 0.76}
    assert pcfgset_report.passes(run) is True
    assert calls[-1] == ((0.5, 0.76), {"paper": 0.79})  # the base test set is in distribution
    record = {"train": {"first": 0.3, "second": 0.2}, "valid": {"first": 0.4, "second": 0.1}}
    assert orchard_report.fits(record) is True
    assert calls[-1] == ((0.2, 0.1), {})
    assert contract.fitted({"train_accuracy": 0.5, "validation_accuracy": 0.5}) is True
    assert calls[-1] == ((0.5, 0.5), {})
    assert claims.Ours.mean_of([50.0, 60.0], 2, fit=0.1).fitted is True
    assert calls[-1] == ((0.1,), {})
    assert claims.FIT_THRESHOLD == fit.TRAINING


def test_live_fit_rows_and_their_table():
    from tutorlib import fit

    row = fit.live_fit("GRU on SCAN simple", 0.95, 0.93, paper=0.998, seconds=12.345)
    assert row == {"network": "GRU on SCAN simple", "training": 0.95, "in_distribution": 0.93,
                   "bar": 0.948, "passes": False, "reason": row["reason"], "train_seconds": 12.3}
    assert "0.93 < 0.95" in row["reason"]
    assert fit.live_fit("x", 0.95)["passes"] is True
    with pytest.raises(ValueError, match="network"):
        fit.live_fit("", 0.9)
    with pytest.raises(ValueError, match="training"):
        fit.live_fit("x", 1.5)
    with pytest.raises(ValueError, match="seconds"):
        fit.live_fit("x", 0.9, seconds=-1)
    with pytest.raises(ValueError, match="non-empty list"):
        fit.show_live_fits([])
