"""tutorlib.orchard.report: the claims, the fit in words and the facts of the ORCHARD chapter,
on hand-made tables whose answers are known."""

import numpy as np
import pandas as pd
import pytest

from tutorlib.orchard import report


def _table(values: dict) -> pd.DataFrame:
    """A by-depth table from {(variant, model, tree, depth): accuracy (%)}."""
    return pd.DataFrame([{"variant": v, "model": m, "seed": 0, "tree": t, "depth": d,
                          "accuracy (%)": a} for (v, m, t, d), a in values.items()])


def _run(variant, model, fit=1.0, second=None, seed=0, by_depth=None):
    """A run record: ``fit`` on every tree and part, or ``second`` on the second tree."""
    scores = {"first": fit, "second": fit if second is None else second}
    return {"variant": variant, "model": model, "seed": seed, "train": dict(scores),
            "valid": dict(scores), "by_depth": by_depth or {}, "parameters": 1000}


def test_claims_read_the_table_at_the_edge_and_at_depth():
    values = {}
    for model, (edge, deep) in {"lstm": (80.0, 60.0), "transformer": (70.0, 75.0)}.items():
        for variant in ("minmax_hard", "firstlast_hard"):
            for tree in ("first", "second", "both"):
                values[(variant, model, tree, 6)] = edge
                values[(variant, model, tree, 12)] = deep
    table = _table(values)
    fitted = [_run(v, m) for v in ("minmax_hard", "firstlast_hard") for m in ("lstm", "transformer")]
    assert report.mean_accuracy(table, model="lstm", tree="both", depth=12) == 60.0
    assert np.isnan(report.mean_accuracy(table, model="lstm", tree="both", depth=9))
    column = report.claim_column(table, 12, fitted)
    assert len(column) == len(report.CLAIMS)
    falls, first, chance, second, inside, pairs, copy = column
    assert falls == "LSTM falls, Transformer does not fall (both trees, depth 6 to 12)"
    assert first == "60.0% vs 75.0% (mean of the hard variants, depth 12)"
    assert chance == "75.0% on the second tree at depth 12"
    assert second == "67.5% (both models, second tree, depth 12)"
    assert inside == "Transformer 70.0% vs LSTM 80.0% (both trees, depths 3-6, medium and hard)"
    assert pairs == ("LSTM 60.0% vs 60.0%, Transformer 75.0% vs 75.0% (MIN-MAX vs "
                     "FIRST-LAST)")
    assert copy == "needs the LSTM on all three MIN-MAX variants"
    # the same numbers from networks that did not fit are untested, with the fit named
    unfit = [_run(v, m, second=0.5 if m == "transformer" else 1.0)
             for v in ("minmax_hard", "firstlast_hard") for m in ("lstm", "transformer")]
    gated = report.claim_column(table, 12, unfit)
    # a first-tree claim is tested on the first tree's fit: here both networks learned it
    assert gated[1] == first
    assert gated[2] == ("untested, did not fit on the second tree (lowest in-distribution "
                        "accuracy: Transformer 50%); ours: 75.0% on the second tree at depth 12")
    assert gated[3].startswith("untested, did not fit (")  # both trees' claims: both trees' fit
    assert gated[6] == copy  # the LSTM fits: COPY not gated
    with_depths = [_run(r["variant"], r["model"], by_depth={
        str(d): {tree: values[(r["variant"], r["model"], tree, d)] / 100 for tree in report.TREES}
        | {"n": 10} for d in (6, 12)}) for r in fitted]
    claims = report.claims_table(table, 12, fitted, "ci", committed={"full": with_depths},
                                 planned_runs={"full": 36})
    assert list(claims.columns) == ["published", "this run (ci)", "full profile (4 of 36 runs)"]
    assert list(claims.iloc[:, 1]) == column  # the committed runs read as the page's own
    # a page that trains no network: the committed profiles' columns only
    committed_only = report.claims_table(None, None, None, None, committed={"full": with_depths},
                                         planned_runs={"full": 36})
    assert list(committed_only.columns) == ["published", "full profile (4 of 36 runs)"]
    assert list(committed_only.iloc[:, 1]) == column


