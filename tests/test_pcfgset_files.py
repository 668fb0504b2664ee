import subprocess
import sys
from pathlib import Path

import pytest

from tutorlib import pcfgset

ROOT = Path(__file__).resolve().parent.parent

# The first lines of the published files (i-machine-think/am-i-compositional,
# data/pcfgset/pcfgset/dev.src and dev.tgt), in their format.
PUBLISHED_SRC = ("swap_first_last shift reverse copy M2 H16 K3 Z20\n"
                 "remove_second K3 F20 M4 K2 W15 , reverse echo E19 Y4 G14 H7 W5\n")
PUBLISHED_TGT = "Z20 H16 M2 K3\nK3 F20 M4 K2 W15\n"
# data/pcfgset/localism/unrolled_test.tsv, its last example of the README (trailing space
# before the tab as published)
PUBLISHED_UNROLLED = ("unrolled\tcopy M5 B15 \t*1\nunrolled\trepeat *1\tM5 B15 M5 B15\n"
                      "original\trepeat copy M5 B15\tM5 B15 M5 B15\n")


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    directory = tmp_path_factory.mktemp("export")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TUTORLIB_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        pcfgset.export(directory, names=["pcfgset", "substitutivity_primitive", "localism",
                                         "overgeneralisation_0.001"])
    return directory


def test_read_pairs_reads_the_published_format(tmp_path):
    (tmp_path / "dev.src").write_text(PUBLISHED_SRC)
    (tmp_path / "dev.tgt").write_text(PUBLISHED_TGT)
    pairs = pcfgset.read_pairs(tmp_path / "dev.src", tmp_path / "dev.tgt")
    assert pairs == [("swap_first_last shift reverse copy M2 H16 K3 Z20", "Z20 H16 M2 K3"),
                     ("remove_second K3 F20 M4 K2 W15 , reverse echo E19 Y4 G14 H7 W5",
                      "K3 F20 M4 K2 W15")]
    assert all(" ".join(pcfgset.interpret(s)) == t for s, t in pairs)


def test_read_pairs_refuses_misaligned_files(tmp_path):
    (tmp_path / "a.src").write_text(PUBLISHED_SRC)
    (tmp_path / "a.tgt").write_text("Z20 H16 M2 K3\n")
    with pytest.raises(ValueError, match="has 2 lines but .* has 1"):
        pcfgset.read_pairs(tmp_path / "a.src", tmp_path / "a.tgt")


def test_read_unrolled_reads_the_published_format(tmp_path):
    path = tmp_path / "unrolled_test.tsv"
    path.write_text(PUBLISHED_UNROLLED)
    steps, pair = pcfgset.read_unrolled(path)[0]
    assert steps == pcfgset.unroll("repeat copy M5 B15") == ["copy M5 B15", "repeat *1"]
    assert pair == ("repeat copy M5 B15", "M5 B15 M5 B15")
    path.write_text("unrolled\tcopy M5 B15\n")
    with pytest.raises(ValueError, match="line 1"):
        pcfgset.read_unrolled(path)


@pytest.mark.slow
def test_export_round_trips(exported):
    data = pcfgset.base_corpus(0)
    for part in ("train", "dev", "test"):
        folder = exported / "pcfgset"
        assert pcfgset.read_pairs(folder / f"{part}.src", folder / f"{part}.tgt") == \
            list(getattr(data, part))
    result = pcfgset.substitutivity_split("primitive")
    folder = exported / "substitutivity" / "primitive"
    for part in ("train", "test", "test_twin"):
        assert pcfgset.read_pairs(folder / f"{part}.src", folder / f"{part}.tgt") == \
            getattr(result, part)
    result = pcfgset.overgeneralisation_split(0.001)
    folder = exported / "overgeneralisation"
    assert pcfgset.read_pairs(folder / "train_pcfg_ratio=0.001.src",
                              folder / "train_pcfg_ratio=0.001.tgt") == result.train
    for kind, pairs in (("exception", result.exceptions), ("original", result.originals)):
        assert pcfgset.read_pairs(folder / f"test_pcfg_ratio=0.001_{kind}.src",
                                  folder / f"test_pcfg_ratio=0.001_{kind}.tgt") == pairs


def test_export_writes_the_localism_file(exported):
    data = pcfgset.base_corpus(0)
    unrolled = pcfgset.read_unrolled(exported / "localism" / "unrolled_test.tsv")
    assert [pair for _, pair in unrolled] == list(data.test)
    assert all(steps == pcfgset.unroll(source) for steps, (source, _) in unrolled[:1000])
    assert pcfgset.read_pairs(exported / "localism" / "test.src",
                              exported / "localism" / "test.tgt") == list(data.test)


def test_export_layout(exported):
    files = sorted(str(p.relative_to(exported)) for p in exported.rglob("*") if p.is_file())
    assert files == sorted([
        *[f"pcfgset/{part}.{ext}" for part in ("train", "dev", "test") for ext in ("src", "tgt")],
        *[f"substitutivity/primitive/{part}.{ext}" for part in ("train", "test", "test_twin")
          for ext in ("src", "tgt")],
        *[f"localism/{part}.{ext}" for part in ("train", "test") for ext in ("src", "tgt")],
        "localism/unrolled_test.tsv",
        *[f"overgeneralisation/{name}.{ext}" for name in (
            "train_pcfg_ratio=0.001", "test_pcfg_ratio=0.001_exception",
            "test_pcfg_ratio=0.001_original") for ext in ("src", "tgt")]])


def test_export_refuses_unknown_splits(tmp_path):
    with pytest.raises(ValueError, match="unknown PCFG SET split.*'simple'"):
        pcfgset.export(tmp_path, names=["simple"])


def test_the_command_line_calls_export(tmp_path, monkeypatch):
    from tutorlib.pcfgset import files

    calls = []
    monkeypatch.setattr(files, "export", lambda *args: calls.append(args) or tmp_path)
    assert files.main(["export", str(tmp_path), "--only", "systematicity", "productivity"]) == 0
    assert files.main(["export", str(tmp_path), "--seed", "3"]) == 0
    assert calls == [(str(tmp_path), 0, ["systematicity", "productivity"]),
                     (str(tmp_path), 3, None)]


def test_python_dash_m_shows_its_usage():
    result = subprocess.run([sys.executable, "-m", "tutorlib.pcfgset", "--help"],
                            capture_output=True, text=True, cwd=ROOT, check=False)
    assert result.returncode == 0 and "export" in result.stdout


def test_files_that_would_misalign_are_refused(tmp_path):
    (tmp_path / "a.src").write_text("copy A1\n\nreverse B2\n")
    (tmp_path / "a.tgt").write_text("A1\nB2\n\n")
    with pytest.raises(ValueError, match=r"a\.src, line 2 is blank"):
        pcfgset.read_pairs(tmp_path / "a.src", tmp_path / "a.tgt")
    (tmp_path / "b.src").write_bytes("copy \xc01\n".encode("latin-1"))
    with pytest.raises(ValueError, match="is not UTF-8 text"):
        pcfgset.read_pairs(tmp_path / "b.src", tmp_path / "a.tgt")
    with pytest.raises(ValueError, match="holds a line break"):
        pcfgset.write_pairs(tmp_path, "c", [("copy A1\nB2", "A1 B2")])
    for name in ("../escape", "", "sub/dir"):
        with pytest.raises(ValueError, match="must name a file inside the directory"):
            pcfgset.write_pairs(tmp_path, name, [("copy A1", "A1")])
    assert not list(tmp_path.glob("c.*")) and not (tmp_path.parent / "escape.src").exists()
