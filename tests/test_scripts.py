"""The chapter sources run as plain Python scripts (``python notebooks/NN_topic.py``), not only in
Jupyter: every name a chapter uses is defined or imported in it (a static check of all of them),
and one cheap chapter is run as a script."""

import ast
import builtins
import os
import subprocess
import sys

import pytest
from conftest import ROOT

SOURCES = sorted((ROOT / "notebooks").glob("*.py"))


def unbound_names(source: str) -> list[tuple[str, int]]:
    """Names a module reads that nothing in it binds (imports, assignments, definitions,
    arguments, loop and ``with`` targets, ``except ... as``) and that are not builtins, with the
    line of their first use. Bindings anywhere in the file count, so this finds what a script
    never defines (Jupyter's ``display``), not uses before definition."""
    tree = ast.parse(source)
    bound = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound |= set(node.names)
    first: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in bound:
            first[node.id] = min(node.lineno, first.get(node.id, node.lineno))
    return sorted(first.items(), key=lambda item: item[1])


def test_the_check_finds_what_a_script_lacks():
    source = "import pandas as pd\nfrom x import y as z\nfor i in range(3):\n    display(pd, z, i)\n"
    assert unbound_names(source) == [("display", 4)]
    assert unbound_names("def f(a, *b, c=1, **d):\n    return a, b, c, d, f\n") == []
    assert unbound_names("[k for k in v]\nwith open('x') as h:\n    print(h)\n") == [("v", 1)]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_every_name_a_chapter_uses_is_defined_in_it(path):
    missing = unbound_names(path.read_text())
    assert not missing, (f"{path.name} uses names it never defines or imports (as a plain script "
                         f"it fails): {', '.join(f'{n} (line {line})' for n, line in missing)}")


@pytest.mark.slow
def test_the_foundations_chapter_runs_as_a_script(tmp_path):
    env = {**os.environ, "MPLBACKEND": "Agg", "TQDM_DISABLE": "1", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, str(ROOT / "notebooks" / "01_compositionality.py")],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
