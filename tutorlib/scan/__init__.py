"""SCAN (Lake & Baroni 2018): the grammar, every standard split, the official files, experiments.

- :mod:`tutorlib.scan.grammar`: the grammar of the paper's appendix, parsing, interpretation
  and the derivation of every command (the grammar is in its docstring);
- :mod:`tutorlib.scan.splits`: every split of the official release and of Loula et al. (2018),
  behind one registry, :func:`split`;
- :mod:`tutorlib.scan.files`: the official ``IN: ... OUT: ...`` format and the release's layout
  (``python -m tutorlib.scan export DIR``);
- :mod:`tutorlib.scan.rules`: every command's rule-application tree, on which DBCA (Keysers et
  al. 2020) builds its MCD splits of SCAN (:mod:`tutorlib.dbca.scan_splits`,
  ``split("mcd", seed=k)``);
- :mod:`tutorlib.scan.experiments`: Lake & Baroni's experiments 1-3 (architectures, runs, the
  paper's numbers); imported on its own, since it needs torch.

Examples
--------
>>> from tutorlib import scan
>>> scan.interpret("jump around left twice")[:3]
['I_TURN_LEFT', 'I_JUMP', 'I_TURN_LEFT']
>>> [len(part) for part in scan.split("addprim_jump")]
[14670, 7706]
"""

from tutorlib.scan.files import (
    export,
    export_layout,
    format_line,
    length_counts,
    main,
    parse_line,
    read_pairs,
    to_hf_dataset,
)
from tutorlib.scan.grammar import (
    ACTION_TOKENS,
    ACTIONS,
    CONJUNCTIONS,
    DIRECTIONS,
    MANNERS,
    NUM_COMMANDS,
    REPEATS,
    VOCABULARY,
    Pair,
    Tree,
    all_pairs,
    all_s,
    command_of,
    derivations,
    head,
    interpret,
    parse,
    parts,
    verb_phrase,
)
from tutorlib.scan.rules import rule_tree
from tutorlib.scan.splits import (
    COMPLEX_JUMP_COPIES,
    COMPLEX_JUMP_NUMS,
    FILLERS,
    LENGTH_CUTOFF,
    PRIMITIVE_COMMAND,
    SIZE_PERCENTS,
    TEMPLATES,
    addprim_complex_jump_split,
    addprim_split,
    filler_split,
    length_split,
    simple_split,
    size_split,
    split,
    split_names,
    template_split,
)

__all__ = [
    "ACTIONS", "ACTION_TOKENS", "COMPLEX_JUMP_COPIES", "COMPLEX_JUMP_NUMS", "CONJUNCTIONS",
    "DIRECTIONS", "FILLERS", "LENGTH_CUTOFF", "MANNERS", "NUM_COMMANDS", "PRIMITIVE_COMMAND",
    "REPEATS", "SIZE_PERCENTS", "TEMPLATES", "VOCABULARY", "Pair", "Tree",
    "addprim_complex_jump_split", "addprim_split", "all_pairs", "all_s", "command_of",
    "derivations", "export", "export_layout", "filler_split", "format_line", "head", "interpret",
    "length_counts", "length_split", "main",
    "rule_tree", "parse", "parse_line", "parts", "read_pairs",
    "simple_split", "size_split", "split", "split_names", "template_split", "to_hf_dataset",
    "verb_phrase",
]

from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals(), __all__)