def test_a_run_fits_when_both_trees_fit_on_training_and_validation():
    assert report.fits(_run("minmax_hard", "lstm", 0.9)) and report.run_fit(_run("a", "lstm", 0.95)) == 0.95
    assert not report.fits(_run("minmax_hard", "lstm", 1.0, second=0.89))
    # one tree's fit for a claim about that tree
    assert report.fits(_run("minmax_hard", "lstm", 1.0, second=0.89), "first")
    assert not report.fits(_run("minmax_hard", "lstm", 1.0, second=0.89), "second")
    with pytest.raises(ValueError, match="tree must be 'first', 'second' or 'both'"):
        report.fits(_run("minmax_hard", "lstm", 1.0), "third")
    no_validation = {"train": {"first": 1.0, "second": 1.0}}
    assert report.run_fit(no_validation) == 1.0 and not report.fits(no_validation)
    runs = [_run("minmax_hard", "lstm", 1.0, seed=0), _run("minmax_hard", "lstm", 0.6, seed=1),
            _run("minmax_easy", "transformer", 0.95)]
    assert report.fit_gate(runs, ["transformer"], ["minmax_easy"]) is None
    assert report.fit_gate(runs, ["lstm", "transformer"], ["minmax_hard", "minmax_easy"]) == (
        "untested, did not fit (lowest in-distribution accuracy: LSTM 60%)")
    table = report.fit_table({"gpu": runs})
    row = table.loc[("gpu", "minmax_hard", "lstm")]
    assert row["runs"] == 2 and row["fitted"] == "1 of 2" and row["lowest fit (%)"] == 60.0
    assert row["validation, second (%)"] == pytest.approx(80.0)


def test_claims_are_read_from_the_profile_that_fits_best():
    deep = {"12": {"first": 0.7, "second": 0.2, "both": 0.1, "n": 10}}
    by_profile = {"gpu": [_run("minmax_hard", "lstm", 0.95, by_depth=deep)],
                  "full": [_run("minmax_hard", "lstm", 0.5, by_depth=deep, seed=s)
                           for s in range(3)]}
    assert report.best_profile("lstm", "minmax_hard", by_profile)[0] == "gpu"
    assert report.best_profile("transformer", "minmax_hard", by_profile) is None
    reading = report.claim_reading("lstm", "minmax_hard", "second", by_profile=by_profile)
    assert reading == {"value": pytest.approx(20.0), "values": [pytest.approx(20.0)], "runs": 1,
                       "fitted": True, "fit": pytest.approx(0.95), "profile": "gpu",
                       "reduced": False, "trained_for": True}
    # over several depths: each run's mean over them
    deeper = {**deep, "11": {"first": 0.9, "second": 0.4, "both": 0.3, "n": 10}}
    two = {"gpu": [_run("minmax_hard", "lstm", 0.95, by_depth=deeper, seed=s) for s in range(2)]}
    assert report.claim_reading("lstm", "minmax_hard", "second", depth=(11, 12),
                                by_profile=two)["values"] == [pytest.approx(30.0)] * 2
    worse = {"gpu": [_run("minmax_hard", "lstm", 0.3, by_depth=deep)], "full": by_profile["full"]}
    assert report.claim_reading("lstm", "minmax_hard", "first", by_profile=worse)["profile"] == "full"
    assert report.claim_reading("lstm", "minmax_hard", "first", by_profile=worse)["fitted"] is False


def test_fitted_networks_by_depth_and_the_fit_column_of_the_figure():
    deep = {str(d): {"first": 0.9 - d / 100, "second": 0.5, "both": 0.4, "n": 10}
            for d in (6, 12)}
    runs = [_run("minmax_easy", "lstm", 1.0, by_depth=deep),
            _run("minmax_easy", "transformer", 0.5, by_depth=deep)]
    table = report.fitted_by_depth({"gpu": runs})
    assert list(table.index) == [("gpu", "minmax_easy", "lstm")]  # the Transformer did not fit
    assert table.loc[("gpu", "minmax_easy", "lstm"), "first, depth 12 (%)"] == pytest.approx(78.0)
    # a profile whose runs of a variant do not all fit adds nothing
    assert report.fitted_by_depth({"full": [runs[0], {**runs[0], "seed": 1,
                                                       "valid": {"first": 0.5, "second": 0.5}}]}).empty
    import matplotlib
    matplotlib.use("Agg")
    from tutorlib.orchard.experiments import by_depth_table
    fig = report.plot_by_depth(by_depth_table(runs), "t", records=runs)
    assert len(fig.axes) == 4 and fig.axes[3].get_title() == "minmax_easy: fit (depths 3-6)"
    assert len(report.plot_by_depth(by_depth_table(runs), "t").axes) == 3


