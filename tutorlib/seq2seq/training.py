"""The one trainer of every sequence-to-sequence network in the book: a
:class:`~tutorlib.seq2seq.recipe.Recipe` says how, :func:`fit` does it, :class:`TrainLog` says
what happened. The recipe lives in :mod:`~tutorlib.seq2seq.recipe`, the batches of an epoch in
:mod:`~tutorlib.seq2seq.batches`; this module holds the training step and the loop, made of
named steps: the schedule, the step, the time budget, an evaluation (with the kept model), the
stopping rule and a checkpoint.

Teacher forcing (the decoder fed the true previous token, recurrent models only: the others
are always teacher-forced) is a seeded coin per batch with probability ``teacher_forcing``, 1.0
by default (as OpenNMT and fairseq train); Lake & Baroni's 0.5 is stated where it is used.

No host synchronisation inside the loop: batch shapes are known on the host beforehand, the
loss is summed on the device and read at evaluations, and recurrent models, which pack their
inputs by length on the CPU, are given the host's lengths. On a GPU: fp32 with TF32 matrix
products by default (``precision="bf16"`` autocasts). A run can save a *checkpoint* (model,
optimiser, schedule, random state, history) at most every ``checkpoint_every`` seconds and
resume from it: a resumed run ends exactly as one that was never cut (on the CPU).

The measure of speed that matters is *time to fit*: the training seconds until the validation
accuracy first reaches :data:`FIT_SHARE` of the best it reaches (``TrainLog.seconds_to_fit``).
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import asdict, dataclass, field
from io import BytesIO
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from tutorlib.cache import atomic_write_bytes
from tutorlib.checks import check_scalar
from tutorlib.seq2seq.batches import epoch_batches, padded_share, teacher_forcing_coins
from tutorlib.seq2seq.evaluation import evaluate
from tutorlib.seq2seq.recipe import (
    BUDGETS,
    DEFAULT_POOL,
    LOSS_PER,
    PRECISIONS,
    SCHEDULES,
    TEACHER_FORCING_PER,
    Recipe,
)
from tutorlib.seq2seq.vocab import PAD, SOS, EncodedPairs, Vocabulary, encode_pairs
from tutorlib.train import progress_bar, resolve_device

STOP_REASONS = ("presentations", "patience", "max_epochs", "max_seconds", "fit")
# "time to fit": seconds until the validation accuracy first reaches this share of its best
FIT_SHARE = 0.9

__all__ = ["BUDGETS", "DEFAULT_POOL", "FIT_SHARE", "LOSS_PER", "PRECISIONS", "SCHEDULES",
           "STOP_REASONS", "TEACHER_FORCING_PER", "Recipe", "TrainLog", "epoch_batches", "fit",
           "padded_share"]


@dataclass
class TrainLog:
    """What :func:`fit` did.

    ``history`` has one row per evaluation: ``epoch``, ``step``, ``seconds`` (training time so
    far), ``loss`` (mean training loss since the last evaluation), ``train_accuracy`` and
    ``validation_accuracy`` (when there are validation pairs), and whatever ``on_evaluation``
    added. ``train_accuracy`` and ``validation_accuracy`` are the kept model's: the best on
    validation when training to convergence, the last otherwise. ``losses`` holds every step's
    training loss (not part of :meth:`to_dict`).
    """

    stopped: str
    epochs: float
    steps: int
    best_epoch: float | None
    train_accuracy: float | None
    validation_accuracy: float | None
    train_seconds: float
    evaluation_seconds: float
    pairs_per_second: float
    padded_share: float
    seconds_to_fit: float | None
    history: list[dict] = field(default_factory=list)
    losses: list[float] = field(default_factory=list, repr=False)

    def final_loss(self, window: int = 100) -> float:
        """Mean training loss of the last ``window`` steps."""
        check_scalar(window, "window", int, min_val=1)
        if not self.losses:
            raise ValueError("no training steps were logged")
        return float(np.mean(self.losses[-window:]))

    def to_dict(self) -> dict:
        """The log as plain JSON, without the per-step losses."""
        return {k: v for k, v in asdict(self).items() if k != "losses"}


def _sample(pairs: Sequence, size: int, label: str) -> list:
    pairs = list(pairs)
    if size >= len(pairs):
        return pairs
    return random.Random(label).sample(pairs, size)


def _accuracy(model: nn.Module, pairs: Sequence[tuple[str, str]], source_vocab: Vocabulary,
              target_vocab: Vocabulary, device: torch.device) -> float:
    """:func:`~tutorlib.seq2seq.evaluate`'s exact-match accuracy on ``pairs`` (NaN for none)."""
    if not pairs:
        return float("nan")
    return evaluate(model, pairs, source_vocab, target_vocab, batch_size=1000,
                    device=device).accuracy


