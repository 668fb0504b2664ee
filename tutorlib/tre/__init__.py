"""Tree Reconstruction Error (Andreas 2019) and the measures it is compared with.

The method, imported with the package:

- :mod:`tutorlib.tre.solver`: :func:`tre`, the batched solver (compositions, distances);
- :mod:`tutorlib.tre.measures`: topographic similarity, positional and bag-of-symbols
  disentanglement, context independence;
- :mod:`tutorlib.tre.treedist`: the paper's tree edit distance between derivations (App. B,
  Definition 2), imported on its own.

The languages and the paper's four studies, one module each (imported on their own):

- :mod:`tutorlib.tre.languages`: small colour-shape languages with a dial of compositionality;
- Sec. 4, learning dynamics: :mod:`~tutorlib.tre.digits` (the drawn coloured digits),
  :mod:`~tutorlib.tre.concepts` (concepts and the few-shot task), :mod:`~tutorlib.tre.learner`
  (the model and its training), :mod:`~tutorlib.tre.dynamics` (the ``tre_dynamics`` experiment);
- Sec. 5, human judgments: :mod:`~tutorlib.tre.corpora` (the generated corpus),
  :mod:`~tutorlib.tre.wordvec` (CBOW), :mod:`~tutorlib.tre.judgments` (compounds and TRE);
- Sec. 7, generalisation: :mod:`~tutorlib.tre.refgame` (the reference game) and
  :mod:`~tutorlib.tre.generalisation` (the ``tre_generalisation`` experiment).

Examples
--------
>>> from tutorlib import tre
>>> from tutorlib.tre import languages
>>> lang = languages.compositional(5, 5)
>>> tre.tre(lang.one_hot(), lang.derivations, "linear", "l1", steps=300).value < 0.05
True
"""

from tutorlib.stats import entropy, levenshtein, mutual_information, spearman
from tutorlib.tre.measures import (
    bosdis,
    context_independence,
    posdis,
    topographic_similarity,
)
from tutorlib.tre.solver import (
    COMPOSITIONS,
    DISTANCES,
    Additive,
    Linear,
    TREResult,
    cosine_distance,
    distance_function,
    l1_distance,
    l2_distance,
    tre,
)

__all__ = [
    "COMPOSITIONS", "DISTANCES", "Additive", "Linear", "TREResult", "bosdis",
    "context_independence", "cosine_distance", "distance_function", "entropy", "l1_distance",
    "l2_distance", "levenshtein", "mutual_information", "posdis", "spearman",
    "topographic_similarity", "tre",
]

from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals(), __all__)
