"""Compounds and their weights (Keysers et al. 2020, Sec. 2.1 and the appendix on compound
weights).

A *compound* is a connected piece of a sample's rule-application graph: a rooted tree of rule
applications with 2 to 5 nodes in which no node has more than 2 children, or a linear chain of
any length (:class:`CompoundConfig` sets these bounds). Its canonical form keeps which argument
slot each child fills, so ``C -> S and S`` with its first ``S`` is not the same compound as with
its second::

    (label, ((slot, child), (slot, child), ...))    e.g.
    ("S -> V twice", ((0, ("V -> U", ((0, ("U -> jump", ())),))),))

An *occurrence* of a compound in a sample is a set of its edges; in a DAG we embed compounds as
trees (each node of the occurrence entered by one of its edges), so a node shared by two parents
counts once per path.

Weights follow the paper: a compound that only ever appears inside one larger compound tells us
nothing new. For a compound G and a sample R,

    w(G, R) = max over occurrences g of G in R of
              (1 - max over strict super-occurrences g' of g in R, of compound G', of P(G' | G)),

where the inner maximum is 0 when g has no super-occurrence, and P(G' | G) is the fraction of the
occurrences of G in the whole pool that lie inside an occurrence of G' (our reading of the
paper's empirical probability of G' occurring as a supergraph of G). The weight of G over the
pool is W(G) = sum over R of w(G, R); the splitter keeps the ``top_n`` compounds by W (100,000
in the paper). Weights are rounded to multiples of 2^-20, so that sums of them are exact in
float64 in any order: an incremental count then equals the count rebuilt from scratch.

Examples
--------
>>> sample = ("a", ("b", "c"))
>>> [format_compound(g) for g in sorted(compounds(sample))]
['a (0: b)', 'a (0: b (0: c))', 'b (0: c)']
>>> weight_table([sample]).sample_weights(sample)[("b", ((0, ("c", ())),))]  # always in a -> b -> c
0.0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tutorlib.dbca.graphs import RuleGraph, Tree, as_graph

Compound = tuple  # (label, ((slot, Compound), ...))
Sample = RuleGraph | Tree

WEIGHT_RESOLUTION = 2.0 ** 20


@dataclass(frozen=True)
class CompoundConfig:
    """Which connected subgraphs count as compounds.

    Parameters
    ----------
    min_size, max_size : int
        Number of nodes of a (branching) compound: 2 to 5 in the paper.
    max_branching : int
        The most children a node may have inside a compound (2 in the paper).
    chains : bool
        Also count linear chains (every node with at most one child inside the compound) longer
        than ``max_size``.
    max_chain_size : int or None
        Longest chain counted; ``None`` for any length.
    """

    min_size: int = 2
    max_size: int = 5
    max_branching: int = 2
    chains: bool = True
    max_chain_size: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.min_size, int) or self.min_size < 2:
            raise ValueError(f"min_size must be an integer >= 2 (a compound has an edge), "
                             f"got {self.min_size!r}")
        if not isinstance(self.max_size, int) or self.max_size < self.min_size:
            raise ValueError(f"max_size must be an integer >= min_size ({self.min_size}), "
                             f"got {self.max_size!r}")
        if not isinstance(self.max_branching, int) or self.max_branching < 1:
            raise ValueError(f"max_branching must be an integer >= 1, got {self.max_branching!r}")
        if self.max_chain_size is not None and (not isinstance(self.max_chain_size, int)
                                                or self.max_chain_size < 2):
            raise ValueError(f"max_chain_size must be None or an integer >= 2, "
                             f"got {self.max_chain_size!r}")

    def allows(self, size: int, branching: int) -> bool:
        """Whether a connected subgraph of ``size`` nodes and largest branching is a compound."""
        if size < 2:
            return False
        if size <= self.max_size and branching <= self.max_branching:
            return True
        return (self.chains and branching <= 1
                and (self.max_chain_size is None or size <= self.max_chain_size))


DEFAULT_CONFIG = CompoundConfig()


class Interner:
    """Numbers compounds as they are met, so that the bookkeeping hashes small tuples of ints
    (a nested tuple's hash is recomputed on every dictionary look-up)."""

    def __init__(self) -> None:
        self.ids: dict[tuple, int] = {}
        self.flat: list[tuple] = []  # id -> (label, ((slot, child id), ...))

    def number(self, flat: tuple) -> int:
        found = self.ids.get(flat)
        if found is None:
            found = self.ids[flat] = len(self.flat)
            self.flat.append(flat)
        return found

    def compound(self, number: int) -> Compound:
        label, kids = self.flat[number]
        return (label, tuple((slot, self.compound(k)) for slot, k in kids))


def _occurrences(graph: RuleGraph, config: CompoundConfig, interner: Interner
                 ) -> tuple[list[int], list[set[int]]]:
    """Every occurrence of a compound in ``graph``: its compound (numbered by ``interner``) and
    the occurrences that strictly contain it.

    Occurrences are grown one edge at a time from single edges. Compounds are closed under
    taking connected sub-pieces (a piece of a chain is a chain; a piece of a small tree is a
    smaller tree), so every super-occurrence of g is reached from g by single-edge steps through
    compounds, and the closure of the one-step extensions is the set of super-occurrences.
    """
    labels, children = graph.labels, graph.children
    out_edges: list[list[tuple[int, int, int]]] = [[] for _ in labels]  # (slot, child, edge)
    in_edges: list[list[tuple[int, int]]] = [[] for _ in labels]  # (parent, edge)
    edge = 0
    for parent, kids in enumerate(children):
        for slot, child in enumerate(kids):
            out_edges[parent].append((slot, child, edge))
            in_edges[child].append((parent, edge))
            edge += 1
    below = [0] * len(labels)  # the edges under each node
    for v in _bottom_up(graph):
        for _, child, e in out_edges[v]:
            below[v] |= 1 << e | below[child]

    index: dict[int, int] = {}  # edge mask -> occurrence number
    masks: list[int] = []
    roots: list[int] = []
    nodes: list[tuple[int, ...]] = []
    branching: list[int] = []
    extensions: list[list[int]] = []

    def add(mask: int, root: int, members: tuple[int, ...], most: int) -> int:
        found = index.get(mask)
        if found is None:
            found = index[mask] = len(masks)
            masks.append(mask)
            roots.append(root)
            nodes.append(members)
            branching.append(most)
            extensions.append([])
        return found

    for parent in range(len(labels)):
        for _, child, e in out_edges[parent]:
            add(1 << e, parent, (parent, child), 1)
    i = 0
    while i < len(masks):  # breadth first: occurrences are listed by size
        mask, members, size = masks[i], nodes[i], len(nodes[i])
        for v in members:
            degree = sum(1 for _, _, e in out_edges[v] if mask >> e & 1)
            for _, child, e in out_edges[v]:
                if mask >> e & 1 or child in members:
                    continue
                most = max(branching[i], degree + 1)
                if config.allows(size + 1, most):
                    extensions[i].append(add(mask | 1 << e, roots[i], (*members, child), most))
        for parent, e in in_edges[roots[i]]:
            if parent not in members and config.allows(size + 1, max(branching[i], 1)):
                extensions[i].append(add(mask | 1 << e, parent, (parent, *members), branching[i]))
        i += 1

    memo: dict[tuple[int, int], int] = {}

    def canonical(v: int, mask: int) -> int:
        key = (v, mask & below[v])
        found = memo.get(key)
        if found is None:
            found = memo[key] = interner.number(
                (labels[v], tuple((slot, canonical(child, mask))
                                  for slot, child, e in out_edges[v] if mask >> e & 1)))
        return found

    supers: list[set[int]] = [set() for _ in masks]
    for i in range(len(masks) - 1, -1, -1):  # larger occurrences first
        for j in extensions[i]:
            supers[i].add(j)
            supers[i] |= supers[j]
    types = [canonical(roots[i], masks[i]) for i in range(len(masks))]
    if config.min_size == 2:
        return types, supers
    keep = [i for i in range(len(masks)) if len(nodes[i]) >= config.min_size]
    renumber = {old: new for new, old in enumerate(keep)}
    return ([types[i] for i in keep],
            [{renumber[j] for j in supers[i] if j in renumber} for i in keep])


def _bottom_up(graph: RuleGraph) -> list[int]:
    """The nodes, every node after all of its descendants."""
    order: list[int] = []
    seen = [False] * len(graph)
    for start in range(len(graph)):
        stack = [(start, False)]
        while stack:
            v, done = stack.pop()
            if done:
                order.append(v)
            elif not seen[v]:
                seen[v] = True
                stack.append((v, True))
                stack.extend((c, False) for c in graph.children[v] if not seen[c])
    return order


def compounds_found(sample: Sample, config: CompoundConfig, interner: Interner
           ) -> list[tuple[int, frozenset[int]]]:
    types, supers = _occurrences(as_graph(sample), config, interner)
    return [(t, frozenset({types[j] for j in s})) for t, s in zip(types, supers, strict=True)]


def occurrences(sample: Sample, config: CompoundConfig = DEFAULT_CONFIG
                ) -> list[tuple[Compound, frozenset[Compound]]]:
    """Each occurrence of a compound in ``sample``, with the compounds of its strict
    super-occurrences in the same sample.

    Parameters
    ----------
    sample : RuleGraph, str or tuple
        A graph or a tree (see :func:`tutorlib.dbca.as_graph`).
    config : CompoundConfig
        Which connected subgraphs are compounds (the paper's bounds by default).

    Returns
    -------
    list of (Compound, frozenset of Compound)
        One entry per occurrence, smaller occurrences first: its compound in canonical form
        ``(label, ((slot, child), ...))``, and the compounds of the occurrences containing it.
    """
    interner = Interner()
    return [(interner.compound(t), frozenset(interner.compound(s) for s in supers))
            for t, supers in compounds_found(sample, config, interner)]


def compounds(sample: Sample, config: CompoundConfig = DEFAULT_CONFIG) -> Counter:
    """How many times each compound occurs in ``sample``.

    Parameters
    ----------
    sample : RuleGraph, str or tuple
        A graph or a tree (see :func:`tutorlib.dbca.as_graph`).
    config : CompoundConfig
        Which connected subgraphs are compounds (the paper's bounds by default).

    Returns
    -------
    Counter
        Compound, in canonical form ``(label, ((slot, child), ...))`` -> number of occurrences.
    """
    interner = Interner()
    types = _occurrences(as_graph(sample), config, interner)[0]
    return Counter(interner.compound(t) for t in types)


def format_compound(compound: Compound) -> str:
    """A compound as text: ``label (slot: child, slot: child)``.

    Parameters
    ----------
    compound : tuple
        A compound in canonical form ``(label, ((slot, child), ...))``.

    Returns
    -------
    str
        The text, nested for the children of children; the label alone for a single node.

    Examples
    --------
    >>> format_compound(("C -> S and S", ((1, ("S -> V", ())),)))
    'C -> S and S (1: S -> V)'
    """
    label, kids = compound
    if not kids:
        return str(label)
    return f"{label} (" + ", ".join(f"{slot}: {format_compound(k)}" for slot, k in kids) + ")"


def compound_size(compound: Compound) -> int:
    """Number of nodes of a compound.

    Parameters
    ----------
    compound : tuple
        A compound in canonical form ``(label, ((slot, child), ...))``.

    Returns
    -------
    int
        The number of nodes, at least 1.
    """
    return 1 + sum(compound_size(k) for _, k in compound[1])


@dataclass(frozen=True, eq=False)
class WeightTable:
    """The pool statistics behind the weights: occurrence counts and P(G' | G).

    Build one with :func:`weight_table`. P(G' | G) is the fraction of the pool's occurrences of
    G that lie inside an occurrence of G' (0 for pairs never seen together).
    """

    config: CompoundConfig
    interner: Interner = field(repr=False)
    counts: Counter = field(repr=False)  # compound id -> occurrences in the pool
    conditional: dict[int, dict[int, float]] = field(repr=False)  # G -> G' -> P(G' | G)

    def occurrence_count(self, compound: Compound) -> int:
        """How many times ``compound`` occurs in the pool."""
        return self.counts.get(self.interner.ids.get(_flat(compound, self.interner), -1), 0)

    def probability(self, supergraph: Compound, compound: Compound) -> float:
        """P(supergraph | compound), estimated over the pool."""
        g = self.interner.ids.get(_flat(compound, self.interner), -1)
        s = self.interner.ids.get(_flat(supergraph, self.interner), -1)
        return self.conditional.get(g, {}).get(s, 0.0)

    def weights(self, found: Iterable[tuple[int, frozenset[int]]]) -> dict[int, float]:
        """w(G, R) by compound id, from the occurrences ``found`` in one sample R."""
        weights: dict[int, float] = {}
        for compound, supers in found:
            given = self.conditional.get(compound)
            inner = max((given.get(s, 0.0) for s in supers), default=0.0) if given else 0.0
            w = round((1.0 - inner) * WEIGHT_RESOLUTION) / WEIGHT_RESOLUTION
            if w > weights.get(compound, -1.0):
                weights[compound] = w
        return weights

    def sample_weights(self, sample: Sample) -> dict[Compound, float]:
        """w(G, R) for every compound G of ``sample`` (R), with P(G' | G) from this table's pool."""
        found = compounds_found(sample, self.config, self.interner)
        return {self.interner.compound(g): w for g, w in self.weights(found).items()}


def _flat(compound: Compound, interner: Interner) -> tuple | None:
    """The interner's key of a nested compound (``None`` if a piece of it was never seen)."""
    label, kids = compound
    numbered = []
    for slot, kid in kids:
        flat = _flat(kid, interner)
        if flat is None or flat not in interner.ids:
            return None
        numbered.append((slot, interner.ids[flat]))
    return (label, tuple(numbered))


def table_from_found(found_per_sample: Iterable[list[tuple[int, frozenset[int]]]], config: CompoundConfig,
           interner: Interner) -> WeightTable:
    counts: Counter = Counter()
    together: dict[int, Counter] = {}
    for found in found_per_sample:
        for compound, supers in found:
            counts[compound] += 1
            if supers:
                together.setdefault(compound, Counter()).update(supers)
    conditional = {g: {s: n / counts[g] for s, n in c.items()} for g, c in together.items()}
    return WeightTable(config, interner, counts, conditional)


def weight_table(samples: Iterable[Sample], config: CompoundConfig = DEFAULT_CONFIG) -> WeightTable:
    """Estimate P(G' | G) over a pool of samples.

    Parameters
    ----------
    samples : iterable of samples
        The pool: trees or :class:`~tutorlib.dbca.RuleGraph` s.
    config : CompoundConfig
        Which connected subgraphs are compounds (the paper's bounds by default).

    Returns
    -------
    WeightTable
        The pool's occurrence counts and P(G' | G), from which it weighs the compounds of any
        sample (:meth:`WeightTable.sample_weights`).

    Examples
    --------
    >>> table = weight_table([("a", ("b", "c")), ("b", "c")])
    >>> table.probability(("a", ((0, ("b", ((0, ("c", ())),))),)), ("b", ((0, ("c", ())),)))
    0.5
    """
    interner = Interner()
    return table_from_found((compounds_found(s, config, interner) for s in samples), config, interner)


def compound_weights(samples: Sequence[Sample], config: CompoundConfig = DEFAULT_CONFIG,
                     top_n: int | None = 100_000) -> dict[Compound, float]:
    """W(G) = sum over samples R of w(G, R), for the ``top_n`` compounds of largest weight.

    P(G' | G) is estimated over ``samples``. Compounds of weight 0 are dropped; ties are broken
    by first appearance, so the result is deterministic. ``top_n=None`` keeps all.

    Parameters
    ----------
    samples : sequence of samples
        The pool: trees or :class:`~tutorlib.dbca.RuleGraph` s.
    config : CompoundConfig
        Which connected subgraphs are compounds (the paper's bounds by default).
    top_n : int or None
        How many compounds to keep, a positive integer (the paper: 100,000); ``None`` for all.

    Returns
    -------
    dict of Compound to float
        W(G) of each kept compound, by decreasing weight; all weights are positive.

    Examples
    --------
    ``b -> c`` is inside ``a -> b -> c`` in half of its occurrences (w = 1 - 1/2 in the first
    sample, 1 in the second); ``a -> b`` always is (w = 0, dropped):

    >>> pool = [("a", ("b", "c")), ("b", "c")]
    >>> {format_compound(g): w for g, w in compound_weights(pool).items()}
    {'b (0: c)': 1.5, 'a (0: b (0: c))': 1.0}
    """
    interner = Interner()
    found = [compounds_found(s, config, interner) for s in samples]
    table = table_from_found(found, config, interner)
    totals: dict[int, float] = {}
    for occ in found:
        for compound, w in table.weights(occ).items():
            totals[compound] = totals.get(compound, 0.0) + w
    return {interner.compound(g): w for g, w in keep_top(totals, top_n).items()}


def keep_top(totals: dict, top_n: int | None) -> dict:
    """The ``top_n`` entries of largest positive weight, in decreasing order (ties: first seen)."""
    if top_n is not None and (isinstance(top_n, bool) or not isinstance(top_n, int) or top_n < 1):
        raise ValueError(f"top_n must be None or a positive integer, got {top_n!r}")
    order = sorted((g for g, w in totals.items() if w > 0), key=lambda g: -totals[g])
    return {g: totals[g] for g in order[:top_n]}
