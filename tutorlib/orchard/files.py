"""ORCHARD's files, in the layout of the release (https://github.com/billptw/Orchard).

The release's ``generate_tree.py`` writes one directory per variant holding, for each part,
``{part}.input`` (one input line per example) and ``{part}.label`` (the matching ``v1,v2``)::

    train.input  train.label      both trees of depth 3-6, balanced   1,000 x size
    valid.input  valid.label      the same distribution                 100 x size
    test.input   test.label       the same distribution                 100 x size
    test3.input  test3.label      both trees of depth exactly 3         100 x size
    ...
    test12.input test12.label     both trees of depth exactly 12        100 x size

with ``size`` 10 by default (10,000 training examples) and 50 in its README; the paper trains on
500,000 examples (``size`` 500). The release also writes a ``stats-{part}.txt`` summary per part,
which :func:`export` leaves out (:mod:`.stats` computes the same figures).
"""

from __future__ import annotations

import os
from pathlib import Path

from tutorlib.cache import atomic_write_bytes
from tutorlib.checks import check_scalar
from tutorlib.orchard.generator import Pair, generate_part, part_names, variant, variant_names
from tutorlib.orchard.language import evaluate, format_label, parse_label
from tutorlib.textfiles import check_field, check_name, read_lines

RELEASE_SIZE = 10  # generate_tree.py's default --size: thousands of training examples
PAPER_SIZE = 500  # the paper's 500,000 training examples


def sizes(size: int = RELEASE_SIZE) -> dict[str, int]:
    """Examples per part for the release's ``--size``: 1,000 x size for ``train``, 100 x size for
    ``valid``, ``test`` and each ``test{d}``.

    Parameters
    ----------
    size : int
        The release's ``--size``, in thousands of training examples: a positive integer.

    Returns
    -------
    dict of str to int
        Examples per part, keyed by the names of :func:`~tutorlib.orchard.part_names` in order.

    Examples
    --------
    >>> sizes(10)["train"], sizes(10)["test12"]
    (10000, 1000)
    """
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise ValueError(f"size (thousands of training examples) must be a positive integer, "
                         f"got {size!r}")
    return {part: (1000 if part == "train" else 100) * size for part in part_names()}


def write_part(directory: str | os.PathLike, part: str, pairs: list[Pair]) -> tuple[Path, Path]:
    """Write ``{part}.input`` and ``{part}.label`` (each atomically: a killed run leaves no
    half-written file).

    Parameters
    ----------
    directory : str or path-like
        Where to write; created, with its parents, if needed.
    part : str
        The part's name, the files' stem, e.g. ``"test12"``.
    pairs : list of (str, str)
        (input line, label) pairs, one per line.

    Returns
    -------
    tuple of (Path, Path)
        The paths of the ``.input`` and the ``.label`` file.
    """
    check_name(part, "part")
    for number, pair in enumerate(pairs):
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise ValueError(f"pairs[{number}] must be an (input line, label) pair, got {pair!r}")
        check_field(pair[0], f"pairs[{number}]'s input")
        check_field(pair[1], f"pairs[{number}]'s label")
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for suffix, column in (("input", 0), ("label", 1)):
        path = directory / f"{part}.{suffix}"
        atomic_write_bytes(path, "".join(pair[column] + "\n" for pair in pairs).encode())
        paths.append(path)
    return paths[0], paths[1]


def export(directory: str | os.PathLike, variant_name: str, *, size: int = RELEASE_SIZE,
           part_sizes: dict[str, int] | None = None, seed: int = 0,
           parts: list[str] | None = None) -> Path:
    """Write one variant in the release's layout, ``{train,valid,test,test3..12}.{input,label}``.

    Parameters
    ----------
    directory : path
        Where to write (created if needed); the release writes one directory per variant.
    variant_name : str
        One of :func:`~tutorlib.orchard.variant_names`, e.g. ``"minmax_hard"``.
    size : int
        The release's ``--size``: 1,000 x size training examples, 100 x size in each other part.
    part_sizes : dict, optional
        Examples per part, overriding ``size`` for the parts it names.
    seed : int
        Each part is drawn with its own seed derived from this one
        (:func:`~tutorlib.orchard.part_seed`), so the files are the same on every machine.
    parts : list of str, optional
        Only these parts (default: all of :func:`~tutorlib.orchard.part_names`).

    Returns
    -------
    Path
        ``directory``.
    """
    variant(variant_name)  # a clear error before anything is written
    counts = sizes(size)
    for part, count in (part_sizes or {}).items():
        if part not in counts:
            raise ValueError(f"unknown ORCHARD part {part!r} in part_sizes; the parts are "
                             f"{', '.join(counts)}")
        # every size is checked before any file is written
        counts[part] = check_scalar(count, f"part_sizes[{part!r}]", int, min_val=1)
    chosen = part_names() if parts is None else list(parts)
    for part in chosen:
        if part not in counts:
            raise ValueError(f"unknown ORCHARD part {part!r}; the parts are {', '.join(counts)}")
    directory = Path(directory)
    for part in chosen:
        write_part(directory, part, generate_part(variant_name, part, counts[part], seed))
    return directory


