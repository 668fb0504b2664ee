"""Tree Reconstruction Error (Andreas 2019, "Measuring Compositionality in Representation
Learning", Sec. 3).

A representation function ``f`` maps inputs ``x`` to representations ``f(x)``; each input has a
derivation ``d(x)``, a tree of primitives (:mod:`tutorlib.trees`). TRE asks how well ``f`` is
approximated by a model ``f̂_η`` that *composes* one learned representation ``η_p`` per
primitive ``p`` with a fixed composition operator ``*``:

- ``f̂_η(p) = η_p`` for a primitive, ``f̂_η(<d, d'>) = f̂_η(d) * f̂_η(d')`` for a pair (Eq. 1);
- ``η* = argmin_η Σ_x δ(f(x), f̂_η(d(x)))`` for a distance ``δ`` (Eq. 2);
- ``TRE(x) = δ(f(x), f̂_η*(d(x)))`` (Eq. 3) and ``TRE(X)`` is their mean (Eq. 4).

The composition is ``"additive"`` (θ + θ′), ``"linear"`` (A θ + B θ′ with learned A and B,
Eq. 6; for representations of shape length × vocabulary, such as one-hot strings, A and B
mix positions) or any torch callable on batches. The distance is ``"cosine"`` (1 − cos),
``"l1"``, ``"l2"`` or a callable returning one distance per row.

The solver evaluates every derivation at once, level by level: all distinct sub-derivations
of the same height are composed in one batched call, so a step costs a handful of tensor
operations whatever the number of inputs. ``solver="recursive"`` evaluates one derivation at
a time, one call per node, the way a direct implementation of Eq. 1 does; it gives the same
answer (a test checks it) and is kept as the baseline of ``benchmarks/tre_speed.py``.

Examples
--------
An exactly compositional code (each object is the sum of its colour's and its shape's vectors)
has TRE close to 0 (Remark 1):

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> parts = {name: rng.normal(size=8) for name in ["red", "blue", "circle", "star"]}
>>> derivations = [(c, s) for c in ["red", "blue"] for s in ["circle", "star"]]
>>> codes = np.stack([parts[c] + parts[s] for c, s in derivations])
>>> result = tre(codes, derivations, composition="additive", distance="l2", steps=500)
>>> bool(result.value < 1e-2)
True
>>> sorted(result.lexicon)
['blue', 'circle', 'red', 'star']
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
import torch
from torch import nn

from tutorlib.checks import check_scalar
from tutorlib.train import linear_decay, progress_bar, resolve_device

Derivation = str | tuple
Composition = str | Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
Distance = str | Callable[[torch.Tensor, torch.Tensor], torch.Tensor]

COMPOSITIONS = ("additive", "linear")
PROTOCOLS = ("converged", "release")
DISTANCES = ("cosine", "l1", "l2")


# ---------------------------------------------------------------------------------------------
# Distances: (predictions, targets) of shape (n, ...) -> n distances


def _flat(x: torch.Tensor) -> torch.Tensor:
    return x.reshape(x.shape[0], -1)


def _same_shape(predicted: torch.Tensor, target: torch.Tensor, name: str) -> None:
    if predicted.shape != target.shape:
        raise ValueError(f"{name}: predicted and target must have the same shape (one "
                         f"representation per row), got {tuple(predicted.shape)} and "
                         f"{tuple(target.shape)}")
    if predicted.dim() == 0:
        raise ValueError(f"{name}: give batches (one representation per row), got scalars")


def cosine_distance(predicted: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """1 − cosine similarity per row (a zero vector is at distance 1 from everything).

    Parameters
    ----------
    predicted, target : torch.Tensor
        Two batches of the same shape; each row (flattened) is one representation.

    Returns
    -------
    torch.Tensor
        One distance per row.
    """
    _same_shape(predicted, target, "cosine_distance")
    return 1.0 - torch.nn.functional.cosine_similarity(_flat(predicted), _flat(target), dim=1,
                                                       eps=1e-8)


def l1_distance(predicted: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Sum of absolute differences per row.

    Parameters
    ----------
    predicted, target : torch.Tensor
        Two batches of the same shape; each row (flattened) is one representation.

    Returns
    -------
    torch.Tensor
        One distance per row.
    """
    _same_shape(predicted, target, "l1_distance")
    return (_flat(predicted) - _flat(target)).abs().sum(dim=1)


