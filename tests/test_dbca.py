"""tutorlib.dbca: samples, compounds, weights and divergences, with hand-computed answers."""

import math

import numpy as np
import pytest

from tutorlib import dbca
from tutorlib.dbca import CompoundConfig, format_compound

B_C = ("b", ((0, ("c", ())),))  # the compound b -> c
A_B_C = ("a", ((0, B_C),))  # a -> b -> c


def names(counter_or_dict):
    return sorted(format_compound(g) for g in counter_or_dict)


# --- samples -------------------------------------------------------------------------------


def test_tree_and_edges_give_the_same_graph():
    tree = ("a", ("b", "c"), "d")
    graph = dbca.from_tree(tree)
    assert graph.labels == ("a", "b", "c", "d")
    assert graph.children == ((1, 3), (2,), (), ())
    assert dbca.from_edges(["a", "b", "c", "d"], [(0, 1), (1, 2), (0, 3)]) == graph
    assert dbca.to_tree(graph) == tree
    assert dbca.as_graph(graph) is graph


@pytest.mark.parametrize("bad, where", [
    (("a", ("b", 3)), r"tree\[1\]\[1\]"),
    (("a", ()), r"tree\[1\]"),
    ((1, "b"), "label"),
    ("", "label"),
])
def test_bad_trees_name_the_node(bad, where):
    with pytest.raises(ValueError, match=where):
        dbca.from_tree(bad)


def test_bad_graphs_are_refused():
    with pytest.raises(ValueError, match="cycle"):
        dbca.from_edges(["a", "b"], [(0, 1), (1, 0)])
    with pytest.raises(ValueError, match=r"edges\[0\]"):
        dbca.from_edges(["a", "b"], [(0, 2)])
    with pytest.raises(ValueError, match="at least one node"):
        dbca.RuleGraph((), ())
    with pytest.raises(ValueError, match="node 1: a label"):
        dbca.RuleGraph(["a", 2], [[1], []])
    with pytest.raises(ValueError, match=r"node 0 \('a'\), slot 1"):
        dbca.RuleGraph(["a", "b"], [[1, 5], []])
    assert dbca.RuleGraph(["a", "b"], [[1], []]) == dbca.from_tree(("a", "b"))
    with pytest.raises(ValueError, match="not a tree"):
        dbca.to_tree(dbca.from_edges(["r", "a", "b", "s"], [(0, 1), (0, 2), (1, 3), (2, 3)]))


def test_graphs_are_hashable_samples():
    assert len({dbca.from_tree(("a", "b")), dbca.RuleGraph(["a", "b"], [[1], []])}) == 1


def test_atoms_are_node_labels_with_multiplicity():
    assert dict(dbca.atom_counts([("a", "b", "b"), "b"])) == {"a": 1, "b": 3}


# --- compounds -----------------------------------------------------------------------------


def chain(n):
    tree = f"n{n - 1}"
    for i in range(n - 2, -1, -1):
        tree = (f"n{i}", tree)
    return tree


def test_compounds_keep_the_argument_slot():
    found = dbca.compounds(("a", "b", "b"))
    assert names(found) == ["a (0: b)", "a (0: b, 1: b)", "a (1: b)"]
    assert all(count == 1 for count in found.values())


@pytest.mark.parametrize("config, expected", [
    (CompoundConfig(), 21),  # every sub-chain of 2..7 nodes: 6 + 5 + 4 + 3 + 2 + 1
    (CompoundConfig(max_chain_size=5), 18),
    (CompoundConfig(chains=False), 18),
    (CompoundConfig(max_size=3), 21),
    (CompoundConfig(max_size=3, chains=False), 11),
    (CompoundConfig(min_size=3, chains=False), 12),
])
def test_chains_of_any_length_are_compounds(config, expected):
    assert sum(dbca.compounds(chain(7), config).values()) == expected


def test_branching_and_size_limits():
    star = ("r", "a", "b", "c")  # 3 pairs, 3 triples; all four nodes branch 3 ways
    assert sum(dbca.compounds(star).values()) == 6
    assert sum(dbca.compounds(star, CompoundConfig(max_branching=3)).values()) == 7
    six = ("r", ("a", ("x", "z")), ("b", "y"))  # 6 nodes: too big, and not a chain
    assert "r (0: a (0: x (0: z)), 1: b (0: y))" not in names(dbca.compounds(six))
    assert "r (0: a (0: x), 1: b (0: y))" in names(dbca.compounds(six))


