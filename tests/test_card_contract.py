"""The report card's model contract: a user's own model in a few lines, the book's networks
through Seq2SeqModel, and clear errors for a model that does not meet it."""

import numpy as np
import pytest

from tutorlib import card
from tutorlib.seq2seq import Recipe, Seq2SeqConfig, pinned_threads

TRAIN = [("a b", "B A"), ("b c", "C B"), ("c a", "A C"), ("a", "A")]
VALIDATION = [("b", "B"), ("c", "C")]


class Memoriser:
    """A model of a user's own, in a few lines: it memorises its training pairs."""

    def fit(self, train, validation, *, seed, max_seconds, device):
        self.table = dict(train)
        right = sum(self.table.get(s) == t for s, t in validation)
        return {"train_accuracy": 1.0, "validation_accuracy": right / len(validation)}

    def predict(self, sources):
        return [self.table.get(source, "") for source in sources]


def test_a_users_own_model_is_fitted_scored_and_marked_when_it_did_not_fit():
    result = card.train_and_score(Memoriser, TRAIN, VALIDATION,
                                  {"seen": TRAIN[:2], "new": VALIDATION}, seed=0, max_seconds=1)
    assert result["scores"] == {"seen": 1.0, "new": 0.0}
    assert result["fit"] == {"train_accuracy": 1.0, "validation_accuracy": 0.0}
    assert result["fitted"] is False  # validation 0 < 0.9: its scores are not comparisons


def test_a_model_that_does_not_meet_the_contract_is_named():
    class NoPredict:
        def fit(self, *a, **k):
            return {}

    with pytest.raises(TypeError, match="NoPredict lacks predict"):
        card.train_and_score(NoPredict, TRAIN, VALIDATION, {}, seed=0, max_seconds=1)

    class BadFit(Memoriser):
        def fit(self, *a, **k):
            return {"train_accuracy": 97.0, "validation_accuracy": 0.5}  # percent, not fraction

    with pytest.raises(ValueError, match="train_accuracy as a fraction"):
        card.train_and_score(BadFit, TRAIN, VALIDATION, {}, seed=0, max_seconds=1)

    class ShortPredict(Memoriser):
        def predict(self, sources):
            return ["A"]

    with pytest.raises(ValueError, match="returned 1 predictions for 2 sources"):
        card.train_and_score(ShortPredict, TRAIN, VALIDATION, {"t": VALIDATION}, seed=0,
                             max_seconds=1)
    with pytest.raises(ValueError, match="seed"):
        card.train_and_score(Memoriser, TRAIN, VALIDATION, {}, seed=-1, max_seconds=1)


@pytest.mark.slow
def test_the_books_networks_meet_the_contract_and_learn_a_small_task():
    pairs = [(f"{x} {y}", f"{y.upper()} {x.upper()}") for x in "abcd" for y in "abcd"]
    factory = lambda: card.Seq2SeqModel(  # noqa: E731
        Seq2SeqConfig("lstm", 48, 1, 0.0, attention=True),
        Recipe(batch_size=4, learning_rate=0.01, max_epochs=15, patience=15))
    with pinned_threads(1):  # a network this small trains fastest on one thread
        result = card.train_and_score(factory, pairs[:12], pairs[:12], {"all": pairs}, seed=0,
                                      max_seconds=60)
    assert result["fit"]["train_accuracy"] >= 0.9 and result["fitted"]
    assert 0 <= result["scores"]["all"] <= 1
    model = card.Seq2SeqModel(Seq2SeqConfig("lstm", 48, 1, 0.0, attention=True),
                              Recipe(batch_size=8, max_epochs=1))
    with pinned_threads(1):
        model.fit(pairs, pairs, seed=0, max_seconds=5)
    states = model.states(["a b", "c d", "a"])
    assert states.shape == (3, 48) and np.isfinite(states).all()