def _state_dict_copy(model: nn.Module) -> dict:
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


# ---------------------------------------------------------------------------------------------
# The loop's named steps


@dataclass
class _Run:
    """What stays the same through one run of :func:`fit`: the model and its optimiser, the
    encoded data, the plan of steps and evaluations, and what an evaluation reads."""

    model: nn.Module
    optimizer: torch.optim.Optimizer
    recipe: Recipe
    seed: int
    rng: np.random.Generator
    device: torch.device
    autocast: AbstractContextManager
    data: EncodedPairs
    source_lengths: np.ndarray
    target_lengths: np.ndarray
    host_lengths: bool
    tokens_per_batch: float
    per_epoch: int
    num_steps: int
    evaluate_at: list[int] | None
    patience_evaluations: int
    converging: bool
    train_check: list
    validation: list
    vocabularies: tuple[Vocabulary, Vocabulary]
    on_evaluation: Callable[[nn.Module], dict] | None
    confirm: Callable[[nn.Module], bool] | None
    checkpoint: Path | None
    desc: str
    bar: object = None


def _plan(model: nn.Module, train: Sequence, validation: Sequence | None,
          vocabularies: tuple[Vocabulary, Vocabulary], recipe: Recipe, seed: int,
          device: torch.device, **hooks) -> _Run:
    """The run's fixed pieces: the data encoded and on ``device``, the optimiser, the number of
    steps and where the evaluations fall, the fit samples."""
    data = encode_pairs(train, *vocabularies, source_eos=bool(getattr(
        getattr(model, "config", None), "source_eos", False)))
    source_lengths = data.source_lengths.numpy()
    target_lengths = data.target_lengths.numpy()
    data = data.to(device)
    model.to(device)
    # foreach: one multi-tensor update for all parameters (the same numbers, fewer calls)
    optimizer = torch.optim.Adam(model.parameters(), lr=recipe.learning_rate,
                                 betas=recipe.betas, foreach=True)
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True  # fp32 work on the matrix units
        torch.backends.cudnn.allow_tf32 = True
    train_check = _sample(train, recipe.fit_size, f"fit-train-{len(train)}")
    validation = (_sample(validation, recipe.fit_size, f"fit-validation-{len(validation)}")
                  if validation else [])
    size = min(recipe.batch_size, len(data))
    per_epoch = math.ceil(len(data) / size)
    if recipe.evaluate_every is not None:
        evaluate_at = None
    else:
        evaluate_at = sorted({max(1, round(per_epoch * (i + 1) / recipe.evaluations_per_epoch))
                              for i in range(recipe.evaluations_per_epoch)})
    return _Run(
        model=model, optimizer=optimizer, recipe=recipe, seed=seed,
        rng=np.random.default_rng([seed, 7919]), device=device,
        autocast=(torch.autocast(device.type, dtype=torch.bfloat16)
                  if recipe.precision == "bf16" else nullcontext()),
        data=data, source_lengths=source_lengths, target_lengths=target_lengths,
        # recurrent encoders pack by length on the CPU: give them the host's lengths (no wait)
        host_lengths=bool(getattr(model, "host_lengths", False)),
        # loss_per="token": every step divides its summed loss by one number, the target
        # tokens of an average batch, so every token weighs the same (and the step's scale
        # stays that of a mean)
        tokens_per_batch=float(target_lengths.mean()) * size, per_epoch=per_epoch,
        num_steps=recipe.steps(len(data)) or recipe.max_epochs * per_epoch,
        evaluate_at=evaluate_at,
        patience_evaluations=recipe.patience * (len(evaluate_at) if evaluate_at else
                                                max(1, per_epoch // recipe.evaluate_every)),
        converging=recipe.presentations is None, train_check=train_check,
        validation=validation, vocabularies=vocabularies, **hooks)


class _Clock:
    """The run's training seconds (kept in ``state``) on the host's clock: it counts from the
    last :meth:`restart`."""

    def __init__(self, state: dict) -> None:
        self.state = state
        self.restart()

    def restart(self) -> None:
        self.started = time.perf_counter()

    def elapsed(self) -> float:
        """The training seconds so far, the current stretch included."""
        return self.state["train_seconds"] + time.perf_counter() - self.started

    def stop(self) -> None:
        """Add the current stretch to the training seconds."""
        self.state["train_seconds"] += time.perf_counter() - self.started


def _new_epoch(run: _Run, state: dict) -> tuple[list, list]:
    """The epoch's batches and teacher-forcing coins; their padding joins the state."""
    batches = epoch_batches(run.recipe, run.target_lengths, run.source_lengths, rng=run.rng,
                            seed=run.seed, epoch=state["epoch"])
    coins = teacher_forcing_coins(run.recipe, batches, run.rng, run.seed, state["epoch"] * run.per_epoch)
    state["padding"].append(padded_share(batches, run.source_lengths, run.target_lengths))
    return batches, coins


def _batch_tensors(run: _Run, index: torch.Tensor, batch: np.ndarray) -> tuple:
    """One batch's source, lengths, decoder input and target, cut to its longest pair (the
    lengths are known on the host: no wait for the device)."""
    data = run.data
    source = data.source[index, :int(run.source_lengths[batch].max())]
    target = data.target[index, :int(run.target_lengths[batch].max())]
    target_in = torch.cat([torch.full_like(target[:, :1], SOS), target[:, :-1]], 1)
    lengths = (torch.from_numpy(run.source_lengths[batch]) if run.host_lengths
               else data.source_lengths[index])
    return source, lengths, target_in, target


def _train_step(run: _Run, tensors: tuple, forced: bool | torch.Tensor, step: int) -> torch.Tensor:
    """Optimiser step ``step`` on one batch, at the schedule's learning rate; its loss,
    detached and left on the device."""
    model, optimizer, recipe = run.model, run.optimizer, run.recipe
    source, lengths, target_in, target = tensors
    for group in optimizer.param_groups:  # a function of the step: resuming is exact
        group["lr"] = recipe.learning_rate_at(step, run.num_steps)
    optimizer.zero_grad(set_to_none=True)
    with run.autocast:
        logits = model(source, lengths, target_in, teacher_forcing=forced)
        if recipe.loss_per == "token":
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(),
                                   target.reshape(-1), ignore_index=PAD,
                                   reduction="sum") / run.tokens_per_batch
        else:
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(),
                                   target.reshape(-1), ignore_index=PAD)
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), recipe.clip_norm)
    optimizer.step()
    return loss.detach()


