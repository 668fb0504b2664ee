"""Scoring predictions a user brings, in each benchmark's released layout, against scores
computed by hand on small files."""

import json

import pytest

from tutorlib import card, cli


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def scan_files(tmp_path):
    test = write(tmp_path / "tasks_test_x.txt",
                 "IN: jump OUT: I_JUMP\n"
                 "IN: jump twice OUT: I_JUMP I_JUMP\n"
                 "IN: walk left OUT: I_TURN_LEFT I_WALK\n"
                 "IN: run OUT: I_RUN\n")
    # right, one action short, right (extra spaces), empty
    predictions = write(tmp_path / "pred.txt", "I_JUMP\nI_JUMP\nI_TURN_LEFT   I_WALK\n\n")
    return test, predictions


def test_scan_exact_match_by_hand(scan_files):
    score = card.score_scan(*scan_files)
    assert score.benchmark == "scan" and score.examples == 4
    assert score.scores == {"accuracy": 0.5}  # 2 of 4


def test_scan_files_that_do_not_line_up_are_named(scan_files, tmp_path):
    short = write(tmp_path / "short.txt", "I_JUMP\nI_JUMP I_JUMP\n")
    with pytest.raises(ValueError, match=r"short\.txt has 2 predictions but .*tasks_test_x\.txt "
                                         r"has 4 examples"):
        card.score_scan(scan_files[0], short)
    with pytest.raises(ValueError, match="is empty"):
        card.score_scan(scan_files[0], write(tmp_path / "empty.txt", ""))


def test_pcfgset_accuracy_token_accuracy_and_consistency_by_hand(tmp_path):
    first = write(tmp_path / "sub.tsv",
                  "copy A1 B1\tA1 B1\tA1 B1\n"          # right: 2 of 2 tokens
                  "reverse A1 B1 C1\tC1 B1 A1\tC1 A1 A1\n"  # wrong: 2 of 3 tokens (C1, A1)
                  "echo A1\tA1 A1\t\n")                   # empty: 0 of 2 tokens
    twin = write(tmp_path / "twin.tsv",
                 "copy A2 B1\tA2 B1\tA1 B1\n"             # the same prediction as line 1
                 "reverse A2 B1 C1\tC1 B1 A2\tC1 B1 A2\n"  # another prediction
                 "echo A2\tA2 A2\t\n")                    # empty: never consistent
    score = card.score_pcfgset(first, twin)
    assert score.examples == 3
    assert score.scores["accuracy"] == pytest.approx(1 / 3)
    # token accuracy: right positions / the longer of prediction and target, summed over pairs
    assert score.scores["token_accuracy"] == pytest.approx((2 + 2 + 0) / (2 + 3 + 2))
    assert score.scores["consistency"] == pytest.approx(1 / 3)
    assert "consistency" not in card.score_pcfgset(first).scores


def test_a_pcfgset_line_without_three_columns_is_named(tmp_path):
    bad = write(tmp_path / "bad.tsv", "copy A1\tA1\tA1\ncopy B1 B1\n")
    with pytest.raises(ValueError, match=r"bad\.tsv, line 2: expected source, target and "
                                         r"prediction separated by tabs, got 1 column"):
        card.score_pcfgset(bad)


def test_the_release_header_is_not_an_example(tmp_path):
    # the release's exact layout: a header line, then source, target and prediction by tabs
    released = write(tmp_path / "run=1.txt",
                     "source\ttarget\tprediction\n"
                     "copy A1 B1\tA1 B1\tA1 B1\n"
                     "echo A1\tA1 A1\tA1\n")
    score = card.score_pcfgset(released, released)
    assert score.examples == 2
    assert score.scores["accuracy"] == pytest.approx(1 / 2)
    assert score.scores["consistency"] == 1.0
    assert card.read_pcfgset_predictions(released)[0] == ("copy A1 B1", "A1 B1", "A1 B1")
    # the line numbers in an error still count the header
    bad = write(tmp_path / "bad.txt", "source\ttarget\tprediction\ncopy A1\tA1\tA1\ncopy B1\n")
    with pytest.raises(ValueError, match=r"bad\.txt, line 3: expected"):
        card.score_pcfgset(bad)
    with pytest.raises(ValueError, match="but for its header"):
        card.score_pcfgset(write(tmp_path / "header.txt", "source\ttarget\tprediction\n"))