def test_compounds_of_a_dag_are_embedded_trees():
    dag = dbca.from_edges(["r", "a", "b", "s"], [(0, 1), (0, 2), (1, 3), (2, 3)])
    # 4 edges, 3 three-node pieces, 2 four-node pieces; r(a(s), b(s)) would use s twice
    assert sum(dbca.compounds(dag).values()) == 9
    assert "r (0: a (0: s), 1: b (0: s))" not in names(dbca.compounds(dag))


def test_occurrences_list_their_super_occurrences():
    found = dict(dbca.occurrences(("a", ("b", "c"))))
    assert found[B_C] == {A_B_C}
    assert found[A_B_C] == frozenset()


def test_bad_configurations_are_refused():
    for bad in (dict(min_size=1), dict(max_size=1), dict(max_branching=0), dict(max_chain_size=1)):
        with pytest.raises(ValueError):
            CompoundConfig(**bad)


# --- weights -------------------------------------------------------------------------------


def test_a_compound_only_inside_one_larger_compound_weighs_0():
    weights = dbca.compound_weights([("a", ("b", "c")), ("a", ("b", "c")), ("x", "y")])
    assert B_C not in weights  # P(a -> b -> c | b -> c) = 1: weight 0, dropped
    assert weights[A_B_C] == 2.0
    table = dbca.weight_table([("a", ("b", "c"))])
    assert table.sample_weights(("a", ("b", "c"))) == {B_C: 0.0, ("a", ((0, ("b", ())),)): 0.0,
                                                       A_B_C: 1.0}


def test_a_compound_in_varied_contexts_weighs_1():
    pool = [("b", "c"), ("x", ("b", "c")), ("y", ("b", "c")), ("z", ("b", "c"))]
    table = dbca.weight_table(pool)
    assert table.probability(("x", ((0, B_C),)), B_C) == 0.25
    assert table.sample_weights(pool[0])[B_C] == 1.0  # no larger compound around it
    assert table.sample_weights(pool[1])[B_C] == 0.75  # 1 - P(x -> b -> c | b -> c)
    assert dbca.compound_weights(pool)[B_C] == 1.0 + 3 * 0.75


def test_weight_is_the_best_occurrence():
    # b -> c twice in one sample: once inside a -> b -> c, once on its own branch under r.
    pool = [("r", ("a", ("b", "c")), ("b", "c")), ("a", ("b", "c"))]
    table = dbca.weight_table(pool)
    # b -> c: 3 occurrences, 2 of them inside a -> b -> c
    assert table.occurrence_count(B_C) == 3
    assert table.probability(A_B_C, B_C) == pytest.approx(2 / 3)
    # the branch occurrence is only inside compounds rooted at r, each around 1 of the 3
    # occurrences (P = 1/3): w = 2/3 (rounded to 2^-20); the other has 1 - 2/3
    assert table.sample_weights(pool[0])[B_C] == pytest.approx(2 / 3, abs=2 ** -20)
    assert table.sample_weights(pool[1])[B_C] == pytest.approx(1 / 3, abs=2 ** -20)


def test_top_n_keeps_the_heaviest():
    pool = [("a", "b"), ("a", "b"), ("c", "d")]
    assert list(dbca.compound_weights(pool, top_n=1)) == [("a", ((0, ("b", ())),))]
    with pytest.raises(ValueError, match="top_n"):
        dbca.compound_weights(pool, top_n=0)


# --- Chernoff coefficient and divergences --------------------------------------------------


def test_chernoff_worked_check_from_the_paper():
    p, q = [0.001, 0.001, 0.998, 0.0], [0.4, 0.4, 0.0, 0.2]
    assert dbca.chernoff_coefficient(p, q, 0.1) == pytest.approx(2 * 0.001 ** 0.1 * 0.4 ** 0.9)
    assert round(dbca.chernoff_coefficient(p, q, 0.1), 2) == 0.44
    assert dbca.chernoff_coefficient(p, q, 0.5) == pytest.approx(0.04)


def test_chernoff_of_identical_and_disjoint_distributions():
    assert dbca.chernoff_coefficient([0.3, 0.7], [0.3, 0.7], 0.1) == pytest.approx(1.0)
    assert dbca.chernoff_coefficient([1.0, 0.0], [0.0, 1.0], 0.5) == 0.0


