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
import sys
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
# Each subpackage (and flat module) ends with ``guard_exports(globals(), __all__)``: every public
# function, and the ``__init__`` of every public class, then checks each argument a caller gives
# against its annotation before any work, so ``None`` or a value of the wrong type is a
# ``TypeError`` naming the function and the argument, not an ``AttributeError`` three frames
# down. Only what the annotation says is checked (the kind of value, finite numbers, no bool for
# an int, no single string for a sequence); the meaning of a value (a seed that is not negative,
# a name that exists) stays with the function, which says so in its own words.


class ArgumentTypeError(TypeError, ValueError):
    """An argument of the wrong kind (``None``, a string for a list, a float for an int...):
    a ``TypeError``, and a ``ValueError`` too, so code that caught the ``ValueError`` a function
    raised before its arguments were checked at the boundary still catches it."""


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _type_name(value: Any) -> str:
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)
    return f"{type(value).__name__} {_short(value)}"


_UNREADABLE = object()  # an annotation that names something the module does not import


def _resolve(annotation: Any, namespace: dict) -> Any:
    if isinstance(annotation, str):
        try:
            return eval(annotation, namespace)  # noqa: S307 - the package's own annotations
        except Exception:  # noqa: BLE001 - an annotation only a type checker can read
            return _UNREADABLE
    return annotation


def _kind_check(tp: Any, allow_nonfinite: bool = False):
    """``(test, words)`` for an annotation, or ``None`` when it cannot be checked at run time."""
    import collections.abc as abc
    import os
    import types
    import typing
    from pathlib import PurePath

    if tp is None or tp is type(None):
        return (lambda v: v is None), "None"
    if tp is Any or tp is object or isinstance(tp, (typing.TypeVar, typing.ForwardRef)):
        return None
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Union or origin is types.UnionType:
        if any(isinstance(a, type) and (issubclass(a, PurePath) or a is os.PathLike) for a in args):
            # str | Path: a path, which is never an empty string
            args = tuple(a for a in args if a is not str)
        parts = [_kind_check(a, allow_nonfinite) for a in args]
        if any(p is None for p in parts):
            return None
        tests = [p[0] for p in parts]
        words = " or ".join(dict.fromkeys(p[1] for p in parts))
        return (lambda v: any(t(v) for t in tests)), words
    if origin is typing.Literal:
        return (lambda v: any(v == a and type(v) is type(a) for a in args)), \
            "one of " + ", ".join(repr(a) for a in args)
    if origin is typing.Annotated:
        return _kind_check(args[0], allow_nonfinite)
    base = origin or tp
    if base is bool:
        return (lambda v: isinstance(v, bool) or type(v).__name__ == "bool_"), "True or False"
    if base is int:
        return (lambda v: isinstance(v, numbers.Integral) and not isinstance(v, bool)
                and type(v).__name__ != "bool_"), "an integer"
    if base is float:
        if allow_nonfinite:
            return (lambda v: isinstance(v, numbers.Real) and not isinstance(v, bool)), "a number"
        return (lambda v: isinstance(v, numbers.Real) and not isinstance(v, bool)
                and math.isfinite(float(v))), "a finite number"
    if base is str:
        return (lambda v: isinstance(v, str)), "a string"
    if base is bytes:
        return (lambda v: isinstance(v, bytes)), "bytes"
    if isinstance(base, type) and (issubclass(base, PurePath) or base is os.PathLike):
        return (lambda v: isinstance(v, os.PathLike) or (isinstance(v, str) and v.strip() != "")), \
            "a path (a non-empty string or a Path)"
    if base is tuple and args and args[-1] is not Ellipsis:
        # a fixed shape, e.g. a (command, actions) pair: its length and each element
        parts = [_kind_check(a) for a in args]

        def shaped(v, parts=parts):
            return (isinstance(v, (tuple, list)) and len(v) == len(parts)
                    and all(p is None or p[0](x) for p, x in zip(parts, v)))
        return shaped, f"a tuple of {len(parts)} (" + ", ".join(
            "any" if p is None else p[1] for p in parts) + ")"
    if tp is tuple:  # a bare tuple: the package's trees and compounds, never empty
        return (lambda v: isinstance(v, tuple) and len(v) > 0), "a non-empty tuple"
    if base is abc.Sequence and not args:  # any sequence, a string included (of characters)
        return (lambda v: isinstance(v, (abc.Sequence, str)) or (
            hasattr(v, "__len__") and hasattr(v, "__getitem__") and not isinstance(v, abc.Mapping))
        ), "a sequence"
    if base in (list, tuple, abc.Sequence, abc.MutableSequence):
        return (lambda v: isinstance(v, abc.Iterable) and not isinstance(v, (str, bytes))
                and not isinstance(v, abc.Mapping) and hasattr(v, "__len__")), \
            "a sequence (a list or tuple, not a string)"
    if base in (abc.Iterable, abc.Collection, abc.Iterator, abc.Generator, set, frozenset,
                abc.Set, abc.MutableSet, abc.Reversible):
        return (lambda v: isinstance(v, abc.Iterable) and not isinstance(v, (str, bytes))), \
            "an iterable (a list, tuple or set, not a string)"
    if base in (dict, abc.Mapping, abc.MutableMapping):
        return (lambda v: isinstance(v, abc.Mapping)), "a mapping (a dict)"
    if base is abc.Callable:
        return callable, "callable"
    if base is type:
        return (lambda v: isinstance(v, type)), "a class"
    if isinstance(base, type):
        if getattr(base, "_is_protocol", False):
            return None
        module = getattr(base, "__module__", "")
        if module.startswith("numpy") and base.__name__ == "ndarray":
            return (lambda v: hasattr(v, "__len__") and not isinstance(v, (str, bytes))
                    and not isinstance(v, abc.Mapping)), "an array (or a list of numbers)"
        return (lambda v: isinstance(v, base)), f"a {base.__name__}"
    return None