def test_a_released_file_scores_as_many_examples_as_it_has(tmp_path, capsys):
    # a committed released test set written back in the release's layout: 9,721 examples under
    # the header, scored exactly as tutorlib.pcfgset.released scores it
    from tutorlib.pcfgset import released

    rows = released.examples("lstms2s", "pcfgset", 1)
    path = tmp_path / "run=1.txt"
    path.write_text("source\ttarget\tprediction\n"
                    + "".join(f"{r.source}\t{r.target}\t{r.prediction}\n" for r in rows),
                    encoding="utf-8")
    score = card.score_pcfgset(path)
    assert score.examples == 9721
    assert score.scores["accuracy"] == pytest.approx(released.score("lstms2s", "pcfgset", 1))
    assert cli.main(["card", "score", "pcfgset", str(path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["examples"] == 9721
    assert record["scores"]["accuracy"] == pytest.approx(score.scores["accuracy"])


@pytest.fixture
def orchard_part(tmp_path):
    write(tmp_path / "test3.input", "a\nb\nc\nd\n")  # inputs are only counted here
    write(tmp_path / "test3.label", "8,7\n1,2\n3,3\n0,9\n")
    # both right, first right only, not a label, second right only (model tokens)
    predictions = write(tmp_path / "orchard_pred.txt", "8,7\n1,5\n3\n4 , 9\n")
    return tmp_path, predictions


def test_orchard_first_second_both_and_malformed_by_hand(orchard_part):
    directory, predictions = orchard_part
    score = card.score_orchard(directory, "test3", predictions)
    assert score.examples == 4
    assert score.scores == {"first": 0.5, "second": 0.5, "both": 0.25, "malformed": 0.25}


def test_orchard_missing_part_is_named(tmp_path):
    with pytest.raises(ValueError, match=r"test9\.input and test9\.label"):
        card.score_orchard(tmp_path, "test9", write(tmp_path / "p.txt", "1,2\n"))


def test_the_command_line_prints_the_scores_and_says_what_is_wrong(scan_files, orchard_part,
                                                                   capsys, tmp_path):
    assert cli.main(["card", "score", "scan", str(scan_files[0]), str(scan_files[1])]) == 0
    assert "accuracy 50.0%" in capsys.readouterr().out
    assert cli.main(["card", "score", "orchard", str(orchard_part[0]), "test3",
                     str(orchard_part[1]), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["benchmark"] == "orchard" and record["scores"]["both"] == 0.25
    assert cli.main(["card", "score", "scan", str(scan_files[0]), str(tmp_path / "none.txt")]) == 2
    assert "none.txt" in capsys.readouterr().err


def test_the_paper_s_released_networks_on_the_card_s_pcfgset_rows(tmp_path):
    import pandas as pd

    from tutorlib.card import report
    from tutorlib.pcfgset import released

    rows = report.released_rows(tmp_path)
    # the files went through the card's scorer in the release's layout, header included
    written = sorted(tmp_path.glob("lstms2s_pcfgset_run=*.txt"))
    assert len(written) == 3
    assert written[0].read_text(encoding="utf-8").startswith("source\ttarget\tprediction\n")
    frame = pd.DataFrame(rows)
    assert set(frame["model"]) == set(report.PAPER_NETWORKS) and frame["paper"].all()
    assert frame["fitted"].isna().all()  # no training accuracy in the release: no fit claimed
    task = frame[(frame["task"] == "pcfgset") & (frame["model"] == "transformer_paper")].iloc[0]
    assert task["mean"] == pytest.approx(
        100 * sum(released.score("transformer", "pcfgset", r) for r in released.RUNS) / 3)
    assert task["seeds"] == 3
    # localism: the release has LSTMS2S's only
    assert set(frame.loc[frame["task"] == "localism", "model"]) == {"lstms2s_paper"}
    pivot = report.card_pivot(frame)
    assert list(pivot.columns) == list(report.PAPER_NETWORKS.values())
    assert not pivot.loc["pcfgset pcfgset"].str.startswith("(").any()  # shown, not bracketed
    # the full card scores productivity and localism on its task network: the same rows there
    shared = pd.DataFrame(report.released_rows(with_task=["productivity", "localism"]))
    moved = shared[shared["test"].isin(["productivity", "localism"])]
    assert set(moved["task"]) == {"pcfgset"} and len(moved) == len(
        frame[frame["test"].isin(["productivity", "localism"])])


def test_scores_in_memory_equal_the_file_scorers(scan_files, orchard_part, tmp_path):
    # SCAN and ORCHARD: the files' predictions and references, read into lists
    from tutorlib import scan
    from tutorlib.orchard.files import read_part

    test, predictions = scan_files
    in_memory = card.score("scan", card.read_predictions(predictions), scan.read_pairs(test))
    assert in_memory.scores == card.score_scan(test, predictions).scores == {"accuracy": 0.5}
    directory, labels = orchard_part
    references = [label for _, label in read_part(directory, "test3")]
    assert (card.score("orchard", card.read_predictions(labels), references).scores
            == card.score_orchard(directory, "test3", labels).scores)


def test_scores_in_memory_equal_the_file_scorers_on_the_released_files(tmp_path):
    from tutorlib.pcfgset import released

    table = released.frame("pcfgset")
    for architecture in released.ARCHITECTURES:
        column = table[f"{architecture}_1"].fillna("").tolist()
        path = write(tmp_path / f"{architecture}.txt", "source\ttarget\tprediction\n" + "".join(
            f"{s}\t{t}\t{p}\n" for s, t, p in zip(table["source"], table["target"], column)))
        from_file = card.score_pcfgset(path).scores
        in_memory = card.score("pcfgset", column, table["target"].tolist()).scores
        assert in_memory == from_file
        assert in_memory["accuracy"] == pytest.approx(released.score(architecture, "pcfgset", 1))


def test_the_targets_are_checked_against_the_interpreter_when_asked(tmp_path):
    sources = ["copy A1 B2", "reverse A1 B2"]
    assert card.score("pcfgset", ["A1 B2", "B2 A1"], ["A1 B2", "B2 A1"],
                      sources=sources).scores["accuracy"] == 1.0
    with pytest.raises(ValueError, match=r"example 2: the target 'A1 B2' is not the meaning"):
        card.score("pcfgset", ["A1 B2", "A1 B2"], ["A1 B2", "A1 B2"], sources=sources)
    path = write(tmp_path / "p.txt", "copy A1 B2\tA1 B2\tA1 B2\nreverse A1 B2\tA1 B2\tA1 B2\n")
    assert card.score_pcfgset(path).scores["accuracy"] == 1.0  # unchecked: as the file says
    with pytest.raises(ValueError, match="p.txt: example 2"):
        card.score_pcfgset(path, check_targets=True)


def test_bad_scoring_input_is_named(scan_files):
    with pytest.raises(ValueError, match="unknown benchmark 'cogs'"):
        card.score("cogs", ["a"], ["a"])
    with pytest.raises(ValueError, match="2 predictions and 1 references"):
        card.score("scan", ["I_JUMP", "I_WALK"], ["I_JUMP"])
    with pytest.raises(ValueError, match="predictions"):  # a string is not a list of them
        card.score("scan", "I_JUMP", ["I_JUMP"])
    with pytest.raises(ValueError, match="predictions"):
        card.score("scan", [["I_JUMP"]], ["I_JUMP"])
    with pytest.raises(ValueError, match="twins and sources are PCFG SET's"):
        card.score("scan", ["I_JUMP"], ["I_JUMP"], twins=["I_JUMP"])
    # the test file given as its own predictions: refused, not scored 0%
    test, _ = scan_files
    with pytest.raises(ValueError, match="looks like a test file"):
        card.score_scan(test, test)