@pytest.mark.parametrize("p, q, alpha, message", [
    ([0.5, 0.5], [1.0], 0.5, "same length"),
    ([1.5, -0.5], [0.5, 0.5], 0.5, r"p\[1\]"),
    ([0.5, 0.4], [0.5, 0.5], 0.5, "sum to 1"),
    ([0.5, 0.5], [0.5, float("nan")], 0.5, r"q\[1\]"),
    ([[0.5, 0.5]], [[0.5, 0.5]], 0.5, "one-dimensional|p=.* violates type hint"),
    ([], [], 0.5, "non-empty"),
    ([0.5, 0.5], [0.5, 0.5], 0.0, "alpha"),
    ([0.5, 0.5], [0.5, 0.5], 1.0, "alpha"),
    ([0.5, 0.5], [0.5, 0.5], "a", "alpha"),
    (["x", 1], [0.5, 0.5], 0.5, "vector of numbers|p=.* violates type hint"),
])
def test_chernoff_refuses_bad_input(p, q, alpha, message):
    with pytest.raises(ValueError, match=message):
        dbca.chernoff_coefficient(p, q, alpha)


def test_divergences_hand_computed():
    # atoms {a: 1, b: 1} against {a: 1, c: 1}: C_0.5 = sqrt(.5 * .5) = 0.5
    assert dbca.atom_divergence([("a", "b")], [("a", "c")]) == pytest.approx(0.5)
    assert dbca.divergences([("a", "b")], [("a", "c")]) == pytest.approx((0.5, 1.0))
    # compounds a->b, a->c (weight 1 each): train (1/2, 1/2), test (1, 0): C_0.1 = 0.5^0.1
    atom, compound = dbca.divergences([("a", "b"), ("a", "c")], [("a", "b")])
    assert compound == pytest.approx(1 - 0.5 ** 0.1)
    assert atom == pytest.approx(1 - (math.sqrt(0.5 * 0.5) + math.sqrt(0.25 * 0.5)))
    assert dbca.compound_divergence([("a", "b"), ("a", "c")], [("a", "b")]) == compound


def test_divergences_of_identical_sets_are_zero_and_a_pool_may_be_given():
    samples = [("a", "b"), ("a", ("b", "c")), ("d", "a", "b")]
    assert dbca.divergences(samples, samples) == pytest.approx((0.0, 0.0), abs=1e-12)
    pool = dbca.build_pool(samples + [("a", "c")])
    expected = dbca.divergences(samples[:2], samples[2:], pool=samples + [("a", "c")])
    assert dbca.divergences(samples[:2], samples[2:], pool=pool) == pytest.approx(expected)
    assert pool.divergences([0, 1], [2]) == pytest.approx(expected)


def test_divergences_refuse_empty_or_bad_sets():
    with pytest.raises(ValueError, match="train is empty"):
        dbca.divergences([], [("a", "b")])
    with pytest.raises(ValueError, match=r"test\[1\]"):
        dbca.divergences([("a", "b")], [("a", "b"), ("a", 7)])
    with pytest.raises(ValueError, match="pool is empty"):
        dbca.build_pool([])
    pool = dbca.build_pool([("a", "b"), ("a", "c")])
    with pytest.raises(ValueError, match="outside the pool"):
        pool.divergences([0], [2])


def test_pool_rows_sum_to_the_distributions():
    samples = [("a", ("b", "c")), ("b", "c"), ("a", "c")]
    pool = dbca.build_pool(samples)
    assert pool.atoms == ("a", "b", "c")
    assert pool.atom_matrix.sum_rows([0, 1, 1]).tolist() == [1.0, 3.0, 3.0]
    assert np.array_equal(pool.compound_matrix.sum_rows(range(3)), pool.compound_totals)
    assert pool.compound_counts(samples).tolist() == pool.compound_totals.tolist()


@pytest.mark.parametrize("module", ["graphs", "compounds", "pool", "divergence", "splitter",
                                    "files", "__init__"])
def test_docstring_examples(module):
    import doctest
    import importlib

    name = "tutorlib.dbca" if module == "__init__" else f"tutorlib.dbca.{module}"
    failures, _ = doctest.testmod(importlib.import_module(name))
    assert failures == 0


def test_from_tree_takes_a_tree_of_any_depth():
    from tutorlib.dbca.graphs import from_tree

    assert from_tree(("a", ("b", "c", "d"), "e")).children == ((1, 4), (2, 3), (), (), ())
    deep = "x"
    for _ in range(5_000):
        deep = ("f", deep)
    graph = from_tree(deep)
    assert len(graph.labels) == 5_001 and graph.children[0] == (1,) and graph.children[-1] == ()
    with pytest.raises(ValueError, match=r"tree\[1\]\[2\]: a node label must be"):
        from_tree(("a", ("b", "c", ("", "d"))))
