import sys
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    """Every test gets its own empty cache directory."""
    monkeypatch.setenv("TUTORLIB_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def one_thread():
    """Train on one thread, so that small models' timings and training tests mean the same on
    every machine (two threads on a busy two-core machine are many times slower)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
