import pytest

from tutorlib import hub, pcfgset, scan


def test_scan_splits_carry_the_hubs_field_names_and_the_same_pairs_in_order():
    data = scan.to_hf_dataset("addprim_jump")
    train, test = scan.split("addprim_jump")
    assert list(data) == ["train", "test"]
    assert data["train"].column_names == ["commands", "actions"]
    assert (data.num_rows["train"], data.num_rows["test"]) == (14670, 7706)  # the paper's sizes
    assert list(zip(data["test"]["commands"], data["test"]["actions"])) == test
    assert data["train"][0] == {"commands": train[0][0], "actions": train[0][1]}


@pytest.mark.slow
def test_pcfgset_splits_are_source_and_target_columns_of_the_same_pairs():
    data = pcfgset.to_hf_dataset("productivity")
    train, test = pcfgset.split("productivity")
    assert data["train"].column_names == ["source", "target"]
    assert len(data["train"]) == len(train)
    assert list(zip(data["test"]["source"], data["test"]["target"])) == test


def test_any_pairs_go_into_named_columns_and_bad_input_is_named():
    data = hub.to_hf_dataset({"train": [("a b", "B A")], "dev": []}, fields=("x", "y"))
    assert data["train"][0] == {"x": "a b", "y": "B A"} and len(data["dev"]) == 0
    with pytest.raises(ValueError, match="two different non-empty names"):
        hub.to_hf_dataset({"train": [("a", "b")]}, fields=("x", "x"))
    with pytest.raises(ValueError, match="pair 1: two strings expected|violates type hint.*index 1"):
        hub.to_hf_dataset({"train": [("a", "b"), ("a", None)]})
    with pytest.raises(ValueError, match="at least one split"):
        hub.to_hf_dataset({})
    with pytest.raises(ValueError, match="unknown|split"):
        scan.to_hf_dataset("no_such_split")


def test_without_the_extra_the_error_says_what_to_install(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_datasets(name, *args, **kwargs):
        if name == "datasets":
            raise ImportError("No module named 'datasets'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_datasets)
    with pytest.raises(ImportError, match=r"tutorlib\[hf\]"):
        hub.to_hf_dataset({"train": [("a", "b")]})
