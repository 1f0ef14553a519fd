"""What a line of the student's that raised may have assumed of an attention case: the properties the engine's crash
search tries (``autograder/suite/graded/crashes.py``), most specific first.

Each is ``(mistake or None, what the line assumed in the case's terms, how the probe rewrites the case, rewrite)``,
listed only when the case breaks it: another number of leading axes, as many queries as keys, d_v = d_k, the
heads' widths and number, the mask's head axis, a mask with a batch axis, written out in full, shared by the batch
or of one row per sequence (read as key padding), a 0/1 mask, a mask given (or none, for a line that reads the mask
as one truth value) or whole positions, the contract's defaults given, a number of tokens read off the exception's
shapes (exactly that many, or at most), and last the widths that hold only together (heads of D // H for the values
too, every weight square). A
rewriting need not keep the answer: the search reads only whether the line still raises. Each probe is one call
of the case's probe budget (``scales.probe_allowed``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from autograder.api import Case

from . import inference, masks, probe_inputs, rewritings, shapes, stateful
from .scales import charged as _charged

Property = tuple  # (mistake | None, assumed, how, rewrite[, also, when, answered, unless, within]): the engine's


def properties(stored: Case, named: dict[str, Any], type_error: bool, message: str = "") -> list[Property]:
    """The properties this case breaks, each with a rewriting that makes it hold (charged to the probe budget);
    ``message``: the exception's, whose shapes may show a size of the code's own."""
    square = _square_properties(named) if stored.function == "multi_head_attention" else ()
    return [(mistake, assumed, how, _charged(rewrite), *rest) for mistake, assumed, how, rewrite, *rest in
            [*_properties(stored, named, type_error, message), *_token_count(stored.function, named, message), *square]]


def _shape(a: Any) -> str:
    return str(tuple(np.shape(a)))


def _properties(stored: Case, named: dict[str, Any], type_error: bool, message: str) -> Iterator[Property]:
    function = stored.function
    if type_error:
        missing = rewritings._defaults_after(function, named)
        if missing:
            given = dict(missing)
            shown = ", ".join(f"`{n}`" for n in given)
            yield ("default_required", f"the call passes {shown}, which the contract gives a default",
                   "with " + ", ".join(f"`{n}={v!r}`" for n, v in given.items()) + " given",
                   lambda n: {**n, **given})
    yield from _mask_properties(stored, named, message)
    if function == "scaled_dot_product_attention":
        Q, K, V = (np.shape(named[n]) for n in ("Q", "K", "V"))
        if Q[-2] != K[-2]:
            yield ("needs_square", f"as many queries as keys (n_q = n_k); this case has n_q = {Q[-2]}, n_k = "
                   f"{K[-2]}", "with as many queries as keys", rewritings._square)
        if V[-1] != Q[-1]:
            yield ("needs_equal_widths", f"d_v = d_k; this case has d_k = {Q[-1]}, d_v = {V[-1]}", "with d_v = d_k",
                   rewritings._equal_widths)
        if Q[-2] != K[-2] and V[-1] != Q[-1]:  # both together, after each alone (`assert q.shape == k.shape ==
            # v.shape`, self-attention's one shape): a line that needs only one of them got past with it
            yield ("needs_same_shape", f"Q, K and V have one shape (n_q = n_k and d_v = d_k); this case has Q of "
                   f"shape {Q}, K of shape {K}, V of shape {V}", "with as many queries as keys and d_v = d_k",
                   lambda n: rewritings._equal_widths(rewritings._square(n)))
    if function == "multi_head_attention":
        yield from _width_properties(named)
        yield from _heads_properties(named)
    if isinstance(named.get("layer"), dict):
        yield from stateful.layer_properties(named)
    yield from _rank_properties(function, named, message)
    if function in inference.ATTENTION and np.ndim(named.get("mask")) == 2 and np.ndim(
            named[inference.TOKENS[function][0]]) == 2:
        yield _mask_batch_axis(function, named)
    for name, value, default in rewritings.given_optional(function, named):  # a line reached only because it is
        # given (a parameter of the code's own that the contract's scale lands in): no sentence says so, but another
        # property that gets past the line too is then no reading of it
        yield (None, f"`{name}` keeps its default; this case passes `{name}={value!r}`",
               f"with `{name}={default!r}` (the default)", lambda n, name=name, default=default: {**n, name: default})
    if function == "rope" and np.asarray(named["positions"]).dtype.kind == "f":
        # below the number of tokens too: a table of as many rows as tokens (indexed by the positions) is no reason
        # for a line that cannot index with floats to raise again
        yield ("rope_integer_positions", "integer positions; this case's positions are floats",
               "with whole, non-negative positions as integers (each below the number of tokens)",
               lambda n: dict(n, positions=np.abs(np.round(np.asarray(n["positions"]))).astype(int) % max(
                   np.shape(n["x"])[-2], 1)))


# what numpy and Python say when an array has another number of axes than the code expects, and how an assert reads
# a number of axes (a rank probe changes sizes too, which may get a reshape with -1 past its line by chance: it is
# tried only for these)
RANK_ERRORS = (r"values to unpack|einstein sum subscripts|axes don't match|tuple index out of range|out of bounds for "
               r"(axis|array of dimension)|-dimensional|dimensions? (is|are|were) (indexed|given)|core dimension|"
               r"Dimension out of range|\b\dD tensor|\bgot \dD\b|"  # PyTorch's, for code that keeps its framework's
               # checks ("batch1 must be a 3D tensor, got 4D")
               r"\nassert\b.*(\bndim\b|\.dim\(\)|\blen\([^()]*\.(shape|size\(\))\)|"
               r"\.shape\[:-?\d+\]|\.shape\[-?\d+:\])")  # an assert on a shape's first (or last) k sizes: its rank


def _token_count(function: str, named: dict[str, Any], message: str) -> Iterator[Property]:
    """A square (m, m) array of the code's own, in the exception's shapes, meeting this case's scores: the line
    assumed exactly m tokens (a (block_size, block_size) causal buffer never cut to the sequence)."""
    if function not in inference.ATTENTION or "broadcast" not in message:
        return
    n_q, n_k = inference._lengths(function, named)
    shapes = [tuple(int(n) for n in re.findall(r"\d+", shape)) for shape in re.findall(r"\(([\d, ]+)\)", message)]
    if not any(shape[-2:] == (n_q, n_k) for shape in shapes):  # the scores themselves are not what it met (a
        return  # square weight broadcast to the tokens meets the projection, not the scores)
    sizes = {shape[-1] for shape in shapes if len(shape) >= 2 and shape[-1] == shape[-2]}
    lead = set(np.shape(named[inference.TOKENS[function][0]])[:-2])  # a size read off a leading axis (the batch
    # taken for the tokens) is no fixed number of tokens: with that many tokens the code gets past by coincidence
    fixed = sorted(m for m in sizes - {n_q, n_k} - lead if 2 <= m <= MAX_TOKENS)
    if not fixed:
        return
    m = fixed[0]
    # exactly m, or at most m (a buffer cut to the scores, `tril[:N, :N]`, stays (m, m) past m tokens): told apart by
    # m - 1 tokens, which the first refuses at the same line; with m = 2 one token may broadcast past either, so a
    # line that gets past with one token names neither
    fewer = _charged(lambda n: _tokens_to(function, n, m - 1))
    also = (fewer, "causal_buffer_max_tokens", "causal_mask_block_size") if m >= 3 else None
    unless = (fewer, "with 1 token") if m == 2 else None
    yield ("causal_mask_block_size", f"{m} tokens (an ({m}, {m}) array of its own meets this case's ({n_q}, {n_k}) "
           "scores)", f"with {m} tokens", lambda n: _tokens_to(function, n, m), also, None, False, unless)


MAX_TOKENS = 128  # the largest fixed number of tokens read off an exception's shapes (a probe with more costs
# the answer's reading too much; a course's block size is rarely larger)


def _tokens_to(function: str, named: dict[str, Any], m: int) -> dict[str, Any]:
    """The case with m queries and m keys: its tokens repeated in turn (or cut), its mask's rows and columns too."""
    n_q, n_k = inference._lengths(function, named)
    rows, cols = np.arange(m) % n_q, np.arange(m) % n_k
    out = dict(named)
    if function == "multi_head_attention":
        out["X"] = np.asarray(named["X"])[..., rows, :]
    else:
        out["Q"] = np.asarray(named["Q"])[..., rows, :]
        out["K"], out["V"] = (np.asarray(named[n])[..., cols, :] for n in ("K", "V"))
    mask = named.get("mask")
    if isinstance(mask, np.ndarray):
        if mask.ndim == 1:
            out["mask"] = mask[cols]
        else:
            out["mask"] = masks.full(mask, n_q, n_k)[..., rows, :][..., cols]
    return out


