"""Our real-world corpus: public implementations ported into the contract, their conventions kept.

Each module here is a short numpy port of one public implementation (the source, repository and
path, is cited in its header); a submission is the reference solution followed by the port, so the
port's functions replace the reference's and the reference's other functions call them, as a
student's own functions would. For each port we declare:

* ``causes``: which contract functions truly deviate (``ground_truth.deviations`` finds the same set
  independently of the grader, on random inputs) and the known mistakes each really has (ids of
  ``feedback.MISTAKES``, established by reading the port: e.g. `d_k = d_model // h` is
  mha_head_width_model); ``callee`` marks a function that deviates only through a function it calls;
* ``VERDICTS``: what the grader names on every failing test (test number -> mistake ids), reviewed
  against ``causes``: ``tests/test_realworld.py`` asserts them all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REFERENCE = HERE.parent.parent / "reference" / "attention.py"


@dataclass(frozen=True)
class Port:
    name: str
    causes: dict[str, tuple[str, ...]]  # deviating contract function -> the known mistakes it really has
    callee: dict[str, tuple[str, ...]] = field(default_factory=dict)  # deviating only through these callees

    def source(self) -> str:
        """The submission: the reference solution, then the port (whose definitions replace the reference's)."""
        return REFERENCE.read_text() + "\n\n" + (HERE / f"{self.name}.py").read_text()


MHA_D_OVER_H = ("mha_value_width", "mha_head_width_model", "batch_first_only")  # head_dim = dim // n_heads, (B, T, C)

PORTS = [
    Port("annotated_transformer", {
        "causal_mask": ("causal_top_left",),
        "scaled_dot_product_attention": ("mask_finite_fill",),
        "multi_head_attention": (*MHA_D_OVER_H, "mask_finite_fill"),
    }),
    Port("d2l_attention", {
        "scaled_dot_product_attention": ("batch_first_only", "mask_finite_fill"),
        "multi_head_attention": ("batch_first_only", "mask_finite_fill"),
        "decode_step": (), "generate_cached": (), "generate_naive": (),
    }, callee={f: ("scaled_dot_product_attention",) for f in ("decode_step", "generate_cached", "generate_naive")}),
    Port("hf_llama_rope", {
        "rope": ("rope_half_split",), "decode_step": ("rope_half_split",), "generate_cached": ("rope_half_split",),
        "generate_naive": ("rope_half_split",),
    }, callee={f: ("rope",) for f in ("decode_step", "generate_cached", "generate_naive")}),
    Port("llama2_c", {}),
    Port("llama3_np", {
        "softmax": ("softmax_ignores_axis", "temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("softmax_nan_fully_masked",),
        "multi_head_attention": MHA_D_OVER_H,
    }, callee={"scaled_dot_product_attention": ("softmax",)}),
    Port("llama_cpp_f16_cache", {"KVCache": ("low_precision",), "generate_cached": ("low_precision",)},
         callee={"generate_cached": ("KVCache",)}),
    Port("llama_meta", {"multi_head_attention": (*MHA_D_OVER_H, "mha_mask_head_axis", "softmax_nan_fully_masked")}),
    Port("lucidrains_rope", {}),
    Port("nanogpt", {"multi_head_attention": (*MHA_D_OVER_H, "mha_mask_head_axis", "softmax_nan_fully_masked")}),
    Port("picogpt", {
        "softmax": ("softmax_ignores_axis", "temperature_ignored", "softmax_nan_fully_masked"),
        "causal_mask": ("mask_additive", "causal_top_left"),
        # `q @ k.T` raises on batched inputs: they work only on 2-D ones
        "scaled_dot_product_attention": ("scale_argument_ignored", "matrix_input_only", "mask_finite_fill"),
        "multi_head_attention": ("matrix_input_only", "mask_finite_fill"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)}),
    Port("pytorch_sdpa_docs", {
        "causal_mask": ("causal_top_left",), "scaled_dot_product_attention": ("softmax_nan_fully_masked",),
    }),
    Port("rasbt_llms_from_scratch", {
        "multi_head_attention": ("mha_value_width", "batch_first_only", "mha_mask_head_axis"),
        "decode_step": ("decode_rope_ignored",), "generate_cached": ("decode_rope_ignored",),
    }, callee={"generate_cached": ("decode_step",)}),
    Port("tf_transformer_tutorial", {
        "causal_mask": ("mask_inverted", "mask_float", "causal_top_left"),
        "scaled_dot_product_attention": ("mask_inverted", "mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": (*MHA_D_OVER_H, "mha_mask_head_axis", "mask_inverted", "mask_finite_fill"),
    }),
    Port("torch_multihead_attention", {
        "multi_head_attention": (*MHA_D_OVER_H, "mha_mask_head_axis", "mask_inverted", "softmax_nan_fully_masked"),
    }),
]

# test number -> the mistakes the grader names, on every failing test of every port (the others pass)
VERDICTS: dict[str, dict[str, tuple[str, ...]]] = {
    "annotated_transformer": {
        "C.2": ('causal_top_left',),
        "C.3": ('causal_top_left',),
        "C.10": ('mask_finite_fill',),
        "C.11": ('mask_finite_fill',),
        "C.12": ('causal_top_left',),
        "D.1": ('mha_value_width', 'batch_first_only'),
        "D.2": ('mha_head_width_model', 'batch_first_only'),
        "D.3": ('batch_first_only',),
        "D.4": ('mha_head_width_model',),
        "D.5": ('mha_head_width_model',),
        "D.6": ('mha_head_width_model', 'batch_first_only'),
    },
    "d2l_attention": {
        "C.4": ('batch_first_only',),
        "C.5": ('batch_first_only',),
        "C.6": ('batch_first_only',),
        "C.7": ('batch_first_only',),
        "C.8": ('batch_first_only',),
        "C.9": ('batch_first_only',),
        "C.10": ('batch_first_only', 'mask_finite_fill'),
        "C.11": ('batch_first_only', 'mask_finite_fill'),
        "C.13": ('batch_first_only',),
        "D.1": ('batch_first_only',),
        "D.2": ('batch_first_only',),
        "D.3": ('batch_first_only',),
        "D.6": ('batch_first_only',),
        "F.4": (),
        "F.5": (),
        "F.6": (),
        "F.7": (),
        "F.8": (),
        "F.9": (),
        "F.10": (),
        "F.11": (),
        "F.12": (),
        "F.13": (),
        "F.14": (),
        "F.16": (),
        "F.17": (),
        "F.18": (),
    },
    "hf_llama_rope": {
        "E.4": ('rope_half_split',),
        "E.5": ('rope_half_split',),
        "E.6": ('rope_half_split',),
        "E.8": ('rope_half_split',),
        "E.10": ('rope_half_split',),
        "F.5": ('rope_half_split',),
        "F.6": ('rope_half_split',),
        "F.10": ('rope_half_split',),
        "F.12": ('rope_half_split',),
        "F.14": ('rope_half_split',),
        "F.16": ('rope_half_split',),
        "F.17": ('rope_half_split',),
        "F.18": ('rope_half_split',),
    },
    "llama2_c": {
    },
    "llama3_np": {
        "B.2": ('softmax_ignores_axis',),
        "B.4": ('temperature_ignored',),
        "B.6": ('temperature_ignored',),
        "B.7": ('softmax_nan_fully_masked',),
        "B.8": ('temperature_ignored',),
        "C.10": ('softmax_nan_fully_masked',),
        "C.11": ('softmax_nan_fully_masked',),
        "D.1": ('batch_first_only', 'mha_value_width'),
        "D.2": ('batch_first_only', 'mha_head_width_model'),
        "D.3": ('batch_first_only',),
        "D.4": ('mha_head_width_model',),
        "D.5": ('mha_value_width',),  # its line gets past with d_v = d_k alone (the rank reading stops earlier)
        "D.6": ('mha_head_width_model', 'batch_first_only'),
    },
    "llama_cpp_f16_cache": {
        "F.1": ('low_precision',),
        "F.2": ('low_precision',),
        "F.3": ('low_precision',),
        "F.8": (),
        "F.9": (),
        "F.10": (),
        "F.15": ('low_precision',),
        "F.17": (),
    },
    "llama_meta": {
        "D.1": ('batch_first_only', 'mha_value_width'),
        "D.2": ('batch_first_only', 'mha_head_width_model'),
        "D.3": ('batch_first_only',),
        "D.4": ('mha_head_width_model',),
        "D.5": ('mha_head_width_model', 'mha_mask_head_axis'),
        "D.6": ('mha_head_width_model', 'batch_first_only'),
    },
    "lucidrains_rope": {
    },
    "nanogpt": {
        "D.1": ('batch_first_only', 'mha_value_width'),
        "D.2": ('batch_first_only', 'mha_head_width_model'),
        "D.3": ('batch_first_only',),
        "D.4": ('mha_head_width_model',),
        "D.5": ('mha_head_width_model', 'mha_mask_head_axis'),
        "D.6": ('mha_head_width_model', 'batch_first_only'),
    },
    "picogpt": {
        "B.2": ('softmax_ignores_axis',),
        "B.4": ('temperature_ignored',),
        "B.6": ('temperature_ignored',),
        "B.7": ('softmax_nan_fully_masked',),
        "B.8": ('temperature_ignored',),
        "C.1": ('mask_additive',),
        "C.2": ('causal_top_left', 'mask_additive'),
        "C.3": ('mask_additive',),
        "C.4": ('scale_argument_ignored',),
        "C.6": ('matrix_input_only',),
        "C.7": ('scale_argument_ignored',),
        "C.8": ('scale_argument_ignored',),
        "C.9": ('scale_argument_ignored',),
        "C.10": ('mask_finite_fill',),
        "C.11": ("matrix_input_only", "scale_argument_ignored"),
        "C.12": ('causal_top_left', 'mask_additive'),
        "C.13": ('matrix_input_only',),
        "D.4": ('matrix_input_only',),
        "D.5": ('matrix_input_only',),
        "D.6": ('matrix_input_only',),
    },
    "pytorch_sdpa_docs": {
        "C.2": ('causal_top_left',),
        "C.3": ('causal_top_left',),
        "C.10": ('softmax_nan_fully_masked',),
        "C.11": ('softmax_nan_fully_masked',),
        "C.12": ('causal_top_left',),
    },
    "rasbt_llms_from_scratch": {
        "D.1": ('batch_first_only', 'mha_value_width'),
        "D.2": ('batch_first_only', 'mha_value_width'),
        "D.3": ('batch_first_only',),
        "D.4": ('mha_value_width',),
        "D.5": ('mha_value_width', 'mha_mask_head_axis'),
        "D.6": ('mha_value_width', 'batch_first_only'),
        "F.5": ('decode_rope_ignored',),
        "F.6": ('decode_rope_ignored',),
        "F.10": ('decode_rope_ignored',),
        "F.16": ('decode_rope_ignored',),
        "F.17": ('decode_rope_ignored',),
    },
    "tf_transformer_tutorial": {
        "C.1": ('mask_inverted', 'mask_float'),
        "C.2": ('mask_inverted', 'causal_top_left'),
        "C.3": ('mask_inverted', 'mask_float'),
        "C.4": ('scale_argument_ignored',),
        "C.5": ('mask_inverted', 'mask_finite_fill'),
        "C.6": ('mask_inverted', 'mask_finite_fill'),
        "C.7": ('scale_argument_ignored',),
        "C.8": ('scale_argument_ignored',),
        "C.9": ('mask_inverted', 'scale_argument_ignored'),
        "C.10": ('mask_inverted', 'mask_finite_fill'),
        "C.11": ('mask_inverted', 'scale_argument_ignored'),
        "C.12": ('mask_inverted', 'causal_top_left'),
        "C.13": ('mask_inverted',),
        "D.1": ('mha_value_width', 'batch_first_only'),
        "D.2": ('mha_head_width_model', 'batch_first_only'),
        "D.3": ('batch_first_only', 'mask_inverted'),
        "D.4": ('mha_head_width_model',),
        "D.5": ('mha_head_width_model', 'mha_mask_head_axis'),
        "D.6": ('mha_head_width_model', 'batch_first_only'),
    },
    "torch_multihead_attention": {
        "D.1": ('mha_value_width',),
        "D.2": ('mha_head_width_model',),
        "D.3": ('mask_inverted', 'softmax_nan_fully_masked'),
        "D.4": ('mha_head_width_model',),
        "D.5": ('mha_head_width_model', 'mha_mask_head_axis'),
        "D.6": ('mha_head_width_model', 'mask_inverted'),
    },
}
