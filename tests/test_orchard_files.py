import re

import matplotlib
import pytest

from tutorlib import orchard
from tutorlib.orchard.__main__ import main

matplotlib.use("Agg")

RELEASE_FILES = sorted(f"{part}.{suffix}" for part in
                       ["train", "valid", "test", *[f"test{d}" for d in range(3, 13)]]
                       for suffix in ("input", "label"))


@pytest.mark.slow
def test_export_writes_the_release_layout_and_reads_back(tmp_path):
    out = orchard.export(tmp_path / "minmax_medium", "minmax_medium", size=1,
                         part_sizes={"train": 120})
    assert sorted(p.name for p in out.iterdir()) == RELEASE_FILES
    assert len((out / "train.input").read_text().splitlines()) == 120
    assert len((out / "test12.label").read_text().splitlines()) == 100
    data = orchard.read_export(out, check=True)
    assert list(data) == orchard.part_names()
    for part, pairs in data.items():
        count = 120 if part == "train" else 100
        assert pairs == orchard.generate_part("minmax_medium", part, count)
        assert all(re.fullmatch(r"\d,\d", label) for _, label in pairs)
        assert all(" X " in line and "\t" not in line for line, _ in pairs)


def test_sizes_follow_the_release():
    assert orchard.sizes(10) == {part: 10_000 if part == "train" else 1_000
                                 for part in orchard.part_names()}
    assert orchard.sizes(orchard.PAPER_SIZE)["train"] == 500_000
    with pytest.raises(ValueError, match="size"):
        orchard.sizes(0)


def test_export_rejects_unknown_names_before_writing(tmp_path):
    with pytest.raises(ValueError, match="unknown ORCHARD variant"):
        orchard.export(tmp_path / "x", "medium")
    with pytest.raises(ValueError, match="unknown ORCHARD part 'test2'"):
        orchard.export(tmp_path / "x", "minmax_easy", parts=["test2"])
    assert not (tmp_path / "x").exists()


def test_read_part_names_the_file_and_line(tmp_path):
    orchard.write_part(tmp_path, "test3", [("[MAX 1 ] X [MIN 2 ]", "1,2"),
                                           ("[MAX 3 ] X [MIN [COPY 0 ] ]", "3,4")])
    assert orchard.read_part(tmp_path, "test3")[1] == ("[MAX 3 ] X [MIN [COPY 0 ] ]", "3,4")
    with pytest.raises(ValueError, match=r"test3.label, line 2: label '3,4'.*'3,3'"):
        orchard.read_part(tmp_path, "test3", check=True)
    (tmp_path / "test3.label").write_text("1,2\n")
    with pytest.raises(ValueError, match="has 2 lines but .* has 1"):
        orchard.read_part(tmp_path, "test3")
    with pytest.raises(ValueError, match="no file .*test4.input"):
        orchard.read_part(tmp_path, "test4")
    orchard.write_part(tmp_path, "test5", [("[MAX 1 ] X [MIN [COPY 2 ] ]", "1,1")])
    with pytest.raises(ValueError, match="test5.input, line 1: COPY at position 5"):
        orchard.read_part(tmp_path, "test5", check=True)
    with pytest.raises(ValueError, match="no ORCHARD files"):
        orchard.read_export(tmp_path / "empty")


def test_command_line_export(tmp_path, capsys):
    assert main(["export", str(tmp_path), "--variant", "firstlast_hard", "--size", "1",
                 "--parts", "train,test9"]) == 0
    assert "firstlast_hard written" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["test9.input", "test9.label",
                                                          "train.input", "train.label"]
    assert orchard.read_part(tmp_path, "train") == orchard.generate_part("firstlast_hard",
                                                                         "train", 1000)
    with pytest.raises(SystemExit):
        main(["export", str(tmp_path), "--variant", "hard"])
    with pytest.raises(SystemExit):
        main(["export", str(tmp_path), "--variant", "minmax_easy", "--parts", "test13"])


def test_input_length_grows_with_depth():
    rows = orchard.lengths_by_depth("minmax_hard", num_examples=60,
                                    parts=["train", "test3", "test6", "test9", "test12"])
    assert [r.part for r in rows] == ["train", "test3", "test6", "test9", "test12"]
    means = [r.mean for r in rows[1:]]
    assert means == sorted(means) and means[-1] > 3 * means[0]
    assert rows[-1].maximum > 200  # a depth-12 input runs to hundreds of tokens
    for r in rows:
        assert r.mean == pytest.approx(r.mean_first + r.mean_second + 1)
        assert r.median <= r.p95 <= r.maximum
    assert rows[2].min_depth == rows[2].max_depth == 6