def test_a_scan_task_holds_out_in_distribution_validation_and_keeps_the_test_split():
    task = card.scan_task("addprim_jump", validation_size=500, train_size=2000, test_size=300)
    assert (len(task.train), len(task.validation), len(task.tests["addprim_jump"])) == (
        2000, 500, 300)
    assert not set(task.validation) & set(task.train)  # held out, never trained on
    assert ("jump", "I_JUMP") in task.train  # the primitive the split repeats stays in training
    assert all("jump" in command for command, _ in task.tests["addprim_jump"])
    assert card.scan_task("addprim_jump", validation_size=500, train_size=2000).train == task.train


def test_the_card_table_scores_every_task_with_its_fit_and_an_interval_over_seeds():
    scan = card.Task("scan", "toy", TRAIN, VALIDATION, {"toy": TRAIN[:2] + VALIDATION})
    orchard = card.Task("orchard", "toy", [("x", "8 , 7")], [("y", "1 , 2")],
                        {"depth 3": [("x", "8 , 7"), ("z", "3 , 4")]}, scorer="orchard")
    rows = [row for seed in (0, 1, 2) for task in (scan, orchard)
            for row in card.run_task(Memoriser, task, seed=seed, max_seconds=1,
                                     model_name="memoriser")]
    card_rows = card.card_table(rows)
    assert set(card_rows["model"]) == {"memoriser"}
    table = card_rows.set_index(["benchmark", "score"])
    assert table.loc[("scan", "accuracy"), "mean"] == 50.0  # 2 of 4, every seed
    assert table.loc[("scan", "accuracy"), ["low", "high"]].tolist() == [50.0, 50.0]
    assert table.loc[("orchard", "first tree"), "mean"] == 50.0  # x right, z empty
    assert table.loc[("scan", "accuracy"), "seeds"] == 3
    assert not table["fitted"].any()  # the memoriser does not fit its validation pairs
    with pytest.raises(ValueError, match="scorer must be one of"):
        card.Task("scan", "toy", TRAIN, VALIDATION, {"t": TRAIN}, scorer="bleu")


def test_an_orchard_task_trains_on_depths_3_to_6_and_tests_each_depth():
    from tutorlib.orchard import tree_depths

    task = card.orchard_task("minmax_hard", train_size=60, validation_size=20, test_size=5,
                             depths=(3, 12))
    assert (len(task.train), len(task.validation), list(task.tests)) == (
        60, 20, ["depth 3", "depth 12"])
    assert task.scorer == "orchard" and all(" , " in target for _, target in task.train)
    assert {max(tree_depths(line)) for line, _ in task.tests["depth 12"]} == {12}


class Interpreter(Memoriser):
    """A model that knows PCFG SET's interpretation function: every score is 1."""

    def predict(self, sources):
        from tutorlib import pcfgset

        return [" ".join(pcfgset.interpret(source, synonyms=pcfgset.TWINS))
                for source in sources]


@pytest.mark.slow
def test_pcfgset_tasks_score_substitutivity_and_localism_beside_accuracy():
    rows = []
    for test in ("substitutivity", "localism", "productivity"):
        task = card.pcfgset_task(test, train_size=300, validation_size=50, test_size=30)
        assert len(task.train) == 300 and not set(task.validation) & set(task.train)
        for model in (Interpreter, Memoriser):
            rows += [{**row, "model": model.__name__}
                     for row in card.run_task(model, task, seed=0, max_seconds=1)]
    values = {(r["model"], r["task"], r["test"], r["score"]): r["value"] for r in rows}
    for key in [("substitutivity", "originals", "accuracy"), ("substitutivity", "twins",
                "accuracy"), ("substitutivity", "twins", "consistency"),
                ("localism", "localism", "accuracy"), ("localism", "localism", "localism"),
                ("productivity", "productivity", "accuracy")]:
        assert values[("Interpreter", *key)] == 1.0, key
    # the memoriser predicts nothing for new inputs: never right, never consistent (empty
    # predictions do not count), but "local" (empty whole = empty steps)
    assert values[("Memoriser", "substitutivity", "twins", "consistency")] == 0.0
    assert values[("Memoriser", "productivity", "productivity", "accuracy")] == 0.0
    with pytest.raises(ValueError, match="test must be one of"):
        card.pcfgset_task("overgeneralization")


