"""Samples as rule-application DAGs, and their atoms (Keysers et al. 2020, Sec. 2.1).

A sample is the directed acyclic graph of the rules applied to produce it: a node per rule
application, labelled by the rule; an edge A -> B says rule B was applied inside rule A, in
argument slot ``k`` of A (the children of a node are ordered). The canonical form is a
:class:`RuleGraph`: one label per node and, per node, the tuple of its children in slot order.

Two ways in:

- a *tree* as nested tuples ``(label, child, child, ...)``, where a child is again such a tuple
  or, for a node without children, a plain label string (:func:`from_tree`)::

      ("C -> S and S", ("S -> V", ("V -> U", "U -> walk")),
                       ("S -> V twice", ("V -> U", "U -> jump")))

- an explicit DAG: labels and ``(parent, child)`` edges, listed in slot order
  (:func:`from_edges`); a node may then have several parents.

Every function of :mod:`tutorlib.dbca` takes a sample in either form (:func:`as_graph`).
The *atoms* of a sample are its node labels; :func:`atom_counts` counts them.

Examples
--------
>>> g = from_tree(("S -> V twice", ("V -> U", "U -> jump")))
>>> g.labels
('S -> V twice', 'V -> U', 'U -> jump')
>>> g.children
((1,), (2,), ())
>>> from_edges(["a", "b"], [(0, 1)]) == from_tree(("a", "b"))
True
>>> dict(atom_counts([("a", "b", "b")]))
{'a': 1, 'b': 2}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Tree = str | tuple


@dataclass(frozen=True)
class RuleGraph:
    """A rule-application DAG: node ``i`` has label ``labels[i]`` and the ordered children
    ``children[i]`` (node indices, slot 0 first).

    Raises
    ------
    ValueError
        If the two tuples differ in length, a child index is out of range, or the edges form a
        cycle (naming the node).
    """

    labels: tuple[str, ...] | list[str]
    children: tuple[tuple[int, ...], ...] | list[Sequence[int]]

    def __post_init__(self) -> None:
        # Lists are accepted and stored as tuples, so that graphs can be hashed and compared.
        object.__setattr__(self, "labels", tuple(self.labels))
        object.__setattr__(self, "children", tuple(tuple(kids) for kids in self.children))
        for node, label in enumerate(self.labels):
            if not isinstance(label, str) or not label:
                raise ValueError(f"node {node}: a label must be a non-empty string, got {label!r}")
        if len(self.labels) == 0:
            raise ValueError("a sample needs at least one node")
        if len(self.children) != len(self.labels):
            raise ValueError(f"a RuleGraph needs one children tuple per label: {len(self.labels)} "
                             f"labels, {len(self.children)} children tuples")
        n = len(self.labels)
        for node, kids in enumerate(self.children):
            for slot, child in enumerate(kids):
                if not isinstance(child, int) or not 0 <= child < n:
                    raise ValueError(f"node {node} ({self.labels[node]!r}), slot {slot}: child "
                                     f"{child!r} is not a node index in 0..{n - 1}")
        _check_acyclic(self)

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def edges(self) -> list[tuple[int, int, int]]:
        """Every edge as ``(parent, slot, child)``."""
        return [(p, s, c) for p, kids in enumerate(self.children) for s, c in enumerate(kids)]


def _check_acyclic(graph: RuleGraph) -> None:
    indegree = [0] * len(graph.labels)
    for kids in graph.children:
        for child in kids:
            indegree[child] += 1
    ready = [v for v, d in enumerate(indegree) if d == 0]
    seen = 0
    while ready:
        node = ready.pop()
        seen += 1
        for child in graph.children[node]:
            indegree[child] -= 1
            if indegree[child] == 0:
                ready.append(child)
    if seen < len(graph.labels):
        node = next(v for v, d in enumerate(indegree) if d > 0)
        raise ValueError(f"the edges form a cycle through node {node} ({graph.labels[node]!r}); "
                         f"a rule-application graph must be acyclic")


def from_tree(tree: Tree) -> RuleGraph:
    """The :class:`RuleGraph` of a nested-tuple tree ``(label, child, ...)`` (pre-order numbering).

    Parameters
    ----------
    tree : str or tuple
        A tuple ``(label, child, ...)`` whose children are again such tuples or, for nodes
        without children, label strings; a bare label string is a one-node sample.

    Returns
    -------
    RuleGraph
        The root is node 0 and every node comes before its children, numbered left to right;
        a node's children fill its slots in the order of the tuple.

    Raises
    ------
    ValueError
        Naming the path to the bad node (``tree[2][1]``) when a label is not a non-empty string
        or a node is neither a string nor a tuple starting with its label.
    """
    labels: list[str] = []
    children: list[list[int]] = []
    # pre-order without recursion (a tree of any depth): (node, its path, its parent's index)
    pending: list[tuple[object, str, int | None]] = [(tree, "tree", None)]
    while pending:
        node, path, parent = pending.pop()
        if isinstance(node, str):
            label, kids = node, ()
        elif isinstance(node, tuple) and node:
            label, kids = node[0], node[1:]
        else:
            raise ValueError(f"{path}: a tree node is a label string or a tuple "
                             f"(label, child, ...), got {type(node).__name__} {node!r}")
        if not isinstance(label, str) or not label:
            raise ValueError(f"{path}: a node label must be a non-empty string, got {label!r}")
        index = len(labels)
        labels.append(label)
        children.append([])
        if parent is not None:
            children[parent].append(index)
        pending.extend((kid, f"{path}[{i}]", index)
                       for i, kid in reversed(list(enumerate(kids, start=1))))
    return RuleGraph(tuple(labels), tuple(tuple(kids) for kids in children))


def from_edges(labels: Sequence[str], edges: Iterable[tuple[int, int]]) -> RuleGraph:
    """The :class:`RuleGraph` with these node labels and ``(parent, child)`` edges.

    A parent's edges are its argument slots in the order listed.

    Parameters
    ----------
    labels : sequence of str
        ``labels[i]`` is the label of node ``i``: a non-empty string.
    edges : iterable of (int, int)
        ``(parent, child)`` pairs (tuples or lists) of node indices in ``0..len(labels) - 1``.

    Returns
    -------
    RuleGraph
        Node ``i`` labelled ``labels[i]``, with the listed children of each node in order.

    Raises
    ------
    ValueError
        For a label that is not a non-empty string, an edge that is not a pair of node indices,
        or a cycle.
    """
    labels = tuple(labels)
    for i, label in enumerate(labels):
        if not isinstance(label, str) or not label:
            raise ValueError(f"labels[{i}]: a node label must be a non-empty string, got {label!r}")
    children: list[list[int]] = [[] for _ in labels]
    for i, edge in enumerate(edges):
        if not (isinstance(edge, tuple | list) and len(edge) == 2
                and all(isinstance(v, int) and 0 <= v < len(labels) for v in edge)):
            raise ValueError(f"edges[{i}]: an edge is a pair (parent, child) of node indices in "
                             f"0..{len(labels) - 1}, got {edge!r}")
        children[edge[0]].append(edge[1])
    return RuleGraph(labels, tuple(tuple(kids) for kids in children))


def as_graph(sample: RuleGraph | Tree) -> RuleGraph:
    """A sample in canonical form: a :class:`RuleGraph` as it is, a nested-tuple tree converted.

    Parameters
    ----------
    sample : RuleGraph, str or tuple
        A graph, or a tree in the form :func:`from_tree` reads.

    Returns
    -------
    RuleGraph
        ``sample`` itself if it is a :class:`RuleGraph`, else ``from_tree(sample)``.
    """
    if isinstance(sample, RuleGraph):
        return sample
    return from_tree(sample)


def to_tree(sample: RuleGraph | Tree) -> Tree:
    """The nested-tuple form of a sample whose graph is a tree (one root, one parent per node).

    Parameters
    ----------
    sample : RuleGraph, str or tuple
        A graph, or a tree in the form :func:`from_tree` reads.

    Returns
    -------
    str or tuple
        ``(label, child, ...)`` with children in slot order and nodes without children as label
        strings; the label alone for a one-node sample. :func:`from_tree` turns it back.

    Raises
    ------
    ValueError
        If the graph has several roots or a node with several parents.
    """
    graph = as_graph(sample)
    parents = [0] * len(graph)
    for kids in graph.children:
        for child in kids:
            parents[child] += 1
    shared = [v for v, p in enumerate(parents) if p > 1]
    roots = [v for v, p in enumerate(parents) if p == 0]
    if shared or len(roots) != 1:
        raise ValueError(f"not a tree: roots {roots}, nodes with several parents {shared}")

    def build(node: int) -> Tree:
        kids = graph.children[node]
        return (graph.labels[node], *(build(k) for k in kids)) if kids else graph.labels[node]

    return build(roots[0])


def atom_counts(samples: Iterable[RuleGraph | Tree]) -> Counter:
    """How often each atom (node label) occurs in ``samples``: F_A before normalisation.

    Parameters
    ----------
    samples : iterable of RuleGraph, str or tuple
        Graphs or trees (see :func:`as_graph`); a sample listed twice counts twice.

    Returns
    -------
    Counter
        Node label -> number of nodes with that label, over all samples.
    """
    counts: Counter = Counter()
    for sample in samples:
        counts.update(as_graph(sample).labels)
    return counts
