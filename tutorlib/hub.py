"""Benchmark pairs as a Hugging Face ``datasets.DatasetDict``, for training loops built on
Hugging Face's tools (the ``hf`` extra: ``pip install 'tutorlib[hf]'``).

Each benchmark's wrapper names the two fields as its hub dataset does: SCAN's (``scan`` on the
hub, one configuration per split) has ``commands`` and ``actions``; PCFG SET has no dataset on
the hub that we know of, so its fields are named after its released files' ``.src`` and ``.tgt``
columns: ``source`` and ``target``. See :func:`tutorlib.scan.to_hf_dataset` and
:func:`tutorlib.pcfgset.to_hf_dataset`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

SCAN_FIELDS = ("commands", "actions")
PCFGSET_FIELDS = ("source", "target")


def to_hf_dataset(splits: Mapping[str, Sequence[tuple[str, str]]],
                  fields: tuple[str, str] = ("source", "target")):
    """(input, output) string pairs as a ``datasets.DatasetDict``: a split per key of ``splits``,
    a row per pair, two string columns named by ``fields``.

    Parameters
    ----------
    splits : mapping of str to sequence of (str, str)
        Split name (``train``, ``test``, ...) to its pairs, in order.
    fields : tuple of (str, str)
        The names of the input and the output column.

    Returns
    -------
    datasets.DatasetDict
        The splits, in the order given.

    Examples
    --------
    >>> data = to_hf_dataset({"train": [("jump", "I_JUMP")]}, fields=("commands", "actions"))
    >>> data["train"][0]
    {'commands': 'jump', 'actions': 'I_JUMP'}
    """
    if len(fields) != 2 or len(set(fields)) != 2 or not all(
            isinstance(f, str) and f.strip() for f in fields):
        raise ValueError(f"fields must be two different non-empty names, got {fields!r}")
    if not splits:
        raise ValueError("to_hf_dataset needs at least one split")
    for name, pairs in splits.items():
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"split names must be non-empty strings, got {name!r}")
        for position, pair in enumerate(pairs):
            if (not isinstance(pair, (tuple, list)) or len(pair) != 2
                    or not all(isinstance(side, str) for side in pair)):
                raise ValueError(f"split {name!r}, pair {position}: two strings expected, "
                                 f"got {pair!r}")
    try:
        import datasets
    except ImportError:
        raise ImportError("to_hf_dataset needs Hugging Face's datasets package: "
                          "pip install 'tutorlib[hf]' (or pip install datasets)") from None
    features = datasets.Features({field: datasets.Value("string") for field in fields})
    return datasets.DatasetDict({
        name: datasets.Dataset.from_dict(
            {fields[0]: [source for source, _ in pairs], fields[1]: [target for _, target in pairs]},
            features=features)
        for name, pairs in splits.items()})


__all__ = ["PCFGSET_FIELDS", "SCAN_FIELDS", "to_hf_dataset"]

from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals(), __all__)
