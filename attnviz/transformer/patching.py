"""Activation patching: which heads and positions carry the answer (Wang et al. 2022; Meng et
al. 2022's causal tracing; TransformerLens's `patching`).

The model reads a corrupted prompt with one activation taken from its run on the clean prompt;
each value is the share of the logit difference that patch recovers, `(LD_patched -
LD_corrupted) / (LD_clean - LD_corrupted)` with `LD = logit[answer] - logit[wrong]` at the last
position: 0 is the corrupted run, 1 the clean run. The sites: each head's output (its slice of
the output projection's input, where `interventions` ablates it), the residual stream entering
each layer (the decoder layer's first argument), each layer's attention and MLP outputs before
their residual adds.

Shape letters: L layers, H heads, T tokens, p the first position where the prompts differ,
S = T - p the positions recomputed, B sites a forward, d the hidden size. Positions before p
are the same in both runs (the model is causal): a patch there changes nothing, those cells are
exactly 0. A site at layer l starts from the corrupted run's residual entering l at positions
p.. over the shared prefix's key/value cache, runs layers l.. only and reads the final hidden
state at the last position against two unembedding rows.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import torch

from attnviz.errors import InputError
from attnviz.i18n import Term
from attnviz.transformer.generation import prompt_ids
from attnviz.transformer.hooks import mine
from attnviz.transformer.interventions import projections
from attnviz.transformer.lens import final_norm

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoder

PatchProgress = Callable[[float], None]  # the share of the grid's work done, after each forward
PatchStop = Callable[[], bool]  # True ends the run: the cells it did not reach stay NaN
BATCH_SIZE = 16  # sites of one layer run in one forward
MIN_DIFFERENCE = 1e-3  # |LD_clean - LD_corrupted| below this leaves nothing to recover
_SEEN = ("residual", "attention", "mlp", "head")
_MODULE = {"head": 0, "attention": 1, "mlp": 2}  # where in a layer's (projection, attention, mlp)


@dataclass(frozen=True)
class _Call:
    """A decoder layer's arguments besides the residual stream, as the model passed them."""

    args: tuple[Any, ...]  # after the hidden states (GPT-2 passes its cache and mask so)
    kwargs: dict[str, Any]
    positional: bool  # the hidden states came first, else as `hidden_states=`

    def __call__(self, layer: Any, hidden: torch.Tensor, old: Any, new: Any) -> torch.Tensor:
        """`layer` run on `hidden` with the cache `old` replaced by `new`."""
        args = tuple(new if old is not None and value is old else value for value in self.args)
        kwargs = {k: new if old is not None and v is old else v for k, v in self.kwargs.items()}
        if self.positional:
            return _first(layer(hidden, *args, **kwargs))
        return _first(layer(*args, hidden_states=hidden, **kwargs))


def _first(output: Any) -> torch.Tensor:
    return output[0] if isinstance(output, tuple) else output


@dataclass(frozen=True)
class _Run:
    """One prompt's positions p.. read over the prefix cache: what each layer saw."""

    # kind -> L x (S, d): "residual" entering each layer, "attention" and "mlp" outputs before
    # their adds; "head": L x (S, H * d_head), the output projection's input
    seen: dict[str, list[torch.Tensor]]
    calls: list[_Call]  # each layer's other arguments (mask, rotary, cache)
    cache: Any  # the cache object those arguments hold, replaced by each batch's own
    last: torch.Tensor  # (d,) the final hidden state at the last position, normed


@dataclass(frozen=True)
class _Setup:
    layers: Any  # the decoder layers, in order
    norm: Any  # the final norm
    sites: list[tuple[Any, Any, Any]]  # each layer's (output projection, attention, MLP)
    direction: torch.Tensor  # (d,) the answer's unembedding row minus the wrong one's
    bias: float
    first: int  # p
    tokens: int  # T
    heads: int  # H
    prefix: Any  # the shared prefix's key/value cache, or None when p == 0
    clean: _Run
    corrupted: _Run
    ld_clean: float
    ld_corrupted: float


def _child(module: Any, names: Sequence[str]) -> Any:
    for name in names:
        found = getattr(module, name, None)
        if isinstance(found, torch.nn.Module):
            return found
    return None


