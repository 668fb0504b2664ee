"""Statistics shared by every part: entropy, mutual information, rank and linear correlation,
cosine similarity and the Levenshtein distance between sequences.

Examples
--------
>>> round(entropy([0, 1, 0, 1]), 6)  # a fair coin: ln 2 nats
0.693147
>>> levenshtein("kitten", "sitting")
3
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from tutorlib.checks import ArrayLike, check_scalar

# --------------------------------------------------------------------------------------------
# Information-theoretic helpers


def label_codes(values, name: str) -> tuple[np.ndarray, int]:
    """Labels as integer codes ``0 .. K-1`` and the number ``K`` of distinct labels."""
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be a 1-D sequence of labels, got an array of shape "
                         f"{array.shape}")
    if array.size == 0:
        raise ValueError(f"{name} must contain at least one label, got an empty sequence")
    if array.dtype.kind in "fc" and not np.isfinite(array).all():
        raise ValueError(f"{name} must be labels, got NaN or infinite values (at positions "
                         f"{np.flatnonzero(~np.isfinite(array))[:5].tolist()})")
    uniques, codes = np.unique(array, return_inverse=True)
    return codes.reshape(-1), len(uniques)


def _log_unit(base: float | None) -> float:
    if base is None:
        return 1.0
    if not isinstance(base, (int, float)) or isinstance(base, bool) or not base > 0 or base == 1:
        raise ValueError(f"base must be a positive number other than 1 (or None for nats), "
                         f"got {base!r}")
    return math.log(base)


def _codes(codes: Any, name: str) -> np.ndarray:
    """``codes`` as a non-empty 1-D array of non-negative integers (from :func:`label_codes`)."""
    array = np.asarray(codes)
    if array.ndim != 1 or array.size == 0 or not np.issubdtype(array.dtype, np.integer) \
            or array.min() < 0:
        raise ValueError(f"{name} must be a non-empty 1-D array of non-negative integer codes "
                         f"(from label_codes), got {array.dtype} of shape {array.shape}")
    return array


def entropy_of_codes(codes: np.ndarray) -> float:
    """Plug-in entropy, in nats, of a sample given as integer codes (:func:`label_codes`)."""
    codes = _codes(codes, "codes")
    counts = np.bincount(codes)
    counts = counts[counts > 0]
    n = codes.size
    # Σ p log(1/p) with p = count / n; a constant variable gives exactly 0.
    return float(np.sum(counts * np.log(n / counts)) / n)


def mutual_information_of_codes(x: np.ndarray, y: np.ndarray, num_y: int) -> float:
    """Plug-in mutual information, in nats, of two samples given as integer codes, ``y``'s
    codes below ``num_y``."""
    x, y = _codes(x, "x"), _codes(y, "y")
    if x.size != y.size or y.max() >= num_y:
        raise ValueError(f"x and y must be codes of equal length ({x.size} and {y.size}), y's "
                         f"below num_y={num_y}")
    n = x.size
    # Count the observed (x, y) pairs only: a dense num_x × num_y table could be huge.
    pairs, joint = np.unique(x.astype(np.int64) * num_y + y, return_counts=True)
    count_x = np.bincount(x)[pairs // num_y]
    count_y = np.bincount(y)[pairs % num_y]
    # Integer products keep exact independence at exactly 0 (log of exactly 1).
    ratio = (joint * n) / (count_x * count_y)
    return max(0.0, float(np.sum(joint * np.log(ratio)) / n))


def entropy(values: ArrayLike, *, base: float | None = None) -> float:
    """Plug-in Shannon entropy of a sample of discrete labels.

    ``H(X) = -Σ_x p(x) log p(x)`` with ``p(x)`` the fraction of the sample equal to ``x``.

    Parameters
    ----------
    values : sequence of hashable, sortable labels (ints, strings, ...)
        The observed values of ``X``, one per item; 1-D.
    base : float, optional
        Base of the logarithm: ``None`` (the default) for nats, 2 for bits.

    Returns
    -------
    float
        The entropy, ``>= 0``; 0 exactly when all values are equal.

    Examples
    --------
    >>> round(entropy([0, 1, 0, 1]), 6)  # a fair coin: ln 2 nats
    0.693147
    >>> entropy(["heads", "tails"], base=2)
    1.0
    >>> entropy([7, 7, 7])
    0.0
    """
    unit = _log_unit(base)
    codes, _ = label_codes(values, "values")
    return entropy_of_codes(codes) / unit


def mutual_information(x: ArrayLike, y: ArrayLike, *, base: float | None = None) -> float:
    """Plug-in mutual information of two samples of discrete labels.

    ``I(X; Y) = Σ_{x,y} p(x, y) log(p(x, y) / (p(x) p(y)))`` with every probability the
    fraction of items observed with that value (no bias correction).

    Parameters
    ----------
    x, y : sequences of labels
        Paired observations: ``x[i]`` and ``y[i]`` belong to the same item; 1-D, equal length.
    base : float, optional
        Base of the logarithm: ``None`` (the default) for nats, 2 for bits.

    Returns
    -------
    float
        The mutual information, between 0 and ``min(H(X), H(Y))``.

    Examples
    --------
    >>> x = [0, 0, 1, 1]
    >>> mutual_information(x, x) == entropy(x)  # I(X; X) = H(X)
    True
    >>> mutual_information(x, [0, 1, 0, 1])  # independent
    0.0
    >>> mutual_information(x, ["a", "a", "b", "b"], base=2)  # y is x renamed: 1 bit
    1.0
    """
    unit = _log_unit(base)
    x_codes, _ = label_codes(x, "x")
    y_codes, num_y = label_codes(y, "y")
    if x_codes.size != y_codes.size:
        raise ValueError(f"x and y must be paired observations of equal length, got "
                         f"{x_codes.size} and {y_codes.size}")
    return mutual_information_of_codes(x_codes, y_codes, num_y) / unit


# --------------------------------------------------------------------------------------------
# Distances and rank correlation


def levenshtein(a: ArrayLike, b: ArrayLike) -> int:
    """Levenshtein distance: the fewest insertions, deletions and substitutions from a to b.

    Parameters
    ----------
    a, b : sequences
        Strings, lists, tuples or 1-D arrays; symbols are compared with ``==``.

    Returns
    -------
    int

    Examples
    --------
    >>> levenshtein("kitten", "sitting")
    3
    >>> levenshtein([1, 2, 3], [2, 3])
    1
    >>> levenshtein("", "abc")
    3

    With ``rapidfuzz`` installed (``pip install rapidfuzz``, the ``fast`` extra) its compiled
    distance is used, with the same results; symbols it cannot hash fall back to Python.
    """
    a, b = as_symbols(a), as_symbols(b)
    for name, item in (("a", a), ("b", b)):
        if not isinstance(item, (str, bytes)):
            nested = next((s for s in item if isinstance(s, (list, np.ndarray, dict, set))), None)
            if nested is not None:
                raise ValueError(f"levenshtein compares two messages, each a sequence of symbols; "
                                 f"{name} holds a {type(nested).__name__} ({nested!r}) as a symbol "
                                 "(to compare many messages, call it once per pair)")
    if _rapid_levenshtein is not None and _rapid_is_exact(a, b):
        return int(_rapid_levenshtein(a, b))
    return levenshtein_python(a, b)


def _rapid_is_exact(a: ArrayLike, b: ArrayLike) -> bool:
    """Whether rapidfuzz compares these symbols as ``==`` does: two strings (character by
    character), or symbols that are all integers (compared by value) or all strings. It compares
    anything else by hash, and ``hash(-1.0) == hash(-2.0)``, so floats and tuples stay in Python."""
    if isinstance(a, str) and isinstance(b, str):
        return True
    kinds = set(map(type, a))
    kinds.update(map(type, b))
    return kinds <= _BY_VALUE or kinds <= _STRINGS


def edit_distances_are_compiled(items: ArrayLike) -> bool:
    """Whether the edit distances between ``items`` (messages) are computed by rapidfuzz: it is
    installed and every item is a string, or every symbol of every item is an integer, or every
    one a string (see :func:`levenshtein`).

    Parameters
    ----------
    items : sequence
        The messages, each a string or a sequence of symbols.

    Returns
    -------
    bool
    """
    if _rapid_levenshtein is None:
        return False
    if all(isinstance(item, str) for item in items):
        return True
    kinds: set[type] = set()
    for item in items:
        kinds.update(map(type, as_symbols(item)))
    return kinds <= _BY_VALUE or kinds <= _STRINGS


_BY_VALUE = frozenset({int, bool})
_STRINGS = frozenset({str})
try:
    from rapidfuzz.distance.Levenshtein import distance as _rapid_levenshtein
except ImportError:  # an optional speed-up
    _rapid_levenshtein = None


def levenshtein_python(a: ArrayLike, b: ArrayLike) -> int:
    """:func:`levenshtein` in pure Python (the reference the rapidfuzz path is tested against).

    Parameters
    ----------
    a, b : sequences
        As for :func:`levenshtein`.

    Returns
    -------
    int
    """
    a, b = as_symbols(a), as_symbols(b)
    if len(a) < len(b):
        a, b = b, a
    # Dynamic programme over prefixes, keeping one row: previous[j] = distance(a[:i], b[:j]).
    previous = list(range(len(b) + 1))
    for i, symbol_a in enumerate(a, start=1):
        current = [i]
        for j, symbol_b in enumerate(b, start=1):
            current.append(min(previous[j] + 1,                # delete symbol_a
                               current[j - 1] + 1,             # insert symbol_b
                               previous[j - 1] + (symbol_a != symbol_b)))  # substitute
        previous = current
    return previous[-1]


def as_symbols(item: Any) -> Sequence:
    """One message or meaning as a sequence of symbols (a scalar is a sequence of one)."""
    if isinstance(item, np.ndarray):
        return item.tolist() if item.ndim > 0 else [item.item()]
    if isinstance(item, (str, bytes, list, tuple)):
        return item
    if np.ndim(item) == 0:
        return [item]
    return list(item)


def _scipy_stats():
    # imported on first use: scipy.stats takes about half a second to import, and most of the
    # package (the command line, the datasets) never needs it
    from scipy import stats

    return stats


def average_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..m, tied values sharing the mean of the ranks they occupy
    (``scipy.stats.rankdata``)."""
    return _scipy_stats().rankdata(np.asarray(values).reshape(-1), method="average")