def _reads_more_axes(message: str) -> bool:
    """Whether a reshape's exception shows a shape whose first sizes already hold the whole array ("cannot reshape
    array of size 30 into shape (5, 6, 2, 3)": the (5, 6) input read as if it had one more axis), a rank's sign."""
    found = re.search(r"cannot reshape array of size (\d+) into shape \(([^()]*)\)", message)
    if found is None or not re.fullmatch(r"[\d, ]+", found[2]):  # a size the reshape infers (-1) fits by design
        return False
    sizes = [int(n) for n in re.findall(r"\d+", found[2])]
    return any(int(np.prod(sizes[:i])) == int(found[1]) for i in range(1, len(sizes)))


def _rank_properties(function: str, named: dict[str, Any], message: str = "") -> Iterator[Property]:
    tokens = [n for n in inference.TOKENS.get(function, ()) if isinstance(named.get(n), np.ndarray)]
    if not tokens:
        return
    first = tokens[0]
    lead = np.ndim(named[first]) - 2

    def lead_to(k: int) -> Callable[[dict[str, Any]], dict[str, Any]]:
        return _charged(lambda n: _lead_to(n, tokens, k))

    # (k, the mistake, the other number of leading axes tried too: its mistake if the line gets past it, if not)
    readings = {
        # exactly one, or some leading axis (which exactly one implies: a later line may need exactly one)
        (0, 1): (None, (2, "needs_leading_axis", "batch_first_only")),
        (0, 2): ("needs_leading_axes", None),  # fails with none and with one (tried first)
        (2, 1): (None, (0, None, "batch_first_only")),
        (1, 2): (None, (0, None, "needs_leading_axes")),
        # none, after another number than the case's failed too: the line works only without leading axes (a line
        # that gets past with none but not with the other number says what it needs, not how it mixes the axes)
        (2, 0): (None, (1, None, "matrix_input_only")),
        (1, 0): (None, (2, None, "matrix_input_only")),
    }
    # a masked case: the line may be reached only with a mask (a mask helper that asserts the scores' rank), so a
    # mistake of the code's axes is named only when the same call without the mask still raises there
    unless = ((_charged(lambda n: dict(n, mask=None)), "without the mask (`mask=None`)")
              if function in inference.ATTENTION and named.get("mask") is not None else None)
    mask = named.get("mask")
    for k in (1, 2, 0):
        if k == lead:
            continue
        axes = {0: "no leading axes", 1: "one leading axis", 2: "two leading axes"}[k]
        mistake, other = readings.get((lead, k), (None, None))
        also = (lead_to(other[0]), other[1], other[2]) if other and other[0] != lead else None
        # a mask with leading axes loses them with the tokens: the line may read either's rank, so both are said
        cut = isinstance(mask, np.ndarray) and min(k, mask.ndim - 2) < mask.ndim - 2
        subject = f"`{first}` is {k + 2}-D ({axes})" + (
            f", or its mask {min(k, mask.ndim - 2) + 2}-D (the two lose leading axes together)" if cut else "")
        yield (mistake, f"{subject}; this case's `{first}` is {lead + 2}-D, of shape {_shape(named[first])}"
               + (f", its mask of shape {_shape(mask)}" if cut else ""), f"with {axes}"
               + (" (its mask cut to match)" if cut else ""), lambda n, k=k: _lead_to(n, tokens, k), also,
               None if _reads_more_axes(message) else RANK_ERRORS, False, unless)