def l2_distance(predicted: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Euclidean distance per row.

    Parameters
    ----------
    predicted, target : torch.Tensor
        Two batches of the same shape; each row (flattened) is one representation.

    Returns
    -------
    torch.Tensor
        One distance per row.
    """
    _same_shape(predicted, target, "l2_distance")
    return torch.linalg.vector_norm(_flat(predicted) - _flat(target), dim=1)


_DISTANCES = {"cosine": cosine_distance, "l1": l1_distance, "l2": l2_distance}


def distance_function(distance: Distance) -> Callable[[torch.Tensor, torch.Tensor], torch.Tensor]:
    """The distance called ``distance`` (one of :data:`DISTANCES`), or ``distance`` itself.

    Parameters
    ----------
    distance : str or callable
        ``"cosine"``, ``"l1"``, ``"l2"``, or a function ``(predicted, target) -> one distance
        per row``.

    Returns
    -------
    callable
        The distance function (``ValueError`` naming the known ones for another name).
    """
    if callable(distance):
        return distance
    if distance not in _DISTANCES:
        raise ValueError(f"unknown distance {distance!r}: expected one of {', '.join(DISTANCES)} "
                         "or a callable (predicted, target) -> one distance per row")
    return _DISTANCES[distance]


# ---------------------------------------------------------------------------------------------
# Compositions: batched (x, y) of shape (n, *shape) -> (n, *shape)


class Additive(nn.Module):
    """θ * θ′ = θ + θ′ (no parameters)."""

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return x + y


class Linear(nn.Module):
    """θ * θ′ = A θ + B θ′ (Eq. 6), A and B learned.

    For vector representations (shape ``(d,)``) A and B are d × d. For representations of shape
    ``(length, vocabulary)`` (one-hot strings) A and B are length × length and act on positions:
    they can move or copy a part's symbols to other positions, but never turn one symbol into
    another. Both start at the identity plus seeded noise of standard deviation 0.01.
    """

    def __init__(self, shape: tuple[int, ...], generator: torch.Generator, dtype: torch.dtype):
        super().__init__()
        if len(shape) not in (1, 2):
            raise ValueError(f"the linear composition needs representations of shape (d,) or "
                             f"(length, vocabulary), got shape {tuple(shape)}")
        size = shape[0]

        def start() -> torch.Tensor:
            noise = torch.randn(size, size, generator=generator, dtype=dtype)
            return torch.eye(size, dtype=dtype) + 0.01 * noise

        self.A = nn.Parameter(start())
        self.B = nn.Parameter(start())

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        # (n, m) or (n, m, v): mix the first representation axis
        return torch.einsum("lm,nm...->nl...", self.A, x) + torch.einsum("lm,nm...->nl...", self.B, y)


# ---------------------------------------------------------------------------------------------
# Derivations


def _check_derivation(derivation: object, where: str) -> None:
    if isinstance(derivation, str):
        if not derivation or any(ch.isspace() or ch in "()" for ch in derivation):
            hint = (": a derivation written as text is read with tutorlib.trees.parse, e.g. "
                    "trees.parse('(red circle)') gives ('red', 'circle')"
                    if "(" in derivation or " " in derivation.strip() else "")
            raise ValueError(f"{where}: a primitive must be a non-empty string without spaces or "
                             f"brackets, got {derivation!r}{hint}")
    elif isinstance(derivation, tuple):
        if len(derivation) != 2:
            raise ValueError(f"{where}: TRE composes pairs, got a tuple of {len(derivation)} "
                             f"elements: {derivation!r}")
        _check_derivation(derivation[0], where + "[0]")
        _check_derivation(derivation[1], where + "[1]")
    else:
        raise ValueError(f"{where}: a derivation is a primitive (str) or a pair (tuple), got "
                         f"{type(derivation).__name__} {derivation!r}")


def _primitives(derivation: Derivation, out: dict[str, None]) -> None:
    if isinstance(derivation, str):
        out.setdefault(derivation)
    else:
        _primitives(derivation[0], out)
        _primitives(derivation[1], out)


@dataclass
class _Plan:
    """Every distinct sub-derivation, numbered primitives first, then by height."""

    primitives: list[str]
    levels: list[tuple[torch.Tensor, torch.Tensor]]  # (left, right) node numbers per height
    index: dict                                       # sub-derivation -> node number

    @classmethod
    def build(cls, derivations: Sequence[Derivation], primitives: list[str]) -> _Plan:
        height: dict = {}

        def visit(d: Derivation) -> int:
            if d not in height:
                height[d] = 0 if isinstance(d, str) else 1 + max(visit(d[0]), visit(d[1]))
            return height[d]

        for d in derivations:
            visit(d)
        index = {p: i for i, p in enumerate(primitives)}
        by_height: dict[int, list] = {}
        for d, h in height.items():
            if h > 0:
                by_height.setdefault(h, []).append(d)
        levels = []
        for h in sorted(by_height):
            nodes = by_height[h]
            left = torch.tensor([index[d[0]] for d in nodes])
            right = torch.tensor([index[d[1]] for d in nodes])
            for d in nodes:
                index[d] = len(index)
            levels.append((left, right))
        return cls(primitives, levels, index)

    def to(self, device: torch.device) -> _Plan:
        """The same plan with its index tensors on ``device``."""
        levels = [(left.to(device), right.to(device)) for left, right in self.levels]
        return type(self)(self.primitives, levels, self.index)

    def evaluate(self, lexicon: torch.Tensor, compose: Callable) -> torch.Tensor:
        """Representations of every node (rows in node order)."""
        values = lexicon
        for left, right in self.levels:
            values = torch.cat([values, compose(values[left], values[right])])
        return values


def _evaluate_recursively(derivation: Derivation, lexicon: torch.Tensor, position: dict[str, int],
                          compose: Callable) -> torch.Tensor:
    """One derivation, one call per node: Eq. 1 written directly (the benchmark's baseline)."""
    if isinstance(derivation, str):
        return lexicon[position[derivation]].unsqueeze(0)
    return compose(_evaluate_recursively(derivation[0], lexicon, position, compose),
                   _evaluate_recursively(derivation[1], lexicon, position, compose))


# ---------------------------------------------------------------------------------------------
# The solver


@dataclass
class TREResult:
    """What :func:`tre` found.

    Attributes
    ----------
    value : float
        TRE(X), the mean of ``per_datum`` (Eq. 4).
    per_datum : numpy.ndarray
        TRE(x) for every input, in the order given (Eq. 3).
    lexicon : dict[str, numpy.ndarray]
        The learned representation of every primitive (η*, Eq. 2).
    composition_parameters : dict[str, numpy.ndarray]
        Learned parameters of the composition (A and B for ``"linear"``; empty for ``"additive"``).
    losses : numpy.ndarray
        The objective (mean distance) before every optimisation step.
    """

    value: float
    per_datum: np.ndarray
    lexicon: dict[str, np.ndarray]
    composition_parameters: dict[str, np.ndarray]
    losses: np.ndarray
    _compose: Callable = field(repr=False, default=None)

    def reconstruct(self, derivations: Sequence[Derivation]) -> np.ndarray:
        """f̂_η*(d) for each derivation: the compositional model's representations.

        Every primitive must be in the lexicon.
        """
        derivations = list(derivations)
        for i, d in enumerate(derivations):
            _check_derivation(d, f"derivation {i}")
            found: dict[str, None] = {}
            _primitives(d, found)
            unknown = [p for p in found if p not in self.lexicon]
            if unknown:
                raise ValueError(f"derivation {i} uses primitives without a learned representation: "
                                 f"{', '.join(unknown)}")
        names = list(self.lexicon)
        lexicon = torch.as_tensor(np.stack([self.lexicon[p] for p in names]))
        plan = _Plan.build(derivations, names)
        with torch.no_grad():
            values = plan.evaluate(lexicon, self._compose)
        return values[[plan.index[d] for d in derivations]].numpy()


def _as_representations(representations, dtype: torch.dtype) -> torch.Tensor:
    if isinstance(representations, torch.Tensor):  # a model's output, perhaps with gradients
        representations = representations.detach().cpu()
    try:
        target = torch.as_tensor(np.asarray(representations, dtype=np.float64)).to(dtype)
    except (TypeError, ValueError) as error:
        raise ValueError(f"representations must be numbers of one shape per input: {error}") from None
    if target.ndim < 2:
        raise ValueError(f"representations must have one row per input and at least one value per "
                         f"row, got an array of shape {tuple(target.shape)}")
    if not torch.isfinite(target).all():
        rows = sorted({int(i) for i in torch.nonzero(~torch.isfinite(target))[:, 0][:5]})
        raise ValueError(f"representations contain non-finite values (NaN or inf), e.g. in rows {rows}")
    return target


def tre(representations, derivations: Sequence[Derivation], composition: Composition = "additive",
        distance: Distance = "cosine", *, steps: int = 1000, lr: float = 0.01, seed: int = 0,
        init: str = "zeros", solver: str = "batched", dtype: torch.dtype = torch.float32,
        progress: bool = False, device: str | torch.device = "cpu",
        protocol: str = "converged") -> TREResult:
    """Tree Reconstruction Error of ``representations`` with respect to ``derivations``.

    Parameters
    ----------
    representations : array-like, shape (n, ...)
        f(x) for each input: vectors (n, d), or e.g. one-hot strings (n, length, vocabulary).
    derivations : sequence of derivations, length n
        d(x) for each input: a primitive name or a pair of derivations (nested tuples).
    composition : {"additive", "linear"} or callable
        The composition operator ``*``. A callable receives two batches of shape (m, ...) and
        returns one; if it is a ``torch.nn.Module`` its parameters are learned too (in place).
    distance : {"cosine", "l1", "l2"} or callable
        δ; a callable receives (predicted, target) batches and returns one distance per row.
    steps, lr : int, float
        Full-batch Adam steps and learning rate for minimising the mean distance (Eq. 2). The
        learning rate decays linearly to 1% of ``lr``. Adam moves each value by about ``lr`` a
        step, so primitives can travel about ``steps * lr / 2``. With the built-in compositions
        and the ``"l1"`` or ``"l2"`` distance the problem is solved on the representations
        divided by their largest absolute value and the answer scaled back (both distances and
        both compositions commute with scaling), so the result does not depend on the
        representations' scale; the cosine distance does not depend on it anyway. With a callable
        composition or distance nothing is rescaled: a warning says when the values lie beyond
        what the primitives can travel, or when the loss was still falling at the end (raise
        ``steps`` or ``lr``, or rescale the representations).
    seed : int
        Seeds the random initialisations (``init="random"``, the linear composition's noise).
    init : {"zeros", "random"}
        Primitives start at zero (the paper's setting) or at seeded N(0, 0.1²) values.
    solver : {"batched", "recursive"}
        Level-by-level batched evaluation, or one derivation and one node at a time (slow;
        the reference the batched solver is checked against).
    dtype : torch.dtype
        Precision of the optimisation.
    progress : bool
        Show a progress bar over the steps.
    device : str or torch.device
        Where to optimise: ``"cpu"`` (the default, bit-reproducible), ``"cuda"``, ``"mps"`` or
        ``"auto"`` (:func:`tutorlib.train.resolve_device`). The starting point is drawn on the
        CPU, so it is the same on every device; the results come back as NumPy arrays.
    protocol : {"converged", "release"}
        ``"converged"`` (the default) minimises the mean distance with Adam, a decaying rate and
        gradient clipping, and reports the errors after the last step: the minimum Eq. (2) asks
        for. ``"release"`` reproduces the optimisation of the paper's released code
        (``evals2.evaluate``): primitives start at zero, RMSprop at a constant ``lr`` on the
        summed distance, no clipping, and the errors reported as they stood before the last
        update; the distances are its ``"cosine"`` (vectors normalised with eps 1e-12) and
        ``"l1"``, the composition ``"additive"`` or a callable (the release's reference game
        passes a ``torch.nn.Linear`` with bias). Its values are not converged: on an exactly
        additive language with the cosine distance it stays near 0.26 from step 100 to 2,000
        (see the tests), where the default reaches 1e-8.

    Returns
    -------
    TREResult
        ``value``, ``per_datum``, ``lexicon``, ``composition_parameters``, ``losses``.
    """
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}: expected one of {', '.join(PROTOCOLS)}")
    if protocol == "release":
        if composition == "linear":
            raise ValueError("protocol='release' composes with 'additive' or a callable (the "
                             "release has no built-in linear composition)")
        if not callable(distance) and distance not in ("cosine", "l1"):
            raise ValueError(f"protocol='release' measures with 'cosine' or 'l1' (or a callable), "
                             f"got {distance!r}")
        if init != "zeros":
            raise ValueError("protocol='release' starts every primitive at zero: init must be "
                             "'zeros'")
        if not callable(distance):
            distance = _release_cosine if distance == "cosine" else l1_distance
    if not (isinstance(dtype, torch.dtype) and dtype.is_floating_point):
        raise ValueError(f"dtype must be a floating-point torch dtype (torch.float32 or "
                         f"torch.float64), got {dtype!r}")
    steps = check_scalar(steps, "steps", int, min_val=0)
    check_scalar(lr, "lr", float, min_val=0, include_boundaries="neither")
    seed = check_scalar(seed, "seed", int, min_val=0)
    derivations = list(derivations)
    target = _as_representations(representations, dtype)
    if len(derivations) == 0 or target.shape[0] == 0:
        raise ValueError("TRE needs at least one input; got no representations or no derivations")
    if len(derivations) != target.shape[0]:
        raise ValueError(f"got {target.shape[0]} representations but {len(derivations)} derivations; "
                         "there must be one derivation per representation")
    for i, d in enumerate(derivations):
        _check_derivation(d, f"derivation {i}")
    if init not in ("zeros", "random"):
        raise ValueError(f"unknown init {init!r}: expected 'zeros' or 'random'")
    if solver not in ("batched", "recursive"):
        raise ValueError(f"unknown solver {solver!r}: expected 'batched' or 'recursive'")
    measure = distance_function(distance)

    found: dict[str, None] = {}
    for d in derivations:
        _primitives(d, found)
    names = list(found)
    shape = tuple(target.shape[1:])
    generator = torch.Generator().manual_seed(seed)
    if init == "zeros":
        lexicon = torch.zeros((len(names), *shape), dtype=dtype)
    else:
        lexicon = 0.1 * torch.randn((len(names), *shape), generator=generator, dtype=dtype)
    where = resolve_device(device)
    # l1 and l2 distances and the built-in compositions commute with scaling: solve at unit scale
    scale, rescaled = 1.0, False
    if (protocol == "converged" and isinstance(distance, str) and distance in ("l1", "l2")
            and isinstance(composition, str)):
        largest = float(target.abs().max())
        scale, rescaled = (largest if largest > 0 else 1.0), True
        target = target / scale
    if protocol == "converged" and distance != "cosine":  # the cosine ignores scale
        _warn_if_out_of_reach(target, steps, lr, scale, rescaled)
    target = target.to(where)
    lexicon = lexicon.to(where).requires_grad_(True)
    if composition == "additive":
        compose: Callable = Additive()
    elif composition == "linear":
        compose = Linear(shape, generator, dtype).to(where)
    elif callable(composition):
        compose = composition
    else:
        raise ValueError(f"unknown composition {composition!r}: expected one of "
                         f"{', '.join(COMPOSITIONS)} or a callable (x, y) -> x * y on batches")
    parameters = [lexicon] + (list(compose.parameters()) if isinstance(compose, nn.Module) else [])
    if protocol == "release":
        optimizer = torch.optim.RMSprop(parameters, lr=lr)
    else:
        optimizer = torch.optim.Adam(parameters, lr=lr)
    # linear decay to 1% of lr: the L1 distance is not smooth, and at a constant learning rate
    # Adam keeps oscillating around its minimum at a distance of about lr
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: linear_decay(1.0, 0.01, step, steps + 1))

    if solver == "batched":
        plan = _Plan.build(derivations, names).to(where)
        roots = torch.tensor([plan.index[d] for d in derivations], device=where)

        def predict() -> torch.Tensor:
            return plan.evaluate(lexicon, compose)[roots]
    else:
        position = {p: i for i, p in enumerate(names)}

        def predict() -> torch.Tensor:
            return torch.cat([_evaluate_recursively(d, lexicon, position, compose)
                              for d in derivations])

    _check_callables(compose, measure, lexicon, target, plan_has_compositions=any(
        isinstance(d, tuple) for d in derivations))
    losses = np.empty(steps)
    if protocol == "release":
        per_datum = _release_steps(predict, measure, target, optimizer, losses, progress)
        return _result(per_datum, lexicon, names, compose, losses)
    with _one_thread():
        for step in progress_bar(range(steps), desc="TRE", disable=None if progress else True):
            optimizer.zero_grad()
            loss = measure(predict(), target).mean()
            loss.backward()
            # the cosine distance's gradient is huge next to a zero vector (where every primitive
            # starts); unclipped, that first gradient fills Adam's second-moment estimate and
            # freezes the optimisation for hundreds of steps
            torch.nn.utils.clip_grad_norm_(parameters, 1.0)
            optimizer.step()
            schedule.step()
            losses[step] = loss.item()
        with torch.no_grad():
            per_datum = measure(predict(), target).cpu().numpy().astype(np.float64)
    _warn_if_still_falling(losses)
    if scale != 1.0:
        with torch.no_grad():
            lexicon.mul_(scale)
        per_datum, losses = per_datum * scale, losses * scale
    return _result(per_datum, lexicon, names, compose, losses)


