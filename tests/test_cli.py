import subprocess
import sys

import pytest
from conftest import ROOT

from tutorlib import cli, results


def run(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "tutorlib", *args], capture_output=True,
                          text=True, cwd=ROOT, **kwargs)


def test_help_lists_the_commands():
    out = run("--help")
    assert out.returncode == 0
    for command in ["run", "export", "profiles", "results", "cache"]:
        assert command in out.stdout
    assert "compositionality" in out.stdout


def test_run_writes_resumable_results_with_provenance(tmp_path, capsys):
    assert cli.main(["run", "compositionality", "--profile", "ci", "--out", str(tmp_path)]) == 0
    path = tmp_path / "compositionality" / "ci.json"
    record = results.read_results(path)
    assert record["provenance"]["profile"] == "ci"
    data = record["data"]
    settings = data["settings"]
    assert data["irregular fraction"] == settings["irregular_fractions"]
    assert [len(row) for row in data["accuracy"]] == [settings["num_splits"]] * len(
        settings["irregular_fractions"])
    assert set(data["accuracy"][0]) == {1.0} and set(data["accuracy"][-1]) == {0.0}
    runs = list((tmp_path / "compositionality" / "runs").glob("*.json"))
    assert len(runs) == settings["num_splits"] * len(settings["irregular_fractions"])
    assert cli.main(["results", str(path)]) == 0
    assert '"profile": "ci"' in capsys.readouterr().out


def test_profiles_command_prints_settings(capsys):
    assert cli.main(["profiles", "compositionality"]) == 0
    out = capsys.readouterr().out
    assert "compositionality [ci]" in out and "compositionality [full]" in out


def test_bad_input_gives_a_clear_error(tmp_path):
    out = run("run", "nonexistent")
    assert out.returncode == 2 and "invalid choice: 'nonexistent'" in out.stderr
    out = run("run", "compositionality", "--profile", "huge")
    assert out.returncode == 2 and "invalid choice: 'huge'" in out.stderr
    out = run("results", str(tmp_path / "absent.json"))
    assert out.returncode == 2 and "no results file" in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.slow
def test_run_scan_at_the_ci_profile(tmp_path, capsys):
    # one process may take some splits only; the summary then says it is incomplete
    assert cli.main(["run", "scan", "--profile", "ci", "--out", str(tmp_path), "--only", "simple"]) == 0
    partial = results.read_results(tmp_path / "scan" / "ci.json")["data"]
    assert not partial["complete"] and [r["split"] for r in partial["runs"]] == ["simple"]
    assert cli.main(["run", "scan", "--profile", "ci", "--out", str(tmp_path), "--only", "nope"]) == 2
    assert "does not run: nope" in capsys.readouterr().err
    assert cli.main(["run", "scan", "--profile", "ci", "--out", str(tmp_path), "--seeds", "x"]) == 2
    assert "--seeds takes comma-separated integers, got 'x'" in capsys.readouterr().err
    assert cli.main(["run", "scan", "--profile", "ci", "--out", str(tmp_path), "--seeds", "4"]) == 2
    assert "does not run: 4; it runs 0" in capsys.readouterr().err
    assert cli.main(["run", "scan", "--profile", "ci", "--out", str(tmp_path)]) == 0
    record = results.read_results(tmp_path / "scan" / "ci.json")
    assert record["data"]["complete"]
    runs = record["data"]["runs"]
    settings = record["data"]["settings"]
    assert {r["split"] for r in runs} == {*settings["overall_best_splits"], *[
        f"addprim_complex_jump_num{n}_rep1" for n in settings["complex_jump_nums"]]}
    assert all(0.0 <= r["accuracy"] <= 1.0 and r["presentations"] == settings["recipe"]["presentations"]
               for r in runs)
    assert record["data"]["published"]["simple"]["overall_best"] == 99.7


@pytest.mark.slow
def test_export_scan(tmp_path):
    assert cli.main(["export", "scan", str(tmp_path)]) == 0
    assert len((tmp_path / "tasks.txt").read_text().splitlines()) == 20_910