def _lead_to(named: dict[str, Any], tokens: list[str], k: int) -> dict[str, Any]:
    """Every token array with exactly ``k`` leading axes; a new axis has 3 entries (the sequence, reversed, rolled),
    so that code which reshapes with -1 does not get past its line by a coincidence of sizes."""
    lead = np.ndim(named[tokens[0]]) - 2
    if k <= lead:
        return rewritings._lead_to(named, tokens, k)
    mask = named.get("mask")
    if isinstance(mask, np.ndarray) and mask.ndim > 2:
        raise ValueError("a per-sequence mask cannot follow new leading axes")
    out = dict(named)
    for n in tokens:
        a = np.asarray(named[n])
        for _ in range(k - lead):
            a = np.stack([a, a[..., ::-1, :], np.roll(a, 1, axis=-2)])
        out[n] = a
    return out


def _width_properties(named: dict[str, Any]) -> Iterator[Property]:
    H = int(named["num_heads"])
    D, d_k, d_v = np.shape(named["X"])[-1], np.shape(named["W_Q"])[-1] // H, np.shape(named["W_V"])[-1] // H
    assumed = {"mha_value_width": f"the values' heads are as wide as the queries' (d_v = d_k); this case has d_k = "
               f"{d_k}, d_v = {d_v} (W_V has {H * d_v} columns)",
               "mha_head_width_model": f"the heads split the model width D = X.shape[-1] (D = num_heads * d_k); this "
               f"case has D = {D}, num_heads * d_k = {H * d_k}"}
    # heads of width D // H are named only when the line still raises with the queries' and keys' heads of a width
    # D // H never gives (D != num_heads * d_k again, another way): a split by D // H needs that equality, while a
    # check of the student's own that gets past at both (head_dim % D == 0, its group size taken from D) does not
    unless = {"mha_head_width_model": _wider_heads(d_k, D, d_v)}
    if D % H:  # tried first: D = num_heads * d_k (and every square weight) makes D a multiple of num_heads too
        assumed["mha_needs_divisible_width"] = (f"num_heads divides the input width D = X.shape[-1]; this case has "
                                                f"D = {D}, num_heads = {H}")
        undivided = shapes.divisible_widths(named)[1]
        unless["mha_needs_divisible_width"] = (_charged(lambda n: shapes.model_to(n, undivided)), f"with X "
                                               f"zero-padded to D = {undivided}, which num_heads does not divide")
    for mistake, how, rewrite in rewritings.mha_widths(named):  # D = num_heads * d_k either way: a code whose head
        # width must be even (a rotary embedding's) may stop early
        yield (mistake, assumed[mistake], how, rewrite, None, None, False, unless.get(mistake),
               ("mha_needs_divisible_width",) if mistake == "mha_head_width_model" else ())


