import pytest

from tutorlib import pcfgset

# Known answers: the example and lines of the published data set
# (https://github.com/i-machine-think/am-i-compositional, data/pcfgset/pcfgset/dev.src and
# dev.tgt, lines 1-7, 12, 36 and 39).
PUBLISHED = {
    "swap_first_last shift reverse copy M2 H16 K3 Z20": "Z20 H16 M2 K3",
    "remove_second K3 F20 M4 K2 W15 , reverse echo E19 Y4 G14 H7 W5": "K3 F20 M4 K2 W15",
    "repeat append I19 V5 R3 Y12 , append S11 B10 X20 , append Z4 K18 V9 H14 N7 , "
    "B10 W16 M19 S17 F6":
        "I19 V5 R3 Y12 S11 B10 X20 Z4 K18 V9 H14 N7 B10 W16 M19 S17 F6 "
        "I19 V5 R3 Y12 S11 B10 X20 Z4 K18 V9 H14 N7 B10 W16 M19 S17 F6",
    "reverse reverse repeat O19 E18 W16 S3 D10": "O19 E18 W16 S3 D10 O19 E18 W16 S3 D10",
    "shift copy echo E20 T7 R4": "T7 R4 R4 E20",
    "remove_first copy K16 O17 U5 V15 A5 , P14 V4": "P14 V4",
    "echo append repeat I13 Y10 E6 , append repeat swap_first_last I7 K17 K14 Q9 , "
    "E14 D7 X9 S14 J7":
        "I13 Y10 E6 I13 Y10 E6 Q9 K17 K14 I7 Q9 K17 K14 I7 E14 D7 X9 S14 J7 J7",
    "swap_first_last reverse repeat remove_second copy B12 N12 J12 M20 , X15 E16 L9 E10":
        "B12 J12 N12 B12 M20 J12 N12 M20",
    "remove_first shift echo append R15 I9 N18 W19 , echo E10 P2 G20 , reverse repeat shift "
    "repeat prepend shift shift repeat S18 V8 S14 L5 Z9 , I19 Y9 L20":
        " ".join(["I19 V8 S18 Z9 L5 S14 V8 S18 Z9 L5 S14 L20 Y9"] * 4),
    "prepend prepend prepend append R8 D13 Y10 S7 , U13 K12 S20 , prepend echo T5 A19 A9 W15 "
    "J14 , swap_first_last B7 E19 S12 S17 Y1 , D17 O18 Q8 Q6 , A20 C3 E5":
        "A20 C3 E5 D17 O18 Q8 Q6 Y1 E19 S12 S17 B7 T5 A19 A9 W15 J14 J14 R8 D13 Y10 S7 U13 "
        "K12 S20",
}

# The published overgeneralisation exceptions (data/pcfgset/overgeneralisation/
# test_pcfg_ratio=0.0001_exception.src/.tgt, lines 3-9, and the README's rule-following
# output of line 8).
EXCEPTIONS = {
    "append remove_first repeat prepend M8 D13 W3 I17 M15 , R7 N5 L1 M8 , reverse echo copy "
    "copy S3 I17 X10 L2 , F16 F18 F10 E14": "S3 I17 X10 L2 L2 F16 F18 F10 E14",
    "copy copy swap_first_last reverse echo prepend N4 U5 I11 X14 W7 , X9 O9":
        "W7 O9 N4 U5 I11 X14 W7 X9",
    "prepend remove_first R19 J1 B11 C19 , A16 T11 F14 , N10 N12 F12":
        "R19 J1 B11 C19 A16 T11 F14",
    "echo prepend remove_first R7 O3 G19 , A1 J10 J12 U3 F8 , L9 A4 R18 Z16":
        "R7 O3 G19 A1 J10 J12 U3 F8 F8",
    "echo remove_first Q16 W11 H10 J4 , Y2 V20 N17": "Q16 W11 H10 J4 Y2 V20 N17",
    "prepend reverse R1 J11 , K8 L16 Y18": "R1 J11 J11",
    "prepend reverse repeat O16 H4 S3 P20 , append remove_first N2 U5 N11 O5 D3 , X7 I17 N12 , "
    "repeat F10 Y5 M1 N18": "O16 H4 S3 P20 O16 H4 S3 P20 P20",
}