def test_a_partial_compositionality_sweep_files_each_run_under_its_own_fraction(tmp_path):
    assert cli.main(["run", "compositionality", "--profile", "ci", "--out", str(tmp_path),
                     "--seeds", "1", "--quiet"]) == 0
    data = results.read_results(tmp_path / "compositionality" / "ci.json")["data"]
    # only split 1 ran: each fraction's row holds it at column 1, and nothing else
    assert all(row[0] is None and row[2] is None and row[1] is not None
               for row in data["accuracy"])
    assert data["accuracy"][0][1] == 1.0 and data["accuracy"][-1][1] == 0.0
    assert not data["complete"]


def test_files_and_folders_mixed_up_give_one_line_errors(tmp_path, capsys):
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    for argv in (["results", str(tmp_path)], ["export", "scan", str(a_file)],
                 ["run", "compositionality", "--profile", "ci", "--out", str(a_file)]):
        assert cli.main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("error: ") and "Traceback" not in err and err.count("\n") == 1
    # and the messages say what is wrong in words
    assert cli.main(["results", str(tmp_path)]) == 2
    assert "is a directory; `results` reads one results file" in capsys.readouterr().err
    assert cli.main(["export", "scan", str(a_file)]) == 2
    assert "is a file, not a directory to write into" in capsys.readouterr().err


@pytest.mark.parametrize("part", ["scan", "pcfgset", "dbca"])
def test_a_parts_own_export_gives_one_line_errors(part, tmp_path, capsys):
    import importlib

    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    main = importlib.import_module(f"tutorlib.{part}.files").main
    assert main(["export", str(a_file)]) == 1
    err = capsys.readouterr().err
    assert err == f"error: {a_file} is a file, not a directory to write into\n"


def test_the_top_level_export_takes_each_datasets_options(tmp_path, capsys):
    # ORCHARD: one variant (the release's layout), its size and seed
    assert cli.main(["export", "orchard", str(tmp_path / "o"), "--variant", "minmax_hard",
                     "--size", "1"]) == 0
    assert len((tmp_path / "o" / "train.input").read_text().splitlines()) == 1_000
    assert (tmp_path / "o" / "test12.label").exists()
    # SCAN: one split in the official layout, beside tasks.txt
    assert cli.main(["export", "scan", str(tmp_path / "s"), "--split", "addprim_jump"]) == 0
    written = sorted(p.relative_to(tmp_path / "s").as_posix() for p in (tmp_path / "s").rglob("*.txt"))
    assert written == ["add_prim_split/tasks_test_addprim_jump.txt",
                       "add_prim_split/tasks_train_addprim_jump.txt", "tasks.txt"]
    capsys.readouterr()
    # a split or variant that does not exist: a one-line error, nothing written
    assert cli.main(["export", "scan", str(tmp_path / "bad"), "--split", "addprim_jmup"]) == 1
    assert "unknown SCAN split(s) 'addprim_jmup'" in capsys.readouterr().err
    assert not (tmp_path / "bad" / "add_prim_split").exists()
    with pytest.raises(SystemExit) as exit_:
        cli.main(["export", "orchard", str(tmp_path / "bad"), "--variant", "minmax_hrad"])
    assert exit_.value.code == 2 and "invalid choice: 'minmax_hrad'" in capsys.readouterr().err


def test_the_readmes_commands_parse_as_written():
    import re
    import shlex

    readme = (ROOT / "README.md").read_text()
    block = readme.split("## Using tutorlib on its own", 1)[1].split("```", 2)[1]
    lines = [line.split("#", 1)[0].strip() for line in block.splitlines()]
    commands = [shlex.split(line)[3:] for line in lines if re.match(r"python -m tutorlib ", line)]
    assert len(commands) >= 8
    parser = cli._parser()
    for argv in (c for c in commands if c != ["--help"]):
        args = parser.parse_args(argv)  # argparse exits (a failure here) on what it cannot read
        if args.command == "export":  # and the dataset's own command line reads its options
            dataset_parser_accepts(args.dataset, ["export", "DIR", *args.options])


def dataset_parser_accepts(dataset, argv):
    import importlib
    from unittest import mock

    module_name, function = cli.EXPORTS[dataset][1].split(":")
    module = importlib.import_module(module_name)
    writers = [name for name in ("export", "export_all") if hasattr(module, name)]
    with mock.patch.multiple(module, **{name: mock.DEFAULT for name in writers}), \
            mock.patch("tutorlib.textfiles.output_directory"):
        assert getattr(module, function)(argv) == 0, (dataset, argv)
