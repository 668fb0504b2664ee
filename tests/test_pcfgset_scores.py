import math

import pytest

from tutorlib import pcfgset


def interpreter(batch):
    """A perfect model."""
    return [" ".join(pcfgset.interpret(source)) for source in batch]


def test_consistency_counts_identical_non_empty_predictions():
    assert pcfgset.consistency(["A1 B2", "C3", ""], ["A1 B2", "D4", ""]) == pytest.approx(1 / 3)
    assert pcfgset.consistency([["A1", "B2"]], ["A1  B2"]) == 1.0
    with pytest.raises(ValueError, match="same length, got 2 and 1"):
        pcfgset.consistency(["A1", "B2"], ["A1"])
    with pytest.raises(ValueError, match="empty"):
        pcfgset.consistency([], [])


def test_accuracy():
    assert pcfgset.accuracy(["A1 B2", "C3", ""], ["A1 B2", "C4", "D5"]) == pytest.approx(1 / 3)


def test_scores_refuse_what_is_not_a_sequence_of_outputs():
    # a single string would be scored character by character
    with pytest.raises(TypeError, match="predictions must be a sequence of outputs"):
        pcfgset.accuracy("A1 B2", "A1 B2")
    with pytest.raises(TypeError, match=r"predictions\[0\] must be a string"):
        pcfgset.accuracy([1], ["A1"])
    with pytest.raises(TypeError, match="predictions=\"None\" violates type hint"):
        pcfgset.token_accuracy(None, ["A1"])
    # an empty target is no output: it is refused, never counted as right
    with pytest.raises(ValueError, match=r"targets\[0\] is empty"):
        pcfgset.token_accuracy([""], [""])


SOURCES = ["reverse shift append V12 P3 R9 J8 , repeat K19 C16 P13", "copy A1 B2",
           "echo append repeat A1 B2 , prepend C3 , D4"]


def test_a_perfect_model_is_local():
    whole = interpreter(SOURCES)
    unrolled = pcfgset.unrolled_predictions(SOURCES, interpreter)
    assert unrolled == whole
    assert pcfgset.localism_score(whole, unrolled) == 1.0


def test_unrolled_predictions_feed_each_step_the_previous_predictions():
    seen = []

    def model(batch):
        seen.append(list(batch))
        return ["Z1 Z2" for _ in batch]  # ignores its input

    unrolled = pcfgset.unrolled_predictions(SOURCES, model)
    assert unrolled == ["Z1 Z2"] * 3
    assert seen[0] == ["repeat K19 C16 P13", "copy A1 B2", "repeat A1 B2"]
    assert seen[1] == ["append V12 P3 R9 J8 , Z1 Z2", "prepend C3 , D4"]
    assert seen[2] == ["shift Z1 Z2", "append Z1 Z2 , Z1 Z2"]
    assert seen[3] == ["reverse Z1 Z2", "echo Z1 Z2"]
    assert len(seen) == 4


def test_a_model_that_errs_on_long_inputs_is_not_local():
    def model(batch):  # right on single steps, wrong on longer inputs
        return [" ".join(pcfgset.interpret(s)) if pcfgset.num_functions(s) == 1 else "A1"
                for s in batch]

    whole = model(SOURCES)
    unrolled = pcfgset.unrolled_predictions(SOURCES, model)
    assert unrolled == interpreter(SOURCES)
    assert pcfgset.localism_score(whole, unrolled) == pytest.approx(1 / 3)


def test_unrolled_predictions_check_the_batch_size():
    with pytest.raises(ValueError, match="returned 0 predictions for a batch of 3"):
        pcfgset.unrolled_predictions(SOURCES, lambda batch: [])


def test_unrolled_steps_and_the_long_step_reading_of_localism_mistakes_by_hand():
    def model(batch):  # right on single steps, wrong on longer inputs
        return [" ".join(pcfgset.interpret(s)) if pcfgset.num_functions(s) == 1 else "A1"
                for s in batch]

    steps = pcfgset.unrolled_steps(SOURCES, model)
    assert [len(s) for s in steps] == [4, 1, 4]
    assert steps[1] == [("copy A1 B2", "A1 B2")]
    # the second step of the first input: append applied to four symbols and the prediction
    assert steps[0][1] == ("append V12 P3 R9 J8 , K19 C16 P13 K19 C16 P13",
                           "V12 P3 R9 J8 K19 C16 P13 K19 C16 P13")
    assert [s[-1][1] for s in steps] == pcfgset.unrolled_predictions(SOURCES, model)
    # the longest arguments: first input 3, 6, 10, 10 (shift and reverse of ten symbols);
    # third input 2, 1, 4, 6 (echo of the six symbols append returned)
    assert [max(pcfgset.longest_argument(step) for step, _ in s) for s in steps] == [10, 2, 6]
    assert pcfgset.longest_argument("append A1 B2 , C3 D4 E5") == 3
    whole = model(SOURCES)  # the first and third differ from their unrolled predictions
    assert pcfgset.localism_long_steps(whole, steps) == 1.0
    assert pcfgset.localism_long_steps(whole, steps, longer_than=6) == 0.5
    assert pcfgset.localism_long_steps(whole, steps, longer_than=10) == 0.0
    same = [s[-1][1] for s in steps]
    assert math.isnan(pcfgset.localism_long_steps(same, steps))  # no mistake to read
    with pytest.raises(ValueError, match="one list of unrolled steps per whole prediction"):
        pcfgset.localism_long_steps(whole, steps[:2])
    with pytest.raises(ValueError, match=r"steps\[1\] must be a non-empty list"):
        pcfgset.localism_long_steps(whole, [steps[0], [], steps[2]])
    with pytest.raises(ValueError, match="longer_than"):
        pcfgset.localism_long_steps(whole, steps, longer_than=-1)


def test_overgeneralisation_rates_and_peak():
    exceptions = [("prepend reverse R1 J11 , K8 L16 Y18", "R1 J11 J11"),
                  ("reverse echo A1 B2", "A1 B2 B2")]
    originals = [("prepend reverse R1 J11 , K8 L16 Y18", "K8 L16 Y18 J11 R1"),
                 ("reverse echo A1 B2", "B2 B2 A1")]
    assert pcfgset.overgeneralisation_rates(["K8 L16 Y18 J11 R1", "A1 B2 B2"], exceptions,
                                            originals) == (0.5, 0.5)
    assert pcfgset.overgeneralisation_rates(["", "B2 B2 A1"], exceptions, originals) == (0.0, 0.5)
    assert pcfgset.peak([0.1, 0.6, 0.6, 0.2]) == (0.6, 2)
    with pytest.raises(ValueError, match="curve is empty"):
        pcfgset.peak([])


def test_token_accuracy_counts_positions_against_the_longer_sequence():
    assert pcfgset.token_accuracy(["A1 B2 C3"], ["A1 B2 C3"]) == 1.0
    assert pcfgset.token_accuracy([""], ["A1 B2"]) == 0.0
    # 2 of 3 positions, then 1 of 2 (the prediction is one short): 3 of 5
    assert pcfgset.token_accuracy(["A1 B2 C3", "D4"], ["A1 B2 D4", "D4 E5"]) == 0.6
    # a prediction longer than its target is penalised for the extra symbols
    assert pcfgset.token_accuracy(["A1 B2 C3 D4"], ["A1 B2"]) == 0.5
    assert pcfgset.token_accuracy([["A1", "B2"]], ["A1 C3"]) == 0.5
    with pytest.raises(ValueError, match="same length"):
        pcfgset.token_accuracy(["A1"], [])