def test_copy_makes_the_variants_harder_in_the_papers_order_or_says_not():
    def table(easy, medium, hard):
        return _table({(f"minmax_{name}", "lstm", "second", 6): value
                       for name, value in (("easy", easy), ("medium", medium), ("hard", hard))})
    assert report.copy_verdict(table(90, 50, 10)) == (
        "LSTM, second tree at depth 6: easy 90.0% > medium 50.0% > hard 10.0%")
    assert report.copy_verdict(table(50, 90, 10)).endswith("(not in that order)")
    assert report.copy_verdict(_table({("minmax_hard", "lstm", "second", 6): 5.0})) == (
        "needs the LSTM on all three MIN-MAX variants")


def _records(train: dict, valid: dict) -> list[dict]:
    return [{"model": m, "train": {"first": train[m] / 100}, "valid": {"first": valid[m] / 100},
             "parameters": 1000} for m in ("lstm", "transformer")]


def test_the_fit_in_words():
    good = report.fit_verdict(_records({"lstm": 96, "transformer": 93},
                                       {"lstm": 95, "transformer": 91}))
    assert good.startswith("On the first tree, the LSTM has learned it (it passes the fit gate) "
                           "and the Transformer has learned it (it passes the fit gate).")
    assert "Neither does much worse" in good and "generalisation from what each" in good
    # 80% on its own inputs is not learned, whatever "well" would have said: the gate decides
    short = report.fit_verdict(_records({"lstm": 82, "transformer": 96},
                                        {"lstm": 81.5, "transformer": 95}))
    assert "the LSTM has learned part of it, above chance but short of the fit gate " \
           "(training 0.82 < 0.90)" in short
    assert "generalisation from what each" not in short and "no evidence either way" in short
    poor = report.fit_verdict(_records({"lstm": 60, "transformer": 20},
                                       {"lstm": 40, "transformer": 12}))
    assert "the LSTM has learned part of it" in poor and "the Transformer has not learned it" in poor
    assert "The LSTM does at least ten points better" in poor  # 60 against 40
    assert "is no evidence either way" in poor


def test_setting_facts_are_shares_of_the_papers_setting():
    from tutorlib import profiles

    settings = profiles.settings("orchard", "ci")
    records = [{"model": "lstm", "parameters": 86_700}, {"model": "transformer", "parameters": 0}]
    found = report.setting_facts(settings, records)
    paper = report.PAPER["training"]
    assert found["lstm_share"] == f"{100 * 86_700 / paper['lstm_parameters']:.1f}"
    with pytest.raises(ValueError, match="no run of the transformer among the 1 records"):
        report.setting_facts(settings, [{"model": "lstm", "parameters": 1}])


def test_a_reduced_run_is_gated_on_the_trees_it_was_trained_to_fit():
    """The full profile's runs train on depths 3-4 to fit the first tree: they fit on it, the
    fit table and summary say so, and a claim read from them is a reduced task's."""
    deep = {"12": {"first": 0.6, "second": 0.1, "both": 0.05, "n": 10}}
    shallow = [{**_run("minmax_hard", "lstm", 0.95, second=0.4, seed=s, by_depth=deep),
                "train_depths": [3, 4], "stop_tree": "first"} for s in range(3)]
    assert report.gate_tree(shallow[0]) == "first" and report.gate_tree(_run("a", "lstm")) == "both"
    assert report.train_depths(shallow[0]) == (3, 4) and report.reduced(shallow)
    assert not report.reduced([_run("minmax_hard", "lstm")])
    row = report.fit_table({"full": shallow}).loc[("full", "minmax_hard", "lstm")]
    assert row["fitted"] == "3 of 3" and row["gate on"] == "first"
    assert row["training depths"] == "3-4" and row["lowest fit (%)"] == pytest.approx(95.0)
    assert report.fit_summary(shallow) == ("the LSTM fits its first tree on minmax_hard; the "
                                           "Transformer has no run")
    reading = report.claim_reading("lstm", "minmax_hard", "first", by_profile={"full": shallow})
    assert reading["fitted"] and reading["reduced"] and reading["value"] == pytest.approx(60.0)
    # its second tree is not what it was trained to fit: a claim on it stays untested, and
    # is read from a profile whose runs were trained to fit it where one has runs
    second = report.claim_reading("lstm", "minmax_hard", "second", by_profile={"full": shallow})
    assert not second["fitted"] and not second["trained_for"]
    assert not report.trained_for(shallow, "both") and report.trained_for(shallow, "first")
    gpu = [_run("minmax_hard", "lstm", 0.95, second=0.5, by_depth=deep)]
    both = {"full": shallow, "gpu": gpu}
    assert report.best_profile("lstm", "minmax_hard", both, "second")[0] == "gpu"
    assert report.best_profile("lstm", "minmax_hard", both, "first")[0] == "full"
    # a level is read from the paper's task where its runs fit, however few they are
    assert report.best_profile("lstm", "minmax_hard", both, "first", level=True)[0] == "gpu"
    assert report.claim_reading("lstm", "minmax_hard", "first", by_profile=both,
                                level=True)["reduced"] is False
    from tutorlib import profiles
    facts = report.full_facts(profiles.settings("orchard", "full"),
                              [{**r, "train_seconds": 120.0 + 60 * r["seed"]} for r in shallow])
    assert facts["full_runs"] == "3 of 12" and facts["full_fitted"] == "3 of 3"
    assert facts["full_lstm_minutes"] == "2 to 4"
    assert facts["full_transformer_minutes"] == "no run yet"


