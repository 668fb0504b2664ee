"""The PCFG SET language: string-editing functions in prefix notation.

Hupkes et al. (2020), *Compositionality decomposed*, the section on PCFG SET (its input
sequences, syntax, and output sequences, semantics).

An input is a prefix expression without brackets; a binary function's two arguments are
separated by ``,``; a string argument is a run of alphabet symbols (``A1`` ... ``Z20``, 520 of
them by default)::

    X  -> U X | B X , X | S
    U  -> copy | reverse | shift | echo | swap_first_last | repeat
    B  -> append | prepend | remove_first | remove_second
    S  -> a | a S          (a: an alphabet symbol)

and an input is an ``X`` that starts with a function. The interpretation (exact)::

    copy(s) = s                       append(a, b)        = a + b
    reverse(s) = s reversed           prepend(a, b)       = b + a
    shift(s) = s[1:] + s[0]           remove_first(a, b)  = b
    echo(s) = s + s[-1]               remove_second(a, b) = a
    swap_first_last(s) = s[-1] + s[1:-1] + s[0]
    repeat(s) = s + s

so ``swap_first_last shift reverse copy M2 H16 K3 Z20`` means ``Z20 H16 M2 K3``.

A parsed input is a nested tuple: a string argument is the tuple of its symbols, an application
is ``(function, argument)`` or ``(function, first, second)``::

    "copy A1 B2"                      ('copy', ('A1', 'B2'))
    "append A1 , reverse B2 C3"       ('append', ('A1',), ('reverse', ('B2', 'C3')))

Synonyms (``append_twin`` ...) exist only in the substitutivity splits: :func:`parse` and
:func:`interpret` accept them only when given ``synonyms=TWINS`` (or another mapping from a
synonym to the function it stands for). The overgeneralisation test's exceptions are
an alternative interpretation, ``interpret(source, exceptions=True)``.

:func:`unroll` writes an input as the post-order sequence of single-function steps that the
localism test feeds to a model one at a time.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from string import ascii_uppercase

UNARY = ("copy", "reverse", "shift", "echo", "swap_first_last", "repeat")
BINARY = ("append", "prepend", "remove_first", "remove_second")
FUNCTIONS = UNARY + BINARY
COMMA = ","

# The substitutivity test's synonyms: same meaning as the function they stand for.
TWINS = {"append_twin": "append", "swap_first_last_twin": "swap_first_last",
         "repeat_twin": "repeat", "remove_second_twin": "remove_second"}

# The overgeneralisation test's exceptions: a function applied directly to another
# one (the second is the head of the first's first argument) takes a new meaning.
EXCEPTIONS = (("reverse", "echo"), ("prepend", "reverse"), ("echo", "remove_first"),
              ("prepend", "remove_first"))

Tree = tuple  # (function, argument[, argument]) or a string argument: a tuple of symbols


def alphabet(letters: int = 26, numbers: int = 20) -> tuple[str, ...]:
    """The symbols ``A1 ... A<numbers>, B1 ... `` for the first ``letters`` capital letters.

    The paper's alphabet is the default: 26 letters x 20 numbers = 520 symbols.

    Parameters
    ----------
    letters : int
        How many capital letters, from ``A``: an integer from 1 to 26.
    numbers : int
        How many numbers each letter takes, from 1: a positive integer.

    Returns
    -------
    tuple of str
        ``letters * numbers`` symbols, letter by letter, each letter's numbers in increasing order.

    Examples
    --------
    >>> alphabet(2, 3)
    ('A1', 'A2', 'A3', 'B1', 'B2', 'B3')
    >>> len(alphabet())
    520
    """
    if not isinstance(letters, int) or not 1 <= letters <= 26:
        raise ValueError(f"letters must be an integer from 1 to 26, got {letters!r}")
    if not isinstance(numbers, int) or numbers < 1:
        raise ValueError(f"numbers must be a positive integer, got {numbers!r}")
    return tuple(f"{c}{n}" for c in ascii_uppercase[:letters] for n in range(1, numbers + 1))


ALPHABET = alphabet()
_SYMBOL = re.compile(r"[A-Z][1-9][0-9]*")
_DEFAULT_SYMBOLS = frozenset(ALPHABET)


def is_application(tree: Tree) -> bool:
    """Whether ``tree`` applies a function (else it is a string argument)."""
    return isinstance(tree[-1], tuple)


# ---------------------------------------------------------------------------------------------
# Parsing


def parse(source: str, *, synonyms: Mapping[str, str] | None = None,
          symbols: frozenset[str] | tuple[str, ...] | None = None) -> Tree:
    """The tree of a PCFG SET input.

    Parameters
    ----------
    source : str
        Tokens separated by spaces, e.g. ``"append A1 B2 , reverse C3 D4"``.
    synonyms : mapping, optional
        Extra function names and the function each stands for (``TWINS`` in the substitutivity
        splits); without it a synonym is an unknown token.
    symbols : collection of str, optional
        The alphabet; :data:`ALPHABET` (``A1`` ... ``Z20``) by default.

    Returns
    -------
    tuple
        The nested tuple of the input: ``(function, argument)`` or ``(function, first, second)``,
        each string argument a tuple of its symbols. Function names (synonyms too) are kept as
        written.

    Raises
    ------
    ValueError
        Naming the problem and the token's position (counting tokens from 0): an empty input,
        an unknown token, a function without an argument, a binary function without its comma,
        an extra comma, or anything after a complete input.

    Examples
    --------
    >>> parse("append A1 , reverse B2 C3")
    ('append', ('A1',), ('reverse', ('B2', 'C3')))
    """
    if not isinstance(source, str):
        raise ValueError(f"a PCFG SET input is a string, got {type(source).__name__}")
    tokens = source.split()
    if not tokens:
        raise ValueError("empty input: a PCFG SET input has a function and a string argument, "
                         "e.g. 'copy A1 B2'")
    known = _DEFAULT_SYMBOLS if symbols is None else frozenset(symbols)
    synonyms = check_synonyms(synonyms)
    for i, token in enumerate(tokens):
        if token not in known and token not in FUNCTIONS and token != COMMA \
                and token not in synonyms:
            raise ValueError(_unknown(token, i, source, known))
    if tokens[0] in known:
        raise ValueError(f"the input {source!r} starts with the symbol {tokens[0]!r} at position "
                         f"0; an input starts with a function, e.g. 'copy {tokens[0]}'")
    tree, end = _parse(tokens, 0, source, synonyms)
    if end < len(tokens):
        token = tokens[end]
        if token == COMMA:
            raise ValueError(f"extra ',' at position {end} in {source!r}: no binary function is "
                             f"waiting for a second argument")
        raise ValueError(f"unexpected {token!r} at position {end} in {source!r} after a complete "
                         f"argument (a string argument ends at a ',' or at the end of the input)")
    return tree


def _unknown(token: str, i: int, source: str, known: frozenset[str]) -> str:
    message = f"unknown token {token!r} at position {i} in {source!r}"
    if token in TWINS:
        return (message + f"; the synonym {token!r} is accepted only where a split defines it "
                          f"(pass synonyms=TWINS)")
    if _SYMBOL.fullmatch(token):
        return message + f"; it is not one of the alphabet's {len(known)} symbols"
    return message + "; expected a function (" + ", ".join(FUNCTIONS) + "), ',' or a symbol"


def _parse(tokens: list[str], i: int, source: str, synonyms: Mapping[str, str]) -> tuple[Tree, int]:
    token = tokens[i]
    name = synonyms.get(token, token)
    if name in FUNCTIONS:
        if i + 1 == len(tokens) or tokens[i + 1] == COMMA:
            after = "the input ends" if i + 1 == len(tokens) else "',' follows"
            raise ValueError(f"dangling function {token!r} at position {i} in {source!r}: "
                             f"{after} where its argument should start")
        first, j = _parse(tokens, i + 1, source, synonyms)
        if name in UNARY:
            return (token, first), j
        if j == len(tokens) or tokens[j] != COMMA:
            got = "the input ends" if j == len(tokens) else f"got {tokens[j]!r}"
            raise ValueError(f"binary function {token!r} at position {i} in {source!r} has no ',' "
                             f"after its first argument: expected ',' at position {j}, {got}")
        if j + 1 == len(tokens):
            raise ValueError(f"',' at position {j} in {source!r} is not followed by the second "
                             f"argument of {token!r} (position {i})")
        if tokens[j + 1] == COMMA:
            raise ValueError(f"extra ',' at position {j + 1} in {source!r}: the second argument of "
                             f"{token!r} (position {i}) should start there")
        second, k = _parse(tokens, j + 1, source, synonyms)
        return (token, first, second), k
    if token == COMMA:
        raise ValueError(f"extra ',' at position {i} in {source!r}")
    end = i
    while end < len(tokens) and tokens[end] != COMMA and synonyms.get(tokens[end], tokens[end]) \
            not in FUNCTIONS:
        end += 1
    return tuple(tokens[i:end]), end


def format_input(tree: Tree) -> str:
    """The input string of a tree (the inverse of :func:`parse`).

    Parameters
    ----------
    tree : tuple
        A tree as :func:`parse` returns it, or a string argument (a tuple of symbols).

    Returns
    -------
    str
        Tokens separated by single spaces, with ``,`` between a binary function's two arguments.
    """
    if not is_application(tree):
        return " ".join(tree)
    if len(tree) == 2:
        return f"{tree[0]} {format_input(tree[1])}"
    return f"{tree[0]} {format_input(tree[1])} , {format_input(tree[2])}"


# ---------------------------------------------------------------------------------------------
# Interpretation


def apply(function: str, *arguments: tuple[str, ...]) -> tuple[str, ...]:
    """One function applied to string values (tuples of symbols).

    ``swap_first_last`` leaves a one-symbol string as it is.

    Parameters
    ----------
    function : str
        One of :data:`FUNCTIONS` (not a synonym).
    *arguments : tuple of str
        The string values: one for a unary function, two for a binary one.

    Returns
    -------
    tuple of str
        The function's value.

    Examples
    --------
    >>> apply("shift", ("A1", "B2", "C3"))
    ('B2', 'C3', 'A1')
    >>> apply("prepend", ("A1",), ("B2",))
    ('B2', 'A1')
    """
    for position, argument in enumerate(arguments, 1):
        if isinstance(argument, str) or not isinstance(argument, (tuple, list)) or not all(
                isinstance(symbol, str) for symbol in argument):
            hint = (f" (for the symbols of {argument!r}, give tuple({argument!r}.split()))"
                    if isinstance(argument, str) else "")
            raise ValueError(f"apply: argument {position} of {function!r} must be a string value, "
                             f"a tuple of symbols such as ('A1', 'B2'), got "
                             f"{type(argument).__name__} {argument!r}{hint}")
    arguments = tuple(tuple(argument) for argument in arguments)
    if function in UNARY:
        if len(arguments) != 1:
            raise ValueError(f"{function!r} takes one argument, got {len(arguments)}")
        (s,) = arguments
        if function == "copy":
            return s
        if function == "reverse":
            return s[::-1]
        if function == "shift":
            return s[1:] + s[:1]
        if function == "echo":
            return s + s[-1:]
        if function == "swap_first_last":
            return s[-1:] + s[1:-1] + s[:1] if len(s) > 1 else s
        return s + s  # repeat
    if function in BINARY:
        if len(arguments) != 2:
            raise ValueError(f"{function!r} takes two arguments, got {len(arguments)}")
        a, b = arguments
        if function == "append":
            return a + b
        if function == "prepend":
            return b + a
        return b if function == "remove_first" else a
    raise ValueError(f"unknown function {function!r}; the functions are {', '.join(FUNCTIONS)}")


def evaluate(tree: Tree, *, synonyms: Mapping[str, str] | None = None,
             exceptions: bool = False) -> tuple[str, ...]:
    """The value of a parsed input (a tuple of symbols).

    With ``exceptions=True``, the overgeneralisation test's exceptions replace the rules
    wherever they apply: ``reverse echo X`` means echo(X), ``prepend reverse X , Y`` means
    echo(X), ``echo remove_first A , B`` and ``prepend remove_first A , B , C`` mean A + B.

    Parameters
    ----------
    tree : tuple
        A tree from :func:`parse` (a string argument is its own value).
    synonyms : mapping, optional
        Synonyms and the function each stands for, as in :func:`parse`; needed when ``tree``
        contains synonyms.
    exceptions : bool
        Interpret with the overgeneralisation test's exceptions instead of the plain rules.

    Returns
    -------
    tuple of str
        The symbols of the output.
    """
    synonyms = synonyms or {}
    if not is_application(tree):
        return tree
    name = synonyms.get(tree[0], tree[0])
    if exceptions:
        first = tree[1]
        inner = synonyms.get(first[0], first[0]) if is_application(first) else None
        if (name, inner) in (("reverse", "echo"), ("prepend", "reverse")):
            return apply("echo", evaluate(first[1], synonyms=synonyms, exceptions=True))
        if (name, inner) in (("echo", "remove_first"), ("prepend", "remove_first")):
            return (evaluate(first[1], synonyms=synonyms, exceptions=True)
                    + evaluate(first[2], synonyms=synonyms, exceptions=True))
    return apply(name, *(evaluate(a, synonyms=synonyms, exceptions=exceptions) for a in tree[1:]))


def check_synonyms(synonyms: Mapping[str, str] | None) -> Mapping[str, str]:
    """``synonyms`` (or ``{}`` for None) once it is a mapping from new names to PCFG SET's
    functions, such as :data:`TWINS`; a ``ValueError`` names the first entry that is not."""
    if synonyms is None:
        return {}
    if not isinstance(synonyms, Mapping):
        raise ValueError(f"synonyms must map a new name to the function it stands for, e.g. "
                         f"{{'copy_twin': 'copy'}}; got {type(synonyms).__name__}")
    for name, function in synonyms.items():
        if not isinstance(name, str) or not name or any(ch.isspace() for ch in name) \
                or name in FUNCTIONS or name == COMMA:
            raise ValueError(f"synonyms: {name!r} cannot name a synonym (one word that is not "
                             f"already a function or the comma)")
        if function not in FUNCTIONS:
            raise ValueError(f"synonyms: {name!r} stands for {function!r}, which is not a function "
                             f"of PCFG SET ({', '.join(FUNCTIONS)})")
    return synonyms


def check_tree(tree: Tree, synonyms: Mapping[str, str] | None = None) -> Tree:
    """``tree`` if it is a tree :func:`parse` could have made, with a function at its root;
    otherwise ``TypeError``/``ValueError`` saying what is wrong where (checked without
    recursion, so any depth is fine).

    Parameters
    ----------
    tree
        A nested tuple: a function name followed by its arguments, each a tree or a
        tuple of symbols.
    synonyms
        Other names for the functions (as in the localism test's languages), mapped to
        the function they stand for.

    Returns
    -------
    Tree
        ``tree`` itself, unchanged.

    Examples
    --------
    >>> check_tree(("copy", ("A1", "B2")))
    ('copy', ('A1', 'B2'))
    >>> check_tree(("copy", "A1"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: the argument at position 1 of the tree is a str ('A1'), not a tuple: ...
    """
    synonyms = check_synonyms(synonyms)
    arity = {**{f: 1 for f in UNARY}, **{f: 2 for f in BINARY}}
    if not (isinstance(tree, tuple) and tree and isinstance(tree[0], str)
            and synonyms.get(tree[0], tree[0]) in arity):
        raise ValueError(f"a tree starts with a function ({', '.join(FUNCTIONS)}), got {tree!r}")
    stack: list[tuple[Tree, str]] = [(tree, "0")]
    while stack:
        node, where = stack.pop()
        if not isinstance(node, tuple) or not node:
            raise TypeError(f"the argument at position {where} of the tree is a "
                            f"{type(node).__name__} ({node!r}), not a tuple: a string argument is "
                            f"a tuple of symbols, e.g. ('A1', 'B2')")
        head = synonyms.get(node[0], node[0]) if isinstance(node[0], str) else None
        if head in arity:
            if len(node) != 1 + arity[head]:
                raise ValueError(f"{node[0]!r} at position {where} takes {arity[head]} "
                                 f"argument(s), got {len(node) - 1}")
            stack.extend((child, f"{where}.{i}" if where != "0" else str(i))
                         for i, child in enumerate(node[1:], 1))
        elif not all(isinstance(symbol, str) and symbol not in arity and symbol not in synonyms
                     for symbol in node):
            raise ValueError(f"the string argument at position {where} must hold symbols only, "
                             f"got {node!r}")
    return tree


def interpret(source: str | Tree, *, synonyms: Mapping[str, str] | None = None,
              exceptions: bool = False, symbols: frozenset[str] | tuple[str, ...] | None = None
              ) -> list[str]:
    """The output of a PCFG SET input: its list of symbols.

    ``source`` is an input string or a tree from :func:`parse`; ``synonyms``, ``exceptions``
    and ``symbols`` are as in :func:`parse` and :func:`evaluate`.

    Parameters
    ----------
    source : str or tuple
        An input string, or a tree from :func:`parse`.
    synonyms : mapping, optional
        Synonyms and the function each stands for (e.g. ``TWINS``).
    exceptions : bool
        Interpret with the overgeneralisation test's exceptions instead of the plain rules.
    symbols : collection of str, optional
        The alphabet for parsing a string ``source``; :data:`ALPHABET` by default. Not used for a
        tree.

    Returns
    -------
    list of str
        The output's symbols.

    Examples
    --------
    >>> interpret("swap_first_last shift reverse copy M2 H16 K3 Z20")
    ['Z20', 'H16', 'M2', 'K3']
    >>> interpret("prepend reverse R1 J11 , K8 L16 Y18")
    ['K8', 'L16', 'Y18', 'J11', 'R1']
    >>> interpret("prepend reverse R1 J11 , K8 L16 Y18", exceptions=True)
    ['R1', 'J11', 'J11']
    """
    tree = (parse(source, synonyms=synonyms, symbols=symbols) if isinstance(source, str)
            else check_tree(source, synonyms))
    return list(evaluate(tree, synonyms=synonyms, exceptions=exceptions))


# ---------------------------------------------------------------------------------------------
# Structure


def depth(tree: Tree) -> int:
    """The number of functions on the longest path from the root to a string argument.

    A single function applied to strings has depth 1.

    Parameters
    ----------
    tree : tuple
        A tree from :func:`parse`, or a string argument.

    Returns
    -------
    int
        The depth; 0 for a string argument.
    """
    if not is_application(tree):
        return 0
    return 1 + max(depth(argument) for argument in tree[1:])


def functions(tree: Tree) -> list[str]:
    """The function names of a tree in the order they appear in its input (pre-order).

    Parameters
    ----------
    tree : tuple
        A tree from :func:`parse`, or a string argument.

    Returns
    -------
    list of str
        One name per function, as written (synonyms included); empty for a string argument.
    """
    if not is_application(tree):
        return []
    return [tree[0], *[f for argument in tree[1:] for f in functions(argument)]]


def string_arguments(tree: Tree) -> list[tuple[str, ...]]:
    """The string arguments of a tree, left to right.

    Parameters
    ----------
    tree : tuple
        A tree from :func:`parse`, or a string argument.

    Returns
    -------
    list of tuple of str
        Each string argument as the tuple of its symbols; a string argument gives a list of itself.
    """
    if not is_application(tree):
        return [tree]
    return [s for argument in tree[1:] for s in string_arguments(argument)]


def derivation(source: str | Tree, *, synonyms: Mapping[str, str] | None = None) -> object:
    """The input as a :mod:`tutorlib.trees` derivation, e.g. to draw it with ``trees.draw``.

    A string argument of one symbol becomes that symbol (a derivation's compositions have two
    or more children).

    Parameters
    ----------
    source : str or tuple
        An input string, or a tree from :func:`parse`.
    synonyms : mapping, optional
        Synonyms and the function each stands for, as in :func:`parse`; used only to parse a
        string ``source``.

    Returns
    -------
    tuple or str
        Nested tuples: an application is ``(function, child, ...)``; a string argument of two or
        more symbols is the tuple of its symbols, one of a single symbol is that symbol.

    Examples
    --------
    >>> from tutorlib import trees
    >>> trees.format_tree(derivation("append A1 , reverse B2 C3"))
    '(append A1 (reverse (B2 C3)))'
    """
    tree = parse(source, synonyms=synonyms) if isinstance(source, str) else source
    if not is_application(tree):
        return tree if len(tree) > 1 else tree[0]
    return (tree[0], *(derivation(argument) for argument in tree[1:]))


def adjacent_pairs(source: str) -> set[tuple[str, str]]:
    """The pairs of function names that follow each other directly in an input.

    ``f g`` adjacent means that ``g`` heads ``f``'s first argument: the systematicity test holds
    out four such pairs and the overgeneralisation test's exceptions are four more.
    """
    tokens = source.split()
    return set(zip(tokens, tokens[1:], strict=False))


def num_functions(source: str) -> int:
    """How many function tokens an input has (synonyms included).

    Parameters
    ----------
    source : str
        An input string, tokens separated by white space.

    Returns
    -------
    int
        The number of tokens that are functions or synonyms from :data:`TWINS`.
    """
    if not source.strip():
        raise ValueError("num_functions: source is empty; a PCFG SET input has at least one "
                         "function")
    return sum(1 for token in source.split() if token in FUNCTIONS or token in TWINS)


# ---------------------------------------------------------------------------------------------
# Localism: unrolled inputs

_PLACEHOLDER = re.compile(r"\*([1-9][0-9]*)")


def unroll(source: str | Tree, *, synonyms: Mapping[str, str] | None = None) -> list[str]:
    """The input as single-function steps in post-order, left to right (the localism test).

    An argument that an earlier step computes is written ``*k``, ``k`` being that step's
    1-based number; the last step computes the whole input.

    Parameters
    ----------
    source : str or tuple
        An input string, or a tree from :func:`parse`; it must contain a function.
    synonyms : mapping, optional
        Synonyms and the function each stands for, as in :func:`parse`; used only to parse a
        string ``source``.

    Returns
    -------
    list of str
        One step per function: the function as written and its arguments (``,`` between the two
        of a binary function), each a string argument or a ``*k``.

    Examples
    --------
    >>> unroll("reverse shift append V12 P3 R9 J8 , repeat K19 C16 P13")
    ['repeat K19 C16 P13', 'append V12 P3 R9 J8 , *1', 'shift *2', 'reverse *3']
    """
    tree = parse(source, synonyms=synonyms) if isinstance(source, str) else source
    if not is_application(tree):
        raise ValueError(f"cannot unroll {format_input(tree)!r}: it has no function")
    steps: list[str] = []

    def visit(node: Tree) -> str:
        if not is_application(node):
            return " ".join(node)
        arguments = [visit(argument) for argument in node[1:]]
        steps.append(f"{node[0]} " + " , ".join(arguments))
        return f"*{len(steps)}"

    visit(tree)
    return steps


def substitute(step: str, outputs: list[str]) -> str:
    """A step of :func:`unroll` with each ``*k`` replaced by ``outputs[k - 1]``.

    Parameters
    ----------
    step : str
        A step of :func:`unroll`, with or without ``*k`` placeholders.
    outputs : list of str
        The outputs of the earlier steps in order (``outputs[0]`` for ``*1``), each a
        space-separated string.

    Returns
    -------
    str
        The filled-in step, tokens separated by single spaces.

    Raises
    ------
    ValueError
        If a step refers to an output that is not there yet.

    Examples
    --------
    >>> substitute("append V12 P3 , *1", ["K19 C16 K19 C16"])
    'append V12 P3 , K19 C16 K19 C16'
    """
    def fill(match: re.Match) -> str:
        k = int(match.group(1))
        if k > len(outputs):
            raise ValueError(f"step {step!r} refers to *{k}, but only {len(outputs)} earlier "
                             f"output(s) are known")
        return outputs[k - 1]

    return " ".join(_PLACEHOLDER.sub(fill, step).split())