# Published unrolled inputs (data/pcfgset/localism/unrolled_test.tsv, the first two inputs);
# the first is the example.
UNROLLED = {
    "reverse shift append V12 P3 R9 J8 , repeat K19 C16 P13":
        ["repeat K19 C16 P13", "append V12 P3 R9 J8 , *1", "shift *2", "reverse *3"],
    "remove_first echo echo R3 W7 V4 J17 , echo copy remove_second copy remove_first copy copy "
    "T2 L2 H13 S12 , shift D15 R20 A10 D11 N3 , B17 U17 N13":
        ["echo R3 W7 V4 J17", "echo *1", "copy T2 L2 H13 S12", "copy *3",
         "shift D15 R20 A10 D11 N3", "remove_first *4 , *5", "copy *6",
         "remove_second *7 , B17 U17 N13", "copy *8", "echo *9", "remove_first *2 , *10"],
    "remove_second Q14 D9 B18 F18 , remove_second append K14 D10 R11 T18 Y12 , R19 P7 O8 Z3 "
    "G20 , echo remove_first remove_second echo G6 I4 N10 V19 O3 , D18 K8 N5 , S7 X9 D16 A11":
        ["append K14 D10 R11 T18 Y12 , R19 P7 O8 Z3 G20", "echo G6 I4 N10 V19 O3",
         "remove_second *2 , D18 K8 N5", "remove_first *3 , S7 X9 D16 A11", "echo *4",
         "remove_second *1 , *5", "remove_second Q14 D9 B18 F18 , *6"],
}


@pytest.mark.parametrize("source, target", PUBLISHED.items())
def test_interpreter_agrees_with_published_data(source, target):
    assert " ".join(pcfgset.interpret(source)) == target


@pytest.mark.parametrize("function, arguments, value", [
    ("copy", ["A1 B2 C3"], "A1 B2 C3"),
    ("reverse", ["A1 B2 C3"], "C3 B2 A1"),
    ("shift", ["A1 B2 C3"], "B2 C3 A1"),
    ("echo", ["A1 B2 C3"], "A1 B2 C3 C3"),
    ("swap_first_last", ["A1 B2 C3 D4"], "D4 B2 C3 A1"),
    ("swap_first_last", ["A1 B2"], "B2 A1"),
    ("repeat", ["A1 B2"], "A1 B2 A1 B2"),
    ("append", ["A1 B2", "C3"], "A1 B2 C3"),
    ("prepend", ["A1 B2", "C3"], "C3 A1 B2"),
    ("remove_first", ["A1 B2", "C3"], "C3"),
    ("remove_second", ["A1 B2", "C3"], "A1 B2"),
])
def test_each_function_by_hand(function, arguments, value):
    assert " ".join(pcfgset.interpret(f"{function} {' , '.join(arguments)}")) == value
    assert " ".join(pcfgset.apply(function, *(tuple(a.split()) for a in arguments))) == value


def test_binary_functions_take_whole_expressions_as_first_argument():
    # append (prepend A1 , B2) , C3 -- the first argument ends at the comma that closes it
    assert pcfgset.interpret("append prepend A1 , B2 , C3") == ["B2", "A1", "C3"]
    assert pcfgset.parse("append prepend A1 , B2 , C3") == (
        "append", ("prepend", ("A1",), ("B2",)), ("C3",))


@pytest.mark.parametrize("source, target", EXCEPTIONS.items())
def test_exceptions_agree_with_published_data(source, target):
    assert " ".join(pcfgset.interpret(source, exceptions=True)) == target


def test_exception_inputs_follow_the_rules_without_exceptions():
    # The published README: "Compare the model's output to the original target (K8 L16 Y18 J11 R1)"
    assert pcfgset.interpret("prepend reverse R1 J11 , K8 L16 Y18") == "K8 L16 Y18 J11 R1".split()


@pytest.mark.parametrize("source, steps", UNROLLED.items())
def test_unroll_agrees_with_published_data(source, steps):
    assert pcfgset.unroll(source) == steps


def test_unroll_of_a_single_function_is_the_input():
    assert pcfgset.unroll("append A1 B2 , C3") == ["append A1 B2 , C3"]
    assert pcfgset.unroll("copy A1 B2") == ["copy A1 B2"]


def test_computing_the_unrolled_steps_gives_the_output():
    for source, target in PUBLISHED.items():
        outputs: list[str] = []
        for step in pcfgset.unroll(source):
            outputs.append(" ".join(pcfgset.interpret(pcfgset.substitute(step, outputs))))
        assert outputs[-1] == target


def test_substitute_fills_placeholders_and_rejects_future_ones():
    assert pcfgset.substitute("append *1 , *2", ["A1 B2", "C3"]) == "append A1 B2 , C3"
    assert pcfgset.substitute("remove_first *10 , A1", [f"B{k}" for k in range(1, 11)]) == \
        "remove_first B10 , A1"
    with pytest.raises(ValueError, match=r"refers to \*2, but only 1 earlier output"):
        pcfgset.substitute("shift *2", ["A1"])