def _parts(encoder: Encoder) -> tuple[Any, Any, list[tuple[Any, Any, Any]]]:
    """The decoder layers, the final norm and each layer's (output projection, attention, MLP);
    InputError for an encoder, or a family whose parts attnviz does not find."""
    if encoder.kind != "decoder":
        raise InputError("patching_needs_decoder", kind=encoder.kind)
    base = encoder.model.base_model
    layers = _child(base, ("layers", "h"))
    try:
        norm = final_norm(encoder)
    except InputError:
        norm = None
    if layers is None or norm is None or len(layers) != encoder.num_layers:
        raise InputError("patching_unsupported", model_type=encoder.model_type)
    found = [
        (_child(layer, ("self_attn", "attn", "attention")), _child(layer, ("mlp",)))
        for layer in layers
    ]
    if any(attention is None or mlp is None for attention, mlp in found):
        raise InputError("patching_unsupported", model_type=encoder.model_type)
    try:
        heads = projections(encoder)
    except InputError:
        raise InputError("patching_unsupported", model_type=encoder.model_type) from None
    sites = [(p, a, m) for p, (a, m) in zip(heads, found, strict=True)]
    return layers, norm, sites


def _one_token(encoder: Encoder, text: str) -> int:
    if not text:
        raise InputError("patching_answer_empty")
    with encoder.tokenizer_lock:
        ids = list(encoder.tokenizer(text, add_special_tokens=False)["input_ids"])
    if len(ids) != 1:
        shown = " + ".join(repr(encoder.readable_piece(i)) for i in ids)
        raise InputError("patching_answer_pieces", text=text, count=len(ids), pieces=shown)
    return int(ids[0])


def _first_difference(clean: list[int], corrupted: list[int]) -> int:
    pairs = enumerate(zip(clean, corrupted, strict=False))
    return next((i for i, (a, b) in pairs if a != b), min(len(clean), len(corrupted)))


def _batched_cache(prefix: Any, batch: int) -> Any:
    """A copy of the prefix cache for `batch` rows (each forward appends to its own)."""
    if prefix is None:
        return None
    cache = copy.deepcopy(prefix)
    cache.batch_repeat_interleave(batch)
    return cache


