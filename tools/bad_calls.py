"""A battery of bad calls: every public name of tutorlib, the results store and the command line.

Each call gets input a careful user might try by mistake (``None``, a value of the wrong type,
an empty input, a negative, fractional or non-finite number, a file that is missing, a folder,
empty, truncated or not UTF-8) and is sorted by what came back:

- **clear**: an exception raised on purpose by tutorlib (its ``raise`` line is in the package),
  of a kind a caller expects (``TypeError``, ``ValueError``, ``KeyError``, an ``OSError`` about
  the file), or for the command line a one-line message and a non-zero exit;
- **raw**: any other exception (an ``AttributeError`` three frames down, an ``IndexError``, a
  NumPy or PyTorch error, a traceback on the command line);
- **accepted**: a value came back for nonsense (or the command line exited 0), unless the
  argument is one a caller may legitimately give (listed in :data:`ACCEPTABLE` with why);
- **slow**: still running after the time limit (interrupted; counted apart).

Run ``python tools/bad_calls.py`` for the table per subpackage (``--list`` prints every call
that was not clear); ``tests/test_bad_calls.py`` holds the counts to the issue's bound (raw and
accepted together at most 1% of the calls, none in the results store or the command line).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import io
import math
import os
import signal
import sys
import tempfile
import traceback
import warnings
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "tutorlib"

#: The subpackages and flat modules whose public names are tried.
MODULES = ("tutorlib.card", "tutorlib.scan", "tutorlib.pcfgset", "tutorlib.orchard", "tutorlib.dbca",
           "tutorlib.tre",
           "tutorlib.seq2seq", "tutorlib.claims", "tutorlib.verdicts", "tutorlib.fit",
           "tutorlib.textfiles", "tutorlib.cache",
           "tutorlib.checks", "tutorlib.compositionality", "tutorlib.facts", "tutorlib.hub",
           "tutorlib.plotting",
           "tutorlib.profiles", "tutorlib.registry", "tutorlib.results", "tutorlib.stats",
           "tutorlib.train", "tutorlib.trees")

#: Names not called: they take no input a user gives, or their job is to act on the machine.
SKIPPED = {"tutorlib.results.start_mps": "starts a GPU daemon",
           "tutorlib.cache.cache_dir": "takes no arguments",
           "tutorlib.train.progress_bar": "wraps any iterable, as tqdm does"}

#: The bad values given in place of every argument.
BAD = {"None": None, "wrong type": object(), "empty text": "", "empty list": [],
       "negative": -1, "fraction": 1.5, "NaN": math.nan, "True": True}

#: Calls that may legitimately return: (qualified name, bad value's label) -> why. A label of
#: "*" covers every bad value.
ACCEPTABLE = {
    ("tutorlib.checks.check_outputs", "empty list"): "no outputs are no outputs; scorers "
                                                      "refuse an empty set themselves",
    ("tutorlib.textfiles.read_lines", "empty file"): "a file with no lines has no lines",
    ("tutorlib.textfiles.read_lines", "truncated JSON"): "any UTF-8 text has lines",
    ("tutorlib.card.read_predictions", "truncated JSON"): "any UTF-8 text is one prediction "
                                                           "per line",
    ("tutorlib.card.check_predictions", "empty list"): "no predictions for no sources is "
                                                        "right",
    ("tutorlib.results.RowLog", "missing file"): "a new log starts where none is",
    ("tutorlib.results.git_commit(directory=)", "empty text"): "the current folder",
    ("tutorlib.stats.levenshtein", "empty list"): "the distance between empty sequences is 0",
    ("tutorlib.tre.levenshtein", "empty list"): "the distance between empty sequences is 0",
    ("tutorlib.trees.is_primitive", "*"): "answers whether anything is a primitive",
    ("tutorlib.stats.levenshtein", "empty text"): "the distance between empty strings is 0",
    ("tutorlib.tre.levenshtein", "empty text"): "the distance between empty strings is 0",
    ("tutorlib.stats.levenshtein_python", "empty text"): "the distance between empty strings "
                                                          "is 0",
    ("tutorlib.stats.levenshtein_python", "empty list"): "the distance between empty sequences "
                                                         "is 0",
    ("tutorlib.stats.edit_distances_are_compiled", "empty text"): "a yes/no question about "
                                                                  "no messages",
    ("tutorlib.stats.edit_distances_are_compiled", "empty list"): "a yes/no question about "
                                                                  "no messages",
    ("tutorlib.stats.as_symbols", "*"): "documented: any single value is a message of one symbol",
    ("tutorlib.stats.pearson", "empty list"): "documented: None where the correlation is "
                                              "undefined (fewer than two pairs)",
    ("tutorlib.stats.average_ranks", "empty list"): "no values have no ranks",
    ("tutorlib.facts.number", "negative"): "a negative number is a number",
    ("tutorlib.facts.number", "fraction"): "1.5 is a number",
    ("tutorlib.claims.within", "fraction"): "a tolerance of 1.5 points is a tolerance",
    ("tutorlib.claims.close_to", "fraction"): "a tolerance of 1.5 is a tolerance",
    ("tutorlib.verdicts.within", "fraction"): "a tolerance of 1.5 points is a tolerance",
    ("tutorlib.verdicts.close_to", "fraction"): "a tolerance of 1.5 is a tolerance",
    ("tutorlib.fit.passes", "None"): "documented: a training accuracy not measured fails",
    ("tutorlib.fit.reason", "None"): "documented: says the training accuracy was not measured",
    # "" is an empty sequence to Python: the answer for no items, as for []
    ("tutorlib.orchard.tokenize", "empty text"): "an empty line has no tokens",
    ("tutorlib.pcfgset.statistics", "empty text"): "the statistics of no pairs (as for [])",
    ("tutorlib.dbca.atom_counts", "empty text"): "counts over no items (as for [])",
    ("tutorlib.dbca.compound_weights", "empty text"): "weights over no items (as for [])",
    ("tutorlib.dbca.weight_table", "empty text"): "a table of no items (as for [])",
    ("tutorlib.compositionality.atoms", "empty text"): "counts over no objects (as for [])",
    ("tutorlib.compositionality.compounds", "empty text"): "counts over no objects (as for [])",
    ("tutorlib.textfiles.check_field", "empty text"): "an empty field still fills one line",
    ("tutorlib.textfiles.read_text", "empty file"): "an empty file holds the empty text",
    ("tutorlib.textfiles.read_text", "truncated JSON"): "any UTF-8 file holds text",
    ("tutorlib.registry.names(runnable=)", "True"): "a flag",
    ("tutorlib.scan.length_counts", "empty list"): "counts over no pairs are empty counts",
    ("tutorlib.orchard.depth_counts", "empty list"): "counts over no pairs are empty counts",
    ("tutorlib.orchard.input_lengths", "empty list"): "no pairs have no lengths",
    ("tutorlib.orchard.has_copy_fraction", "empty list"): "documented: 0.0 for no pairs",
    ("tutorlib.dbca.atom_counts", "empty list"): "counts over no items are empty counts",
    ("tutorlib.dbca.compound_weights", "empty list"): "weights over no items are empty",
    ("tutorlib.dbca.weight_table", "empty list"): "a table of no items is empty",
    ("tutorlib.compositionality.atoms", "empty list"): "counts over no objects are empty",
    ("tutorlib.compositionality.compounds", "empty list"): "counts over no objects are empty",
    ("tutorlib.pcfgset.unrolled_lines", "empty list"): "no pairs make no lines",
    ("tutorlib.pcfgset.statistics", "empty list"): "the statistics of no pairs are empty counts",
    ("tutorlib.seq2seq.Vocabulary", "empty list"): "a vocabulary of the special symbols alone",
    ("tutorlib.cache.canonical_json", "*"): "any JSON-serialisable value is a configuration",
    ("tutorlib.cache.canonical_json", "wrong type"): "stored as its repr, as the docs say",
    ("tutorlib.plotting.use_book_style", "*"): "takes no input",
    ("tutorlib.registry.names", "*"): "takes no input",
    ("tutorlib.profiles.experiments", "*"): "takes no input",
    ("tutorlib.results.git_commit", "*"): "None when the folder is not a checkout, as documented",
}

@dataclass
class Call:
    module: str
    name: str
    label: str
    outcome: str  # clear / raw / accepted / slow / acceptable
    detail: str = ""


class _Slow(BaseException):
    pass


def _alarm(signum, frame):  # noqa: ARG001
    raise _Slow


def _is_clear(error: BaseException) -> bool:
    if isinstance(error, (AttributeError, IndexError, ZeroDivisionError, RecursionError,
                          UnicodeError, NameError, AssertionError, StopIteration)):
        return False
    if not isinstance(error, (TypeError, ValueError, LookupError, OSError, RuntimeError)):
        return False
    if type(error).__name__ == "ArgumentTypeError":  # beartype's refusal: names both
        return True
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return False
    last = frames[-1]
    line = (last.line or "").strip()
    inside = Path(last.filename).resolve().is_relative_to(PACKAGE)
    return inside and line.startswith("raise ") and line != "raise"


def _classify(module: str, name: str, label: str, call, limit: float) -> Call:
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()):
            warnings.simplefilter("ignore")
            call()
    except _Slow:
        return Call(module, name, label, "slow")
    except SystemExit as stop:  # a command-line entry point refusing its arguments
        outcome = "clear" if stop.code not in (0, None) else "accepted"
        return Call(module, name, label, outcome, f"exit {stop.code}")
    except Exception as error:  # noqa: BLE001 - sorting every failure is the point
        signal.setitimer(signal.ITIMER_REAL, 0)
        outcome = "clear" if _is_clear(error) else "raw"
        return Call(module, name, label, outcome, f"{type(error).__name__}: {error}"[:160])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _close_figures()
    key = f"{module}.{name}"
    if (key, label) in ACCEPTABLE or (key, "*") in ACCEPTABLE:
        return Call(module, name, label, "acceptable")
    return Call(module, name, label, "accepted")


def _close_figures():
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


def public_names(module_name: str) -> list[tuple[str, object]]:
    """The callables a user of ``module_name`` may import from it."""
    try:
        module = importlib.import_module(module_name)
    except ImportError:  # an older checkout, measured for comparison, may lack a module
        return []
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, o in vars(module).items()
                 if not n.startswith("_") and getattr(o, "__module__", None) == module_name]
    found = []
    for name in names:
        obj = getattr(module, name)
        if getattr(obj, "__module__", None) == "builtins":  # an alias, e.g. Compound = tuple
            continue
        if callable(obj) and f"{module_name}.{name}" not in SKIPPED:
            found.append((name, obj))
    return found


def _parameters(obj) -> list[inspect.Parameter] | None:
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    return [p for p in signature.parameters.values()
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name != "self"]


def _bad_files(directory: Path) -> dict[str, Path]:
    files = {"missing file": directory / "missing.txt", "a folder": directory / "folder",
             "empty file": directory / "empty.txt", "not UTF-8": directory / "latin1.txt",
             "truncated JSON": directory / "truncated.json"}
    files["a folder"].mkdir(exist_ok=True)
    files["empty file"].write_text("")
    files["not UTF-8"].write_bytes("caf\xe9 na\xefve\n".encode("latin-1"))
    files["truncated JSON"].write_text('{"data": {"runs": [1, 2')
    return files


def function_calls(module_name: str, limit: float, files: dict[str, Path]) -> list[Call]:
    """Every public name of ``module_name`` called with each bad value."""
    calls = []
    for name, obj in public_names(module_name):
        parameters = _parameters(obj)
        if parameters is None:
            continue
        required = [p for p in parameters if p.default is p.empty]
        reads = name.startswith(("read", "load")) or name in {"RowLog", "RunStore"}
        if required:
            for label, bad in BAD.items():
                args = [bad for p in required if p.kind is not p.KEYWORD_ONLY]
                kwargs = {p.name: bad for p in required if p.kind is p.KEYWORD_ONLY}
                calls.append(_classify(module_name, name, label,
                                       lambda a=args, k=kwargs, f=obj: f(*a, **k), limit))
            if reads and required[0].kind is not required[0].KEYWORD_ONLY:
                rest = [None] * (len(required) - 1)
                for label, path in files.items():
                    calls.append(_classify(module_name, name, label,
                                           lambda p=path, r=rest, f=obj: f(p, *r), limit))
        else:
            # nothing is required: each argument in turn gets every bad value
            for parameter in parameters:
                for label, bad in BAD.items():
                    if label == "None" and parameter.default is None:
                        continue
                    if label == "True" and isinstance(parameter.default, bool):
                        continue
                    if label == "fraction" and "float" in str(parameter.annotation):
                        continue  # 1.5 is a fine value for a real-valued setting
                    calls.append(_classify(module_name, f"{name}({parameter.name}=)", label,
                                           lambda p=parameter.name, b=bad, f=obj: f(**{p: b}), limit))
    return calls


#: Command lines a user might mistype, each expected to fail with one line and a non-zero exit.
def cli_cases(directory: Path) -> list[tuple[str, list[str]]]:
    a_file = directory / "a-file.txt"
    a_file.write_text("not a folder\n")
    locked = directory / "locked"
    locked.mkdir(exist_ok=True)
    locked.chmod(0o500)
    malformed = directory / "malformed.json"
    malformed.write_text("{")
    cases = [
        ("unknown experiment", ["run", "nonsense"]),
        ("unknown profile", ["run", "compositionality", "--profile", "nope"]),
        ("--out is a file", ["run", "compositionality", "--profile", "tutorial", "--out",
                             str(a_file)]),
        ("--jobs 0", ["run", "compositionality", "--profile", "tutorial", "--jobs", "0"]),
        ("--jobs -3", ["run", "compositionality", "--profile", "tutorial", "--jobs", "-3"]),
        ("--jobs text", ["run", "compositionality", "--jobs", "many"]),
        ("--seeds text", ["run", "compositionality", "--profile", "tutorial", "--seeds", "a,b"]),
        ("--seeds negative", ["run", "compositionality", "--profile", "tutorial", "--seeds",
                              "-1"]),
        ("--only unknown", ["run", "compositionality", "--profile", "tutorial", "--only",
                            "nothing-here", "--out", str(directory / "o1")]),
        ("--device nope", ["run", "compositionality", "--profile", "tutorial", "--device",
                           "nope", "--out", str(directory / "o2")]),
        ("--scheduler unreachable", ["run", "compositionality", "--profile", "tutorial",
                                     "--scheduler", "tcp://127.0.0.1:9", "--out",
                                     str(directory / "o3")]),
        ("unknown dataset", ["export", "nonsense", str(directory / "e1")]),
        ("export into a file", ["export", "scan", str(a_file)]),
        ("results on a folder", ["results", str(directory)]),
        ("results on a missing file", ["results", str(directory / "absent.json")]),
        ("results on a malformed file", ["results", str(malformed)]),
        ("profiles of an unknown experiment", ["profiles", "nonsense"]),
        ("no command", []),
        ("unknown option", ["--frobnicate"]),
    ]
    if os.geteuid() != 0:  # root writes anywhere: a read-only folder is not one for it
        cases.append(("--out not writable", ["run", "compositionality", "--profile", "tutorial",
                                             "--out", str(locked / "inside")]))
        cases.append(("export into a read-only folder", ["export", "scan",
                                                         str(locked / "inside")]))
    import torch
    if not torch.cuda.is_available():
        cases.append(("--device cuda without a GPU", ["run", "compositionality", "--profile",
                                                      "tutorial", "--device", "cuda", "--jobs",
                                                      "2", "--out", str(directory / "o4")]))
    return cases


def cli_calls(directory: Path, limit: float) -> list[Call]:
    from tutorlib import cli

    calls = []
    for label, argv in cli_cases(directory):
        out, err = io.StringIO(), io.StringIO()
        signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = cli.main(argv)
        except SystemExit as stop:
            code = stop.code
        except _Slow:
            calls.append(Call("command line", "tutorlib", label, "slow"))
            continue
        except Exception as error:  # noqa: BLE001
            calls.append(Call("command line", "tutorlib", label, "raw",
                              f"{type(error).__name__}: {error}"[:160]))
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        message = err.getvalue().strip()
        if "Traceback" in message:
            outcome = "raw"
        elif code in (0, None):
            outcome = "accepted"
        else:
            outcome = "clear" if message else "raw"
        calls.append(Call("command line", "tutorlib", label, outcome, message[-160:]))
    (directory / "locked").chmod(0o700)
    return calls


def run_battery(limit: float = 3.0) -> list[Call]:
    """Every call of the battery, in a scratch folder that also holds the results and cache."""
    import matplotlib

    matplotlib.use("Agg")
    import torch

    torch.set_num_threads(1)
    calls: list[Call] = []
    here = os.getcwd()
    saved = {k: os.environ.get(k) for k in ("TUTORLIB_RESULTS_DIR", "TUTORLIB_CACHE_DIR")}
    with tempfile.TemporaryDirectory() as scratch:
        scratch_path = Path(scratch)
        os.environ["TUTORLIB_RESULTS_DIR"] = str(scratch_path / "results")
        os.environ["TUTORLIB_CACHE_DIR"] = str(scratch_path / "cache")
        os.chdir(scratch)
        try:
            files = _bad_files(scratch_path)
            for module_name in MODULES:
                calls += function_calls(module_name, limit, files)
            calls += cli_calls(scratch_path, limit * 5)
        finally:
            os.chdir(here)
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
    return calls


def table(calls: list[Call]):
    """Counts per module: calls, clear, raw, accepted, slow and the share of raw + accepted."""
    import pandas as pd

    frame = pd.DataFrame([c.__dict__ for c in calls])
    counts = frame.pivot_table(index="module", columns="outcome", values="name", aggfunc="count",
                               fill_value=0)
    for column in ("clear", "raw", "accepted", "acceptable", "slow"):
        if column not in counts:
            counts[column] = 0
    counts = counts[["clear", "acceptable", "raw", "accepted", "slow"]]
    counts.loc["all"] = counts.sum()
    counts.insert(0, "calls", counts.sum(axis=1))
    counts["raw + accepted (%)"] = (100 * (counts["raw"] + counts["accepted"])
                                    / counts["calls"]).round(1)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="print every call that was not clear")
    parser.add_argument("--limit", type=float, default=3.0, help="seconds a call may take")
    args = parser.parse_args(argv)
    calls = run_battery(args.limit)
    if args.list:
        for call in calls:
            if call.outcome in ("raw", "accepted", "slow"):
                print(f"{call.outcome:9} {call.module}.{call.name} [{call.label}] {call.detail}")
    print(table(calls).to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main())