def _wider_heads(d_k: int, D: int, d_v: int | None = None) -> tuple[Callable[[dict[str, Any]], dict[str, Any]], str]:
    """The control of heads of width D // H (an ``unless``): the queries' and keys' heads of a width D // H never
    gives, the least multiple of D from 2D wider than d_k; the values' ``d_v`` wide, or as wide too when None."""
    width = probe_inputs.past_model_width(d_k, D)
    values, too, equal = (width, ", the values' too", "d_k = d_v") if d_v is None else (d_v, "", "d_k")
    return (_charged(lambda n: rewritings.heads_of_width(n, width, values)),
            f"with heads {width} wide{too} ({equal} = {width // D}D, so that D = num_heads * d_k still fails)")


def _square_properties(named: dict[str, Any]) -> Iterator[Property]:
    """Widths that hold only together, tried after the rest (each needs more than one width changed): heads of
    D // H for the values too (D = num_heads * d_k = num_heads * d_v), then every weight square, (D, D), as layers
    built nn.Linear(D, D) and loaded with the weights need (an output width D too). A line that gets past the first
    is named by it, and the second, whose sentence says the first's (COVERS), is then no other reading."""
    H = int(named["num_heads"])
    D, d_k, d_v = np.shape(named["X"])[-1], np.shape(named["W_Q"])[-1] // H, np.shape(named["W_V"])[-1] // H
    if d_v != d_k and D != H * d_k:
        yield ("mha_head_width_model", f"the heads split the model width D = X.shape[-1], the values' too (D = "
               f"num_heads * d_k = num_heads * d_v); this case has D = {D}, num_heads * d_k = {H * d_k}, num_heads * "
               f"d_v = {H * d_v}", "with D = num_heads * d_k and d_v = d_k",
               lambda n: rewritings.model_as_wide(rewritings.values_as_wide(n)), None, None, False,
               _wider_heads(d_k, D), ("mha_needs_divisible_width",))
    shapes = {n: np.shape(named[n]) for n in ("W_Q", "W_K", "W_V", "W_O")}
    if any(shape != (D, D) for shape in shapes.values()):
        # the control: the heads and W_O square at a width that is not D's, X as it is (a layer of one width for the
        # heads and the output, nn.Linear(H*d, H*d), needs that much and not D = H*d too)
        w = rewritings.square_heads_width(named)
        unless = (_charged(rewritings.square_heads), f"with every head {w} wide and W_O of shape ({H * w}, {H * w}), "
                  f"X as it is (D = {D})")
        yield ("mha_square_weights", f"every weight is square, (D, D) with D = X.shape[-1]; this case has D = {D}, "
               + ", ".join(f"{n} of shape {shape}" for n, shape in shapes.items()),
               "with every weight square (X and each head zero-padded to one width)", rewritings.square_weights,
               None, None, False, unless, ("mha_needs_divisible_width",))  # of num_heads * w columns