def _step(run: _Run, state: dict, batch: np.ndarray, index: torch.Tensor, coin, b: int,
          losses: torch.Tensor, loss_sum: torch.Tensor) -> None:
    """Train on batch ``b`` of the epoch (pairs ``batch``, at ``index`` on the device) and
    count it: its loss into ``losses`` and ``loss_sum``, the step into ``state``."""
    tensors = _batch_tensors(run, index, batch)
    forced = (torch.from_numpy(coin).to(run.device) if isinstance(coin, np.ndarray)
              else bool(coin))
    loss = _train_step(run, tensors, forced, state["step"])
    losses[state["step"]] = loss
    loss_sum += loss
    state.update(loss_count=state["loss_count"] + 1, pairs_seen=state["pairs_seen"] + len(batch),
                 step=state["step"] + 1, batch=b + 1)


def _spent(recipe: Recipe, train_seconds: float, evaluation_seconds: float) -> float:
    """The seconds ``max_seconds`` counts: training, plus evaluations with ``budget="wall"``."""
    return train_seconds + (evaluation_seconds if recipe.budget == "wall" else 0.0)


def _out_of_time(recipe: Recipe, train_seconds: float, evaluation_seconds: float) -> bool:
    """Whether the time budget is spent (never without ``max_seconds``)."""
    return (recipe.max_seconds is not None
            and _spent(recipe, train_seconds, evaluation_seconds) >= recipe.max_seconds)


