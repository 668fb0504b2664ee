import math
import random
from collections import Counter

import pytest

from tutorlib import orchard
from tutorlib.orchard.language import Copy, Digit, Operator

PART_SEED = 6659016537626057952  # part_seed(0, "minmax_easy", "train")

# ---------------------------------------------------------------------------------------------
# A reference written from the rules of the release's generate_tree.py
# (https://github.com/billptw/Orchard): binary nodes holding a list of data (an operator name, the
# digits of a value node, or COPY and its index), children drawn left then right, level order by
# a queue over nodes, and a pair kept only when both trees have the wanted depth (rejection).
# It is deliberately independent of tutorlib.orchard's parser and generator.


class _Node:
    def __init__(self, data, depth):
        self.data, self.depth, self.left, self.right = data, depth, None, None


def _release_tree(rng, operators, max_depth, copy_prob=0.0, reference_size=0):
    def value_node(depth):
        if reference_size and rng.random() < copy_prob:
            return _Node(["COPY", rng.randrange(reference_size)], depth)
        return _Node([rng.randrange(10) for _ in range(rng.randint(1, 2))], depth)

    def grow(node):
        if node.depth >= max_depth - 1:
            node.right = value_node(node.depth + 1)
            return
        for side in ("left", "right"):
            if rng.random() < 0.5:
                child = _Node([rng.choice(operators)], node.depth + 1)
                grow(child)
            else:
                child = value_node(node.depth + 1)
            setattr(node, side, child)

    root = _Node([rng.choice(operators)], 0)
    grow(root)
    return root


def _release_queue(root):
    queue, out = [root], []
    while queue:
        node = queue.pop(0)
        out.append(node)
        queue.extend(c for c in (node.left, node.right) if c is not None)
    return out


def _release_items(root):
    """(node, item) in level order: each datum of each node is one item."""
    return [(node, datum) for node in _release_queue(root) for datum in node.data]


def _release_value(node, first):
    args = []
    for child in (node.left, node.right):
        if child is None:
            continue
        if child.data[0] == "COPY":
            args.append(_release_item_value(first, child.data[1]))
        elif isinstance(child.data[0], int):
            args.extend(child.data)
        else:
            args.append(_release_value(child, first))
    name = node.data[0]
    return {"MIN": min, "MAX": max, "FIRST": lambda a: a[0], "LAST": lambda a: a[-1]}[name](args)


def _release_item_value(first, k):
    node, datum = _release_items(first)[k]
    return datum if isinstance(datum, int) else _release_value(node, None)


def _release_text(node):
    if isinstance(node.data[0], int):
        return " ".join(str(d) for d in node.data)
    if node.data[0] == "COPY":
        return f"[COPY {node.data[1]} ]"
    children = [_release_text(c) for c in (node.left, node.right) if c is not None]
    return f"[{node.data[0]} " + " ".join(children) + " ]"


def _release_pair(rng, operators, copy_prob, max_depth, depths):
    """One (input, label) as the release writes it: redraw until both depths are in ``depths``."""
    while True:
        first = _release_tree(rng, operators, max_depth)
        size = len(_release_items(first))
        second = _release_tree(rng, operators, max_depth, copy_prob, size)
        if _release_queue(first)[-1].depth in depths and _release_queue(second)[-1].depth in depths:
            label = f"{_release_value(first, None)},{_release_value(second, first)}"
            return f"{_release_text(first)} X {_release_text(second)}", label


@pytest.mark.parametrize("name", orchard.variant_names())
def test_evaluate_agrees_with_the_release_rules_on_every_variant(name):
    spec = orchard.variant(name)
    operators = list(orchard.OPERATOR_SETS[spec.operators])
    rng = random.Random(name)
    pairs = [_release_pair(rng, operators, spec.copy_prob, 6, range(3, 7)) for _ in range(100)]
    pairs += [_release_pair(rng, operators, spec.copy_prob, d, (d,)) for d in (3, 4, 5)
              for _ in range(40)]
    for line, label in pairs:
        assert orchard.format_label(orchard.evaluate(line)) == label, line


