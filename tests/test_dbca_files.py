"""tutorlib.dbca.read_index_split: the released MCD split format, on files generated here."""

import json

import numpy as np
import pytest

from tutorlib import dbca

PAIRS = [("walk", "I_WALK"), ("jump twice", "I_JUMP I_JUMP"), ("turn left", "I_TURN_LEFT"),
         ("run and look", "I_RUN I_LOOK"), ("look right", "I_TURN_RIGHT I_LOOK")]


@pytest.fixture
def tasks(tmp_path):
    path = tmp_path / "tasks.txt"
    path.write_text("".join(f"IN: {c} OUT: {a}\n" for c, a in PAIRS))
    return path


def write(tmp_path, payload):
    path = tmp_path / "split.json"
    path.write_text(json.dumps(payload))
    return path


def test_reads_the_three_parts(tmp_path, tasks):
    split = dbca.read_index_split(tasks, write(tmp_path, {"trainIdxs": [0, 3], "devIdxs": [4],
                                                          "testIdxs": [1, 2]}))
    assert split.train == [PAIRS[0], PAIRS[3]]
    assert split.dev == [PAIRS[4]]
    assert split.test == [PAIRS[1], PAIRS[2]]
    assert (split.train_indices, split.dev_indices, split.test_indices) == ([0, 3], [4], [1, 2])


def test_round_trip_and_missing_dev(tmp_path, tasks):
    path = dbca.write_index_split(tmp_path / "out" / "mcd1.json", train=[4, 0], test=[2])
    split = dbca.read_index_split(tasks, path)
    assert split.train == [PAIRS[4], PAIRS[0]] and split.test == [PAIRS[2]] and split.dev == []
    no_dev = dbca.read_index_split(tasks, write(tmp_path, {"trainIdxs": [1], "testIdxs": [0]}))
    assert no_dev.dev == [] and no_dev.train == [PAIRS[1]]


@pytest.mark.parametrize("payload, message", [
    ({"trainIdxs": [0, 5], "testIdxs": [1]}, r"trainIdxs\[1\] = 5 is outside .* 5 lines"),
    ({"trainIdxs": [0], "testIdxs": [-1]}, r"testIdxs\[0\] = -1 is outside"),
    ({"trainIdxs": [0], "devIdxs": [9], "testIdxs": [1]}, r"devIdxs\[0\] = 9"),
    ({"trainIdxs": [0], "testIdxs": ["1"]}, "not an integer"),
    ({"trainIdxs": [0], "testIdxs": [True]}, "not an integer"),
    ({"trainIdxs": [0]}, "no 'testIdxs'"),
    ({"trainIdxs": 0, "testIdxs": [1]}, "must be a list"),
    ([0, 1], "JSON object"),
])
def test_bad_index_files_are_refused(tmp_path, tasks, payload, message):
    with pytest.raises(ValueError, match=message):
        dbca.read_index_split(tasks, write(tmp_path, payload))


def test_bad_json_and_bad_lines_are_refused(tmp_path, tasks):
    bad = tmp_path / "bad.json"
    bad.write_text("{trainIdxs: [0]")
    with pytest.raises(ValueError, match="not valid JSON"):
        dbca.read_index_split(tasks, bad)
    tasks.write_text("IN: walk OUT: I_WALK\nwalk I_WALK\n")
    with pytest.raises(ValueError, match=r"line 2 \(index 1\)"):
        dbca.read_index_split(tasks, write(tmp_path, {"trainIdxs": [0], "testIdxs": [1]}))


@pytest.mark.parametrize("payload, message", [
    ({"trainIdxs": [0, 1], "testIdxs": [1, 2]}, r"train and test share line\(s\) \[1\]"),
    ({"trainIdxs": [0, 0], "testIdxs": [2]}, r"trainIdxs lists line\(s\) \[0\] more than once"),
    ({"trainIdxs": [], "testIdxs": [2]}, "trainIdxs is empty"),
    ({"trainIdxs": [0], "testIdxs": [2], "devIdx": [3]}, "unknown key"),
])
def test_refuses_splits_it_cannot_read_faithfully(tmp_path, tasks, payload, message):
    with pytest.raises(ValueError, match=message):
        dbca.read_index_split(tasks, write(tmp_path, payload))


def test_refuses_text_that_is_not_utf8(tmp_path, tasks):
    latin = tmp_path / "latin.txt"
    latin.write_bytes("IN: caf\xe9 OUT: I_WALK\n".encode("latin-1"))
    with pytest.raises(ValueError, match="is not UTF-8 text"):
        dbca.read_index_split(latin, write(tmp_path, {"trainIdxs": [0], "testIdxs": [0]}))


@pytest.mark.parametrize("train, test, message", [
    # beartype checks one random item of a container per call; the writer's own check the rest
    ([0, 1.7], [2], r"train=\[0, 1.7\] violates type hint|train index must be a non-negative "
                    r"integer, got 1.7"),
    ([0, -1], [2], "train index must be a non-negative integer"),
    ([0, 1], [1], "train and test share"),
    ([0, 0], [1], "train lists a line more than once"),
    ([], [1], "at least one line number"),
    ("01", [1], "train='01' violates type hint"),
])
def test_the_writer_refuses_what_the_reader_would(tmp_path, train, test, message):
    with pytest.raises((TypeError, ValueError), match=message):
        dbca.write_index_split(tmp_path / "out.json", train, test)
    assert not (tmp_path / "out.json").exists()


def test_our_mcd_splits_export_in_the_released_format_and_read_back(tmp_path, monkeypatch):
    from tutorlib.dbca import scan_splits
    from tutorlib.dbca.files import MCD_FILES, export, main
    from tutorlib.dbca.splitter import SplitResult
    from tutorlib.scan import all_pairs

    computed = {}

    def small_split(seed, **_):  # the real search takes minutes; the format is what is tested
        computed[seed] = True
        return SplitResult(train=np.array([seed, 10, 20]), test=np.array([5 + seed, 30]),
                           atom_divergence=0.0, compound_divergence=0.7,
                           target_compound_divergence=None, max_atom_divergence=0.02, seed=seed)

    monkeypatch.setattr(scan_splits, "mcd_result_of_scan", small_split)
    export(tmp_path)
    assert sorted(computed) == [0, 1, 2]
    assert (tmp_path / "tasks.txt").read_text().count("\n") == len(all_pairs())
    for seed, name in enumerate(MCD_FILES):
        split = dbca.read_index_split(tmp_path / "tasks.txt", tmp_path / name)
        assert split.train_indices == [seed, 10, 20] and split.test_indices == [5 + seed, 30]
        assert split.train[1] == all_pairs()[10] and split.dev == []
    with pytest.raises(ValueError, match="different seeds"):
        export(tmp_path, seeds=[0, 0])
    assert main(["export", str(tmp_path / "tasks.txt")]) == 1
