import pytest

from tutorlib import compositionality as toy

WORLD = toy.make_world(6, 5)


def test_languages_are_injective_and_two_words():
    for language in [toy.compositional_language(WORLD, 0), toy.holistic_language(WORLD, 0),
                     toy.irregular_language(WORLD, 0.5, 0)]:
        assert set(language) == set(WORLD.objects())
        assert len(set(language.values())) == len(language)
        assert all(len(name.split()) == 2 for name in language.values())


def test_compositional_names_share_words_with_their_parts():
    language = toy.compositional_language(WORLD, 3)
    for colour in WORLD.colours:
        assert len({language[(colour, s)].split()[0] for s in WORLD.shapes}) == 1
    for shape in WORLD.shapes:
        assert len({language[(c, shape)].split()[1] for c in WORLD.colours}) == 1


def test_irregular_language_changes_the_requested_number_of_names():
    regular = toy.compositional_language(WORLD, 1)
    irregular = toy.irregular_language(WORLD, 0.4, 1)
    changed = sum(regular[o] != irregular[o] for o in WORLD.objects())
    assert changed == round(0.4 * 30)
    with pytest.raises(ValueError, match="between 0 and 1"):
        toy.irregular_language(WORLD, 1.5)


def test_compound_split_keeps_every_atom_and_partitions():
    for seed in range(5):
        train, test = toy.compound_split(WORLD, 0.3, seed)
        assert sorted(train + test) == sorted(WORLD.objects())
        assert len(test) == 9
        assert set(toy.atoms(train)) == set(WORLD.colours) | set(WORLD.shapes)
        assert toy.split_summary(train, test)["unseen atoms in test"] == 0.0
        assert toy.split_summary(train, test)["unseen compounds in test"] == 1.0


def test_learner_generalises_exactly_when_the_language_is_compositional():
    train, test = toy.compound_split(WORLD, 0.3, 0)
    assert toy.heldout_accuracy(toy.compositional_language(WORLD, 0), train, test) == 1.0
    assert toy.heldout_accuracy(toy.holistic_language(WORLD, 0), train, test) == 0.0


def test_atom_split_cannot_be_solved():
    train, test = toy.atom_split(WORLD, "red")
    assert all("red" in obj for obj in test) and not any("red" in obj for obj in train)
    summary = toy.split_summary(train, test)
    assert summary["unseen atoms in test"] == 0.5  # one of each test object's two atoms
    assert toy.heldout_accuracy(toy.compositional_language(WORLD, 0), train, test) == 0.0
    with pytest.raises(ValueError, match="neither a colour nor a shape"):
        toy.atom_split(WORLD, "plaid")


def test_irregularity_curve_endpoints():
    rows = toy.irregularity_curve(WORLD, [0.0, 1.0], num_splits=3)
    by_fraction = {f: [r["accuracy"] for r in rows if r["irregular fraction"] == f]
                   for f in (0.0, 1.0)}
    assert by_fraction[0.0] == [1.0, 1.0, 1.0]
    assert by_fraction[1.0] == [0.0, 0.0, 0.0]


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="num_colours must be an integer from 2 to 12"):
        toy.make_world(1, 3)
    with pytest.raises(ValueError, match="test_fraction"):
        toy.random_split(WORLD.objects(), 1.0, 0)
    with pytest.raises(ValueError, match="keeps every atom"):
        toy.compound_split(WORLD, 0.95, 0)
    with pytest.raises(ValueError, match="two words"):
        toy.learn_lexicon({("red", "circle"): "onlyone"})
    with pytest.raises(ValueError, match="test set is empty"):
        toy.heldout_accuracy(toy.compositional_language(WORLD), WORLD.objects(), [])
