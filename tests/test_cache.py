import os
import signal
import subprocess
import sys
import time

import pytest

from tutorlib import cache


def test_cached_computes_once(tmp_path):
    calls = []

    def compute():
        calls.append(1)
        return {"weights": [1.0, 2.0]}

    assert cache.cached("model", {"lr": 0.1}, compute, tmp_path) == {"weights": [1.0, 2.0]}
    assert cache.cached("model", {"lr": 0.1}, compute, tmp_path) == {"weights": [1.0, 2.0]}
    assert len(calls) == 1


def test_key_depends_on_config_name_and_version(tmp_path, monkeypatch):
    a = cache.path_for("model", {"lr": 0.1, "seed": 0}, tmp_path)
    assert a == cache.path_for("model", {"seed": 0, "lr": 0.1}, tmp_path)  # key order is irrelevant
    assert a != cache.path_for("model", {"lr": 0.2, "seed": 0}, tmp_path)
    assert a != cache.path_for("other", {"lr": 0.1, "seed": 0}, tmp_path)
    monkeypatch.setattr(cache, "__version__", "99.0")
    assert a != cache.path_for("model", {"lr": 0.1, "seed": 0}, tmp_path)


def test_default_directory_follows_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TUTORLIB_CACHE_DIR", str(tmp_path / "here"))
    cache.store("x", {}, 1)
    assert (tmp_path / "here" / "x").is_dir()
    assert cache.load("x", {}) == 1


def test_bad_input_is_named(tmp_path):
    with pytest.raises(ValueError, match="JSON-serialisable"):
        cache.path_for("model", {"f": object()}, tmp_path)
    with pytest.raises(ValueError, match="JSON-serialisable"):
        cache.path_for("model", {"x": float("nan")}, tmp_path)
    with pytest.raises(ValueError, match="plain name"):
        cache.path_for("../up", {}, tmp_path)
    with pytest.raises(KeyError, match="no cache entry"):
        cache.load("model", {"missing": True}, tmp_path)


def test_failed_write_keeps_the_old_entry(tmp_path, monkeypatch):
    cache.store("model", {"k": 1}, "old", tmp_path)

    def fail(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        cache.store("model", {"k": 1}, "new", tmp_path)
    monkeypatch.undo()
    assert cache.load("model", {"k": 1}, tmp_path) == "old"
    assert not list(tmp_path.glob("model/*.tmp"))


WRITER = """
import sys
from tutorlib import cache
big = b"x" * 50_000_000
print("ready", flush=True)
i = 0
while True:
    cache.store("big", {"k": 1}, (i, big), sys.argv[1])
    i += 1
"""


@pytest.mark.slow
def test_killing_a_writer_never_leaves_a_truncated_entry(tmp_path):
    for _ in range(3):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)],
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(0.6)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        try:
            index, payload = cache.load("big", {"k": 1}, tmp_path)
        except KeyError:
            continue  # killed before the first write finished: no entry, which is fine
        assert len(payload) == 50_000_000


def test_clear_removes_entries(tmp_path):
    cache.store("a", {"x": 1}, 1, tmp_path)
    cache.store("b", {"x": 2}, 2, tmp_path)
    assert cache.clear(tmp_path) == 4  # two values and their configurations
    with pytest.raises(KeyError):
        cache.load("a", {"x": 1}, tmp_path)


def test_a_new_format_number_is_a_miss(tmp_path):
    calls = []

    def compute():
        calls.append(1)
        return len(calls)

    assert cache.cached("model", {"a": 1}, compute, tmp_path) == 1
    assert cache.cached("model", {"a": 1}, compute, tmp_path) == 1  # a hit
    assert cache.cached("model", {"a": 1}, compute, tmp_path, format=2) == 2  # the code changed
    assert cache.cached("model", {"a": 1}, compute, tmp_path, format=2) == 2
    with pytest.raises(ValueError, match="format must be a positive integer"):
        cache.cached("model", {"a": 1}, compute, tmp_path, format=0)


def test_an_unreadable_entry_is_a_miss_not_a_crash(tmp_path, monkeypatch):
    # an entry pickled from a class that has since moved (here: a module that no longer exists)
    module = tmp_path / "vanishing_module.py"
    module.write_text("class Thing:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import vanishing_module

    cache.store("thing", {"k": 1}, vanishing_module.Thing(), tmp_path / "c")
    module.unlink()
    monkeypatch.delitem(__import__("sys").modules, "vanishing_module")
    assert cache.cached("thing", {"k": 1}, lambda: "recomputed", tmp_path / "c") == "recomputed"
    assert cache.load("thing", {"k": 1}, tmp_path / "c") == "recomputed"
    # a truncated entry too
    path = cache.path_for("thing", {"k": 2}, tmp_path / "c")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x80\x05\x95")
    assert cache.cached("thing", {"k": 2}, lambda: "again", tmp_path / "c") == "again"


def test_every_module_that_caches_passes_its_format_number():
    """Every cached thing carries a format number next to the code that produces it."""
    import re

    from conftest import ROOT

    for path in sorted((ROOT / "tutorlib").rglob("*.py")):
        text = path.read_text()
        calls = re.findall(r"\bcached\((?:[^()]|\([^()]*\))*\)", text)
        calls = [c for c in calls if not c.startswith("cached(name")]
        if path.name == "cache.py":
            continue
        for call in calls:
            assert "format=CACHE_FORMAT" in call, f"{path.name}: {call[:60]}..."
        if calls:
            assert re.search(r"^CACHE_FORMAT = \d+", text, re.M), path.name


def test_a_foreign_file_under_a_key_is_a_miss_and_is_removed(tmp_path):
    import pickle

    path = cache.store("model", {"k": 1}, "mine", tmp_path)
    other = cache.store("model", {"k": 2}, "theirs", tmp_path)
    path.write_bytes(other.read_bytes())  # another key's entry copied over this one
    with pytest.raises(KeyError, match="not stored for 'model' with this configuration"):
        cache.load("model", {"k": 1}, tmp_path)
    assert not path.exists()
    path.write_bytes(pickle.dumps("a bare value"))
    assert cache.cached("model", {"k": 1}, lambda: "recomputed", tmp_path) == "recomputed"
    assert cache.load("model", {"k": 1}, tmp_path) == "recomputed"


def test_a_cache_that_cannot_be_written_returns_the_value_with_a_warning(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    with pytest.warns(UserWarning, match="could not store the cache entry for 'model'"):
        assert cache.cached("model", {"k": 1}, lambda: 42, blocked) == 42