def _fit_bar_to_budget(run: _Run, state: dict, elapsed: float, first: tuple[int, float]) -> None:
    """Every 50 steps of a run with a budget: the bar's total becomes the steps the budget
    leaves room for, at the rate since ``first`` (step, seconds)."""
    step, recipe = state["step"], run.recipe
    if recipe.max_seconds is not None and step % 50 == 0 and elapsed > 0:
        rate = (step - first[0]) / max(elapsed - first[1], 1e-9)
        left = recipe.max_seconds - _spent(recipe, elapsed, state["evaluation_seconds"])
        run.bar.total = max(step, min(run.num_steps, int(step + rate * max(left, 0.0))))


def _due(run: _Run, step: int, b: int, last: bool) -> bool:
    """Whether an evaluation is due after ``step`` (batch ``b`` of its epoch, from 0): one is
    where the recipe places them and there is something to evaluate, and after the last."""
    if not (run.converging or run.validation or run.on_evaluation is not None):
        return last
    if run.evaluate_at is None:
        return step % run.recipe.evaluate_every == 0 or last
    return b + 1 in run.evaluate_at or last


def _mean_loss(run: _Run, state: dict, loss_sum: torch.Tensor) -> float:
    """The mean training loss since the last evaluation (read from the device, then reset);
    an error if it is not finite."""
    mean_loss = float(loss_sum) / max(state["loss_count"], 1)
    if not math.isfinite(mean_loss):
        raise FloatingPointError(f"{run.desc}: the training loss became {mean_loss} in "
                                 f"epoch {state['epoch'] + 1} (step {state['step']})")
    loss_sum.zero_()
    state["loss_count"] = 0
    return mean_loss


def _score(run: _Run, state: dict, row: dict, mean_loss: float) -> None:
    """Complete ``row`` with the fit on the training and validation samples and
    ``on_evaluation``'s numbers, and add it to the history; training to convergence, keep the
    best model on validation so far."""
    model = run.model
    model.eval()
    if run.validation:
        row["train_accuracy"] = _accuracy(model, run.train_check, *run.vocabularies, run.device)
        row["validation_accuracy"] = _accuracy(model, run.validation, *run.vocabularies,
                                               run.device)
    if run.on_evaluation is not None:
        row.update(run.on_evaluation(model))
    state["history"].append(row)
    if run.converging:
        if row["validation_accuracy"] > state["best_accuracy"]:
            state.update(best_accuracy=row["validation_accuracy"], best_row=row, bad=0,
                         best_state=_state_dict_copy(model))
        else:
            state["bad"] += 1
        run.bar.set_postfix(loss=f"{mean_loss:.3f}", train=f"{row['train_accuracy']:.2f}",
                            valid=f"{row['validation_accuracy']:.2f}")
    else:
        run.bar.set_postfix(loss=f"{mean_loss:.3f}")
    model.train()


