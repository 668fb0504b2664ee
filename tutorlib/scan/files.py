"""SCAN's official file format: ``IN: <command> OUT: <actions>`` lines, and the release's layout.

``python -m tutorlib.scan export DIR`` writes ``tasks.txt`` and every split in the layout of
the official release, so other tools can read our data and we can read theirs.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from tutorlib.hub import SCAN_FIELDS
from tutorlib.hub import to_hf_dataset as _pairs_to_hf
from tutorlib.scan.grammar import ACTION_TOKENS, VOCABULARY, Pair, all_pairs
from tutorlib.scan.splits import COMPLEX_JUMP_NUMS, SIZE_PERCENTS, TEMPLATES, split
from tutorlib.textfiles import output_directory, read_text


def format_line(pair: Pair) -> str:
    """One line of the official files: ``IN: <command> OUT: <actions>``.

    Parameters
    ----------
    pair : (str, str)
        A command and its action sequence, both space-separated strings.

    Returns
    -------
    str
        The line, without a newline.
    """
    return f"IN: {pair[0]} OUT: {pair[1]}"


def parse_line(line: str) -> Pair:
    """Read one ``IN: ... OUT: ...`` line back into a (command, actions) pair.

    Parameters
    ----------
    line : str
        One line of an official file; surrounding whitespace, a newline included, is ignored.

    Returns
    -------
    (str, str)
        The command and its action sequence, both space-separated strings.
    """
    text = line.strip()
    if not text.startswith("IN: ") or " OUT: " not in text:
        raise ValueError(f"not a SCAN line (expected 'IN: <command> OUT: <actions>'): {line!r}")
    command, actions = text[4:].split(" OUT: ", 1)
    if "IN:" in command.split() or "OUT:" in actions.split() or "IN:" in actions.split():
        raise ValueError(f"not one SCAN line: it has more than one IN: or OUT: field "
                         f"(two lines run together?): {line!r}")
    if not command.strip() or not actions.strip():
        raise ValueError(f"a SCAN line needs a command and actions, one of them is empty: "
                         f"{line!r}")
    words = [w for w in command.split() if w not in VOCABULARY]
    tokens = [t for t in actions.split() if t not in ACTION_TOKENS]
    if words or tokens:
        what = (f"the word(s) {', '.join(map(repr, dict.fromkeys(words)))} of the command"
                if words else f"the action(s) {', '.join(map(repr, dict.fromkeys(tokens)))}")
        raise ValueError(f"not a SCAN line: {what} are not SCAN's (commands use "
                         f"{', '.join(VOCABULARY)}; actions {', '.join(ACTION_TOKENS)}): {line!r}")
    return command, actions


def _write(path: Path, pairs: list[Pair]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(format_line(p) + "\n" for p in pairs))
    tmp.replace(path)


def export_layout() -> dict[str, str]:
    """Split name -> path (relative to the export directory) of its files, with ``{part}`` for
    ``train`` or ``test``, in the layout of the official release.

    Returns
    -------
    dict of str to str
        A new dictionary, one entry per split of :func:`tutorlib.scan.split_names`, e.g.
        ``"length": "length_split/tasks_{part}_length.txt"``.
    """
    layout = {"simple": "simple_split/tasks_{part}_simple.txt"}
    layout.update({f"simple_p{p}": f"simple_split/size_variations/tasks_{{part}}_simple_p{p}.txt"
                   for p in SIZE_PERCENTS})
    layout["length"] = "length_split/tasks_{part}_length.txt"
    for prim in ("jump", "turn_left"):
        layout[f"addprim_{prim}"] = f"add_prim_split/tasks_{{part}}_addprim_{prim}.txt"
    for n in COMPLEX_JUMP_NUMS:
        for r in range(1, 6):
            name = f"addprim_complex_jump_num{n}_rep{r}"
            layout[name] = f"add_prim_split/with_additional_examples/tasks_{{part}}_{name}.txt"
    for t in (*TEMPLATES, "jump_around_right"):
        layout[f"template_{t}"] = f"template_split/tasks_{{part}}_template_{t}.txt"
    for k in range(4):
        layout[f"filler_num{k}"] = f"filler_split/tasks_{{part}}_filler_num{k}.txt"
    return layout


def export(directory: str | Path, seed: int = 0, names: list[str] | None = None) -> Path:
    """Write ``tasks.txt`` and every split (or the splits ``names``) in the official layout and
    line format.

    Parameters
    ----------
    directory : str or Path
        Where to write; it and its subdirectories are created as needed, and existing files of
        the same names are replaced.
    seed : int
        Seed of the random splits (``simple`` and ``simple_p*``); the others do not depend on it.
    names : list of str, optional
        Only these splits (names of :func:`~tutorlib.scan.split_names`, e.g. ``["addprim_jump"]``);
        all of them by default (about 200 MB).

    Returns
    -------
    Path
        ``directory``.
    """
    from tutorlib.train import progress_bar

    layout = export_layout()
    if names is not None:
        names = [names] if isinstance(names, str) else list(names)
        unknown = [n for n in names if n not in layout]
        if unknown or not names:
            raise ValueError(f"unknown SCAN split(s) {', '.join(map(repr, unknown)) or '(none given)'}: "
                             f"the splits are {', '.join(layout)}")
        layout = {n: layout[n] for n in names}
    directory = Path(directory)
    _write(directory / "tasks.txt", all_pairs())
    for name, pattern in progress_bar(list(layout.items()), desc="SCAN splits"):
        train, test = split(name, seed)
        _write(directory / pattern.format(part="train"), train)
        _write(directory / pattern.format(part="test"), test)
    return directory


def read_pairs(path: str | Path) -> list[Pair]:
    """Read a file in the official format.

    Parameters
    ----------
    path : str or Path
        A file of ``IN: <command> OUT: <actions>`` lines; blank lines are skipped.

    Returns
    -------
    list of (str, str)
        The (command, actions) pairs, in the order of the file.
    """
    pairs = []
    seen: dict[str, tuple[int, str]] = {}
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            command, actions = parse_line(line)
        except ValueError as error:
            raise ValueError(f"{path}, line {number}: {error}") from None
        first = seen.setdefault(command, (number, actions))
        if first[1] != actions:
            raise ValueError(f"{path}: the command {command!r} has two different action sequences, "
                             f"on lines {first[0]} and {number}; a SCAN command means one sequence")
        pairs.append((command, actions))
    if not pairs:
        raise ValueError(f"{path} holds no IN: ... OUT: ... lines")
    return pairs


def to_hf_dataset(name: str = "simple", seed: int = 0):
    """A SCAN split as a Hugging Face ``datasets.DatasetDict`` with the hub's fields.

    The ``train`` and ``test`` splits hold the same pairs, in the same order, as
    ``scan.split(name, seed)`` and the exported ``tasks_train_<name>.txt`` / ``..._test_...``
    files, in two columns named as on the hub's ``scan`` dataset: ``commands`` and ``actions``.
    Needs the ``hf`` extra (``pip install 'tutorlib[hf]'``).

    Parameters
    ----------
    name : str
        A split of :func:`~tutorlib.scan.split_names` (``simple``, ``length``, ``addprim_jump``...).
    seed : int
        Seed of the random splits (``simple`` and the size splits).

    Returns
    -------
    datasets.DatasetDict
    """
    train, test = split(name, seed=seed)
    return _pairs_to_hf({"train": train, "test": test}, fields=SCAN_FIELDS)


def length_counts(pairs: list[Pair]) -> tuple[Counter, Counter]:
    """How many pairs have each action-sequence length, and each command length (in words).

    Parameters
    ----------
    pairs : list of (str, str)
        (command, actions) pairs, both space-separated strings.

    Returns
    -------
    actions : Counter
        Number of actions -> number of pairs with that many.
    commands : Counter
        Number of words in the command -> number of pairs with that many.
    """
    return (Counter(len(a.split()) for _, a in pairs), Counter(len(c.split()) for c, _ in pairs))


def main(argv: list[str] | None = None) -> int:
    """The command line: ``python -m tutorlib.scan export DIR [--seed SEED] [--split NAME ...]``
    calls :func:`export`.

    Parameters
    ----------
    argv : list of str or None
        The arguments, without the program name; ``None`` reads them from ``sys.argv``.

    Returns
    -------
    int
        The exit status, 0 (argparse exits with status 2 on bad arguments).
    """
    parser = argparse.ArgumentParser(prog="python -m tutorlib.scan",
                                     description="SCAN (Lake & Baroni 2018) in the official format")
    commands = parser.add_subparsers(dest="command", required=True)
    out = commands.add_parser("export", help="write tasks.txt and every split into DIR")
    out.add_argument("directory", metavar="DIR")
    out.add_argument("--seed", type=int, default=0, help="seed of the random splits (default 0)")
    out.add_argument("--split", nargs="+", metavar="NAME",
                     help="only these splits, e.g. addprim_jump (default: every split)")
    args = parser.parse_args(argv)
    try:
        output_directory(args.directory)
        path = export(args.directory, args.seed, args.split)
        print(f"SCAN written to {path}")
    except (ValueError, OSError) as error:  # a file for a folder, no access, a bad seed
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0