def test_length_stats_known_answer():
    pairs = [("[MAX 1 ] X [MIN 2 ]", "1,2"), ("[MAX 1 2 ] X [MIN [COPY 0 ] 3 ]", "2,1")]
    stats = orchard.length_stats(pairs, "test3")
    assert (stats.num_examples, stats.mean, stats.maximum) == (2, 9.0, 11)
    assert (stats.mean_first, stats.mean_second) == (3.5, 4.5)
    assert list(orchard.input_lengths(pairs)) == [7, 11]
    assert orchard.has_copy_fraction(pairs) == 0.5
    # [MIN [COPY 0 ] 3 ] with depth limit 3: the root has two value nodes, one a COPY
    assert orchard.copy_rate(pairs[1:], 3) == 0.5
    assert orchard.value_slots(orchard.parse_tree("[MAX [MIN 1 ] 2 ]"), 2) == 2
    assert orchard.value_slots(orchard.parse_tree("[MAX [MIN 1 2 ] [MAX 3 ] ]"), 3) == 4


def test_draw_has_one_arrow_per_copy():
    from matplotlib.patches import FancyArrowPatch

    line = ("[LAST [LAST [FIRST 3 ] [FIRST 0 ] ] 9 ] X "
            "[LAST [COPY 2 ] [FIRST [FIRST [COPY 3 ] ] [COPY 1 ] ] ]")
    ax = orchard.draw(line, title="Fig. 1")
    arrows = [p for p in ax.patches if isinstance(p, FancyArrowPatch)]
    assert len(arrows) == 3
    texts = [t.get_text() for t in ax.texts]
    assert "LAST = 9" in texts and "COPY 2" in texts and "FIRST = 3" in texts
    assert "6" in texts  # the level-order index of the first tree's last item
    ax_plain = orchard.draw(line, values=False, indices=False, arrows=False)
    assert not [p for p in ax_plain.patches if isinstance(p, FancyArrowPatch)]
    assert "LAST" in [t.get_text() for t in ax_plain.texts]
    with pytest.raises(ValueError, match="no 'X'"):
        orchard.draw("[MAX 1 ]")
    import matplotlib.pyplot as plt

    plt.close("all")


def test_plot_lengths_by_depth_draws_every_bin():
    import matplotlib.pyplot as plt

    rows = orchard.lengths_by_depth("firstlast_easy", num_examples=20,
                                    parts=["train", "test3", "test4", "test5"])
    ax = orchard.plot_lengths_by_depth(rows, title="lengths")
    assert list(ax.get_xticks()) == [3, 4, 5]
    assert ax.get_ylabel() == "input length (tokens)"
    assert any("train" in t.get_text() for t in ax.get_legend().get_texts())
    plt.close("all")


def test_parts_that_would_misalign_or_are_not_orchard_are_refused(tmp_path):
    (tmp_path / "p.input").write_text("[MAX 2 3 ] X [MIN 4 5 ]\n")
    (tmp_path / "p.label").write_text("3,4\n")
    assert orchard.read_part(tmp_path, "p") == [("[MAX 2 3 ] X [MIN 4 5 ]", "3,4")]
    (tmp_path / "q.input").write_text("[MAX 2 3 ] X [MIN 4 5 ]\n\n")  # a trailing blank line
    (tmp_path / "q.label").write_text("3,4\n")
    assert len(orchard.read_part(tmp_path, "q")) == 1
    (tmp_path / "r.input").write_text("garbage\n")
    (tmp_path / "r.label").write_text("not a label\n")
    with pytest.raises(ValueError, match=r"r\.label, line 1: a label is two digits"):
        orchard.read_part(tmp_path, "r")  # even without check=True
    with pytest.raises(ValueError, match="holds a line break"):
        orchard.write_part(tmp_path, "s", [("[MAX 2 3 ]\n", "3,3")])
    with pytest.raises(ValueError, match="must name a file inside the directory"):
        orchard.write_part(tmp_path, "../s", [("[MAX 2 3 ]", "3,3")])


def test_export_checks_every_size_before_writing(tmp_path):
    with pytest.raises(ValueError, match=r"part_sizes\['test12'\] must be a positive integer"):
        orchard.export(tmp_path / "out", "minmax_easy", part_sizes={"train": 5, "test12": -1})
    assert not (tmp_path / "out").exists()
