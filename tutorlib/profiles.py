"""The three run profiles, and the one place to ask for an experiment's settings.

Every chapter notebook has a ``parameters`` cell with ``PROFILE = "tutorial"``; papermill
overrides it. A chapter asks :func:`settings` for its settings instead of hard-coding sizes:

- ``ci``: the smallest run that still exercises every code path (seconds to about a minute a
  chapter), used by ``make test``;
- ``tutorial``: what the published book shows; a reader on a 2-core laptop waits minutes;
- ``full``: the paper's scale (seeds, sizes, steps) or the closest a CPU can do, run from the
  command line (``python -m tutorlib run ...``) into ``results/``, never inside a book build.
  ``paper``, its earlier name, is accepted as an alias (:data:`ALIASES`); the book says
  "published" for the papers' own numbers and "full profile" for our large runs.

Each experiment declares a frozen settings dataclass (a :class:`Settings`) with its three
profiles' values next to its code, as ``SETTINGS = {"ci": ..., "tutorial": ..., "full": ...}``
in the module :data:`SOURCES` names; the two chapters that run no experiment of their own
(``tre_intro``, ``tre_similarity``) keep theirs here. Settings read like a mapping too
(``settings["seeds"]``), and ``to_dict()`` gives plain JSON.

Examples
--------
>>> from tutorlib import profiles
>>> profiles.settings("compositionality", "ci")["num_splits"]
3
>>> profiles.settings("compositionality", "ci").num_splits
3
"""

from __future__ import annotations

import copy
import importlib
from dataclasses import asdict, dataclass, fields
from typing import Any

PROFILES: tuple[str, ...] = ("ci", "tutorial", "full")
# Profiles only some experiments have. ``gpu``: the full profile's question at a scale that
# converges on one lent GPU in minutes (``python -m tutorlib run NAME --profile gpu --device
# cuda``); its committed results sit beside the full profile's, never needed by a book build.
EXTRA_PROFILES: tuple[str, ...] = ("gpu",)

# other names a profile answers to: ``paper`` is the full profile's earlier name
ALIASES: dict[str, str] = {"paper": "full"}

# experiment name -> the module that holds its SETTINGS (one name across the CLI, this table,
# the module and results/<name>/)
SOURCES: dict[str, str] = {
    "compositionality": "tutorlib.compositionality",
    "dbca": "tutorlib.dbca.experiments",
    "pcfgset": "tutorlib.pcfgset.experiments",
    "scan": "tutorlib.scan.experiments",
    "scan_translation": "tutorlib.scan.translation",
    "tre_intro": "tutorlib.profiles",
    "tre_dynamics": "tutorlib.tre.dynamics",
    "tre_judgments": "tutorlib.tre.judgments",
    "tre_similarity": "tutorlib.profiles",
    "tre_generalisation": "tutorlib.tre.generalisation",
    "orchard": "tutorlib.orchard.experiments",
}

# the experiments that `python -m tutorlib run NAME` runs (each module defines EXPERIMENT)
RUNNABLE: tuple[str, ...] = ("compositionality", "dbca", "orchard", "pcfgset", "scan",
                             "scan_translation", "tre_dynamics", "tre_generalisation")


class Settings:
    """Base of the frozen settings dataclasses: attribute access, and read-only mapping access."""

    def keys(self) -> list[str]:
        return [f.name for f in fields(self)]  # type: ignore[arg-type]

    def __getitem__(self, key: str) -> Any:
        if key not in self.keys():
            raise KeyError(f"{type(self).__name__} has no setting {key!r}; it has "
                           f"{', '.join(self.keys())}")
        return getattr(self, key)

    def __iter__(self):
        return iter(self.keys())

    def __contains__(self, key: object) -> bool:
        return key in self.keys()

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key) if key in self.keys() else default

    def items(self) -> list[tuple[str, Any]]:
        return [(key, getattr(self, key)) for key in self.keys()]

    def to_dict(self) -> dict[str, Any]:
        """The settings as plain (JSON-friendly) data."""
        return asdict(self)  # type: ignore[call-overload]


# --------------------------------------------------------------------------------------------
# The two chapters without an experiment module of their own


@dataclass(frozen=True)
class TREIntroSettings(Settings):
    """Chapter "TRE from scratch": small colour-shape languages (:mod:`tutorlib.tre.languages`)."""

    steps: int
    seeds: list[int]
    exception_counts: list[int]
    noise_levels: list[float]
    free_composition_steps: int


@dataclass(frozen=True)
class TRESimilaritySettings(Settings):
    """Chapter "Compositionality and similarity" (Andreas 2019, Sec. 6) and the metric zoo."""

    steps: int
    seeds: list[int]
    proposition_noise: list[float]