def pearson(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Pearson's correlation coefficient, or ``None`` where it is undefined.

    It is undefined for fewer than two pairs or when either variable is constant.

    Examples
    --------
    >>> pearson([1, 2, 3], [2, 4, 7])
    0.9933992677987828
    >>> pearson([1, 1, 1], [2, 4, 7]) is None
    True
    """
    x = np.asarray(x, dtype=np.float64).ravel()
    y = np.asarray(y, dtype=np.float64).ravel()
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same length, got {x.size} and {y.size}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("x and y must be finite numbers (a NaN would make the correlation NaN); "
                         "drop the pairs that have none")
    if x.size < 2 or np.ptp(x) < 1e-12 or np.ptp(y) < 1e-12:
        return None
    return float(_scipy_stats().pearsonr(x, y).statistic)


def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b between two rankings (``scipy.stats.kendalltau``): (concordant -
    discordant pairs) over the root of the product of the pairs untied in ``x`` and untied in
    ``y``; None where either has only ties (or fewer than two items).

    Examples
    --------
    >>> round(kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]), 12)  # one discordant pair of six
    0.666666666667
    >>> kendall_tau([1, 2, 3], [3, 2, 1])
    -1.0
    >>> abs(kendall_tau([1, 1, 2], [1, 2, 3]) - 2 / (2 * 3) ** 0.5) < 1e-12
    True
    """
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if a.size == 0 and b.size == 0:
        raise ValueError("kendall_tau needs two rankings of the same items, got none")
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"x and y must be two equally long lists, got {a.shape} and {b.shape}")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("x and y must be finite numbers")
    if a.size < 2 or a.min() == a.max() or b.min() == b.max():
        return None
    return float(_scipy_stats().kendalltau(a, b, variant="b").statistic)


