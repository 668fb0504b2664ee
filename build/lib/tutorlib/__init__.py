"""tutorlib: the companion package of the executable book *Measuring Compositionality*.

One subpackage per part of the book, each split by concern, and the shared pieces beside them:

- methods and datasets: :mod:`tutorlib.scan`, :mod:`tutorlib.tre` (and, as they are added,
  ``dbca``, ``pcfgset``, ``orchard``); the foundations chapter's toy world is
  :mod:`tutorlib.compositionality`;
- shared: :mod:`~tutorlib.trees` (derivation trees), :mod:`~tutorlib.seq2seq` (sequence models),
  :mod:`~tutorlib.train` (seeding, progress bars, the training loop, devices),
  :mod:`~tutorlib.stats`, :mod:`~tutorlib.checks`, :mod:`~tutorlib.world`,
  :mod:`~tutorlib.cache`, :mod:`~tutorlib.results` (results with provenance and the one
  experiment runner), :mod:`~tutorlib.profiles` (ci / tutorial / paper settings),
  :mod:`~tutorlib.plotting` and :mod:`~tutorlib.cli`.

Dependencies point one way: studies -> methods -> shared pieces.
"""

import importlib

__version__ = "0.1.0"

# Modules that moved when the package took one subpackage per part: the old names still import
# (``from tutorlib import similarity``) and point at the new modules.
_MOVED = {
    "scan_experiments": "tutorlib.scan.experiments",
    "similarity": "tutorlib.tre.measures",
    "languages": "tutorlib.tre.languages",
    "refgame": "tutorlib.tre.refgame",
    "tre_experiments": "tutorlib.tre.generalisation",
    "wordvec": "tutorlib.tre.wordvec",
    "toy": "tutorlib.compositionality",
}


def __getattr__(name: str):
    if name in _MOVED:
        return importlib.import_module(_MOVED[name])
    raise AttributeError(f"module 'tutorlib' has no attribute {name!r}")
