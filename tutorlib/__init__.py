"""tutorlib: the companion package of the executable book *Measuring Compositionality*.

One small module per method (``tre``, ``scan``, ``pcfgset``, ``orchard``, ``dbca``) and the
shared parts beside them: ``trees`` (derivation trees), ``profiles`` (ci / tutorial / paper
settings), ``cache`` (on-disk cache of expensive results), ``results`` (JSON results with
provenance), ``plotting`` (the book's figure style) and ``train`` (seeding, progress bars,
early stopping, checkpoints).
"""

__version__ = "0.1.0"
