"""tutorlib.orchard.report: each run's fit, the profile a claim is read from, the figure of the
runs that fit and the pilots, on hand-made records whose answers are known."""

import pytest

from tutorlib.orchard import report


def _run(variant, model, fit=1.0, second=None, seed=0, by_depth=None):
    """A run record: ``fit`` on every tree and part, or ``second`` on the second tree."""
    scores = {"first": fit, "second": fit if second is None else second}
    return {"variant": variant, "model": model, "seed": seed, "train": dict(scores),
            "valid": dict(scores), "by_depth": by_depth or {}, "parameters": 1000}


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
                       "reduced": False, "trained_for": True,
                       "fits": [pytest.approx(0.95)], "passed": [True]}
    # over several depths: each run's mean over them
    deeper = {**deep, "11": {"first": 0.9, "second": 0.4, "both": 0.3, "n": 10}}
    two = {"gpu": [_run("minmax_hard", "lstm", 0.95, by_depth=deeper, seed=s) for s in range(2)]}
    assert report.claim_reading("lstm", "minmax_hard", "second", depth=(11, 12),
                                by_profile=two)["values"] == [pytest.approx(30.0)] * 2
    worse = {"gpu": [_run("minmax_hard", "lstm", 0.3, by_depth=deep)], "full": by_profile["full"]}
    assert report.claim_reading("lstm", "minmax_hard", "first", by_profile=worse)["profile"] == "full"
    assert report.claim_reading("lstm", "minmax_hard", "first", by_profile=worse)["fitted"] is False


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
    assert report.cpu_pilots() == {} and report.gpu_sweeps() == {}
    assert report.committed_by_profile() == {}
    (tmp_path / "orchard").mkdir()
    (tmp_path / "orchard" / "pilot-cpu-hour.json").write_text(json.dumps(
        {"minmax_hard/lstm": pilot("lstm", 0.95), "minmax_hard/transformer": pilot("transformer", 0.5)}))
    pilots = report.cpu_pilots()
    assert list(pilots) == ["1 hour"]
    table = report.pilot_table(pilots)
    assert list(table["model"]) == ["LSTM", "Transformer"] and list(table["fits"]) == [True, False]
    assert table.loc[0, "depth 12, second (%)"] == pytest.approx(30.0)
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


def test_the_figure_draws_only_the_trees_whose_runs_all_fit():
    import matplotlib
    matplotlib.use("Agg")

    deep = {str(d): {"first": 0.9 - d / 100, "second": 0.5, "both": 0.4, "n": 10}
            for d in range(3, 13)}
    runs = [_run("minmax_easy", "lstm", 1.0, by_depth=deep),  # fits both trees
            _run("minmax_easy", "transformer", 1.0, second=0.5, by_depth=deep),  # the first only
            _run("minmax_hard", "lstm", 0.5, by_depth=deep)]  # neither
    fig = report.plot_fitted_by_depth(runs, "t")
    easy, hard = fig.axes
    assert easy.get_title() == "minmax_easy" and hard.get_title() == "minmax_hard"
    assert len(easy.get_lines()) == 1 + 3  # chance, then LSTM first and second, Transformer first
    assert [t.get_text() for t in hard.texts] == ["no model fits\neither tree"]
    assert len(hard.get_lines()) == 1  # chance only
    # a second seed that does not fit the first tree takes the Transformer's first tree away
    worse = runs + [{**_run("minmax_easy", "transformer", 0.5, by_depth=deep), "seed": 1}]
    assert len(report.plot_fitted_by_depth(worse, "t").axes[0].get_lines()) == 1 + 2
