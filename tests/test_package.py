"""The package's shape: dependencies point one way, the CLI starts light, a wheel holds every
module."""

import ast
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT

from tutorlib import registry

PACKAGE = ROOT / "tutorlib"

# The study modules: one per study or experiment of a book part (they may use everything).
# Every other module inside a part is a method module (a dataset, a measure, a splitter), which
# uses only methods and shared pieces; the flat top-level modules are the shared pieces, which
# use only each other.
STUDIES = {registry.EXPERIMENTS[name].module for name in registry.names(runnable=True)} | {
    "tutorlib.pcfgset.report", "tutorlib.pcfgset.length_report", "tutorlib.pcfgset.pilot_report",
    "tutorlib.pcfgset.released_report", "tutorlib.pcfgset.pipeline", "tutorlib.scan.report",
    "tutorlib.scan.training",
    "tutorlib.orchard.report", "tutorlib.dbca.report", "tutorlib.tre.report",
    "tutorlib.tre.languages", "tutorlib.tre.digits", "tutorlib.tre.concepts",
    "tutorlib.tre.learner", "tutorlib.tre.corpora",
    "tutorlib.tre.wordvec", "tutorlib.tre.judgments", "tutorlib.tre.refgame",
    "tutorlib.claims",
    # each part's claims, beside the part, read through the claims engine
    "tutorlib.scan.claims", "tutorlib.tre.claims", "tutorlib.pcfgset.claims",
    "tutorlib.orchard.claims", "tutorlib.dbca.claims",
    # the report card puts one model through every part's studies
    "tutorlib.card", "tutorlib.card.scoring", "tutorlib.card.contract",
    "tutorlib.card.tasks", "tutorlib.card.analysis", "tutorlib.card.agreement",
    "tutorlib.card.report",
}
LAYERS = {"shared": 0, "method": 1, "study": 2}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(module: str) -> str:
    if module in STUDIES:
        return "study"
    return "method" if module.count(".") >= 2 or (
        module.count(".") == 1 and (PACKAGE / module.split(".")[1]).is_dir()) else "shared"