@pytest.mark.slow
def test_overgeneralisation_keeps_the_exceptions_share_and_scores_memorisation():
    from tutorlib import pcfgset

    full = pcfgset.overgeneralisation_split(card.OVERGENERALISATION_RATIO)
    task = card.pcfgset_task("overgeneralisation", train_size=2000, validation_size=50)
    exceptions = task.tests["exceptions"]
    share = len(full.exceptions) / len(full.train)
    assert len(task.train) == 2000 and set(exceptions) <= set(task.train)
    assert abs(len(exceptions) - share * 2000) <= 4  # the share, with one of each kind at least
    assert {pcfgset.splits.exception_patterns(s).pop() for s, _ in exceptions} == set(
        pcfgset.EXCEPTIONS)
    assert not set(task.validation) & set(full.exceptions)
    values = {}
    for model in (Interpreter, Memoriser):  # the rules; the training pairs by heart
        for row in card.run_task(model, task, seed=0, max_seconds=1):
            values[(model.__name__, row["score"])] = row["value"]
    assert values == {("Interpreter", "memorisation"): 0.0,
                      ("Interpreter", "overgeneralisation"): 1.0,
                      ("Memoriser", "memorisation"): 1.0,
                      ("Memoriser", "overgeneralisation"): 0.0}
    with pytest.raises(ValueError, match="same inputs"):
        card.Task("pcfgset", "x", task.train, task.validation,
                  {"exceptions": exceptions, "rules": exceptions[::-1]},
                  scorer="overgeneralisation")


class Additive(Memoriser):
    """A memoriser whose representation of a command is the sum of its words' vectors."""

    def states(self, sources):
        words = {}
        rng = np.random.default_rng(0)
        return np.array([sum(words.setdefault(w, rng.normal(size=8)) for w in s.split())
                         for s in sources])


@pytest.mark.slow
def test_a_scan_task_with_a_model_that_has_states_gets_a_tre_row_kept_unscaled():
    task = card.scan_task("simple", train_size=200, validation_size=40, test_size=20)
    assert task.representations == [command for command, _ in task.validation]
    rows = card.run_task(Additive, task, seed=0, max_seconds=1)
    tre_row, = [row for row in rows if row["score"] == "TRE"]
    assert tre_row["test"] == "representations" and 0 <= tre_row["value"] < 0.05
    assert [row["score"] for row in card.run_task(Memoriser, task, seed=0, max_seconds=1)] == [
        "accuracy"]  # no states, no TRE
    table = card.card_table(rows).set_index("score")
    assert table.loc["TRE", "mean"] == pytest.approx(tre_row["value"])  # not in percent


@pytest.mark.slow
def test_a_dbca_task_is_a_split_at_the_target_compound_divergence():
    from tutorlib.dbca import scan_divergences

    task = card.dbca_task(0.1, pool_size=1000, validation_size=50)
    (test_name, test), = task.tests.items()
    assert task.benchmark == "dbca" and test_name == "target 0.1" and task.name == "D_C 0.10"
    atom, compound = scan_divergences(task.train + task.validation, test)
    assert atom <= 0.02 + 1e-9 and abs(compound - 0.1) < 0.02
    assert not set(task.validation) & set(task.train)
    with pytest.raises(ValueError, match=r"compound_divergence must be in \[0, 1\]"):
        card.dbca_task(1.5)