def _fits(run: _Run, state: dict, clock: _Clock, row: dict) -> bool:
    """Whether the evaluation ``row`` reaches both bars of ``stop_at`` and, where given,
    ``confirm`` accepts the model (the gate as the report measures it; its time counts as
    evaluation)."""
    recipe = run.recipe
    reached = (run.converging and recipe.stop_at is not None
               and row["train_accuracy"] >= recipe.stop_at[0]
               and row["validation_accuracy"] >= recipe.stop_at[1])
    if reached and run.confirm is not None:
        tick = time.perf_counter()
        run.model.eval()
        reached = bool(run.confirm(run.model))
        run.model.train()
        row["confirmed"] = reached
        state["evaluation_seconds"] += time.perf_counter() - tick
        clock.restart()
    return reached


def _stop_reason(run: _Run, state: dict, fits: bool, out_of_time: bool, last: bool) -> str | None:
    """The stopping rule after an evaluation: why the run stops (one of
    :data:`STOP_REASONS`), or None when it goes on."""
    recipe = run.recipe
    if fits:
        return "fit"
    if run.converging and recipe.stop_at is None and state["bad"] >= run.patience_evaluations:
        return "patience"
    if out_of_time or (recipe.budget == "wall" and _out_of_time(
            recipe, state["train_seconds"], state["evaluation_seconds"])):
        return "max_seconds"
    if last:
        return state["stopped"]  # "presentations" or "max_epochs"
    return None


def _evaluate(run: _Run, state: dict, clock: _Clock, loss_sum: torch.Tensor, b: int,
              out_of_time: bool, last: bool) -> str | None:
    """An evaluation after batch ``b`` (the only place the loop waits for the device), the
    model kept if it fits, and the stopping rule: why the run stops, or None."""
    if run.device.type == "cuda":
        torch.cuda.synchronize(run.device)
    clock.stop()
    tick = time.perf_counter()
    mean_loss = _mean_loss(run, state, loss_sum)
    row = {"epoch": round(state["epoch"] + (b + 1) / run.per_epoch, 4), "step": state["step"],
           "seconds": round(state["train_seconds"], 2), "loss": round(mean_loss, 5)}
    _score(run, state, row, mean_loss)
    state["evaluation_seconds"] += time.perf_counter() - tick
    clock.restart()
    fits = _fits(run, state, clock, row)
    if fits:  # keep this model, the first that passed
        state.update(best_row=row, best_state=_state_dict_copy(run.model))
    return _stop_reason(run, state, fits, out_of_time, last)


def _save_checkpoint(run: _Run, state: dict, losses: torch.Tensor, loss_sum: torch.Tensor,
                     batches: list, coins: list) -> None:
    """Write the run's state (model, optimiser, random state, loop state, losses, the epoch's
    batches and coins) to its checkpoint atomically."""
    device = run.device
    payload = {"model": run.model.state_dict(), "optimizer": run.optimizer.state_dict(),
               "rng": run.rng.bit_generator.state, "torch_rng": torch.get_rng_state(),
               "cuda_rng": torch.cuda.get_rng_state(device) if device.type == "cuda" else None,
               "state": state, "losses": losses[: state["step"]].cpu(),
               "loss_sum": float(loss_sum), "batches": batches, "coins": coins,
               "recipe": run.recipe.to_dict(), "seed": run.seed}
    run.checkpoint.parent.mkdir(parents=True, exist_ok=True)
    buffer = BytesIO()
    torch.save(payload, buffer)
    atomic_write_bytes(run.checkpoint, buffer.getvalue())


def _resume(run: _Run, losses: torch.Tensor, loss_sum: torch.Tensor) -> tuple:
    """Load the run's checkpoint into the model, optimiser, generators and ``loss_sum``; the
    loop state, the losses so far, and the epoch's batches and coins. An error when the
    checkpoint is another run's."""
    device, path = run.device, run.checkpoint
    saved = torch.load(path, map_location=device, weights_only=False)
    if saved.get("recipe") != run.recipe.to_dict() or saved.get("seed") != run.seed:
        raise ValueError(f"the checkpoint {path} is of another run (recipe "
                         f"{saved.get('recipe')}, seed {saved.get('seed')}); remove it or "
                         f"give this run another checkpoint path")
    run.model.load_state_dict(saved["model"])
    run.optimizer.load_state_dict(saved["optimizer"])
    run.rng.bit_generator.state = saved["rng"]
    torch.set_rng_state(saved["torch_rng"])
    if device.type == "cuda" and saved.get("cuda_rng") is not None:
        torch.cuda.set_rng_state(saved["cuda_rng"], device)
    state = saved["state"]
    losses = torch.zeros(max(len(losses), state["step"] + run.per_epoch), device=device)
    losses[: state["step"]] = saved["losses"].to(device)
    loss_sum.fill_(saved["loss_sum"])
    return state, losses, saved["batches"], saved["coins"]


