"""tutorlib.scan.rules (SCAN's rule-application trees) and tutorlib.dbca.scan_splits (DBCA's
MCD splits of SCAN, built on them)."""

import subprocess
import sys

import numpy as np
import pytest

from tutorlib import dbca, scan
from tutorlib.dbca import scan_splits as scan_rules
from tutorlib.scan.rules import rule_tree

GRAMMAR_RULES = {
    "C -> S and S", "C -> S after S", "C -> S",
    "S -> V twice", "S -> V thrice", "S -> V",
    "V -> D[1] opposite D[2]", "V -> D[1] around D[2]", "V -> D", "V -> U",
    "D -> U left", "D -> U right", "D -> turn left", "D -> turn right",
    "U -> walk", "U -> look", "U -> run", "U -> jump",
}


@pytest.mark.parametrize("command, tree", [
    ("jump", ("C -> S", ("S -> V", ("V -> U", "U -> jump")))),
    ("turn left twice", ("C -> S", ("S -> V twice", ("V -> D", "D -> turn left")))),
    ("walk opposite right", ("C -> S", ("S -> V", ("V -> D[1] opposite D[2]",
                                                   ("D -> U right", "U -> walk"))))),
    ("look thrice after turn around left",
     ("C -> S after S", ("S -> V thrice", ("V -> U", "U -> look")),
      ("S -> V", ("V -> D[1] around D[2]", "D -> turn left")))),
])
def test_rule_trees_known_answers(command, tree):
    assert rule_tree(command) == tree
    assert rule_tree(scan.parse(command)) == tree


@pytest.mark.slow
def test_every_rule_of_the_grammar_is_an_atom_and_nothing_else():
    atoms = dbca.atom_counts(rule_tree(t) for t in scan.derivations())
    assert set(atoms) == GRAMMAR_RULES
    assert atoms["C -> S"] == 102 and atoms["C -> S and S"] == 102 * 102
    # one C-node per command, and SCAN has 20,910 commands; one S-node per part
    assert sum(atoms[r] for r in GRAMMAR_RULES if r.startswith("C")) == 20_910
    assert sum(atoms[r] for r in GRAMMAR_RULES if r.startswith("S")) == 102 + 2 * 2 * 102 * 102


def test_commands_outside_the_grammar_are_refused():
    with pytest.raises(ValueError, match="position 1"):
        rule_tree("jump jump")


def test_mcd_split_of_scan_maps_indices_to_pairs_and_is_cached(monkeypatch):
    small = dbca.build_pool([rule_tree(t) for t in scan.derivations()[:300]])
    monkeypatch.setattr(scan_rules, "scan_pool", lambda: small)
    monkeypatch.setattr(scan_rules, "MCD_TRAIN_SIZE", 120)
    monkeypatch.setattr(scan_rules, "MCD_TEST_SIZE", 15)
    train, test = scan_rules.mcd_split_of_scan(seed=1)
    assert len(train) == 120 and len(test) == 15 and not set(train) & set(test)
    pairs = scan.all_pairs()[:300]
    assert set(train) | set(test) <= set(pairs)
    result = scan_rules.mcd_result_of_scan(seed=1)
    assert [pairs[i] for i in result.test] == test
    calls = []
    monkeypatch.setattr(scan_rules, "mcd_split", lambda *a, **k: calls.append(a))
    assert scan_rules.mcd_split_of_scan(seed=1) == (train, test)  # from the cache
    assert calls == []
    assert result.atom_divergence == pytest.approx(small.divergences(result.train, result.test)[0])
    assert np.all(np.diff(result.train) > 0)


def test_scan_divergences_use_the_pool_rows(monkeypatch):
    derivations = scan.derivations()[:200]
    trees = [rule_tree(t) for t in derivations]
    small = dbca.build_pool(trees)
    monkeypatch.setattr(scan_rules, "scan_pool", lambda: small)
    pairs = scan.all_pairs()[:200]
    train, test = pairs[:150] + pairs[:1] * 20, pairs[150:]
    expected = dbca.divergences(trees[:150] + trees[:1] * 20, trees[150:], pool=small)
    assert scan_rules.scan_divergences(train, test) == pytest.approx(expected, abs=1e-12)
    assert scan_rules.scan_divergences([c for c, _ in train], [c for c, _ in test]) == \
        pytest.approx(expected, abs=1e-12)
    with pytest.raises(ValueError, match="position 1"):
        scan_rules.scan_divergences(["walk walk"], test)
    with pytest.raises(ValueError, match="test is empty"):
        scan_rules.scan_divergences(train, [])


def test_scan_loads_no_dbca_until_its_mcd_split_is_asked_for():
    code = ("import sys, tutorlib.scan; "
            "print(sorted(m for m in sys.modules if m.startswith('tutorlib.dbca')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