# ---------------------------------------------------------------------------------------------
# The exact distribution of the number of operators of a tree of a given depth, by dynamic
# programming over the release's rules, against the generator's trees (chi-square).


def _operator_count_distribution(max_depth, exact_depth):
    """{number of operators: probability} for trees drawn with depth limit ``max_depth``,
    conditioned on depth exactly ``exact_depth``."""
    def convolve(a, b):
        out = Counter()
        for i, p in a.items():
            for j, q in b.items():
                out[i + j] += p * q
        return out

    def at_most(h, k):  # an operator at depth h whose subtree ends by depth k (unnormalised)
        if h == max_depth - 1:
            return Counter({1: 1.0}) if k >= max_depth else Counter()
        child = Counter({0: 0.5} if h + 1 <= k else {})
        for n, p in at_most(h + 1, k).items():
            child[n] += 0.5 * p
        return convolve(Counter({1: 1.0}), convolve(child, child))

    exact = at_most(0, exact_depth)
    for n, p in at_most(0, exact_depth - 1).items():
        exact[n] -= p
    total = sum(exact.values())
    return {n: p / total for n, p in exact.items() if p > 0}


def _chi_square_ok(observed, expected_probs, num):
    """Pearson's chi-square with bins of expectation under 5 merged, against its 99.95%
    quantile (Wilson-Hilferty), so a correct sampler fails about once in 2,000 seeds."""
    bins, stat, pooled_obs, pooled_exp = 0, 0.0, 0, 0.0
    for key in sorted(set(expected_probs) | set(observed)):
        pooled_obs += observed.get(key, 0)
        pooled_exp += expected_probs.get(key, 0.0) * num
        if pooled_exp >= 5:
            stat += (pooled_obs - pooled_exp) ** 2 / pooled_exp
            bins += 1
            pooled_obs, pooled_exp = 0, 0.0
    stat += (pooled_obs - pooled_exp) ** 2 / max(pooled_exp, 1e-12) if pooled_obs else 0.0
    df = max(bins - 1, 1)
    critical = df * (1 - 2 / (9 * df) + 3.29 * math.sqrt(2 / (9 * df))) ** 3
    return stat, critical


@pytest.mark.parametrize("max_depth, depth", [(3, 3), (6, 3), (6, 4), (6, 5), (6, 6), (8, 8),
                                              (10, 10)])
@pytest.mark.slow
def test_trees_of_a_depth_have_the_release_distribution(max_depth, depth):
    pairs = orchard.generate(1500, operators="minmax", min_depth=depth, max_depth=depth,
                             seed=depth) if max_depth == depth else None
    if pairs is None:  # training range: keep only the pairs of this depth
        pairs = orchard.generate(1500 * 4, operators="minmax", min_depth=3, max_depth=max_depth,
                                 seed=depth)
    counts = Counter()
    for line, _ in pairs:
        for tree in line.split(" X "):
            # Test bins hold only trees of their depth (another test checks it); parse the rest.
            if max_depth == depth or orchard.depth(orchard.parse_tree(tree)) == depth:
                counts[sum(t.startswith("[") for t in tree.split())] += 1
    num = sum(counts.values())
    assert num >= 2900
    stat, critical = _chi_square_ok(counts, _operator_count_distribution(max_depth, depth), num)
    assert stat < critical, (stat, critical)


def test_operator_count_distribution_is_a_known_answer():
    # Depth limit 3: a depth-1 operator reaches depth 3 unless both its children are values (1/4),
    # so P(depth 3) = 1 - (1/2 + 1/2 * 1/4)^2 = 39/64. Three operators (root, one depth-1, one
    # depth-2): one root child a value, the other an operator with one operator and one value
    # child: 2 * 1/2 * 1/2 * (2 * 1/4) = 1/4. Seven: every slot an operator, (1/2 * 1/4)^2 = 1/64.
    dist = _operator_count_distribution(3, 3)
    assert sum(dist.values()) == pytest.approx(1.0)
    assert dist[3] == pytest.approx(16 / 39) and dist[7] == pytest.approx(1 / 39)
    assert set(dist) == {3, 4, 5, 6, 7}