def cosine(u: Sequence[float], v: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0 when either is the zero vector).

    Examples
    --------
    >>> cosine([1.0, 0.0], [1.0, 1.0])
    0.7071067811865475
    """
    u = np.asarray(u, dtype=np.float64).ravel()
    v = np.asarray(v, dtype=np.float64).ravel()
    if u.size == 0 or u.size != v.size or not (np.isfinite(u).all() and np.isfinite(v).all()):
        raise ValueError(f"cosine needs two finite vectors of the same non-zero length, got "
                         f"lengths {u.size} and {v.size}")
    norm = float(np.linalg.norm(u) * np.linalg.norm(v))
    return float(np.dot(u, v) / norm) if norm > 0 else 0.0


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman rank correlation, with tied values given their average rank
    (``scipy.stats.spearmanr``).

    The Pearson correlation of the ranks of ``x`` and the ranks of ``y``.

    Parameters
    ----------
    x, y : sequences of numbers
        Paired observations, 1-D, equal length, at least 2.

    Returns
    -------
    float
        In ``[-1, 1]``.

    Raises
    ------
    ValueError
        If the lengths differ, fewer than 2 pairs are given, a value is not finite, or either
        sample is constant (the correlation is then undefined).

    Examples
    --------
    >>> spearman([1, 2, 3, 4], [10, 20, 30, 40])
    1.0
    >>> spearman([1, 2, 3, 4], [4, 3, 2, 1])
    -1.0
    >>> round(spearman([1, 2, 2, 3], [1, 2, 3, 4]), 12)  # ranks (1, 2.5, 2.5, 4) against (1, 2, 3, 4)
    0.948683298051
    """
    x_array = np.asarray(x, dtype=float)
    y_array = np.asarray(y, dtype=float)
    if x_array.ndim != 1 or y_array.ndim != 1:
        raise ValueError(f"spearman expects two 1-D sequences, got shapes {x_array.shape} and "
                         f"{y_array.shape}")
    if x_array.size != y_array.size:
        raise ValueError(f"spearman expects paired observations of equal length, got "
                         f"{x_array.size} and {y_array.size}")
    if x_array.size < 2:
        raise ValueError(f"a correlation needs at least 2 pairs, got {x_array.size}")
    for name, values in (("x", x_array), ("y", y_array)):
        if not np.all(np.isfinite(values)):
            raise ValueError(f"{name} contains a value that is not finite (NaN or infinity)")
        if values.min() == values.max():
            raise ValueError(f"the correlation is undefined because all values of {name} are "
                             f"equal (to {values[0]!r})")
    return float(_scipy_stats().spearmanr(x_array, y_array).statistic)


