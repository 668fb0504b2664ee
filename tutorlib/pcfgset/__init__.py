"""PCFG SET and the five compositionality tests (Hupkes et al. 2020, *Compositionality
decomposed: how do neural networks generalise?*, JAIR 67).

- :mod:`~tutorlib.pcfgset.language`: the ten functions, the parser, :func:`interpret`,
  :func:`unroll` (the paper's section on PCFG SET);
- :mod:`~tutorlib.pcfgset.corpus`: the seeded PCFG sampler, the shaping step, the base corpus
  and its statistics (the same section, on data construction);
- :mod:`~tutorlib.pcfgset.splits`: :func:`split` and the five tests (the sections on each test);
- :mod:`~tutorlib.pcfgset.scores`: consistency, localism and overgeneralisation scores;
- :mod:`~tutorlib.pcfgset.files`: :func:`read_pairs` and :func:`export` in the published layout
  (``python -m tutorlib.pcfgset export DIR``);
- :mod:`~tutorlib.pcfgset.released`: the paper's own three architectures' outputs, as their
  authors released them, scored by our scorers (``pcfgset.released.score(...)``; beside
  the paper's Table 1 in ``pcfgset.report.released_scores()``).

Examples
--------
>>> from tutorlib import pcfgset
>>> pcfgset.interpret("swap_first_last shift reverse copy M2 H16 K3 Z20")
['Z20', 'H16', 'M2', 'K3']
>>> pcfgset.unroll("echo append A1 B2 , repeat C3 D4")
['repeat C3 D4', 'append A1 B2 , *1', 'echo *2']
"""

from tutorlib.pcfgset import released  # noqa: F401  (the module: pcfgset.released.examples(...))
from tutorlib.pcfgset.corpus import (
    NUM_DEV,
    NUM_PAIRS,
    NUM_TEST,
    NUM_TRAIN,
    PUBLISHED_STATISTICS,
    REDUCTIONS,
    TARGET_DEPTH,
    Corpus,
    CorpusStatistics,
    Reduction,
    SamplerSettings,
    base_corpus,
    generate,
    generate_reduced,
    productivity_inputs,
    sample_inputs,
    statistics,
)
from tutorlib.pcfgset.files import (
    export,
    read_pairs,
    read_unrolled,
    to_hf_dataset,
    unrolled_lines,
    write_pairs,
)
from tutorlib.pcfgset.language import (
    ALPHABET,
    BINARY,
    EXCEPTIONS,
    FUNCTIONS,
    TWINS,
    UNARY,
    alphabet,
    apply,
    check_tree,
    depth,
    derivation,
    evaluate,
    format_input,
    functions,
    interpret,
    num_functions,
    parse,
    string_arguments,
    substitute,
    unroll,
)
from tutorlib.pcfgset.scores import (
    accuracy,
    consistency,
    localism_long_steps,
    localism_score,
    longest_argument,
    overgeneralisation_rates,
    peak,
    token_accuracy,
    unrolled_predictions,
    unrolled_steps,
)
from tutorlib.pcfgset.splits import (
    HELD_OUT_PAIRS,
    OVERGENERALISATION_RATIOS,
    PRODUCTIVITY_MAX_FUNCTIONS,
    OvergeneralisationSplit,
    SubstitutivitySplit,
    overgeneralisation_split,
    split,
    split_names,
    substitutivity_split,
    twin_of,
)

__all__ = [
    "ALPHABET", "BINARY", "EXCEPTIONS", "FUNCTIONS", "HELD_OUT_PAIRS", "NUM_DEV", "NUM_PAIRS",
    "NUM_TEST", "NUM_TRAIN", "OVERGENERALISATION_RATIOS", "PRODUCTIVITY_MAX_FUNCTIONS",
    "PUBLISHED_STATISTICS", "REDUCTIONS", "Reduction", "TARGET_DEPTH", "TWINS", "UNARY", "Corpus",
    "CorpusStatistics", "OvergeneralisationSplit", "SamplerSettings", "SubstitutivitySplit",
    "accuracy", "alphabet", "apply", "base_corpus", "check_tree", "consistency", "depth",
    "derivation", "evaluate", "export", "format_input", "functions", "generate",
    "generate_reduced", "interpret", "localism_long_steps", "localism_score", "longest_argument",
    "num_functions",
    "overgeneralisation_rates", "overgeneralisation_split", "parse", "peak",
    "productivity_inputs", "read_pairs", "read_unrolled", "sample_inputs", "split", "split_names",
    "statistics", "string_arguments", "substitute", "to_hf_dataset", "substitutivity_split",
    "token_accuracy", "twin_of", "unroll", "unrolled_lines", "unrolled_predictions",
    "unrolled_steps", "write_pairs",
]

from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals(), __all__)
