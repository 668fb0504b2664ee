"""The one registry of experiments: name -> the module that holds it.

Everything that lists experiments derives from :data:`EXPERIMENTS`: the profiles
(:func:`tutorlib.profiles.settings`), the command line (``python -m tutorlib run NAME``), the
runner (:func:`tutorlib.results.experiment`) and the package's contract tests. Adding an
experiment is one entry here plus its module.

Each registered module has the same contract:

- ``SETTINGS = {"ci": ..., "tutorial": ..., "full": ...}`` (optionally ``"gpu"``), frozen
  :class:`tutorlib.profiles.Settings` dataclasses, one per profile;
- when ``runnable``: ``EXPERIMENT``, a :class:`tutorlib.results.Experiment` named as here,
  whose ``runs(settings)`` lists ``(run settings, seed)`` pairs and whose
  ``run(run_settings, seed, device)`` returns the JSON-friendly record (cached on disk; a
  device it cannot have fails before any work).

The names are one name across the CLI, :mod:`tutorlib.profiles` and ``results/<name>/``.
Modules are named as strings and imported on demand, so importing the registry imports no
experiment.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class Entry:
    """One registered experiment.

    Attributes
    ----------
    module : str
        The module holding ``SETTINGS`` (and ``EXPERIMENT`` when ``runnable``).
    description : str
        One line, for ``python -m tutorlib --help``.
    runnable : bool
        Whether ``python -m tutorlib run NAME`` runs it (a chapter that trains nothing of its
        own has settings only).
    """

    module: str
    description: str
    runnable: bool = True

    def __post_init__(self) -> None:
        for name in ("module", "description"):
            if not getattr(self, name).strip():
                raise ValueError(f"Entry: {name} must be a non-empty string")


EXPERIMENTS: dict[str, Entry] = {
    "compositionality": Entry("tutorlib.compositionality",
                              "colour-shape toy world: held-out accuracy against irregularity"),
    "scan": Entry("tutorlib.scan.experiments", "Lake & Baroni (2018) experiments 1-3 on SCAN"),
    "scan_translation": Entry("tutorlib.scan.translation",
                              "Lake & Baroni (2018) experiment 4: a new word in generated "
                              "English-French"),
    "tre_intro": Entry("tutorlib.tre.languages",
                       "TRE from scratch on colour-shape languages (settings only)",
                       runnable=False),
    "tre_dynamics": Entry("tutorlib.tre.dynamics",
                          "Andreas (2019) Sec. 4: TRE and information over a concept learner's "
                          "training"),
    "tre_judgments": Entry("tutorlib.tre.judgments",
                           "Andreas (2019) Sec. 5: TRE of word vectors against compositionality "
                           "planted in generated corpora (a corpus per seed)"),
    "tre_similarity": Entry("tutorlib.tre.measures",
                            "Andreas (2019) Sec. 6: compositionality and similarity (settings "
                            "only)", runnable=False),
    "tre_generalisation": Entry("tutorlib.tre.generalisation",
                                "Andreas (2019) Sec. 7: reference games, TRE against "
                                "generalisation"),
    "pcfgset": Entry("tutorlib.pcfgset.experiments",
                     "Hupkes et al. (2020) on PCFG SET: three architectures, the task and five "
                     "tests"),
    "orchard": Entry("tutorlib.orchard.experiments",
                     "Pung & Chan (2021): LSTM and Transformer, depths 3-6 to 12 (--only: "
                     "variants)"),
    "dbca": Entry("tutorlib.dbca.experiments",
                  "Keysers et al. (2020): accuracy against compound divergence on SCAN"),
    "card": Entry("tutorlib.card.experiments",
                  "the report card: the book's networks on every benchmark, each score with "
                  "its fit (--only: networks)"),
}


def names(*, runnable: bool | None = None) -> list[str]:
    """The registered names, sorted (``runnable=True``: only those the CLI runs)."""
    return sorted(name for name, entry in EXPERIMENTS.items()
                  if runnable is None or entry.runnable == runnable)


def entry(name: str) -> Entry:
    """The entry called ``name``; ``ValueError`` listing the names for any other."""
    if not isinstance(name, str) or name not in EXPERIMENTS:
        raise ValueError(f"unknown experiment {name!r}: expected one of {', '.join(names())}")
    return EXPERIMENTS[name]


def module(name: str) -> ModuleType:
    """The module of experiment ``name`` (imported now)."""
    return importlib.import_module(entry(name).module)


from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals())
