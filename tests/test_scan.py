from collections import Counter

import pytest

from tutorlib import scan, trees

# Known answers: the examples of the official README and lines of the official files
# (https://github.com/brendenlake/SCAN), with its action tokens.
KNOWN = {
    "jump": "I_JUMP",
    "jump left": "I_TURN_LEFT I_JUMP",
    "jump around right": "I_TURN_RIGHT I_JUMP I_TURN_RIGHT I_JUMP I_TURN_RIGHT I_JUMP I_TURN_RIGHT I_JUMP",
    "turn left twice": "I_TURN_LEFT I_TURN_LEFT",
    "jump thrice": "I_JUMP I_JUMP I_JUMP",
    "jump opposite left and walk thrice": "I_TURN_LEFT I_TURN_LEFT I_JUMP I_WALK I_WALK I_WALK",
    "jump opposite left after walk around left":
        "I_TURN_LEFT I_WALK I_TURN_LEFT I_WALK I_TURN_LEFT I_WALK I_TURN_LEFT I_WALK "
        "I_TURN_LEFT I_TURN_LEFT I_JUMP",
    "turn opposite left thrice after walk around left":
        "I_TURN_LEFT I_WALK I_TURN_LEFT I_WALK I_TURN_LEFT I_WALK I_TURN_LEFT I_WALK "
        "I_TURN_LEFT I_TURN_LEFT I_TURN_LEFT I_TURN_LEFT I_TURN_LEFT I_TURN_LEFT",
    "run twice after jump opposite left": "I_TURN_LEFT I_TURN_LEFT I_JUMP I_RUN I_RUN",
    "turn around right and jump opposite right thrice":
        "I_TURN_RIGHT I_TURN_RIGHT I_TURN_RIGHT I_TURN_RIGHT I_TURN_RIGHT I_TURN_RIGHT I_JUMP "
        "I_TURN_RIGHT I_TURN_RIGHT I_JUMP I_TURN_RIGHT I_TURN_RIGHT I_JUMP",
    "look right and turn opposite right twice":
        "I_TURN_RIGHT I_LOOK I_TURN_RIGHT I_TURN_RIGHT I_TURN_RIGHT I_TURN_RIGHT",
    "turn around left after turn opposite right":
        "I_TURN_RIGHT I_TURN_RIGHT I_TURN_LEFT I_TURN_LEFT I_TURN_LEFT I_TURN_LEFT",
}

# Sizes (train, test) of the official release and of Loula et al. (2018).
OFFICIAL_SIZES = {
    "simple": (16_728, 4_182),
    "length": (16_990, 3_920),
    "addprim_jump": (14_670, 7_706),
    "addprim_turn_left": (21_890, 1_208),
    "template_around_right": (15_225, 4_476),
    "template_opposite_right": (15_225, 4_476),
    "template_right": (15_225, 4_476),
    "template_jump_around_right": (18_528, 1_173),
    "filler_num0": (15_225, 1_173),
    "filler_num1": (16_290, 1_173),
    "filler_num2": (17_391, 1_173),
    "filler_num3": (18_528, 1_173),
}


@pytest.mark.parametrize("command, actions", KNOWN.items())
def test_interpretation_known_answers(command, actions):
    assert " ".join(scan.interpret(command)) == actions


def test_the_grammar_generates_20910_distinct_commands():
    pairs = scan.all_pairs()
    assert len(pairs) == scan.NUM_COMMANDS == 20_910
    assert len({c for c, _ in pairs}) == 20_910
    assert {t for _, a in pairs for t in a.split()} == set(scan.ACTION_TOKENS)
    assert max(len(a.split()) for _, a in pairs) == 48
    assert max(len(c.split()) for c, _ in pairs) == 9


def test_parse_and_derivation_round_trip():
    for tree, (command, _) in zip(scan.derivations(), scan.all_pairs()):
        assert scan.parse(command) == tree
        assert scan.command_of(tree) == command
    tree = scan.parse("walk around left twice after jump")
    assert tree == ((("walk", "around", "left"), "twice"), "after", "jump")
    assert trees.format_tree(tree) == "(((walk around left) twice) after jump)"
    assert scan.interpret(tree) == scan.interpret("walk around left twice after jump")


@pytest.mark.parametrize("command, message", [
    ("jump twice twice", "'twice' at position 1"),
    ("dax", "unknown word 'dax' at position 0"),
    ("walk and", "nothing after 'and' at position 1"),
    ("and walk", "nothing before 'and' at position 0"),
    ("turn", "'turn' at position 0 .* needs a direction"),
    ("", "empty command"),
    ("walk and run after look", "unexpected 'after' at position 3"),
    ("jump around", "expected 'left' or 'right' at position 1"),
    ("left jump", "expected an action .* at position 0"),
    ("jump opposite left right", "unexpected 'right' at position 3"),
    ("twice", "has nothing to repeat"),
])
def test_commands_outside_the_grammar_are_named(command, message):
    with pytest.raises(ValueError, match=message):
        scan.interpret(command)


def test_invalid_derivations_are_rejected():
    with pytest.raises(ValueError, match="unknown word 'dax'"):
        scan.interpret(("dax", "twice"))
    with pytest.raises(ValueError, match="not a SCAN derivation"):
        scan.interpret(("walk", "twice", "and", "run"))


@pytest.mark.parametrize("name, sizes", OFFICIAL_SIZES.items())
def test_official_split_sizes(name, sizes):
    train, test = scan.split(name)
    assert (len(train), len(test)) == sizes


def test_simple_split_is_an_exact_partition():
    train, test = scan.split("simple", seed=3)
    assert not set(train) & set(test)
    assert Counter(train + test) == Counter(scan.all_pairs())
    assert scan.split("simple", seed=3) == (train, test)
    assert scan.split("simple", seed=4) != (train, test)