# --------------------------------------------------------------------------------------------
# Mutual information (Shwartz-Ziv & Tishby 2017)
# --------------------------------------------------------------------------------------------

def binned_mutual_information(activations: Any, bins: int = 30, low: float = -1.0,
                              high: float = 1.0, base: float = math.e) -> float:
    """Binning estimate of I(T; X) for a deterministic representation ``T = f(X)``.

    Because ``T`` is a function of ``X``, ``H(T | X) = 0`` and ``I(T; X) = H(T)``. Following
    Shwartz-Ziv & Tishby (2017), each unit's activation is put into one of ``bins`` equal-width
    bins over ``[low, high]``; each input's vector of bin numbers is a symbol, and the result is
    the entropy of the empirical distribution of symbols over the ``n`` inputs (each input
    counting once). It lies between 0 (every input lands in the same cell) and ``log n`` (every
    input in its own cell).

    Parameters
    ----------
    activations : array-like
        ``(n, units)``: one row per input. Values must lie in ``[low, high]``; ``high`` falls in
        the last bin.
    bins : int
        Bins per unit (the paper's 30).
    low, high : float
        The range the bins cover: ``[-1, 1]`` for tanh units.
    base : float
        Logarithm base: ``e`` for nats (default), 2 for bits.

    Returns
    -------
    float

    Examples
    --------
    >>> binned_mutual_information([[0.0], [0.0], [0.5], [-0.9]], bins=4)  # symbols 2, 2, 3, 0
    1.0397207708399179
    """
    try:
        values = np.asarray(activations, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"activations must be an (inputs, units) array of numbers, got "
                        f"{type(activations).__name__}") from None
    if values.ndim != 2 or values.shape[0] == 0 or values.shape[1] == 0:
        raise ValueError(f"activations must be a non-empty (inputs, units) array, got shape "
                         f"{values.shape}")
    check_scalar(bins, "bins", int, min_val=1)
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise ValueError(f"need finite low < high, got low={low!r}, high={high!r}")
    if not (base > 0 and base != 1):
        raise ValueError(f"base must be positive and not 1, got {base!r}")
    if not np.isfinite(values).all():
        raise ValueError("activations contain NaN or infinite values")
    if values.min() < low or values.max() > high:
        raise ValueError(f"activations must lie in [{low}, {high}], got values from "
                         f"{values.min():.4g} to {values.max():.4g}")
    cells = np.minimum(((values - low) / (high - low) * bins).astype(np.int64), bins - 1)
    _, counts = np.unique(cells, axis=0, return_counts=True)
    p = counts / counts.sum()
    return float(-(p * np.log(p)).sum() / math.log(base))


