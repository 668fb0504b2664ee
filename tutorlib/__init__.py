"""tutorlib: the companion package of the executable book *Measuring Compositionality*.

One subpackage per part of the book, each split by concern, and the shared pieces beside them:

- methods and datasets: :mod:`tutorlib.scan`, :mod:`tutorlib.tre`, :mod:`tutorlib.dbca`,
  :mod:`tutorlib.pcfgset` and :mod:`tutorlib.orchard`; the foundations chapter's toy world is
  :mod:`tutorlib.compositionality`;
- shared: :mod:`~tutorlib.trees` (derivation trees), :mod:`~tutorlib.seq2seq` (sequence models: one
  file per architecture, training, evaluation, the one training recipe),
  :mod:`~tutorlib.train` (seeding, progress bars, the training loop, devices),
  :mod:`~tutorlib.stats`, :mod:`~tutorlib.checks`, :mod:`~tutorlib.world`,
  :mod:`~tutorlib.cache`, :mod:`~tutorlib.results` (results with provenance and the one
  experiment runner), :mod:`~tutorlib.registry` (the one list of experiments),
  :mod:`~tutorlib.profiles` (ci / tutorial / full settings), :mod:`~tutorlib.plotting` and
  :mod:`~tutorlib.cli`.

Dependencies point one way: studies -> methods -> shared pieces.
"""

__version__ = "0.2.0"