def _warn_if_out_of_reach(target: torch.Tensor, steps: int, lr: float, scale: float,
                          rescaled: bool) -> None:
    """Adam moves each value by about ``lr`` a step, decaying: about ``steps * lr / 2`` in all
    (on the representations divided by ``scale`` when the solver rescaled them)."""
    reach = steps * lr / 2
    largest = float(target.abs().max())
    if steps and reach < largest / 3:  # the primitives share a value between them: a third is tight
        where = f" (solved divided by their largest value, {scale:.3g})" if rescaled else ""
        warnings.warn(f"TRE: the representations reach {largest * scale:.3g}{where}, but with "
                      f"steps={steps} and lr={lr} each learned value moves at most about "
                      f"{reach * scale:.3g} in all, too little to rebuild them: TRE will be too high. "
                      "Raise lr or steps" + ("." if rescaled else
                                             ", or divide the representations by their scale."),
                      RuntimeWarning, stacklevel=4)


def _warn_if_still_falling(losses: np.ndarray) -> None:
    """Warn when the loss still fell by more than 5% (of its final value, and of what it fell in
    all) over the last tenth of the steps: the minimum of Eq. (2) was not reached."""
    if len(losses) < 20:
        return
    tail = losses[-max(2, len(losses) // 10):]
    fell, final, total = tail[0] - tail[-1], losses[-1], losses[0] - losses[-1]
    if fell > 0.05 * max(final, 1e-6) and fell > 0.05 * total:
        trajectory = ", ".join(f"{losses[i]:.4g}" for i in np.linspace(0, len(losses) - 1, 6).astype(int))
        warnings.warn(f"TRE may not have converged: the loss was still falling at the last step "
                      f"({trajectory} over {len(losses)} steps). Raise steps (or lr).",
                      RuntimeWarning, stacklevel=4)


def _result(per_datum: np.ndarray, lexicon: torch.Tensor, names: list[str], compose: Callable,
            losses: np.ndarray) -> TREResult:
    if not np.isfinite(per_datum).all():
        bad = np.flatnonzero(~np.isfinite(per_datum))
        raise ValueError(f"the distance gave {len(bad)} NaN or infinite value(s) (inputs "
                         f"{', '.join(map(str, bad[:5]))}{' ...' if len(bad) > 5 else ''}): TRE "
                         "needs a distance that is finite for every representation")
    lexicon_out = {p: lexicon[i].detach().cpu().numpy().copy() for i, p in enumerate(names)}
    learned = ({k: v.detach().cpu().numpy().copy() for k, v in compose.state_dict().items()}
               if isinstance(compose, nn.Module) else {})
    return TREResult(float(per_datum.mean()), per_datum, lexicon_out, learned, losses, compose)


def _release_cosine(predicted: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """The release's cosine distance: 1 - <p/|p|, t/|t|> with F.normalize (eps 1e-12)."""
    p = torch.nn.functional.normalize(_flat(predicted), dim=1, eps=1e-12)
    q = torch.nn.functional.normalize(_flat(target), dim=1, eps=1e-12)
    return 1.0 - (p * q).sum(dim=1)


def _release_steps(predict: Callable, measure: Callable, target: torch.Tensor,
                   optimizer: torch.optim.Optimizer, losses: np.ndarray,
                   progress: bool) -> np.ndarray:
    """The released code's loop: the summed distance, RMSprop at a constant rate, no clipping;
    the errors reported are those of the last step's forward pass, before its update."""
    with _one_thread():
        errors = measure(predict(), target)
        for step in progress_bar(range(len(losses)), desc="TRE (release protocol)",
                                 disable=None if progress else True):
            if step > 0:
                errors = measure(predict(), target)
            optimizer.zero_grad()
            loss = errors.sum()
            loss.backward()
            optimizer.step()
            losses[step] = loss.item()
        return errors.detach().cpu().numpy().astype(np.float64)


def _check_callables(compose: Callable, measure: Callable, lexicon: torch.Tensor,
                     target: torch.Tensor, plan_has_compositions: bool) -> None:
    """A composition must return one representation per pair, and a distance one number per row:
    say so here rather than fail deep inside torch (or, for a distance returning one number,
    silently give a scalar ``per_datum``)."""
    with torch.no_grad():
        if plan_has_compositions:
            pair = lexicon[:1].detach()
            try:
                out = compose(pair, pair)
            except Exception as error:  # noqa: BLE001 - reported with what was expected
                raise ValueError(f"the composition failed on a batch of shape "
                                 f"{tuple(pair.shape)}: {type(error).__name__}: {error}") from None
            if not isinstance(out, torch.Tensor) or tuple(out.shape) != tuple(pair.shape):
                shape = tuple(out.shape) if isinstance(out, torch.Tensor) else type(out).__name__
                raise ValueError(f"the composition must return a batch of the shape it is given, "
                                 f"{tuple(pair.shape)}; got {shape}")
        rows = target[:2]
        try:
            values = measure(torch.zeros_like(rows), rows)
        except Exception as error:  # noqa: BLE001
            raise ValueError(f"the distance failed on batches of shape {tuple(rows.shape)}: "
                             f"{type(error).__name__}: {error}") from None
        if not isinstance(values, torch.Tensor) or tuple(values.shape) != (rows.shape[0],):
            shape = tuple(values.shape) if isinstance(values, torch.Tensor) else type(values).__name__
            raise ValueError(f"the distance must return one distance per row, shape "
                             f"({rows.shape[0]},) for {rows.shape[0]} rows; got {shape}")


@contextmanager
def _one_thread():
    """Run torch on one thread: a TRE problem's tensors are small, and splitting each operation
    over threads costs more than it saves (10x slower with 2 threads on a busy 2-core machine)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)