# ---------------------------------------------------------------------------------------------
# Properties of the generated data


def test_test_bins_have_both_trees_of_exactly_their_depth():
    for d in orchard.TEST_DEPTHS:
        pairs = orchard.generate_part("minmax_medium", f"test{d}", 40, seed=1)
        assert {orchard.tree_depths(line) for line, _ in pairs} == {(d, d)}


def test_training_depths_are_balanced_for_each_tree():
    pairs = orchard.generate_part("firstlast_hard", "train", 402)
    first, second = orchard.depth_counts(pairs)
    assert set(first) == set(second) == {3, 4, 5, 6}
    assert max(first.values()) - min(first.values()) <= 1
    assert max(second.values()) - min(second.values()) <= 1
    assert sum(first.values()) == 402


def test_a_shallower_training_range_gives_those_depths_and_other_draws():
    pairs = orchard.generate_part("firstlast_medium", "train", 200, depths=(3, 4))
    first, second = orchard.depth_counts(pairs)
    assert set(first) == set(second) == {3, 4}
    assert first[3] == first[4] == 100
    # the release's range given explicitly is the release's part, draw for draw
    assert orchard.generate_part("minmax_hard", "valid", 30, depths=(3, 6)) \
        == orchard.generate_part("minmax_hard", "valid", 30)


@pytest.mark.parametrize("part, depths, message", [
    ("test9", (3, 4), "not 'test9'"),
    ("train", (5, 4), "max_depth"),
    ("train", (3, 4, 5), "depths"),
])
def test_a_bad_training_range_is_refused_with_what_was_wrong(part, depths, message):
    with pytest.raises(ValueError, match=message):
        orchard.generate_part("minmax_hard", part, 4, depths=depths)


def test_balanced_depths_counts_differ_by_at_most_one():
    rng = random.Random(0)
    for n in (0, 1, 7, 100, 101):
        counts = Counter(orchard.balanced_depths(n, 3, 6, rng))
        assert sum(counts.values()) == n
        assert all(3 <= d <= 6 for d in counts)
        if n >= 4:
            assert max(counts.values()) - min(counts.values()) <= 1


def _children(node, level, max_depth):
    """Check one operator against the release's rule; return its operator children."""
    args = node.arguments
    digits = sum(isinstance(a, Digit) for a in args)
    others = [a for a in args if not isinstance(a, Digit)]
    if level == max_depth - 1:  # a single value child: one or two digits, or one COPY
        assert (not others and digits in (1, 2)) or (len(args) == 1 and isinstance(args[0], Copy))
    else:  # two children; the value nodes among them hold one or two digits each
        values = 2 - len(others)
        assert values >= 0 and values <= digits <= 2 * values, node
        assert level < max_depth - 1
    return [a for a in args if isinstance(a, Operator)]


@pytest.mark.parametrize("part", ["train", "test3", "test7", "test12"])
def test_every_operator_follows_the_release_rule(part):
    _, max_depth = orchard.part_depths(part)
    for line, _ in orchard.generate_part("minmax_medium", part, 60):
        for tree in orchard.parse(line):
            stack = [(tree, 0)]
            while stack:
                node, level = stack.pop()
                stack.extend((c, level + 1) for c in _children(node, level, max_depth))


def test_copy_rate_is_copy_prob():
    medium = orchard.generate_part("minmax_medium", "train", 2000)
    assert orchard.copy_rate(medium, 6) == pytest.approx(0.5, abs=0.015)
    hard = orchard.generate_part("firstlast_hard", "test8", 200)
    assert orchard.copy_rate(hard, 8) == 1.0
    easy = orchard.generate_part("minmax_easy", "test8", 200)
    assert orchard.copy_rate(easy, 8) == 0.0 and orchard.has_copy_fraction(easy) == 0.0
    assert orchard.has_copy_fraction(medium) > 0.9