def _train_log(run: _Run, state: dict, losses: torch.Tensor) -> TrainLog:
    """The run's log, from the loop's final state."""
    history = state["history"]  # never empty: the last step is evaluated
    kept = state["best_row"] if run.converging else history[-1]
    seconds_to_fit = None
    if run.validation:
        target = FIT_SHARE * max(r["validation_accuracy"] for r in history)
        seconds_to_fit = next(r["seconds"] for r in history if r["validation_accuracy"] >= target)
    return TrainLog(
        stopped=state["stopped"], epochs=history[-1]["epoch"], steps=state["step"],
        best_epoch=kept.get("epoch"),
        train_accuracy=kept.get("train_accuracy"),
        validation_accuracy=kept.get("validation_accuracy"),
        train_seconds=round(state["train_seconds"], 2),
        evaluation_seconds=round(state["evaluation_seconds"], 2),
        pairs_per_second=round(state["pairs_seen"] / max(state["train_seconds"], 1e-9), 1),
        padded_share=round(float(np.mean(state["padding"])), 4), seconds_to_fit=seconds_to_fit,
        history=history, losses=losses[: state["step"]].tolist())


def fit(model: nn.Module, train: Sequence[tuple[str, str]], source_vocab: Vocabulary,
        target_vocab: Vocabulary, recipe: Recipe, *, seed: int,
        validation: Sequence[tuple[str, str]] | None = None,
        device: str | torch.device = "cpu",
        on_evaluation: Callable[[nn.Module], dict] | None = None,
        confirm: Callable[[nn.Module], bool] | None = None,
        checkpoint: str | os.PathLike | None = None, checkpoint_every: float = 60.0,
        desc: str = "training") -> TrainLog:
    """Train ``model`` on ``train`` as ``recipe`` says, and leave it in eval mode holding the
    kept weights (the best on validation when training to convergence, else the last).

    Parameters
    ----------
    model : torch.nn.Module
        From :func:`tutorlib.seq2seq.build_model` (initialised: seed first); moved to ``device``.
    train : sequence of (str, str)
        Training pairs.
    source_vocab, target_vocab : Vocabulary
        The vocabularies.
    recipe : Recipe
        Batches, optimiser, schedule, stopping rule, precision.
    seed : int
        Seeds the order of the batches and the teacher-forcing coins.
    validation : sequence of (str, str), optional
        In-distribution validation pairs (not trained on); training to convergence needs them.
    device : str or torch.device
        ``"cpu"`` (bit-reproducible), ``"cuda"``, ``"mps"`` or ``"auto"``.
    on_evaluation : callable ``model -> dict``, optional
        Called at every evaluation (model in eval mode); its numbers join that history row.
    confirm : callable ``model -> bool``, optional
        With ``recipe.stop_at``: called (model in eval mode) when an evaluation's samples reach
        both bars; training stops there only if it returns True (e.g. the fit gate on the
        larger sample the run's report reads), else it goes on. Its time counts as evaluation.
    checkpoint : str or path, optional
        A file to save the run's state to at most every ``checkpoint_every`` training seconds,
        and to resume from when it exists; removed when the run ends.
    checkpoint_every : float
        Seconds between checkpoints.
    desc : str
        The progress bar's label.

    Returns
    -------
    TrainLog
        Where and why it stopped, the kept model's fit, timings and the history.
    """
    if not isinstance(recipe, Recipe):
        raise ValueError(f"recipe must be a Recipe, got {type(recipe).__name__}")
    if not train:
        raise ValueError("no training pairs")
    if confirm is not None and recipe.stop_at is None:
        raise ValueError("confirm is a check (model -> bool) for a recipe with stop_at; this "
                         "recipe has no stop_at")
    if recipe.presentations is None and not validation:
        raise ValueError("training to convergence needs validation pairs (the stopping rule "
                         "reads them); or give the recipe presentations")
    check_scalar(seed, "seed", int, min_val=0, max_val=2**63 - 1)
    check_scalar(checkpoint_every, "checkpoint_every", float, min_val=0)
    run = _plan(model, train, validation, (source_vocab, target_vocab), recipe, seed,
                resolve_device(device), on_evaluation=on_evaluation, confirm=confirm,
                checkpoint=Path(checkpoint) if checkpoint is not None else None, desc=desc)
    state = {"epoch": 0, "batch": 0, "step": 0, "train_seconds": 0.0, "evaluation_seconds": 0.0,
             "best_accuracy": -1.0, "best_state": None, "best_row": None, "bad": 0,
             "padding": [], "loss_count": 0, "pairs_seen": 0, "history": [],
             "stopped": "presentations" if not run.converging else "max_epochs"}
    # every step's loss, on the device (no wait to read it), in a buffer that grows by epochs
    losses = torch.zeros(min(run.num_steps, 2 * run.per_epoch), device=run.device)
    loss_sum = torch.zeros((), device=run.device)
    batches = coins = None
    if run.checkpoint is not None and run.checkpoint.exists():
        state, losses, batches, coins = _resume(run, losses, loss_sum)
    run.bar = progress_bar(total=run.num_steps, desc=desc, initial=state["step"])
    first, last_saved = (state["step"], state["train_seconds"]), state["train_seconds"]
    max_epochs, reason = math.ceil(run.num_steps / run.per_epoch), None
    while state["epoch"] < max_epochs and reason is None:
        if batches is None:  # a new epoch (a resumed one has its batches)
            batches, coins = _new_epoch(run, state)
        flat = torch.from_numpy(np.concatenate(batches)).to(run.device)  # one copy an epoch
        if len(losses) < min(run.num_steps, state["step"] + len(batches)):
            losses = torch.cat([losses, torch.zeros(len(losses) + len(batches), device=run.device)])
        offsets = np.cumsum([0] + [len(b) for b in batches])
        clock = _Clock(state)
        model.train()
        for b in range(state["batch"], len(batches)):
            _step(run, state, batches[b], flat[offsets[b]:offsets[b + 1]], coins[b], b, losses,
                  loss_sum)
            run.bar.update(1)
            # the budget is checked every step on the host's clock (no wait for the device),
            # and a run that reaches it is evaluated at once
            elapsed = clock.elapsed()
            out_of_time = _out_of_time(recipe, elapsed, state["evaluation_seconds"])
            _fit_bar_to_budget(run, state, elapsed, first)
            last = state["step"] >= run.num_steps
            if _due(run, state["step"], b, last) or out_of_time:
                reason = _evaluate(run, state, clock, loss_sum, b, out_of_time, last)
                if reason is not None:
                    state["stopped"] = reason
                    break
            elif run.checkpoint is not None and elapsed - last_saved >= checkpoint_every:
                state["train_seconds"] = elapsed
                clock.restart()
                _save_checkpoint(run, state, losses, loss_sum, batches, coins)
                last_saved = state["train_seconds"]
        else:  # the epoch ran to its end
            clock.stop()
            state.update(epoch=state["epoch"] + 1, batch=0)
            batches = None
    run.bar.total = run.bar.n  # the run is over: the bar ends full, where it stopped
    run.bar.refresh()
    run.bar.close()
    if run.checkpoint is not None and run.checkpoint.exists():
        run.checkpoint.unlink()
    if run.converging:
        model.load_state_dict(state["best_state"])
    model.eval()
    return _train_log(run, state, losses)
