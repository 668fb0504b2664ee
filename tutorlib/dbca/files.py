"""The released MCD split format (Keysers et al. 2020; the SCAN MCD splits of the CFQ release).

A split is a JSON object of three lists of 0-based line numbers into the official SCAN
``tasks.txt`` (one ``IN: <command> OUT: <actions>`` line per pair)::

    {"trainIdxs": [3, 17, ...], "devIdxs": [...], "testIdxs": [...]}

:func:`read_index_split` reads one into (command, actions) pairs, so a split from the release can
be trained on and measured with :func:`tutorlib.dbca.divergences`; :func:`write_index_split`
writes one of ours in the same format.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tutorlib.checks import check_scalar

Pair = tuple[str, str]
KEYS = {"train": "trainIdxs", "dev": "devIdxs", "test": "testIdxs"}


@dataclass(frozen=True)
class IndexSplit:
    """A split read from index files: the pairs of each part and their line numbers."""

    train: list[Pair]
    dev: list[Pair]
    test: list[Pair]
    train_indices: list[int]
    dev_indices: list[int]
    test_indices: list[int]

    def __post_init__(self) -> None:
        for part in ("train", "dev", "test"):
            pairs, indices = getattr(self, part), getattr(self, f"{part}_indices")
            if len(pairs) != len(indices):
                raise ValueError(f"IndexSplit: {len(pairs)} {part} pairs but {len(indices)} "
                                 f"{part} line numbers")
        if not self.train or not self.test:
            raise ValueError("IndexSplit: train and test must not be empty")


def _parse_line(line: str, number: int, path: Path) -> Pair:
    text = line.strip()
    if not text.startswith("IN: ") or " OUT: " not in text:
        raise ValueError(f"{path}, line {number + 1} (index {number}): expected "
                         f"'IN: <command> OUT: <actions>', got {line!r}")
    command, actions = text[4:].split(" OUT: ", 1)
    return command, actions


def _read_utf8(path: Path) -> str:
    if path.is_dir():
        raise ValueError(f"{str(path) if str(path) != '.' else 'the current folder'} is a folder, "
                         f"not a file (give the file's path)")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path} is not UTF-8 text ({error.reason} at byte {error.start})") from None


def _check_disjoint(parts: dict[str, list[int]], where: str) -> None:
    """No line in two parts of a split."""
    names = list(parts)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            shared = sorted(set(parts[first]) & set(parts[second]))
            if shared:
                raise ValueError(f"{where}: {first} and {second} share line(s) {shared[:5]}"
                                 f"{' ...' if len(shared) > 5 else ''}; the parts of a split "
                                 "are disjoint")


def read_index_split(tasks_path: str | os.PathLike, split_path: str | os.PathLike) -> IndexSplit:
    """The train, dev and test pairs of an MCD split file over a ``tasks.txt``.

    ``devIdxs`` may be missing (an empty dev set); ``trainIdxs`` and ``testIdxs`` may not.

    Parameters
    ----------
    tasks_path : str or path-like
        The official ``tasks.txt``: line ``i`` (counting from 0) is the pair of index ``i``.
    split_path : str or path-like
        The JSON split file, with ``trainIdxs``, ``testIdxs`` and optionally ``devIdxs``.

    Returns
    -------
    IndexSplit
        The (command, actions) pairs of each part, in the order of the file's indices, and the
        indices themselves.

    Raises
    ------
    ValueError
        If the split file is not a JSON object with lists of integers under ``trainIdxs`` and
        ``testIdxs``, an index falls outside the tasks file (naming key, position and the number
        of lines), or an indexed line is not an ``IN: ... OUT: ...`` line.
    """
    tasks_path, split_path = Path(tasks_path), Path(split_path)
    lines = _read_utf8(tasks_path).splitlines()
    try:
        split = json.loads(_read_utf8(split_path))
    except json.JSONDecodeError as error:
        raise ValueError(f"{split_path} is not valid JSON: {error}") from None
    if not isinstance(split, dict):
        raise ValueError(f"{split_path}: expected a JSON object with {', '.join(KEYS.values())}, "
                         f"got {type(split).__name__}")
    unknown = [key for key in split if key not in KEYS.values()]
    if unknown:
        raise ValueError(f"{split_path}: unknown key(s) {', '.join(map(repr, unknown))}; a split "
                         f"file has {', '.join(KEYS.values())} (devIdxs may be missing)")
    parts: dict[str, list[int]] = {}
    for part, key in KEYS.items():
        if key not in split:
            if part == "dev":
                parts[part] = []
                continue
            raise ValueError(f"{split_path}: no {key!r} (keys found: {', '.join(split) or 'none'})")
        indices = split[key]
        if not isinstance(indices, list):
            raise ValueError(f"{split_path}: {key} must be a list of line numbers, "
                             f"got {type(indices).__name__}")
        for position, index in enumerate(indices):
            if isinstance(index, bool) or not isinstance(index, int):
                raise ValueError(f"{split_path}: {key}[{position}] = {index!r} is not an integer")
            if not 0 <= index < len(lines):
                raise ValueError(f"{split_path}: {key}[{position}] = {index} is outside "
                                 f"{tasks_path}, which has {len(lines)} lines "
                                 f"(indices 0 to {len(lines) - 1})")
        if len(set(indices)) != len(indices):
            twice = sorted({i for i in indices if indices.count(i) > 1})[:5]
            raise ValueError(f"{split_path}: {key} lists line(s) {twice} more than once")
        if not indices and part != "dev":
            raise ValueError(f"{split_path}: {key} is empty")
        parts[part] = indices
    _check_disjoint(parts, str(split_path))
    pairs = {part: [_parse_line(lines[i], i, tasks_path) for i in indices]
             for part, indices in parts.items()}
    return IndexSplit(pairs["train"], pairs["dev"], pairs["test"],
                      parts["train"], parts["dev"], parts["test"])


def write_index_split(path: str | os.PathLike, train: Sequence[int], test: Sequence[int],
                      dev: Sequence[int] = ()) -> Path:
    """Write line numbers in the released format (``trainIdxs``, ``devIdxs``, ``testIdxs``).

    Parameters
    ----------
    path : str or path-like
        The JSON file to write; its directory is created as needed and an existing file is
        replaced.
    train, test : sequence of int
        0-based line numbers into ``tasks.txt`` (numpy integers are accepted).
    dev : sequence of int
        The same for the dev set; empty by default.

    Returns
    -------
    Path
        ``path``.
    """
    path = Path(path)
    parts = {}
    for part, indices in (("train", train), ("dev", dev), ("test", test)):
        if isinstance(indices, (str, bytes)) or not hasattr(indices, "__iter__"):
            raise TypeError(f"{part} must be a sequence of line numbers, got "
                            f"{type(indices).__name__}")
        parts[part] = [check_scalar(i, f"{part} index", int, min_val=0) for i in indices]
        if len(set(parts[part])) != len(parts[part]):
            raise ValueError(f"{part} lists a line more than once")
    if not parts["train"] or not parts["test"]:
        raise ValueError("train and test must each hold at least one line number")
    _check_disjoint(parts, "the split")
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {KEYS[part]: parts[part] for part in ("train", "dev", "test")}
    path.write_text(json.dumps(payload))
    return path


#: The file of each released MCD split of SCAN, in the order of our MCD seeds 0, 1, 2.
MCD_FILES = ("mcd1.json", "mcd2.json", "mcd3.json")


def export(directory: str | os.PathLike, seeds: Sequence[int] = (0, 1, 2)) -> Path:
    """Write SCAN's ``tasks.txt`` and our MCD splits of it in the released format.

    Split ``k`` (``mcd1.json``, ...) is :func:`tutorlib.dbca.mcd_result_of_scan` of the
    ``k``-th seed: 8,365 training and 1,045 test line numbers (no dev set), readable by
    :func:`read_index_split` and by any toolkit that reads the release.

    Parameters
    ----------
    directory : str or path-like
        Where to write; created as needed, and files of the same names are replaced.
    seeds : sequence of int
        The MCD seeds, one file each (at most three, as in the release).

    Returns
    -------
    Path
        ``directory``.
    """
    from tutorlib.cache import atomic_write_bytes
    from tutorlib.checks import check_seed
    from tutorlib.dbca.scan_splits import mcd_result_of_scan
    from tutorlib.scan.files import format_line
    from tutorlib.scan.grammar import all_pairs
    from tutorlib.textfiles import output_directory
    from tutorlib.train import progress_bar

    seeds = [check_seed(seed) for seed in seeds]
    if not 1 <= len(seeds) <= len(MCD_FILES) or len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be 1 to {len(MCD_FILES)} different seeds, got {seeds}")
    directory = output_directory(directory)
    atomic_write_bytes(directory / "tasks.txt",
                       "".join(format_line(pair) + "\n" for pair in all_pairs()).encode())
    for name, seed in progress_bar(list(zip(MCD_FILES, seeds)), desc="MCD splits"):
        result = mcd_result_of_scan(seed)
        write_index_split(directory / name, result.train, result.test)
    return directory


def main(argv: list[str] | None = None) -> int:
    """The command line: ``python -m tutorlib.dbca export DIR`` calls :func:`export`.

    Parameters
    ----------
    argv : list of str or None
        The arguments, without the program name; ``None`` reads them from ``sys.argv``.

    Returns
    -------
    int
        The exit status: 0, or 1 with a one-line message (argparse exits with 2 on bad
        arguments).
    """
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="python -m tutorlib.dbca",
                                     description="Our MCD splits of SCAN in the released format")
    commands = parser.add_subparsers(dest="command", required=True)
    out = commands.add_parser("export", help="write tasks.txt and mcd1-3.json into DIR")
    out.add_argument("directory", metavar="DIR")
    args = parser.parse_args(argv)
    try:
        path = export(args.directory)
        print(f"MCD splits of SCAN written to {path}")
    except (ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0
