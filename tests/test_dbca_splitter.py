"""tutorlib.dbca.mcd_split: sizes, disjointness, seeds, targets, the reference search, errors."""

import numpy as np
import pytest

from tutorlib import dbca, scan
from tutorlib.dbca.reference import rebuild_split
from tutorlib.scan.rules import rule_tree


@pytest.fixture(scope="module")
def pool():
    """400 SCAN commands, a fixed random subset."""
    derivations = scan.derivations()
    chosen = np.random.default_rng(0).choice(len(derivations), 400, replace=False)
    return dbca.build_pool([rule_tree(derivations[i]) for i in sorted(chosen)])


def split(pool, train_size=160, test_size=40, **options):
    options.setdefault("progress", False)
    return dbca.mcd_split(pool, train_size, test_size, **options)


@pytest.mark.parametrize("train_size, test_size", [(160, 40), (30, 120), (1, 1), (200, 200)])
def test_sizes_and_disjointness(pool, train_size, test_size):
    result = split(pool, train_size, test_size)
    train, test = result
    assert len(train) == train_size and len(test) == test_size
    assert len(set(train)) == train_size and len(set(test)) == test_size
    assert not set(train) & set(test)
    assert min(train.min(), test.min()) >= 0 and max(train.max(), test.max()) < len(pool)


def test_seeded_runs_are_identical_and_seeds_differ(pool):
    first, again, other = split(pool, seed=3), split(pool, seed=3), split(pool, seed=4)
    assert np.array_equal(first.train, again.train) and np.array_equal(first.test, again.test)
    assert first.compound_divergence == again.compound_divergence
    assert not np.array_equal(first.test, other.test)


def test_reported_divergences_are_those_of_the_split(pool):
    result = split(pool)
    assert (result.atom_divergence, result.compound_divergence) == pytest.approx(
        pool.divergences(result.train, result.test), abs=1e-12)
    assert result.steps >= 200 - 2 and result.removed > 0
    assert "D_C" in result.summary()


def random_divergence(pool, seed):
    order = np.random.default_rng(seed).permutation(len(pool))
    return pool.divergences(order[:160], order[160:200])


def test_mcd_split_beats_random_splits_with_atoms_in_bounds(pool):
    result = split(pool)
    assert result.atom_target_met and result.atom_divergence <= 0.02
    assert result.compound_error is None
    best_random = max(random_divergence(pool, seed)[1] for seed in range(5))
    assert result.compound_divergence > best_random + 0.2


@pytest.mark.parametrize("target", [0.0, 0.2, 0.4])
def test_compound_divergence_targets_are_reached(pool, target):
    result = split(pool, compound_divergence=target)
    assert result.atom_target_met
    # D_C of a random split of this size is about 0.1: 0 is approached, not reached
    tolerance = 0.08 if target == 0.0 else 0.01
    assert result.compound_error <= tolerance
    assert result.compound_divergence < min(random_divergence(pool, s)[1] for s in range(5)) \
        or target > 0


def test_unreachable_target_reports_the_best_reached(pool):
    result = split(pool, compound_divergence=1.0, max_atom_divergence=0.0)
    assert result.target_compound_divergence == 1.0 and result.max_atom_divergence == 0.0
    assert not result.atom_target_met and result.compound_error > 0


@pytest.mark.parametrize("options", [
    dict(),
    dict(compound_divergence=0.3, removal_interval=7, removal_count=3, seed=1),
    dict(num_candidates=25, seed=2),
    dict(max_atom_divergence=0.003),  # ends above the bound: repair swaps (4 of them)
])
@pytest.mark.slow
def test_incremental_and_rebuilding_searches_give_the_same_split(pool, options):
    small = dict(train_size=24, test_size=12, removal_interval=10, removal_count=2)
    small.update(options)
    sizes = small.pop("train_size"), small.pop("test_size")
    fast = dbca.mcd_split(pool, *sizes, progress=False, **small)
    slow = rebuild_split(pool, *sizes, progress=False, **small)
    assert np.array_equal(fast.train, slow.train) and np.array_equal(fast.test, slow.test)
    assert (fast.steps, fast.removed, fast.repairs) == (slow.steps, slow.removed, slow.repairs)
    if "max_atom_divergence" in options:
        assert fast.repairs > 0
    assert fast.compound_divergence == pytest.approx(slow.compound_divergence, abs=1e-12)
    assert fast.atom_divergence == pytest.approx(slow.atom_divergence, abs=1e-12)


def test_samples_are_accepted_directly(capsys):
    samples = [("S", (v, a)) for v in ("V1", "V2", "V3") for a in ("a", "b", "c", "d")]
    train, test = dbca.mcd_split(samples, 6, 3, progress=True)
    assert len(train) == 6 and len(test) == 3
    assert "MCD split" in capsys.readouterr().err


@pytest.mark.parametrize("arguments, message", [
    (dict(train_size=300, test_size=101), "larger than the pool of 400"),
    (dict(train_size=0), "train_size"),
    (dict(test_size=2.5), "test_size"),
    (dict(compound_divergence=1.5), "compound_divergence"),
    (dict(compound_divergence=-0.1), "compound_divergence"),
    (dict(max_atom_divergence=-0.01), "max_atom_divergence"),
    (dict(max_atom_divergence=None), "max_atom_divergence"),
    (dict(seed=-1), "seed"),
    (dict(num_candidates=0), "num_candidates"),
    (dict(removal_interval=5, removal_count=5), "removal_count"),
])
def test_bad_arguments_are_refused(pool, arguments, message):
    options = dict(train_size=160, test_size=40)
    options.update(arguments)
    with pytest.raises(ValueError, match=message):
        dbca.mcd_split(pool, options.pop("train_size"), options.pop("test_size"), **options)


def test_an_empty_pool_is_refused():
    with pytest.raises(ValueError, match="empty"):
        dbca.mcd_split([], 1, 1)