def _argument_checks(function: Any, hints_of: Any, skip_first: bool = False):
    """Per positional index and per name, ``(name, test, words)`` for ``function``'s arguments."""
    import inspect

    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return [], {}
    # the names the annotations use: the defining module's (a decorator such as torch.no_grad
    # gives the function object other globals)
    home = sys.modules.get(getattr(function, "__module__", ""), None)
    namespace = {**getattr(inspect.unwrap(function), "__globals__", {}),
                 **(vars(home) if home is not None else {})}
    annotations = getattr(hints_of, "__annotations__", {}) or {}
    by_index, by_name = [], {}
    parameters = list(signature.parameters.values())
    if skip_first:
        parameters = parameters[1:]
    for parameter in parameters:
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            if parameter.kind is parameter.VAR_POSITIONAL:
                break
            continue
        annotation = _resolve(annotations.get(parameter.name, parameter.annotation), namespace)
        default = parameter.default
        nonfinite = isinstance(default, float) and not math.isfinite(default)
        check = (None if annotation is inspect.Parameter.empty or annotation is _UNREADABLE
                 else _kind_check(annotation, nonfinite))
        entry = (parameter.name, *check) if check else None
        if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            by_index.append(entry)
        if entry and parameter.kind is not parameter.POSITIONAL_ONLY:
            by_name[parameter.name] = entry
    return by_index, by_name


def _fail(owner: str, name: str, words: str, value: Any) -> None:
    if words == "an integer" and (name == "seed" or name.endswith("_seed")):
        words = "a non-negative integer"  # what every seed is
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and "finite" in words:
        raise ValueError(f"{owner}: {name} must be {words}, got {value!r}")
    raise ArgumentTypeError(f"{owner}: {name} must be {words}, got {_type_name(value)}")


def _guard(function: Any, owner: str, by_index: list, by_name: dict, offset: int = 0):
    import functools

    @functools.wraps(function)
    def guarded(*args, **kwargs):
        for entry, value in zip(by_index, args[offset:]):
            if entry is not None and not entry[1](value):
                _fail(owner, entry[0], entry[2], value)
        for key, value in kwargs.items():
            entry = by_name.get(key)
            if entry is not None and not entry[1](value):
                _fail(owner, entry[0], entry[2], value)
        return function(*args, **kwargs)

    guarded.__tutorlib_guarded__ = True
    return guarded


def guard_exports(namespace: dict, names: Any = None, *, unchecked: tuple[str, ...] = ()) -> None:
    """Check the arguments of every public function and class named in ``names`` (see above).

    Functions are replaced in ``namespace`` by a checking wrapper that keeps their name,
    signature and documentation; a class keeps its identity and has its ``__init__`` checked.

    Parameters
    ----------
    namespace
        The module's ``globals()``.
    names
        The public names to guard (the module's ``__all__``); by default every public name
        the module defines itself.
    unchecked
        Classes left as they are because the package builds them by the million on a hot path
        (ORCHARD's tree nodes, made by its parser); their trees are checked as a whole.

    Returns
    -------
    None
    """
    import dataclasses
    import inspect

    if not isinstance(namespace, dict) or "__name__" not in namespace:
        raise TypeError(f"guard_exports: namespace must be a module's globals(), got "
                        f"{type(namespace).__name__}")
    module = namespace["__name__"]
    if names is None:
        names = [n for n, o in list(namespace.items())
                 if not n.startswith("_") and getattr(o, "__module__", None) == module]
    for name in list(names):
        obj = namespace.get(name)
        if name in unchecked:
            continue
        if inspect.isclass(obj):
            init = obj.__dict__.get("__init__")
            if init is None or getattr(init, "__tutorlib_guarded__", False):
                continue
            if dataclasses.is_dataclass(obj):
                by_index, by_name = _dataclass_checks(obj, vars(sys.modules[obj.__module__]))
            else:
                by_index, by_name = _argument_checks(init, init, skip_first=True)
            if any(by_index) or by_name:
                obj.__init__ = _guard(init, obj.__name__, by_index, by_name, offset=1)
        elif inspect.isfunction(obj) and not getattr(obj, "__tutorlib_guarded__", False):
            by_index, by_name = _argument_checks(obj, obj)
            if any(by_index) or by_name:
                wrapper = _guard(obj, obj.__name__, by_index, by_name)
                if obj.__module__ != module:
                    # exported from another module: pickle finds the wrapper through the
                    # function it wraps (module.name._checked), and doctest, which looks where
                    # __module__ says, runs the examples once, in the defining module
                    obj._checked = wrapper
                    wrapper.__qualname__ = f"{obj.__qualname__}._checked"
                namespace[name] = wrapper


def _dataclass_checks(cls: type, module_globals: dict):
    """The checks of a dataclass's generated ``__init__``, from its fields' annotations."""
    import dataclasses

    by_index, by_name = [], {}
    for field in dataclasses.fields(cls):
        if not field.init:
            continue
        annotation = _resolve(field.type, {**module_globals, **vars(cls)})
        default = field.default
        nonfinite = isinstance(default, float) and not math.isfinite(default)
        check = _kind_check(annotation, nonfinite) if annotation is not _UNREADABLE else None
        entry = (field.name, *check) if check else None
        by_index.append(entry)
        if entry:
            by_name[field.name] = entry
    return by_index, by_name
