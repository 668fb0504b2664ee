"""The run profiles (three, and a fourth, ``gpu``, for PCFG SET and ORCHARD), and the one place
to ask for an experiment's settings.

Every chapter notebook has a ``parameters`` cell with ``PROFILE = "tutorial"``; papermill
overrides it. A chapter asks :func:`settings` for its settings instead of hard-coding sizes:

- ``ci``: the smallest run that still exercises every code path (seconds to about a minute a
  chapter), used by ``make test``;
- ``tutorial``: what the published book shows; a reader on a 2-core laptop waits minutes;
- ``full``: the largest run a CPU makes here: the paper's scale where a CPU can do it, a
  stated reduction of its networks and training where it cannot (PCFG SET, ORCHARD), run from the
  command line (``python -m tutorlib run ...``) into ``results/``, never inside a book build.
  The book says "published" for the papers' own numbers and "full profile" for our large runs.

Each experiment declares a frozen settings dataclass (a :class:`Settings`) with its three
profiles' values next to its code, as ``SETTINGS = {"ci": ..., "tutorial": ..., "full": ...}``
in the module the registry (:mod:`tutorlib.registry`) names. Settings read like a mapping too
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
from dataclasses import asdict, fields
from typing import Any

from tutorlib import registry

PROFILES: tuple[str, ...] = ("ci", "tutorial", "full")
# Profiles only some experiments have. ``gpu``: the full profile's question at a scale that
# converges on one lent GPU in minutes (``python -m tutorlib run NAME --profile gpu --device
# cuda``); its committed results sit beside the full profile's, never needed by a book build.
EXTRA_PROFILES: tuple[str, ...] = ("gpu",)

# experiment name -> the module that holds its SETTINGS, and the experiments that
# `python -m tutorlib run NAME` runs: both read from the one registry (tutorlib.registry)
SOURCES: dict[str, str] = {name: entry.module for name, entry in registry.EXPERIMENTS.items()}
RUNNABLE: tuple[str, ...] = tuple(registry.names(runnable=True))


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




# The fields of a recipe of a fixed number of presentations that every profile of them sets
# (:meth:`tutorlib.seq2seq.Recipe.fixed`'s first four).
PRESENTATION_FIELDS = ("presentations", "batch_size", "learning_rate", "final_lr_fraction")


def presentations_recipe(presentations: int, batch_size: int, learning_rate: float,
                         final_lr_fraction: float) -> dict:
    """A profile's recipe of a fixed number of presentations, as the dict settings hold.

    >>> presentations_recipe(640, 32, 3e-3, 1.0)["batch_size"]
    32
    """
    return dict(zip(PRESENTATION_FIELDS,
                    (presentations, batch_size, learning_rate, final_lr_fraction), strict=True))


def check_fields(values: dict, allowed, what: str, *, exact: bool = False) -> None:
    """``ValueError`` when ``values`` (training fields) has a key outside ``allowed`` or, with
    ``exact``, lacks one of them; ``what`` names the values in the message.

    >>> check_fields({"batch_size": 8}, PRESENTATION_FIELDS, "recipe")
    >>> check_fields({"batch": 8}, ("batch_size",), "recipe")
    Traceback (most recent call last):
    ...
    ValueError: recipe may have only batch_size; it has batch too
    """
    if not isinstance(values, dict):
        raise ValueError(f"{what} must be a dict of training fields, got {values!r}")
    if exact and set(values) != set(allowed):
        raise ValueError(f"{what} has exactly the keys {', '.join(allowed)}, got {values!r}")
    unknown = sorted(set(values) - set(allowed))
    if unknown:
        raise ValueError(f"{what} may have only {', '.join(allowed)}; it has "
                         f"{', '.join(unknown)} too")


def network_recipe(settings, network: str) -> dict:
    """The training of ``network`` under a profile's settings: the ``recipe`` every network
    shares, with the network's own fields of ``training`` over it (the settings hold each
    training field once, nested, never copied flat).

    Parameters
    ----------
    settings : Settings
        An experiment's settings with ``recipe`` (and optionally ``training``, per network).
    network : str
        A network the profile trains.

    Returns
    -------
    dict
        The fields of a :class:`tutorlib.seq2seq.Recipe` (``Recipe.fixed``'s keywords when it
        has ``presentations``).

    Examples
    --------
    >>> network_recipe({"recipe": {"batch_size": 32}, "training": {"t": {"batch_size": 8}}}, "t")
    {'batch_size': 8}
    """
    if not hasattr(settings, "get") or not isinstance(settings.get("recipe"), dict):
        raise ValueError(f"network_recipe needs an experiment's settings with a 'recipe' dict, got "
                         f"{type(settings).__name__}")
    return {**settings["recipe"], **(settings.get("training") or {}).get(network, {})}


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
    """``profile`` if it is one of :data:`PROFILES` or :data:`EXTRA_PROFILES`, else
    ``ValueError`` naming them.

    >>> check_profile("full")
    'full'
    """
    if not isinstance(profile, str) or profile not in (*PROFILES, *EXTRA_PROFILES):
        raise ValueError(f"unknown profile {profile!r}: expected one of "
                         f"{', '.join((*PROFILES, *EXTRA_PROFILES))}")
    return profile


def has_profile(experiment: str, profile: str) -> bool:
    """Whether ``experiment`` has settings at ``profile`` (every one has ci, tutorial and full;
    a ``gpu`` profile exists only where a GPU sweep was prepared)."""
    profile = check_profile(profile)
    check_experiment(experiment)
    return profile in _table(experiment)


def _table(experiment: str) -> dict:
    return registry.module(experiment).SETTINGS


def experiments() -> list[str]:
    """Names of the experiments that have profile settings (every registered one)."""
    return registry.names()


def check_experiment(experiment: str) -> str:
    """Return ``experiment`` if it has settings, else raise ``ValueError`` listing the names."""
    registry.entry(experiment)
    return experiment


def settings(experiment: str, profile: str) -> Settings:
    """Settings of ``experiment`` at ``profile`` (a fresh copy: changing it changes nothing here).

    Parameters
    ----------
    experiment : str
        An experiment name from :func:`experiments`, e.g. ``"compositionality"``.
    profile : str
        ``"ci"``, ``"tutorial"`` or ``"full"``, or ``"gpu"`` where the experiment has one
        (:func:`has_profile`).

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


from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals())
