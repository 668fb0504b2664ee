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
