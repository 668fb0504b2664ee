"""The battery of bad calls (tools/bad_calls.py): every public name, the results store, the cache
and the command line, given None, wrong types, empty input, out-of-range numbers and malformed
files. Raw internal errors and silent acceptances stay under 5% of the calls, and none at all in
the results store, the cache or the command line."""

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def battery():
    spec = importlib.util.spec_from_file_location("bad_calls", ROOT / "tools" / "bad_calls.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bad_calls"] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    calls = module.run_battery(limit=3.0)
    return module, calls


def _not_clear(calls, modules=None):
    return [f"{c.outcome}: {c.module}.{c.name} [{c.label}] {c.detail}" for c in calls
            if c.outcome in ("raw", "accepted", "slow") and (modules is None or c.module in modules)]


@pytest.mark.slow
def test_the_battery_tries_every_part_of_the_package(battery):
    module, calls = battery
    tried = {c.module for c in calls}
    assert set(module.MODULES) | {"command line"} <= tried
    assert len(calls) > 2000


def test_at_most_five_percent_of_bad_calls_get_a_raw_error_or_are_accepted(battery):
    _, calls = battery
    bad = [c for c in calls if c.outcome in ("raw", "accepted")]
    share = len(bad) / len(calls)
    assert share <= 0.05, "\n".join(_not_clear(calls))


def test_the_results_store_cache_and_command_line_answer_every_bad_call_clearly(battery):
    _, calls = battery
    assert _not_clear(calls, {"tutorlib.results", "tutorlib.cache", "command line"}) == []


def test_a_bad_argument_is_named_with_its_function(battery):
    from tutorlib import scan, seq2seq

    with pytest.raises(TypeError, match=r"split: name must be a string, got None"):
        scan.split(None)
    with pytest.raises(ValueError, match=r"TrainSettings: learning_rate must be a finite number"):
        seq2seq.TrainSettings(learning_rate=float("inf"))
    with pytest.raises(TypeError, match=r"format_line: pair must be a tuple of 2"):
        scan.format_line([])


def test_the_guard_keeps_names_documentation_and_pickling():
    import pickle

    from tutorlib import orchard, scan
    from tutorlib.scan import splits

    assert scan.split.__doc__ == splits.split.__doc__
    assert scan.split.__name__ == "split"
    assert pickle.loads(pickle.dumps(scan.split)) is scan.split
    # ORCHARD's tree nodes, built by the million by its parser, are left unguarded
    assert not getattr(orchard.Digit.__init__, "__tutorlib_guarded__", False)