def _record(setup_sites: list[tuple[Any, Any, Any]], layers: Any) -> tuple[list[Any], dict]:
    """Hooks recording, for batch row 0, each layer's input and kwargs, its attention and MLP
    outputs and its output projection's input."""
    seen: dict[str, list[Any]] = {key: [] for key in (*_SEEN, "calls")}

    def pre(_m: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        kwargs = dict(kwargs)
        hidden = args[0] if args else kwargs.pop("hidden_states")
        seen["residual"].append(hidden[0])
        seen["calls"].append(_Call(tuple(args[1:]), kwargs, bool(args)))

    def keep(kind: str) -> Callable[..., None]:
        def hook(_m: Any, _args: Any, output: Any) -> None:
            seen[kind].append(_first(output)[0])

        return hook

    def keep_head(_m: Any, args: tuple[Any, ...]) -> None:
        seen["head"].append(args[0][0])

    handles = []
    for layer, (projection, attention, mlp) in zip(layers, setup_sites, strict=True):
        handles.append(layer.register_forward_pre_hook(mine(pre), with_kwargs=True))
        handles.append(projection.register_forward_pre_hook(mine(keep_head)))
        handles.append(attention.register_forward_hook(mine(keep("attention"))))
        handles.append(mlp.register_forward_hook(mine(keep("mlp"))))
    return handles, seen


def _read(
    encoder: Encoder, parts: tuple[Any, Any, Any], ids: list[int], start: int, prefix: Any
) -> _Run:
    """One prompt's positions start.. over the prefix cache, every site recorded."""
    layers, _norm, sites = parts
    handles, seen = _record(sites, layers)
    cache = _batched_cache(prefix, 1)
    try:
        with torch.inference_mode():
            out = encoder.model.base_model(
                input_ids=torch.tensor([ids[start:]]), cache=cache, use_cache=cache is not None
            )
    finally:
        for handle in handles:
            handle.remove()
    last = out.last_hidden_state[0, -1]
    calls = seen.pop("calls")
    return _Run(seen, calls, cache, last)


def _prefix_cache(encoder: Encoder, ids: list[int], start: int) -> Any:
    if start == 0:
        return None
    with torch.inference_mode():
        out = encoder.model.base_model(input_ids=torch.tensor([ids[:start]]), use_cache=True)
    return out.cache


def _setup(encoder: Encoder, clean: str, corrupted: str, answer: str, wrong: str) -> _Setup:
    """Both prompts read once, checked; InputError for what patching cannot use."""
    parts = _parts(encoder)
    answer_id = _one_token(encoder, answer)
    wrong_id = _one_token(encoder, wrong)
    clean_ids = prompt_ids(encoder, clean, Term("parse.which.clean"))
    corrupted_ids = prompt_ids(encoder, corrupted, Term("parse.which.corrupted"))
    first = _first_difference(clean_ids, corrupted_ids)
    if len(clean_ids) != len(corrupted_ids):
        raise InputError(
            "patching_lengths", clean=len(clean_ids), corrupted=len(corrupted_ids), position=first
        )
    start = min(first, len(clean_ids) - 1)  # identical prompts: the last position, read anyway
    prefix = _prefix_cache(encoder, corrupted_ids, start)
    unembed = encoder.model.get_output_embeddings()
    direction = (unembed.weight[answer_id] - unembed.weight[wrong_id]).detach().float()
    bias = getattr(unembed, "bias", None)
    runs = [_read(encoder, parts, ids, start, prefix) for ids in (clean_ids, corrupted_ids)]
    offset = 0.0 if bias is None else float(bias[answer_id] - bias[wrong_id])
    ld_clean, ld_corrupted = (float(run.last.float() @ direction) + offset for run in runs)
    if abs(ld_clean - ld_corrupted) < MIN_DIFFERENCE:
        raise InputError(
            "patching_nothing", clean=f"{ld_clean:+.4f}", corrupted=f"{ld_corrupted:+.4f}"
        )
    layers, norm, sites = parts
    return _Setup(
        layers=layers, norm=norm, sites=sites, direction=direction, bias=offset, first=start,
        tokens=len(clean_ids), heads=encoder.num_heads, prefix=prefix, clean=runs[0],
        corrupted=runs[1], ld_clean=ld_clean, ld_corrupted=ld_corrupted,
    )  # fmt: skip


def _patch_hook(kind: str, rows: torch.Tensor, sites: Sequence[int], heads: int) -> Any:
    """A hook that writes, in batch row b, the clean activation of site `sites[b]`: a head's
    slice of the projection's input at every position (a pre-hook), or one position of the
    attention's or MLP's output (a forward hook). `rows` is the clean run's (S, ...) tensor."""

    def patched(x: torch.Tensor) -> torch.Tensor:
        x = x.clone()  # (B, S, d)
        size = x.shape[-1] // heads
        for b, site in enumerate(sites):
            if kind == "head":
                x[b, :, site * size : (site + 1) * size] = rows[:, site * size : (site + 1) * size]
            else:
                x[b, site] = rows[site]
        return x

    if kind == "head":
        return lambda _m, args: (patched(args[0]), *args[1:])

    def post(_m: Any, _args: Any, output: Any) -> Any:
        return (patched(output[0]), *output[1:]) if isinstance(output, tuple) else patched(output)

    return post


def _patched_lds(setup: _Setup, kind: str, layer: int, sites: Sequence[int]) -> torch.Tensor:
    """(B,) logit differences of the corrupted run with each site of `layer` patched, one a
    batch row: layers `layer`.. run on positions p.. over the prefix cache."""
    batch = len(sites)
    hidden = setup.corrupted.seen["residual"][layer].expand(batch, -1, -1).clone()  # (B, S, d)
    handles = []
    if kind == "residual":
        for b, site in enumerate(sites):
            hidden[b, site] = setup.clean.seen["residual"][layer][site]
    else:
        module = setup.sites[layer][_MODULE[kind]]
        rows = setup.clean.seen[kind][layer]
        hook = _patch_hook(kind, rows, sites, setup.heads)
        if kind == "head":
            handles.append(module.register_forward_pre_hook(mine(hook)))
        else:
            handles.append(module.register_forward_hook(mine(hook)))
    cache = _batched_cache(setup.prefix, batch)
    try:
        with torch.inference_mode():
            for index in range(layer, len(setup.layers)):
                call = setup.corrupted.calls[index]
                hidden = call(setup.layers[index], hidden, setup.corrupted.cache, cache)
            last = setup.norm(hidden[:, -1])  # (B, d)
    finally:
        for handle in handles:
            handle.remove()
    return last.float() @ setup.direction + setup.bias  # (B,) logit differences


def _grid(
    setup: _Setup,
    kind: str,
    *,
    batch_size: int = BATCH_SIZE,
    progress: PatchProgress | None = None,
    stop: PatchStop | None = None,
) -> torch.Tensor:
    """The (L, H) or (L, T) grid of shares recovered; positions before p are 0, and a stopped
    run leaves the cells it did not reach NaN."""
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be a whole number >= 1, got {batch_size!r}")
    count = len(setup.layers)
    if kind == "head":
        grid = torch.full((count, setup.heads), float("nan"))
        sites = list(range(setup.heads))
    else:
        grid = torch.zeros(count, setup.tokens)
        grid[:, setup.first :] = float("nan")
        sites = list(range(setup.tokens - setup.first))  # positions from p, as offsets
    step = batch_size
    jobs = [
        (layer, sites[i : i + step]) for layer in range(count) for i in range(0, len(sites), step)
    ]
    work = [(count - layer) * len(chunk) for layer, chunk in jobs]  # layers run x rows
    done = 0
    for (layer, chunk), cost in zip(jobs, work, strict=True):
        if stop is not None and stop():
            break
        lds = _patched_lds(setup, kind, layer, chunk)
        shares = (lds - setup.ld_corrupted) / (setup.ld_clean - setup.ld_corrupted)
        offset = 0 if kind == "head" else setup.first
        grid[layer, [offset + site for site in chunk]] = shares
        done += cost
        if progress is not None:
            progress(done / sum(work))
    return grid


def logit_differences(
    encoder: Encoder, clean: str, corrupted: str, *, answer: str, wrong: str
) -> tuple[float, float]:
    """`logit[answer] - logit[wrong]` at the last position of the clean and corrupted runs;
    InputError as the grids give it."""
    setup = _setup(encoder, clean, corrupted, answer, wrong)
    return setup.ld_clean, setup.ld_corrupted


OPTIONS = (
    "`batch_size` sites of one layer run in one forward, `progress(share)` after each forward, "
    "and a `stop()` that returns True ends the run with the cells it did not reach NaN."
)


def _grid_function(kind: str, doc: str) -> Callable[..., torch.Tensor]:
    """The public grid function of `kind`, named `<kind>_patching`."""

    def patching(
        encoder: Encoder, clean: str, corrupted: str, *, answer: str, wrong: str,
        batch_size: int = BATCH_SIZE, progress: PatchProgress | None = None,
        stop: PatchStop | None = None,
    ) -> torch.Tensor:  # fmt: skip
        setup = _setup(encoder, clean, corrupted, answer, wrong)
        return _grid(setup, kind, batch_size=batch_size, progress=progress, stop=stop)

    patching.__name__ = patching.__qualname__ = f"{kind}_patching"
    patching.__doc__ = f"{doc} {OPTIONS}"
    return patching


head_patching = _grid_function(
    "head",
    "(L, H) float32: the share of the logit difference recovered when one head's output, at "
    "every position, is the clean run's.",
)
residual_patching = _grid_function(
    "residual",
    "(L, T) float32: the share recovered when the residual stream entering layer l at position "
    "t is the clean run's (row 0: the embeddings' output); 0 before the first difference.",
)
attention_patching = _grid_function(
    "attention",
    "(L, T) float32: the share recovered when layer l's self-attention output (after its "
    "output projection, before the residual add) at position t is the clean run's.",
)
mlp_patching = _grid_function(
    "mlp",
    "(L, T) float32: the share recovered when layer l's MLP output (before the residual add) "
    "at position t is the clean run's.",
)