@pytest.mark.parametrize("source, message", [
    ("", "empty input"),
    ("   ", "empty input"),
    ("append A1 B2", r"binary function 'append' at position 0 .* has no ','.* position 3"),
    ("prepend A1 B2 copy C3", r"binary function 'prepend' at position 0 .* got 'copy'"),
    ("reverse", r"dangling function 'reverse' at position 0"),
    ("reverse copy", r"dangling function 'copy' at position 1"),
    ("append , A1", r"dangling function 'append' at position 0"),
    ("copy A1 , B2", r"extra ',' at position 2"),
    ("append A1 , , B2", r"extra ',' at position 3"),
    ("append A1 ,", r"',' at position 2 .* not followed by the second argument"),
    ("copy A1 B2 foo", r"unknown token 'foo' at position 3"),
    ("copy A21", r"unknown token 'A21' at position 1 .* alphabet's 520 symbols"),
    ("append_twin A1 , B2", r"unknown token 'append_twin' at position 0 .* synonyms=TWINS"),
    ("A1 B2", r"starts with the symbol 'A1' at position 0"),
    ("copy A1 reverse B2", r"unexpected 'reverse' at position 2"),
])
def test_malformed_inputs_name_the_problem_and_position(source, message):
    with pytest.raises(ValueError, match=message):
        pcfgset.interpret(source)


def test_synonyms_only_where_given():
    twin = "swap_first_last append_twin Q7 O3 P1 Y19 , G9 T14 U6 T9"
    with pytest.raises(ValueError, match="append_twin"):
        pcfgset.interpret(twin)
    plain = twin.replace("append_twin", "append")
    assert pcfgset.interpret(twin, synonyms=pcfgset.TWINS) == pcfgset.interpret(plain)
    assert set(pcfgset.TWINS) == {"append_twin", "swap_first_last_twin", "repeat_twin",
                                  "remove_second_twin"}
    first_step = pcfgset.unroll(twin, synonyms=pcfgset.TWINS)[0]
    assert first_step == "append_twin Q7 O3 P1 Y19 , G9 T14 U6 T9"


def test_the_alphabet_is_configurable():
    assert len(pcfgset.ALPHABET) == 520
    assert pcfgset.ALPHABET[0] == "A1" and pcfgset.ALPHABET[-1] == "Z20"
    small = pcfgset.alphabet(3, 2)
    assert small == ("A1", "A2", "B1", "B2", "C1", "C2")
    assert pcfgset.interpret("reverse A1 C2", symbols=small) == ["C2", "A1"]
    with pytest.raises(ValueError, match="unknown token 'D1'.* 6 symbols"):
        pcfgset.interpret("reverse A1 D1", symbols=small)
    with pytest.raises(ValueError, match="letters must be"):
        pcfgset.alphabet(27)


def test_structure_of_a_tree():
    tree = pcfgset.parse("echo append repeat A1 B2 , prepend C3 , D4")
    assert pcfgset.depth(tree) == 3
    assert pcfgset.functions(tree) == ["echo", "append", "repeat", "prepend"]
    assert pcfgset.string_arguments(tree) == [("A1", "B2"), ("C3",), ("D4",)]
    assert pcfgset.format_input(tree) == "echo append repeat A1 B2 , prepend C3 , D4"
    assert pcfgset.num_functions("echo append_twin A1 , B2") == 2
    assert pcfgset.depth(pcfgset.parse("copy A1 B2")) == 1


def test_the_function_set():
    assert pcfgset.UNARY == ("copy", "reverse", "shift", "echo", "swap_first_last", "repeat")
    assert pcfgset.BINARY == ("append", "prepend", "remove_first", "remove_second")
    assert len(pcfgset.FUNCTIONS) == 10


def test_derivations_for_tutorlib_trees():
    from tutorlib import trees

    tree = pcfgset.derivation("echo append repeat A1 B2 , prepend C3 , D4")
    assert trees.check_tree(tree) == ("echo", ("append", ("repeat", ("A1", "B2")),
                                               ("prepend", "C3", "D4")))
    assert trees.depth(tree) == 4  # trees counts the string argument as a level too


def test_interpret_refuses_a_tree_parse_could_not_have_made():
    from tutorlib.pcfgset.language import check_tree, parse

    assert check_tree(parse("append copy A1 B2 , C3")) == parse("append copy A1 B2 , C3")
    with pytest.raises(TypeError, match="position 1 of the tree is a str"):
        pcfgset.interpret(("copy", "A1"))  # was read as the symbols 'copy' and 'A1'
    with pytest.raises(ValueError, match="a tree starts with a function"):
        pcfgset.interpret(("A1", "B2"))
    with pytest.raises(ValueError, match="'append' at position 0 takes 2 argument"):
        pcfgset.interpret(("append", ("A1",)))
    with pytest.raises(ValueError, match="source=\"None\" violates type hint"):
        pcfgset.interpret(None)
    # a deep tree is checked without recursion
    deep = ("A1",)
    for _ in range(5_000):
        deep = ("copy", deep)
    assert check_tree(deep) is deep