def test_hard_second_trees_hold_only_copies():
    for line, _ in orchard.generate_part("minmax_hard", "test5", 100):
        second = orchard.parse(line)[1]
        assert not any(isinstance(i, Digit) for i in orchard.level_order(second))


def test_copy_indices_are_uniform_over_the_first_tree():
    observed, expected, num = Counter(), Counter(), 0
    for line, _ in orchard.generate_part("firstlast_hard", "test6", 400):
        first, second = orchard.parse(line)  # parse raises for an index outside the first tree
        size = orchard.num_items(first)
        for k in (i.index for i in orchard.level_order(second) if isinstance(i, Copy)):
            assert 0 <= k < size
            # Which tenth of the first tree's items k falls in, against the exact chance of each
            # tenth for a uniform k (small trees do not split into equal tenths).
            observed[10 * k // size] += 1
            for j in range(size):
                expected[10 * j // size] += 1 / size
            num += 1
    stat, critical = _chi_square_ok(observed, {b: e / num for b, e in expected.items()}, num)
    assert num > 3000 and stat < critical, (stat, critical, observed)


def test_variants_use_only_their_operators():
    for name in orchard.variant_names():
        allowed = {"[" + o for o in orchard.OPERATOR_SETS[orchard.variant(name).operators]}
        tokens = {t for line, _ in orchard.generate_part(name, "test4", 50)
                  for t in line.split() if t.startswith("[") and t != "[COPY"}
        assert tokens == allowed


@pytest.mark.parametrize("name", orchard.variant_names())
def test_labels_agree_with_evaluate_on_every_part(name):
    for part in orchard.part_names():
        for line, label in orchard.generate_part(name, part, 25):
            assert orchard.format_label(orchard.evaluate(line)) == label, (part, line)


def test_same_seed_same_data_and_parts_are_independent():
    a = orchard.generate(50, operators="firstlast", copy_prob=0.5, seed=5)
    assert a == orchard.generate(50, operators="firstlast", copy_prob=0.5, seed=5)
    assert a != orchard.generate(50, operators="firstlast", copy_prob=0.5, seed=6)
    assert orchard.generate_part("minmax_easy", "train", 20) != \
        orchard.generate_part("minmax_easy", "valid", 20)
    # Part seeds come from SHA-256, the same on every machine and Python version.
    assert orchard.part_seed(0, "minmax_easy", "train") == PART_SEED


def test_registry_and_parts():
    assert orchard.variant_names() == ["minmax_easy", "minmax_medium", "minmax_hard",
                                       "firstlast_easy", "firstlast_medium", "firstlast_hard"]
    assert orchard.variant("firstlast_medium") == orchard.Variant("firstlast_medium",
                                                                  "firstlast", 0.5)
    assert orchard.part_names()[:4] == ["train", "valid", "test", "test3"]
    assert len(orchard.part_names()) == 13
    assert orchard.part_depths("valid") == (3, 6) and orchard.part_depths("test11") == (11, 11)
    with pytest.raises(ValueError, match="unknown ORCHARD variant 'hard'"):
        orchard.variant("hard")
    with pytest.raises(ValueError, match="unknown ORCHARD part 'test13'"):
        orchard.part_depths("test13")


@pytest.mark.parametrize("kwargs, words", [
    ({"operators": "sum"}, "operators must be one of minmax, firstlast"),
    ({"copy_prob": 1.5}, "copy_prob must be a probability"),
    ({"min_depth": 0}, "min_depth must be an integer between 1"),
    ({"min_depth": 5, "max_depth": 4}, "max_depth must be an integer between 5"),
    ({"seed": -1}, "seed must be an integer at least 0"),
    ({"max_depth": 6.0}, "max_depth=6.0 violates type hint"),
])
def test_generate_checks_its_arguments(kwargs, words):
    with pytest.raises(ValueError, match=words):
        orchard.generate(3, **kwargs)
    with pytest.raises(ValueError, match="num_examples"):
        orchard.generate(-1)
