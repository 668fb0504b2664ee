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

import functools
import math
import numbers
import sys
from collections.abc import Iterable, Sequence
from typing import Annotated, Any, Protocol, runtime_checkable

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
    if not types or not all(isinstance(t, type) for t in types):
        raise TypeError(f"check_scalar: target_type must be a type or a tuple of types, got "
                        f"{target_type!r}")
    if not isinstance(name, str):
        raise TypeError(f"check_scalar: name must be a string, got {type(name).__name__}")
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


def check_seed(seed: Any, name: str = "seed") -> int:
    """``seed`` as an int if it is a non-negative integer (not a bool, not 1.5, not None), else
    ``ValueError``: the same seed must always give the same data, and two seeds never the same.

    >>> check_seed(3)
    3
    """
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {seed!r}"
                         if name != "a seed" else f"a seed is a non-negative integer, got {seed!r}")
    return int(seed)


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


# --- one type-checking path for every public entry point -----------------------------------
#
# Each subpackage (and flat module) ends with ``type_check(globals(), __all__)``: every public
# function and class is then checked by beartype against its annotations on every call, deeply
# (one item of each container, at every level, so at constant cost), both where the package
# exports it and in the module that defines it (``scan.split`` and ``scan.splits.split`` alike).
# A refusal is an :class:`ArgumentTypeError` naming the function, the argument, its value and
# the annotation. The meaning of a value (a seed that is not negative, a name that exists, a
# finite learning rate) stays with the function, which says so in its own words.


class ArgumentTypeError(TypeError, ValueError):
    """An argument of the wrong kind (``None``, a string for a list, a float for an int...):
    a ``TypeError``, and a ``ValueError`` too, so code that caught the ``ValueError`` a function
    raised before its arguments were checked at the boundary still catches it."""


@runtime_checkable
class _ArrayLike(Protocol):
    """What NumPy reads as an array: anything with ``__array__`` (a NumPy array, a pandas
    column, a tensor), told without importing NumPy."""

    def __array__(self, *args: Any, **kwargs: Any) -> Any: ...


#: An argument that may be a sequence or an array: a list, a tuple, a NumPy array, a pandas
#: column or anything else NumPy reads as an array (its elements are the function's to check).
ArrayLike = Sequence | _ArrayLike


@functools.cache
def _beartype_conf():
    """One beartype configuration for the package (built on first use: beartype is imported
    with the first module that checks its names).

    It reads the annotations as Python's numbers and NumPy's arrays are used: an ``int`` is any
    integer but a bool (NumPy's too: ``np.int64`` is no subclass of ``int``), a ``float`` any
    real number but a bool, a sequence of numbers may be an array, and a sequence of strings or
    numbers is never one string (``"abc"`` is a sequence of its characters to Python, and a
    mistake to a caller who meant a list).
    """
    from beartype import BeartypeConf, FrozenDict
    from beartype.vale import IsInstance

    not_bool, not_text = ~IsInstance[bool], ~IsInstance[str]
    return BeartypeConf(
        # containers: one item checked per call, the same one every time (the first), so that
        # the same bad call always gets the same answer
        is_random=False,
        hint_overrides=FrozenDict({
            int: Annotated[numbers.Integral, not_bool],
            float: Annotated[numbers.Real, not_bool],
            Sequence[str]: Annotated[Sequence[str], not_text],
            Iterable[str]: Annotated[Iterable[str], not_text],
            Sequence[float]: Annotated[Sequence[float], not_text] | _ArrayLike,
            Sequence[int]: Annotated[Sequence[int], not_text] | _ArrayLike}),
        violation_param_type=ArgumentTypeError, violation_return_type=ArgumentTypeError,
        is_color=False)


def type_check(namespace: dict, names: Any = None, *, unchecked: tuple[str, ...] = ()) -> None:
    """Check every public function and class named in ``names`` with beartype, here and in the
    module that defines it.

    Parameters
    ----------
    namespace
        The module's ``globals()``.
    names
        The public names to check (the module's ``__all__``); by default every public name
        the module defines itself.
    unchecked
        Classes left as they are because the package builds them by the million on a hot path
        (ORCHARD's tree nodes, made by its parser); their trees are checked as a whole.

    Returns
    -------
    None
    """
    import inspect

    from beartype import beartype

    if not isinstance(namespace, dict) or not isinstance(namespace.get("__name__"), str):
        raise ValueError(f"type_check: namespace must be a module's globals(), got "
                         f"{type(namespace).__name__}")
    module = namespace["__name__"]
    if names is None:
        names = [n for n, o in list(namespace.items())
                 if not n.startswith("_") and getattr(o, "__module__", None) == module]
    conf = _beartype_conf()
    for name in list(names):
        obj = namespace.get(name)
        if name in unchecked or not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue
        # checked once, where it is first exported (a class's mark is its own, not inherited)
        if "__tutorlib_checked__" in (vars(obj) if inspect.isclass(obj) else obj.__dict__):
            continue
        if inspect.isgeneratorfunction(getattr(obj, "__wrapped__", None)):
            continue  # a context manager: its annotation describes the generator it wraps
        if getattr(obj, "__module__", "").split(".")[0] != "tutorlib":
            continue
        checked = beartype(conf=conf)(obj)
        checked.__tutorlib_checked__ = True
        namespace[name] = checked
        home = sys.modules.get(obj.__module__)
        if home is not None and getattr(home, obj.__name__, None) is obj:
            setattr(home, obj.__name__, checked)