def test_the_fit_summary_names_the_variants_each_model_fits():
    runs = [_run("minmax_easy", "lstm", 1.0), _run("minmax_hard", "lstm", 1.0, seed=0),
            _run("minmax_hard", "lstm", 0.5, seed=1), _run("minmax_easy", "transformer", 0.5)]
    assert report.fit_summary(runs) == ("the LSTM fits on minmax_easy (and in some runs on "
                                        "minmax_hard); the Transformer fits on no variant")
    assert report.fit_summary(runs[1:3]) == ("the LSTM fits only in some runs, on minmax_hard; "
                                             "the Transformer has no run")


def test_the_gpu_facts_read_the_committed_sweeps_or_give_dashes(monkeypatch, tmp_path):
    from tutorlib import profiles
    gpu = profiles.settings("orchard", "gpu")
    facts = report.gpu_facts(report.committed_by_profile(), gpu)
    sweeps = report.gpu_sweeps()
    if sweeps:  # the committed record of the sweeps, read as it is
        assert facts["gpu_oom"] == str(sweeps["sweep_1"]["failed_runs"])
        assert facts["gpu_transformer_epoch1"].count("%") == 6  # one range per variant
    assert facts["gpu_lstm_parameters"] == "5.0M" and facts["gpu_transformer_parameters"] == "7.9M"
    assert facts["gpu_budget"] == "330"
    records = report.committed_by_profile().get("gpu", [])
    if records:  # the range of epochs the shared GPU gave the committed runs
        low = min(r["epochs"] for r in records)
        assert facts["gpu_epochs"].startswith(f"{low:.1f} to ")
    # results read from a folder with nothing in it: every fact still has a value
    monkeypatch.setenv("TUTORLIB_RESULTS_DIR", str(tmp_path))
    assert report.gpu_sweeps() == {} and report.committed_by_profile() == {}
    empty = report.gpu_facts({}, gpu)
    assert empty["gpu_runs"] == "0 of 36" and empty["gpu_oom"] == "–"
    assert empty["gpu_memory"] == "–" and empty["gpu_transformer_epoch1"] == "–"
    assert empty["fitted_networks"] == "none" and empty["fitted_first_d12"] == "–"
    assert empty["gpu_epochs"] == "–"


def test_the_cpu_pilots_their_table_and_what_they_test(monkeypatch, tmp_path):
    import json

    deep = {"12": {"first": 0.6, "second": 0.3, "both": 0.2, "n": 10}}

    def pilot(model, fit):
        record = _run("minmax_hard", model, fit, by_depth=deep)
        record.update(epochs=12.0, fit={"pairs_per_second": 150.0},
                      fit_history=[{"seconds": 60.0, "train_accuracy": 0.3,
                                    "validation_accuracy": 0.25},
                                   {"seconds": 120.0, "train_accuracy": fit,
                                    "validation_accuracy": fit}])
        return record

    monkeypatch.setenv("TUTORLIB_RESULTS_DIR", str(tmp_path))
    assert report.cpu_pilots() == {} and report.pilot_facts({})["pilot_text"].startswith("No ")
    (tmp_path / "orchard").mkdir()
    (tmp_path / "orchard" / "pilot-cpu-hour.json").write_text(json.dumps(
        {"minmax_hard/lstm": pilot("lstm", 0.95), "minmax_hard/transformer": pilot("transformer", 0.5)}))
    pilots = report.cpu_pilots()
    assert list(pilots) == ["1 hour"]
    table = report.pilot_table(pilots)
    assert list(table["model"]) == ["LSTM", "Transformer"] and list(table["fits"]) == [True, False]
    assert table.loc[0, "depth 12, second (%)"] == pytest.approx(30.0)
    text = report.pilot_facts(pilots)["pilot_text"]
    assert "only the LSTM fits, so no comparison between the models is tested" in text
    both = {"1 hour": {k: pilot(m, 0.95) for k, m in [("a", "lstm"), ("b", "transformer")]}}
    assert "both fit their training depths" in report.pilot_facts(both)["pilot_text"]
    neither = {"1 hour": {k: pilot(m, 0.4) for k, m in [("a", "lstm"), ("b", "transformer")]}}
    assert "stays untested until a GPU" in report.pilot_facts(neither)["pilot_text"]
    report.plot_pilot_curves(pilots, "pilots")