def _mask_batch_axis(function: str, named: dict[str, Any]) -> Property:
    """A mask with a batch axis, for a shared (n_q, n_k) one: code written for (B, 1, n_k) or (B, n_q, n_k) masks
    slices (`mask[:, :N, :N]`), unsqueezes (`mask.unsqueeze(1)`) or checks its axes as if it had a leading one. On
    inputs without leading axes, `mask[None]` gives every array after the mask a leading axis too: there it comes
    after the ranks, makes their change (``within``), and is named only unless the inputs given one leading axis (the
    mask as it is) get past too."""
    mask = np.asarray(named["mask"])
    tokens = [n for n in inference.TOKENS[function] if isinstance(named.get(n), np.ndarray)]
    plain = np.ndim(named[tokens[0]]) == 2
    unless = (_charged(lambda n: _lead_to(n, tokens, 1)), "with one leading axis (the mask as it is)") if plain else \
        None
    return ("mask_needs_batch_axis", f"the mask has a leading batch axis; this case's mask has shape {_shape(mask)}, "
            "shared by the batch", "with the mask given a leading axis of length 1 (`mask[None]`)",
            lambda n: dict(n, mask=np.asarray(n["mask"])[None]), None, None, False, unless,
            ("batch_first_only", "needs_leading_axis", "needs_leading_axes") if plain else ())


HEADS_TRIED = (2, 1, 4)  # other numbers of heads a line may have hard-coded (a course template's two heads first)


def _heads_properties(named: dict[str, Any]) -> Iterator[Property]:
    """Another number of heads, over the same projections (each head as wide as the widths divide); named only when
    the same number of heads at the width that number would give them still raises there (``unless``): a line that
    needs wider heads (a rotary embedding's d / (d - 2) at d = 2) gets past with fewer heads over the same
    projections, and the number of heads is then not what it assumed."""
    H, widths = int(named["num_heads"]), (np.shape(named["W_Q"])[-1], np.shape(named["W_V"])[-1])
    D = np.shape(named["X"])[-1]
    for other in HEADS_TRIED:
        if other != H and all(w % other == 0 for w in widths):
            yield ("mha_fixed_heads", f"a fixed number of heads; this case has num_heads = {H}",
                   f"with num_heads = {other} (the same projections)", lambda n, other=other: dict(n, num_heads=other),
                   None, None, other == 1,  # one head: axes of length 1 broadcast with anything
                   (_charged(lambda n, other=other: heads_as_wide(n, other)),
                    f"with num_heads = {H} and heads {widths[0] // other} wide (the projections widened per head)"),
                   ("mha_needs_divisible_width",) if D % other == 0 else ())