# --------------------------------------------------------------------------------------------
# Intervals over seeds and for correlations


def _check_level(level: float) -> None:
    if not isinstance(level, (int, float)) or isinstance(level, bool) or not 0 < level < 1:
        raise ValueError(f"level must be a number between 0 and 1 (0.95 for a 95% interval), "
                         f"got {level!r}")


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t distribution with ``df`` degrees of freedom
    (``scipy.stats.t.ppf``).

    Examples
    --------
    >>> round(t_quantile(0.975, 2), 3), round(t_quantile(0.975, 9), 3)
    (4.303, 2.262)
    """
    _check_level(p)
    check_scalar(df, "df", int, min_val=1)
    return float(_scipy_stats().t.ppf(p, df))


def mean_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float | None, float | None]:
    """The mean of ``values`` (one per seed) and its t interval at ``level``
    (``scipy.stats.t.interval``).

    The bounds are ``None`` for a single value (no spread to estimate).

    Examples
    --------
    >>> mean, low, high = mean_interval([10.0, 12.0, 14.0])
    >>> mean, round(low, 2), round(high, 2)
    (12.0, 7.03, 16.97)
    >>> mean_interval([5.0])
    (5.0, None, None)
    """
    _check_level(level)
    array = np.asarray(values, dtype=np.float64).ravel()
    if array.size == 0 or not np.isfinite(array).all():
        raise ValueError(f"values must be one or more finite numbers, got {list(array)!r}")
    mean = float(array.mean())
    if array.size == 1:
        return mean, None, None
    spread = float(array.std(ddof=1))
    if spread == 0:
        return mean, mean, mean
    low, high = _scipy_stats().t.interval(level, array.size - 1, loc=mean,
                                       scale=spread / math.sqrt(array.size))
    return mean, float(low), float(high)


def correlation_interval(r: float, n: int, level: float = 0.95) -> tuple[float | None, float | None]:
    """Fisher's z interval at ``level`` for a Pearson correlation ``r`` over ``n`` pairs;
    ``(None, None)`` for fewer than 4 pairs.

    Examples
    --------
    >>> low, high = correlation_interval(0.5, 100)
    >>> round(low, 3), round(high, 3)
    (0.337, 0.634)
    """
    _check_level(level)
    if not isinstance(r, (int, float)) or isinstance(r, bool) or not -1 <= r <= 1:
        raise ValueError(f"r must be a correlation between -1 and 1, got {r!r}")
    check_scalar(n, "n", int, min_val=1)
    if n < 4:
        return None, None
    # the interval scipy.stats.pearsonr(...).confidence_interval() gives from the data, here
    # from r and n alone (the claims and the card keep only r and the number of pairs)
    z = math.atanh(max(-0.999999, min(0.999999, float(r))))
    half = float(_scipy_stats().norm.ppf(0.5 + level / 2)) / math.sqrt(n - 3)
    return math.tanh(z - half), math.tanh(z + half)


from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals())