_LOCAL: dict[str, dict[str, Settings]] = {
    "tre_intro": {
        "ci": TREIntroSettings(steps=150, seeds=[0], exception_counts=[0, 5, 25],
                               noise_levels=[0.0, 0.3], free_composition_steps=200),
        "tutorial": TREIntroSettings(steps=800, seeds=[0, 1, 2],
                                     exception_counts=[0, 1, 2, 5, 10, 15, 25],
                                     noise_levels=[0.0, 0.05, 0.1, 0.2, 0.3, 0.5],
                                     free_composition_steps=2000),
        "full": TREIntroSettings(steps=1500, seeds=list(range(10)),
                                  exception_counts=[0, 1, 2, 5, 10, 15, 20, 25],
                                  noise_levels=[0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5],
                                  free_composition_steps=4000),
    },
    "tre_similarity": {
        "ci": TRESimilaritySettings(steps=150, seeds=[0], proposition_noise=[0.0, 0.1]),
        "tutorial": TRESimilaritySettings(steps=800, seeds=[0, 1, 2],
                                          proposition_noise=[0.0, 0.02, 0.05, 0.1]),
        "full": TRESimilaritySettings(steps=1500, seeds=list(range(10)),
                                       proposition_noise=[0.0, 0.01, 0.02, 0.05, 0.1, 0.2]),
    },
}
SETTINGS = _LOCAL


def check_per_network(what: str, settings: dict, networks, known, noun: str = "network") -> None:
    """Check per-network settings (``{network: {key: value}}``): every network is one the
    profile trains, every key one of ``known``; ``what`` names the settings in the error and
    ``noun`` what they are set for (ORCHARD calls its networks models)."""
    for network, values in settings.items():
        if network not in networks:
            raise ValueError(f"{what} for unknown {noun} {network!r}, which this profile does "
                             f"not train; it trains {', '.join(networks)}")
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise ValueError(f"unknown {what} setting(s) {', '.join(unknown)} for {network}; "
                             f"known: {', '.join(known)}")


def check_profile(profile: str) -> str:
    """The profile ``profile`` names: itself if it is one of :data:`PROFILES`, the profile an
    alias stands for (``"paper"`` gives ``"full"``), else ``ValueError``.

    >>> check_profile("paper")
    'full'
    """
    profile = ALIASES.get(profile, profile) if isinstance(profile, str) else profile
    if profile not in (*PROFILES, *EXTRA_PROFILES):
        raise ValueError(f"unknown profile {profile!r}: expected one of "
                         f"{', '.join((*PROFILES, *EXTRA_PROFILES))} "
                         f"(or {', '.join(ALIASES)}, another name of {ALIASES['paper']})")
    return profile


def has_profile(experiment: str, profile: str) -> bool:
    """Whether ``experiment`` has settings at ``profile`` (every one has ci, tutorial and full;
    a ``gpu`` profile exists only where a GPU sweep was prepared)."""
    profile = check_profile(profile)
    check_experiment(experiment)
    return profile in _table(experiment)


def _table(experiment: str) -> dict:
    table = importlib.import_module(SOURCES[experiment]).SETTINGS
    return table[experiment] if SOURCES[experiment] == __name__ else table


def experiments() -> list[str]:
    """Names of the experiments that have profile settings."""
    return sorted(SOURCES)


def check_experiment(experiment: str) -> str:
    """Return ``experiment`` if it has settings, else raise ``ValueError`` listing the names."""
    if experiment not in SOURCES:
        raise ValueError(f"unknown experiment {experiment!r}: expected one of "
                         f"{', '.join(experiments())}")
    return experiment


def settings(experiment: str, profile: str) -> Settings:
    """Settings of ``experiment`` at ``profile`` (a fresh copy: changing it changes nothing here).

    Parameters
    ----------
    experiment : str
        An experiment name from :func:`experiments`, e.g. ``"compositionality"``.
    profile : str
        ``"ci"``, ``"tutorial"`` or ``"full"`` (``"paper"`` is an alias of ``"full"``), or
        ``"gpu"`` where the experiment has one (:func:`has_profile`).

    Returns
    -------
    Settings
        The experiment's frozen settings dataclass at that profile; ``settings["name"]`` and
        ``settings.name`` both read a value.

    Raises
    ------
    ValueError
        If the experiment or the profile is unknown.
    """
    profile = check_profile(profile)
    check_experiment(experiment)
    table = _table(experiment)
    if profile not in table:
        having = [name for name in experiments() if profile in _table(name)]
        raise ValueError(f"experiment {experiment} has no {profile!r} profile; its profiles: "
                         f"{', '.join(table)} (a {profile!r} profile exists for: "
                         f"{', '.join(having) or 'none'})")
    return copy.deepcopy(table[profile])