def imports(path: Path) -> set[str]:
    """Every tutorlib module ``path`` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("tutorlib")}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tutorlib"):
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                is_module = (PACKAGE.parent / (candidate.replace(".", "/") + ".py")).exists() or (
                    PACKAGE.parent / candidate.replace(".", "/")).is_dir()
                found.add(candidate if is_module else node.module)
    return found


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def test_the_layer_table_names_real_modules():
    assert STUDIES <= set(MODULES)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_dependencies_point_one_way(module):
    """studies -> methods -> shared pieces: no module imports from a layer above its own."""
    mine = LAYERS[layer(module)]
    for imported in sorted(imports(MODULES[module])):
        if imported == "tutorlib":
            continue
        assert LAYERS[layer(imported)] <= mine, (
            f"{module} ({layer(module)}) imports {imported} ({layer(imported)})")


def graph() -> dict[str, set[str]]:
    """``{module: {tutorlib modules it imports}}``; a package's ``__init__`` re-exporting its own
    modules is not a dependency of them."""
    found = {}
    for module, path in MODULES.items():
        edges = {i for i in imports(path) if i in MODULES and i != module}
        if path.name == "__init__.py":
            edges = {i for i in edges if not i.startswith(module + ".")}
        found[module] = edges
    return found


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def private_imports(path: Path) -> list[str]:
    """The private names (``_name``) ``path`` takes from another tutorlib module."""
    return [f"{node.module}.{alias.name}" for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tutorlib")
            for alias in node.names
            if alias.name.startswith("_") and not alias.name.startswith("__")]


@pytest.mark.slow
def test_no_import_cycles_and_no_private_names_across_files():
    assert cycles(graph()) == []
    assert [f"{m} imports {name}" for m, p in MODULES.items() for name in private_imports(p)] == []
    # the checks themselves find what they look for
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.slow
def test_the_seq2seq_package_keeps_one_file_per_architecture():
    edges = graph()
    for name in ["tutorlib.seq2seq.recurrent", "tutorlib.seq2seq.transformer",
                 "tutorlib.seq2seq.convolutional"]:  # each reads on its own
        assert edges[name] <= {"tutorlib.seq2seq.config", "tutorlib.seq2seq.interface",
                               "tutorlib.seq2seq.layers", "tutorlib.seq2seq.vocab"}, name


def test_no_module_asks_which_architecture_a_model_is():
    """Adding an architecture is its file and one registry line: outside the architectures'
    own files and the package's exports, no module imports their classes or tests a model
    against them; every registered class meets the written interface."""
    from tutorlib.seq2seq import config, interface

    classes = {"RNNSeq2Seq", "TransformerSeq2Seq", "ConvSeq2Seq"}
    own = {"recurrent.py", "transformer.py", "convolutional.py", "__init__.py"}
    found = []
    for path in sorted((ROOT / "tutorlib").rglob("*.py")):
        if path.parent.name == "seq2seq" and path.name in own:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = set()
            if isinstance(node, ast.ImportFrom):
                names = {alias.name for alias in node.names}
            elif isinstance(node, ast.Attribute):
                names = {node.attr}
            elif isinstance(node, ast.Name):
                names = {node.id}
            found += [f"{path.relative_to(ROOT)}:{node.lineno} {name}" for name in names & classes]
    assert found == []
    assert config.CELLS == tuple(config.ARCHITECTURES)
    for cell in config.ARCHITECTURES:
        model = config.architecture_class(cell)(config.Seq2SeqConfig(cell, 8, 1, 0.0,
                                                                     num_heads=2), 6, 6)
        assert isinstance(model, interface.Architecture), cell


def test_the_command_line_starts_without_torch():
    code = ("import runpy, sys\n"
            "sys.argv = ['tutorlib', '--help']\n"
            "try:\n    runpy.run_module('tutorlib', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "heavy = [m for m in ('torch', 'pandas', 'matplotlib') if m in sys.modules]\n"
            "assert not heavy, heavy\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "usage: python -m tutorlib" in out.stdout


@pytest.mark.slow
def test_a_built_wheel_holds_every_module(tmp_path):
    """pyproject finds the subpackages: a wheel installed into a fresh virtual environment
    imports every module (the dependencies come from this environment, read-only)."""
    # build from a copy, so that setuptools' build/ folder does not land in the checkout
    source = tmp_path / "source"
    shutil.copytree(ROOT / "tutorlib", source / "tutorlib",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    dist = tmp_path / "dist"
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                          "-q", "-w", str(dist), str(source)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    (wheel,) = dist.glob("tutorlib-*.whl")
    # PEP 561: the type hints reach editors and type checkers
    assert "tutorlib/py.typed" in zipfile.ZipFile(wheel).namelist()
    env = tmp_path / "fresh"
    venv.EnvBuilder(with_pip=False).create(env)
    site = next(env.glob("lib/python*/site-packages"))
    out = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q",
                          "--target", str(site), str(wheel)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    # numpy, torch, ... from this environment, after the fresh one's own packages
    ours = [p for p in sys.path if p.endswith("site-packages")]
    (site / "zz_dependencies.pth").write_text("\n".join(ours) + "\n")
    names = sorted(m for m in MODULES if not m.endswith("__main__"))
    code = ("import importlib, tutorlib, sys\n"
            f"assert tutorlib.__file__.startswith({str(site)!r}), tutorlib.__file__\n"
            f"for name in {names!r}:\n    importlib.import_module(name)\n"
            "from tutorlib import results\n"
            "try:\n    results.committed('scan')\n"
            "except FileNotFoundError as error:\n    assert 'TUTORLIB_RESULTS_DIR' in str(error)\n"
            "else:\n    raise AssertionError('no message saying where the results are')\n"
            "print('imported', len(sys.modules))\n")
    python = env / "bin" / "python"
    out = subprocess.run([str(python), "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert out.returncode == 0, out.stderr[-3000:]
    # pointed at a checkout's results, the installed package reads them, and its CLI starts
    pointed = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
               "TUTORLIB_RESULTS_DIR": str(ROOT / "results")}
    out = subprocess.run([str(python), "-c", "from tutorlib import results; "
                          "print(len(results.committed('scan')['data']['runs']))"],
                         cwd=tmp_path, capture_output=True, text=True, env=pointed)
    assert out.returncode == 0 and int(out.stdout) > 0, out.stderr[-3000:]
    out = subprocess.run([str(python), "-m", "tutorlib", "--help"], cwd=tmp_path,
                         capture_output=True, text=True, env=pointed)
    assert out.returncode == 0 and "run" in out.stdout, out.stderr[-3000:]
