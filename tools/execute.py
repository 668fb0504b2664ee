"""Execute the chapter notebooks into the book's source tree (``make execute``).

For every ``notebooks/NN_topic.ipynb`` the book's ``_toc.yml`` names (as ``book/<part>/NN_topic``),
papermill runs the notebook with ``PROFILE`` set and writes the executed copy to
``book/<part>/NN_topic.ipynb``. The copy records a fingerprint of its source, the profile,
tutorlib's code and the committed results, so a rerun skips chapters that have not changed.

A notebook that raises fails the run: the exit status is 1 and the message names the notebook,
the cell and the error; the failed copy is kept in ``_build/failed/`` for inspection.

The executed copy hides papermill's parameter cells in the rendered book (``remove-cell``) and
states, under the chapter title, the profile it was executed with and how long it took.

After a run over the book, ``_build/live-fits.json`` lists every network the executed chapters
trained live (the rows each chapter shows with :func:`tutorlib.fit.show_live_fits`): chapter,
network, training and in-distribution accuracy, the bar, whether it passes the fit gate, and
its training seconds; one line says how many pass.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime as dt
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import papermill
import yaml

import tutorlib
from tutorlib.fit import LIVE_FITS_KEY
from tutorlib.profiles import PROFILES, check_profile

HIDDEN_TAGS = {"parameters", "injected-parameters"}


def toc_files(node) -> list[str]:
    """Every ``file`` entry of a ``_toc.yml`` structure, in reading order."""
    found: list[str] = []
    if isinstance(node, dict):
        if "file" in node:
            found.append(str(node["file"]))
        if "root" in node:
            found.append(str(node["root"]))
        for key in ("parts", "chapters", "sections"):
            for child in node.get(key, []):
                found.extend(toc_files(child))
    elif isinstance(node, list):
        for child in node:
            found.extend(toc_files(child))
    return found


def chapters(root: Path) -> list[tuple[Path, Path]]:
    """Pairs ``(notebooks/NN.ipynb, book/<part>/NN.ipynb)`` in table-of-contents order."""
    toc_path = root / "_toc.yml"
    if not toc_path.exists():
        raise SystemExit(f"error: no _toc.yml in {root}")
    entries = toc_files(yaml.safe_load(toc_path.read_text()))
    by_stem = {Path(entry).with_suffix("").name: entry for entry in entries}
    pairs = []
    for source in sorted((root / "notebooks").glob("*.ipynb")):
        if source.stem not in by_stem:
            raise SystemExit(f"error: {source.relative_to(root)} is not in _toc.yml; add "
                             f"'book/<part>/{source.stem}' to it")
        target = root / Path(by_stem[source.stem]).with_suffix(".ipynb")
        pairs.append((source, target))
    return sorted(pairs, key=lambda pair: entries.index(by_stem[pair[0].stem]))


def fingerprint(source: Path, profile: str) -> str:
    """Hash of the notebook, the profile, every file of tutorlib and the committed results
    the chapters plot (``results/*/*.json``, not the per-run records)."""
    digest = hashlib.sha256(source.read_bytes())
    digest.update(profile.encode())
    package = Path(tutorlib.__file__).parent
    checkout = package.parent
    for path in [*sorted(package.rglob("*.py")), *sorted((checkout / "results").glob("*/*.json"))]:
        digest.update(str(path.relative_to(checkout)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def is_up_to_date(target: Path, stamp: str) -> bool:
    if not target.exists():
        return False
    try:
        executed = nbformat.read(target, as_version=4)
    except Exception:  # an unreadable copy is simply executed again
        return False
    return executed.metadata.get("tutorlib_execution", {}).get("fingerprint") == stamp


def finish(notebook: nbformat.NotebookNode, profile: str, seconds: float, stamp: str,
           script: str | None = None) -> None:
    """Hide the parameter cells and state the profile and run time under the title, with a
    download link to the chapter's source (``script``: its path from the executed copy)."""
    for cell in notebook.cells:
        tags = cell.metadata.setdefault("tags", [])
        if HIDDEN_TAGS & set(tags) and "remove-cell" not in tags:
            tags.append("remove-cell")
    note = nbformat.v4.new_markdown_cell(
        f"*This page was executed at the `{profile}` profile in {seconds:.0f} s "
        f"on {dt.date.today().isoformat()} with tutorlib {tutorlib.__version__}.*"
        + (f" Its source as a Python script: {{download}}`{Path(script).name} <{script}>`."
           if script else ""))
    note.metadata["tags"] = ["execution-info"]
    notebook.cells.insert(1, note)
    notebook.metadata["tutorlib_execution"] = {"fingerprint": stamp, "profile": profile,
                                               "seconds": round(seconds, 1)}


def execute(source: Path, target: Path, profile: str, root: Path) -> str | None:
    """Execute one chapter; return an error message, or ``None`` on success."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.stem}.", suffix=".ipynb")
    os.close(fd)
    start = time.perf_counter()
    try:
        papermill.execute_notebook(str(source), tmp, parameters={"PROFILE": profile},
                                   kernel_name="python3", cwd=str(target.parent),
                                   progress_bar=False)
    except papermill.PapermillExecutionError as error:
        failed = root / "_build" / "failed" / source.name
        failed.parent.mkdir(parents=True, exist_ok=True)
        os.replace(tmp, failed)
        source_lines = "\n".join("    " + line for line in error.source.splitlines())
        return (f"{source.relative_to(root)} failed in cell {error.cell_index} "
                f"(execution count {error.exec_count}): {error.ename}: {error.evalue}\n"
                f"{source_lines}\nthe failed notebook is at {failed.relative_to(root)}")
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    seconds = time.perf_counter() - start
    notebook = nbformat.read(tmp, as_version=4)
    script = source.with_suffix(".py")
    finish(notebook, profile, seconds, fingerprint(source, profile),
           os.path.relpath(script, target.parent) if script.exists() else None)
    nbformat.write(notebook, tmp)
    os.replace(tmp, target)
    return None


def execute_in_parallel(selected: list[tuple[Path, Path]], args: argparse.Namespace,
                        root: Path) -> int:
    """Execute the chapters ``args.jobs`` at a time, each by this script in a process of its own.

    Small networks train no faster on two threads than on one, so N chapters side by side, each
    with ``cores / N`` threads, finish sooner than one after another. Chapters share nothing but
    the cache, whose entries are written atomically.
    """
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", str(max(1, (os.cpu_count() or 1) // args.jobs)))
    stale = [(source, target) for source, target in selected
             if args.force or not is_up_to_date(target, fingerprint(source, args.profile))]
    for source, target in selected:
        if (source, target) not in stale:
            print(f"up to date: {source.relative_to(root)} ({args.profile})", flush=True)

    def one(source: Path) -> subprocess.CompletedProcess:
        command = [sys.executable, str(Path(__file__).resolve()), "--root", str(root),
                   "--profile", args.profile, "--only", source.stem, "--force"]
        return subprocess.run(command, env=env, capture_output=True, text=True)

    # the longest first (as they last took, CHAPTER_SECONDS): the slowest chapter does not start
    # last while the other worker idles
    expected = chapter_seconds(root, args.profile)
    sources = sorted((source for source, _ in stale), key=lambda s: -expected.get(s.stem, 0.0))
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        running = {pool.submit(one, source): source for source in sources}
        for future in concurrent.futures.as_completed(running):
            done = future.result()
            print(done.stdout, end="", flush=True)
            print(done.stderr, end="", file=sys.stderr, flush=True)
            if done.returncode != 0:
                failures.append(running[future].relative_to(root))
    if failures:
        print(f"{len(failures)} notebook(s) failed: {', '.join(map(str, failures))}",
              file=sys.stderr)
        return 1
    return 0


CHAPTER_SECONDS = Path("tools") / "chapter_seconds.json"


def chapter_seconds(root: Path, profile: str) -> dict[str, float]:
    """Seconds each chapter took when last measured at ``profile`` (``tools/chapter_seconds.json``,
    committed; ``make execute`` writes the new figures to ``_build/chapter-seconds.json``)."""
    path = root / CHAPTER_SECONDS
    try:
        return {k: float(v) for k, v in json.loads(path.read_text()).get(profile, {}).items()}
    except (OSError, ValueError, AttributeError):
        return {}


def write_chapter_seconds(selected: list[tuple[Path, Path]], root: Path, profile: str) -> None:
    """``_build/chapter-seconds.json``: the seconds each executed chapter took, by profile, in the
    layout of ``tools/chapter_seconds.json`` (copy it there to schedule by them)."""
    measured = {}
    for _, target in selected:
        if target.exists():
            meta = nbformat.read(target, as_version=4).metadata.get("tutorlib_execution", {})
            if meta.get("profile") == profile and "seconds" in meta:
                measured[target.stem] = meta["seconds"]
    path = root / "_build" / "chapter-seconds.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({profile: measured}, indent=1, sort_keys=True) + "\n")


def live_fits(selected: list[tuple[Path, Path]]) -> dict:
    """Every network the executed chapters trained live (the rows of
    :func:`tutorlib.fit.show_live_fits`, from the outputs' metadata), each with its chapter."""
    rows, profiles = [], set()
    for _, target in selected:
        if not target.exists():
            continue
        notebook = nbformat.read(target, as_version=4)
        profiles.add(notebook.metadata.get("tutorlib_execution", {}).get("profile"))
        for cell in notebook.cells:
            for output in cell.get("outputs", []):
                for row in output.get("metadata", {}).get(LIVE_FITS_KEY, []):
                    rows.append({"chapter": target.stem, **row})
    return {"profile": ", ".join(sorted(p for p in profiles if p)) or None,
            "tutorlib": tutorlib.__version__, "networks": len(rows),
            "passed": sum(bool(r["passes"]) for r in rows), "rows": rows}


def write_live_fits(selected: list[tuple[Path, Path]], root: Path) -> Path:
    """Write ``_build/live-fits.json`` and print a one-line summary of it."""
    record = live_fits(selected)
    path = root / "_build" / "live-fits.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n")
    failed = [f"{r['chapter']}: {r['network']} ({r['reason']})" for r in record["rows"]
              if not r["passes"]]
    shown = "; ".join(failed[:5]) + (f"; and {len(failed) - 5} more" if len(failed) > 5 else "")
    print(f"live networks ({record['profile']} profile): {record['networks']} trained, "
          f"{record['passed']} pass the fit gate" + (f"; failing: {shown}" if failed else "")
          + f" ({path.relative_to(root)})", flush=True)
    return path


def main(argv: list[str] | None = None) -> int:
    # Progress bars are for a reader at a terminal or in Jupyter; in the built book they are
    # debris, so the executed chapters run without them (the kernels inherit this).
    os.environ.setdefault("TQDM_DISABLE", "1")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=".", help="project root with _toc.yml and notebooks/")
    parser.add_argument("--profile", default="tutorial", choices=PROFILES)
    parser.add_argument("--force", action="store_true", help="execute even unchanged chapters")
    parser.add_argument("--only", metavar="NN",
                        help="execute only the chapters whose file name starts with NN (e.g. 05), "
                             "or the one chapter named exactly")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="execute N chapters at once, each in its own process (default 1)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    args.profile = check_profile(args.profile)
    root = Path(args.root).resolve()
    failures = []
    selected = [(s, t) for s, t in chapters(root) if not args.only or s.name.startswith(args.only)]
    exact = [(s, t) for s, t in selected if s.stem == args.only]
    selected = exact or selected  # "14_orchard" is that chapter, not also 14_orchard_full_runs
    if not selected:
        print(f"error: no chapter's file name starts with {args.only!r}", file=sys.stderr)
        return 2
    if args.jobs > 1 and len(selected) > 1:
        status = execute_in_parallel(selected, args, root)
        write_live_fits(selected, root)
        write_chapter_seconds(selected, root, args.profile)
        return status
    for source, target in selected:
        stamp = fingerprint(source, args.profile)
        name = source.relative_to(root)
        if not args.force and is_up_to_date(target, stamp):
            print(f"up to date: {name} ({args.profile})", flush=True)
            continue
        print(f"executing {name} at the {args.profile} profile -> {target.relative_to(root)}",
              flush=True)
        start = time.perf_counter()
        error = execute(source, target, args.profile, root)
        if error:
            print(f"FAILED: {error}", file=sys.stderr, flush=True)
            failures.append(name)
        else:
            print(f"  done in {time.perf_counter() - start:.1f} s", flush=True)
    if not args.only:  # a single chapter's run (as the parallel path starts) leaves the file
        write_live_fits(selected, root)
    if failures:
        print(f"{len(failures)} notebook(s) failed: {', '.join(map(str, failures))}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