def test_time_to_fit_reads_the_first_evaluation_past_the_gate_on_both_samples():
    deep = {"12": {"first": 0.6, "second": 0.3, "both": 0.2, "n": 10}}

    def pilot(model, fit, history, budget=1200.0):
        record = _run("firstlast_easy", model, fit, by_depth=deep)
        record["train"]["both"] = record["valid"]["both"] = fit
        record.update(epochs=5.0, recipe={"max_seconds": budget, "warmup_steps": 200},
                      fit_history=[{"seconds": s, "train_accuracy": t, "validation_accuracy": v}
                                   for s, t, v in history])
        return record

    passing = pilot("lstm", 0.99, [(50.0, 0.95, 0.5), (100.0, 0.85, 0.93), (150.0, 0.92, 0.91)])
    failing = pilot("transformer", 0.6, [(600.0, 0.4, 0.45), (1200.0, 0.6, 0.62)])
    table = report.time_to_fit({"file": {"a": passing, "b": failing}})
    # 50 s: validation short; 100 s: training short; 150 s: both past 0.9
    assert list(table["passes the gate at (s)"]) == [150, "not in 1200"]
    assert list(table["fits"]) == [True, False]
    assert list(table["training depths"]) == ["3-6", "3-6"]
    assert "copy_pilot_text" in report.time_to_fit_facts(table)  # no COPY variant piloted
    assert "yet" in report.time_to_fit_facts(table)["copy_pilot_text"]
    # a newer pilot scores each tree at each evaluation and may stop on the first tree alone
    first = pilot("transformer", 0.95, [(60.0, 0.2, 0.2), (120.0, 0.3, 0.3)])
    first["variant"], first["config"] = "minmax_hard", {"stop_tree": "first",
                                                         "train_depths": [3, 4]}
    first["train"]["second"] = first["valid"]["second"] = 0.4
    first["fit_history"][0].update(train_first=0.95, valid_first=0.85, train_second=0.3,
                                   valid_second=0.3)
    first["fit_history"][1].update(train_first=0.95, valid_first=0.92, train_second=0.4,
                                   valid_second=0.4)
    shallow = report.time_to_fit({"file": {"c": first}})
    assert shallow.iloc[0]["passes the gate at (s)"] == 120
    assert shallow.iloc[0]["gate on"] == "first" and shallow.iloc[0]["training depths"] == "3-4"
    assert bool(shallow.iloc[0]["fits"])  # on the first tree, the one it stops on
    assert "No CPU pilot has fitted both trees" in report.time_to_fit_facts(shallow)["copy_pilot_text"]
    committed = report.time_to_fit()
    assert len(committed) >= 2 and set(committed["model"]) == {"LSTM", "Transformer"}


def test_an_untested_claim_names_only_the_networks_that_did_not_fit(monkeypatch):
    from tutorlib.orchard import claims as orchard_claims

    def run(model, second):
        return {"variant": "firstlast_hard", "model": model, "train": {"first": 1.0, "second": second},
                "valid": {"first": 1.0, "second": second}}

    committed = {"gpu": [run("lstm", 0.95), run("transformer", 0.35)]}
    monkeypatch.setattr(report, "committed_by_profile", lambda: committed)
    monkeypatch.setattr(report, "_all_pilots", lambda: [])
    assert report.fits_committed("both", "lstm", "firstlast_hard")
    assert not report.fits_committed("both", "transformer", "firstlast_hard")
    why = orchard_claims._why("both", [("transformer", "firstlast_hard"),
                                       ("lstm", "firstlast_hard")])()
    assert why == ("its committed runs did not fit both trees: Transformer firstlast hard "
                   "(gpu profile, lowest 35.0%)")