def test_the_card_figure_has_a_cell_per_score_and_model_and_marks_the_unfitted():
    import matplotlib

    matplotlib.use("Agg")
    scan = card.Task("scan", "toy", TRAIN, VALIDATION, {"toy": TRAIN[:2] + VALIDATION})

    class Fits(Memoriser):
        def fit(self, train, validation, **kwargs):
            super().fit(train, validation, **kwargs)
            self.table.update(dict(validation))
            return {"train_accuracy": 1.0, "validation_accuracy": 1.0}

    rows = [row for seed in (0, 1) for model, name in ((Memoriser, "memoriser"), (Fits, "fits"))
            for row in card.run_task(model, scan, seed=seed, max_seconds=1, model_name=name)]
    fig = card.plot_card(card.card_table(rows))
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["memoriser", "fits"]
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == ["100", "50\nnot fitted"]  # the memoriser did not fit its validation pairs
    tre = [{**row, "test": "representations", "score": "TRE", "value": 0.1234}
           for row in rows if row["model"] == "fits"]
    fig = card.plot_card(card.card_table(rows + tre))
    texts = sorted(t.get_text() for t in fig.axes[0].texts)
    assert texts == ["0.123", "100", "50\nnot fitted"]  # TRE on its own scale, not "0"
    with pytest.raises(ValueError, match="model_name"):
        card.run_task(Memoriser, scan, seed=0, max_seconds=1, model_name=" ")


@pytest.mark.slow
def test_scan_derivations_are_binary_and_tre_finds_additive_states_compositional():
    assert card.command_derivation("jump") == "jump"
    assert card.command_derivation("jump opposite left") == (("jump", "opposite"), "left")
    assert card.command_derivation("run after look twice") == (("run", "after"), ("look", "twice"))
    from tutorlib import scan

    commands = [c for c, _ in scan.all_pairs()[:60]]
    rng = np.random.default_rng(0)
    words = {w: rng.normal(size=8) for c in commands for w in c.split()}

    class Additive(Memoriser):  # states: the sum of its words' vectors (compositional)
        def states(self, sources):
            return np.array([sum(words[w] for w in s.split()) for s in sources])

    class Scrambled(Memoriser):  # states: a random vector per command
        def states(self, sources):
            return rng.normal(size=(len(sources), 8))

    additive = card.states_tre(Additive(), commands, distance="l2", steps=800)
    scrambled = card.states_tre(Scrambled(), commands, distance="l2", steps=800)
    assert additive["commands"] == 60 and additive["tre"] < 0.05 < scrambled["tre"]
    with pytest.raises(TypeError, match="no states"):
        card.states_tre(Memoriser(), commands)


def test_the_card_summary_is_json_when_some_measures_have_one_seed_and_others_two(
        tmp_path, monkeypatch):
    """A measure with one seed has no interval (None in the summary, JSON has no NaN) while
    another has two (found when the full card's second seed started)."""
    from tutorlib.card import experiments
    from tutorlib.card.experiments import SETTINGS
    from tutorlib.card.experiments import summarise as card_summary
    from tutorlib.results import write_results

    monkeypatch.setattr(experiments, "divergence_table", lambda settings: [])  # not tested here

    scan = card.Task("scan", "toy", TRAIN, VALIDATION, {"toy": TRAIN[:2] + VALIDATION})
    other = card.Task("scan", "other", TRAIN, VALIDATION, {"other": TRAIN})
    records = [{"rows": card.run_task(Memoriser, task, seed=seed, max_seconds=1,
                                      model_name="memoriser")}
               for task, seed in ((scan, 0), (scan, 1), (other, 0))]
    settings = SETTINGS["ci"]
    summary = card_summary(settings, records)
    by_task = {row["task"]: row for row in summary["card"]}
    assert by_task["toy"]["seeds"] == 2 and by_task["toy"]["low"] == 50.0
    assert by_task["other"]["seeds"] == 1 and by_task["other"]["low"] is None
    write_results(tmp_path / "card.json", summary, profile="ci", seeds=[0, 1], wall_time=1.0)