def test_size_variations_are_nested_partitions():
    previous = set()
    for p in scan.SIZE_PERCENTS:
        train, test = scan.split(f"simple_p{p}")
        assert len(train) == round(p / 100 * 20_910)
        assert len(train) + len(test) == 20_910 and not set(train) & set(test)
        assert previous <= set(train)
        previous = set(train)


def test_length_split_rule():
    train, test = scan.split("length")
    assert all(len(a.split()) <= 22 for _, a in train)
    assert all(len(a.split()) > 22 for _, a in test)


@pytest.mark.parametrize("primitive, command, copies", [("jump", "jump", 1_467),
                                                         ("turn_left", "turn left", 2_189)])
def test_addprim_splits(primitive, command, copies):
    train, test = scan.split(f"addprim_{primitive}")
    counts = Counter(c for c, _ in train)
    assert counts[command] == copies
    assert copies == round(0.1 * len(train))
    assert all(n == 1 for c, n in counts.items() if c != command)
    uses = (lambda c: "jump" in c.split()) if primitive == "jump" else (lambda c: "turn left" in c)
    assert all(uses(c) for c, _ in test) and command not in {c for c, _ in test}
    assert not any(uses(c) for c, _ in train if c != command)


@pytest.mark.parametrize("num, copies", scan.COMPLEX_JUMP_COPIES.items())
def test_addprim_complex_jump_splits(num, copies):
    jump_test = set(scan.split("addprim_jump")[1])
    for rep in (1, 2):
        train, test = scan.split(f"addprim_complex_jump_num{num}_rep{rep}")
        counts = Counter(train)
        composed = [p for p in counts if p in jump_test]
        assert len(composed) == num and all(counts[p] == copies for p in composed)
        assert counts[("jump", "I_JUMP")] == copies
        assert set(test) == jump_test - set(composed) and len(test) == 7_706 - num
    assert scan.split(f"addprim_complex_jump_num{num}_rep1") != scan.split(
        f"addprim_complex_jump_num{num}_rep2")


@pytest.mark.parametrize("template, text", [("around_right", "around right"),
                                            ("opposite_right", "opposite right")])
def test_template_splits_hold_out_the_template(template, text):
    train, test = scan.split(f"template_{template}")
    assert not any(text in c for c, _ in train)
    assert all(text in c and f"turn {text}" not in c for c, _ in test)


@pytest.mark.slow
def test_filler_splits_add_fillers_in_order():
    for k in range(4):
        train, test = scan.split(f"filler_num{k}")
        seen = {c.split()[i - 1] for c, _ in train for i, w in enumerate(c.split())
                if w == "around" and c.split()[i + 1] == "right"}
        assert seen == set(scan.FILLERS[:k])
        assert all("jump around right" in c for c, _ in test)
    assert scan.split("template_jump_around_right") == scan.split("filler_num3")


def test_unknown_split_names_are_named():
    with pytest.raises(ValueError, match=r"percent must be one of \(1, 2, 4"):
        scan.split("simple_p3")
    with pytest.raises(ValueError, match="unknown SCAN split 'addprim_walk'"):
        scan.split("addprim_walk")
    with pytest.raises(ValueError, match="num must be one of"):
        scan.split("addprim_complex_jump_num3_rep1")


@pytest.mark.slow
def test_export_writes_the_official_layout(tmp_path):
    scan.main(["export", str(tmp_path)])
    assert len(scan.read_pairs(tmp_path / "tasks.txt")) == 20_910
    assert (tmp_path / "tasks.txt").read_text().splitlines()[0].startswith("IN: ")
    for name, pattern in scan.export_layout().items():
        train, test = scan.split(name)
        assert Counter(scan.read_pairs(tmp_path / pattern.format(part="train"))) == Counter(train)
        assert Counter(scan.read_pairs(tmp_path / pattern.format(part="test"))) == Counter(test)
    for path in ["simple_split/tasks_train_simple.txt",
                 "simple_split/size_variations/tasks_test_simple_p16.txt",
                 "length_split/tasks_test_length.txt",
                 "add_prim_split/tasks_train_addprim_turn_left.txt",
                 "add_prim_split/with_additional_examples/tasks_train_addprim_complex_jump_num8_rep5.txt",
                 "template_split/tasks_test_template_jump_around_right.txt",
                 "filler_split/tasks_train_filler_num2.txt"]:
        assert (tmp_path / path).exists(), path


# Sizes in characters of official files (github.com/brendenlake/SCAN). Together with the line
# counts above they pin the files down: a single different action or missing line changes them.
# (The three test files were also compared with ours line by line, as multisets, when written.)
OFFICIAL_FILE_CHARS = {
    "add_prim_split/tasks_test_addprim_turn_left.txt": 173_679,
    "template_split/tasks_test_template_right.txt": 729_823,
    "template_split/tasks_test_template_opposite_right.txt": 871_363,
    "filler_split/tasks_train_filler_num1.txt": 2_851_719,
    "filler_split/tasks_train_filler_num2.txt": 3_158_377,
}


@pytest.mark.slow
def test_exported_files_have_the_official_sizes(tmp_path):
    scan.export(tmp_path)
    for path, chars in OFFICIAL_FILE_CHARS.items():
        assert len((tmp_path / path).read_text()) == chars, path


def test_lines_round_trip_and_bad_lines_are_named():
    pair = ("jump twice", "I_JUMP I_JUMP")
    assert scan.format_line(pair) == "IN: jump twice OUT: I_JUMP I_JUMP"
    assert scan.parse_line(scan.format_line(pair)) == pair
    with pytest.raises(ValueError, match="not a SCAN line"):
        scan.parse_line("jump twice -> I_JUMP I_JUMP")
