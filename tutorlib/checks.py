"""Argument checking at the public boundary, in one place (after scikit-learn's ``check_scalar``).

Every public function and configuration of tutorlib checks its arguments with
:func:`check_scalar`, so a bad value gets the same kind of message everywhere: the argument's
name, what was expected and what was given.

Examples
--------
>>> check_scalar(3, "num_layers", int, min_val=1)
3
>>> check_scalar(0, "num_layers", int, min_val=1)
Traceback (most recent call last):
...
ValueError: num_layers must be a positive integer, got 0
>>> check_scalar(0.5, "dropout", float, min_val=0.0, max_val=1.0, include_boundaries="left")
0.5
>>> check_scalar(13, "num_colours", int, min_val=2, max_val=12)
Traceback (most recent call last):
...
ValueError: num_colours must be an integer from 2 to 12, got 13
"""

from __future__ import annotations

import math
import numbers
from typing import Any

_BOUNDARIES = ("both", "left", "right", "neither")


def check_scalar(value: Any, name: str, target_type: type | tuple[type, ...], *,
                 min_val: float | None = None, max_val: float | None = None,
                 include_boundaries: str = "both") -> Any:
    """Check that ``value`` is a scalar of ``target_type`` within the given bounds.

    Parameters
    ----------
    value : object
        The value to check.
    name : str
        The argument's name, for the message.
    target_type : type or tuple of types
        ``int`` accepts Python and NumPy integers but not booleans; ``float`` accepts any finite
        real number (integers included).
    min_val, max_val : float, optional
        Bounds; ``None`` leaves that side open.
    include_boundaries : {"both", "left", "right", "neither"}
        Which bounds are allowed values.

    Returns
    -------
    object
        ``value`` unchanged (an ``int`` for integers, so NumPy integers become plain ones).

    Raises
    ------
    ValueError
        Naming the argument, what was expected and what was given.
    """
    if include_boundaries not in _BOUNDARIES:
        raise ValueError(f"include_boundaries must be one of {', '.join(_BOUNDARIES)}, "
                         f"got {include_boundaries!r}")
    types = target_type if isinstance(target_type, tuple) else (target_type,)
    wants_int = types == (int,)
    if wants_int:
        ok = isinstance(value, numbers.Integral) and not isinstance(value, bool)
        kind = "an integer"
    elif float in types:
        ok = (isinstance(value, numbers.Real) and not isinstance(value, bool)
              and math.isfinite(float(value)))
        kind = "a finite number"
    else:
        ok = isinstance(value, types)
        kind = "of type " + " or ".join(t.__name__ for t in types)
    low_ok = min_val is None or (value >= min_val if include_boundaries in ("both", "left")
                                 else value > min_val) if ok else False
    high_ok = max_val is None or (value <= max_val if include_boundaries in ("both", "right")
                                  else value < max_val) if ok else False
    if not (ok and low_ok and high_ok):
        expected = _expected(kind, wants_int, min_val, max_val, include_boundaries)
        raise ValueError(f"{name} must be {expected}, got {value!r}")
    return int(value) if wants_int else value


def _expected(kind: str, wants_int: bool, min_val, max_val, include_boundaries: str) -> str:
    """What a value must be, in words: "a positive integer", "an integer from 2 to 12"..."""
    low_in = include_boundaries in ("both", "left")
    high_in = include_boundaries in ("both", "right")
    if max_val is None and min_val in (0, 1) and (wants_int or min_val == 0):
        if wants_int and low_in:
            return "a positive integer" if min_val == 1 else "a non-negative integer"
        if not wants_int:
            return "a non-negative number" if low_in else "a positive number"
    if wants_int and min_val is not None and max_val is not None and low_in and high_in:
        return f"an integer from {min_val} to {max_val}"
    if min_val is not None and max_val is not None and not low_in and not high_in:
        return f"strictly between {min_val} and {max_val}"
    bounds = []
    if min_val is not None:
        bounds.append((">= " if low_in else "> ") + f"{min_val}")
    if max_val is not None:
        bounds.append(("<= " if high_in else "< ") + f"{max_val}")
    return kind + (" " + " and ".join(bounds) if bounds else "")


def check_outputs(values: Any, name: str, *, allow_empty_items: bool = True) -> list[list[str]]:
    """A sequence of model outputs (each a space-separated string or a sequence of symbols) as
    lists of symbols, or ``TypeError``/``ValueError`` naming ``name``: a single string where a
    sequence of outputs is expected would otherwise be read character by character.

    Examples
    --------
    >>> check_outputs(["A1 B2", ["C3"]], "predictions")
    [['A1', 'B2'], ['C3']]
    >>> check_outputs("A1 B2", "predictions")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: predictions must be a sequence of outputs (...), got a single string 'A1 B2'
    """
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of outputs (strings or lists of symbols), "
                        f"got a single string {values!r}")
    if values is None or not hasattr(values, "__len__") or not hasattr(values, "__iter__"):
        raise TypeError(f"{name} must be a sequence of outputs (strings or lists of symbols), "
                        f"got {type(values).__name__}")
    out = []
    for position, value in enumerate(values):
        if isinstance(value, str):
            tokens = value.split()
        elif (isinstance(value, (list, tuple))
              and all(isinstance(token, str) for token in value)):
            tokens = [token for token in value]
        else:
            raise TypeError(f"{name}[{position}] must be a string or a list of strings, got "
                            f"{type(value).__name__} {value!r}")
        if not tokens and not allow_empty_items:
            one = name[:-1] if name.endswith("s") else name
            raise ValueError(f"{name}[{position}] is empty: every {one} needs at least one symbol")
        out.append(tokens)
    return out