def export_all(directory: str | os.PathLike, *, size: int = RELEASE_SIZE, seed: int = 0) -> Path:
    """Every variant, each in its own subdirectory ``directory/{variant}/``.

    Parameters
    ----------
    directory : str or path-like
        The parent directory; created, with the subdirectories, if needed.
    size : int
        The release's ``--size``, as in :func:`export`.
    seed : int
        Each part of each variant is drawn with its own seed derived from this one.

    Returns
    -------
    Path
        ``directory``.
    """
    directory = Path(directory)
    for name in variant_names():
        export(directory / name, name, size=size, seed=seed)
    return directory


def read_part(directory: str | os.PathLike, part: str, *, check: bool = False) -> list[Pair]:
    """Read ``{part}.input`` and ``{part}.label`` back into (input, label) pairs.

    Every label must read as two digits (:func:`~tutorlib.orchard.parse_label`) and neither file
    may have a blank line before its end; with ``check=True`` every label is also recomputed
    with :func:`~tutorlib.orchard.evaluate`.

    Parameters
    ----------
    directory : str or path-like
        The directory that holds the two files.
    part : str
        The part's name, e.g. ``"train"`` or ``"test12"``.
    check : bool
        Recompute every label and compare it with the file's.

    Returns
    -------
    list of (str, str)
        (input line, label) pairs in file order, the lines as read without their line ends.

    Raises
    ------
    ValueError
        If a file is missing, the two files have different numbers of lines, or (with ``check``)
        a line is malformed or its label is wrong, naming the file and line (from 1).
    """
    directory = Path(directory)
    paths = [directory / f"{part}.{suffix}" for suffix in ("input", "label")]
    for path in paths:
        if not path.is_file():
            raise ValueError(f"no file {path}: an ORCHARD part is a pair of files "
                             f"{part}.input and {part}.label")
    inputs, labels = (read_lines(path) for path in paths)
    if len(inputs) != len(labels):
        raise ValueError(f"{paths[0]} has {len(inputs)} lines but {paths[1]} has {len(labels)}: "
                         f"they must match line for line")
    pairs = list(zip(inputs, labels, strict=True))
    for number, label in enumerate(labels, start=1):
        try:
            parse_label(label)
        except ValueError as error:
            raise ValueError(f"{paths[1]}, line {number}: {error}") from None
    if check:
        for number, (line, label) in enumerate(pairs, start=1):
            try:
                expected = format_label(evaluate(line))
            except ValueError as error:
                raise ValueError(f"{paths[0]}, line {number}: {error}") from None
            if expected != label.strip():
                raise ValueError(f"{paths[1]}, line {number}: label {label!r}, but the input "
                                 f"evaluates to {expected!r}")
    return pairs


def read_export(directory: str | os.PathLike, *, check: bool = False) -> dict[str, list[Pair]]:
    """Every part found in ``directory`` (a directory written by :func:`export` or the release),
    in :func:`~tutorlib.orchard.part_names` order.

    Parameters
    ----------
    directory : str or path-like
        One variant's directory.
    check : bool
        Recompute every label and compare it with the file's, as in :func:`read_part`.

    Returns
    -------
    dict of str to list of (str, str)
        The (input line, label) pairs of each part whose ``.input`` file exists, keyed by the
        part's name.
    """
    directory = Path(directory)
    found = [part for part in part_names() if (directory / f"{part}.input").is_file()]
    if not found:
        raise ValueError(f"no ORCHARD files ({{train,valid,test,test3,...}}.input) in {directory}")
    return {part: read_part(directory, part, check=check) for part in found}
