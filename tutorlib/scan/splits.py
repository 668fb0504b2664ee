"""SCAN's splits: the official release's and Loula et al.'s (2018), one registry.

Each split is a function returning ``(train, test)`` lists of (command, actions) pairs;
:func:`split` looks them up by the names of the official release
(https://github.com/brendenlake/SCAN) and :func:`split_names` lists them.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tutorlib.checks import check_seed
from tutorlib.scan.grammar import (
    Pair,
    Tree,
    all_derivation_pairs,
    all_derivations,
    all_pairs,
    head,
    interpret,
    parts,
    verb_phrase,
)

# ---------------------------------------------------------------------------------------------
# Splits


def _select(keep: Callable[[Tree], bool]) -> list[Pair]:
    return [pair for pair, tree in zip(all_derivation_pairs(), all_derivations()) if keep(tree)]


def simple_split(seed: int = 0, train_fraction: float = 0.8) -> tuple[list[Pair], list[Pair]]:
    """Experiment 1: a seeded random split (80/20 by default: 16,728 / 4,182).

    Parameters
    ----------
    seed : int
        Seeds the shuffle: equal seeds, equal splits.
    train_fraction : float
        Share of the 20,910 commands in training, strictly between 0 and 1 (rounded to a whole
        number of commands).

    Returns
    -------
    train, test : list of (str, str)
        (command, actions) pairs, in shuffled order; together every command once.
    """
    check_seed(seed)
    if not 0.0 < train_fraction < 1.0:
        raise ValueError(f"train_fraction must be strictly between 0 and 1, got {train_fraction!r}")
    pairs = all_pairs()
    random.Random(seed).shuffle(pairs)
    cut = round(train_fraction * len(pairs))
    return pairs[:cut], pairs[cut:]


SIZE_PERCENTS = (1, 2, 4, 8, 16, 32, 64)


def size_split(percent: int, seed: int = 0) -> tuple[list[Pair], list[Pair]]:
    """Experiment 1's training-size curve: train on ``percent`` percent of all commands, test on
    the rest.

    The training sets of one seed are nested: p1 within p2 within ... p64.

    Parameters
    ----------
    percent : int
        Share of the 20,910 commands in training, in percent: one of :data:`SIZE_PERCENTS`
        (1, 2, 4, 8, 16, 32, 64).
    seed : int
        Seeds the shuffle (a different shuffle from :func:`simple_split`'s for the same seed).

    Returns
    -------
    train, test : list of (str, str)
        (command, actions) pairs, in shuffled order; together every command once.
    """
    if percent not in SIZE_PERCENTS:
        raise ValueError(f"percent must be one of {SIZE_PERCENTS}, got {percent!r}")
    pairs = all_pairs()
    random.Random(f"size-{seed}").shuffle(pairs)
    cut = round(percent / 100 * len(pairs))
    return pairs[:cut], pairs[cut:]


LENGTH_CUTOFF = 22


def length_split() -> tuple[list[Pair], list[Pair]]:
    """Experiment 2: train on action sequences of at most 22 actions (16,990), test on longer (3,920).

    Returns
    -------
    train, test : list of (str, str)
        (command, actions) pairs, in :func:`tutorlib.scan.all_pairs` order; the cut-off is
        :data:`LENGTH_CUTOFF`.
    """
    train = [p for p in all_derivation_pairs() if len(p[1].split()) <= LENGTH_CUTOFF]
    test = [p for p in all_derivation_pairs() if len(p[1].split()) > LENGTH_CUTOFF]
    return train, test


def _has_primitive(tree: Tree, primitive: str) -> bool:
    if primitive == "jump":
        return any(head(verb_phrase(s)) == "jump" for s in parts(tree))
    if primitive == "turn_left":
        return any(verb_phrase(s) == ("turn", "left") for s in parts(tree))
    raise ValueError(f"primitive must be 'jump' or 'turn_left', got {primitive!r}")


PRIMITIVE_COMMAND = {"jump": "jump", "turn_left": "turn left"}


def addprim_split(primitive: str) -> tuple[list[Pair], list[Pair]]:
    """Experiment 3: the new primitive (``"jump"`` or ``"turn_left"``) is seen only in isolation.

    Train: every command without the primitive, plus the primitive's own command repeated so
    that it makes up 10% of the training lines (jump: 1,467 of 14,670; turn left: 2,189 of
    21,890). Test: every other command that uses it (jump: 7,706; turn left: 1,208).

    Parameters
    ----------
    primitive : str
        ``"jump"`` or ``"turn_left"``.

    Returns
    -------
    train : list of (str, str)
        (command, actions) pairs: the commands without the primitive in
        :func:`tutorlib.scan.all_pairs` order, then the copies of the primitive's own command.
    test : list of (str, str)
        (command, actions) pairs, in :func:`tutorlib.scan.all_pairs` order.
    """
    word = PRIMITIVE_COMMAND.get(primitive)
    if word is None:
        raise ValueError(f"primitive must be 'jump' or 'turn_left', got {primitive!r}")
    others = _select(lambda t: not _has_primitive(t, primitive))
    test = [p for p in _select(lambda t: _has_primitive(t, primitive)) if p[0] != word]
    alone = (word, " ".join(interpret(word)))
    copies = round(len(others) / 9)  # 10% of the final training set
    return others + [alone] * copies, test


COMPLEX_JUMP_NUMS = (1, 2, 4, 8, 16, 32)
COMPLEX_JUMP_COPIES = {1: 734, 2: 489, 4: 293, 8: 163, 16: 86, 32: 44}


def addprim_complex_jump_split(num: int, rep: int) -> tuple[list[Pair], list[Pair]]:
    """Experiment 3 (Fig. 5): ``jump`` plus ``num`` composed jump commands, each repeated.

    ``jump`` and each of the ``num`` randomly chosen (seeded by ``rep``) composed jump commands
    are repeated 734, 489, 293, 163, 86 or 44 times for ``num`` = 1, 2, 4, 8, 16, 32; the test
    set is the ``addprim_jump`` test set without those ``num`` commands.

    Parameters
    ----------
    num : int
        Number of composed jump commands in training: one of :data:`COMPLEX_JUMP_NUMS`
        (1, 2, 4, 8, 16, 32).
    rep : int
        Which random choice of commands (a positive integer; 1 to 5 in the official release).

    Returns
    -------
    train : list of (str, str)
        (command, actions) pairs: the commands without ``jump`` in :func:`tutorlib.scan.all_pairs`
        order, then the copies of ``jump``, then the copies of each chosen command.
    test : list of (str, str)
        (command, actions) pairs, in :func:`tutorlib.scan.all_pairs` order.
    """
    if num not in COMPLEX_JUMP_NUMS:
        raise ValueError(f"num must be one of {COMPLEX_JUMP_NUMS}, got {num!r}")
    if not isinstance(rep, int) or rep < 1:
        raise ValueError(f"rep must be a positive integer (1-5 in the official release), got {rep!r}")
    others = _select(lambda t: not _has_primitive(t, "jump"))
    jump_test = addprim_split("jump")[1]
    chosen = random.Random(f"complex-jump-{num}-{rep}").sample(jump_test, num)
    copies = COMPLEX_JUMP_COPIES[num]
    train = others + [("jump", "I_JUMP")] * copies + [p for p in chosen for _ in range(copies)]
    chosen_set = set(chosen)
    return train, [p for p in jump_test if p not in chosen_set]


TEMPLATES = {"around_right": ("around", "right"), "opposite_right": ("opposite", "right"),
             "right": (None, "right")}
FILLERS = ("look", "walk", "run")  # the order in which the filler splits add them to training


def _template_head(s: Tree, template: str) -> str | None:
    """The filler (action or turn) of an S matching ``template``, else ``None``."""
    manner, direction = TEMPLATES[template]
    v = verb_phrase(s)
    if isinstance(v, str):
        return None
    if manner is None:
        return v[0] if len(v) == 2 and v[1] == direction else None
    return v[0] if len(v) == 3 and v[1:] == (manner, direction) else None


def template_split(template: str) -> tuple[list[Pair], list[Pair]]:
    """Loula et al. (2018): no command with the template in training; test on the template.

    ``template`` is ``"around_right"``, ``"opposite_right"``, ``"right"`` (15,225 / 4,476) or
    ``"jump_around_right"`` (18,528 / 1,173, the same as :func:`filler_split` with 3 fillers).
    Commands whose template is filled by ``turn`` (``turn around right``) are in neither set.

    Parameters
    ----------
    template : str
        ``"around_right"``, ``"opposite_right"``, ``"right"`` or ``"jump_around_right"``.

    Returns
    -------
    train, test : list of (str, str)
        (command, actions) pairs, in :func:`tutorlib.scan.all_pairs` order.
    """
    if template == "jump_around_right":
        return filler_split(3)
    if template not in TEMPLATES:
        raise ValueError(f"template must be one of {', '.join([*TEMPLATES, 'jump_around_right'])}, "
                         f"got {template!r}")

    def heads(tree: Tree) -> list[str]:
        return [h for h in (_template_head(s, template) for s in parts(tree)) if h is not None]

    train = _select(lambda t: not heads(t))
    test = _select(lambda t: bool(heads(t)) and "turn" not in heads(t))
    return train, test


def filler_split(num_fillers: int) -> tuple[list[Pair], list[Pair]]:
    """Loula et al. (2018): ``jump around right`` held out, ``around right`` seen with some fillers.

    Training holds every command whose ``around right`` parts (if any) are filled by the first
    ``num_fillers`` of look, walk, run (train 15,225 / 16,290 / 17,391 / 18,528 for 0-3 fillers);
    the test set is every command with ``jump around right`` and otherwise only jump, look, walk
    or run around right (1,173).

    Parameters
    ----------
    num_fillers : int
        How many of look, walk, run (in that order) are seen in ``around right`` in training:
        0, 1, 2 or 3.

    Returns
    -------
    train, test : list of (str, str)
        (command, actions) pairs, in :func:`tutorlib.scan.all_pairs` order.
    """
    if num_fillers not in (0, 1, 2, 3):
        raise ValueError(f"num_fillers must be 0, 1, 2 or 3, got {num_fillers!r}")
    allowed = set(FILLERS[:num_fillers])

    def heads(tree: Tree) -> list[str]:
        return [h for h in (_template_head(s, "around_right") for s in parts(tree)) if h is not None]

    train = _select(lambda t: set(heads(t)) <= allowed)
    test = _select(lambda t: "jump" in heads(t) and "turn" not in heads(t))
    return train, test


def split(name: str, seed: int = 0) -> tuple[list[Pair], list[Pair]]:
    """Any split by its usual name: ``simple``, ``simple_p8``, ``length``, ``addprim_jump``,
    ``addprim_turn_left``, ``addprim_complex_jump_num8_rep2``, ``template_around_right``,
    ``filler_num2``, ... (see :func:`split_names`). ``seed`` seeds the random splits.

    ``"mcd"`` is our maximum-compound-divergence split number ``seed`` (Keysers et al. 2020):
    train 8,365 / test 1,045 commands, the released MCD splits' sizes, with atom divergence at
    most 0.02 and compound divergence as high as the search reaches
    (:func:`tutorlib.dbca.mcd_split_of_scan`; about half a minute, then cached).

    Parameters
    ----------
    name : str
        One of :func:`split_names`, or ``"mcd"``.
    seed : int
        Seed of ``simple``, ``simple_p*`` and ``mcd``; the other splits do not depend on it.

    Returns
    -------
    train, test : list of (str, str)
        (command, actions) pairs, as the split's own function returns them.
    """
    if name == "mcd":
        # DBCA's split of SCAN: imported only when asked for, so SCAN does not load DBCA
        from tutorlib.dbca.scan_splits import mcd_split_of_scan

        return mcd_split_of_scan(seed)
    if name == "simple":
        return simple_split(seed)
    if name.startswith("simple_p") and name[8:].isdigit():
        return size_split(int(name[8:]), seed)
    if name == "length":
        return length_split()
    if name in ("addprim_jump", "addprim_turn_left"):
        return addprim_split(name[len("addprim_"):])
    if name.startswith("addprim_complex_jump_num"):
        num, _, rep = name[len("addprim_complex_jump_num"):].partition("_rep")
        if num.isdigit() and rep.isdigit():
            return addprim_complex_jump_split(int(num), int(rep))
    if name.startswith("template_"):
        return template_split(name[len("template_"):])
    if name.startswith("filler_num") and name[10:].isdigit():
        return filler_split(int(name[10:]))
    raise ValueError(f"unknown SCAN split {name!r}; known splits: {', '.join(split_names())}, "
                     f"and mcd (seeded)")


def split_names() -> list[str]:
    """The names of every standard split.

    Returns
    -------
    list of str
        A new list: ``simple``, ``simple_p*``, ``length``, ``addprim_*``, ``template_*`` and
        ``filler_num*`` names; ``"mcd"``, which takes a seed, is not among them.
    """
    return (["simple", *[f"simple_p{p}" for p in SIZE_PERCENTS], "length", "addprim_jump",
             "addprim_turn_left",
             *[f"addprim_complex_jump_num{n}_rep{r}" for n in COMPLEX_JUMP_NUMS for r in range(1, 6)],
             *[f"template_{t}" for t in (*TEMPLATES, "jump_around_right")],
             *[f"filler_num{k}" for k in range(4)]])


# ---------------------------------------------------------------------------------------------
# The official file format
