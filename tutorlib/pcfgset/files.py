"""PCFG SET in the published file layout (i-machine-think/am-i-compositional, ``data/pcfgset``).

A set of pairs is two line-aligned files, ``NAME.src`` (inputs) and ``NAME.tgt`` (outputs),
tokens separated by single spaces. :func:`export` writes every split::

    DIR/pcfgset/{train,dev,test}.{src,tgt}
    DIR/systematicity/{train,test}.{src,tgt}
    DIR/productivity/{train,test}.{src,tgt}
    DIR/substitutivity/{equally_distributed,primitive}/{train,test,test_twin}.{src,tgt}
    DIR/localism/{train,test}.{src,tgt}, DIR/localism/unrolled_test.tsv
    DIR/overgeneralisation/train_pcfg_ratio=R.{src,tgt},
        test_pcfg_ratio=R_exception.{src,tgt}, test_pcfg_ratio=R_original.{src,tgt}

``unrolled_test.tsv`` has the published localism format: per input, one line
``unrolled<TAB>step<TAB>*k`` per step (the last step's third field is the output), then
``original<TAB>input<TAB>output``. :func:`read_pairs` reads ours and the published files.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from tqdm import tqdm

from tutorlib.cache import atomic_write_bytes
from tutorlib.hub import PCFGSET_FIELDS
from tutorlib.hub import to_hf_dataset as _pairs_to_hf
from tutorlib.pcfgset.corpus import Pair, base_corpus
from tutorlib.pcfgset.language import unroll
from tutorlib.pcfgset.splits import (
    overgeneralisation_split,
    productivity_split,
    split,
    split_names,
    substitutivity_split,
    systematicity_split,
)
from tutorlib.textfiles import check_field, check_name, output_directory, read_lines, read_text


def read_pairs(src_path: str | os.PathLike, tgt_path: str | os.PathLike) -> list[Pair]:
    """Read line-aligned ``.src`` / ``.tgt`` files into (input, output) pairs.

    Blank lines at the end are ignored; runs of spaces count as one. A blank line before the
    end, or text that is not UTF-8, is refused (it would misalign the two files).

    Parameters
    ----------
    src_path : str or path-like
        The ``.src`` file: one input per line.
    tgt_path : str or path-like
        The ``.tgt`` file: each input's output on the same line.

    Returns
    -------
    list of (str, str)
        The (input, output) pairs in file order, tokens separated by single spaces.

    Raises
    ------
    ValueError
        If the files have different numbers of lines, naming both counts, or a blank line
        inside either file, naming it.
    """
    sources, targets = read_lines(src_path), read_lines(tgt_path)
    if len(sources) != len(targets):
        raise ValueError(f"{src_path} has {len(sources)} lines but {tgt_path} has {len(targets)}; "
                         f"the files must be line-aligned")
    pairs = zip(sources, targets, strict=True)
    return [(" ".join(s.split()), " ".join(t.split())) for s, t in pairs]


def _write(path: Path, lines: list[str]) -> None:
    # atomic: a killed export leaves the old file or the new one
    atomic_write_bytes(path, "".join(line + "\n" for line in lines).encode())


def write_pairs(directory: str | os.PathLike, name: str, pairs: list[Pair]) -> None:
    """Write ``pairs`` to ``directory/name.src`` and ``directory/name.tgt``.

    Parameters
    ----------
    directory : str or path-like
        Where to write; created, with its parents, if needed.
    name : str
        The files' name without its suffix, e.g. ``"train"``.
    pairs : list of (str, str)
        The (input, output) pairs, one per line.

    Returns
    -------
    None
    """
    check_name(name)
    for number, pair in enumerate(pairs):
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise ValueError(f"pairs[{number}] must be an (input, output) pair, got {pair!r}")
        check_field(pair[0], f"pairs[{number}]'s input")
        check_field(pair[1], f"pairs[{number}]'s output")
    directory = Path(directory)
    _write(directory / f"{name}.src", [s for s, _ in pairs])
    _write(directory / f"{name}.tgt", [t for _, t in pairs])


def unrolled_lines(pairs: list[Pair]) -> list[str]:
    """The published localism format's lines for ``pairs`` (see the module docstring).

    Parameters
    ----------
    pairs : list of (str, str)
        (input, output) pairs; every input has at least one function.

    Returns
    -------
    list of str
        Per pair, one ``unrolled`` line per step, then its ``original`` line; without line ends.
    """
    lines = []
    for source, target in pairs:
        steps = unroll(source)
        for k, step in enumerate(steps, start=1):
            lines.append(f"unrolled\t{step}\t{target if k == len(steps) else f'*{k}'}")
        lines.append(f"original\t{source}\t{target}")
    return lines


def read_unrolled(path: str | os.PathLike) -> list[tuple[list[str], Pair]]:
    """Read a localism file: per input, its steps and its (input, output) pair.

    Parameters
    ----------
    path : str or path-like
        A file in the published localism format, e.g. ``localism/unrolled_test.tsv``.

    Returns
    -------
    list of (list of str, (str, str))
        Per ``original`` line, in file order: the steps of the ``unrolled`` lines before it and
        its (input, output) pair, tokens separated by single spaces. Steps after the last
        ``original`` line are left out.
    """
    out, steps = [], []
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        fields = line.split("\t")
        if len(fields) != 3 or fields[0] not in ("unrolled", "original"):
            raise ValueError(f"{path}, line {number}: expected 'unrolled' or 'original' and two "
                             f"more tab-separated fields, got {line!r}")
        if fields[0] == "unrolled":
            steps.append(" ".join(fields[1].split()))
        else:
            out.append((steps, (" ".join(fields[1].split()), " ".join(fields[2].split()))))
            steps = []
    if not out:
        raise ValueError(f"{path} holds no 'original' line: not an unrolled PCFG SET file")
    return out


def to_hf_dataset(name: str = "pcfgset", seed: int = 0):
    """A PCFG SET split as a Hugging Face ``datasets.DatasetDict``.

    The ``train`` and ``test`` splits hold the pairs of ``pcfgset.split(name, seed)``, in two
    columns named after the released files' ``.src`` and ``.tgt``: ``source`` and ``target`` (we
    know of no PCFG SET dataset on the hub whose names to follow). Needs the ``hf`` extra.

    Parameters
    ----------
    name : str
        One of :func:`~tutorlib.pcfgset.split_names`.
    seed : int
        Seed of the corpus and of everything drawn from it.

    Returns
    -------
    datasets.DatasetDict
    """
    train, test = split(name, seed=seed)
    return _pairs_to_hf({"train": train, "test": test}, fields=PCFGSET_FIELDS)


def _export_one(directory: Path, name: str, seed: int) -> None:
    if name == "pcfgset":
        data = base_corpus(seed)
        for part in ("train", "dev", "test"):
            write_pairs(directory / "pcfgset", part, list(getattr(data, part)))
    elif name in ("systematicity", "productivity"):
        train, test = (systematicity_split if name == "systematicity" else productivity_split)(seed)
        write_pairs(directory / name, "train", train)
        write_pairs(directory / name, "test", test)
    elif name.startswith("substitutivity_"):
        result = substitutivity_split(name[len("substitutivity_"):], seed)
        for part in ("train", "test", "test_twin"):
            write_pairs(directory / "substitutivity" / result.condition, part,
                        getattr(result, part))
    elif name == "localism":
        data = base_corpus(seed)
        write_pairs(directory / "localism", "train", list(data.train))
        write_pairs(directory / "localism", "test", list(data.test))
        _write(directory / "localism" / "unrolled_test.tsv", unrolled_lines(list(data.test)))
    else:
        ratio = float(name[len("overgeneralisation_"):])
        result = overgeneralisation_split(ratio, seed)
        folder = directory / "overgeneralisation"
        write_pairs(folder, f"train_pcfg_ratio={ratio}", result.train)
        write_pairs(folder, f"test_pcfg_ratio={ratio}_exception", result.exceptions)
        write_pairs(folder, f"test_pcfg_ratio={ratio}_original", result.originals)


def export(directory: str | os.PathLike, seed: int = 0, names: list[str] | None = None) -> Path:
    """Write every split (or those in ``names``, see :func:`~.splits.split_names`) into
    ``directory`` in the published layout; return the directory.

    Parameters
    ----------
    directory : str or path-like
        Where to write; it and its subdirectories are created if needed.
    seed : int
        Seed of the base corpus, from which every split is drawn.
    names : list of str, optional
        The splits to write, from :func:`~.splits.split_names`; all of them by default.

    Returns
    -------
    Path
        ``directory``.
    """
    names = split_names() if names is None else list(names)
    unknown = [n for n in names if n not in split_names()]
    if unknown:
        raise ValueError(f"unknown PCFG SET split(s) {', '.join(map(repr, unknown))}; known "
                         f"splits: {', '.join(split_names())}")
    directory = Path(directory)
    for name in tqdm(names, desc="PCFG SET splits", disable=None):  # no bar when not a terminal
        _export_one(directory, name, seed)
    return directory


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tutorlib.pcfgset",
                                     description="PCFG SET (Hupkes et al. 2020) in the published "
                                                 "file layout")
    commands = parser.add_subparsers(dest="command", required=True)
    out = commands.add_parser("export", help="write every split into DIR")
    out.add_argument("directory", metavar="DIR")
    out.add_argument("--seed", type=int, default=0, help="seed of the corpus (default 0)")
    out.add_argument("--only", nargs="+", choices=split_names(), metavar="SPLIT",
                     help="write only these splits")
    args = parser.parse_args(argv)
    try:
        output_directory(args.directory)
        path = export(args.directory, args.seed, args.only)
        print(f"PCFG SET written to {path}")
    except (ValueError, OSError) as error:  # a file for a folder, no access, a bad seed
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