def heads_as_wide(named: dict[str, Any], other: int) -> dict[str, Any]:
    """The same number of heads, each as wide as ``other`` heads over these projections would be."""
    return rewritings.heads_of_width(named, np.shape(named["W_Q"])[-1] // other, np.shape(named["W_V"])[-1] // other)


# numpy's and PyTorch's words for an array of several entries used as a truth value (`if mask:`)
TRUTH_VALUE = r"truth value of an array with more than one element is ambiguous|Boolean value of Tensor with more than"


def _mask_properties(stored: Case, named: dict[str, Any], message: str = "") -> Iterator[Property]:
    function = stored.function
    if function not in inference.ATTENTION or "mask" not in named:
        return
    mask = named["mask"]
    n_q, n_k = inference._lengths(function, named)
    if mask is None:
        yield ("needs_mask", "a mask is given; this case passes none (`mask=None`)", "with an all-True mask given",
               lambda n: dict(n, mask=np.ones((n_q, n_k), bool)))
        return
    mask = np.asarray(mask)
    shape = _shape(mask)
    if re.search(TRUTH_VALUE, message):  # only then: without a mask every line that handles one is skipped
        yield ("needs_no_mask", f"no mask is given (it reads the mask as one truth value); this case's mask has shape "
               f"{shape}", "without the mask (`mask=None`)", lambda n: dict(n, mask=None))
    if function == "multi_head_attention" and mask.ndim >= 3:
        yield ("mha_mask_head_axis", f"the mask has a head axis; this case's per-sequence mask has shape {shape} "
               "(no head axis)", "with the head axis inserted (`mask[..., None, :, :]`)",
               lambda n: dict(n, mask=np.expand_dims(np.asarray(n["mask"]), -3)))
    if mask.ndim > 2:
        yield ("needs_shared_mask", f"one (n_q, n_k) mask shared by every sequence; this case's mask has shape "
               f"{shape}",
               "with one (n_q, n_k) mask for all sequences",
               lambda n: dict(n, mask=np.asarray(n["mask"])[(0,) * (np.ndim(n["mask"]) - 2)]),
               None, None, True)  # named only when that call's answer is read: code that reads a 2-D mask as
    # (batch, n_k) padding gets past the line too, and the sentence would misread it
    first = inference.TOKENS[function][0]
    batch = np.shape(named[first])[0] if np.ndim(named[first]) > 2 else 1
    if 1 < batch != n_q and mask.ndim >= 2 and mask.shape != (batch, n_k):  # a (B, n_k) padding mask, given its head
        # and query axes by the code: the rewriting gives sequence b the mask's row b (its rows in turn); with B != n_q
        # the contract cannot read that mask its own way, so an answer read is the key-padding one
        yield ("mask_key_padding", f"a (batch, n_k) key-padding mask, one row per sequence; this case's mask has "
               f"shape {shape}", f"with a mask of one row per sequence, ({batch}, n_k)",
               lambda n: dict(n, mask=np.asarray(n["mask"]).reshape(-1, n_k)[np.arange(batch) % (
                   np.size(n["mask"]) // n_k)]),
               None, None, True)  # named only when that call's answer is read as key padding: a line may check
    # the mask's first axis against the batch for another reason
    first = inference.TOKENS[function][0]
    if mask.ndim == 2 and np.ndim(named[first]) > 2:  # with inputs of no leading axes, after the ranks (below)
        yield _mask_batch_axis(function, named)
    if mask.dtype.kind == "b" and np.ndim(mask) >= 2 and probe_inputs.mask_broadcasts(stored, named):
        full = probe_inputs.full_mask(stored, probe_inputs.Variant(named)).named["mask"].shape
        yield ("mask_full_shape", f"a mask written out in full, of shape {tuple(full)}; this case's mask has shape "
               f"{shape} (it broadcasts)", "with the mask written out in full",
               lambda n: dict(n, mask=np.broadcast_to(np.asarray(n["mask"]), full).copy()), None, None, False,
               # a line that indexes the mask with one more axis than it has (`mask[:, :N, :N]` on a course's
               # (1, L, L) buffer) gets past with one leading axis of length 1 too, which writes nothing out
               (_charged(lambda n: dict(n, mask=np.asarray(n["mask"])[None])),
                "with the mask given one leading axis of length 1 (`mask[None]`)"),
               # written out in full, a 2-D mask gets the leading axes a line may need (mask_needs_batch_axis's)
               ("mask_needs_batch_axis",) if mask.ndim == 2 and len(full) > 2 else ())
    if mask.dtype.kind == "b":
        yield ("needs_float_mask", "a mask of numbers (0/1); this case's mask is boolean",
               "with the mask as 0/1 numbers", lambda n: dict(n, mask=np.asarray(n["mask"]).astype(float)))
