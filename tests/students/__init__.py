"""Our student corpus: real students' homework solutions (attention, masks, multi-head attention, RoPE, KV
caches) from public repositories, ported into the contract with their bugs kept, to measure the diagnosis.

Each module here is a short numpy port of one student's solution (repository and path cited in its header);
a submission is the reference solution followed by the port, exactly as in ``tests/realworld``, so a port
defines only the functions the student wrote. For each port we declare, by reading the student's code:

* ``causes``: the contract functions that truly deviate (``tests.realworld.ground_truth.deviations`` finds the
  same set independently of the grader) and the mistakes each really has: ids of ``feedback.MISTAKES`` where
  one fits exactly, else one of ``PROPOSED_IDS`` (ids the diagnosis does not know yet, named in issue 21's
  brief) or ``NEW_IDS`` (causes that fit none of them);
* ``callee``: the deviating functions a function calls, through which it deviates (a "Check first" may cite
  them);
* ``notes``: where in the student's code each cause is.

``VALIDATION`` is a third of the ports drawn at random with ``SEED`` before any grader output was looked at
(``draw_validation`` redraws it; tests/test_students.py checks that it is the recorded one): develop the
diagnosis on the DEVELOPMENT ports only, and report both halves (``python -m tests.students.evaluate``).
``FRESH`` holds 6 more ports (other students and courses), ported after the diagnosis was developed, graded once
for the report; never tuned on. They count in the validation half (``split``) but not in the recorded draw, and
the evaluation also reports them alone. ``FRESH_2`` is a second batch of 6 (other students and courses), ported
after the first fresh batch was measured; graded once for the report; never tuned on: like FRESH, it counts in the
validation half but not in the recorded draw, and the evaluation reports it alone too. ``FRESH_3`` is a third
batch (other students and courses), ported after the second was measured; graded once for the report; never tuned
on: it counts in the validation half but not in the recorded draw, and the evaluation reports it alone as well.
``FRESH_4`` is a fourth batch of 12, from five courses the corpus had not used (Georgia Tech CS 7643, UT Austin CS 388,
UMass COMPSCI 685, Toronto CSC413/2516, CMU 11-667), ported after the third was measured and graded once for the
report (97 of 160 failing tests named); its misses then prompted mechanisms of issue 30 (see tests/test_students.py),
so it is no longer untouched. Like FRESH_3, it counts in the validation half but not in the recorded draw, and the
evaluation reports it alone. ``FRESH_5`` is a fifth batch of 10, from a course the corpus had not used (UC San Diego
CSE 256, Statistical Natural Language Processing, programming assignment 2: ten students' multi-head attention, one
scaled dot-product attention), ported after the fourth was measured; graded once for the report; never tuned on: like
FRESH_4, it counts in the validation half but not in the recorded draw, and the evaluation reports it alone.
``FRESH_6`` is a sixth batch of 12 from three courses the corpus had not used (CMU 10-423/623 Generative AI, homework 1:
RoPE and grouped-query attention in minGPT; UC Berkeley CS 182/282A, homework 3; TUM IN2346 I2DL, exercise 11), ported
after the fifth was measured by sessions that never ran the grader on them, and graded once for the report; like the
others, it counts in the validation half but not in the recorded draw (``BATCHES`` lists every batch). ``FRESH_7`` is
a seventh batch of 12 from three more courses (Brown CSCI 1470/2470, the DeepLearning.AI Sequence Models course,
Tsinghua's Artificial Neural Network), ported after the sixth was measured, in the same way; ``FRESH_8`` an eighth
batch of 11 (Johns Hopkins EN.705.743, USC EE 641, Mila IFT6135), ported after the seventh was measured; ``FRESH_9``
a ninth batch of 11 (UC San Diego CSE 234, Michigan EECS 595, Edinburgh NLU+), ported after the eighth was measured;
``FRESH_10`` a tenth batch of 11 (University of Central Missouri CS5710, UIUC CS 440 / ECE 448, Technion CS 236781),
ported after the ninth was measured; ``FRESH_11`` an eleventh batch of 9 (Cornell CS 4782, Toronto CSC401, Umar
Jamil's LLaMA 2 from scratch), ported after the tenth was measured; ``FRESH_12`` a twelfth batch of 12 (UMass Lowell
COMP 4420/5420, Chalmers DAT450, Raschka's "Build a Large Language Model (From Scratch)"), ported after the eleventh
was measured; ``FRESH_13`` a thirteenth batch of 11 (Purdue ECE 60146, SUSTech CS310, Karpathy's "Neural Networks:
Zero to Hero"), ported after the twelfth was measured; ``FRESH_14`` a fourteenth batch of 12 (UC Berkeley CS 294-158,
NYCU Deep Learning and Practice, Prince's "Understanding Deep Learning"), ported after the thirteenth was measured;
``FRESH_15`` a fifteenth batch of 12 (Johns Hopkins CS 601.471/671/771, DTU 02456, ARENA's W1D2), ported after the
fourteenth was measured; ``FRESH_16`` a sixteenth batch of 11 (NYU DS-GA 1011, IIIT Hyderabad's Advanced NLP, Dive
into Deep Learning), ported after the fifteenth was measured; ``FRESH_17`` a seventeenth batch of 8 (iCEV's Lab
P1-04, The Annotated Transformer), ported after the sixteenth was measured; ``FRESH_18`` an eighteenth batch of 12
(UC Berkeley CS 288, Charles University NPFL114/138, Datawhale's Happy-LLM), ported after the seventeenth was
measured; ``FRESH_19`` a nineteenth batch of 12 (Bar-Ilan University's Deep Learning for Texts and Sequences,
"Small Transformer Language Models"; UCLA ECE 239AS, spring 2024, project 3 "Language modelling and
Transformers"; Nanjing University's LLM course, open-llm-assignments 1, 3 and 4), ported after the eighteenth
was measured; ``FRESH_20`` a twentieth batch of 14 (Heinrich Heine University Düsseldorf's "Implementing Transformer
Models", Unicamp IA024, the Hanghae99 Plus AI bootcamp), ported after the nineteenth was measured; ``FRESH_21`` a
twenty-first batch of 13 (ENSAE Paris's Deep Learning course, VK Education's LLM course, Holberton School's machine
learning curriculum, DeepLearning.AI's NLP Specialization), ported after the twentieth was measured; ``FRESH_22`` a
twenty-second batch of 11 (Sorbonne Université's RDFIA, Sharif University of Technology's Deep Learning, Duke ECE 661,
Yale CPSC 477/577, the NeetCode ML course), ported after the twenty-first was measured; ``FRESH_23`` a twenty-third
batch of 12 (IIT Madras's DA6401, Harvard's CS 2281R, Tufts CS 137, the TensorTonic platform), ported after the
twenty-second was measured; ``FRESH_24`` a twenty-fourth batch of 13 (IIT Delhi's COL772, CU Boulder's CSCI 7000
VLA Foundations, a Chinese university's 大模型基础与应用), ported after the twenty-third was measured; ``FRESH_25`` a
twenty-fifth batch of 12 (IIIT Delhi's CSE556, Stanford's STATS 305B, Northeastern's CS 7150, the Deep-ML practice
platform), ported after the twenty-fourth was measured; ``FRESH_26`` a twenty-sixth batch of 10 (KAIST's AI605,
Texas A&M's CSCE 421, USC's CSCI 567, Sorbonne Université's AMAL), ported after the twenty-fifth was measured.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tests.realworld import REFERENCE
from tests.realworld import Port as _RealWorldPort

HERE = Path(__file__).resolve().parent

# Causes the diagnosis has no id for yet (issue 21's brief names them; the lead implements their diagnoses).
PROPOSED_IDS: dict[str, str] = {
    "scale_d_v": "scores scaled by 1/sqrt(d_v) instead of 1/sqrt(d_k)",
    "scale_other": "scores scaled by another wrong constant",
    "softmax_axis_fixed": "softmax on a hard-coded axis number",
    "mask_bool_added": "a boolean mask added to the scores as 0/1",
    "causal_ignores_n_k": "causal_mask returns (n_q, n_q) whatever n_k is",
    "needs_leading_axes": "works only with one fixed number of leading axes other than exactly one (e.g. 4-D)",
    "needs_square": "works only when n_q == n_k",
    "needs_equal_widths": "works only when d_v == d_k",
    "rope_partial": "RoPE rotates only part of the dimensions",
    "rope_integer_offset": "RoPE takes an integer offset / arange instead of the positions",
    "needs_single_token": "works only on a single token",
    "needs_mask": "works only when a mask is given",
}

# Causes that fit neither feedback.MISTAKES nor PROPOSED_IDS.
NEW_IDS: dict[str, str] = {  # causes found in the corpus that no sentence names yet
    "rope_table_first_n": "RoPE cuts its cos/sin table to the first N rows (N = the input's length) before indexing "
    "it with the positions: a position >= N raises IndexError (a negative one wraps around)",
    "qkv_chunked_over_heads": "multi_head_attention views the fused projection as (B, T, 3, H, d), moves the heads "
    "before the q/k/v axis and then chunks the HEAD axis into q, k and v: it fails unless the heads fall into three "
    "chunks, and then mixes queries, keys and values",
    "rope_single_token_fails": "RoPE fails on a single token (N = 1): squeeze() drops the token axis of the (N, 1) "
    "positions",
    # mha_needs_divisible_width: now known (X padded to a multiple of num_heads that is no width of the heads' gets
    # the case past; the next width, which num_heads does not divide, does not). Declared since on every port whose
    # code asserts it of X's width (read by the lead, the twenty-second batch's session): tinyllm_aeft, tinyllm_li0k,
    # cs231n_sihan0229, uvadl_a2_65456u, the four sustech310, deepul_kellman, duke661_libo1023, duke661_yangcao28
    "mha_second_head_copies_first": "multi_head_attention computes its second head with the FIRST head's projections "
    "(q1, k1, v1 again), so head 2 is a copy of head 1",
    "keys_reshaped": "attention multiplies the queries by K.reshape(B, d_k, n_k) (a view of the keys, not their "
    "transpose): each query meets a scrambled copy of the keys",
    "mha_mask_unsqueezed_shared": "multi_head_attention gives the mask its head axis with mask.unsqueeze(1), right "
    "for a (B, N, N) mask only: a shared (N, N) mask becomes (N, 1, N), which raises against the (B, H, N, N) scores "
    "unless N equals H (then every query of head h reads mask row h)",
    # causal_mask_block_size: now known (the crash search reads the fixed size off the exception's shapes)
    "mha_output_layer_norm": "multi_head_attention layer-normalises the concatenated heads (nn.LayerNorm: weight 1, "
    "bias 0, eps 1e-5) and returns that in place of the output projection",
    "qk_position_added": "attention adds each token's position index n to every coordinate of its query and key before "
    "the scores (q_n + n and k_m + m: a positional encoding of its own)",
    "rope_partner_wrong_axis": "RoPE builds its rotate_half partner along axis 1 (the heads of a (B, H, N, d) input), "
    "cat(-x[:, d/2:], x[:, :d/2], dim=1), not along the last axis: it is x itself when H <= d/2 (each coordinate "
    "becomes x cos + x sin), else a negated roll of the heads",
    "rope_angle_table_squeezed": "RoPE squeezes its (N, d/2) table of angles (np.squeeze) before concatenating it "
    "along axis 1: with one token (N = 1) or one pair (d = 2) an axis is dropped and the concatenation raises",
    "mask_needs_3d": "attention takes a mask only as a 3-D (B, N_q, N_k) array whose B is the scores' first axis, and "
    "only on 3-D or 4-D scores (the course's ApplyAttentionMask asserts both ranks and gives a 3-D mask the head axis "
    "itself): a 2-D or 4-D mask, or any mask with 2-D scores, raises",
    # FRESH_7 helper A
    "mha_heads_copy_first": "multi_head_attention runs its FIRST head for every head (self.head1 called three times), "
    "so heads 2 and 3 are copies of head 1 and the other heads' projections are never used",
    "causal_mask_reshaped": "attention's own causal mask is the -inf strict lower triangle of an (n_q, n_k) array "
    "transposed to (n_k, n_q) and then RESHAPED to (n_q, n_k): the usual causal mask when n_q == n_k, a scrambled "
    "pattern otherwise (e.g. query 0 sees keys 0, 4 and 5 of 6; with more queries than keys some rows are fully "
    "masked)",
    # FRESH_7 helper C
    "qkv_split_at_model_width": "multi_head_attention runs one fused projection X @ [W_Q | W_K | W_V] (GPT-2's c_attn) "
    "and cuts it into chunks of D = X.shape[-1] columns (split(split_size=hidden_size, dim=2)): it raises unless "
    "H*d_k = H*d_v = D (other widths give more or fewer than three chunks, or a value chunk the heads cannot be viewed "
    "from)",
    "causal_slice_more_queries": "attention always cuts its causal mask from a fixed (1, 1, 1024, 1024) tril buffer as "
    "bias[..., n_k - n_q : n_k, :n_k] (bottom-right aligned): with more queries than keys the start is negative, the "
    "slice is empty and the broadcast against the scores raises",
    # FRESH_8 helper D
    "causal_mask_zero_scores": "attention builds its causal mask by zeroing the future scores (torch.tril of the "
    "scores) and then setting every score equal to 0 to -inf (scores[scores == 0] = -inf): besides the future keys it "
    "masks any allowed score that is exactly 0 (a row whose allowed scores are all 0 becomes NaN)",
    "rope_token_axis_1": "RoPE reads the number of tokens from axis 1 (seq_len = x.size(1), for (B, N, H, d) heads) "
    "and views its cos/sin tables of positions 0..seq_len-1 as (1, seq_len, 1, d) against x: on a (..., N, d) input "
    "the angles follow axis 1 (the heads of a 4-D input, the width of a 2-D one) and the tables broadcast x to another "
    "shape, or raise",
    # FRESH_8 helper E
    "mha_mask_expand_heads": "multi_head_attention gives the mask its head axis with mask.expand(-1, num_heads, -1, "
    "-1) (after unsqueeze(1) of a 3-D mask): torch's expand cannot give -1 to a new leading axis, so a shared 2-D (N, "
    "N) mask raises (as does a 4-D mask whose second axis is neither 1 nor num_heads); only a per-sequence (B, N, N) "
    "or 4-D mask works",
    "mask_read_as_padding": "attention gives the mask axes of its own before it meets the (B, H, N_q, N_k) scores: a "
    "2-D mask is read as a (batch, N_k) padding mask, m[:, None, None, :], so sequence b takes row b of a shared (N_q, "
    "N_k) mask for every query (it raises unless B is 1 or N_q), and a 3-D mask as (batch, N_q, N_k), m[:, None, :, :] "
    "(where broadcasting would align its first axis with the heads)",
    # FRESH_8 helper F
    "mha_merge_squeezes_single_token": "multi_head_attention merges the heads with torch.squeeze(tensor[:, i], dim=1) "
    "on each (B, N, d_v) head before torch.cat(..., dim=2): with one token (N = 1) squeeze drops the token axis and "
    "the concatenation raises",
    # FRESH_9 helper G
    "mha_weights_sized_by_tokens": "multi_head_attention expands each projection matrix to (batch, N, width) with the "
    "number of tokens N standing for its row count (linear(batch_size, seq_length, seq_length, model_dim, X, W), "
    "torch's expand): it raises unless the input width D equals N, and it expands W_O to (batch, H*d_k, H*d_k), which "
    "raises unless W_O is square and as wide as W_Q",
    # FRESH_9 helper H: mha_applies_rope, now known (as are FRESH_11's mha_applies_interleaved_rope and FRESH_12's
    # mha_applies_neox_rope, declared as mha_applies_rope since: each port's notes keep its layout)
    # FRESH_9 helper I: mha_tokens_first, now known
    # FRESH_10 helper L
    "mask_padding_rows_and_keys": "attention reads its mask as the course's (B, N) padding mask (0 = padding) and "
    "masks both the padded keys (columns) and the padded queries (rows) of sequence b: a contract (N_q, N_k) mask's "
    "rows meet the scores' batch axis (row b masks sequence b's keys AND its query rows wherever it is 0), and it "
    "raises unless it can be reshaped or repeated into the scores' batch and token axes",
    # FRESH_11 helper N
    "mha_self_attention_queries_as_kv": "multi_head_attention's self-attention path (key and value None) passes the "
    "PROJECTED queries as the keys and the values too (attention(query=query, key=query, value=query)): W_K and W_V "
    "are never used, each head computes softmax(q q^T * scale) q, and the heads' outputs are d_k wide (a W_O with "
    "H*d_v rows raises unless d_v = d_k)",
    # FRESH_11 helper O: rope_pairs_not_flattened, now known as last_axis_split (its port's notes keep the code)
    # FRESH_12 helper P
    "mha_merge_mixes_batch": "multi_head_attention merges its (B*H, N, d) head outputs with transpose(1, 0) and a "
    "reshape to (B, N, H*d) (attention.transpose(1, 0).reshape(B, N, H*d)): right for one sequence, but with B > 1 "
    "row (b, n) holds the heads of token (b*N + n) // B of sequence (b*N + n) % B",
    "causal_mask_nonzero_scores": "attention builds its own causal mask from the scores' values, torch.triu(scores, "
    "diagonal=1) != 0: a future key whose score is exactly 0 is not masked",
    # FRESH_12 helper Q
    "mha_qk_rms_norm": "multi_head_attention RMS-normalises the full-width projected queries and keys before it splits "
    "them into heads (OLMo 2's QK-norm: x / sqrt(mean(x**2) + eps) over the last axis, with a weight of ones as wide "
    "as the input, D = X.shape[-1], so it raises unless H*d_k = D): the scores are those of unit-RMS queries and keys",
    # FRESH_13 helper S
    "mha_heads_read_input_slices": "multi_head_attention gives head h only its own slice of the INPUT features, "
    "X[..., h*D/H:(h+1)*D/H] (D = X.shape[-1], DLStudio's SelfAttention), which it projects to its q, k and v: only "
    "rows [h*D/H, (h+1)*D/H) of the head's columns of W_Q, W_K and W_V are used, the rest of the input never reaches "
    "it",
    "qkv_fused_interleaved": "multi_head_attention views each token's fused projection x @ [W_Q | W_K | W_V] as (d, H, "
    "3) (qkv.view(-1, N, qkv_size, num_heads, 3)) with q/k/v on the LAST axis: query coordinate d of head h is fused "
    "column 3*(d*H + h), the key and value the next two, so queries, keys and values are interleaved columns of all "
    "three projections",
    # FRESH_13 helper T
    # FRESH_13 helper U
    "mha_scores_call_transpose_property": "multi_head_attention computes each head's scores as Q @ K.T(-2, -1), "
    "calling the keys' transposed view (the tensor's .T property) as if it were K.transpose(-2, -1): it raises "
    "TypeError on every input",
    "decode_causal_slice_block_size": "decode_step cuts its causal mask from a fixed (32, 32) tril buffer as "
    "tril[past : past + 1, :len] (past = the tokens cached before the new one): once the cache holds more than 32 "
    "tokens the slice has no row and the broadcast against the scores raises",
    # FRESH_14 helper W
    "mha_merge_interleaves_batch": "multi_head_attention merges its (B, H, N, d) head outputs with permute(1, 2, 0, 3) "
    "into (H, N, B, d) and reshapes that to (B, N, H*d): for one sequence this is the heads reshaped straight to (N, "
    "H*d), and with B > 1 the sequences are interleaved as well (each output row takes entries of every sequence)",
    "qkv_fused_chunked_per_head": "multi_head_attention reshapes the fused projection x @ [W_Q | W_K | W_V] to (B, N, "
    "H, -1) and cuts each head's block into thirds (torch.chunk(qkv, 3, -1)): head h's q, k and v are three "
    "neighbouring pieces of the fused columns [h*c, (h+1)*c), c = 2*d_k + d_v (mostly the queries' columns when H > "
    "1), not its own columns of W_Q, W_K and W_V; right only for one head with d_v = d_k, and a block that does not "
    "give three pieces raises",
    "mha_fixed_width_768": "multi_head_attention hard-codes the course's sizes: it views each projection as 16 heads "
    "of 768 // 16 = 48 columns, scales by 1/sqrt(48) and merges the heads into 768 columns whatever num_heads and the "
    "weights' widths, so it raises unless every projection is 768 wide",
    # FRESH_14 helper X
    "sdpa_output_transposed": "scaled_dot_product_attention returns its output transposed, one COLUMN per query, "
    "(d_v, N_q) (in the book's one-token-per-column layout of its own inputs the student returns `(V @ A).T`, one row "
    "per query), so every output differs in shape unless d_v = N_q, and decoding's out[0] is one coordinate",
    "qkv_bias_fixed_tokens": "qkv_project broadcasts its bias (zero here: the contract has none) over a FIXED number "
    "of tokens, `beta_q @ np.ones((1, N))` with the notebook's global N = 3, before adding it to the projections: it "
    "raises unless the input has 3 tokens (one token is widened to 3)",
    # FRESH_15 helper A
    "qkv_fused_chunked_thirds": "multi_head_attention runs one fused projection X @ [W_Q | W_K | W_V] and cuts it into "
    "three equal thirds for the queries, keys and values (torch.chunk(qkv, 3, dim=-1), or a reshape to (B, N, 3, H, D "
    "// H)): each third is its own projection only when H*d_k = H*d_v; otherwise the thirds straddle W_Q, W_K and W_V "
    "(or the split, or the heads' view of a third, raises)",
    # FRESH_15 helper B
    "causal_mask_fixed_size": "causal_mask returns a mask of one fixed (m, m) shape whatever n_q and n_k (sized by "
    "an earlier global array, `torch.full(attention_map.size(), ...)` with the notebook's 11 x 11 attention map, not "
    "by the number of tokens): right only when n_q = n_k = m",
    # FRESH_15 helper C
    "qkv_sliced_at_model_width": "multi_head_attention slices its fused projection x @ [W_Q | W_K | W_V] at the input "
    "width D = X.shape[-1], QKV[..., :D], QKV[..., D:-D] and QKV[..., -D:] as the queries, keys and values: right only "
    "when H*d_k = H*d_v = D; otherwise it raises unless the middle slice is D wide too (2*H*d_k + H*d_v = 3D), and "
    "then the queries, keys and values are the wrong columns",
    "mha_output_is_values": "multi_head_attention's weighted sum labels the values' token axis as the QUERY axis "
    "(einsum 'B nheads Qseq Kseq, B Qseq nheads headsize -> B Qseq nheads headsize'): the weights are only summed over "
    "the keys, to 1, so each token's head output is its own value vector and the output is X @ W_V @ W_O, whatever the "
    "scores, the scale or the mask",
    # FRESH_16 helper A
    "mask_unsqueezed_in_attention": "scaled dot-product attention itself gives the mask an axis at position 1 "
    "(mask.unsqueeze(1), meant to give the course's (B, 1, N_k) or (B, N, N) masks a head axis) before masked_fill "
    "meets the scores: a shared (N_q, N_k) mask becomes (N_q, 1, N_k), so on 3-D (B, N_q, N_k) scores sequence b "
    "masks its keys with mask row b for every query and on 4-D (B, H, N_q, N_k) scores head h does (each raises "
    "unless N_q equals that axis or 1), and on 2-D scores it raises (in place, masked_fill_) or broadcasts the scores "
    "to (N_q, N_q, N_k) (out of place); a (B, N_q, N_k) mask is right on 4-D scores only",
    # mha_square_weights: now known (the crash search tries every weight square, (D, D), after the widths alone)
    # FRESH_16 helper C
    "mask_read_as_valid_lens": "attention reads its boolean mask as d2l's valid_lens (the number of valid keys of "
    "each sequence or query row, masked_softmax): an entry True counts as 1 valid key and False as 0, so a query row "
    "given True attends to key 0 only and one given False to no key (a -1e6 fill gives it uniform weights, a -inf fill "
    "NaN); the mask is repeated or flattened against the scores' batch and query rows and raises (an IndexError or a "
    "shape assertion) unless its shape happens to fit them",
    "mha_output_width_asserted": "multi_head_attention asserts that its output is exactly as wide as the projections "
    "(one num_hidden_units for W_q, W_k, W_v and W_o): it raises unless W_O's width D_out equals H*d_k",
    # FRESH_18 helper A
    "rope_table_unsqueezed_for_heads": "RoPE gives its cos/sin tables, indexed by the positions, a head axis with "
    "unsqueeze(1) whenever x is 4-D, as for (batch, N) positions: with the contract's (N,) positions the (N, d) tables "
    "become (N, 1, d), which raise against a (B, H, N, d) input unless H is N or 1 (H = N rotates head h at position "
    "h's angles; H = 1 broadcasts the output to (B, N, N, d))",
    # FRESH_19 helper A
    "mask_sliced_from_buffer": "attention takes its mask only as the course's 3-D (1, L, L) causal buffer and cuts the "
    "block it needs out of it with three indices (mask[:, :N, :N] or mask[0, :N, :N] with N the scores' rows, or "
    "mask[:, :rows, :cols]) before masking the scores: a 2-D (N_q, N_k) mask raises IndexError (too many indices), "
    "and a 3-D one is cut to its leading rows and columns (cut N x N, it loses the keys past N_q and the broadcast "
    "raises unless n_k <= n_q or n_q = 1; mask[0] also gives every sequence the first one's mask)",
    "qkv_fused_chunked_ceil": "qkv_project runs one fused projection X @ [W_K | W_Q | W_V] (the course's per-head kqv "
    "Linear, keys first) and cuts it with torch.chunk(3) into pieces of ceil((2*d_k + d_v) / 3) columns: the pieces "
    "are the keys, queries and values only when that is d_k (d_k - 2 <= d_v <= d_k); otherwise they straddle the "
    "three projections, or fewer than three come back and the unpacking raises",
    # FRESH_19 helper C
    "rope_ntk_width_2": "RoPE raises ZeroDivisionError when d = 2: its NTK-aware scaled base, base * ratio ** (d / (d "
    "- 2)), divides by d - 2 even when the ratio is 1 (a head width of 2 fails wherever the RoPE is built)",
    "decode_applies_rope": "decode_step always applies its layer's own RoPE to q and k (with the config's base 10000 "
    "when rope_base is None): without rope_base they are still rotated (at the position the layer uses), and a key "
    "width that RoPE cannot take (odd, or 2 for an NTK scaling d / (d - 2)) raises",
    "attn_group_size_model_width": "the attention module raises unless head_dim % group_size == 0, with a QK-norm "
    "group size that defaults to the model width D = X.shape[-1] (a token's width in decoding) and is checked even "
    "with QK-norm off: multi-head attention and decoding raise unless d_k is a multiple of D",
    # FRESH_20 helper B
    # causal_buffer_max_tokens: now known (the crash search tells m tokens from m - 1, a buffer cut to the scores)
    # FRESH_20 helper C
    "mha_mask_unsqueezed_query_axis": "multi_head_attention gives the mask its head axis with mask.unsqueeze(-2) "
    "(meant for the course's (B, 1, N) padding mask, which becomes (B, 1, 1, N)): a shared (N, N) mask becomes (N, 1, "
    "N) and a per-sequence (B, N, N) one (B, N, 1, N), so the mask's query axis (before the inserted 1) meets the (B, "
    "H, N, N) scores' head axis: every contract mask raises unless N equals H (then every query of head h reads mask "
    "row h) or H is 1 (then the scores are broadcast to (B, N, N, N))",
    # FRESH_21 helper C
    "mha_heads_split_with_merge": "multi_head_attention splits its projections into heads with its head-MERGING "
    "function (tl.Fn('AttnHeads', compute_attention_output_closure(...)) where compute_attention_heads_closure was "
    "asked for): each (B, N, H*d) projection is reshaped straight to (B, H, N, d), transposed to (B, N, H, d) and "
    "flattened back to (B, N, H*d), so the 'heads' stay one full-width array whose entries are scrambled across tokens "
    "and columns; one attention runs over the full width (scale 1/sqrt(H*d_k)) on these scrambled queries, keys and "
    "values, and its output is scrambled the same way again before W_O: right only for one head",
    # FRESH_22 helper C
    "softmax_builtin_max": "softmax shifts the logits of its denominator by Python's built-in max(z) "
    "(np.sum(np.exp(z - max(z))), where the numerator uses np.max): max() iterates over the FIRST axis and compares "
    "whole slices, so an array of two or more axes raises ValueError (the truth value of an array with more than one "
    "element is ambiguous) unless those slices have one entry each, and a single row (1, m) is its own 'max', so "
    "every term of the denominator is exp(0) = 1 and each weight is exp(z - max) / m; 1-D input is right",
    # FRESH_23 helper A
    "mha_mask_expand_4d_only": "multi_head_attention gives the mask its head axis with mask.expand(-1, num_heads, -1, "
    "-1) as it comes (no axis inserted first): torch's expand cannot give -1 to an axis it adds, so every mask that is "
    "not 4-D raises, a shared 2-D (N, N) mask and a per-sequence (B, N, N) one alike (as does a 4-D mask whose second "
    "axis is neither 1 nor num_heads); only a (B, 1, N, N) or (B, H, N, N) mask works",
    # FRESH_23 helper B
    "rope_partner_times_halved_table": "RoPE builds the interleaved sinusoidal table of GPT-2-style position "
    "embeddings (column 2i = sin(n w_i), column 2i+1 = cos(n w_i), w_i = 10000**(-2i/d), n = 0..N-1), cuts it into its "
    "first and second HALVES with chunk(2) as if it were [sin | cos], and returns only the rotate-half term: pair i "
    "becomes (-x_2i+1 * c_i, x_2i * s_i) with s_i = table[:, i] and c_i = table[:, d/2 + i] (sines and cosines of "
    "other pairs' frequencies), with no x * cos term added, so it is no rotation at all (at position 0 the table is "
    "0, 1, 0, 1, ...: some coordinates become 0 and the others are turned by 90 degrees, so even an unmoved token "
    "changes)",
    # FRESH_24 helper B
    "decode_fused_model_width": "decode_step runs the student's attention layer, whose query, key and value come from "
    "ONE fused projection nn.Linear(D, 3D) (D = x.shape[-1], the token's width, is the layer's model width) cut into "
    "three D-wide pieces (a view as (3, heads, D // heads), or chunk(3) and a view as (heads, D // heads)) with one "
    "head: the layer's query, key and value, concatenated (2 d_k + d_v columns), raise unless 2 d_k + d_v = 3D and go "
    "to the wrong pieces unless d_k = d_v = D (the scale is 1/sqrt(D))",
    "cache_later_appends_last_row": "KVCache.append keeps every row of a (T, d) block only on its first call (which "
    "allocates the cache); once the cache holds tokens, each call writes only the block's LAST row (the student's "
    "cached path projects x[:, -1], the newest token), so len() grows by 1 whatever T",
    "causal_when_mask_none": "multi_head_attention applies a causal mask of its own (torch.tril: query i sees keys j "
    "<= i) when no mask is given, so mask=None means causal attention instead of no masking (a given mask is used as "
    "it is)",
    "decode_rope_keys_at_query_position": "decode_step keeps the keys UNROTATED in its cache and rotates the new query "
    "together with ALL the keys (the cached ones and the new one) at the new token's position len(cache) (the cos/sin "
    "rows are cut by the query's length and broadcast over the keys): the rotations cancel in q . k, so the query "
    "meets every key as if neither were rotated (cached keys as they are stored, the new key unrotated), i.e. "
    "attention without RoPE whatever rope_base (without rope_base the output is right)",
    # FRESH_24 helper C
    "sdpa_fifth_arg_dropout_module": "scaled_dot_product_attention's fifth parameter is a dropout MODULE "
    "(attn_dropout=None), called on the weights when it is not None (`attn = attn_dropout(attn)`): the contract's "
    "scale lands there, so any scale given raises TypeError ('float' object is not callable), and scale=None gives the "
    "default 1/sqrt(d_k)",
    "sdpa_weights_none": "scaled_dot_product_attention returns None in place of the weights (`return out, None`, the "
    "path through PyTorch's F.scaled_dot_product_attention, which gives no weights): the output may be right, the "
    "weights are never an array",
    "mask_additive_nan": "attention turns its boolean mask (True = keep) into an additive one as `(~mask).to(dtype) * "
    "float('-inf')`: the masked scores get -inf, but every KEPT score gets 0 * -inf = NaN, so every row that may "
    "attend to at least one key is NaN (a fully masked row gives zero weights, through PyTorch's SDPA); without a mask "
    "the output is right",
    # FRESH_25 helper B
    "mha_value_width_input": "multi_head_attention gives every head a value layer as wide as the input, nn.Linear(D, "
    "D) with D = X.shape[-1] (the course's single-head formula softmax(...) (X V^T) with V in R^{D x D}), and merges "
    "the num_heads D-wide head outputs with nn.Linear(num_heads * D, D): W_V is read as num_heads blocks of D columns "
    "and W_O as a (num_heads * D, D) weight, so it raises unless d_v = D and D_out = D",
    "mha_fixed_input_width_384": "multi_head_attention is built by the student's TransformerBlock as "
    "MultiHeadAttention(context_window_size, num_heads, embed_size // num_heads, embed_size=384): the course's default "
    "width 384 stands in for the block's embed_size, so every head's key, query and value layer takes 384-wide inputs "
    "and its output layer gives 384 columns: it raises unless X.shape[-1] = 384 (and W_O's D_out = 384), while the "
    "heads are X.shape[-1] // num_heads wide",
    # FRESH_26 helper C
    "mha_output_relu": "multi_head_attention applies a ReLU to its output after the output projection (the student's "
    "self-attention layer returns relu(lin(attention @ v)), the nonlinearity its course's model puts after each "
    "layer): every negative entry of the output becomes 0",
    "mha_input_layer_norm": "multi_head_attention layer-normalises its input X over the last axis before the query, "
    "key and value projections (nn.LayerNorm: weight 1, bias 0, eps 1e-5; a pre-norm inside the attention layer): the "
    "scores and values are those of the normalised tokens, each row of X centred and scaled to unit variance",
}


# causes found in the corpus (NEW_IDS) whose description says a known mistake's too, declared with it wherever they are
IMPLIED: dict[str, tuple[str, ...]] = {
    # a shared (N, N) mask raises where a mask given a leading axis, (1, N, N), gets past: the code takes its mask
    # only with a batch axis (an unsqueeze(1) meant for (B, 1, N) or (B, N, N) masks; an assert of 3 axes; a slice
    # mask[:, :N, :N] of the course's (1, L, L) buffer)
    "mha_mask_unsqueezed_shared": ("mask_needs_batch_axis",),
    "mask_needs_3d": ("mask_needs_batch_axis",),
    "mask_sliced_from_buffer": ("mask_needs_batch_axis",),
    "mha_mask_expand_heads": ("mask_needs_batch_axis",),  # "a shared 2-D (N, N) mask raises ... (B, N, N) works"
    # mask.unsqueeze(1) in attention reads a shared (N_q, N_k) mask's rows as sequences, each row the key padding of
    # one (as hhu_leonardebinger's same line is declared), and on 4-D scores only a (B, N_q, N_k) mask is right
    "mask_unsqueezed_in_attention": ("mask_key_padding", "mask_needs_batch_axis"),
    # one fused projection cut into three D-wide pieces raises unless 2 d_k + d_v = 3D: the layer must project to D
    "decode_fused_model_width": ("layer_width_model",),
}


@dataclass(frozen=True)
class Port(_RealWorldPort):
    notes: str = ""  # where in the student's code each cause is

    def __post_init__(self) -> None:
        object.__setattr__(self, "causes", {function: (*causes, *(m for c in causes for m in IMPLIED.get(c, ())
                                                                  if m not in causes))
                                            for function, causes in self.causes.items()})

    def source(self) -> str:
        """The submission: the reference solution, then the port (whose definitions replace the reference's)."""
        return REFERENCE.read_text() + "\n\n" + (HERE / f"{self.name}.py").read_text()


DECODE = ("decode_step", "generate_cached", "generate_naive")


def decoding(*callees: str) -> dict[str, tuple[str, ...]]:
    """Callees of the decoding functions (the reference's, calling the student's): generate_cached also calls
    decode_step, which deviates with them."""
    return {"decode_step": callees, "generate_cached": (*callees, "decode_step"), "generate_naive": callees}

PORTS = [
    Port("cs336_sms915", {
        "softmax": ("softmax_wrong_axis", "temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("needs_leading_axis", "scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_head_width_model", "mha_value_width",
                                 "out_width_is_input"),
        "rope": ("rope_integer_positions",),
        **{f: ("needs_leading_axis", "rope_integer_positions") for f in DECODE},
    }, callee={
        "scaled_dot_product_attention": ("softmax",),
        **decoding("scaled_dot_product_attention", "rope"),
    }, notes="Softmax.py: `def Softmax(x, i=0)` (default dim 0, no temperature, max of an all -inf slice is -inf); "
       "ScaledDotProductAttention.py: einsum 'batch_size ... query d_k' needs a batch axis, no scale argument, "
       "calls Softmax(scores, -1); MultiHeadSelfAttention.py: rearrange 'b s (h d)' (3-D), "
       "`torch.tril(...)` causal mask built inside forward (no mask argument), merge with d=self.d_v = "
       "d_model // num_heads (`self.d_k = self.d_v = self.d_model // "
       "self.num_heads`: the heads merged back into H * (D // H), the input's width); RoPE.py: "
       "`self.cos_table[token_positions]` (integer indexing)."),
    Port("cs336_udit4code", {
        "softmax": ("default_required", "temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "always_causal"),
        "rope": ("rope_integer_positions",),
        **{f: ("rope_integer_positions",) for f in DECODE},
    }, callee={"scaled_dot_product_attention": ("softmax",), **decoding("rope")},
        notes="Softmax.py: `def softmax(x, dim)` (no default, no temperature, torch.max of an all -inf slice); "
        "ScaledDotProductAttention.py: no scale argument, softmax(scores, dim=-1); MultiHeadSelfAttention.py: "
        "`batch_size, seq_len, _ = x.shape`, view(..., self.num_heads, self.d_k) with d_k = d_model // num_heads "
        "for q, k and v, `mask = torch.tril(...)` built in forward; Rope.py: `token_positions.dtype not in "
        "(torch.int32, torch.int64)` raises TypeError, then `self.cos_cached[token_positions]`."),
    Port("idl_hw4_angelbidas", {
        "softmax": ("temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("mask_inverted", "mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mha_mask_head_axis",
                                 "mask_inverted", "mask_finite_fill", "needs_shared_mask"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="activation.py Softmax.forward: no temperature, Z - max with an all -inf slice; "
        "scaled_dot_product_attention.py: `np.where(mask, -self.eps, scaled_dot_product)` (True = ignore, eps = "
        "1e10), no scale argument; multi_head_attention.py: `N, L, E = x.shape`, reshape(N, L, H, embed_dim // H) "
        "for q, k, v, `attn_mask[None, None, :, :]`, concat reshape(N, L, self.embed_dim)."),
    Port("idl_hw4_quantjackson", {
        "softmax": ("temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("mask_inverted", "mask_finite_fill", "mask_full_shape",
                                         "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_mask_head_axis", "mask_full_shape", "mask_inverted",
                                 "mask_finite_fill", "needs_shared_mask"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="activation.py Softmax.forward: moveaxis + reshape(-1, C), row max (NaN on an all -inf row), no "
        "temperature; scaled_dot_product_attention.py: `scaled_dot_product[mask] = -self.eps` (True = ignore, "
        "boolean indexing needs the full shape), no scale argument; multi_head_attention.py: query (N, L, E), "
        "`attn_mask.reshape(1, 1, L, S)` in _merge_masks (a per-sequence mask cannot be reshaped, and a mask "
        "smaller than (L, S), e.g. (1, S), neither: it must be written out in full)."),
    Port("eecs498_a5_xecades", {
        "causal_mask": ("mask_inverted", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("batch_first_only", "mask_inverted", "mask_finite_fill",
                                         "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mask_inverted",
                                 "mask_finite_fill"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="get_subsequent_mask: `(1 - torch.tril(torch.ones(N, K, K))).bool()` (True = masked, square K x K); "
        "scaled_dot_product_no_loop_batch: `_, _, M = query.shape`, key.transpose(1, 2), "
        "`E.masked_fill(mask, -1e9)`, softmax dim=2, no scale argument; MultiHeadAttention: heads "
        "SelfAttention(dim_in, dim_out, dim_out) with dim_out = emb_dim // num_heads (EncoderBlock)."),
    Port("cs231n_12kdh43", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mha_mask_head_axis",
                                 "softmax_nan_fully_masked"),
    }, notes="MultiHeadAttention.forward: `N, S, D = query.shape`, reshape(N, S, self.H, D//self.H) for q, k, v, "
       "`e.masked_fill(attn_mask == 0, -float('inf'))` on (N, H, S, T) scores, F.softmax(e, -1)."),
    Port("cs336_vyvy3n", {
        "softmax": ("default_required", "temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("needs_leading_axis", "scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "always_causal"),
        "rope": ("rope_wrong_freq", "rope_integer_positions"),
        **{f: ("needs_leading_axis", "rope_wrong_freq", "rope_integer_positions") for f in DECODE},
    }, callee={
        "scaled_dot_product_attention": ("softmax",),
        **decoding("scaled_dot_product_attention", "rope"),
    }, notes="softmax.py: `def softmax(x, dim)` (no default, no temperature); scaled_attention.py: einsum "
       "'batch_size ... seq_len_q d_k' (a batch axis is required), no scale argument; mhsa.py: `batch_size, "
       "seq_len, d_model = x.shape`, `causal_mask = torch.tril(...)` ANDed with the constructor's mask (forward has "
       "no mask); RoPe.py: `freqs = theta / (10000.0 ** (2 * k_indices / d_k))` (theta multiplies, base fixed), "
       "`self.cos_vals[token_positions]` (integer indexing)."),
    Port("tinyllm_ekzhang", {
        "scaled_dot_product_attention": ("mask_bool_added",),
        "multi_head_attention": ("mask_bool_added", "mha_mask_head_axis"),
        "rope": ("rope_half_split", "rope_integer_offset", "rope_ignores_positions"),
        **{f: ("rope_half_split",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",), **decoding("rope")},
        notes="attention.py: `attn_logits += mask` (the course's masks are additive); SimpleMultiHeadAttention passes "
        "the mask to attention unchanged; positional_encoding.py: `offset: slice` (integer start), traditional=False "
        "default pairs x[..., 0, :] with x[..., 1, :] of reshape(N, L, H, 2, D // 2) (halves)."),
    Port("tinyllm_fuyufjh", {
        "causal_mask": ("mask_additive",),
        "scaled_dot_product_attention": ("mask_bool_added",),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mask_bool_added",
                                 "mha_mask_head_axis"),
        "rope": ("rope_half_split", "rope_integer_offset", "rope_ignores_positions"),
        **{f: ("rope_half_split",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",), **decoding("rope")},
        notes="attention.py: `scores = scores + mask`; causal_mask: `mx.triu(mx.full((L, S), -mx.inf), k)` (additive "
        "float); SimpleMultiHeadAttention: mask passed to attention unchanged (a per-sequence mask meets the (B, H, N, "
        "N) scores without a head axis), `batch_size, seq_length, _ = query.shape`, head_dim = hidden_size // "
        "num_heads; positional_encoding.py: `self.cos_freqs[offset]` (slice), non-traditional default splits halves."),
    Port("tinyllm_kuangjux", {
        "causal_mask": ("mask_additive",),
        "scaled_dot_product_attention": ("mask_bool_added",),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mask_bool_added",
                                 "mha_mask_head_axis"),
        "rope": ("rope_half_split", "rope_integer_offset", "rope_ignores_positions"),
        **{f: ("rope_half_split",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",), **decoding("rope")},
        notes="attention.py: `scores = scores + mask`; causal_mask: `mx.where(mask, 0, -inf)` (additive float); "
        "SimpleMultiHeadAttention: `batch_size = query.shape[0]`, reshape(batch_size, -1, H, hidden_size // H), "
        "mask passed to attention unchanged (a per-sequence mask meets the (B, H, N, N) scores without a head axis); "
        "positional_encoding.py: `t = mx.arange(offset.start, offset.stop)`, non-traditional `x[..., :half_dims]`."),
    Port("tinyllm_sunjnn", {
        "scaled_dot_product_attention": ("mask_bool_added",),
        "multi_head_attention": ("batch_first_only", "scale_other", "mha_value_width", "out_width_is_input",
                                 "mask_bool_added"),
        "rope": ("rope_half_split", "rope_integer_offset", "rope_ignores_positions"),
        **{f: ("rope_half_split",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",), **decoding("rope")},
        notes="attention.py: `mx.add(result, mask)`; SimpleMultiHeadAttention: `N = query.shape[0]; L = "
        "query.shape[1]; E = query.shape[2]`, `D = self.wq.shape[1] // self.H` also for values, `scale = "
        "mx.rsqrt(self.E // self.H)`, `result.reshape(N, L, E)`; positional_encoding.py: `self.cos_freqs[offset, :]`, "
        "non-traditional default splits halves."),
    Port("tinyllm_yangchenye323", {
        "scaled_dot_product_attention": ("mask_bool_added",),
        "multi_head_attention": ("mha_head_width_model", "mha_value_width", "mask_bool_added", "mha_mask_head_axis"),
        "rope": ("rope_half_split", "rope_integer_offset", "rope_ignores_positions"),
        **{f: ("rope_half_split",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",), **decoding("rope")},
        notes="attention.py: `scores = scores + mask`; SimpleMultiHeadAttention: `self.head_dim = self.wq.shape[-1] // "
        "self.num_heads` (wq is (H*D, E): the input width) for q, k, v, mask passed unchanged; "
        "positional_encoding.py: `self.sin_freq[offset]` (slice), encode_non_traditional reshape(N, L, H, 2, D//2)."),
    Port("cs336_jasonzou0", {
        "softmax": ("default_required", "temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "always_causal"),
        "rope": ("batch_first_only", "rope_integer_positions"),
        **{f: ("batch_first_only", "rope_integer_positions") for f in DECODE},
    }, callee={"scaled_dot_product_attention": ("softmax",), **decoding("rope")},
        notes="model.py RoPE.forward: `batch, seq_len, d_k = x.shape`, `cos_full[token_positions]`; softmax(x, dim) "
        "(no default, no temperature); scaled_dot_product_attention: no scale argument; multihead_self_attention: "
        "`batch_size, seq_len, d_in = in_features.shape`, `d_head = d_model // num_heads`, causal_mask built inside "
        "(no mask argument)."),
    Port("cs231n_bert8799", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mha_mask_head_axis",
                                 "softmax_nan_fully_masked"),
    }, notes="MultiHeadAttention.forward: `N, S, E = query.shape`, `self.head_dim = self.emd_dim // self.n_head` "
       "(views of q, k, v), `attn_score.masked_fill(attn_mask == 0, float('-inf'))` on (N, H, S, T) scores, "
       "torch.softmax, `view(N, S, E)`."),
    Port("eecs498_a5_rleaf", {
        "scaled_dot_product_attention": ("batch_first_only", "mask_inverted", "mask_finite_fill",
                                         "scale_argument_ignored"),
        "multi_head_attention": ("needs_leading_axes", "mask_inverted", "mask_finite_fill"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="scaled_dot_product_no_loop_batch: `_, _, M = query.shape`, torch.bmm (3-D only), "
        "`e.masked_fill_(mask, -1e9)` (True = masked) before dividing by M ** (1/2), no scale argument; the "
        "reference's multi_head_attention and decoding call it."),
    Port("idl_hw4_zk2275", {
        "scaled_dot_product_attention": ("mask_inverted", "mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": ("mask_inverted", "mask_finite_fill"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="scaled_dot_product_attention.py: `scaled_dot_product -= mask * self.eps` (True = ignore, eps = 1e10), "
        "no scale argument; the reference's multi_head_attention calls it."),
    Port("idl_hw4_wilpanson", {
        "softmax": ("temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("mask_inverted", "mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mha_mask_head_axis",
                                 "mask_inverted", "mask_finite_fill", "needs_shared_mask"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="activation.py Softmax.forward: no temperature, max of an all -inf slice; "
        "scaled_dot_product_attention.py: `scaled_dot_product += (mask * -self.eps)` (True = ignore), no scale "
        "argument; multi_head_attention.py: batch_size, length = x.shape[0], x.shape[1], "
        "head_dim = self.embed_dim // self.num_heads, "
        "`attn_mask[None, None, :, :]`, reshape(batch_size, length, self.embed_dim)."),
    Port("idl_hw4_hudsonliu", {
        "scaled_dot_product_attention": ("mask_inverted", "mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": ("mask_inverted", "mask_finite_fill"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="scaled_dot_product_attention.py: `np.where(mask, -self.eps, scaled_dot_product)` (True = ignore, eps = "
        "1e10), no scale argument; the reference's multi_head_attention calls it."),
    Port("dlsys_hw4_jchanke", {
        "scaled_dot_product_attention": ("needs_leading_axes", "needs_equal_widths", "needs_square", "mask_ignored",
                                         "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "needs_equal_widths", "mask_ignored"),
        **{f: ("needs_leading_axes",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="nn_transformer.py MultiHeadAttention.forward: `batch_size, num_head, queries_len, q_dim = q.shape` "
        "(4-D), `assert q_dim == k_dim == v_dim`, `assert queries_len == keys_values_len`, `if self.causal:` (default "
        "False) the only masking (no mask argument), scaffold softmax over axis 3; the reference's "
        "multi_head_attention and decoding call it."),
    Port("dlsys_hw4_reblexis", {
        "scaled_dot_product_attention": ("needs_leading_axes", "needs_equal_widths", "always_causal",
                                         "mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "needs_equal_widths", "always_causal", "mask_finite_fill"),
        **{f: ("needs_leading_axes",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="nn_transformer.py MultiHeadAttention.forward: `batch_size, num_head, queries_len, q_dim = q.shape` "
        "(4-D), `assert q_dim == k_dim == v_dim`, `mask = self.create_causal_mask(...)` added unconditionally (no "
        "mask argument, self.causal ignored), scaffold softmax over axis 3; the reference's multi_head_attention and "
        "decoding call it."),
    Port("cs224n_gpt_gerwinmateo", {
        "multi_head_attention": ("batch_first_only", "mask_ignored", "mask_bool_added"),
    }, notes="modules/attention.py: transform rearranges 'b t (h d)' (3-D); attention: `mask = torch.triu(torch.ones("
       "seqLen, seqLen), diagonal=1); attention = attention + mask` (a 0/1 causal pattern added: later keys +1), "
       "the attention_mask argument is never used."),
    Port("cs224n_gpt_aruntejch", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mask_finite_fill", "mask_bool_added",
                                 "mha_mask_head_axis"),
    }, notes="modules/attention.py: transform rearranges 'b t (h d)' (3-D); attention: `torch.triu(torch.ones(T, T), "
       "diagonal=1) * -10000.0` added always (finite), `attention_scores + attention_mask` (the mask is added)."),
    Port("cs224n_gpt_chocoo1", {
        "multi_head_attention": ("batch_first_only", "mha_mask_head_axis", "mask_finite_fill"),
    }, notes="modules/attention.py: transform rearranges 'b t (h d)' (3-D); attention: `scores.masked_fill("
       "attention_mask == 0, -1e9)` on (b, h, t, t) scores (finite, no head axis inserted), no causal mask."),
    Port("cs224n_gpt_3ricchen", {
        "multi_head_attention": ("batch_first_only", "scale_other", "always_causal", "mask_bool_added",
                                 "mha_mask_head_axis"),
    }, notes="modules/attention.py: transform rearranges 'b t (h d)' (3-D); attention: `scores / "
       "(self.attention_head_size ** 0.5)` with attention_head_size = hidden_size / num_heads, `torch.triu(torch.full("
       "(seq_len, seq_len), float('-inf')), diagonal=1)` added always, `scores + attention_mask + mask`."),
    # the FRESH ports (see FRESH below)
    Port("cs336_yyindev", {
        "softmax": ("default_required", "temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("always_causal", "mha_head_width_model", "mha_value_width"),
    }, callee={"scaled_dot_product_attention": ("softmax",)},
        notes="src/softmax.py: `def softmax(x: torch.Tensor, dim: int)` (no default, no temperature, torch.max of an "
        "all -inf slice); src/attention.py scaled_dot_product_attention: no scale argument, `QK_scaled.masked_fill("
        "~mask, -torch.inf)` then softmax(QK_scaled, dim=-1); MultiHeadSelfAttention.forward: `d = self.d_model // "
        "self.num_heads` in rearrange '... seq_len (num_heads d)' for Q, K and V, `mask = torch.tril(torch.ones(("
        "seq_len, seq_len)))` built in forward (no mask argument); src/rope.py matches (real positions work)."),
    Port("idl_hw4_bojunli03", {
        "softmax": ("softmax_unstable", "softmax_nan_fully_masked", "temperature_ignored"),
        "scaled_dot_product_attention": ("mask_inverted", "mask_finite_fill", "scale_argument_ignored",
                                         "softmax_unstable", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mha_mask_head_axis",
                                 "mask_inverted", "mask_finite_fill", "softmax_nan_fully_masked", "needs_shared_mask"),
    }, callee={"scaled_dot_product_attention": ("softmax",), "multi_head_attention": ("scaled_dot_product_attention",)},
        notes="activation.py Softmax.forward: `self.A = np.exp(Z); self.A /= np.sum(self.A, axis=self.dim, "
        "keepdims=True)` (no max subtracted: overflow, and 0/0 on an all -inf slice; in attention a fully masked row, "
        "all -1e10, underflows to 0/0 too: NaN), no temperature; "
        "scaled_dot_product_attention.py: `np.where(mask, scaled_dot_product - self.eps, scaled_dot_product)` (True "
        "= ignore, eps = 1e10), no scale argument, the student's Softmax(dim=-1); multi_head_attention.py: `self.N = "
        "query.shape[0]; self.L = query.shape[1]`, _split_heads reshape(self.N, self.L, self.num_heads, "
        "self.embed_dim // self.num_heads), _merge_masks `np.expand_dims(attn_mask, axis=0)` twice (a (B, N, N) mask "
        "becomes (1, 1, B, N, N)), _concat_heads reshape(self.N, self.L, self.embed_dim)."),
    Port("tinyllm_aeft", {
        "causal_mask": ("mask_additive",),
        "scaled_dot_product_attention": ("mask_bool_added",),
        "multi_head_attention": ("mha_head_width_model", "mha_value_width", "mask_bool_added", "mha_mask_head_axis",
                                 "mha_needs_divisible_width"),
        "rope": ("rope_half_split", "rope_integer_offset", "rope_ignores_positions"),
        **{f: ("rope_half_split",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",), **decoding("rope")},
        notes="attention.py: `scores = scores + mask`; causal_mask: `mx.where(mask, mx.array(-mx.inf), mx.array(0))` "
        "(additive float); SimpleMultiHeadAttention: `assert mh_q.shape[-1] == self.hidden_size`, reshape(..., "
        "self.num_heads, width // self.num_heads), the mask passed on unchanged, `mh_o.reshape(*mh_o.shape[:-2], "
        "self.hidden_size)`; positional_encoding.py: `self.cos_freqs[offset, :]` (slice), traditional=False default "
        "takes `x[..., 0 : self.half_dims]` and `x[..., self.half_dims : self.dims]` (halves)."),
    Port("cse599o_andyub", {
        "softmax": ("temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("always_causal", "mha_head_width_model", "mha_value_width"),
        "rope": ("rope_integer_positions", "rope_table_first_n"),
        **{f: ("rope_integer_positions", "rope_table_first_n") for f in DECODE},
    }, callee={"scaled_dot_product_attention": ("softmax",), **decoding("rope")},
        notes="transformer.py softmax: `torch.max(x, dim=dim, keepdim=True)` subtracted (NaN on an all -inf slice), "
        "no temperature; scaled_dot_product_attention: no scale argument, `masked_fill_(mask == 0, float('-inf'))` "
        "then the student's softmax; MultiHeadSelfAttention: `self.d_head = d_model // num_heads` for q, k and v, "
        "`mask = torch.tril(torch.ones((seq_len, seq_len)))` built in forward (no mask argument), "
        "`view(*batch_dims, seq_len, d_model)`; RoPE.forward: `cos = self.cos[:seq_len]` then `cos = "
        "cos[token_positions]` (integer indexing of a table cut to seq_len rows)."),
    Port("eecs498_a5_jerryfishy", {
        "causal_mask": ("mask_inverted", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("batch_first_only", "mask_inverted", "mask_finite_fill", "mask_full_shape",
                                         "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mask_inverted", "mask_finite_fill", "mask_full_shape"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="get_subsequent_mask: `mask[:, i, j] = True` for i < j in two loops (True = masked, K x K); "
        "scaled_dot_product_no_loop_batch: `_, _, M = query.shape`, torch.bmm (3-D only), `attention[mask] = -1e9` "
        "(boolean indexing: the mask must have the scores' shape), F.softmax(dim=2), no scale argument; "
        "MultiHeadAttention: heads SelfAttention(dim_in, dim_out, dim_out) on the same mask, torch.cat(hidden, "
        "dim=2)."),
    Port("cs231n_tomer0013", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mha_mask_head_axis",
                                 "softmax_nan_fully_masked"),
    }, notes="MultiHeadAttention.forward: `N, S, D = query.shape`, `d_h = int(D / H)` in reshape(N, T, H, d_h) for k, "
       "v and q, `alignment.masked_fill(attn_mask == 0, -float('inf'))` on (N, H, S, T) scores, nn.Softmax(dim=-1), "
       "`output_split.reshape(N, -1, D)`."),
    # the FRESH_2 ports (see FRESH_2 below)
    Port("cs224n_a4_zhiweilll", {
        "rope": ("rope_ignores_positions", "rope_base_ignored"),
        "decode_step": ("rope_ignores_positions",),
        "generate_cached": ("rope_ignores_positions",),
        "generate_naive": ("rope_ignores_positions", "rope_base_ignored"),
    }, callee=decoding("rope"),
        notes="a4/src/attention.py precompute_rotary_emb: `inv_freq = 1.0 / (10000 ** (2.0 * idx / dim))` (no base "
        "parameter); apply_rotary_emb: `rope_cache = rope_cache[:T]` (token t rotated at position t whatever the "
        "positions). Decoding: the new token is rotated at position 0 (the identity, so base plays no part) in "
        "decode_step and generate_cached; generate_naive's keys sit at 0..n (right) but its query at 0, with base "
        "10000."),
    Port("minllama_kartashoffv", {
        "scaled_dot_product_attention": ("mask_ignored", "scale_argument_ignored"),
        "multi_head_attention": ("mask_ignored",),
        "rope": ("rope_ignores_positions",),
        **{f: ("rope_ignores_positions",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",), **decoding("rope")},
        notes="llama.py compute_query_key_value_scores(self, query, key, value, mask): `mask` is never read, "
        "`scores / torch.sqrt(torch.tensor(d_k))` with d_k = query.size(-1) (no scale argument); rope.py "
        "apply_rotary_emb: `pos = torch.arange(seqlen, device=device).float()[:max_seq_len]` (token t at position "
        "t). The reference's multi-head attention and decoding call them."),
    Port("minllama_dingkwan", {
        "scaled_dot_product_attention": ("needs_leading_axes", "needs_square", "always_causal",
                                         "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "always_causal"),
        "rope": ("rope_ignores_positions",),
        **{f: ("needs_leading_axes", "rope_ignores_positions") for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention", "rope")},
        notes="llama.py compute_query_key_value_scores: `batch_size, n_heads, seqlen, head_dim = query.size()` (4-D), "
        "`causal_mask = torch.tril(torch.ones((seqlen, seqlen)))` viewed (1, 1, seqlen, seqlen) and masked_fill("
        "~causal_mask, -inf) always (no mask argument; the keys must be as many as the queries), "
        "`/ math.sqrt(head_dim)` (no scale argument); rope.py apply_rotary_emb: `angles = angles[:seqlen]` of "
        "positions arange(max_seq_len) (token t at position t). The reference's multi-head attention (whose "
        "(..., H, N, d) split is 4-D only with one batch axis) and decoding (2-D) call them."),
    Port("llmsys_hw2_aalexchengg", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "always_causal",
                                 "out_width_is_input"),
    }, notes="minitorch/modules_transfomer.py MultiHeadAttention: `batch_size, seq_len, n_embd = x.shape`, "
       "`self.attn_hidden_dim = n_embd // n_head` in `q.view(batch_size, seq_len, self.n_head, self.attn_hidden_dim)` "
       "for q, k and v, `if self.causal: numerator += self.create_causal_mask(queries_len)` (TransformerLayer passes "
       "causal=True; forward has no mask argument), `result.contiguous().view(batch_size, queries_len, self.n_embd)`, "
       "forward's `output.view(batch_size, seq_len, self.n_embd)` after out_projection."),
    Port("uvadl_a2_toyeshc", {
        "multi_head_attention": ("batch_first_only", "qkv_chunked_over_heads", "mha_head_width_model",
                                 "mha_value_width", "always_causal"),
        "rope": ("rope_ignores_positions", "rope_base_ignored", "rope_wrong_direction", "rope_mixed_layout",
                 "extra_leading_axes"),
        **{f: ("rope_ignores_positions", "rope_base_ignored", "rope_wrong_direction", "rope_mixed_layout",
               "extra_leading_axes") for f in DECODE},
    }, callee=decoding("rope"),
        notes="assignment2/part2/gpt.py CausalSelfAttention.forward: `B, T, C = x.size()`, `qkv.view(B, T, 3, "
        "self.n_head, C // self.n_head).transpose(2, 3)` then `q, k, v = qkv.chunk(3, dim=2)` (the head axis), "
        "`math.sqrt(C // self.n_head)`, `att.masked_fill(self.mask[:, :, :T, :T] == 0, float('-inf'))` always; "
        "apply_rotary_emb: `seq_pos = torch.arange(T, ...)`, the template's `10000 **` inv_freq, `pos_emb = "
        "torch.cat((freqs, freqs), dim=-1).unsqueeze(0).unsqueeze(0)` (halves; (1, 1, T, dim) adds leading axes), "
        "`xq * pos_cos - torch.cat((-xq[..., 1::2], xq[..., ::2]), dim=-1) * pos_sin` (interleaved copy, minus)."),
    Port("uvadl_a2_lisasaleh", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "always_causal"),
        "rope": ("rope_ignores_positions", "rope_base_ignored", "rope_output_halves", "rope_single_token_fails",
                 "extra_leading_axes"),
        **{f: ("rope_single_token_fails", "rope_ignores_positions", "rope_base_ignored", "rope_output_halves",
               "extra_leading_axes") for f in DECODE},
    }, callee=decoding("rope"),
        notes="assignment2/part2/gpt.py CausalSelfAttention.forward: `B, T, C = x.size()`, `qkv.split(self.n_embd, "
        "dim=2)` and `view(B, T, self.n_head, C // self.n_head)` for q, k, v, `att.masked_fill(self.mask[:, :, :T, "
        ":T] == 0, -1e9)` always; apply_rotary_emb: `seq_pos = torch.arange(T, ...).unsqueeze(-1)` then "
        "`torch.einsum(\"i,j->ij\", seq_pos.squeeze(), ...)` (T = 1 fails), the template's `10000 **` inv_freq, "
        "`torch.cat((xq_rot, xq_odd * pos_cos + xq_even * pos_sin), dim=-1)` (halves), `.unsqueeze(0).unsqueeze(0)` "
        "tables (leading axes added). Decoding rotates one token at a time: every call fails."),
    # the FRESH_3 ports (see FRESH_3 below)
    Port("cs336_jbmopper", {
        "softmax": ("default_required", "temperature_ignored", "softmax_global_max", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("default_required", "needs_mask", "mask_after_softmax",
                                         "scale_argument_ignored", "softmax_global_max"),
        "multi_head_attention": ("needs_mask", "mask_after_softmax"),
        "decode_step": ("default_required",),
        "generate_cached": ("default_required",),
        "generate_naive": ("default_required",),
    }, callee={"scaled_dot_product_attention": ("softmax",), "multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="cs336_basics/implementations.py (commit 002c0b9) softmax: `def softmax(in_features, dim)` (no default, "
        "no temperature), `in_features - torch.max(in_features)` (one max over the whole tensor: a slice far below it "
        "underflows to 0/0, an all -inf slice is 0/0); scaled_dot_product_attention: `def "
        "scaled_dot_product_attention(Q, K, V, mask)` (no default mask, no scale argument), `softmax(scaled_product, "
        "-1) * mask` (the mask multiplies the weights after the softmax; `* None` raises without one). The "
        "reference's multi-head attention passes mask=None or a mask; its decoding calls attention without one."),
    Port("cs336_xiaofei9289", {
        "softmax": ("default_required", "temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("always_causal", "mha_head_width_model", "mha_value_width"),
        "rope": ("rope_integer_positions",),
        **{f: ("rope_integer_positions",) for f in DECODE},
    }, callee={"scaled_dot_product_attention": ("softmax",), **decoding("rope")},
        notes="layers.py softmax: `def softmax(in_features, dim)` (no default, no temperature, torch.max along dim: "
        "NaN on an all -inf slice); attention.py scaled_dot_product_attention: no scale argument, "
        "`masked_fill(~mask, float(\"-inf\"))` then the student's softmax; MultiHeadSelfAttention: `self.head_dim = "
        "d_model // num_heads` in split_heads for q, k and v, `causal_mask = torch.tril(torch.ones(seq_len, "
        "seq_len))` built in forward (no mask argument), merge_heads `reshape(*leading_shape, seq_len, "
        "self.d_model)`; rope.py: `cos = self.cos_cached[token_positions]` (integer indexing)."),
    Port("tinyllm_li0k", {
        "causal_mask": ("mask_additive",),
        "scaled_dot_product_attention": ("mask_bool_added",),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mask_bool_added",
                                 "mha_mask_head_axis", "mha_needs_divisible_width"),
        "rope": ("rope_half_split", "rope_integer_offset", "rope_ignores_positions"),
        **{f: ("rope_half_split",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",), **decoding("rope")},
        notes="attention.py: `scores = scores + mask`; causal_mask: `mx.where(mask, mx.array(0), "
        "mx.array(float(\"-inf\")))` (additive float); SimpleMultiHeadAttention: `N, L, E = query.shape`, "
        "`reshape(N, L, self.num_heads, self.head_dim)` with head_dim = hidden_size // num_heads for q, k, v, the "
        "mask passed on unchanged, `output.transpose(0, 2, 1, 3).reshape(N, L, E)`; positional_encoding.py: "
        "handle_offset turns the `offset` slice into range(offset.start, offset.stop) (integer start), "
        "traditional=False default takes `x[..., 0 : D // 2]` and `x[..., D // 2 : D]` (halves)."),
    Port("cs231n_sihan0229", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mha_mask_head_axis",
                                 "softmax_nan_fully_masked", "needs_shared_mask", "mha_needs_divisible_width"),
    }, notes="MultiHeadAttention.forward: `N, S, E = query.shape`, `self.head_dim = self.emd_dim // self.n_head` in "
       "`view(N, S, self.n_head, self.head_dim)` for query, key and value, `score.masked_fill(attn_mask.view(1, 1, "
       "*attn_mask.size()) == 0, float('-inf'))` (a (N, S, T) mask becomes (1, 1, N, S, T)), F.softmax(score, "
       "dim=-1), `output.permute(0, 2, 1, 3).reshape(N, S, E)` (the constructor asserts embed_dim % num_heads == 0, "
       "so the merge into E is always H * head_dim)."),
    Port("uvadl_a2_65456u", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "always_causal",
                                 "mha_needs_divisible_width"),
        "rope": ("rope_half_split", "rope_ignores_positions", "rope_base_ignored", "extra_leading_axes"),
        "decode_step": ("rope_ignores_positions", "extra_leading_axes"),
        "generate_cached": ("rope_ignores_positions", "extra_leading_axes"),
        "generate_naive": ("rope_ignores_positions", "rope_half_split", "rope_base_ignored", "extra_leading_axes"),
    }, callee=decoding("rope"),
        notes="assignment2/part2/gpt.py CausalSelfAttention.forward: `B, T, C = x.size()`, `self.c_attn(x).split("
        "self.n_embd, dim=2)` and `view(B, T, self.n_head, C // self.n_head)` for q, k, v, `att.masked_fill("
        "self.mask[:, :, :T, :T] == 0, float('-inf'))` always; apply_rotary_emb: `seq_pos = torch.arange(T, ...)`, "
        "the constructor's `10000 **` inv_freq, `pos_emb = torch.cat((freqs, freqs), dim=-1).unsqueeze(0)"
        ".unsqueeze(0)` ((1, 1, T, dim): leading axes added), `xq * pos_cos + rotate_half(xq) * pos_sin` with "
        "rotate_half = cat((-x2, x1)) of the halves. Decoding: the new token is rotated at position 0 (the identity) "
        "and gains two leading axes; generate_naive's keys sit at 0..n in the halves layout, its query at 0."),
    Port("idl_hw4_yufeisong0914", {
        "softmax": ("temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("mask_inverted", "mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_mask_head_axis", "mask_inverted", "mask_finite_fill",
                                 "mha_needs_divisible_width", "needs_shared_mask"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="activation.py Softmax.forward: moveaxis + reshape(-1, C), row max (NaN on an all -inf row), no "
        "temperature; scaled_dot_product_attention.py: `scaled_dot_product + mask * (-self.eps)` (True = ignore, "
        "eps = 1e10), no scale argument; multi_head_attention.py: `self.N = query.shape[0]` ... `self.E = "
        "query.shape[2]`, _split_heads `head_dim = E // self.num_heads` of each projection's own width (right for "
        "d_v != d_k), _merge_masks `attn_mask[np.newaxis, np.newaxis, :, :]` broadcast_to (N, H, L, S) (a (N, L, S) "
        "mask cannot be), __init__ `if embed_dim % num_heads != 0: raise ValueError`."),
    # the FRESH_4 ports (see FRESH_4 below): courses the corpus had not used (Georgia Tech CS 7643, UT Austin CS 388,
    # UMass COMPSCI 685, Toronto CSC413/2516, CMU 11-667)
    Port("cs7643_a4_mjfox314", {
        "multi_head_attention": ("batch_first_only", "mha_fixed_heads", "mha_second_head_copies_first",
                                 "mask_ignored"),
    }, notes="assignment4/models/Transformer.py (commit 5e04aaa) multi_head_attention: `Q2 = self.q1(inputs)`, `K2 = "
       "self.k1(inputs)`, `V2 = self.v1(inputs)` (head 2 = head 1), the template's two heads and `nn.Linear(self.dim_v "
       "* self.num_heads, self.hidden_dim)` projection, `nn.Softmax(dim=2)` and `torch.cat(..., dim=2)` (3-D only), no "
       "mask."),
    Port("cs7643_a4_simonanez", {
        "multi_head_attention": ("batch_first_only", "mha_fixed_heads", "mask_ignored"),
    }, notes="assignment4/models/Transformer.py multi_head_attention: `torch.transpose(keys1, 1, 2)`, "
       "`nn.Softmax(dim=2)` and `torch.cat((attention1, attention2), dim=2)` (3-D only), the template's two heads and "
       "`nn.Linear(self.dim_v * self.num_heads, self.hidden_dim)` projection, no mask."),
    Port("cs7643_a4_smokeshine", {
        "multi_head_attention": ("batch_first_only", "mha_fixed_heads", "mask_ignored"),
    }, notes="assignment4/models/Transformer.py multi_head_attention: `_, Nx, Dq = key_vectors_1.shape`, `torch.bmm("
       "query_vectors_1, key_vectors_1.permute(0, 2, 1))` (3-D only), the template's two heads and `nn.Linear("
       "self.dim_v * self.num_heads, self.hidden_dim)` projection, no mask."),
    Port("ut_cs388_adhr1t", {
        "multi_head_attention": ("heads_not_split", "scale_d_model", "no_output_projection", "no_batch_support",
                                 "mask_ignored"),
    }, notes="transformer.py (commit 24a0fd5) TransformerLayer.attention: one head (q_linear, k_linear, v_linear), "
       "`torch.matmul(q, k.T) / np.sqrt(d_model)` (`.T` of every axis; d_model is the input's width), softmax(dim=-1), "
       "`torch.matmul(attn_weights, v)` returned without an output projection, the mask code commented out."),
    Port("ut_cs388_dnofulla", {
        "multi_head_attention": ("heads_not_split", "always_causal", "needs_leading_axes", "no_batch_support"),
    }, notes="(no_batch_support added by the lead once the probe search tried the heads' widths: `sequence_length "
       "= input_vectors.size(0)` reads the input as one (N, D) matrix, which is that sentence.) "
       "transformer.py (commit 7c65ccf) TransformerLayer.forward: one head (query_layer, key_layer, value_layer "
       "and output_projection), `sequence_length = input_vectors.size(0)` (the first axis), `torch.triu(torch.ones("
       "sequence_length, sequence_length), diagonal=1)` masked_fill(-inf) always (no mask argument), `/ "
       "math.sqrt(key_dimension)` with key_dimension = queries.size(-1) (the one head's full width)."),
    Port("ut_cs388_raminmohammadi", {
        "multi_head_attention": ("heads_not_split", "scale_d_model", "no_output_projection", "mask_ignored",
                                 "extra_leading_axes"),
    }, notes="transformer.py (commit 542eb27) TransformerLayer: `self.d_k = d_model` (single head as wide as the "
       "model), forward's `input_vecs.unsqueeze(0)` of a 2-D input (never removed), `/ np.sqrt(self.d_k)`, "
       "softmax(dim=-1), no output projection (\"here doing single-head attention so skip\"), the causal mask "
       "commented out."),
    Port("ut_cs388_xxueewa", {
        "scaled_dot_product_attention": ("softmax_wrong_axis", "scale_other", "no_batch_support", "mask_ignored",
                                         "scale_argument_ignored"),
        "multi_head_attention": ("no_batch_support",),
        **{f: ("softmax_wrong_axis",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="transformer.py (commit 4c1fc9a) TransformerLayer.attention: `torch.matmul(query, key.transpose(1, 0))` "
        "(2-D only), `softmax(q_kt / math.sqrt(self.d_k), dim=0)` with `self.d_k = 100` (over the queries; scale "
        "1/10), no mask, no scale argument. The reference's multi-head attention (3-D or 4-D heads: the transpose "
        "makes the product fail, before any other mistake shows) and decoding (one query: dim=0 gives every key weight "
        "1) call it."),
    Port("umass685_ethanharper81", {
        "multi_head_attention": ("heads_not_split", "scale_d_v", "no_output_projection", "no_batch_support",
                                 "mask_ignored"),
    }, notes="transformer.py (commit 66fa0c3) TransformerLayer.forward: one head (query, key, value), "
       "`torch.matmul(querys, keys.T) / np.sqrt(self.d_value)` (`.T` of every axis; the values' width), "
       "torch.softmax(dim=1), `torch.matmul(intermediate, values)` with no output projection, no mask."),
    Port("csc413_pa3_maryamebr", {
        "scaled_dot_product_attention": ("weights_transposed", "batch_first_only", "needs_equal_widths",
                                         "always_causal", "causal_top_left", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "needs_equal_widths", "always_causal"),
        **{f: ("batch_first_only", "needs_equal_widths") for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="nmt.ipynb ScaledDotAttention: `batch_size = keys.size(0)`, `.view(batch_size, -1, self.hidden_size)` of "
        "q, k AND v (3-D; V as wide as Q), `torch.bmm(k, q.transpose(2,1))`, nn.Softmax(dim=1), weights returned as "
        "(batch, seq_len, k); CausalScaledDotAttention: `torch.tril(torch.ones_like(unnormalized_attention) * "
        "self.neg_inf, diagonal=-1)` added (its own top-left causal mask, -1e7), no mask or scale argument. The "
        "reference's multi-head attention (4-D heads with a batch axis; per-sequence masks) and decoding (2-D) call "
        "it."),
    Port("csc413_pa3_snow0420", {
        "scaled_dot_product_attention": ("weights_transposed", "batch_first_only", "always_causal", "causal_top_left",
                                         "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "always_causal"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="nmt.ipynb ScaledDotAttention: `batch_size = queries.shape[0]`, `self.Q(queries).view(batch_size, -1, "
        "self.hidden_size)`, `q @ k.transpose(1, 2)` (3-D only), `self.softmax(unnormalized_attention).transpose(1, "
        "2)` returned as the weights; CausalScaledDotAttention: `mask = torch.tril(unnormalized_attention)`, "
        "`unnormalized_attention[mask == 0] += self.neg_inf` (its own top-left causal mask, -1e7), no mask or scale "
        "argument. The reference's multi-head attention (4-D heads with a batch axis; per-sequence masks) and "
        "decoding (2-D) call it."),
    Port("csc413_pa3_markchangliu", {
        "scaled_dot_product_attention": ("keys_reshaped", "weights_reshaped", "batch_first_only", "always_causal",
                                         "causal_top_left", "scale_argument_ignored"),
        "multi_head_attention": ("keys_reshaped", "batch_first_only", "always_causal"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="nmt.ipynb ScaledDotAttention: `batch_size, seq_len, hid_size = keys.size()` (3-D), `k = k.view("
        "batch_size, hid_size, seq_len)` (a reshape, not a transpose), `torch.bmm(q, k)`, weights returned as "
        "`attention_weights.view(dim_aw1, dim_aw3, dim_aw2)`; CausalScaledDotAttention: `torch.triu(self.neg_inf"
        ".expand_as(unnormalized_attention), diagonal=1)` added (its own top-left causal mask, -1e7), no mask or "
        "scale argument. The reference's multi-head attention (4-D heads with a batch axis; per-sequence masks) and "
        "decoding (2-D) call it."),
    Port("cmu11667_hw2_tejasgoyal", {
        "multi_head_attention": ("batch_first_only", "always_causal", "scale_other"),
    }, notes="src/lm/model.py (commit 0270877) MultiHeadAttention: `scale_factor = 1 / torch.sqrt(torch.tensor("
       "attn_hidden_dim))` with `attn_hidden_dim = n_embd // n_head` (another constant than 1/sqrt(d_k) when the "
       "projections change the width; the heads themselves are split right), `rearrange(q, 'b s (h hd) -> b h s hd', "
       "h=self.n_head)` (3-D only), `causal_mask = torch.tril(torch.ones(s, s)).bool()` used whatever the padding "
       "mask, masked_fill(~mask, torch.finfo(q.dtype).min), projection."),
    # the FRESH_5 ports (see FRESH_5 below): UC San Diego CSE 256 (Statistical NLP), programming assignment 2, a course
    # the corpus had not used
    Port("cse256_hzempire", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mha_mask_unsqueezed_shared", "softmax_nan_fully_masked"),
    }, notes="transformer.py (commit 042e433) Attention: `assert embed_size % head_num == 0`, `self.head_dim = "
       "embed_size // head_num` for q, k and v, `N, seq_len, num_features = x.shape`, `mask = mask.unsqueeze(1)` then "
       "`score.masked_fill(mask == 0, float('-inf'))`, F.softmax(score, dim=-1), `reshape(N, seq_len, "
       "self.embed_size)`, fc."),
    Port("cse256_yaof20", {
        "multi_head_attention": ("batch_first_only", "swapped_qk", "scale_d_model", "mha_head_width_model",
                                 "mha_value_width", "always_causal", "causal_mask_block_size"),
    }, notes="model.py (commit 0f77e53) MultiHeadAttention: `Head(d_model, d_model // head_num, ...)` for queries, "
       "keys and values; Head.forward: `B, T, C = x.shape`, `wei = k @ q.transpose(-2, -1) * C ** -0.5` (keys times "
       "queries, scaled by the input width), `if self.is_causal: wei = wei.masked_fill(self.tril == 0, "
       "float('-inf'))` with the full (block_size, block_size) buffer (no mask argument: the decoder is causal, "
       "whatever mask)."),
    Port("cse256_0xarsi", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "out_width_is_input",
                                 "no_output_projection", "mha_output_layer_norm", "mask_ignored"),
    }, notes="src/transformer.py (commit 1273f0a) NHeadAttention: `self.head_dim = n_embed // n_heads` for query, key "
       "and value, `batch_size = x.size(0)` and `.view(batch_size, -1, self.num_heads, self.head_dim)`, "
       "`.view(batch_size, -1, self.n_embed)` merge, `x = self.normalize(ctx)` (nn.LayerNorm) returned with no "
       "output projection, no mask."),
    Port("cse256_atharv2802", {
        "multi_head_attention": ("batch_first_only", "qk_position_added", "scale_d_model", "mha_value_width",
                                 "always_causal"),
    }, notes="transformer.py (commit 7a16f93) AttentionHead.forward: `batch, time, channels = x.shape`, `pos_enc = "
       "torch.arange(time, ...).unsqueeze(0).unsqueeze(-1)`, `query += pos_enc`, `key += pos_enc`, `mat_mul /= "
       "channels**(0.5)`, `if self.decoder:` tril[:time, :time] masked_fill(-inf) (no mask argument); value "
       "nn.Linear(n_embd, head_size) like the queries'."),
    Port("cse256_lizhecheng02", {
        "multi_head_attention": ("batch_first_only", "scale_d_model", "mha_head_width_model", "mha_value_width",
                                 "mha_mask_head_axis", "mha_needs_divisible_width", "softmax_nan_fully_masked"),
    }, notes="transformer.py (commit e670a62) SelfAttention: `self.head_dim = embed_size // heads` and `assert "
       "(self.head_dim * heads == embed_size)`, `N = query.shape[0]`, reshape(N, len, heads, head_dim), "
       "`qk.masked_fill(mask == 0, float('-inf'))` on (N, heads, q, k) scores with the mask as given, `qk / "
       "(self.embed_size ** (1 / 2))`, torch.softmax(dim=3)."),
    Port("cse256_jefferychen453", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("mha_mask_head_axis", "softmax_nan_fully_masked"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="transformer/attention.py (commit 067e358) scaled_dot_product_attention(Q, K, V, mask=None): no scale "
        "argument, `attn_score.masked_fill_(~mask, -torch.inf)` then F.softmax(dim=-1) (NaN on an all -inf row); "
        "MultiHeadAttention.forward: `scaled_dot_product_attention(Q, K, V, mask)` with the mask as given on (..., h, "
        "s, s) heads (no head axis)."),
    Port("cse256_mintpancake", {
        "multi_head_attention": ("batch_first_only", "mha_value_width", "always_causal"),
    }, notes="PA2_code/transformer.py (commit 2ec8fe0) Head: `self.value = nn.Linear(n_embd, head_size, bias=False)` "
       "like key and query, `B, T, C = x.shape`, `if self.masked: wei = wei.masked_fill(self.tril[:T, :T] == 0, "
       "float('-inf'))` (no mask argument: the decoder is causal, whatever mask)."),
    Port("cse256_runpengj", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "out_width_is_input",
                                 "mha_mask_head_axis", "softmax_nan_fully_masked"),
    }, notes="CSE256_PA2_FA24/PA2_code/attention.py (commit 0fde815) MultiHeadAttention: `self.head_dim = self.d_model "
       "// num_heads` for query, key and value, `batch_size = key.size(0)`, `seq_length = key.size(1)`, "
       "`scaled_scores.masked_fill(mask == 0, float('-inf'))` on (batch, heads, q, k) scores with the mask as given, "
       "F.softmax(dim=-1), `attention.view(batch_size, seq_length, self.d_model)`."),
    Port("cse256_kevinxsn", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mha_mask_unsqueezed_shared", "softmax_nan_fully_masked"),
    }, notes="CSE256_PA2_WI26/PA2_code/transformer.py (commit bc9d634) MultiHeadAttention: `assert d_model % n_heads "
       "== 0`, `self.d_k = d_model // n_heads` for Q, K and V, `batch_size = query.size(0)` and `.view(batch_size, -1, "
       "self.h, self.d_k)`, `mask = mask.unsqueeze(1)` then `scores.masked_fill(mask == 0, float('-inf'))`, "
       "F.softmax(dim=-1), `.view(batch_size, -1, self.h*self.d_k)`, fc."),
    Port("cse256_samyakmehta28", {
        "multi_head_attention": ("batch_first_only", "mha_value_width", "always_causal"),
    }, notes="PA2/transformer.py (commit 412a074) Head: `self.value = nn.Linear(n_embd, head_size, bias=False)` like "
       "key and query, `B,T,C = x.shape`, `if self.mask: attention_map = attention_map.masked_fill(self.tril[:T, :T] "
       "== 0, float('-inf'))` (no mask argument: the decoder is causal, whatever mask)."),
    # the FRESH_6 ports (helper A): CMU 10-423/10-623 (Generative AI), homework 1 (RoPE and grouped-query attention
    # added to minGPT), a course the corpus had not used
    Port("cmu10423_hw1_stablegradients", {
        "multi_head_attention": ("batch_first_only", "always_causal"),
        "rope": ("rope_half_split", "rope_ignores_positions", "rope_position_off_by_one"),
        "decode_step": ("rope_ignores_positions", "rope_half_split"),
        "generate_cached": ("rope_ignores_positions",),
        "generate_naive": ("rope_ignores_positions", "rope_half_split"),
    }, callee=decoding("rope"),
        notes="hw1/handout/mingpt/model.py (commit b9b481d) RotaryPositionalEmbeddings._build_cache: `positions = "
        "torch.arange(1, self.N_max+1)` (token t at position t + 1, no positions argument), `torch.cat([self._theta_i, "
        "self._theta_i], dim=0)`; forward: `torch.cat([-1 * Y[..., self.d//2:], Y[..., :self.d//2]], dim=-1)` "
        "(halves); GroupedQueryAttention.forward: `B, T, _ = x.size()`, rearrange 'b t (h d) -> b h t d', "
        "`F.scaled_dot_product_attention(q, k, v, attn_mask=None, ..., is_causal=True)` (no mask argument). Decoding: "
        "the new token is rotated at position 1 whatever len(cache) (in generate_cached every q and k at 1: the "
        "rotations cancel); generate_naive's keys sit at 1..n+1, its query at 1."),
    Port("cmu10423_hw1_thomasczhang", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width"),
        "rope": ("needs_leading_axes", "rope_half_split", "rope_wrong_freq", "rope_ignores_positions",
                 "rope_position_off_by_one"),
        "decode_step": ("needs_leading_axes", "rope_ignores_positions", "rope_half_split", "rope_wrong_freq"),
        "generate_cached": ("needs_leading_axes", "rope_ignores_positions"),
        "generate_naive": ("needs_leading_axes", "rope_ignores_positions", "rope_half_split", "rope_wrong_freq"),
    }, callee=decoding("rope"),
        notes="hw1/handout/mingpt/model.py (commit 05b78da) RotaryPositionalEmbeddings._build_cache: `theta = "
        "torch.pow(self.base, -2**(positions)/self.d)` (base ** (-(2**i) / d)), `c_matrix[:,:self.d//2] = theta`, "
        "`c_matrix[:,self.d//2:] = theta`, `c_matrix*torch.arange(1,self.N+1)` (token t at position t + 1, no "
        "positions argument); forward: `torch.cat((-x[:, :, :, self.d//2:], x[:, :, :, :self.d//2]), dim = 3)` "
        "(halves; four axes named: 4-D only); GroupedQueryAttention: `assert config.n_embd % config.n_query_head == "
        "0`, `B, T, C = x.size()`, `self.vk_attn(x).split(self.n_embd, dim=2)`, `k.view(B, T, self.n_head, C // "
        "self.n_head)` for k, v and q, `att.masked_fill(self.bias[:,:,:T,:T] == 0, float('-inf'))` always (no mask "
        "argument), `view(B, T, C)`. The reference's decoding rotates 2-D rows: every call with rope_base raises."),
    Port("cmu10423_hw1_vigkneshvr", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_needs_divisible_width"),
        "rope": ("needs_leading_axes", "rope_half_split", "rope_base_ignored", "rope_ignores_positions",
                 "rope_position_off_by_one"),
        "decode_step": ("needs_leading_axes", "rope_ignores_positions", "rope_half_split", "rope_base_ignored"),
        "generate_cached": ("needs_leading_axes", "rope_ignores_positions"),
        "generate_naive": ("needs_leading_axes", "rope_ignores_positions", "rope_half_split", "rope_base_ignored"),
    }, callee=decoding("rope"),
        notes="mingpt/model.py (commit 4c212be) RotaryPositionalEmbeddings: __init__ never stores base, _build_cache "
        "`B,nh,T,d=x.shape` (4-D only), `theta = 1 / (10000 ** (2*(torch.arange(0, d/2, 1).float()) / d))`, `seq_idx = "
        "torch.arange(1,T+1)` (token t at position t + 1, no positions argument), `torch.cat((idx_theta,idx_theta),"
        "dim=1)`; forward `torch.cat([-x[:, :, :, self.d//2:], x[:, :, :, :self.d//2]], dim=-1)` (halves); "
        "GroupedQueryAttention: `assert config.n_embd % config.n_query_head == 0` (and n_kv_head), `B, T, C = "
        "x.size()`, rearrange 'B T (nh d) -> B nh T d', `att.masked_fill(self.bias[:,:,:T,:T] == 0, float('-inf'))` "
        "always (no mask argument). The reference's decoding rotates 2-D rows: every call with rope_base raises."),
    Port("cmu10423_hw1_maoliyulin", {
        "multi_head_attention": ("batch_first_only", "always_causal", "scale_other"),
        "rope": ("needs_leading_axes", "rope_half_split", "rope_partner_wrong_axis", "rope_ignores_positions",
                 "rope_angle_table_squeezed"),
        "decode_step": ("needs_leading_axes", "rope_angle_table_squeezed", "rope_ignores_positions"),
        "generate_cached": ("needs_leading_axes", "rope_angle_table_squeezed", "rope_ignores_positions"),
        "generate_naive": ("needs_leading_axes", "rope_angle_table_squeezed", "rope_ignores_positions",
                           "rope_half_split", "rope_partner_wrong_axis"),
    }, callee=decoding("rope"),
        notes="hw1/handout/mingpt/model.py (commit 873a7f3) RotaryPositionalEmbeddings.forward: `b, h, t, d = Y.shape` "
        "(4-D only), `j * self.base ** (-2 * (i - 1) / d)` for j in range(self.N) (token j at position j, no positions "
        "argument), `np.squeeze(np.array(theta_matrix))` then `torch.cat((out_2, out_2), dim=1)` (halves' tables; N = "
        "1 or d = 2 raises); _build_cache: `Y_1 = Y[:, :mid]`, `Y_2 = Y[:, mid:]`, `self.Y_matrix_2 = torch.cat((-Y_2,"
        "Y_1),dim=1)` (the partner along the heads axis); GroupedQueryAttention.forward: `b, t, n_embd = x.size()`, "
        "`head_dim = n_embd // self.q_head`, `scale = math.sqrt(head_dim)`, `att.masked_fill(self.bias[:, :, :t, :t] "
        "== 0, float('-inf'))` always (no mask argument). The reference's decoding rotates one 2-D row at a time: "
        "every call with rope_base raises (if it did not, q and k of decode_step and generate_cached would sit at "
        "position 0, the identity; generate_naive's keys at 0..n in the student's layout, its query at 0)."),
    # the FRESH_6 ports (helper B): UC Berkeley CS 182/282A (Deep Neural Networks), homework 3
    # (transformer_attention.py: AttentionQKV, MultiHeadProjection), a course the corpus had not used
    Port("cs182_hw3_00alan", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "mask_finite_fill", "mask_full_shape",
                                         "mask_needs_3d"),
        "multi_head_attention": ("batch_first_only", "mask_finite_fill", "mask_full_shape",
                                 "mha_needs_divisible_width"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="transformer_attention.py (commit d545adc) AttentionQKV.forward(queries, keys, values, mask=None): no "
        "scale argument, `similarity = queries @ keys.transpose(dim0=-2, dim1=-1)`, `self.apply_mask(similarity, "
        "mask=mask)` (the course's transformer_utils.ApplyAttentionMask on the scores: `assert len(similarity.shape) "
        "in (3, 4)`, `assert len(mask.shape) == 3`, `assert similarity[:, 0].shape == mask.shape` then "
        "`mask.unsqueeze(dim=1)` (4-D scores) or `assert similarity.shape == mask.shape` (3-D), `bias = -1e9 * "
        "th.logical_not(mask).float()` added), `th.softmax(masked_similarity / th.sqrt(key_dim), dim=-1)`; "
        "MultiHeadProjection (the course's constructor: `assert size % self.n_heads == 0` for the input widths), "
        "_split_heads `assert len(tensor.shape) == 3`, the mask passed to attention as given."),
    Port("cs182_hw3_mattchorlian", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "mask_finite_fill", "mask_full_shape",
                                         "mask_needs_3d"),
        "multi_head_attention": ("batch_first_only", "mask_finite_fill", "mask_full_shape",
                                 "mha_needs_divisible_width"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="transformer_attention.py (commit 2425d7b) AttentionQKV.forward(queries, keys, values, mask=None): no "
        "scale argument, `similarity = (queries / th.sqrt(key_dim)) @ keys.transpose(-1, -2)`, "
        "`self.apply_mask(similarity, mask=mask)` (the course's transformer_utils.ApplyAttentionMask on the scores: "
        "`assert len(similarity.shape) in (3, 4)`, `assert len(mask.shape) == 3`, `assert similarity[:, 0].shape == "
        "mask.shape` then `mask.unsqueeze(dim=1)` (4-D scores) or `assert similarity.shape == mask.shape` (3-D), "
        "`bias = -1e9 * th.logical_not(mask).float()` added), `F.softmax(masked_similarity, dim = -1)`; "
        "MultiHeadProjection (the course's constructor: `assert size % self.n_heads == 0` for the input widths), "
        "_split_heads `assert len(tensor.shape) == 3`, the mask passed to attention as given."),
    Port("cs182_hw3_martinkim0", {
        "scaled_dot_product_attention": ("needs_leading_axis", "scale_argument_ignored", "mask_finite_fill",
                                         "mask_full_shape", "mask_needs_3d"),
        "multi_head_attention": ("batch_first_only", "mask_finite_fill", "mask_full_shape",
                                 "mha_needs_divisible_width"),
        **{f: ("needs_leading_axis",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="transformer_attention.py (commit 298744f) AttentionQKV.forward: `if len(queries.size()) > 3:` einsum "
        "\"nhqd,nhdk->nhqk\" with `keys.permute(0, 1, 3, 2)`, else \"nqd,ndk->nqk\" with `keys.permute(0, 2, 1)` "
        "(3-D or 4-D only: the reference's decoding passes 2-D q, K, V), no scale argument, `self.apply_mask(sim, "
        "mask=mask)` (the course's transformer_utils.ApplyAttentionMask on the scores: `assert len(similarity.shape) "
        "in (3, 4)`, `assert len(mask.shape) == 3`, `assert similarity[:, 0].shape == mask.shape` then "
        "`mask.unsqueeze(dim=1)` (4-D scores) or `assert similarity.shape == mask.shape` (3-D), `bias = -1e9 * "
        "th.logical_not(mask).float()` added), `F.softmax(masked_sim / math.sqrt(keys.shape[-1]), dim=-1)`; "
        "MultiHeadProjection (the course's constructor: `assert size % self.n_heads == 0` for the input widths), "
        "_split_heads `assert len(tensor.shape) == 3`, the mask passed to attention as given."),
    Port("cs182_hw3_seanlin2000", {
        "scaled_dot_product_attention": ("needs_leading_axis", "scale_argument_ignored", "mask_finite_fill",
                                         "mask_full_shape", "mask_needs_3d"),
        "multi_head_attention": ("batch_first_only", "mask_finite_fill", "mask_full_shape",
                                 "mha_needs_divisible_width"),
        **{f: ("needs_leading_axis",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="transformer_attention.py (commit 287332c) AttentionQKV.forward: `if len(queries.size())== 3:` a loop "
        "of th.mm over the batch, else `heads = queries.shape[1]` and a loop over batch and heads into "
        "`th.zeros(batch_size, heads, queries.shape[2], keys.shape[2])` (3-D or 4-D only: a 2-D input has no "
        "shape[2]; the reference's decoding passes 2-D q, K, V), float32 th.zeros buffers, no scale argument, "
        "`self.apply_mask(similarity, mask=mask)` (the course's transformer_utils.ApplyAttentionMask on the scores: "
        "`assert len(similarity.shape) in (3, 4)`, `assert len(mask.shape) == 3`, `assert similarity[:, 0].shape == "
        "mask.shape` then `mask.unsqueeze(dim=1)` (4-D scores) or `assert similarity.shape == mask.shape` (3-D), "
        "`bias = -1e9 * th.logical_not(mask).float()` added), `F.softmax(masked_similarity, dim=last_dim)`; "
        "MultiHeadProjection (the course's constructor: `assert size % self.n_heads == 0` for the input widths), "
        "_split_heads `assert len(tensor.shape) == 3`, the mask passed to attention as given."),
    # the FRESH_6 ports (helper C): TUM IN2346 Introduction to Deep Learning (I2DL), exercise 11 (transformers), a
    # course the corpus had not used
    Port("i2dl_ex11_huqiancheng", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_mask_unsqueezed_shared", "softmax_nan_fully_masked"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="exercise_11/exercise_code/network/attention.py (commit af329e3) ScaledDotAttention.forward(q, k, v, "
        "mask=None): `torch.matmul(q, k.transpose(-2, -1)) / torch.sqrt(torch.tensor(self.d_k, ...))` (no scale "
        "argument), `scores.masked_fill(mask == 0, float('-inf'))`, nn.Softmax(dim=-1) (NaN on an all -inf row); "
        "multi_head_attention.py MultiHeadAttention.forward: `batch_size, sequence_length_queries, _ = q.size()`, "
        "`x.view(batch_size, -1, self.n_heads, d).transpose(1, 2)`, `mask = mask.unsqueeze(1)` then its "
        "ScaledDotAttention."),
    Port("i2dl_ex11_sihifu", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_mask_unsqueezed_shared", "softmax_nan_fully_masked"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="exercise_11/exercise_code/network/attention.py (commit c26de86) ScaledDotAttention.forward(q, k, v, "
        "mask=None): `q@torch.transpose(k,-1,-2)/k.shape[-1]**0.5` (no scale argument), "
        "`intermediate_result.masked_fill_(~mask,-torch.inf)`, torch.nn.Softmax(dim=-1) (NaN on an all -inf row); "
        "multi_head_attention.py MultiHeadAttention.forward: `batch_size, sequence_length_queries, _ = q.size()`, "
        "`torch.reshape(q_out,(batch_size, sequence_length_queries, self.n_heads,-1))`, `mask = mask.unsqueeze(1)` "
        "then its ScaledDotAttention, `torch.reshape(attention,(-1,sequence_length_queries,self.n_heads*self.d_v))`."),
    Port("i2dl_ex11_aleksikaa", {
        "scaled_dot_product_attention": ("mask_ignored", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mask_ignored"),
    }, notes="exercise_11/exercise_code/network/attention.py (commit 3b2f897) ScaledDotAttention.forward(q, k, v, "
       "mask=None): `mask` is never read, `scores = q @ torch.transpose(k, n_dims - 2, n_dims - 1)` then "
       "`self.softmax(scores / denom)` with `denom = torch.sqrt(torch.tensor(self.d_k))` (no scale argument; the "
       "softmax is over the last axis: dim=1 for 2-D, n_dims - 1 otherwise); multi_head_attention.py "
       "MultiHeadAttention.forward: `batch_size, sequence_length_queries, _ = q.size()`, `outputs = "
       "self.attention(q_, k_, v_)` (its `mask` never passed on)."),
    Port("i2dl_ex11_euzil", {
        "scaled_dot_product_attention": ("mask_ignored", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mask_ignored"),
    }, notes="exercise_11/exercise_code/network/attention.py (commit 049d87d) ScaledDotAttention.forward(self, q, k, "
       "v): no mask and no scale parameter, `self.softmax(torch.matmul(q, k.transpose(-2, -1)) / "
       "torch.sqrt(torch.tensor(self.d_k)))`; multi_head_attention.py MultiHeadAttention.forward(self, q, k, v): no "
       "mask parameter, "
       "`batch_size, sequence_length_queries, _ = q.size()`, `q.reshape(batch_size, sequence_length_queries, "
       "self.n_heads, self.d_k)`, `attention_output.reshape(batch_size, sequence_length_queries, self.n_heads * "
       "self.d_v)`."),
    # the FRESH_7 ports (helper A): Brown University CSCI 1470/2470 (Deep Learning), its transformer homework
    # (AttentionMatrix / AttentionHead / MultiHeadedAttention in TensorFlow: image captioning, and the earlier
    # machine-translation version's Attention_Matrix / Atten_Head), a course the corpus had not used
    Port("brown1470_markfromcd", {
        "scaled_dot_product_attention": ("batch_first_only", "scale_wrong_dim", "scale_argument_ignored",
                                         "always_causal", "causal_top_left"),
        "multi_head_attention": ("batch_first_only", "mha_fixed_heads", "mha_heads_copy_first", "mha_head_width_model",
                                 "mha_value_width", "scale_wrong_dim", "always_causal"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="code/transformer.py (commit 10773d4) AttentionMatrix.call: `window_size_keys = K.get_shape()[1]`, "
        "`tf.matmul(Q, tf.transpose(K, [0, 2, 1])) / np.sqrt(window_size_keys)` (3-D only; scaled by the number of "
        "keys), no mask or scale argument: `weights + atten_mask if self.use_mask` with the course's `np.triu(np.ones(("
        "window_size_queries, window_size_keys)) * np.NINF, k=1)` (its own top-left causal mask); AttentionHead.call "
        "`tf.matmul(matrix.call((K,Q)),V)`; MultiHeadedAttention: three `AttentionHead(emb_sz, int(emb_sz/3), ...)` "
        "(fixed heads, width from the input's emb_sz for keys, queries and values), `output1 = self.head1.call(...)`, "
        "`output2 = self.head1.call(...)`, `output3 = self.head1.call(...)`, `tf.concat(..., axis = 2)`, "
        "`tf.keras.layers.Dense(emb_sz)`. The reference's decoding passes 2-D q, K, V: the transpose raises."),
    Port("brown1470_zguo47", {
        "scaled_dot_product_attention": ("batch_first_only", "scale_wrong_dim", "scale_argument_ignored",
                                         "always_causal", "causal_top_left"),
        "multi_head_attention": ("needs_leading_axes", "scale_wrong_dim", "always_causal"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="hw5/code/transformer.py (commit 35ec9b2) AttentionMatrix.call: `window_size_queries = "
        "Q.get_shape()[1]`, `window_size_keys = K.get_shape()[1]` (sizes of a (batch, window, embedding) input), "
        "`score = tf.matmul(Q, K, transpose_b=True)/math.sqrt(window_size_keys)` (K.shape[1]: the number of keys for "
        "3-D input, the heads for 4-D, d_k only for 2-D), no mask or scale argument: `if self.use_mask == True: score "
        "+= atten_mask` with the course's `np.triu(np.ones((window_size_queries, window_size_keys)) * np.NINF, k=1)` "
        "tiled `[tf.shape(input=K)[0], 1, 1]` (its own top-left causal mask; it does not broadcast against 2-D or "
        "4-D scores); AttentionHead.call `tf.matmul(layer, V)`. The reference's multi-head attention passes (H, N, d) "
        "or (B, H, N, d) heads; its decoding (2-D, no mask) gets d_k from K.shape[1] and is right."),
    Port("brown1470_ncai25", {
        "scaled_dot_product_attention": ("batch_first_only", "scale_wrong_dim", "scale_argument_ignored",
                                         "always_causal", "causal_top_left"),
        "multi_head_attention": ("needs_leading_axes", "scale_wrong_dim", "always_causal"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="code/transformer.py (commit bf0208f) AttentionMatrix.call: `atten_weights = tf.matmul(Q, K, "
        "transpose_b=True) / math.sqrt(K.get_shape()[2])` (axis 2: d_k only for 3-D input, the number of keys for "
        "4-D; a 2-D input raises), no mask or scale argument: `if self.use_mask == True: atten_weights += atten_mask` "
        "with the course's `np.triu(np.ones((window_size_queries, window_size_keys)) * np.NINF, k=1)` of "
        "`Q.get_shape()[1]` and `K.get_shape()[1]`, tiled `[tf.shape(input=K)[0], 1, 1]` (its own top-left causal "
        "mask; it does not broadcast against 4-D scores); AttentionHead.call `atten_mtx @ V`. The reference's "
        "multi-head attention passes (H, N, d) or (B, H, N, d) heads, its decoding 2-D q, K, V (IndexError)."),
    Port("brown1470_xliu205", {
        "qkv_project": ("batch_first_only",),
        "scaled_dot_product_attention": ("batch_first_only", "scale_argument_ignored", "always_causal",
                                         "causal_mask_reshaped", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "needs_leading_axes", "always_causal"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee={"multi_head_attention": ("qkv_project", "scaled_dot_product_attention"),
               **decoding("scaled_dot_product_attention")},
        notes="hw4/code/transformer_funcs.py (commit df0c259) Atten_Head.call: `tf.tensordot(inputs_for_keys, self.wk, "
        "axes=[[2], [0]])` (and wv, wq: only a 3-D input's embedding is axis 2); Self_Attention(K, V, Q, "
        "use_mask=False): `tf.matmul(Q, tf.transpose(K, [0, 2, 1])) / np.sqrt(K.shape[2])` (3-D only), no mask or "
        "scale argument: `if use_mask: atten_weights += atten_mask` with the course's `np.transpose(np.tril(np.ones(("
        "window_size_queries,window_size_keys))*np.NINF,-1),(1,0))` then `tf.reshape(mask,[-1,window_size_queries,"
        "window_size_keys])` (its own causal mask, scrambled unless n_q == n_k; fully masked rows when n_q > n_k, "
        "which tf.nn.softmax makes NaN), `tf.matmul(atten_weights, V)`. The reference's multi-head attention "
        "projects with the student's qkv_project (2-D X raises) and passes 4-D heads for 3-D X (the transpose "
        "raises); its decoding passes 2-D q, K, V."),
    # the FRESH_7 ports (helper B): DeepLearning.AI Deep Learning Specialization (Coursera), course 5 Sequence Models,
    # week 4 assignment 1 (Transformer Network, TensorFlow): the graded scaled_dot_product_attention
    Port("coursera_genbravo", {
        "scaled_dot_product_attention": ("no_batch_support", "scale_wrong_dim", "mask_finite_fill",
                                         "scale_argument_ignored", "default_required"),
        "multi_head_attention": ("no_batch_support",),
        **{f: ("default_required",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="C5_W4_A1_Transformer_Subclass_v1.ipynb (commit fb1b73b) cell UNQ_C3: `def "
        "scaled_dot_product_attention(q, k, v, mask)` (no default mask, no scale argument), `matmul_qk = "
        "tf.matmul(q,k.T)` (numpy's .T reverses every axis: leading axes raise), `dk =  float(k.shape[0])` then "
        "`matmul_qk / tf.sqrt(dk)` (the keys' first axis: N_k for 2-D keys), `scaled_attention_logits += (1. - mask) "
        "* -1.0e9` (added finite penalty), tf.keras.activations.softmax(axis=-1). The reference's multi-head attention "
        "calls it on (..., H, N, d) heads (always raises); its decoding calls it without a mask (TypeError)."),
    Port("coursera_alinaveed01", {
        "scaled_dot_product_attention": ("mask_inverted", "mask_finite_fill", "scale_argument_ignored",
                                         "default_required"),
        "multi_head_attention": ("mask_inverted", "mask_finite_fill"),
        **{f: ("default_required",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="C5_W4_A1_Transformer_Subclass_v1.ipynb (commit 98d4d90) cell UNQ_C3: `def "
        "scaled_dot_product_attention(q, k, v, mask)` (no default mask, no scale argument), `tf.matmul(q, k, "
        "transpose_b=True)`, `dk = tf.cast(tf.shape(k)[-1], tf.float32)`, `scaled_attention_logits += (mask * -1e9)` "
        "(the penalty on the keys that may be attended, against the notebook's `(1. - mask)`; added finite penalty), "
        "tf.nn.softmax(axis=-1). The reference's multi-head attention passes its mask to it; its decoding calls it "
        "without a mask (TypeError)."),
    Port("coursera_yumiao329", {
        "scaled_dot_product_attention": ("no_batch_support", "mask_inverted", "mask_finite_fill",
                                         "scale_argument_ignored", "default_required"),
        "multi_head_attention": ("no_batch_support",),
        **{f: ("default_required",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="C5_W4_A1_Transformer_Subclass_v1.ipynb (commit 1910487; the course's 2021 version, whose masks are 1 "
        "= masked) cell UNQ_C3: `def scaled_dot_product_attention(q, k, v, mask)` (no default mask, no scale "
        "argument), `matmul_qk = tf.matmul(q,np.transpose(k))` (every axis reversed: leading axes raise), `dk = "
        "tf.cast(tf.shape(k)[-1], tf.float32)`, `scaled_attention_logits += (mask * -1e9)` (True = masked; added "
        "finite penalty), tf.keras.activations.softmax(axis=-1). The reference's multi-head attention calls it on "
        "(..., H, N, d) heads (always raises); its decoding calls it without a mask (TypeError)."),
    Port("coursera_himankunaw", {
        "scaled_dot_product_attention": ("mask_finite_fill", "scale_argument_ignored", "default_required"),
        **{f: ("default_required",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="C5_W4_A1_Transformer_Subclass_v1.ipynb (commit d543000) cell UNQ_C3: `def "
        "scaled_dot_product_attention(q, k, v, mask)` (no default mask, no scale argument), `tf.matmul(q,"
        "np.swapaxes(k,-1,-2))`, `dk = q.shape[-1]`, `scaled_attention_logits += (1.-mask)*(-1e9)` (added finite "
        "penalty: a fully masked row keeps its own softmax), tf.nn.softmax. Its decoding calls it without a mask "
        "(TypeError)."),
    # the FRESH_7 ports (helper C): Tsinghua University, Artificial Neural Network (人工神经网络), homework 3 (a GPT-2
    # style Transformer: TfmrAttention's causal mask, _attn, _split_heads and _merge_heads), a course the corpus had not
    # used
    Port("thuann_hw3_btlmd", {
        "scaled_dot_product_attention": ("always_causal", "scale_argument_ignored", "scale_d_v", "extra_leading_axes",
                                         "causal_slice_more_queries"),
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_needs_divisible_width",
                                 "qkv_split_at_model_width", "mha_head_width_model", "mha_value_width",
                                 "out_width_is_input"),
        **{f: ("extra_leading_axes", "scale_d_v") for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="HW3/codes/model_tfmr.py (commit b80c371) TfmrAttention: buffer `torch.tril(torch.ones((max_positions, "
        "max_positions), dtype=torch.uint8)).view(1, 1, max_positions, max_positions)` (n_positions 1024); "
        "_attn(self, query, key, value) (no mask, no scale argument): `query @ key.transpose(-1, -2)`, the "
        "course's `attn_weights / (float(value.size(-1)) ** 0.5)` (the values' width), `causal_mask = "
        "self.bias[..., key.shape[-2] - query.shape[-2]: key.shape[-2], :key.shape[-2]].bool()` (always causal; "
        "empty when n_q > n_k; 4-D: extra leading axes on 2-D and 3-D inputs), the course's "
        "`torch.where(causal_mask, attn_weights, self.masked_bias...)` (-1e4); _split_heads "
        "`tensor.reshape((*tensor.shape[:-1], num_heads, attn_head_size)).transpose(1, 2)`, _merge_heads "
        "`.reshape((tensor.shape[0], tensor.shape[2], num_heads * attn_head_size))`; the course's forward: "
        "`query, key, value = self.c_attn(hidden_states).split(self.split_size, dim=2)` with split_size = "
        "embed_dim = hidden_size and head_dim = embed_dim // num_heads (TfmrAttention.__init__ raises ValueError "
        "unless head_dim * num_heads == embed_dim), the student's _split_heads(..., self.num_heads, "
        "self.head_dim), `outputs = (attn_output, present)` with no mask anywhere."),
    Port("thuann_hw3_hbxhbx", {
        "scaled_dot_product_attention": ("always_causal", "scale_argument_ignored", "scale_d_v", "extra_leading_axes",
                                         "needs_square"),
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_needs_divisible_width",
                                 "qkv_split_at_model_width", "mha_head_width_model", "mha_value_width",
                                 "out_width_is_input"),
        **{f: ("extra_leading_axes", "scale_d_v") for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="hw3/codes/model_tfmr.py (commit 7880215) TfmrAttention: buffer `torch.tril(torch.ones((max_positions, "
        "max_positions), dtype=torch.uint8)).view(1, 1, max_positions, max_positions)` (n_positions 1024); "
        "_attn(self, query, key, value) (no mask, no scale argument): `seq_len = query.shape[-2]`, "
        "`torch.matmul(query, key.transpose(-1, -2))`, the course's `attn_weights / (float(value.size(-1)) ** "
        "0.5)` (the values' width), `causal_mask = self.bias[:, :, :seq_len, :seq_len].to(torch.bool)` (always "
        "causal, (n_q, n_q): raises unless n_q == n_k or n_q == 1; 4-D: extra leading axes on 2-D and 3-D "
        "inputs), the course's `torch.where(causal_mask, attn_weights, self.masked_bias...)` (-1e4); _split_heads"
        " `tensor.view(tensor.shape[:-1] + (num_heads, attn_head_size))`, `permute(0, 2, 1, 3)`, _merge_heads "
        "`view(tensor.shape[:-2] + (num_heads * attn_head_size,))`; the course's forward: `query, key, value = "
        "self.c_attn(hidden_states).split(self.split_size, dim=2)` with split_size = embed_dim = hidden_size and "
        "head_dim = embed_dim // num_heads (TfmrAttention.__init__ raises ValueError unless head_dim * num_heads "
        "== embed_dim), the student's _split_heads(..., self.num_heads, self.head_dim), `outputs = (attn_output, "
        "present)` with no mask anywhere."),
    Port("thuann_hw3_zhangchi2004", {
        "scaled_dot_product_attention": ("always_causal", "scale_argument_ignored", "scale_d_v", "extra_leading_axes",
                                         "causal_slice_more_queries"),
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_needs_divisible_width",
                                 "qkv_split_at_model_width", "mha_head_width_model", "mha_value_width",
                                 "out_width_is_input"),
        **{f: ("extra_leading_axes", "scale_d_v") for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="HW3/codes/model_tfmr.py (commit 0530ec2) TfmrAttention: buffer `torch.tril(torch.ones(max_positions, "
        "max_positions, dtype=torch.uint8).view(1, 1, max_positions, max_positions))` (n_positions 1024); "
        "_attn(self, query, key, value) (no mask, no scale argument): `torch.matmul(query, key.transpose(-2, "
        "-1))`, `length = value.shape[-1]`, `attn_weights / (length ** 0.5)` (the values' width), `causal_mask = "
        "self.bias[...,klen-qlen:klen,:klen]` (always causal; empty when n_q > n_k; 4-D: extra leading axes on "
        "2-D and 3-D inputs), `causal_mask * attn_weights + bias * (1 - causal_mask)` (bias = masked_bias, -1e4);"
        " _split_heads `tensor.reshape((tensor.shape[0], tensor.shape[1], num_heads, "
        "attn_head_size)).transpose(1, 2)`, _merge_heads `.reshape((tensor.shape[0], tensor.shape[2], num_heads *"
        " attn_head_size))`; the course's forward: `query, key, value = "
        "self.c_attn(hidden_states).split(self.split_size, dim=2)` with split_size = embed_dim = hidden_size and "
        "head_dim = embed_dim // num_heads (TfmrAttention.__init__ raises ValueError unless head_dim * num_heads "
        "== embed_dim), the student's _split_heads(..., self.num_heads, self.head_dim), `outputs = (attn_output, "
        "present)` with no mask anywhere."),
    Port("thuann_hw3_zrporz", {
        "scaled_dot_product_attention": ("always_causal", "scale_argument_ignored", "scale_d_v", "extra_leading_axes",
                                         "needs_square"),
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_needs_divisible_width",
                                 "qkv_split_at_model_width", "mha_head_width_model", "mha_value_width"),
        **{f: ("extra_leading_axes", "scale_d_v") for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="HW3/codes/model_tfmr.py (commit 348ac1b) TfmrAttention: buffer `torch.tril(torch.ones((max_positions, "
        "max_positions), dtype=torch.uint8)).view(1, 1, max_positions, max_positions)` (n_positions 1024); "
        "_attn(self, query, key, value) (no mask, no scale argument): `seq_lens = query.size(-2)`, "
        "`torch.matmul(query,key.transpose(-2, -1))`, the course's `attn_weights / (float(value.size(-1)) ** "
        "0.5)` (the values' width), `causal_mask = self.bias[:,:,:seq_lens,:seq_lens].bool()` (always causal, "
        "(n_q, n_q): raises unless n_q == n_k or n_q == 1; 4-D: extra leading axes on 2-D and 3-D inputs), the "
        "course's `torch.where(causal_mask, attn_weights, self.masked_bias...)` (-1e4); _split_heads `assert "
        "num_heads * attn_head_size == tensor.shape[2]`, `torch.stack(tensor.split(attn_head_size, dim=2), "
        "dim=1)`, _merge_heads `torch.cat(torch.unbind(tensor, dim=1), dim=-1)`; the course's forward: `query, "
        "key, value = self.c_attn(hidden_states).split(self.split_size, dim=2)` with split_size = embed_dim = "
        "hidden_size and head_dim = embed_dim // num_heads (TfmrAttention.__init__ raises ValueError unless "
        "head_dim * num_heads == embed_dim), the student's _split_heads(..., self.num_heads, self.head_dim), "
        "`outputs = (attn_output, present)` with no mask anywhere."),
    # the FRESH_8 ports (helper D): Johns Hopkins University EN.705.743 ChatGPT from Scratch (programming assignments 4
    # and 5: the fused-projection multi-head attention CustomMHA, with or without its causal mask; a final project's
    # rotary embedding)
    Port("jhu743_evangronberg", {
        "multi_head_attention": ("batch_first_only", "always_causal", "causal_mask_zero_scores",
                                 "qkv_split_at_model_width", "mha_head_width_model", "mha_value_width"),
    }, notes="module-05/module5_programming/mha.py (commit e3b5492) CustomMHA.forward(x) (no mask argument): "
       "`batch_size, seq_length = x.shape[0], x.shape[1]`, `t = torch.matmul(x, self.W_qkv.T)` with W_qkv (3 * "
       "d_model, d_model), `t.reshape(batch_size, seq_length, 3, self.d_model)` then `chunk(3, dim=2)` (raises unless "
       "the fused projection is 3 * d_model wide), `reshape(batch_size, seq_length, self.n_heads, d_h)` with `d_h = "
       "int(self.d_model / self.n_heads)` for q, k and v, `softmax_arg = torch.tril(torch.matmul(q, k.mT))`, "
       "`softmax_arg[softmax_arg == 0] = -torch.inf` (always causal; an allowed score of exactly 0 is masked too), "
       "`softmax_arg /= math.sqrt(d_h)`, `transpose(1, 2).reshape(batch_size, seq_length, -1)`."),
    Port("jhu743_jonivrapi", {
        "multi_head_attention": ("batch_first_only", "mask_ignored", "mha_head_width_model", "mha_value_width",
                                 "out_width_is_input"),
    }, notes="week4/mha.py (commit fe2605e) CustomMHA: `self.head_dim = d_model // n_heads`; forward(x) (no mask "
       "argument): `B, S, D = x.shape` (3-D only), `Q, K, V = torch.chunk(qkv, 3, dim=-1)` of `x @ self.W_qkv.t()` "
       "(three equal chunks: queries, keys and values mix unless d_v = d_k), `Q.reshape(B, S, h, head_dim)` (and K, "
       "V), `/ math.sqrt(head_dim)`, `context.transpose(1, 2).contiguous().reshape(B, S, D)` (the input's width)."),
    Port("jhu743_breburd", {
        "rope": ("rope_token_axis_1", "rope_half_split", "rope_ignores_positions", "rope_base_ignored"),
        **{f: ("rope_token_axis_1", "rope_half_split", "rope_ignores_positions", "rope_base_ignored")
           for f in DECODE},
    }, callee=decoding("rope"),
        notes="FinalProject/rotary_position_embedding.py (commit 25b9175) RotaryPositionalEmbedding.__init__: "
        "`N = 10000` (its own base), `inv_freq = torch.cat((inv_freq, inv_freq), dim=-1)`, `position = "
        "torch.arange(max_seq_len).float()` (positions 0..511, never an argument); forward: `seq_len = x.size(1)`, "
        "`self.cos[:seq_len].view(1, seq_len, 1, -1)` (tokens on axis 1 of (B, S, H, d) heads); rotate_half: "
        "`torch.cat((-x2, x1), dim=-1)` of `x.chunk(2, dim=-1)` (halves). The reference's decoding calls it on "
        "(1, d_k) and (n + 1, d_k) arrays: axis 1 is the width."),
    # the FRESH_8 ports (helper E): USC EE 641, homework 3 ("Attention Mechanisms and Transformers", fall 2025: the
    # students' scaled_dot_product_attention and MultiHeadAttention of an encoder-decoder transformer), a course the
    # corpus had not used
    Port("ee641_hw3_alex1792", {
        "scaled_dot_product_attention": ("mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "out_width_is_input",
                                 "mha_needs_divisible_width", "mha_mask_head_axis", "mask_finite_fill"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="problem1/attention.py (commit 46046a2) scaled_dot_product_attention(Q, K, V, mask=None): no scale "
        "argument, `scores / math.sqrt(d_k)` with `d_k = Q.size(-1)`, `scores.masked_fill(mask == 0, -1e9)` (a fully "
        "masked row gets uniform weights), F.softmax(dim=-1); MultiHeadAttention: `assert d_model % num_heads == 0`, "
        "`self.d_k = d_model // num_heads` for queries, keys and values, split_heads `batch_size, seq_len, _ = "
        "x.size()` and `x.view(batch_size, seq_len, self.num_heads, self.d_k)`, forward passes the mask as given to "
        "scaled_dot_product_attention on the (batch, heads, N, N) scores (no head axis), combine_heads "
        "`x.contiguous().view(batch_size, seq_len, self.d_model)` (the input's width), W_o."),
    Port("ee641_hw3_jifanyao", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mha_mask_expand_heads", "softmax_nan_fully_masked"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="problem1/attention.py (commit 2407920) scaled_dot_product_attention(Q, K, V, mask=None): no scale "
        "argument, `torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)`, `scores.masked_fill(mask == 0, "
        "float('-inf'))`, F.softmax(dim=-1) (NaN on an all -inf row); MultiHeadAttention: `assert d_model % num_heads "
        "== 0`, `self.d_k = d_model // num_heads` for queries, keys and values, split_heads `batch, seq_len, _ = "
        "x.size()` and `x.view(batch, seq_len, self.num_heads, self.d_k)`, forward `if mask.dim() == 3: mask = "
        "mask.unsqueeze(1)` then `mask = mask.expand(-1, self.num_heads, -1, -1)` (a 2-D mask raises), combine_heads "
        "`view(batch, seq_len, num_heads * d_k)`, W_O."),
    Port("ee641_hw3_arshdeep_usc", {
        "scaled_dot_product_attention": ("mask_read_as_padding", "needs_leading_axes", "scale_argument_ignored",
                                         "softmax_nan_fully_masked", "mask_full_shape", "mask_key_padding"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mask_read_as_padding", "softmax_nan_fully_masked"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="(mask_full_shape added by the lead after FRESH_8 was graded once, on review of the code: a 4-D mask "
        "written out in full is used as it is, and only a smaller one is read as padding. mask_key_padding added by "
        "the lead once that id was known: its 2-D reading, `m[:, None, None, :]`, is the one mask_read_as_padding "
        "describes.) "
        "problem1/attention.py (commit 5cb9f08) scaled_dot_product_attention(Q, K, V, mask=None): no scale "
        "argument, `(Q @ K.transpose(-2, -1)) / math.sqrt(d_k)`, then with a mask `if m.dim() == 2:  # padding mask "
        "[batch, seq]` `m = m[:, None, None, :]`, `elif m.dim() == 3:` `m = m[:, None, :, :]`, `batch_size, seq_q, "
        "seq_k = scores.shape[0], scores.shape[2], scores.shape[3]` (IndexError on 2-D and 3-D scores), the expands "
        "`m.expand(batch_size, -1, -1, -1)`, `m.expand(-1, scores.size(1), -1, -1)`, `m.expand(-1, -1, seq_q, "
        "seq_k)`, `scores.masked_fill(~m, float('-inf'))`, F.softmax(dim=-1) (NaN on an all -inf row); "
        "MultiHeadAttention: `assert d_model % num_heads == 0`, `self.d_k = d_model // num_heads` for queries, keys "
        "and values, split_heads `batch_size, seq_len, _ = x.size()` and `x.view(batch_size, seq_len, "
        "self.num_heads, self.d_k)`, forward passes the mask as given to scaled_dot_product_attention, combine_heads "
        "`view(batch_size, seq_len, num_heads * d_k)`, self.out."),
    Port("ee641_hw3_psypao", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "out_width_is_input",
                                 "mha_needs_divisible_width", "mha_mask_unsqueezed_shared", "softmax_nan_fully_masked"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="problem1/attention.py (commit fc5d87f) scaled_dot_product_attention(Q, K, V, mask=None): no scale "
        "argument, `scores / math.sqrt(d_k)` with `d_k = Q.size(-1)`, `scores.masked_fill(mask == 0, "
        "-float('inf'))`, F.softmax(dim=-1) (NaN on an all -inf row); MultiHeadAttention: `assert d_model % num_heads "
        "== 0`, `self.d_k = d_model // num_heads` for queries, keys and values, split_heads `batch_size, seq_len, _ = "
        "x.size()` and `x.view(batch_size, seq_len, self.num_heads, self.d_k)`, forward `if mask.dim() == 3: mask = "
        "mask.unsqueeze(1)` ... `else: mask = mask.unsqueeze(1) if mask.size(1) != self.num_heads else mask` (a shared "
        "(N, N) mask becomes (N, 1, N) unless N == num_heads, when it is kept and right), combine_heads "
        "`x.view(batch_size, seq_len, self.d_model)` (the input's width), W_o."),
    # the FRESH_8 ports (helper F): Université de Montréal / Mila IFT6135 Representation Learning, winter 2023,
    # assignment 2 (a Transformer encoder: MultiHeadedAttention's get_attention_weights, apply_attention, split_heads,
    # merge_heads and forward, with the course's (batch_size, sequence_length) padding mask), a course the corpus had
    # not used
    Port("ift6135_wangcr", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "mask_key_padding", "needs_square",
                                         "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "scale_other", "mask_key_padding", "softmax_nan_fully_masked"),
    }, notes="transformer_solution.py (commit 766ea2b) MultiHeadedAttention.get_attention_weights(queries, keys, "
       "mask=None): `1/math.sqrt(self.head_size)*(queries@keys.transpose(-2,-1))` (no scale argument; head_size = "
       "embed_dim//num_heads in the course's blocks), `mask = mask[:, None, None, :]` then `mask = mask.repeat(1, "
       "self.num_heads, mask.shape[-1], 1)` (a (B, N_k) key-padding mask; the query axis repeated N_k times: raises "
       "unless n_q == n_k), `score.masked_fill(mask==0, -float('inf'))`, `torch.nn.functional.softmax(score, dim=-1)` "
       "(NaN on an all -inf row); split_heads `tensor.reshape(batch_size, sequence_length, self.num_heads, -1)` with "
       "tensor.shape[0], tensor.shape[1] (3-D input), apply_attention `hiddens.transpose(1,2).reshape(B, L, -1)`."),
    Port("ift6135_tannerducharme", {
        "scaled_dot_product_attention": ("needs_leading_axes", "scale_argument_ignored", "mask_key_padding",
                                         "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "scale_other", "mask_key_padding", "softmax_nan_fully_masked"),
        **{f: ("needs_leading_axes",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="transformer_solution.py (commit d84397d) MultiHeadedAttention.get_attention_weights(queries, keys, "
        "mask=None): `batch_size, num_heads, sequence_length, head_size = keys.shape` (4-D only), "
        "`torch.matmul(queries, keys) / np.sqrt(self.head_size)` after `keys.transpose(2, 3)` (no scale argument; "
        "head_size = embed_dim//num_heads in the course's blocks), `mask.view(batch_size, 1, 1, "
        "sequence_length).to(bool)` (a (B, N_k) key-padding mask: raises unless the mask has B * N_k entries), "
        "`masked_fill(mask==0, float(\"-inf\"))`, `F.softmax(masked_score, dim=3)` (NaN on an all -inf row); "
        "split_heads `batch_size, seq_length, head_dim_prod = tensor.shape` (3-D input). The reference's decoding "
        "calls it on 2-D queries and keys (raises)."),
    Port("ift6135_pyranoid", {
        "scaled_dot_product_attention": ("needs_leading_axes", "scale_argument_ignored", "mask_key_padding",
                                         "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "scale_other", "mask_key_padding", "softmax_nan_fully_masked",
                                 "mha_merge_squeezes_single_token"),
        **{f: ("needs_leading_axes",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="assignment2/transformer_solution.py (commit 5b73f6e) MultiHeadedAttention.get_attention_weights("
        "queries, keys, mask=None): `queries @ keys.transpose(2,3)/torch.sqrt(head_size)` (axes 2 and 3: 4-D only; no "
        "scale argument; head_size = embed_dim//num_heads in the course's blocks), `mask = "
        "torch.unsqueeze(torch.unsqueeze(mask,dim=1),dim=1)` (a (B, N_k) key-padding mask), "
        "`scores.masked_fill_(mask==0, -torch.inf)` (in place: the (N_q, 1, 1, N_k) mask must fit the scores' shape), "
        "`torch.softmax(scores, dim=-1)` (NaN on an all -inf row); split_heads `batch_size, _ , concat_heads = "
        "tensor.shape` (3-D input); merge_heads `torch.squeeze(tensor[:,i],dim=1)` then `torch.cat(head_outs,dim=2)` "
        "(raises with one token). The reference's decoding calls it on 2-D queries and keys (raises)."),
    Port("ift6135_yuchenhui22314", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "mask_key_padding", "softmax_nan_fully_masked",
                                         "extra_leading_axes"),
        "multi_head_attention": ("batch_first_only", "scale_other", "mask_key_padding", "softmax_nan_fully_masked"),
    }, notes="(extra_leading_axes added by the lead after FRESH_8 was graded once, on review of the code: the "
       "padding mask's two added axes, repeated to (B, H, N, N_k), give a 2-D or 3-D case's output leading axes of "
       "length 1.) transformer_solution.py (commit 7d97c2e) MultiHeadedAttention.get_attention_weights(queries, keys, "
       "mask=None): `torch.matmul(queries, keys.transpose(-1, -2))/math.sqrt(self.head_size)` (no scale argument; "
       "head_size = embed_dim//num_heads in the course's blocks), `mask = 1 - mask.to(torch.int32)` and "
       "`S.masked_fill(mask.unsqueeze(1).unsqueeze(1).repeat(1, self.num_heads, self.sequence_length, 1).bool(), "
       "-torch.inf)` (a (B, N_k) key-padding mask; a 3-D mask raises in repeat), `F.softmax(S, dim=-1)` (NaN on an all "
       "-inf row); split_heads `bs, seq_len = tensor.shape[:2]`, `hidden_size = tensor.shape[2]`, `tensor.view(bs, "
       "seq_len, self.num_heads, hidden_size // self.num_heads )` (3-D input)."),
    # the FRESH_9 ports (helper G): UC San Diego CSE 234 Data Systems for Machine Learning, winter 2025, programming
    # assignment 1 (an autodiff library on torch tensors and, with it, a one-layer transformer for MNIST rows: the
    # students' own single-head attention and SoftmaxOp), a course the corpus had not used
    Port("cse234_wongsingfo", {
        "softmax": ("temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("softmax_nan_fully_masked",),
        "multi_head_attention": ("batch_first_only", "heads_not_split", "mha_value_width", "mask_ignored"),
    }, callee={"scaled_dot_product_attention": ("softmax",)},
        notes="pa1/auto_diff.py (commit 497e1f3) SoftmaxOp.compute: `x_max = x.max(dim=node.dim, keepdim=True)[0]`, "
        "`exp_x = torch.exp(x - x_max)`, `exp_x / exp_x.sum(dim=node.dim, keepdim=True)` (no temperature; an all -inf "
        "slice gives NaN; the reference's scaled_dot_product_attention calls it); pa1/transformer.py (commit 497e1f3) "
        "linear: `ad.broadcast(W, input_shape=(in_dim, out_dim), target_shape=(batch_size, in_dim, out_dim))` then "
        "`ad.matmul(X, W_)`; single_head_attention: `V = linear(X, WV, None, batch_size, seq_length, in_dim, "
        "hidden_dim)` (W_V expanded to W_Q's width: raises when d_v != d_k), `QK = ad.matmul(Q, ad.transpose(K, 1, 2)) "
        "/ np.sqrt(hidden_dim)` (3-D only; one head over the whole width hidden_dim), `ad.softmax(QK)`, no mask "
        "argument, `linear(QKV, WO, ...)`."),
    Port("cse234_athe_kunal", {
        "softmax": ("temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("softmax_nan_fully_masked",),
        "multi_head_attention": ("heads_not_split", "mask_ignored"),
    }, callee={"scaled_dot_product_attention": ("softmax",)},
        notes="pa1/auto_diff.py (commit cce843d) SoftmaxOp.compute: `max_elems, _ = torch.max(input_values[0], "
        "dim=node.dim, keepdim=True)`, `torch.exp(x_shifted)`, `x_exp / torch.sum(x_exp, dim=node.dim, keepdim=True)` "
        "(no temperature; an all -inf slice gives NaN; the reference's scaled_dot_product_attention calls it); "
        "pa1/transformer.py (commit cce843d) single_head_attention(X, WQ, WK, WV, Wo, model_dim): `K = "
        "ad.transpose(ad.matmul(X, WK), -1, -2)`, `QK = ad.softmax(ad.div_by_const(ad.matmul(Q, K), model_dim**0.5))` "
        "(one head over the whole width model_dim = W_Q's columns), `ad.matmul(QK, ad.matmul(X, WV))`, "
        "`ad.matmul(attn, Wo)`, no mask argument."),
    Port("cse234_jenishhd", {
        "softmax": ("temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("softmax_nan_fully_masked",),
        "multi_head_attention": ("batch_first_only", "heads_not_split", "mask_ignored"),
    }, callee={"scaled_dot_product_attention": ("softmax",)},
        notes="pa1/auto_diff.py (commit e752d09) SoftmaxOp.compute: `torch.softmax(x, dim=dimension)` (no "
        "temperature; NaN on an all -inf slice; the reference's scaled_dot_product_attention calls it); "
        "pa1/transformer.py (commit e752d09) transformer(): `K_t = ad.transpose(K, 1, 2)` (3-D only), `scores = "
        "ad.matmul(Q, K_t)`, `scale = model_dim ** 0.5` (one head over the whole width model_dim = W_Q's columns), "
        "`ad.softmax(scaled_scores, dim=-1)`, `ad.matmul(context, w_o)`, no mask."),
    Port("cse234_toubat", {
        "softmax": ("temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("softmax_nan_fully_masked",),
        "multi_head_attention": ("batch_first_only", "mha_weights_sized_by_tokens", "mha_value_width",
                                 "heads_not_split", "mask_ignored"),
    }, callee={"scaled_dot_product_attention": ("softmax",)},
        notes="pa1/auto_diff.py (commit 1b13460) SoftmaxOp.compute: `softmax_pytorch(x, dim=dim)` (torch's: no "
        "temperature, NaN on an all -inf slice; the reference's scaled_dot_product_attention calls it); "
        "pa1/transformer.py (commit 6e8066c) linear(batch_size, in_dim, hidden_dim, out_dim, X, W): `ad.unsqueeze(W, "
        "0)`, `ad.broadcast(W, input_shape=[1, hidden_dim, out_dim], target_shape=[batch_size, hidden_dim, "
        "out_dim])`; single_head_attention: `linear(batch_size, seq_length, seq_length, model_dim, X, W_q)` (and W_k, "
        "W_v: the tokens' count as the weights' rows, raises unless D == N; W_V expanded to W_Q's width), "
        "`ad.matmul(Q, ad.transpose(K, 1, 2)) / sqrt(model_dim)` (3-D only; one head over the whole width), "
        "`ad.softmax(out, dim=2)`, `linear(batch_size, seq_length, model_dim, model_dim, out, W_o)` (W_O expanded to "
        "(model_dim, model_dim)), no mask argument."),
    # the FRESH_9 ports (helper H): University of Michigan EECS 595 (Natural Language Processing), fall 2025, homework
    # 3 ("GPT": the students' MultiHeadAttention with the course's rotary embedding and their own causal mask), a course
    # the corpus had not used
    Port("eecs595_joelyanglq", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_applies_rope", "mha_head_width_model",
                                 "mha_value_width", "out_width_is_input", "mha_needs_divisible_width"),
    }, notes="hw3/gpt.py (commit 9c36d60) MultiHeadAttention: `d_out = d_in`, `assert (d_out % num_heads == 0)`, "
       "`self.head_dim = d_out // num_heads` for queries, keys and values; forward(embeds) (no mask argument): `b, "
       "num_tokens, d_in = embeds.shape` (3-D only), `view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, "
       "2)`, `queries, keys = apply_rotary_pos_emb(queries, keys, rope_cos, rope_sin)` (hw3/rope.py: "
       "`torch.repeat_interleave(freqs, 2, dim=-1)` tables, `_rotate_half` halves), `* self.scale`, "
       "`masked_fill(self.mask[:seq_len, :seq_len]...)` with its own triu causal mask (always causal), "
       "`context.transpose(1, 2).contiguous().view(b, num_tokens, self.d_out)` (d_out = d_in, the input's width)."),
    Port("eecs595_virum9520", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_applies_rope", "mha_head_width_model",
                                 "mha_value_width", "mha_needs_divisible_width"),
    }, notes="gpt.py (commit 22ed75a) MultiHeadAttention: `d_out = d_in`, `assert (d_out % num_heads == 0)`, "
       "`self.head_dim = d_out // num_heads` for queries, keys and values; forward(embeds) (no mask argument): `b, "
       "num_tokens, d_in = embeds.shape` (3-D only), `view(b, num_tokens, h, head_dim).transpose(1, 2)`, `queries, "
       "keys = apply_rotary_pos_emb(queries, keys, rope_cos, rope_sin)` (rope.py: `torch.repeat_interleave(freqs, 2, "
       "dim=-1)` tables, `_rotate_half` halves), `attn_scores.masked_fill(causal_mask, float('-inf'))` with "
       "`self.mask[:num_tokens, :num_tokens]` of its own triu mask (always causal), `attn_scores * self.scale`, "
       "`view(b, num_tokens, h * head_dim)`."),
    Port("eecs595_tonyyuanmd", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_applies_rope", "head_split_reshape",
                                 "head_merge_wrong", "mha_head_width_model", "mha_value_width", "out_width_is_input",
                                 "mha_needs_divisible_width"),
    }, notes="gpt.py (commit 5322a09) MultiHeadAttention: `d_out = d_in`, `assert (d_out % num_heads == 0)`, "
       "`self.head_dim = d_out // num_heads` for queries, keys and values; forward(embeds) (no mask argument): `b, "
       "num_tokens, d_in = embeds.shape` (3-D only), `queries.view(b, self.num_heads, num_tokens, self.head_dim)` (and "
       "keys, values: no transpose), `queries, keys = apply_rotary_pos_emb(queries, keys, rope_cos, rope_sin)` "
       "(rope.py: `torch.repeat_interleave(freqs, 2, dim=-1)` tables, `_rotate_half` halves), `attn_score /= "
       "math.sqrt(self.head_dim)`, `masked_fill(self.mask[:num_tokens, :num_tokens], torch.finfo(...).min)` with its "
       "own triu mask (always causal), `output.view(b, num_tokens, d_in)` straight from (b, H, N, d) (no transpose "
       "back; the input's width)."),
    # the FRESH_9 ports (helper I): University of Edinburgh, NLU+ (INFR11157, Natural Language Understanding,
    # Generation and Machine Translation), coursework 2 (the students' MultiHeadAttention.forward in the course's
    # fairseq-style, time-major Transformer; the contract's mask is passed as the course's additive attn_mask), a
    # course the corpus had not used
    Port("edinnlu_dhjkim321", {
        "multi_head_attention": ("batch_first_only", "mha_tokens_first", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mask_bool_added", "needs_shared_mask"),
    }, notes="seq2seq/models/transformer_helper.py (commit e6b66bb, 2024) MultiHeadAttention.forward: "
       "`tgt_time_steps, batch_size, embed_dim = query.size()` (3-D, time-major: tokens first, output (T, B, E)), "
       "the course's __init__ `self.head_embed_size = embed_dim // num_attn_heads` with `assert "
       "self.head_embed_size * self.num_heads == self.embed_dim` (every head D // H wide, D = X.shape[-1]), "
       "`projected_q.transpose(0, 1)` then `reshape(batch_size, tgt_time_steps, self.num_heads, "
       "self.head_embed_size)` for q, k and v, `scaled_scores = raw_scores / self.head_scaling`, `attention_mask = "
       "attn_mask.unsqueeze(dim=0)` and `scaled_scores += attention_mask` (the course's mask is additive: a boolean "
       "mask adds 0/1; in place, so a mask with its own batch axis raises), `F.softmax(scaled_scores, dim=2)`, merge "
       "`reshape(batch_size, tgt_time_steps, self.embed_dim)`, out_proj, `attn += transposed_projected_attn`."),
    Port("edinnlu_htk55", {
        "multi_head_attention": ("batch_first_only", "mha_tokens_first", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mask_ignored", "needs_shared_mask"),
    }, notes="seq2seq/models/transformer_helper.py (commit 40641ed, spring 2023) MultiHeadAttention.forward: "
       "`tgt_time_steps, batch_size, embed_dim = query.size()` (3-D, time-major: tokens first, output (T, B, E)), "
       "the course's __init__ `self.head_embed_size = embed_dim // num_attn_heads` with `assert "
       "self.head_embed_size * self.num_heads == self.embed_dim` (every head D // H wide, D = X.shape[-1]), "
       "`q.view(-1, batch_size, self.num_heads, self.head_embed_size)` then `transpose(0, 2).contiguous().view("
       "self.num_heads * batch_size, -1, self.head_embed_size)` for q, k and v, `attn_mask = attn_mask.unsqueeze(dim="
       "0)`, `attn_mask_ = attn_mask.repeat(self.num_heads * batch_size,1,1)` (raises for a mask with its own batch "
       "axis), `attn_mask = (attn_mask == float(\"-inf\"))` (a boolean mask is never -inf: nothing is masked) and "
       "`attn_weights.masked_fill_(attn_mask, float(\"-inf\"))`, `F.softmax(attn_weights, dim=-1)`, merge "
       "`view(self.num_heads, batch_size, tgt_time_steps, self.head_embed_size)`, `transpose(0,2)`, out_proj."),
    Port("edinnlu_ameertg", {
        "multi_head_attention": ("batch_first_only", "mha_tokens_first", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mask_inverted", "needs_shared_mask",
                                 "softmax_wrong_axis", "softmax_nan_fully_masked", "head_merge_wrong"),
    }, notes="seq2seq/models/transformer_helper.py (commit a80aace, 2020-21) MultiHeadAttention.forward: "
       "`tgt_time_steps, batch_size, embed_dim = query.size()` (3-D, time-major: tokens first, output (T, B, E)), "
       "the course's __init__ `self.head_embed_size = embed_dim // num_attn_heads` with `assert "
       "self.head_embed_size * self.num_heads == self.embed_dim` (every head D // H wide, D = X.shape[-1]), "
       "`self.q_proj(query).view(query.size(0), query.size(1) * self.num_heads, d_k)` then `transpose(0, 1)` "
       "for q, k and v, `/ math.sqrt(d_k)`, `if attn_mask.dtype == torch.bool: dotted_attention.masked_fill_("
       "attn_mask.unsqueeze(0), float('-inf'))` (True = masked; in place, so a mask with its own batch axis raises), "
       "`F.softmax(dotted_attention, dim=1)` (over the queries; a key masked for every query gives a NaN column), "
       "`torch.matmul(attn_weights, V).view(query.size(0), query.size(1), self.embed_dim)` (the (B*H, T, d) heads "
       "viewed straight as (T, B, E)), out_proj."),
    Port("edinnlu_lixuran", {
        "multi_head_attention": ("batch_first_only", "mha_tokens_first", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "masked_zero", "needs_shared_mask"),
    }, notes="seq2seq/models/transformer_helper.py (commit 98fcfc6, the 2019-20 coursework) "
       "MultiHeadAttention.forward: "
       "`tgt_time_steps, batch_size, embed_dim = query.size()` (3-D, time-major: tokens first, output (T, B, E)), "
       "the course's __init__ `self.head_embed_size = embed_dim // num_attn_heads` with `assert "
       "self.head_embed_size * self.num_heads == self.embed_dim` (every head D // H wide, D = X.shape[-1]), "
       "`self.q_proj(query).view(t,b,h,k)` (and `view(s,b,h,k)` for v and k), `transpose(0, 1).transpose(1,"
       "2).view(b*h,t,k)`, `/self.head_scaling`, `attn_mask=attn_mask.unsqueeze(0)`, `attn_mask=attn_mask.expand("
       "b*h,t,t)` (raises for a mask with its own batch axis) and `dot = dot*attn_mask` (a boolean mask sets the "
       "disallowed scores to 0 before the softmax), `F.softmax( dot , dim=2)`, merge `view(b,h,t,k)`, `transpose(1, "
       "2).transpose(0, 1).contiguous().view(t, b, h * k)`, out_proj."),
    # the FRESH_10 ports (helper J): University of Central Missouri, CS5710 Machine Learning (fall 2025), home
    # assignment 5, part B question 1: the students' NumPy softmax and scaled dot-product attention (question 2's
    # encoder block is torch's nn.MultiheadAttention, not ported), a course the corpus had not used
    Port("ucm5710_akhil0702", {
        "softmax": ("temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("no_batch_support", "mask_ignored", "scale_argument_ignored",
                                         "outputs_swapped"),
        "multi_head_attention": ("no_batch_support",),
        **{f: ("outputs_swapped",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="Q1.py (commit 1d1b880): `def softmax(x, axis=-1)` (no temperature; `np.exp(x - x_max)` with the max of "
        "an all -inf slice, NaN); `def scaled_dot_product_attention(Q, K, V)` (no mask, no scale argument): `scores = "
        "np.matmul(Q, K.T)` (.T reverses every axis: leading axes raise or mix the batch), `scores / np.sqrt(d_k)` "
        "with `d_k = K.shape[-1]`, `softmax(scores, axis=-1)`, `return attn_weights, context` (weights first). The "
        "reference's multi-head attention calls it on (..., H, N, d) heads (the .T product raises); its decoding "
        "takes the weights for the output."),
    Port("ucm5710_menaka_435", {
        "softmax": ("softmax_ignores_axis", "temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("no_batch_support", "mask_ignored", "scale_argument_ignored",
                                         "outputs_swapped"),
        "multi_head_attention": ("no_batch_support",),
        **{f: ("outputs_swapped",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="simple_transformer_encoder.py (commit 63c48c7): `def softmax(x)` (no axis, no temperature: `axis=-1` "
        "hard-coded; NaN on an all -inf slice); `def scaled_dot_product_attention(Q, K, V)` (no mask, no scale "
        "argument): `scores = np.matmul(Q, K.T)` (.T reverses every axis: leading axes raise or mix the batch), `d_k = "
        "Q.shape[-1]`, `softmax(scaled_scores)`, `return attention_weights, context_vector` (weights first). The "
        "reference's multi-head attention calls it on (..., H, N, d) heads (the .T product raises); its decoding "
        "takes the weights for the output."),
    Port("ucm5710_ramya9440", {
        "softmax": ("temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("batch_first_only", "mask_inverted", "mask_finite_fill",
                                         "scale_argument_ignored", "outputs_swapped"),
        "multi_head_attention": ("needs_leading_axes", "mask_inverted", "mask_finite_fill", "outputs_swapped"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="Untitled17.ipynb (commit 9fbd248) first cell: `def softmax(x, axis=-1)` (no temperature; NaN on an all "
        "-inf slice); `def scaled_dot_product_attention(Q, K, V, mask=None)` (no scale argument): `np.matmul(Q, "
        "np.transpose(K, (0, 2, 1))) / np.sqrt(d_k)` (exactly 3-D), `scores = scores + (mask * -1e9)` (1 = masked, "
        "as its docstring says; added finite penalty), `softmax(scores, axis=-1)`, `return attention_weights, context` "
        "(weights first). The reference's multi-head attention passes 3-D heads only for a 2-D X (4-D heads raise) and "
        "takes the weights for the heads; its decoding passes 2-D q, K, V (the transpose raises)."),
    Port("ucm5710_vasudeva4040", {
        "softmax": ("temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("mask_ignored", "scale_argument_ignored", "outputs_swapped"),
        "multi_head_attention": ("mask_ignored", "outputs_swapped"),
        **{f: ("outputs_swapped",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="Homework05.ipynb (commit 859d8ab) cell Q1: `def softmax(x, axis=-1)` (no temperature; NaN on an all "
        "-inf slice); `def scaled_dot_product_attention(Q, K, V)` (no mask, no scale argument): `np.matmul(Q, "
        "np.swapaxes(K, -1, -2)) / np.sqrt(d_k)` with `d_k = Q.shape[-1]`, `softmax(scores, axis=-1)`, `return "
        "attention_weights, context` (weights first). The reference's multi-head attention takes the weights for the "
        "heads (its mask never read); its decoding takes the weights for the output."),
    # the FRESH_10 ports (helper K): University of Illinois Urbana-Champaign CS 440 / ECE 448 (Artificial Intelligence),
    # MP 9 of spring 2024 (a Transformer for sequence-to-sequence learning: the students' compute_mh_qkv_transformation
    # and compute_scaled_dot_product_attention in mha.py, under the course's MultiHeadAttention __init__ and forward), a
    # course the corpus had not used
    Port("cs440_mp9_steven_chg", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mask_inverted", "mask_finite_fill",
                                 "mha_mask_unsqueezed_shared"),
    }, notes="mp09/mha.py (commit 40e2a0c): the course's __init__ `self.d_k = d_model // num_heads`, `assert (self.d_k "
       "* self.num_heads) == self.d_model` (every head D // H wide, D = X.shape[-1]); compute_mh_qkv_transformation "
       "`B = Q.size()[0]`, `T_q = Q.size()[1]`, `q.contiguous().view(B, T_q, self.num_heads, self.d_k).transpose(1, "
       "2)` for q, k and v (3-D input only; raises unless the projections are H * (D // H) wide); "
       "compute_scaled_dot_product_attention `QK_t = torch.matmul(query, key) / (d_k ** 0.5)`, `attention_mask = "
       "attention_mask.unsqueeze(1)` (a shared (N, N) mask becomes (N, 1, N)), `QK_t.masked_fill(attention_mask != 0, "
       "min_val)` (the course's mask: non-zero = disallowed; min_val = torch.finfo(query.dtype).min, finite), "
       "`torch.softmax(QK_t, dim = -1)`, the course's `x.contiguous().view(query.size()[0], -1, self.num_heads * "
       "self.d_k)`."),
    Port("cs440_mp9_hw46", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mask_inverted", "mask_finite_fill",
                                 "mha_mask_unsqueezed_shared"),
    }, notes="mp09/mha.py (commit c1b499c): the course's __init__ `self.d_k = d_model // num_heads`, `assert (self.d_k "
       "* self.num_heads) == self.d_model` (every head D // H wide, D = X.shape[-1]); compute_mh_qkv_transformation "
       "`self.W_q(Q).view(-1, Q.size(1), self.num_heads, self.d_k).transpose(1, 2)` for q, k and v (Q.size(1) read "
       "as the tokens: 3-D input only; the -1 batch absorbs a projection not H * (D // H) wide, or raises); "
       "compute_scaled_dot_product_attention `B, _, T_q, d_k = query.size()`, `torch.matmul(query, key.transpose(-2, "
       "-1)) / math.sqrt(d_k)`, `scores += (attention_mask.unsqueeze(1) * min_val)` (the course's mask: non-zero = "
       "disallowed; min_val = torch.finfo(query.dtype).min added, finite; a shared (N, N) mask becomes (N, 1, N), "
       "which the in-place add must broadcast to the scores' shape), `torch.softmax(scores, dim=-1)`, "
       "`x.transpose(1, 2).contiguous().view(B, -1, self.num_heads * self.d_k)`."),
    Port("cs440_mp9_yoyoyo_momo", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mask_inverted", "mask_finite_fill",
                                 "mha_mask_unsqueezed_shared"),
    }, notes="mp09/mha.py (commit c7027f8): the course's __init__ `self.d_k = d_model // num_heads`, `assert (self.d_k "
       "* self.num_heads) == self.d_model` (every head D // H wide, D = X.shape[-1]); compute_mh_qkv_transformation "
       "`B = Q.size(0)`, `q.contiguous().view(B, -1, self.num_heads, self.d_k)` then `torch.Tensor.transpose(q, 1, "
       "2)` for q, k and v (the first axis read as the batch; the -1 tokens absorb a projection not H * (D // H) "
       "wide, or raise); compute_scaled_dot_product_attention `QK /= math.sqrt(self.d_k)`, `if "
       "attention_mask.size(0) == 1: QK = QK.masked_fill(attention_mask == 1, min_val)` `else: QK = "
       "QK.masked_fill(torch.unsqueeze(attention_mask, 1) == 1, min_val)` (the course's mask: non-zero = "
       "disallowed; min_val = torch.finfo(query.dtype).min, finite; a shared (N, N) mask with N > 1 becomes (N, 1, "
       "N)), `torch.softmax(QK, -1)`, `B = key.size(0)`, the course's `x.contiguous().view(B, -1, self.num_heads * "
       "self.d_k)`."),
    Port("cs440_mp9_hauntersgd", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mask_inverted", "mask_finite_fill",
                                 "needs_shared_mask"),
    }, notes="mp9/mha.py (commit a97e17f): the course's __init__ `self.d_k = d_model // num_heads`, `assert (self.d_k "
       "* self.num_heads) == self.d_model` (every head D // H wide, D = X.shape[-1]); compute_mh_qkv_transformation "
       "`q.reshape(q.shape[0], q.shape[1], self.num_heads, self.d_k)` and `torch.transpose(q, 1, 2)` for q, k and v "
       "(3-D input only; raises unless the projections are H * (D // H) wide); compute_scaled_dot_product_attention "
       "`x / math.sqrt(query.shape[3])`, `if attention_mask.shape[0] == 1:` `x[i, j, :, :].masked_fill_("
       "attention_mask, min_val)` for every sequence i and head j (in place on a (N, N) slice: a (1, N, N) mask, one "
       "per sequence with B = 1, cannot be expanded to it and raises) `else:` `x[:, i, :, :].masked_fill_("
       "attention_mask, min_val)` for every head (the course's mask: non-zero = disallowed, so the contract's "
       "True = may attend is inverted; min_val = torch.finfo(query.dtype).min, finite), `torch.softmax(x, dim=-1)`, "
       "the course's `x.contiguous().view(B, -1, self.num_heads * self.d_k)`."),
    # the FRESH_10 ports (helper L): Technion - Israel Institute of Technology, CS 236781 Deep Learning on
    # Computational Accelerators, homework 3 part 3 (the students' sliding_window_attention, Longformer-style, called by
    # the course's MultiHeadAttention; the contract's mask is passed as the course's (Batch, SeqLen) padding mask), a
    # course the corpus had not used
    Port("technion236781_danagershon", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "needs_square", "needs_leading_axis",
                                         "mask_padding_rows_and_keys"),
        "multi_head_attention": ("mask_padding_rows_and_keys",),
        **{f: ("needs_leading_axis", "needs_square") for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="hw3/transformer.py (commit d053035) sliding_window_attention: `b = torch.ones([*dims, seq_len, "
        "seq_len]) * (-float('inf'))` with `seq_len = q.shape[-2]` and dims = [batch_size] (+ [num_heads] only `if("
        "len(q.shape) == 4)`: a 2-D q gets an extra axis of length N; keys past n_q are never scored and `attention "
        "@ v` raises unless n_k == n_q), `b[..., masked_ind[:,0], masked_ind[:,1]] = (q[..., masked_ind[:,0], :] * "
        "k[..., masked_ind[:,1], :]).sum(dim=-1)`, `b = b / math.sqrt(embed_dim)` (no scale argument), padding mask "
        "`padding_mask_2 = padding_mask.unsqueeze(1).unsqueeze(1).repeat(*dims_rep, seq_len, 1)`, `b[padding_mask_2 == "
        "0] = -float('inf')` and `padding_mask_3 = padding_mask.unsqueeze(1).unsqueeze(-1).repeat(*dims_rep, 1, "
        "seq_len)`, `b[padding_mask_3 == 0] = -float('inf')` (keys and query rows of a (Batch, SeqLen) padding mask), "
        "`torch.softmax(b, dim=-1)`, `torch.nan_to_num(attention, 0)` with a mask. The window (hw3/answers.py "
        "`hypers[\"window_size\"] = 128`: 64 positions each side) never cuts the contract's short sequences."),
    Port("technion236781_almogbs", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "needs_square", "needs_leading_axis",
                                         "mask_padding_rows_and_keys", "mask_finite_fill"),
        "multi_head_attention": ("mask_padding_rows_and_keys", "mask_finite_fill"),
        **{f: ("needs_leading_axis", "needs_square") for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="hw3/transformer.py (commit 21ecd97) sliding_window_attention: `minus_inf = -9e15`, `if len(q.shape) > "
        "3:` `k = k.reshape((batch_size * num_heads, seq_len, embed_dim))` (seq_len = q.shape[-2]: raises unless n_k "
        "== n_q) `else: num_heads = 1`, `b = torch.full((batch_size * num_heads, seq_len, seq_len), minus_inf)`, "
        "`b[:, rows_idx, cols_idx] = (q[:, rows_idx, :] * k[:, cols_idx, :]).sum(-1)` (3-D indexing: a 2-D q raises; "
        "keys past n_q never scored), `padding_mask = padding_mask.reshape((batch_size,seq_len,1)).repeat(("
        "num_heads,1,seq_len))`, `b.masked_fill_(padding_mask == 0, minus_inf)` and `b.masked_fill_("
        "padding_mask.transpose(-1,-2) == 0, minus_inf)` (query rows and keys of a (Batch, SeqLen) padding mask, "
        "finite fill: a fully masked row is uniform), `nn.functional.softmax(b / math.sqrt(embed_dim), dim=-1)` (no "
        "scale argument). The window (hw3/answers.py `window_size = 20`: 10 positions each side) never cuts the "
        "contract's short sequences."),
    Port("technion236781_itamar3113", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "needs_square", "needs_leading_axis",
                                         "needs_equal_widths", "mask_padding_rows_and_keys"),
        "multi_head_attention": ("needs_equal_widths", "mask_padding_rows_and_keys"),
        **{f: ("needs_leading_axis", "needs_square") for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="hw3/transformer.py (commit 1442653) sliding_window_attention: `k = k.reshape(batch_size, -1, seq_len, "
        "embed_dim)` and `v = v.reshape(batch_size, -1, seq_len, embed_dim)` (q's count and width: raises unless n_k "
        "== n_q and d_v == d_k; a 2-D q cannot be viewed so), `pre_norm_attention[:, :, row_idxs, col_idxs] = (q[:, :, "
        "row_idxs, :] * k[:, :, col_idxs, :]).sum(-1)`, `cols_padding = padding_mask.reshape(batch_size, 1, 1, "
        "seq_len)`, `rows_padding = padding_mask.reshape(batch_size, 1, seq_len, 1)`, `full_padding = torch.min("
        "cols_padding, rows_padding) * ...`, `torch.where(full_padding != 1, float(\"-inf\"), ...)` (keys and query "
        "rows of a (Batch, SeqLen) padding mask), `torch.softmax(pre_norm_attention / (embed_dim ** 0.5), dim=-1)` (no "
        "scale argument), `torch.nan_to_num(attention, 0)`, `values.reshape(*origin_shape)` (q's shape). The window "
        "(hw3/answers.py `window_size = 32`: 16 positions each side) never cuts the contract's short sequences."),
    # the FRESH_11 ports (helper M): Cornell University CS 4782 Introduction to Deep Learning, assignment 2 (the
    # students' MultiHeadAttention of a transformer encoder for sentiment classification), a course the corpus had not
    # used
    Port("cs4782_chadyu9", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mask_ignored"),
    }, notes="A2/submission.py (commit 5a125e6) MultiHeadAttention: the course's __init__ `assert d_model % num_heads "
       "== 0` and `self.d_k = d_model // num_heads` (d_model = X.shape[-1]); the course's split_heads `batch_size, "
       "seq_length, d_model = x.size()` (3-D only) and `x.view(batch_size, seq_length, self.num_heads, self.d_k)` for "
       "the queries, keys and values (raises unless each projection is H * (D // H) wide); the student's "
       "compute_attention `F.softmax(Q @ torch.transpose(K, -2, -1) / math.sqrt(self.d_k), dim=-1) @ V`; the "
       "student's forward(self, x) takes no mask (the contract's mask is never applied), then the course's "
       "combine_heads `view(batch_size, seq_length, self.d_model)` and `self.W_o(attention)`."),
    # the FRESH_11 ports (helper N): University of Toronto CSC401H/2511H Natural Language Computing, assignment 2 of
    # winter 2024 (neural machine translation with a Transformer: the students' MultiHeadAttention.attention and
    # forward under the course's __init__, whose mask is True where masked), a course the corpus had not used
    Port("csc401_a2_baaadmtfka", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_needs_divisible_width",
                                 "mha_self_attention_queries_as_kv", "mask_inverted", "softmax_nan_fully_masked",
                                 "mha_mask_unsqueezed_shared"),
    }, notes="a2_transformer_model.py (commit 905bd56): the course's __init__ `assert d_model % num_heads == 0`, "
       "`self.d_head = d_model // num_heads` (every head D // H wide, D = X.shape[-1]); forward `batch_size, "
       "query_seq_len, d_model = query.shape` (3-D input only), `self.q_linear(query).view(batch_size, "
       "query_seq_len, self.num_heads, self.d_head).transpose(1, 2)` (raises unless the projection is H * (D // H) "
       "wide), `if (key == None and value == None): attention_output = self.attention(query=query, key=query, "
       "value=query, mask=mask)` (the projected queries as keys and values: k_linear and v_linear unused); attention "
       "`(query @ key.transpose(2, 3)) / math.sqrt(self.d_head)`, `mask = mask.unsqueeze(1)` (a shared (N, N) mask "
       "becomes (N, 1, N)), `scores.masked_fill(mask, float('-inf'))` (the course's mask: True = masked, so the "
       "contract's True = may attend is inverted; an all -inf row is NaN after `nn.Softmax(dim=3)`); "
       "`output.reshape(batch_size, query_seq_len, d_model)`, `self.out_linear(output)`."),
    Port("csc401_a2_hridanshkhaitan", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mask_inverted", "mask_finite_fill",
                                 "mha_mask_unsqueezed_shared"),
    }, notes="a2_transformer_model.py (commit 19f2e1b): the course's __init__ `assert d_model % num_heads == 0`, "
       "`self.d_head = d_model // num_heads` (every head D // H wide, D = X.shape[-1]); forward `batch_size = "
       "query.size(0)`, `query.reshape(batch_size, -1, self.num_heads, self.d_head).transpose(1,2)` for q, k and v "
       "(the first axis read as the batch; raises or scrambles unless the projections are H * (D // H) wide); "
       "attention `torch.matmul(query, key.transpose(-2, -1))/ torch.sqrt(d_head)` (d_head = the constructor's, in "
       "float32), `mask = mask.unsqueeze(1)` (a shared (N, N) mask becomes (N, 1, N)), "
       "`attention_score.masked_fill(mask, -1e9)` (the course's mask: True = masked, so the contract's True = may "
       "attend is inverted; finite), `torch.softmax(attention_score, dim= -1)`; `transpose(1,2).reshape(batch_size, "
       "-1, self.num_heads * self.d_head)`, `self.out_linear(scaled_attention)`."),
    Port("csc401_a2_aldew5", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mask_inverted", "softmax_nan_fully_masked",
                                 "mha_mask_expand_heads"),
    }, notes="a2_transformer_model.py (commit 5866ab3): the course's __init__ `assert d_model % num_heads == 0`, "
       "`self.d_head = d_model // num_heads` (every head D // H wide, D = X.shape[-1]); forward `batch_size = "
       "query.size(0)`, `query.view(batch_size, -1, self.num_heads, self.d_head).transpose(1, 2)` for q, k and v "
       "(the first axis read as the batch; raises or scrambles unless the projections are H * (D // H) wide); "
       "attention `/ math.sqrt(self.d_head)`, `mask = mask.unsqueeze(1)` then `mask = mask.expand(-1, "
       "self.num_heads, -1, -1)` (only a 3-D (B, N, N) mask works: a shared 2-D mask needs a new leading -1 axis "
       "and raises, and so does any 4-D mask, 5-D after unsqueeze), `attention_scores.masked_fill(mask, "
       "float('-inf'))` (the course's mask: True = masked, so the contract's True = may attend is inverted; an all "
       "-inf row is NaN after torch.softmax); `x.transpose(1, 2).contiguous().view(batch_size, -1, self.num_heads * "
       "self.d_head)`, `self.out_linear(x)`."),
    Port("csc401_a2_andresc44", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mask_finite_fill", "mha_mask_unsqueezed_shared"),
    }, notes="a2_transformer_model.py (commit c19a329): the course's __init__ `assert d_model % num_heads == 0`, "
       "`self.d_head = d_model // num_heads` (every head D // H wide, D = X.shape[-1]); forward `batch_size = "
       "query.shape[0]`, `Q.view(batch_size, -1, self.num_heads, self.d_head).permute(0, 2, 1, 3)` for Q, K and V "
       "(the first axis read as the batch; raises or scrambles unless the projections are H * (D // H) wide); "
       "attention `scores / math.sqrt(d_k)` with `d_k = torch.tensor(self.d_head, ...)`, `mask = mask.unsqueeze(1)` "
       "(a shared (N, N) mask becomes (N, 1, N)), `attention_scores.masked_fill(mask == 0, -1e9)` (fills where the "
       "mask is False: the contract's polarity, although the course's mask is True = masked; finite, so a fully "
       "masked row is uniform), `nn.functional.softmax(attention_scores, dim=-1)`; `context.permute(0, 2, 1, 3)`, "
       "`context.contiguous().view(batch_size, -1, self.num_heads * self.d_head)`, `self.out_linear(context)`."),
    # the FRESH_11 ports (helper O): Umar Jamil's "Coding LLaMA 2 from scratch in PyTorch" (video course with code,
    # hkproj/pytorch-llama): the students' RoPE (precompute_theta_pos_frequencies, apply_rotary_embeddings) and
    # SelfAttention with a KV cache, a course the corpus had not used
    Port("ujllama_poptropicasahil", {
        "multi_head_attention": ("last_axis_split", "batch_first_only", "mha_head_width_model",
                                 "mha_value_width", "mask_ignored", "mha_applies_rope",
                                 "softmax_axis_fixed"),
        "rope": ("last_axis_split", "rope_integer_offset", "rope_ignores_positions"),
        **{f: ("last_axis_split",) for f in DECODE},
    }, callee=decoding("rope"),
        notes="main/model.py (commit 910eb47) apply_rotary_embeddings: `x = x.float().reshape(*x.shape[:-1], -1, 2)` "
        "(x reassigned), then `x_out = x_out.reshape(*x.shape)` (the pairs stay (..., head_dim/2, 2)); "
        "precompute_theta_pos_frequencies `m = torch.arange(seq_len)` and Transformer.forward `self.freqs_complex["
        "start_idx : start_idx + seq_len]` (integer start, consecutive positions); SelfAttention.forward `batch_size, "
        "seq_len, _ = x.shape`, `self.head_dim = args.dim // args.n_heads`, `xq.view(batch_size, seq_len, "
        "self.n_heads_q, self.head_dim)` (q, k, v), apply_rotary_embeddings on xq and xk (always), "
        "`self.cache_k[:batch_size, start_pos : start_pos + seq_len] = xk` (raises: the unflattened keys), no mask "
        "argument, `F.softmax(scores.float(), dim=1)` (the heads axis). The multi-head causes past the rope one are "
        "in the code but shadowed by the raise. The reference's decoding calls the student's rope."),
    Port("ujllama_hemachandrakolisetty", {
        "multi_head_attention": ("needs_single_token", "batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mask_ignored", "mha_applies_rope"),
        "rope": ("rope_integer_offset", "rope_ignores_positions"),
    }, notes="model.py (commit 144946f): precompute_theta_pos_frequencies `m = torch.arange(seq_len, device=device)` "
       "and Transformer.forward `self.freqs_complex[start_pos:start_pos + seq_len]` (integer start, consecutive "
       "positions); SelfAttention.forward `batch_size, seq_len, _ = x.shape`, `self.head_dim = args.dim // "
       "self.n_heads_q`, `xq.view(batch_size, seq_len, self.n_heads_q, self.head_dim)` (q, k, v), "
       "apply_rotary_embedding on xq and xk (always), `self.cache_k[:batch_size, start_pos:start_pos+1] = xk` and "
       "`keys = self.cache_k[:batch_size, :start_pos + 1]` (one slot: more than one token raises), no mask argument."),
    Port("ujllama_abdallah197", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mask_ignored",
                                 "mha_applies_rope"),
        "rope": ("rope_integer_offset", "rope_ignores_positions"),
    }, notes="model.py (commit 698bbc4): precompute_theta_pos_frequencies `m = torch.arange(seq_length)` and "
       "Transformer.forward `self.freqs_complex[start_pos: start_pos + seq_len]` (integer start, consecutive "
       "positions; config.py max_seq_length = 32, so 64 rows); SelfAttention.forward `batch_size, seq_length, _ = "
       "x.shape`, `self.head_dim = args.dim // args.n_heads`, `xq.view(batch_size, seq_length, self.n_heads_q, "
       "self.head_dim)` (q, k, v), apply_rotary_embeddings on xq and xk (always), mode 'train' `keys, values = xk, "
       "xv`, no mask argument."),
    Port("ujllama_sonhm3029", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mask_bool_added",
                                 "mha_mask_head_axis", "mha_applies_rope"),
        "rope": ("rope_integer_offset", "rope_ignores_positions"),
    }, notes="model.py (commit ca1a3cf): precompute_theta_pos_frequencies `m = torch.arange(seq_len, device=device)` "
       "and Transformer.forward `self.freqs_cis[start_pos : start_pos + seqlen]` (integer start, consecutive "
       "positions); SelfAttention.forward `batch_size, seq_len, _ = x.shape`, `self.head_dim = args.dim // "
       "args.n_heads`, `xq.view(batch_size, seq_len, self.n_heads_q, self.head_dim)` (q, k, v), "
       "apply_rotary_embeddings on xq and xk (always), `if mask is not None: scores = scores + mask` (additive: the "
       "Transformer's mask is torch.triu of -inf; a boolean mask adds 0/1, and a (B, N, N) mask meets the (B, H, N, "
       "N) scores without a head axis)."),
    # the FRESH_12 ports (helper P): UMass Lowell COMP 4420/5420 Natural Language Processing, homework 4 (transformer
    # language model: the students' MultiHeadSelfAttention.forward under the course's constructor, causal flag and no
    # mask argument), a course the corpus had not used
    Port("umlnlp_matrixcel", {
        "multi_head_attention": ("batch_first_only", "mha_value_width", "always_causal", "mha_merge_mixes_batch",
                                 "causal_mask_nonzero_scores"),
    }, notes="transformer_lm/modeling_attention.py (commit 319118e, the student's own version before aee0f37 replaced "
       "it) MultiHeadSelfAttention.forward: `bs, seq, _ = x.shape` (3-D input only); `k.transpose(1, 2).reshape((bs, "
       "self.num_heads, self.head_size, seq))...` for k, q and v (head_size = hidden // num_heads of the constructor, "
       "so values wider or narrower than the queries raise); `casual_mask = (torch.triu(scores, diagonal=1) != 0)`, "
       "`scores.masked_fill(casual_mask, -torch.inf)` (no mask argument: the constructor's causal flag, whatever mask; "
       "a future score of exactly 0 is not masked); `attention.transpose(1, 0).reshape(attention.shape[0]//"
       "self.num_heads, attention.shape[1], self.num_heads * self.head_size)` (mixes the sequences when bs > 1)."),
    Port("umlnlp_theakshitapachauri", {
        "multi_head_attention": ("batch_first_only", "mha_value_width", "always_causal"),
    }, notes="transformer_lm/modeling_attention.py (commit 78c0e8c) MultiHeadSelfAttention.forward: `bs, seq, _ = "
       "x.shape` (3-D input only); `torch.cat(self.v(x).split(self.head_size, dim=-1), dim=0)` for q, k and v "
       "(head_size = hidden // num_heads of the constructor: values of another width raise); `scores += "
       "torch.triu(torch.ones(...) * float('-inf'), diagonal=1)` under the constructor's causal flag (no mask "
       "argument: causal whatever mask); `self.mix(torch.cat((probs @ v).split(bs, dim=0), dim=-1))`."),
    Port("umlnlp_wolferkgit", {
        "multi_head_attention": ("batch_first_only", "mha_value_width", "always_causal", "mask_inverted",
                                 "softmax_nan_fully_masked", "no_output_projection"),
    }, notes="modeling_attention.py (commit 5a78d0a, the 2023 edition) MultiHeadSelfAttention.forward: `bs, seq, _ = "
       "x.shape` (3-D input only); `value.view(bs, -1, self.num_heads, self.head_size).transpose(1, 2)` for k, q and "
       "v (head_size = hidden // num_heads of the constructor: values of another width raise); `upper_triangular = "
       "torch.triu(torch.ones(seq, seq), diagonal=1)`, `mask = upper_triangular.bool()`, `scores.masked_fill_(mask == "
       "0, -float(\"inf\"))` under the constructor's causal flag (no mask argument: causal whatever mask, and "
       "inverted: each query sees only later keys, the last none, so nn.Softmax gives NaN); `att = att.transpose(1, "
       "2).contiguous().view(bs, -1, self.num_heads * self.head_size)` returned without self.mix."),
    Port("umlnlp_qhddn2643", {
        "multi_head_attention": ("batch_first_only", "mha_value_width", "always_causal"),
    }, notes="hw4_transformer_lm/transformer_lm/modeling_attention.py (commit 04f55eb) MultiHeadSelfAttention.forward: "
       "`bs, seq, _ = x.shape` (3-D input only); `self.v(x).view(bs, seq, self.num_heads, self.head_size)` for k, q "
       "and v (head_size = hidden // num_heads of the constructor: values of another width raise); `casual_mask = "
       "torch.triu(torch.ones(1, seq, seq, device=scores.device), diagonal=1)`, `scores.masked_fill(casual_mask==1, "
       "float(\"-inf\"))` under the constructor's causal flag (no mask argument: causal whatever mask)."),
    # the FRESH_12 ports (helper Q): Chalmers University of Technology / University of Gothenburg DAT450/DIT247 Machine
    # Learning for Natural Language Processing, autumn 2025, assignment 2 (the students' A2Attention of an OLMo-2-style
    # Transformer: QK-norm, the course's RoPE, causal attention), a course the corpus had not used
    Port("dat450_benjamintwp", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mha_qk_rms_norm", "mha_applies_rope"),
    }, notes="a2/A2_skeleton.py (commit e51b5e6) A2Attention: `if self.total_dims % self.nr_heads != 0: raise "
       "Exception(...)`, `self.dims_per_head = self.total_dims // self.nr_heads` (q, k and v), `self.query_norm = "
       "nn.RMSNorm(config.hidden_size, eps=config.rms_norm_eps, ...)` (key_norm alike); forward(hidden_states, "
       "rope_rotations) (no mask argument): `Q = self.query_norm(self.W_Q(hidden_states))`, `batch_size, text_length, "
       "dims = Q.shape` (3-D only), `Q.view(batch_size, text_length, self.nr_heads, self.dims_per_head)`, `Q_emb, "
       "K_emb = apply_rotary_pos_emb(Q, K, rope_rotations)` (the course's HuggingFace RoPE: `emb = torch.cat((freqs, "
       "freqs), dim=-1)`, `rotate_half`, positions `torch.arange(0, x.shape[1])`; a2/args.yaml rope_theta 2, "
       "rms_norm_eps 0.001), `nn.functional.scaled_dot_product_attention(Q_emb, K_emb, V, is_causal=True)` (always "
       "causal)."),
    Port("dat450_asdparmeitz", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_head_width_model", "mha_value_width",
                                 "out_width_is_input", "mha_qk_rms_norm", "mha_applies_rope"),
    }, notes="A2/A2_skeleton.py (commit 42bbd0e) A2RMSNorm: `self.weight * hidden_states / rms` with `rms = "
       "torch.sqrt(variance + self.eps)` and weight ones(hidden_size); A2Attention: `self.head_dim = "
       "config.hidden_size // config.num_attention_heads` (q, k and v), forward(hidden_states, rope_rotations) (no "
       "mask argument): `b, m, d = hidden_states.shape` (3-D only), `q = self.q_norm(q)`, `k = self.k_norm(k)` on the "
       "full-width projections, `q.view(b, m, n_h, d_h)`, `q, k = apply_rotary_pos_emb(q, k, rope_rotations)` (the "
       "course's HuggingFace RoPE: `emb = torch.cat((freqs, freqs), dim=-1)`, `rotate_half`, positions "
       "`torch.arange(0, x.shape[1])`; A2/A2_train.py rope_theta=10000.0, rms_norm_eps=1e-6), "
       "`nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)` (always causal), `attn_out.transpose(1, "
       "2).reshape(b, m, d)` (the input's width)."),
    Port("dat450_johntr1", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mha_qk_rms_norm", "mha_applies_rope"),
    }, notes="a2-john/transformerlib.py (commit 0ed3099) A2Attention: `assert self.hidden_size % self.num_heads == 0`, "
       "`self.head_dim = self.hidden_size // self.num_heads` (q, k and v), `self.q_norm = nn.RMSNorm(self.hidden_size, "
       "eps=config.rms_norm_eps)` (k_norm alike); forward(hidden_states, rope_rotations) (no mask argument): `q = "
       "self.q_norm(q)`, `k = self.k_norm(k)` on the full-width projections, _reshape_to_heads `batch_size, "
       "seq_length, dim = x.shape` (3-D only) and `x.view(batch_size, seq_length, heads, head_dim)`, `q, k = "
       "apply_rotary_pos_emb(q, k, rope_rotations, unsqueeze_dim=1)` (the course's HuggingFace RoPE: `emb = "
       "torch.cat((freqs, freqs), dim=-1)`, `rotate_half`, positions `torch.arange(0, x.shape[1])`; a2-john/train.py "
       "rope_theta=100000.0, rms_norm_eps=1e-6), `F.scaled_dot_product_attention(q, k, v, attn_mask=None, "
       "dropout_p=0.0, is_causal=True)` (always causal)."),
    Port("dat450_peogradin", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "out_width_is_input", "mha_qk_rms_norm",
                                 "mha_applies_rope"),
    }, notes="a2/A2.py (commit a1e2e47) A2Attention: `assert(self.hidden_size % self.n_h == 0)`, `self.d_h = "
       "self.hidden_size // self.n_h` (q, k and v), one `self.norm = nn.RMSNorm(self.hidden_size, "
       "eps=self.config.rms_norm_eps)` for q and k; forward(hidden_states, rope_rotations) (no mask argument): `b, m, "
       "d = hidden_states.shape` (3-D only), `q = self.norm(self.W_Q(hidden_states))`, `k = "
       "self.norm(self.W_K(hidden_states))`, `q.reshape([b, m, self.n_h, self.d_h])`, `q, k = apply_rotary_pos_emb(q, "
       "k, rope_rotations)` (the course's HuggingFace RoPE: `emb = torch.cat((freqs, freqs), dim=-1)`, `rotate_half`, "
       "positions `torch.arange(0, x.shape[1])`; a2/a2_model_10ep/config.json rope_theta 10000.0, rms_norm_eps 1e-05), "
       "`nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)` (always causal), `attn_out.transpose(1, "
       "2).reshape(b, m, d)` (the input's width)."),
    # the FRESH_12 ports (helper R): Sebastian Raschka's "Build a Large Language Model (From Scratch)" (Manning),
    # chapter 3 (coding attention mechanisms) and a student's own Llama 3 follow-up, a book the corpus had not used
    Port("llmfs_chaosadmstudent", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_value_width"),
    }, notes="attention/multihead_attention.py (commit 2bc7dc0) MultiHeadAttention_V2: `assert len(inputs.shape) == "
       "3`, `B, num_tokens, _ = inputs.shape`; W_query, W_key and W_value all `nn.Linear(inp_emb_dim, context_dim)` "
       "and `V.view(B, num_tokens, self.num_heads, self.head_dim)` with `self.head_dim = context_dim // num_heads` (a "
       "value width other than the query width raises); `attention_scores.masked_fill_(self.mask.bool()[:num_tokens, "
       ":num_tokens], -torch.inf)` with the triu buffer (forward has no mask argument: always causal)."),
    Port("llmfs_parry_97", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_value_width", "mha_needs_divisible_width"),
    }, notes="tokenizer/multi_head_attention.py (commit 967b5ab) MultiHeadAttention: `assert d_in % num_heads == 0, "
       "\"d_in must be divisible by num_heads\"` (the input width); `b, num_tokens, d_in = x.shape`; `values.view(b, "
       "num_tokens, self.num_heads, self.head_dim)` with `self.head_dim = d_out // num_heads` (W_value is d_out wide "
       "like W_query); `attn_scores.masked_fill_(mask_bool, -torch.inf)` with `self.mask.bool()[:num_tokens, "
       ":num_tokens]` (no mask argument: always causal)."),
    Port("llmfs_ondanaoto", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_value_width"),
    }, notes="gpt/attention/models.py (commit dda5a9e) MultiHeadAttention: `b, num_token, _ = x.shape`; "
       "`self.W_value(x).view(b, num_token, self.num_heads, self.head_dim)` with `self.head_dim = d_out // num_heads` "
       "(W_value is d_out wide like W_query); `attn_scores.masked_fill_(mask_bool, -torch.inf)` with "
       "`self.mask.bool()[:num_token, :num_token]` (no mask argument: always causal)."),
    Port("llmfs_aenrichus", {
        "rope": ("needs_leading_axes", "rope_half_split", "rope_ignores_positions"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "out_width_is_input",
                                 "always_causal", "mha_applies_rope"),
        **{f: ("needs_leading_axes",) for f in DECODE},
    }, callee=decoding("rope"),
        notes="llama3/rope.py (commit e0421c5) apply_rope: `batch, num_heads, seq_len, head_dim = x.shape` (4-D only), "
        "`cos[:seq_len, :]` (the table of positions 0..seq_len-1: the positions are never read), `rotated = "
        "torch.cat((-x2, x1), dim=-1)` of the halves with precompute_rope_params' `torch.cat([angles, angles], "
        "dim=-1)` (pairs i and i + d/2); llama3/trainable_attention.py GroupedQueryAttention: `b, num_tokens, _ = "
        "x.shape`, `self.head_dim = self.emb_dim // self.n_heads` for queries, keys and values, `query = "
        "apply_rope(query, cos, sin)` and `key = apply_rope(key, cos, sin)` (LLAMA32_CONFIG rope_base 500_000), "
        "`mask = torch.triu(torch.ones(num_tokens, num_tokens), diagonal=1).bool()` (no mask argument), "
        "`context.transpose(1, 2).contiguous().view(b, num_tokens, self.emb_dim)`. The reference's decoding calls the "
        "student's rope on a (1, d) row, which apply_rope cannot unpack."),
    # the FRESH_13 ports (helper S): Purdue University ECE 60146 Deep Learning (Avi Kak), spring 2023, homework 9 (a
    # vision transformer built on the course's DLStudio ViTHelper; the extra credit asks for the students' own
    # multi-head attention with torch.einsum), a course the corpus had not used
    Port("ece60146_akamsali", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "head_split_wrong",
                                 "scale_after_softmax", "no_output_projection", "mask_ignored"),
    }, notes="HW9/ViTHelper_einops.py (commit 0669782) SelfAttention: `self.qkv_size = embedding_size // "
       "num_atten_heads`, `self.to_qvk = nn.Linear(self.max_seq_length * self.embedding_size, 3 * "
       "self.max_seq_length * self.embedding_size)` (every projection D wide), forward "
       "`self.to_qvk(sentence_tensor.reshape(sentence_tensor.shape[0], -1))` (3-D input only), `rearrange(QKV, \"b (k "
       "l d h) -> k b h l d\", ...)` (head h takes every H-th column), `self.softmax(QK_dot_prod)` with "
       "nn.Softmax(dim=-1) on unscaled scores, `torch.einsum(...attn, V) / torch.sqrt(torch.tensor([self.qkv_size]))` "
       "(scaled after the softmax), `rearrange(Z, \"b h l d -> b l (h d)\")` returned (no output projection, no mask "
       "argument)."),
    Port("ece60146_dfarache3", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_heads_read_input_slices", "softmax_wrong_axis", "scale_after_softmax",
                                 "no_output_projection", "mask_ignored"),
    }, notes="HW9/ViTHelper.py (commit 1d9e333) SelfAttention (method=2): `self.qkv_size = self.embedding_size // "
       "num_atten_heads`, `sentence_tensor_portion = sentence_tensor[:, :, i * self.qkv_size: (i+1) * "
       "self.qkv_size]` into head i (its input slice only), written to the same columns of `torch.zeros(..., "
       "self.num_atten_heads * self.qkv_size)`; AttentionHead_ExtraCredit: `nn.Linear(max_seq_length * "
       "self.qkv_size, max_seq_length * self.qkv_size)` for WQ, WK, WV, `Q.view(sentence_portion.shape[0], "
       "self.max_seq_length, self.qkv_size)` (3-D input only; q, k, v all qkv_size wide), `self.softmax = "
       "nn.Softmax(dim=1)` (the queries' axis of the (B, N, N) scores), `return ScaleCoeff * torch.einsum(\"ban, bne "
       "-> bae\", self.softmax(QK_DotProduct), V)` (scaled after the softmax); no output projection, no mask "
       "argument."),
    Port("ece60146_mrsun_97", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_heads_read_input_slices", "scale_after_softmax", "no_output_projection",
                                 "mask_ignored"),
    }, notes="hw9_YuxinSun/code.py (commit e8b5eba) SelfAttention2: `self.qkv_size = self.embedding_size // "
       "num_atten_heads`, `self.wqkv_tensor = nn.Parameter(torch.randn(num_atten_heads, 3, max_seq_length, "
       "self.qkv_size, max_seq_length, self.qkv_size))` (q, k, v all qkv_size wide); forward `b, s, d = "
       "sentence_tensor.shape` (3-D only), `x = sentence_tensor.view(b, s, self.num_atten_heads, self.qkv_size)` (head "
       "h reads its input slice only), `torch.einsum('bshq,hksqSQ->kbhSQ', x, self.wqkv_tensor)`, "
       "`torch.softmax(QK_dot_prod, dim=-1)` on unscaled scores, `z = self.coeff * z.reshape(b,s,d)` (scaled after "
       "the softmax); no output projection, no mask argument."),
    Port("ece60146_souradipp76", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "qkv_fused_interleaved", "scale_after_softmax", "no_output_projection",
                                 "mask_ignored"),
    }, notes="hw9/hw9_SouradipPal.py (commit 6944bc7) SelfAttention_EinSum: `self.qkv_size = self.embedding_size // "
       "num_atten_heads`, `self.Wqkv = nn.Linear(max_seq_length * self.embedding_size, max_seq_length * "
       "self.qkv_size * self.num_atten_heads * 3)` (the fused projection 3 * H * (D // H) wide); forward "
       "`self.Wqkv(sentence_tensor.reshape(sentence_tensor.shape[0], -1))` (3-D input only), `qkv.view(-1, "
       "self.max_seq_length, self.qkv_size, self.num_atten_heads, 3)` and `torch.permute(qkv, (4, 0, 3, 1, 2))` (q, "
       "k, v interleaved on the last axis), `QK_dot_prod_norm = self.softmax(QK_dot_prod) * self.coeff` "
       "(nn.Softmax(dim=3) on unscaled scores, the weights scaled after it), `Z.reshape(sentence_tensor.shape[0], "
       "self.max_seq_length, -1)` returned (no output projection, no mask argument)."),
    # the FRESH_13 ports (helper T): SUSTech (Southern University of Science and Technology, Shenzhen) CS310 Natural
    # Language Processing, lab 8 of spring 2024 / lab 9 of spring 2025 (Transformer: the students' single-head
    # attention and future-mask cells T1 and T2, and their MultiHeadAttention class of T3), a course the corpus had not
    # used
    Port("sustech310_qwertyuiop41", {
        "scaled_dot_product_attention": ("no_batch_support", "scale_argument_ignored", "mask_on_weights_resoftmaxed",
                                         "softmax_nan_fully_masked"),
        "multi_head_attention": ("needs_leading_axes", "no_batch_support", "mha_head_width_model", "mha_value_width",
                                 "always_causal", "no_output_projection", "mha_needs_divisible_width"),
    }, notes="(no_batch_support added by the lead after FRESH_13 was graded once, on review of the code: `N = "
        "X.size(0)` and `view(N, n_heads, d_k)` read X as one (N, D) matrix, which is that sentence.) "
        "lab8/lab8_transformer.ipynb (commit 42d3d0c) T1: `alpha = F.softmax(torch.matmul(Q, K.transpose(0, 1)) / "
       "torch.sqrt(torch.tensor(d_k)), dim=1)` (2-D keys only, no scale argument); T2: `masked_alpha = "
       "alpha.masked_fill(mask == 0, -np.inf)`, `new_alpha = F.softmax(masked_alpha, dim=1)` (the mask on T1's "
       "softmax weights, then a second softmax; an all -inf row is NaN); T3 MultiHeadAttention.forward(X) (no mask "
       "argument, no output projection): `N = X.size(0)` (2-D input only), `Q.view(N, self.n_heads, "
       "self.d_k).transpose(0, 1)` for Q, K and V with `self.d_k = d_model // n_heads` and (d_model, d_model) weights, "
       "`mask = torch.tril(torch.ones((N, N), device=X.device)).repeat(self.n_heads, 1, 1)` (always causal), "
       "`output.transpose(0, 1).contiguous().view(N, -1)` returned."),
    Port("sustech310_zhang_astrid", {
        "scaled_dot_product_attention": ("no_batch_support", "scale_argument_ignored", "always_causal",
                                         "needs_square"),
        "multi_head_attention": ("needs_leading_axes", "no_batch_support", "mha_head_width_model", "mha_value_width",
                                 "always_causal", "no_output_projection", "mha_needs_divisible_width"),
    }, notes="(no_batch_support added by the lead after FRESH_13 was graded once, on review of the code: `N = "
        "X.size(0)` and `view(N, n_heads, d_k)` read X as one (N, D) matrix, which is that sentence.) "
        "Lab9/lab9_transformer.ipynb (commit 4137f72) T1: `scores = torch.matmul(Q, K.T)` (`.T` reverses every "
       "axis: 2-D keys only), `scores / math.sqrt(d_k)` (no scale argument), `F.softmax(scaled_scores, dim=1)`; T2: "
       "`mask = torch.tril(torch.ones(Q.size(0), Q.size(0))).bool()` built in the cell itself (the mask given is never "
       "read: causal, and square n_q x n_q, which the (n_q, n_k) scores cannot broadcast with unless n_k = n_q), "
       "`scores.masked_fill(~mask, float('-inf'))`; T3 MultiHeadAttention.forward(X) (no mask argument, no output "
       "projection): `N = X.size(0)` (2-D input only), `Q.view(N, self.n_heads, self.d_k).transpose(0, 1)` for Q, "
       "K and V with `self.d_k = d_model // n_heads`, `mask = torch.tril(torch.ones(N, N)).expand(self.n_heads, N, N)` "
       "(always causal), `torch.matmul(alpha, V_).transpose(0, 1).contiguous().view(N, -1)` returned."),
    Port("sustech310_earendelh", {
        "scaled_dot_product_attention": ("no_batch_support", "scale_argument_ignored",
                                         "softmax_nan_fully_masked"),
        "multi_head_attention": ("needs_leading_axes", "no_batch_support", "mha_head_width_model", "mha_value_width",
                                 "always_causal", "no_output_projection", "head_merge_wrong",
                                 "mha_needs_divisible_width"),
    }, notes="(no_batch_support added by the lead after FRESH_13 was graded once, on review of the code: `N = "
        "X.size(0)` and `view(N, n_heads, d_k)` read X as one (N, D) matrix, which is that sentence.) "
        "lab9/lab9_transformer.ipynb (commit b9ae188) T1: `scores = torch.matmul(Q, K.T) / np.sqrt(d_k)` (`.T` "
       "reverses every axis: 2-D keys only; no scale argument), `F.softmax(scores, dim=-1)`; T2: `new_alpha = "
       "F.softmax(scores.masked_fill(mask == 0, -np.inf), dim=-1)` (an all -inf row is NaN); T3 "
       "MultiHeadAttention.forward(X) (no mask argument, no output projection): `N = X.size(0)` (2-D input only), "
       "`Q.view(N, self.n_heads, self.d_k).permute(1, 0, 2)` for Q, K and V with `self.d_k = d_model // n_heads`, "
       "`mask = torch.tril(torch.ones(N, N))` (always causal), `output = torch.matmul(alpha, V_)` then `output = "
       "output.view(N, -1)` (the (H, N, d) heads viewed as (N, H*d) without moving the heads back)."),
    Port("sustech310_haoyanghy", {
        "scaled_dot_product_attention": ("no_batch_support", "scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("needs_leading_axes", "no_batch_support", "mha_head_width_model", "mha_value_width",
                                 "always_causal", "no_output_projection", "head_merge_wrong",
                                 "mha_needs_divisible_width"),
    }, notes="(no_batch_support added by the lead after FRESH_13 was graded once, on review of the code: `N = "
        "X.size(0)` and `view(N, n_heads, d_k)` read X as one (N, D) matrix, which is that sentence.) "
        "lab9/lab9_transformer.ipynb (commit 8a8f3b0) T1: `QKT = torch.matmul(Q, K.t()) / np.sqrt(d_k)` (t() "
       "raises beyond 2-D; no scale argument), `F.softmax(QKT, dim=1)`; T2: `mask = mask == 0`, "
       "`F.softmax(torch.Tensor.masked_fill(QKT, mask, -np.inf), dim=1)` (an all -inf row is NaN); T3 "
       "MultiHeadAttention.forward(X) (no mask argument, no output projection): `N = X.size(0)` (2-D input only), "
       "`Q.view(N, h, self.d_k)` for Q, K and V with `self.d_k = d_model // n_heads`, `mask = torch.tril(torch.ones(h, "
       "N, N))` (always causal), `torch.matmul(alpha, V_.permute(1, 0, 2)).view(N, -1)` (the (H, N, d) heads viewed as "
       "(N, H*d) without moving the heads back)."),
    # the FRESH_13 ports (helper U): Andrej Karpathy's "Neural Networks: Zero to Hero" (online video course), lecture 7
    # "Let's build GPT: from scratch, in code, spelled out": students' own attention, multi-head attention and KV cache
    # written in their forks of the course's repository (karpathy/ng-video-lecture), a course the corpus had not used
    Port("zth_atiannnnnn", {
        "multi_head_attention": ("always_causal", "causal_mask_block_size", "mha_value_width"),
    }, notes="Practice/model.py (commit 3f870cf) Head: `self.register_buffer(\"mask\", "
       "torch.tril(torch.ones(block_size, block_size)))` and `wei.masked_fill(self.mask[:self.block_size, "
       ":self.block_size] == 0, float('-inf'))` (the "
       "whole buffer, never cut to the sequence's length; block_size 8 in model_paras_small of "
       "Practice/test1_non_distributed_training.py: it raises unless N = 8, and no mask argument: always causal); "
       "`self.value = nn.Linear(embed_size, head_size, bias=False)` like the key and query (values of another width "
       "than the queries raise at `self.proj = nn.Linear(num_heads * head_size, embed_size)`); `wei = "
       "torch.matmul(q, k.transpose(-2, -1)) / (self.head_size ** 0.5)` (the per-head width: right)."),
    Port("zth_enricobottazzi", {
        "decode_step": ("decode_rope_ignored", "decode_causal_slice_block_size"),
        "generate_cached": ("decode_rope_ignored", "decode_causal_slice_block_size"),
    }, callee={"generate_cached": ("decode_step",)},
        notes="gpt.py (commit cdeeabf) Head.forward(x, cache=None): `k, v = cache.update(k, v)`, `past = Tk - Tq`, "
        "`wei.masked_fill(self.tril[past:past+Tq, :Tk] == 0, float('-inf'))` with `torch.tril(torch.ones(block_size, "
        "block_size))` and `block_size = 32` (bottom-right aligned, but a cache of more than 32 tokens leaves no row "
        "and raises); the model has no RoPE (`pos_emb = self.position_embedding_table(torch.arange(past_len, past_len "
        "+ T))` before the blocks), so rope_base is never used; KVCache.update `torch.cat((self.k, k), dim=1)` "
        "(right). The reference's generate_cached calls the student's decode_step."),
    Port("zth_montehoover", {
        "multi_head_attention": ("mha_scores_call_transpose_property", "mha_head_width_model", "scale_d_model",
                                 "mask_ignored"),
    }, notes="model.py (commit d0c4cc1) AttentionHead.forward: `A = Q @ K.T(-2, -1)` (Tensor.T is a property: calling "
       "it raises TypeError on every input), then `A = A / torch.sqrt(self.d_model)` (the model width); "
       "MultiHeadAttention `d_head = d_model // num_heads` for the queries, keys and values (d_model = X.shape[-1]); "
       "forward(self, X) takes no mask and builds none. The causes past the raise are in the code but shadowed by it."),
    # the FRESH_14 ports (helper V): UC Berkeley CS 294-158 Deep Unsupervised Learning, homework 1 (autoregressive
    # models: the students' own causal Transformer, multi-head attention and masks), a course the corpus had not used
    Port("deepul_ronaldln", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mask_finite_fill",
                                 "mha_mask_head_axis"),
    }, notes="models/transformer.py (commit 0090774) MultiHeadAttention: `self.head_dim = embed_dim // num_heads`, "
       "`self.scale = self.head_dim ** 0.5` and (embed_dim, embed_dim) query/key/value/proj layers; forward `N, S, D = "
       "query.shape` (3-D only), `self.query(query).view(N, S, H, D_H).permute(0, 2, 1, 3)` (keys `.permute(0, 2, 3, "
       "1)`), `attn_scores.masked_fill(attn_mask == 0, -1e10)` (finite fill: a fully masked row is uniform; the mask "
       "broadcasts against the (N, H, S, T) scores with no head axis of its own), `output.permute(0, 2, 1, "
       "3).reshape(N, S, D)` then `self.proj`."),
    Port("deepul_ebronstein", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_head_width_model", "mha_value_width"),
    }, notes="homeworks/hw1/hw1.py (commit 138e8a2) MultiHeadAttention: `self.depth = d_model // num_heads`, (d_model, "
       "d_model) wq/wk/wv/dense layers, its own `mask = torch.triu(torch.ones(seq_len, seq_len), diagonal=1)` filled "
       "with -1e9 and no mask argument (always causal: `scaled_attention_logits += self.mask[:seq_len, :seq_len]`); "
       "`batch_size = q.size(0)` and split_heads `x.view(batch_size, -1, self.num_heads, self.depth)` (a 2-D input "
       "becomes N one-token sequences, a 4-D one merges its second axis into the tokens), `output.permute(0, 2, 1, "
       "3).contiguous().view(batch_size, -1, self.d_model)` then `self.dense`."),
    Port("deepul_parmarkrish", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "softmax_nan_fully_masked", "mha_mask_head_axis"),
    }, notes="autoregressive/transformer.py (commit 511a626) MultiHeadAttention: (d_model, d_model) "
       "key/query/value/proj layers, `self.scaling_factor = math.sqrt(d_model / num_heads)`; forward `B, S, D = "
       "query.shape` (3-D only), "
       "`self.query(query).view(B, S, H, D//H).transpose(1, 2)`, `Y.masked_fill(self.attn_mask == 0, float(\"-inf\"))` "
       "(the constructor's attn_mask, broadcast against the (B, H, S, T) scores with no head axis of its own), "
       "`F.softmax(Y, dim=-1)` (an all -inf row is NaN), `Y.transpose(1, 2).reshape(B, S, D)` then `self.proj`."),
    Port("deepul_kellman", {
        "scaled_dot_product_attention": ("needs_mask", "scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "needs_mask",
                                 "softmax_nan_fully_masked", "mha_mask_head_axis", "mha_needs_divisible_width"),
        **{f: ("needs_mask",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",), **decoding("scaled_dot_product_attention")},
        notes="homeworks/hw1/masked_gpt.py (commit 1f10e27) masked_attention(q, k, v, mask): no scale argument, "
        "`score.masked_fill(mask == 0, float('-inf'))` (no mask: `None == 0` is False, which masked_fill refuses), "
        "`torch.softmax(score, dim=-1)` (an all -inf row is NaN), returns the output only; MaskedMultiHeadAttention: "
        "`assert d_model % num_heads == 0`, `self.d_head = d_model // num_heads`, (d_model, d_model) layers, "
        "forward(x, mask) `batch_size, seq_len, _ = x.size()` (3-D only), `.view(batch_size, seq_len, self.num_heads, "
        "self.d_head).transpose(1, 2)`, `masked_attention(q, k, v, mask)` (the mask with no head axis of its own, and "
        "required), `.view(batch_size, seq_len, self.d_model)` then out_linear. The reference's decode_step, "
        "generate_cached and generate_naive call the student's attention without a mask, which raises."),
    # the FRESH_14 ports (helper W): National Yang Ming Chiao Tung University (NYCU, Taiwan) Deep Learning and Practice
    # (DLP), lab 5 of 2024 / lab 3 of 2025 (MaskGIT for image inpainting: the students' own MultiHeadAttention of the
    # bidirectional transformer, "TODO1" of models/Transformer/modules/layers.py), a course the corpus had not used
    Port("nycudlp_songriishere", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "out_width_is_input",
                                 "head_merge_wrong", "mha_merge_interleaves_batch", "mask_ignored"),
    }, notes="Lab5/models/Transformer/modules/layers.py (commit 5b2f204) MultiHeadAttention: `self.head_d = dim // "
       "self.num_heads` and `self.scale = self.head_d ** -0.5` (D = X.shape[-1]), `self.transfer_qkv = "
       "nn.Linear(self.dim , self.num_heads * self.head_d * 3 , bias = False)`; forward(x) (no mask argument): "
       "`batch_size, num, dimension = x.shape` (3-D only), `qkv.view(batch_size, num, 3, self.num_heads, "
       "self.head_d)` (q, k and v all head_d wide), `context_layer = (attention_probs @ v).permute(1, 2, 0, 3)` then "
       "`context_layer.reshape(batch_size, num, dimension)` (heads first, batch last, read back as (B, N, D): the "
       "input's width), `self.projection(context_layer)`."),
    Port("nycudlp_youzhe0305", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "head_split_reshape",
                                 "head_merge_wrong", "scale_inverted", "mask_ignored"),
    }, notes="lab5/models/Transformer/modules/layers.py (commit 7ba387d) MultiHeadAttention: `self.d_k = dim // "
       "num_heads`, `self.d_v = dim // num_heads` (D = X.shape[-1]); forward(x) (no mask argument): `batch_size, "
       "n_token, dim = x.shape` (3-D only), `Q = self.mul_W_Q(x).view(batch_size, self.num_heads, n_token, self.d_k)` "
       "(and K, V: no transpose), `concat_attention = attention.view(batch_size, n_token, self.d_v * "
       "self.num_heads)` (no transpose back), `self.mul_W_O(concat_attention)`; Attention.forward: `gate = "
       "torch.nn.functional.softmax(dot_product / (self.d_k ** -0.5), dim=-1)` (the scores times sqrt(d_k))."),
    Port("nycudlp_kwkwkwkak", {
        "multi_head_attention": ("batch_first_only", "qkv_fused_chunked_per_head", "mha_head_width_model",
                                 "mha_value_width", "out_width_is_input", "mask_ignored"),
    }, notes="Lab3/models/Transformer/modules/layers.py (commit 5c66b85) MultiHeadAttention: `self.generate_qkv = "
       "nn.Linear(dim, 3 * dim)`, `self.sqrt_d_k = math.sqrt(dim // num_heads)` (D = X.shape[-1]); forward(x) (no "
       "mask argument): `batch_size, num_toks = x.shape[0], x.shape[1]` (3-D input read as (B, N, D)), "
       "`torch.reshape(qkv, (batch_size, num_toks, self.num_heads, -1)).swapaxes(1, 2)` then `q, k, v = "
       "torch.chunk(qkv, 3, -1)` (each head's block of the fused columns cut into thirds), `QK_T = "
       "q.matmul(k.transpose(2, 3)) / self.sqrt_d_k`, `SQK_T.matmul(v).swapaxes(1, 2).reshape(batch_size, num_toks, "
       "self.dim)` (the input's width), `self.output_linear(result_weights)`."),
    Port("nycudlp_darren2147483647", {
        "multi_head_attention": ("batch_first_only", "mha_fixed_heads", "mha_fixed_width_768", "mask_ignored"),
    }, notes="lab5/models/Transformer/modules/layers.py (commit d0b9012) MultiHeadAttention.forward(x) (no mask "
       "argument; num_heads never stored): `batch_size, num_image_tokens, _ = x.size()` (3-D only), "
       "`q=q.view(batch_size,num_image_tokens,16,768//16)` (and k, v: 16 heads of 48 columns hard-coded), "
       "`score=torch.matmul(q,k)/(768//16)**0.5` (fixed scale), "
       "`out=out.contiguous().view(batch_size,num_image_tokens,768)`, `self.out(out)`."),
    # the FRESH_14 ports (helper X): Simon Prince's book "Understanding Deep Learning" (MIT Press, 2023) and its
    # Python notebooks (udlbook/udlbook), chapter 12: notebooks 12.1 (self-attention) and 12.2 (multi-head
    # self-attention), four readers' own solutions in numpy, tokens as the COLUMNS of a (D, N) matrix
    Port("udl_mustachemo", {
        "softmax": ("softmax_wrong_axis", "softmax_global_max", "temperature_ignored"),
        "scaled_dot_product_attention": ("softmax_wrong_axis", "softmax_global_max", "no_batch_support",
                                         "scale_argument_ignored", "mask_ignored"),
        "multi_head_attention": ("softmax_wrong_axis", "softmax_global_max", "mha_fixed_heads", "no_batch_support",
                                 "mask_ignored"),
        **{f: ("softmax_wrong_axis",) for f in DECODE},
    }, callee={"scaled_dot_product_attention": ("softmax",), **decoding("scaled_dot_product_attention", "softmax")},
        notes="(softmax declared a callee of the decoding functions by the lead after FRESH_14 was graded once: they "
        "fail through the student's attention, whose only fault on their path is its softmax.) "
        "Notebooks/Chap12/12_1_Self_Attention.ipynb (commit dde058a) softmax: `exp_items = np.exp(items_in - "
        "np.max(items_in))`, `exp_items / np.sum(exp_items, axis=0, keepdims=True)` (one global max, axis 0, no "
        "temperature); scaled_dot_product_self_attention: `dot_products = queries.T @ keys` (one row per query), "
        "`np.sqrt(keys.shape[0])`, `attentions = softmax(scaled_dot_products)` (the student's softmax: over the "
        "queries), `values @ attentions.T`, no scale argument, no mask; 12_2_Multihead_Self_Attention.ipynb "
        "multihead_scaled_self_attention: a nested scaled_dot_product_self_attention with the same `queries.T @ keys` "
        "and 12.2's softmax_cols rewritten as `e_x = np.exp(data_in - np.max(data_in))`, `e_x / e_x.sum(axis=0)` "
        "(over the queries, one global max), the two heads' weights as parameters, `np.concatenate((X_prime1, "
        "X_prime2), axis=0)`, `omega_c @ X_concat`, no mask. The reference's decoding calls the student's "
        "scaled_dot_product_attention (one query: each key's weight is 1)."),
    Port("udl_anjandhungana", {
        "softmax": ("softmax_global_sum", "softmax_unstable", "temperature_ignored"),
        "scaled_dot_product_attention": ("swapped_qk", "needs_square", "scale_other", "no_batch_support",
                                         "scale_argument_ignored", "mask_ignored", "softmax_unstable"),
        "multi_head_attention": ("scale_other", "mha_fixed_heads", "no_batch_support", "mask_ignored",
                                 "softmax_unstable"),
        **{f: ("swapped_qk", "needs_square") for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="Notebooks/Chap12/12_1_Self_Attention.ipynb (commit 28c850e) softmax: `exp_values = np.exp(items_in)`, "
        "`exp_values / np.sum(exp_values)` (no max, one sum over the array, no temperature); "
        "scaled_dot_product_self_attention: `dot_products = np.matmul(Q.transpose(), K)` (one row per query, "
        "`.transpose()` of every axis), `dot_products / np.sqrt(D)` with the global `D = 4`, `attention = "
        "softmax_cols(scaled_dot_products)` (the given softmax_cols: each column, one key, over the queries; no max), "
        "`X_prime = np.matmul(V, attention)` ((d_v, N_k) @ (N_q, N_k): raises unless N_q = N_k, then the queries' "
        "and keys' roles are swapped), no scale argument, no mask; 12_2_Multihead_Self_Attention.ipynb "
        "multihead_scaled_self_attention: `softmax_cols(K1.T @ Q1 / np.sqrt(H_D))` with the global `H_D = int(D/H)` "
        "= 4, the two heads' weights as parameters, `np.concatenate((head1_output, head2_output), axis=0)`, "
        "`omega_c @ concatenated_output`, no mask. The reference's decoding calls the student's "
        "scaled_dot_product_attention (one query, several keys: the product raises)."),
    Port("udl_joan947", {
        "softmax": ("softmax_global_sum", "temperature_ignored"),
        "scaled_dot_product_attention": ("sdpa_output_transposed", "no_batch_support", "scale_argument_ignored",
                                         "mask_ignored", "softmax_unstable"),
        "multi_head_attention": ("mha_fixed_heads", "no_batch_support", "mask_ignored", "softmax_unstable"),
        **{f: ("sdpa_output_transposed",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="Notebooks/Chap12/12_1_Self_Attention.ipynb (commit 457e7c1) softmax: `shifted = items_in - "
        "np.max(items_in)`, `exps / np.sum(exps)` (one sum over the array, no temperature); "
        "scaled_dot_product_self_attention: `scores = Q.T @ K`, `scores /= np.sqrt(D_q)` with `D_q = Q.shape[0]` "
        "(right), `A = softmax_cols(scores.T)` (the given softmax_cols, no max), `X_prime = (V @ A).T` (the outputs "
        "as rows where its (d, N) inputs have one column per token), no scale argument, no mask; "
        "12_2_Multihead_Self_Attention.ipynb multihead_scaled_self_attention: `scores1 = Q1.T @ K1`, `scores1 /= "
        "np.sqrt(Q1.shape[0])`, `A1 = softmax_cols(scores1.T)`, `head1 = (V1 @ A1)` (columns: right), the two heads' "
        "weights as parameters, `np.vstack([head1, head2])`, `omega_c @ concat`, no mask. The reference's decoding "
        "calls the student's scaled_dot_product_attention."),
    Port("udl_lfz121", {
        "qkv_project": ("qkv_bias_fixed_tokens",),
        "softmax": ("softmax_global_sum", "softmax_unstable", "temperature_ignored"),
        "scaled_dot_product_attention": ("scale_other", "no_batch_support", "scale_argument_ignored", "mask_ignored",
                                         "softmax_unstable"),
        "multi_head_attention": ("scale_other", "mha_fixed_heads", "no_batch_support", "mask_ignored",
                                 "softmax_unstable"),
        **{f: ("scale_other",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="(The decoding functions declared by the lead after FRESH_14 was graded once: the ground truth then "
       "tried a layer of d_k = 4 only, where the fixed 1/sqrt(4) is right; it now tries another width too.) "
       "Notebooks/Chap12/12_1_Self_Attention.ipynb (commit fe90beb) softmax: `exp_values = np.exp(items_in)`, "
       "`exp_values / np.sum(exp_values)` (no max, one sum over the array, no temperature); "
       "scaled_dot_product_self_attention: `Q = beta_q @ np.ones((1, N)) + omega_q @ X` (likewise K, V) with the "
       "global `N = 3`, `S = (K.T @ Q) / np.sqrt(D)` with the global `D = 4`, `A = softmax_cols(S)` (the given "
       "softmax_cols, no max), `X_prime = V @ A`, no scale argument, no mask; 12_2_Multihead_Self_Attention.ipynb "
       "multihead_scaled_self_attention: `S1 = (K1.T @ Q1) / np.sqrt(H_D)` with the global `H_D = int(D/H)` = 4 "
       "(\"H_D 在外部定义为 4，所以缩放因子是 2.0\"), the two heads' weights as parameters, "
       "`np.vstack((head1, head2))`, `omega_c @ concatenated`, no mask. The reference's decoding calls the student's "
       "scaled_dot_product_attention, whose fixed 1/2 is the contract's 1/sqrt(d_k) for d_k = 4 only."),
    # the FRESH_15 ports (helper A): Johns Hopkins CS 601.471/671/771 (Advanced Self-Supervised Statistical NLP),
    # homework 1, question 1 (profiling self-attention: each student writes a self-attention layer of their own)
    Port("jhu771_prabhav55221", {
        "scaled_dot_product_attention": ("mask_ignored", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "out_width_is_input",
                                 "mha_needs_divisible_width", "mask_ignored"),
    }, notes="question1/attention_layers.py (commit e2fac43) SingleHeadAttention: `scores = "
       "torch.matmul(Q, K.transpose(-2, -1)) / self.sqrt_d_model` (square W_q, so the scale is 1/sqrt(Q.shape[-1])), "
       "`F.softmax(scores, dim=-1)`, no mask and no scale argument, returns the output only; MultiHeadAttention: "
       "`assert d_model % num_heads == 0`, `self.d_k = d_model // num_heads` for queries, keys and values, "
       "`batch_size, seq_len, _ = x.size()`, `.view(batch_size, seq_len, self.num_heads, self.d_k)`, merge "
       "`.view(batch_size, seq_len, self.d_model)` (reached only when the values' view works), no mask."),
    Port("jhu771_kira265", {
        "scaled_dot_product_attention": ("mask_ignored", "scale_argument_ignored"),
        "multi_head_attention": ("mask_ignored",),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="self_attention_profiling/profile_self_attention.py (commit 888a322) SelfAttention.forward: `attn = "
        "torch.matmul(q, k.transpose(-2, -1) / (q.size(-1) ** 0.5))`, `torch.softmax(attn, dim=-1)`, "
        "`torch.matmul(attn, v)`: no mask, no scale argument (the reference's multi_head_attention passes its mask to "
        "it)."),
    Port("jhu771_tommix626", {
        "multi_head_attention": ("batch_first_only", "qkv_fused_chunked_thirds", "mha_head_width_model",
                                 "mha_value_width", "out_width_is_input", "mha_needs_divisible_width", "mask_ignored"),
    }, notes="profiling_self_attention.py (commit 4bfe81f) SelfAttention: `assert d_model % n_heads == 0`, "
       "`self.d_head = d_model // n_heads`, `self.qkv = torch.nn.Linear(d_model, 3 * d_model, bias=False)`; forward: "
       "`B, L, D = x.shape`, `q, k, v = qkv.chunk(3, dim=-1)`, `q.view(B, L, H, Dh).transpose(1, 2)` (likewise k, v), "
       "`/ math.sqrt(Dh)`, `context.transpose(1, 2).contiguous().view(B, L, D)`, `self.out(context)`, no mask."),
    Port("jhu771_adoptedirelia", {
        "multi_head_attention": ("batch_first_only", "qkv_fused_chunked_thirds", "mha_head_width_model",
                                 "mha_value_width", "out_width_is_input", "mask_ignored"),
    }, notes="1-2.py (commit 39594ab) SelfAttention.forward: `B, N, C = x.shape`, `self.qkv(x).reshape(B, N, 3, "
       "self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)` (thirds of the fused Linear(embed_dim, "
       "embed_dim * 3), heads of C // H columns), `* (1.0 / (k.size(-1) ** 0.5))`, `(attn @ v).transpose(1, "
       "2).reshape(B, N, C)`, `self.proj(out)`, no mask."),
    # the FRESH_15 ports (helper B): DTU 02456 Deep Learning (Technical University of Denmark), week 5 "Deep learning
    # with transformers" (5_1_EXE_deep_learning_with_transformers.ipynb), the masked-attention exercise: four students'
    # "left-to-right" masks, which the course's cell turns into additive 0/-inf masks (nonzero = blocked)
    Port("dtu02456_maplewarrior", {
        "causal_mask": ("mask_additive", "causal_ignores_n_k"),
    }, notes="5_Transformers/5_1_EXE_deep_learning_with_transformers.ipynb (commit eedaa19): `T = len(token_ids)`, "
       "`\"left-to-right\": torch.triu(torch.ones(size=(T, T)), diagonal=1)` (square T x T, the future keys set), then "
       "the course's `masks[key] = torch.where(masks[key] == 0, 0, -math.inf)` (an additive float mask, added to the "
       "scores by the course's masked_attention)."),
    Port("dtu02456_chuhanzhou", {
        "causal_mask": ("mask_additive", "mask_inverted", "causal_ignores_n_k"),
    }, notes="5_Transformers/5_1_EXE_deep_learning_with_transformers.ipynb (commit d166d5d): `T = len(token_ids)`, "
       "`\"left-to-right\": torch.tril(torch.ones(T, T))` (ones on the allowed keys j <= i, where the course's masks "
       "mark the BLOCKED keys), then the course's `torch.where(masks[key] == 0, 0, -math.inf)`: -inf on j <= i, 0 on "
       "the future keys j > i (the contract's mask inverted, additive, square T x T)."),
    Port("dtu02456_mathiasdamsgaard", {
        "causal_mask": ("mask_additive", "causal_strict", "causal_ignores_n_k"),
    }, notes="5_Transformers/5_1_EXE_deep_learning_with_transformers.ipynb (commit 931e9c6): `T = len(token_ids)`, "
       "`\"left-to-right\": torch.triu(torch.ones(T, T))` (the diagonal kept: ones on j >= i), then the course's "
       "`torch.where(masks[key] == 0, 0, -math.inf)`: query i sees only j < i (strict; additive, square T x T)."),
    Port("dtu02456_rong_jet", {
        "causal_mask": ("mask_additive", "causal_strict", "causal_mask_fixed_size"),
    }, notes="5_Transformers/5_1_EXE_deep_learning_with_transformers.ipynb (commit 5fa71d6): `\"left-to-right\": "
       "torch.triu(torch.full(attention_map.size(), float('-inf')))`, sized by the global attention_map of the earlier "
       "cell `H, attention_map = attention(vectors, vectors, vectors)` (11 tokens: always 11 x 11, T unused), -inf on "
       "and above the diagonal (strict), then the course's `torch.where(masks[key] == 0, 0, -math.inf)` (additive)."),
    # the FRESH_15 ports (helper C): ARENA (the Alignment Research Engineer Accelerator, an online curriculum whose
    # participants publish their exercise solutions), its first cohorts of autumn 2022, W1D2 "Build your own
    # transformer": the students' own single-head and multi-head (masked) attention in torch, einops and fancy_einsum
    Port("arena_jbloomaus", {
        "scaled_dot_product_attention": ("batch_first_only", "scale_argument_ignored", "always_causal",
                                         "needs_square"),
        "multi_head_attention": ("batch_first_only", "needs_equal_widths", "mask_ignored",
                                 "mha_needs_divisible_width", "mha_value_width"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="(mha_value_width declared by the lead after FRESH_15 was graded once: the fused projection cut in three "
        "equal pieces works only when d_v = d_k, which the corpus declares so, e.g. jhu771_tommix626.) "
        "w1d2/src/transformers.py (commit 8df261b) single_head_attention (the port's path without a mask): "
        "`einsum('b s_q h, b h s_k -> b s_q s_k', Q, K.transpose(dim0=-1, dim1=-2))` (3-D only), `QKT / (emb_len ** "
        "0.5)`, no scale argument; single_head_masked_attention (the port's path with a mask, whose entries are never "
        "read): `tri = t.tril(t.ones((seq_len, seq_len)), diagonal=0)*(-10 ** 4)` with `seq_len = Q.shape[-2]`, "
        "`QKT_masked = (QKT - tri)` (its own causal mask, (N_q, N_q): the broadcast raises unless N_k = N_q); "
        "MultiheadMaskedAttention: `assert (hidden_size % num_heads) == 0`, `Q, K, V = einops.rearrange(QKV, 'b hs "
        "(n es) -> n b hs es', n=3)` (3-D only, three equal chunks of the fused projection), "
        "multihead_masked_attention with its mask commented out (`# QKT_masked = (QKT + tri)`), no mask argument. "
        "The reference's decoding calls the student's attention on 2-D arrays, which its einsum refuses."),
    Port("arena_derpyplops", {
        "scaled_dot_product_attention": ("batch_first_only", "mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "needs_equal_widths", "always_causal", "mha_value_width"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="(mha_value_width declared by the lead after FRESH_15 was graded once: the fused projection cut in three "
        "equal pieces works only when d_v = d_k, which the corpus declares so, e.g. jhu771_tommix626.) "
        "w1d2/attention.ipynb (commit 41e1f72) masked_attention(Q, K, V, mask): `einsum('b s1 c, b s2 c -> b s1 "
        "s2', Q, K) / d_k` (3-D only), `scaled_dot_prod.masked_fill(mask == 0, -1e9)` (True = may attend, finite "
        "fill: a fully masked row is uniform), no scale argument; MultiheadMaskedAttention.forward(x, mask=None) "
        "(mask never read): `Q, K, V = self.W_QKV(x).chunk(3, dim=-1)`, multihead_attention's `assert K.shape[-1] == "
        "V.shape[-1]` and `rearrange(Q, 'b s (nheads h) -> b nheads s h', ...)` (3-D only), `mask_filter = "
        "t.triu(t.full_like(scaled_dot_prod, -t.inf), 1)` added whatever the mask (always causal). The reference's "
        "decoding calls the student's attention on 2-D arrays, which its einsum refuses."),
    Port("arena_ojh31", {
        "scaled_dot_product_attention": ("batch_first_only", "scale_argument_ignored", "always_causal",
                                         "causal_top_left"),
        "multi_head_attention": ("batch_first_only", "qkv_sliced_at_model_width", "always_causal",
                                 "mha_needs_divisible_width", "mha_head_width_model", "mha_value_width"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="(mha_head_width_model and mha_value_width declared by the lead after FRESH_15 was graded once: the "
        "queries cut at the input width D are heads of D // H, and the values' D columns work only when d_v = d_k, "
        "which the corpus declares so for a fused projection split at the model width, e.g. jhu743_evangronberg.) "
        "w1d2/my_solutions.py (commit 05ad9af) single_head_attention (the port's path without a mask): "
        "`einsum('batches seq_Q head_size, batches seq_K head_size -> batches seq_Q seq_K', Q, K)` (3-D only), "
        "`softmax(attention_scores / np.sqrt(Q.shape[-1]), dim=2)`, no scale argument; single_head_masked_attention "
        "(the port's path with a mask, whose entries are never read): `mask = k_index <= q_index` (its own causal "
        "mask, top-left aligned), `t.where(mask, attention_scores, -t.inf)`; MultiheadMaskedAttention: `assert "
        "self.hidden_size % self.num_heads == 0`, `Q = QKV[..., :self.hidden_size]`, `K = QKV[..., "
        "self.hidden_size:-self.hidden_size]`, `V = QKV[..., -self.hidden_size:]` (cut at the input width), "
        "multihead_masked_attention's `rearrange(Q, 'batch seq (nheads headsize) -> ...')` (3-D only) and `mask = "
        "k_index <= q_index` (always causal, no mask argument). The reference's decoding calls the student's "
        "attention on 2-D arrays, which its einsum refuses."),
    Port("arena_curt_tigges", {
        "multi_head_attention": ("batch_first_only", "needs_equal_widths", "mha_output_is_values", "mask_ignored",
                                 "mha_value_width"),
    }, notes="(mha_value_width declared by the lead after FRESH_15 was graded once: the fused projection cut in three "
        "equal pieces works only when d_v = d_k, which the corpus declares so, e.g. jhu771_tommix626.) "
        "w1d2/transformer_modules.py (commit 2a05422) MultiheadMaskedAttention.forward(x) (no mask argument): "
       "`Q, K, V = t.tensor_split(out, 3, dim=-1)` (three nearly equal pieces of the fused projection), "
       "`rearrange(Q, \"B S (nheads headsize) -> B S nheads headsize\", ...)` (3-D only), its own `mask = "
       "t.tril(t.ones(seq_len, seq_len), diagonal=0)` and `masked_fill(mask == 0, -1e9)`, then `Z = einsum(\"B nheads "
       "Qseq Kseq, B Qseq nheads headsize -> B Qseq nheads headsize\", scores, V)` (the values' tokens labelled as the "
       "queries: each token's output is its own value, so neither the scores nor the causal mask reach it), "
       "`self.ff(Z)`."),
    # the FRESH_16 ports (helper A): NYU DS-GA 1011 (Natural Language Processing with Representation Learning), fall
    # 2024 homework 2 (the Annotated-Transformer translation model: `attention` and MultiHeadedAttention left empty)
    # and fall 2025 assignment 2 (a Transformer LM from scratch in the `student` package)
    Port("dsga1011_alexman2000", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "mask_unsqueezed_in_attention",
                                         "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "out_width_is_input",
                                 "mha_mask_unsqueezed_shared", "softmax_nan_fully_masked"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="fall2024/assignment/hw2_newest/submission/layers.py (commit f2c2a9e) attention(query, key, value, "
        "mask=None, dropout=None): no scale argument, `torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)`, "
        "`mask = mask.unsqueeze(1)` (a shared (N_q, N_k) mask becomes (N_q, 1, N_k)), `batch_scores = "
        "batch_scores.masked_fill_(mask == 0, float(\"-inf\"))` (in place: the mask must expand to the scores' shape), "
        "`batch_scores.softmax(dim=-1)` (an all -inf row is NaN); MultiHeadedAttention: `self.d_k = d_model // h` "
        "(D // H, D = X.shape[-1]), `batch_size = query.size(0)`, `projection(mat).view(batch_size, -1, "
        "self.num_head, self.d_k).transpose(1, 2)` for q, k and v (the first axis read as the batch), the mask passed "
        "to attention as given, merge `.view(batch_size, -1, self.d_model)` (the input's width), "
        "`self.projections[-1]`."),
    Port("dsga1011_chenxinnnn", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "mask_finite_fill", "mask_unsqueezed_in_attention",
                                         "extra_leading_axes"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mask_finite_fill", "mha_mask_unsqueezed_shared"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="(extra_leading_axes declared by the lead after FRESH_16 was graded once: the out-of-place masked_fill "
        "broadcasts the scores against the unsqueezed mask, so a (1, N_q, 1) mask on (1, N_q, 1) scores returns every "
        "output with an added leading axis of length 1, the sentence's `mask[None, None]`.) "
        "German_to_English_Machine_Translation/layers.py (commit 0ae510a) attention(query, key, value, "
        "mask=None, dropout=None): no scale argument, `torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)`, "
        "`mask = mask.unsqueeze(1)` (a shared (N_q, N_k) mask becomes (N_q, 1, N_k)), `scores = "
        "scores.masked_fill(mask == 0, -1e9)` (finite; out of place, so the scores broadcast up to the mask), "
        "`torch.softmax(scores, dim=-1)`; MultiHeadedAttention: `assert d_model % h == 0`, `self.d_k = d_model // h` "
        "(D // H, D = X.shape[-1]), `batch_size = query.size(0)`, `lin(x).view(batch_size, -1, self.h, "
        "self.d_k).transpose(1, 2)` for q, k and v (the first axis read as the batch), the mask passed to attention as "
        "given, merge `.view(batch_size, -1, self.h * self.d_k)`, `self.linears[-1](x)`."),
    Port("dsga1011_anubhav3084", {
        "softmax": ("default_required", "temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("always_causal",),
        "rope": ("rope_integer_positions",),
        **{f: ("rope_integer_positions",) for f in DECODE},
    }, callee={"scaled_dot_product_attention": ("softmax",), **decoding("rope")},
        notes="assignment_2/student/modules.py (commit 1daa802): `def SoftmaxLayer(in_features, dim)` (no default, "
        "no temperature, `torch.max(...).values` of an all -inf slice is -inf: NaN); AttentionLayer(Query, Key, "
        "Value, mask=None, dim=None): no scale argument, `einsum(...) / math.sqrt(d_k)`, `torch.where(mask, Q_K_T, "
        "float('-inf'))`, `SoftmaxLayer(masked_Q_K_T, dim=-1)`; MultiHeadSelfAttentionLayer.forward(x, "
        "token_positions=None): no mask argument, `mask = torch.tril(torch.ones(seq_len, seq_len, "
        "dtype=torch.bool))` always; RoPE.forward: `self.cos_buffer[token_positions]` (integer indexing of float32 "
        "tables of positions 0..max_seq_len-1)."),
    Port("dsga1011_sakshisanghavi", {
        "softmax": ("default_required", "temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("needs_mask", "scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("always_causal", "mha_head_width_model", "mha_value_width", "mha_square_weights"),
        "rope": ("rope_integer_positions",),
        **{f: ("needs_mask", "rope_integer_positions") for f in DECODE},
    }, callee={"scaled_dot_product_attention": ("softmax",), **decoding("scaled_dot_product_attention", "rope")},
        notes="student/training.py (commit e304e10): `def softmax(x, dim)` (no default, no temperature, `torch.max` "
        "of an all -inf slice: NaN); scaled_dot_product_attention(Q, K, V, mask=None): no scale argument, `scores * "
        "(1 / math.sqrt(d_k))`, `if mask is not None: masked_scores = torch.where(mask, scores, float(\"-inf\"))` then "
        "`softmax(masked_scores, -1)` unconditionally (no mask: UnboundLocalError); student/modules.py "
        "MultiHeadSelfAttention: `self.q_proj = Linear(d_model, d_model)` (and k_proj, v_proj, out_proj) loaded by "
        "the adapter with `load_state_dict` (every weight must be (d_model, d_model)), forward(x, "
        "token_positions=None) has no mask argument, `mask = torch.tril(torch.ones(seq_len, seq_len, "
        "dtype=torch.bool))` always; RoPE.forward: `self.cos[token_positions]` (integer indexing)."),
    # the FRESH_16 ports (helper B): IIIT Hyderabad's Advanced NLP (ANLP), Monsoon 2025, assignment 1 "Transformer
    # from scratch" (Finnish-English translation with RoPE or a relative position bias, no torch attention modules)
    Port("iiitanlp_gvarun01", {
        "scaled_dot_product_attention": ("needs_leading_axes", "mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mha_applies_rope", "mask_finite_fill",
                                 "mha_mask_head_axis"),
        "rope": ("needs_leading_axes", "rope_mixed_layout", "rope_ignores_positions"),
        **{f: ("needs_leading_axes",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention", "rope")},
        notes="utils.py (commit f5f7b71) scaled_dot_product_attention: `batch_size, num_heads, seq_len, d_k = Q.shape` "
        "(4-D only), `scores / math.sqrt(d_k)`, `safe_masked_fill(scores, mask == 0, -1e9)`, no scale argument; RoPE: "
        "`seq_len = x.size(2)`, `sin_emb[:seq_len, :]` (positions 0..N-1), `repeat_interleave(2, dim=-1)` tables "
        "(interleaved) against `_rotate_half`'s `x.chunk(2, dim=-1)` partners (halves); encoder.py MultiHeadAttention "
        "(config.json `\"pos_encoding\": \"rope\"`): `assert d_model % num_heads == 0`, `self.d_k = d_model // "
        "num_heads`, `RoPE(self.d_k, max_seq_len)` (asserts an even d_k), `_split_heads`: `batch_size, seq_len, "
        "d_model = x.shape` and `.view(batch_size, seq_len, self.num_heads, self.d_k)` for Q, K and V, "
        "`apply_rotary_pos_emb(Q, cos, sin)` (likewise K, the same mixed layout), the utils attention with the mask "
        "as given (a (B, N, N) mask meets the (B, H, N, N) scores without a head axis), `.view(batch_size, seq_len, "
        "self.d_model)`, W_o. The reference's decoding calls the student's attention and RoPE on 2-D arrays, which "
        "their 4-axis unpack and x.size(2) refuse."),
    Port("iiitanlp_thefool18", {
        "scaled_dot_product_attention": ("mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mask_finite_fill", "mha_mask_head_axis"),
        "rope": ("rope_half_split", "rope_ignores_positions", "rope_base_ignored", "extra_leading_axes"),
        **{f: ("extra_leading_axes", "rope_ignores_positions") for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",), **decoding("rope")},
        notes="utils.py (commit 2f5605a) scaled_dot_product_attention(q, k, v, mask=None, bias=None): `d_k = "
        "q.size(-1)`, `/ math.sqrt(d_k)`, `scores.masked_fill_(mask == 0, -1e9)`, no scale argument; apply_rope: "
        "`rotate_half` on halves, `torch.cat([cos_pos, cos_pos], dim=-1)`, `position = torch.arange(seq_len)`, "
        "`math.log(10000.0)` (fixed base), `cos_pos.unsqueeze(0).unsqueeze(0)` (1, 1, N, d/2 tables: a 2-D or 3-D "
        "input gains leading axes; the reference's decode_step rotates a (1, d_k) row at position 0, i.e. not at all, "
        "and gets (1, 1, 1, d_k) back); decoder.py MultiHeadAttention (pos_encoding=\"rel_bias\", its bias table "
        "`torch.zeros(2 * max_len - 1, num_heads)` at construction): `assert d_model % num_heads == 0`, `self.d_k = "
        "d_model // num_heads`, `B, Lq, _ = q.size()`, `.view(B, Lq, self.num_heads, self.d_k)` for q, k and v, the "
        "utils attention with the mask as given (a (B, N, N) mask meets the (B, H, N, N) scores without a head axis), "
        "`.view(B, Lq, self.d_model)`, o_proj."),
    Port("iiitanlp_paarthjindal", {
        "scaled_dot_product_attention": ("needs_leading_axes", "mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mha_applies_rope", "mask_finite_fill",
                                 "mha_mask_head_axis"),
        "rope": ("needs_leading_axes", "rope_half_split", "rope_ignores_positions", "rope_base_ignored"),
        **{f: ("needs_leading_axes",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention", "rope")},
        notes="encoder.py (commit efee630) MultiHeadAttention.scaled_dot_product_attention: `batch_size, num_heads, "
        "seq_len_q, d_k = Q.size()` (4-D only), `/ math.sqrt(d_k)`, `scores.masked_fill(mask == 0, -1e9)`, no scale "
        "argument; RotaryPositionalEmbedding: `inv_freq = 1.0 / (10000 ** (torch.arange(0, d_model, 2).float() / "
        "d_model))` (fixed base), `position = torch.arange(seq_len)` (positions 0..N-1); "
        "apply_rotary_pos_emb_single: `batch_size, num_heads, seq_len, d_k = x.shape` (4-D only), `torch.cat([sin, "
        "sin], dim=-1)`, `rotate_half` on halves (GPT-NeoX layout); RoPEMultiHeadAttention (EncoderLayer's default "
        "pos_encoding_type=\"rope\"): `assert d_model % num_heads == 0`, `self.d_k = d_model // num_heads`, "
        "`batch_size, seq_len, d_model = query.size()`, `.view(batch_size, seq_len, self.num_heads, self.d_k)` for Q, "
        "K and V, Q and K rotated with the RoPE above at positions 0..N-1 (an odd d_k raises), the attention above "
        "with the mask as given (a (B, N, N) mask meets the (B, H, N, N) scores without a head axis), "
        "`.view(batch_size, seq_len, d_model)`, W_o. The reference's decoding calls the student's attention and RoPE "
        "on 2-D arrays, which their 4-axis unpacks refuse."),
    Port("iiitanlp_akr_end", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mask_bool_added", "mha_mask_head_axis"),
        "rope": ("rope_half_split", "rope_ignores_positions", "rope_base_ignored", "extra_leading_axes"),
        **{f: ("extra_leading_axes", "rope_ignores_positions") for f in DECODE},
    }, callee=decoding("rope"),
        notes="code/encoder.py (commit 510857b) apply_rope: `theta = 10000 ** (-2 * sinusoid / Dh)` (fixed base), `pos "
        "= torch.arange(T)` (positions 0..N-1), `angles.sin()[None,None,:,:]` (1, 1, N, d/2 tables: a 2-D or 3-D input "
        "gains leading axes; the reference's decode_step rotates a (1, d_k) row at position 0, i.e. not at all, and "
        "gets (1, 1, 1, d_k) back), `torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)` on halves; "
        "MultiHeadAttention (rope=False, rel_bias=False by default): `assert d_model % num_heads == 0`, `self.d_head = "
        "d_model // num_heads`, `B, Tq, _ = x_q.size()`, `.view(B, Tq, self.num_heads, self.d_head)` for q, k and v, "
        "`att = att + mask` (additive: a boolean mask adds 0/1 and blocks nothing; a (B, N, N) mask meets the (B, H, "
        "N, N) scores without a head axis), `.view(B, Tq, self.d_model)`, `self.out(y)`."),
    # the FRESH_16 ports (helper C): Dive into Deep Learning (d2l.ai), the attention chapter
    Port("d2l_chenkehan21", {
        "scaled_dot_product_attention": ("batch_first_only", "scale_argument_ignored", "mask_read_as_valid_lens"),
        "multi_head_attention": ("batch_first_only", "head_split_reshape", "head_merge_wrong",
                                 "mask_read_as_valid_lens"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="codes/Attention/attention_scoring_functions.py (commit df3ca57) DotProductAttention.forward: "
        "`torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(queries.shape[-1])` (3-D only, no scale argument), "
        "`masked_softmax(scores, valid_lens)`: `valid_len.reshape(-1)` (or repeat_interleave of a 1-D one) and "
        "Modern_RNNs/seq2seq.py sequence_mask `mask = torch.arange(max_len)[None, :] >= valid_len[:, None]; x[mask] = "
        "mask_value` with -1e6 (the contract's mask read as valid lengths); multi_head_attention.py: transpose_qkv "
        "`x.reshape(x.shape[0] * num_heads, x.shape[1], -1)` and transpose_output `x.reshape(-1, x.shape[1], "
        "x.shape[2] * num_heads)` (heads split and merged by a bare reshape, no permute), `torch.repeat_interleave("
        "valid_lens, self.num_heads, dim=0)`. The reference's decoding calls the student's bmm attention on 2-D "
        "arrays, which it refuses."),
    Port("d2l_dodododddo", {
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "scale_other", "mask_bool_added",
                                 "mha_mask_head_axis", "no_output_projection"),
    }, notes="dl_ch10/model.py (commit 5c630ae) AttentionLayer: `assert self.dim % self.m_head == 0` with self.dim = "
       "config.hidden_size (the input width), `batch_size, seq_len, _ = W.shape` in _split_m_head (3-D only), "
       "`weight = torch.matmul(q, k.permute(0, 1, 3, 2)) / math.sqrt(self.dim / self.m_head)` (input width over the "
       "heads, right only when H*d_k = D), `weight += attention_mask` (additive: a boolean mask adds 0/1, and a "
       "per-sequence (B, N, N) mask meets the (B, H, N, N) scores without a head axis), returns the merged heads `v` "
       "(no W_o in the layer)."),
    Port("d2l_boxcounter", {
        "scaled_dot_product_attention": ("batch_first_only", "needs_equal_widths", "scale_argument_ignored",
                                         "mask_read_as_valid_lens", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_value_width", "mha_output_width_asserted",
                                 "mask_read_as_valid_lens", "softmax_nan_fully_masked"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="chapter-11_attention_mechanisms_and_transformers/04_vitransformer/vitransformer.py (commit c1d09b4; the "
        "same code in 03_transformer_with_kv_cache/transformer.py) DotProductAttention.forward: "
        "`assert_dimension('queries', queries, 3)` (and keys, values), `assert_same_shape('keys', keys, 'values', "
        "values)` and `assert_shape('values', values, (batch_size, num_keys, num_hidden_units))` (d_v = d_k), `/ "
        "math.sqrt(num_hidden_units)` (no scale argument); masked_softmax(attention_scores, valid_lens): valid_lens "
        "repeated to (batch, queries, keys), `mask >= valid_lens`, `masked_fill(mask, -torch.inf)`, torch.softmax (the "
        "contract's mask read as valid lengths; a row with no valid key is NaN); MultiHeadAttention: "
        "`nn.LazyLinear(num_hidden_units, bias=False)` for W_q, W_k, W_v and W_o, `assert_shape('v', v, (..., "
        "hidden_size))`, `assert_shape('context', context, (queries.size(0), queries.size(1), hidden_size))` after "
        "W_o, `valid_lens.repeat_interleave(num_heads, dim=0)`. The reference's decoding calls the student's attention "
        "on 2-D arrays, which its assertions refuse."),
    # the FRESH_17 ports (helper B): iCEV (Instituto de Ensino Superior iCEV, Teresina, Brazil), "Tópicos em
    # Inteligência Artificial" 2026.1 (Prof. Dimmy Magalhães), Lab P1-04 "O Transformer Completo From Scratch": four
    # students' attention, multi-head attention and causal masks (numpy, or PyTorch), gathered from their Labs 1 to 3
    Port("icev_joaoneto694", {
        "softmax": ("softmax_ignores_axis", "temperature_ignored", "softmax_nan_fully_masked"),
        "causal_mask": ("mask_additive", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("mask_bool_added", "scale_argument_ignored"),
        "multi_head_attention": ("heads_not_split", "mha_head_width_model", "mha_value_width", "no_output_projection",
                                 "mask_bool_added", "mha_needs_divisible_width"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="transformer.py (commit 16760ce): `def softmax(x)` with `np.max(x, axis=-1, keepdims=True)` (no axis, no "
        "temperature, NaN on an all -inf row); scaled_dot_product_attention: `d_k_local = Q.shape[-1]` (no scale "
        "argument), `scores = scores + mask` (additive); MultiHeadAttention: `self.d_k = d_model // h` for the "
        "per-head W_Q[i], W_K[i] and W_V[i], `Q_cat = np.concatenate(Qs, axis=-1)`, `Q = Q_cat @ self.W_Q_G` (a "
        "(d_model, d_model) matrix: a concatenation narrower than d_model raises), ONE "
        "`scaled_dot_product_attention(Q, K, V, mask=mask)` over the full width (scale 1/sqrt of it), `return "
        "output` (no W_O); create_causal_mask: `np.triu(np.full((seq_len, seq_len), -np.inf), k=1)`."),
    Port("icev_wendrilxx", {
        "softmax": ("temperature_ignored", "softmax_nan_fully_masked"),
        "causal_mask": ("mask_additive", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("batch_first_only", "mask_bool_added", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mask_bool_added"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="lab04_transformer_completo.py (commit 4665f5a) softmax_estavel(x, axis=-1): `exp_x[np.isinf(x) & (x < "
        "0)] = 0` after `np.exp(x - x_max)` (no temperature; an all -inf slice is 0 / 0 = NaN); "
        "scaled_dot_product_attention: `np.matmul(query, key.transpose(0, 2, 1))` (3-D only), `d_k = key.shape[-1]` "
        "(no scale argument), `scaled_scores + mask` (additive); create_causal_mask: zeros with `-np.inf` on "
        "`np.triu_indices_from(mask, k=1)`; MultiHeadAttention: `assert d_model % num_heads == 0`, `self.d_k = "
        "d_model // num_heads` for Q, K and V, `batch_size = Q.shape[0]`, `reshape(batch_size, -1, self.num_heads, "
        "self.d_k).transpose(0, 2, 1, 3)`, a loop over the heads calling its attention on 3-D slices with the mask as "
        "given, `np.concatenate(output_heads, axis=-1) @ self.W_o`. The reference's decoding calls the student's "
        "attention on 2-D arrays, which transpose(0, 2, 1) refuses."),
    Port("icev_mathcast", {
        "causal_mask": ("mask_float", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("extra_leading_axes", "scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("extra_leading_axes", "softmax_nan_fully_masked"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="models/attention.py (commit 766b457) scaled_dot_product_attention(Q, K, V, mask=None, debug=False): "
        "`d_k = Q.size(-1)` (no scale argument), `mask = mask.unsqueeze(0)` then the out-of-place `scores = "
        "scores.masked_fill(mask == 0, float('-inf'))` (scores with no more axes than the unsqueezed mask gain its "
        "leading axis of length 1: a 2-D case, a (B, 1, N, N) mask, or the reference's multi_head_attention's (..., "
        "1, N, N) head mask), F.softmax(scores, dim=-1) (NaN on an all -inf row); utils/mask.py generate_causal_mask"
        "(size): `torch.tril(torch.ones(size, size))` (float, square). The student wrote no multi-head attention: "
        "the reference's calls the student's attention."),
    Port("icev_md_sa0", {
        "causal_mask": ("causal_ignores_n_k",),
        "scaled_dot_product_attention": ("scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width",
                                 "softmax_nan_fully_masked"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="transformer.py (commit 8e87749) scaled_dot_product_attention(Q, K, V, mask=None): `d_k = Q.size(-1)` "
        "(no scale argument), `scores.masked_fill(mask == 0, float('-inf'))`, F.softmax(scores, dim=-1) (NaN on an "
        "all -inf row); MultiHeadAttention: `self.d_k = d_model // num_heads` for Q, K and V, `batch_size = "
        "q.size(0)`, `.view(batch_size, -1, self.num_heads, self.d_k).transpose(1, 2)`, `mask.unsqueeze(0)"
        ".unsqueeze(0)` for a 2-D mask and `mask.unsqueeze(1)` for a 3-D one, `.view(batch_size, -1, self.num_heads "
        "* self.d_k)`, `self.W_o(attn_output)`; get_causal_mask(seq_len): `torch.tril(torch.ones(seq_len, "
        "seq_len)).type(torch.bool)` (square)."),
    # the FRESH_17 ports (helper C): The Annotated Transformer (Harvard NLP's line-by-line PyTorch notebook of
    # "Attention Is All You Need", 2018, revised 2022), a widely followed online text: four readers' own
    # re-implementations of its multi-head attention (per-head modules, a batched einsum one, a fused one)
    Port("annotated_bstars", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "needs_float_mask",
                                 "mask_finite_fill", "scale_other"),
    }, notes="(scale_other declared by the lead after FRESH_17 was graded once: each head's scores are divided by "
       "sqrt(D // H), the student's head width, not by sqrt(d_k), e.g. 1/sqrt(5) for d_k = 3 on one head.) "
       "layers.py (commit 36b55f2) AttentionHead.forward: `E = torch.bmm(Q, torch.transpose(K, 1, 2)) / "
       "np.sqrt(self.embed_dim)` (bmm: 3-D only), `E = mask * E + (1. - mask) * self.minf` with `self.minf = -1e9` "
       "(a torch bool mask raises at `1. - mask`: the student's masks are `.int()`; a 0/1 mask fills -1e9, so a fully "
       "masked row is uniform); MultiHeadAttention: `head_dim = embed_dim // num_heads` with embed_dim = model_dim "
       "(EncoderLayer: `MultiHeadAttention(model_dim, model_dim, model_dim, model_dim, num_heads)`), each "
       "`AttentionHead(q_dim, k_dim, v_dim, head_dim)` with `nn.Linear(v_dim, embed_dim)` for the values too (heads "
       "of D // H columns, values as wide as the queries), `torch.cat([...], dim=-1)`, `nn.Linear(head_dim * "
       "num_heads, embed_dim)`."),
    Port("annotated_vnnm404", {
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_head_width_model",
                                 "mha_value_width", "mask_bool_added", "mha_mask_head_axis"),
    }, notes="transformer/attention.py (commit a6254df) MultiHeadAttention: `if d_model % nhead != 0: raise "
       "ValueError(...)`, `self.h_dim = d_model // nhead`; split: `batch_size, sequence_length, d_tensor = "
       "tensor.size()` (3-D only) and `tensor.reshape(batch_size, sequence_length, self.nhead, self.h_dim)` (raises "
       "unless every projection is d_model wide: heads of D // H, values as wide as the queries); scaled_dot_product: "
       "`torch.einsum(\"bihd,bkhd->bhik\", query, key)`, `* (1 / torch.sqrt(d_key))` with d_key = h_dim, `weights = "
       "weights + mask` (additive: a boolean mask adds 0/1, and a (B, N, N) mask has no head axis against the (B, H, "
       "N, N) scores), `F.softmax(weights, dim=3)`."),
    Port("annotated_mikecvet", {
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_head_width_model",
                                 "mha_value_width", "masked_zero", "mha_mask_head_axis"),
    }, notes="src/multihead.py (commit 5247791) MultiHeadAttention: `assert dim % num_attn_heads == 0`, `self.kqv_dim "
       "= dim // num_attn_heads`; split_attn_heads `batch_size, seq_length, _ = X.size()` (3-D only) and "
       "`X.view(batch_size, seq_length, self.num_attn_heads, self.kqv_dim)` (raises unless every projection is dim "
       "wide: heads of D // H, values as wide as the queries); scaled_dot_product_attention: `/ "
       "math.sqrt(self.kqv_dim)`, `attn_scores.masked_fill(mask == 0, 1e-10)` (masked scores become about 0, not "
       "-inf; the mask is used as given, so a (B, N, N) mask has no head axis against the (B, H, N, N) scores); "
       "combine_heads `.view(batch_size, seq_length, self.dim)`."),
    Port("annotated_sebastianscherer88", {
        "multi_head_attention": ("mha_needs_divisible_width", "mha_head_width_model", "mha_value_width",
                                 "mask_finite_fill"),
    }, notes="src/architecture/attention.py (commit 1b9d073) MultiHeadedAttention: `assert d_model % h == 0`, `d_k = "
       "d_model // h` (\"We assume d_v always equals d_k\"), `clones(clones(nn.Linear(d_model, d_k), 3),h)` (heads of "
       "D // H columns for the queries, keys AND values), `torch.concat(head_attentions,-1)`, `nn.Linear(d_model, "
       "d_model)`; attention: `softmax_input.masked_fill(coefficient_mask == 0, -1e9)` (finite fill: a fully masked "
       "row is uniform), the mask passed to every head as given."),
    # the FRESH_18 ports (helper A): UC Berkeley CS 288 (Natural Language Processing), spring 2026, assignment 2 (a
    # decoder-only transformer language model from scratch, part 2: softmax, scaled dot-product attention, causal
    # multi-head self-attention, RoPE): four students' fillings of the course's part2/model.py
    Port("cs288_andersvestrum", {
        "softmax": ("temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("scale_argument_ignored",),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_head_width_model",
                                 "mha_value_width", "always_causal"),
        "rope": ("rope_half_split", "rope_integer_positions", "rope_table_unsqueezed_for_heads"),
        **{f: ("rope_half_split", "rope_integer_positions") for f in DECODE},
    }, callee=decoding("rope"),
        notes="part2/model.py (commit 8110d29) softmax(x, dim=-1): `x - max_x` then exp / sum (no temperature, NaN on "
        "an all -inf slice); scaled_dot_product_attention(Q, K, V, mask=None): no scale argument, `QK / "
        "math.sqrt(d_k)` with `d_k = Q.shape[-1]`, `QK.masked_fill(~mask, float('-inf'))`, `torch.nan_to_num(QK, "
        "nan=0.0)`; MultiHeadSelfAttention: `assert d_model % num_heads == 0`, `self.d_k = d_model // num_heads` for "
        "q, k AND v, `batch_size, seq_len, _ = x.shape` (3-D only), `mask = self._create_causal_mask(seq_len, "
        "x.device)` (forward has no mask argument), `.view(batch_size, seq_len, self.d_model)`; "
        "RotaryPositionEmbedding: `emb = torch.cat([freqs, freqs], dim=-1)` and `_rotate_half` = `torch.cat([-x2, "
        "x1], dim=-1)` (halves), `cos = self.cos_cached[token_positions]` (integer indexing), `if x.dim() == 4: cos "
        "= cos.unsqueeze(1)` ((N,) positions give (N, 1, d) tables against (B, H, N, d))."),
    Port("cs288_lru0612", {
        "softmax": ("temperature_ignored",),
        "scaled_dot_product_attention": ("scale_argument_ignored",),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_head_width_model",
                                 "mha_value_width", "always_causal"),
        "rope": ("rope_half_split", "rope_integer_positions", "rope_table_unsqueezed_for_heads"),
        **{f: ("rope_half_split", "rope_integer_positions") for f in DECODE},
    }, callee=decoding("rope"),
        notes="part2/model.py (commit fab596f) softmax(x, dim=-1): `torch.nan_to_num(exp_x / exp_x.sum(dim=dim, "
        "keepdim=True), nan=0.0)` (no temperature; an all -inf slice is zeros); scaled_dot_product_attention(Q, K, V, "
        "mask=None): no scale argument, `/ math.sqrt(d_k)` with `d_k = Q.shape[-1]`, `score.masked_fill(mask == "
        "False, float('-inf'))`, `softmax(score) @ V`; MultiHeadSelfAttention: `assert d_model % num_heads == 0`, "
        "`self.d_k = d_model // num_heads` for q, k AND v, `batch_size, seq_len, _ = x.shape` (3-D only), `mask = "
        "self._create_causal_mask(seq_len, x.device)` (forward has no mask argument), `.view(batch_size, seq_len, "
        "-1)`; RotaryPositionEmbedding: `inv_freq = torch.tensor([1 / theta ** (2 * i / self.d_model) for i in "
        "range(self.d_model // 2)])`, `emb = torch.cat([freqs, freqs], dim=-1)` and `_rotate_half` = "
        "`torch.cat([-x2, x1], dim=-1)` (halves), `self.cos_cached[token_positions]` (integer indexing), `if x.dim() "
        "== 4: cos = cos.unsqueeze(1)` ((N,) positions give (N, 1, d) tables against (B, H, N, d))."),
    Port("cs288_jorgbergh", {
        "softmax": ("temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("scale_argument_ignored",),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_head_width_model",
                                 "mha_value_width", "always_causal"),
        "rope": ("rope_half_split", "rope_integer_positions", "needs_leading_axis"),
        **{f: ("needs_leading_axis", "rope_half_split", "rope_integer_positions") for f in DECODE},
    }, callee=decoding("rope"),
        notes="part2/model.py (commit 5caed95) softmax(x, dim=-1): `x - max_x` then exp / sum (no temperature, NaN on "
        "an all -inf slice); scaled_dot_product_attention(Q, K, V, mask=None): no scale argument, `/ "
        "math.sqrt(d_k)` with `d_k = Q.shape[-1]`, `scores.masked_fill(~mask, float(\"-inf\"))`, "
        "`torch.nan_to_num(attn, nan=0.0)`; MultiHeadSelfAttention: `assert d_model % num_heads == 0`, `self.d_k = "
        "d_model // num_heads` for Q, K AND V, `batch_size, seq_len, _ = x.shape` (3-D only), `mask = "
        "self._create_causal_mask(seq_len, x.device)` (forward has no mask argument), `.view(batch_size, seq_len, "
        "self.d_model)`; RotaryPositionEmbedding.forward: `if x.dim() == 3: ... elif x.dim() == 4: ... else: raise "
        "ValueError(f\"Unexpected x.ndim={x.dim()}, expected 3 or 4.\")` (the reference's decoding passes 2-D "
        "queries and keys), `emb = torch.cat([freqs, freqs], dim=-1)` and `_rotate_half` = `torch.cat([-x2, x1], "
        "dim=-1)` (halves), `self.cos_cached[token_positions]` (integer indexing)."),
    Port("cs288_cylee0815", {
        "softmax": ("temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("scale_argument_ignored",),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_head_width_model",
                                 "mha_value_width", "always_causal"),
        "rope": ("rope_half_split", "rope_integer_positions", "extra_leading_axes"),
        **{f: ("rope_half_split", "rope_integer_positions", "extra_leading_axes") for f in DECODE},
    }, callee=decoding("rope"),
        notes="part2/model.py (commit 42bc674) softmax(x, dim=-1): `x - x_max` then exp / sum (no temperature, NaN on "
        "an all -inf slice); scaled_dot_product_attention(Q, K, V, mask=None): no scale argument, `return "
        "F.scaled_dot_product_attention(query=Q, key=K, value=V, attn_mask=mask, dropout_p=0.0, is_causal=False)`; "
        "MultiHeadSelfAttention: `assert d_model % num_heads == 0`, `self.d_k = d_model // num_heads` for q, k AND v, "
        "`batch_size, seq_len, _ = x.shape` (3-D only), `mask = self._create_causal_mask(seq_len, x.device)` "
        "(forward has no mask argument), `.view(batch_size, seq_len, self.d_model)`; RotaryPositionEmbedding: `emb "
        "= torch.cat([freqs, freqs], dim=-1)` and `_rotate_half` = `torch.cat([-x2, x1], dim=-1)` (halves), "
        "`self.cos_cached[token_positions]` (integer indexing), `if token_positions.dim() == 1: cos = cos[None, "
        "...]` (a 2-D (N, d) input comes back as (1, N, d))."),
    # the FRESH_18 ports (helper B): Charles University (Prague), NPFL114 Deep Learning (renamed NPFL138 in 2024/25),
    # assignment tagger_transformer (the students' own SelfAttention layer of a Transformer encoder tagger, from the
    # course's TODO-commented template; the contract's mask is passed as the layer's (batch, N) padding mask), a course
    # the corpus had not used
    Port("npfl_teriyakirice", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "needs_mask",
                                 "mask_padding_rows_and_keys", "mask_finite_fill"),
    }, notes="tagger_transformer.py (commit 29e2f1c) Network.SelfAttention: matrixOperation `tf.reshape(M, "
       "[batch_size, max_sentence_len, self.heads, self.dim // self.heads])` with `batch_size = tf.shape(inputs)[0]`, "
       "`max_sentence_len = tf.shape(inputs)[1]` (3-D input; heads of D // H for Q, K and V) and the merge "
       "`tf.reshape(attention, [batch_size, max_sentence_len, self.dim])`; call: `m = tf.cast(mask, tf.int32)` (no "
       "mask raises), `m = tf.einsum('bi,bj->bij', m, m)` (a (B, N) padding mask: query rows AND keys of sequence b "
       "masked by row b; a mask that is not 2-D raises), `tf.tile(tf.expand_dims(m, 1), [1, self.heads, 1, 1])`, `n = "
       "tf.cast(1 - m, tf.float32) * (-1e9)`, `tf.nn.softmax(weights * m + n)` (masked scores exactly -1e9: a fully "
       "masked row is uniform)."),
    Port("npfl_koleckar", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mask_key_padding",
                                 "mask_finite_fill"),
    }, notes="tagger_transformer.py (commit 9564d87) Model.SelfAttention.call: `shape = (tf.shape(inputs)[0], "
       "tf.shape(inputs)[1], self.heads, self.dim // self.heads)` for Q, K and V (3-D input; heads of D // H) and the "
       "merge `tf.reshape(output, shape=[tf.shape(inputs)[0], tf.shape(inputs)[1], self.dim])`; the mask applied as a "
       "(B, N) key-padding mask by transposing the scores to (H, N_q, B, N_k), `tf.transpose(self_attention_weights, "
       "perm=(1, 2, 0, 3))`, then `tf.keras.layers.Softmax()(self_attention_weights, mask=mask)` (Keras 2 adds `(1.0 - "
       "mask) * -1e9`: finite, so a fully masked row keeps weights over its keys; no mask: none applied) and "
       "`perm=(2, 0, 1, 3)` back."),
    Port("npfl_ranoraraku", {
        "multi_head_attention": ("batch_first_only", "scale_other", "out_width_is_input", "needs_mask",
                                 "mask_key_padding", "mask_finite_fill"),
    }, notes="labs/11/tagger_transformer.py (commit 70fee37) Model.SelfAttention: `self.qk_dim = self.input_dim`, "
       "`self.v_dim = self.input_dim`; call: `batch_size = tf.shape(inputs)[0]`, `max_sentence_len = "
       "tf.shape(inputs)[1]` (3-D input), `tf.reshape(inputs @ self.W_Q, [batch_size, max_sentence_len, self.heads, "
       "-1])` (the heads' own widths), `weights = tf.linalg.matmul(Q, K, transpose_b=True) / tf.sqrt(self.qk_dim / "
       "self.heads)` (scale 1/sqrt(D / H) from the input width, not 1/sqrt(d_k); wherever the merge succeeds D / H = "
       "d_v), `mask = tf.expand_dims(tf.expand_dims(mask, axis=1), axis=1)` (mask[:, None, None, :]; no mask raises), "
       "`tf.where(mask, weights, -1e9)` (finite fill), the merge `tf.reshape(..., [batch_size, max_sentence_len, "
       "self.v_dim])` (into the input width D: raises unless H*d_v = D)."),
    Port("npfl_vitusmaximus", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "needs_mask",
                                 "mask_key_padding", "mask_finite_fill"),
    }, notes="labs/10/tagger_transformer.py (commit 10e1e87) Model.SelfAttention.forward: `batch_size, "
       "max_sentence_len, _ = inputs.shape` (3-D only), `Q.reshape(batch_size, max_sentence_len, self.heads, self.dim "
       "// self.heads).permute(0, 2, 1, 3)` for Q, K and V (heads of D // H) and the merge `.reshape(batch_size, "
       "max_sentence_len, self.dim)`; `attention_weights.masked_fill(~mask[:, None, None, :], -1e9)` (a (B, N) "
       "key-padding mask; out of place, broadcast; finite fill: a fully masked row is uniform; no mask: "
       "`None[:, None, None, :]` raises TypeError), `torch.nn.Softmax(dim=-1)`."),
    # the FRESH_18 ports (helper C): Datawhale's Happy-LLM ("从零开始的大语言模型原理与实践教程", an open
    # online book and course; chapter 2: attention and multi-head attention, chapter 5: a LLaMA-2 model with RoPE):
    # four learners' own attention code (a chapter-2 encoder/decoder layer, a day-by-day study log, two rewritten
    # chapter-5 models)
    Port("happyllm_zshzsh666", {
        "scaled_dot_product_attention": ("mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_head_width_model",
                                 "mha_value_width", "always_causal", "mask_inverted", "mask_finite_fill"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="code/chapter2-transformer/transformer_components.py (commit 5041b68) attention(query, key, value, "
        "mask=None, dropout=None): `scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)` (no scale "
        "argument), `scores.masked_fill(mask == 0, -1e9)` (finite: a fully masked row is uniform); "
        "MultiHeadAttention: `assert d_model % n_heads == 0`, `self.d_k = d_model // n_heads` for Q, K and V, "
        "`batch_size = query.size(0)`, `.view(batch_size, -1, self.n_heads, self.d_k).transpose(1, 2)`, no mask "
        "argument: the decoder's (is_causal) layer passes `self.mask[:, :, :seq_len, :seq_len] == float(\"-inf\")` "
        "(True on the FUTURE keys) to attention(), whose `mask == 0` then masks every past key and the query itself "
        "(an inverted causal mask, whatever mask is given; the last query is fully masked and uniform), `.view("
        "batch_size, -1, self.d_model)`, `self.wo(x)`."),
    Port("happyllm_whu_zk", {
        "scaled_dot_product_attention": ("mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mha_applies_rope",
                                 "mask_bool_added", "mha_mask_head_axis"),
    }, notes="day2/day2_test1_attention.py (commit 6717df6) scaled_dot_product_attention(q, k, v, mask=None): no "
       "scale argument, `scores.masked_fill(mask == 0, -1e9)` (finite: a fully masked row is uniform); "
       "day9/day9_test4_Attention.py (commit cfb6f4f) Attention.forward(x, freqs_cis, mask): `batch, seq_len, _ = "
       "x.shape` (3-D only), `self.head_dim = args.dim // args.n_heads` in `xq.view(batch, seq_len, self.n_heads, "
       "self.head_dim)` (likewise xk, xv), `xq = apply_rotary_emb(xq, freqs_cis)` and `xk = apply_rotary_emb(xk, "
       "freqs_cis)` (interleaved pairs via torch.view_as_complex, positions 0..N-1, base 10000: RoPE inside the "
       "layer), `scores = scores + mask` (additive: a boolean mask adds 1 to the allowed scores; a (B, N, N) mask "
       "has no head axis against the (B, H, N, N) scores), `.view(batch, seq_len, -1)`, `self.wo(output)`."),
    Port("happyllm_decade_qiu", {
        "rope": ("rope_half_split", "rope_ignores_positions", "rope_base_ignored", "extra_leading_axes"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mha_applies_rope",
                                 "always_causal", "mha_mask_head_axis"),
        "decode_step": ("extra_leading_axes", "decode_rope_ignored"),
        "generate_cached": ("extra_leading_axes", "decode_rope_ignored"),
        "generate_naive": ("extra_leading_axes", "naive_query_not_rotated", "rope_half_split"),
    }, callee=decoding("rope"),
        notes="docs/chapter5/code/impl/NanoLlama.py (commit 0ee00b7) RotaryEmbedding: `inv_freq = 1.0 / (10000 ** "
        "(torch.arange(0, dim, 2).float() / dim))` (no base argument), `torch.concat((freqs, freqs), dim=-1)` with "
        "rotate_half `torch.cat((-x2, x1), dim=-1)` (halves), `t = torch.arange(max_len)` and forward(q, k) `q * "
        "self.cos[:, :, :sq, :] + rotate_half(q) * self.sin[:, :, :sq, :]` with `sq = q.shape[-2]` (positions "
        "0..N-1, never the ones given; the (1, 1, N, d) table adds leading axes to a 2-D or 3-D input: the "
        "reference's decoding then rotates q and k at position 0, i.e. not at all, and gets extra axes); Attention: "
        "`self.head_dim = args.dim // args.num_head`, `B, S = x.size(0), x.size(1)`, `Q.view(B, S, self.num_head, "
        "self.head_dim)` (likewise K, V; 3-D only), `Q, K = self.rope(Q, K)` (RoPE inside the layer), "
        "`F.scaled_dot_product_attention(Q, K, V, attn_mask=mask, ..., is_causal=mask is None)` (causal when no mask "
        "is given; a given boolean mask is used as is, and a (B, N, N) one has no head axis)."),
    Port("happyllm_clayden886", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_head_width_model", "mha_value_width",
                                 "mha_needs_divisible_width", "mha_applies_rope"),
    }, notes="model.py (commit 815e980) Attention: `self.head_dim = config.dim // config.n_heads`, `assert config.dim "
       "% config.n_heads == 0`; forward(x, freqs_cos, freqs_sin) (no mask argument): `batch_size, seq_len, dim = "
       "x.shape` (3-D only), `xq.view(batch_size, seq_len, self.n_heads, self.head_dim)` (likewise xk, xv), `xq, xk "
       "= apply_rotary_emb(xq, xk, freqs_cos[:seq_len], freqs_sin[:seq_len])` (interleaved pairs `[..., ::2]`, "
       "`[..., 1::2]`, positions 0..N-1, theta 10000: RoPE inside the layer), `mask = torch.triu(torch.full((seq_len, "
       "seq_len), float(\"-inf\")), diagonal=1)`, `scores = scores + mask` (always causal), `.view(batch_size, "
       "seq_len, dim)`, `self.wo(output)`."),
    # the FRESH_19 ports (helper A): Bar-Ilan University (Israel), Deep Learning for Texts and Sequences, the assignment
    # "Small Transformer Language Models" (2024 to 2026: the students fill in the course's attention.py, a fused kqv
    # Linear per head, scaled attention scores, a (1, L, L) causal-mask buffer, masked self-attention and a causal
    # multi-head layer whose skeleton chains them), four students' solutions, a course the corpus had not used
    Port("biudl_rseck", {
        "qkv_project": ("batch_first_only", "needs_equal_widths"),
        "attention_scores": ("batch_first_only", "scores_scaled"),
        "causal_mask": ("extra_leading_axes", "mask_float", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("batch_first_only", "needs_square", "scale_argument_ignored",
                                         "mask_sliced_from_buffer", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_head_width_model",
                                 "mha_value_width", "always_causal"),
        **{f: ("batch_first_only", "needs_square") for f in DECODE},
    }, callee={"scaled_dot_product_attention": ("attention_scores",), **decoding("scaled_dot_product_attention")},
        notes="code-and-data/attention.py (commit 6245c09) kqv: `x = linear(x)`, `B, N, D = x.size()` (3-D only), `k, "
        "q, v = torch.split(x, D // 3, dim=2)` (more than three pieces, or pieces straddling the blocks, unless d_v == "
        "d_k); attention_scores(a, b): `B1, N1, D1 = a.size()` (3-D only), `b @ a.transpose(1, 2) / math.sqrt(D1)` "
        "(scaled), called as `attention_scores(k, q)`; create_causal_mask: `torch.tril(torch.ones((1, max_context_len, "
        "max_context_len)))` (float, a leading axis of 1, n_q x n_q); self_attention(v, A, mask=None): no scale "
        "argument, `B1, N1, D1 = v.size()` (3-D only), `assert N1 == N2` (n_k == n_q), `M = mask[0, :N2, :N2]` (a 2-D "
        "mask raises IndexError), `A.masked_fill(M == 0, float(\"-inf\"))`, `F.softmax(A, dim=2) @ v` (NaN on an all "
        "-inf row); CausalSelfAttention: `assert embed_dim % n_heads == 0`, kqv matrices `nn.Linear(input_vector_dim, "
        "int((3 * (input_vector_dim / n_heads))))` (heads of D // H for k, q AND v), forward(x) with its own "
        "`self.mask` (no mask argument); multi_head_attention_layer: `B, N, D = x.size()` (3-D only), "
        "`torch.cat(sa_arr, dim=2)`, `assert sa.size() == x.size()`, then `self.proj`. The reference's decoding passes "
        "2-D queries, keys and values to the student's attention (one query against the cached keys)."),
    Port("biudl_hailzanbar", {
        "qkv_project": ("batch_first_only", "qkv_fused_chunked_ceil"),
        "attention_scores": ("batch_first_only", "scores_scaled"),
        "causal_mask": ("extra_leading_axes", "mask_float", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("batch_first_only", "needs_mask", "scale_argument_ignored",
                                         "mask_sliced_from_buffer", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_head_width_model",
                                 "mha_value_width", "always_causal"),
        **{f: ("batch_first_only", "needs_mask") for f in DECODE},
    }, callee={"scaled_dot_product_attention": ("attention_scores",), **decoding("scaled_dot_product_attention")},
        notes="code-and-data/attention.py (commit 680b0ad) kqv: `B, N, D = x.size()` (3-D only), `k, q, v = "
        "kqv_x.chunk(3, dim=2)` (pieces of ceil(width / 3): the blocks only when d_k - 2 <= d_v <= d_k); "
        "attention_scores(a, b): `B1, N1, D1 = a.size()` (3-D only), `torch.bmm(a, b.transpose(1, 2))` divided by "
        "`torch.sqrt(torch.tensor(D1, dtype=torch.float32, ...))` (scaled), called as `attention_scores(q, k)` (commit "
        "50f22b9); create_causal_mask: `torch.tril(torch.ones((1, n, n), dtype=torch.float32, ...))` (float, a leading "
        "axis of 1, n_q x n_q); self_attention(v, A, mask=None): no scale argument, `B, N, D = A.size()` (3-D only), "
        "`mask = mask[:, :N, :N]` with no check for None (no mask raises TypeError; a 2-D mask raises IndexError), `M "
        "= mask.repeat(B, 1, 1)`, `A.masked_fill(M == 0, float(\"-inf\"))`, `F.softmax(A, dim=-1)` (NaN on an all -inf "
        "row), `torch.bmm(norm_A, v)`; CausalSelfAttention: `assert embed_dim % n_heads == 0`, kqv matrices "
        "`nn.Linear(input_vector_dim, 3 * new_dim)` with `new_dim = int(input_vector_dim / n_heads)` (heads of D // H "
        "for k, q AND v), forward(x) with its own `self.mask` (no mask argument); multi_head_attention_layer: `B, N, D "
        "= x.size()` (3-D only), `torch.cat((sa, new_sa), dim=2)`, `assert sa.size() == x.size()`, then `self.proj`. "
        "The reference's decoding passes 2-D queries, keys and values, and no mask, to the student's attention."),
    Port("biudl_shacharsl97", {
        "attention_scores": ("batch_first_only", "scores_scaled"),
        "causal_mask": ("extra_leading_axes", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("batch_first_only", "scale_argument_ignored", "mask_sliced_from_buffer",
                                         "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_head_width_model",
                                 "mha_value_width", "always_causal"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee={"scaled_dot_product_attention": ("attention_scores",), **decoding("scaled_dot_product_attention")},
        notes="code-and-data/attention.py (commit af12b09) attention_scores(a, b): `B1, N1, D1 = a.size()` (3-D only), "
        "`torch.bmm(b, a.transpose(1, 2))`, `A / math.sqrt(D1)` (scaled), called as `attention_scores(k, q)`; "
        "create_causal_mask: `torch.tril(torch.ones((max_context_len, max_context_len), dtype=torch.bool))`, "
        "`mask.unsqueeze(0)` (a leading axis of 1, n_q x n_q); self_attention(v, A, mask=None, ...): no scale "
        "argument, `N = A.size(1)`, `mask_slice = mask[:, :N, :N]` (a 2-D mask raises IndexError; a 3-D one loses its "
        "keys past n_q), `A.masked_fill(~mask_slice, float('-inf'))`, `F.softmax(A, dim=-1)` (NaN on an all -inf row), "
        "`torch.bmm(attn_weights, v)` (3-D only); CausalSelfAttention: `assert embed_dim % n_heads == 0`, kqv matrices "
        "`nn.Linear(input_vector_dim, 3 * output_head_dim)` with `output_head_dim = input_vector_dim // n_heads` "
        "(heads of D // H for k, q AND v), forward(x) with its own `self.mask` (no mask argument); "
        "multi_head_attention_layer: `B, N, D = x.size()` (3-D only), `assert D % n_heads == 0`, `assert "
        "kqv_matrix.out_features == 3 * D_head`, `torch.cat(head_outputs, dim=-1)`, `assert sa.size() == x.size()`, "
        "then `self.proj`. kqv's `torch.chunk(kqv_out, 3, dim=-1)` (any leading axes) splits the contract's [W_K | W_Q "
        "| W_V] right when d_k - 2 <= d_v <= d_k, as with the ground truth's d_k = 3, d_v = 2, so qkv_project is not "
        "declared (it goes wrong when d_v > d_k or d_v < d_k - 2). The reference's decoding passes 2-D queries, keys "
        "and values to the student's attention."),
    Port("biudl_itamarbachar", {
        "qkv_project": ("batch_first_only", "needs_equal_widths"),
        "attention_scores": ("batch_first_only", "transposed_scores", "scores_scaled"),
        "causal_mask": ("extra_leading_axes", "mask_float", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("batch_first_only", "swapped_qk", "needs_square", "scale_argument_ignored",
                                         "mask_sliced_from_buffer", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_head_width_model",
                                 "mha_value_width", "always_causal", "swapped_qk"),
        **{f: ("batch_first_only", "needs_square") for f in DECODE},
    }, callee={"scaled_dot_product_attention": ("attention_scores",), "multi_head_attention": ("attention_scores",),
               **decoding("scaled_dot_product_attention", "attention_scores")},
        notes="code/attention.py (commit 062a003) kqv: `B, N, D = x.size()` (3-D only), `torch.split(kqv_output, "
        "kqv_output.size(-1) // 3, dim=-1)` (more than three pieces, or pieces straddling the blocks, unless d_v == "
        "d_k); attention_scores(a, b): `B1, N1, D1 = a.size()` (3-D only), `torch.matmul(a, b.transpose(-2, -1)) / "
        "math.sqrt(D1)` (scaled), called as the skeleton's `attention_scores(k, q)`: one row per KEY; "
        "create_causal_mask: `torch.tril(torch.ones((1, max_context_len, max_context_len), dtype=torch.float32))` "
        "(float, a leading axis of 1, n_q x n_q); self_attention(v, A, mask=None, ...): no scale argument, "
        "`current_mask = mask[:, :A.size(-2), :A.size(-1)]` (a 2-D mask raises IndexError), "
        "`A.masked_fill(current_mask == 0, float(\"-inf\"))`, `alpha = F.softmax(A, dim=-1)` (over the queries; NaN on "
        "an all -inf row), `sa = torch.matmul(alpha, v)` ((N_k, N_q) weights against (N_k, d_v) values: raises unless "
        "n_q == n_k, else each key's softmax over the queries of K Q^T); CausalSelfAttention: `assert embed_dim % "
        "n_heads == 0`, kqv matrices `nn.Linear(input_vector_dim, output_dim)` with `output_dim = 3 * d_head`, `d_head "
        "= input_vector_dim // n_heads` (heads of D // H for k, q AND v), forward(x) with its own `self.mask` (no mask "
        "argument); multi_head_attention_layer: `B, N, D = x.size()` (3-D only), `torch.cat(heads, dim=-1)`, `assert "
        "sa.size() == x.size()`, then `self.output_projection`. The reference's decoding passes 2-D queries, keys and "
        "values to the student's attention (one query against the cached keys)."),
    # the FRESH_19 ports (helper B): UCLA ECE 239AS (spring 2024; the same project is given in ECE C147B/C247B in
    # 2026), project 3 "Language modelling and Transformers" (a MiniGPT trained on TinyStories, from the TA's starter
    # model.py): four students' own SingleHeadAttention (with a causal-mask buffer) and MultiHeadAttention (setattr
    # heads, an out layer), a course the corpus had not used
    Port("ece239as_reuben_r", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mask_ignored"),
    }, notes="model.py (commit 3f51aba; the attention classes from 0a40953) MultiHeadAttention: `head_dim = "
       "input_dim // num_heads`, `SingleHeadAttention(input_dim, head_dim, head_dim, dropout)` for queries, keys AND "
       "values, `torch.cat(head_outputs, dim=-1)`, `nn.Linear(input_dim, input_dim, bias=True)` (no mask argument); "
       "SingleHeadAttention: `causal_mask = torch.triu(torch.full((max_len, max_len), 1e-9), diagonal=0)` and in "
       "forward `cmask[cmask == 1] = -1e9` (no entry is 1), `softmax(attn + cmask[:seq_length, :seq_length], "
       "dim=-1)` (1e-9 added to the scores: nothing is masked, the future keys included), `batch_size, seq_length, "
       "token_dim = x.shape` (3-D only)."),
    Port("ece239as_krish1925", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "mask_ignored"),
    }, notes="model.py (commit fb16ea1) MultiHeadAttention: `self.output_key_query_dim = input_dim // num_heads`, "
       "`self.output_value_dim = input_dim // num_heads` for every head's SingleHeadAttention, `torch.cat(head_concat, "
       "dim=-1)`, `nn.Linear(input_dim, input_dim, bias=True)` (no mask argument); SingleHeadAttention: `causal_mask = "
       "torch.triu(torch.full((max_len, max_len), float('-inf')))` and in forward `scores.masked_fill(causal_mask==1, "
       "float('-inf'))` (the mask holds -inf and 0, never 1: nothing is masked, the future keys included), `_, "
       "num_tokens, _ = x.shape` and `torch.bmm(q, k.transpose(1, 2))` (3-D only), scale `1/sqrt(input_dim // "
       "num_heads)`."),
    Port("ece239as_awong0811", {
        "multi_head_attention": ("mha_head_width_model", "mha_value_width", "always_causal"),
    }, notes="model.py (commit 3e7b37b) MultiHeadAttention: `head_dim = int(self.input_dim/num_heads)` for "
       "queries, keys AND values, `torch.cat(values, dim=-1)`, `nn.Linear(self.input_dim,self.input_dim,bias=True)` "
       "(no mask argument); SingleHeadAttention: `causal_mask = torch.triu(torch.ones((max_len,max_len)),diagonal=1)` "
       "and in forward `out.masked_fill_(M == 1, -1e10)` with `M = self.causal_mask[0:out.size(-2),0:out.size(-1)]` "
       "(always causal, whatever the mask; -1e10 but the diagonal is never masked), `K.transpose(-2, -1)` (any "
       "leading axes)."),
    Port("ece239as_zxz_math", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "always_causal"),
    }, notes="model.py (commit 68eab7d) MultiHeadAttention: `output_key_query_dim=input_dim//num_heads, "
       "output_value_dim = input_dim//num_heads` for every head's SingleHeadAttention, "
       "`torch.cat(head_output,dim=-1)`, `nn.Linear(input_dim, input_dim,bias=True)` (no mask argument); "
       "SingleHeadAttention.forward: `prod = "
       "torch.matmul(Q,torch.transpose(K,1,2))` (3-D only), `causal_mask = torch.zeros((num_tokens, num_tokens)) + "
       "torch.triu(torch.full((num_tokens, num_tokens), float('-inf')), diagonal=1)` built in every call and `prod += "
       "causal_mask` before `prod = prod/math.sqrt(self.output_key_query_dim)` (always causal, whatever the mask), "
       "`F.softmax(prod,dim=2)`."),
    # the FRESH_19 ports (helper C): Nanjing University's LLM course (智能应用开发, Jingwei Xu's undergraduate course;
    # the assignments are NJUDeepEngine/open-llm-assignments): assignment 1's NTK-aware RoPE, assignment 3's offline
    # sliding-window attention and assignment 4's KV cache and transformer decoder layer, written by the students from
    # the course's NotImplementedError templates (four students' repositories), a course the corpus had not used
    Port("njullm_huskykingdom", {
        "rope": ("rope_half_split", "rope_integer_offset", "rope_ntk_width_2"),
        "scaled_dot_product_attention": ("mask_ignored",),
        "multi_head_attention": ("batch_first_only", "mha_applies_rope", "always_causal", "mha_value_width",
                                 "rope_ntk_width_2"),
        "decode_step": ("needs_equal_widths", "decode_applies_rope", "rope_half_split", "rope_ntk_width_2"),
        "generate_cached": ("needs_equal_widths", "decode_applies_rope", "rope_half_split", "rope_ntk_width_2"),
        "generate_naive": ("rope_half_split", "rope_ntk_width_2"),
    }, callee=decoding("rope"),
        notes="src/modeling/pos_emb.py (commit 72e8a17) NTKAwareRoPE._set_cos_sin_cache: `base = self.base * "
        "(self.ratio**(self.dim/(self.dim-2)))` (ZeroDivisionError at d = 2, ratio 1 or not), `torch.cat((n_theta,"
        "n_theta),dim=-1)`; forward(input, offset): `s_ = input.shape[1] + offset`, "
        "`self.cos_cached[offset:s_]` (integer positions offset..s_-1); src/functional.py rotate_half "
        "`torch.cat((-x2,x1),dim=-1)` of the halves (NeoX layout); src/modeling/attention.py "
        "OfflineSlidingWindowAttn.forward(q, k, v, cu_seqlens_q, cu_seqlens_k): no mask argument (only the "
        "window_size and causal flags); src/modeling/transformer.py TransformerDecoderLayer.forward: `b, s, h = "
        "input.shape` (3-D only), `.reshape(b,s,-1,self.config.head_dim)` for q, k AND v (one head width), `q, k = "
        "self.rope(q,offset), self.rope(k,offset)` (RoPE inside the layer, always: rope_base None rotates with the "
        "config's 10000; a 1-query decode sees every key), `self.attn` built with `causal=config.causal` (True in "
        "the course's tests: always causal), `offset = kv_cache.get(self.layer_idx)[0].shape[1]` (right: "
        "len(cache)); TransformerDecoderKVCache (right). The reference's generate_cached calls the student's "
        "decode_step and KVCache, its generate_naive the student's rope and attention."),
    Port("njullm_juvendybala", {
        "rope": ("rope_half_split", "rope_integer_offset", "rope_ntk_width_2"),
        "scaled_dot_product_attention": ("mask_ignored",),
        "multi_head_attention": ("batch_first_only", "mha_applies_rope", "always_causal", "mha_value_width",
                                 "rope_ntk_width_2"),
        "decode_step": ("needs_equal_widths", "decode_applies_rope", "rope_half_split", "rope_ntk_width_2"),
        "generate_cached": ("needs_equal_widths", "decode_applies_rope", "rope_half_split", "rope_ntk_width_2"),
        "generate_naive": ("rope_half_split", "rope_ntk_width_2"),
    }, callee=decoding("rope"),
        notes="src/modeling/pos_emb.py (commit ee8c6d4) NTKAwareRoPE.__init__: `tmp = self.base * (self.ratio) ** "
        "(self.dim / (self.dim - 2))` (ZeroDivisionError at d = 2), `emb = torch.cat((freqs, freqs), dim=-1)`; "
        "forward(input, offset): `self.cos_cached[offset : seq_len + offset]` with `seq_len = input.shape[1]` "
        "(integer positions offset..offset+seq_len-1); src/functional.py apply_rotary_pos_emb: `x_rotate_half = "
        "torch.cat((-x2, x1), dim=-1)` of the halves (NeoX layout); src/modeling/attention.py "
        "OfflineSlidingWindowAttn.process/forward: no mask argument (only window_size and causal); "
        "src/modeling/transformer.py TransformerDecoderLayer.qkv_generate: `v = qkv.narrow(dim=-1, start=q_size + "
        "kv_size, length=kv_size)` with `kv_size = nkv * head_dim` (values as wide as the keys: narrower ones "
        "raise, wider ones are cut) and `.view(b, s, nkv, head_dim)`, `b, s, hd = input.shape` (3-D only), `q = "
        "self.rotary_emb(q, offset)`, `k = self.rotary_emb(k, offset)` (RoPE inside the layer, always: rope_base "
        "None rotates with the config's 10000); forward: `self.attn` built with `causal=config.causal` (True in the "
        "course's tests: always causal), `offset = cached_k.shape[1]` (right: len(cache)); "
        "TransformerDecoderKVCache (right). The reference's generate_cached calls the student's decode_step and "
        "KVCache, its generate_naive the student's rope and attention."),
    Port("njullm_chaos0621", {
        "rope": ("rope_mixed_layout", "rope_ignores_positions"),
        "scaled_dot_product_attention": ("mask_ignored", "needs_equal_widths"),
        "multi_head_attention": ("attn_group_size_model_width", "batch_first_only", "mha_applies_rope",
                                 "head_split_reshape", "head_merge_wrong", "always_causal", "mha_value_width"),
        "KVCache": ("needs_equal_widths",),
        "decode_step": ("attn_group_size_model_width", "needs_equal_widths", "decode_rope_ignored",
                        "decode_applies_rope"),
        "generate_cached": ("attn_group_size_model_width", "needs_equal_widths", "decode_rope_ignored",
                            "decode_applies_rope"),
        "generate_naive": ("needs_equal_widths", "rope_mixed_layout", "naive_query_not_rotated"),
    }, callee={
        **decoding("rope", "scaled_dot_product_attention"),
        "decode_step": ("rope",),
        "generate_cached": ("rope", "decode_step", "KVCache"),
    }, notes="assignment1/A1_pos_emb.py (commit 459cafc) NTKAwareRoPE: `emb = torch.cat([freqs, freqs], dim=-1)` "
       "(halves-layout tables), forward(self, x) with no positions or offset, `self.cos_cached[:seq_len]` "
       "(positions 0..N-1: a decoded token at position 0, i.e. not rotated), `head_dim ... must be even for RoPE` "
       "(ValueError for an odd width, built in the decoder layer whether rope_base is given or not); "
       "assignment1/A1_functional.py apply_rotary_pos_emb: interleaved pairs `x[..., ::2]`, `x[..., 1::2]` with "
       "`cos_even = cos[..., ::2]` of those tables (mixed layout: pair i gets frequency 2i mod d/2); "
       "assignment3/A3_T1.py OfflineSlidingWindowAttn: `if head_dim % group_size != 0: raise ValueError` (checked "
       "even with use_qk_norm False), no mask argument, `q.reshape(bsz * hq, seq_len_q, hd)` on [b, s, h, d] "
       "without a transpose (heads and tokens mixed) and `out_flat.reshape(bsz, seq_len_q, hq, hd)`, `v.reshape(bsz "
       "* hq, seq_len_kv, hd)` with the queries' hd (values of another width raise); assignment4/A4_T1.py "
       "TransformerDecoderKVCache.set: `if k.shape[0] != v.shape[0] or k.shape[2:] != v.shape[2:]: raise "
       "ValueError` (keys and values of one width); assignment4/A4_T2.py TransformerDecoderLayer: `norm_group_size "
       "= config.hidden_size` and `qk_group_size = norm_group_size` when the config leaves them None, passed as the "
       "attention's group_size (head_dim must be a multiple of D), `causal=config.causal` (True in the course's "
       "tests: always causal), `v_proj.view(bsz, seqlen, self.num_kv_heads, self.head_dim)` (one head width), "
       "`bsz, seqlen, _ = x_norm.shape` (3-D only), `_apply_rope_bshd(self, q_bshd, k_bshd, offset=0)` = "
       "`self.rope(q_bshd)`, `self.rope(k_bshd)` (RoPE inside the layer; its offset is never used). The "
       "reference's generate_cached calls the student's decode_step and KVCache, its generate_naive the student's "
       "rope (the query at position 0) and attention."),
    Port("njullm_zykrichard", {
        "scaled_dot_product_attention": ("mask_ignored",),
        "multi_head_attention": ("mask_ignored",),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="src/modeling/attention.py (commit 4991f6f) OfflineSlidingWindowAttn.forward(q, k, v, offset=0, "
        "cu_seqlens_q, cu_seqlens_k): no mask argument, its own mask only from window_size (`float('inf')` when None) "
        "and causal (False by default: no mask at all); `P = P * self.softmax_scale / self.softmax_temp + mask`, "
        "`F.softmax(P - P.max(dim=-1, keepdim=True).values, dim=-1)` (right otherwise); "
        "src/modeling/transformer.py TransformerDecoderKVCache (right). Its RoPE and decoder layer are not ported: "
        "src/functional.py's apply_rotary_pos_emb still raises NotImplementedError. The reference's "
        "multi_head_attention calls the student's attention, which drops the mask."),
    # the FRESH_20 ports (helper A): Heinrich Heine University Düsseldorf (Germany), the practical course "Implementing
    # Transformer Models" (Carel van Niekerk and Hsien-Chin Lin; winter semesters 2023/24, 2024/25 and 2025/26, each
    # student's own GitHub (or git.hhu.de) project): in Practical II the students write an attention module
    # `Attention(mask_future)` taking "query, key, value, mask=None", the mask being the course's binary (batch, key
    # length) padding mask, 1 = a real token, with the future mask built inside (tests/practical_2_test.py); in
    # Practical V a `MultiHeadAttention(d_model, n_heads, mask_future)` of bias-free nn.Linear(d_model, d_model)
    # projections query_transform, key_transform, value_transform and output_transform, which the course's tests fill
    # with load_state_dict (practical_5_mha_tests.py); five students' solutions, a course the corpus had not used
    Port("hhu_73gon", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "mask_key_padding", "mask_finite_fill",
                                         "extra_leading_axes"),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_square_weights",
                                 "mha_head_width_model", "mha_value_width", "mask_key_padding", "mask_finite_fill"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="modelling/attention.py (commit 3503217; model/attention.py at 0947f35) Attention.forward(q, k, v, "
        "mask=None): no scale argument, `torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)`, `if mask.dim() == 2: "
        "mask = mask.unsqueeze(1)` (the course's (batch, N_k) padding mask: a contract (N_q, N_k) mask becomes (N_q, "
        "1, N_k), its first axis read as the batch; a (1, N_k) mask on 2-D scores, or one query's (1, N_k) mask, "
        "gives the output a leading axis of length 1), `torch.where(mask == 0, -1e9, 0.0)` added to the scores (a "
        "finite fill: a fully masked row keeps its own scores' softmax), `F.softmax(scores, dim=-1)`; "
        "MultiHeadAttention: `assert d_model % num_heads == 0`, `self.head_dim = d_model // num_heads`, four "
        "`nn.Linear(d_model, d_model, bias=False)` loaded with load_state_dict (every weight must be (D, D)), "
        "`batch_size, q_len, _ = q.size()` (3-D only), heads merged into the batch `reshape(batch_size * "
        "self.num_heads, q_len, self.head_dim)`, `mask.repeat_interleave(self.num_heads, dim=0)` (a shared (N, N) "
        "mask becomes N * H padding rows: it raises unless N equals the batch, and then sequence b's keys are masked "
        "with mask row b for every query; a (B, N, N) mask is right), `self.attention(Q, K, V, mask=mask)`, "
        "`out.reshape(batch_size, q_len, self.d_model)` (the input's width), output_transform."),
    Port("hhu_kasparsenft", {
        "scaled_dot_product_attention": ("batch_first_only", "needs_mask", "scale_argument_ignored",
                                         "mask_key_padding", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "needs_mask", "mha_square_weights", "mask_key_padding",
                                 "softmax_nan_fully_masked"),
        **{f: ("batch_first_only", "needs_mask") for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",), **decoding("scaled_dot_product_attention")},
        notes="modelling/attention.py (commit 328ef3e; Attention since 649bed2, MultiHeadAttention since 51471d5) "
        "Attention.forward(q, k, v, attn_mask): the mask has no default and is used unconditionally (no mask: "
        "AttributeError), no scale argument, `n_q = q.shape[1]`, `torch.bmm(q, k.transpose(1, 2)) / scale` with "
        "`scale = torch.tensor(d).sqrt()` (3-D only: one batch axis), `attn_mask = attn_mask.unsqueeze(dim=1)` (the "
        "course's (batch, N_k) padding mask: a contract (N_q, N_k) mask becomes (N_q, 1, N_k), its first axis read as "
        "the batch), `attn_logits.masked_fill_(attn_mask == 0, -torch.inf)` (in place: the mask must fit the scores' "
        "shape), `torch.softmax(attn_logits, dim =-1)` (an all -inf row is NaN), `torch.bmm(w, v)`; "
        "MultiHeadAttention: four `torch.nn.Linear(d_model, d_model, bias = False)` loaded with load_state_dict "
        "(every weight must be (D, D)), transpose_for_mha `x.reshape(x.shape[0], x.shape[1], self.h, -1)` (3-D "
        "input; the head width from the projection), `torch.repeat_interleave(attn_mask, repeats=self.h, dim=0)` (no "
        "mask: TypeError; a shared (N, N) mask becomes N * h padding rows, which raise unless N equals the batch; a "
        "(B, N, N) mask raises), `self.attn(Q, K, V, attn_mask)` (scale 1/sqrt(head width)), "
        "untranspose_for_mha, output_transform. The reference's decoding passes 2-D queries, keys and values, and no "
        "mask, to the student's attention."),
    Port("hhu_floriankark", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "mask_finite_fill"),
        "multi_head_attention": ("batch_first_only", "needs_mask", "mha_square_weights", "mha_head_width_model",
                                 "mha_value_width", "mask_key_padding", "mask_finite_fill"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="modelling/attention.py (commit 038f380) scaled_dot_product_attention(q, k, v, attn_mask=None, "
        "mask_future=False, dropout=0.1): no scale argument, `scale_factor = 1.0/sqrt(k.size(-1))`, `attn_weight = "
        "(q @ k.transpose(-2, -1)) * scale_factor + attn_bias` (zeros without mask_future), `attn_weight = "
        "attn_weight.masked_fill(attn_mask == 0, float(-1e4))` (the mask as given; a finite fill: a fully masked row "
        "becomes uniform), `torch.softmax(attn_weight, dim=-1)` (its `torch.dropout(..., train=True)` on the weights "
        "is left out); MultiHeadAttention: `self.head_dim = d_model // n_heads`, q_proj, k_proj, v_proj and out_proj "
        "`nn.Linear(d_model, d_model, bias=False)` loaded with load_state_dict (every weight must be (D, D)), "
        "`batch_size = k.size(0)`, `seq_len = k.size(1)`, `.view(batch_size, seq_len_q, self.n_heads, "
        "self.head_dim)` (3-D input only), `attn_mask.view(batch_size, 1, 1, seq_len).expand(-1, self.n_heads, "
        "seq_len, -1)` (the course's (batch, N_k) padding mask: no mask raises AttributeError, a shared (N, N) mask "
        "raises unless N equals the batch, and then sequence b's keys are masked with mask row b for every query; a "
        "(B, N, N) mask raises), `.view(batch_size, seq_len, self.d_model)` (the input's width), out_proj."),
    Port("hhu_smtlmoel", {
        "scaled_dot_product_attention": ("batch_first_only", "needs_mask", "scale_argument_ignored",
                                         "mask_key_padding", "softmax_nan_fully_masked", "extra_leading_axes"),
        "multi_head_attention": ("batch_first_only", "needs_mask", "mha_square_weights", "mha_head_width_model",
                                 "mha_value_width", "mask_key_padding", "softmax_nan_fully_masked"),
        **{f: ("batch_first_only", "needs_mask") for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="modelling/attention.py (commit d5c4902) Attention.forward(query, key, value, mask=None): `B_Q, N_Q, "
        "C_Q = query.shape` (3-D only), `combined_mask = future_mask.masked_fill(~mask.unsqueeze(1).to(torch.bool), "
        "-np.Infinity)` whether a mask is given or not (no mask: AttributeError; the course's (batch, N_k) padding "
        "mask: a contract (N_q, N_k) mask becomes (N_q, 1, N_k), its first axis read as the batch, and a (B, N_q, "
        "N_k) mask becomes (B, 1, N_q, N_k), which gives the output an extra axis, of length 1 when B = 1), _attention "
        "`nn.functional.softmax((q @ k.transpose(1,2) / np.sqrt(q.shape[-1]) + mask), dim=-1) @ v` (no scale "
        "argument; an all -inf row is NaN); MultiHeadAttention (its own attention in _mask_attention, not the "
        "student's Attention): `self.d_key = int(self.d_model/self.num_heads)`, four `nn.Linear(d_model, d_model, "
        "bias=False)` loaded with load_state_dict (every weight must be (D, D)), `B = query.size(0)` and "
        "`.view(B, -1, self.num_heads, self.d_key)` (the first axis read as the batch, all others as tokens), "
        "`masked_fill(mask.unsqueeze(1).unsqueeze(2)==0, -np.inf)` (no mask: AttributeError; a shared (N, N) mask "
        "becomes (N, 1, 1, N), its rows read as the sequences: it raises unless the batch is N or 1), "
        "`torch.softmax(scaled_dot_product, dim=-1) @ V` (an all -inf row is NaN), `.view(B, -1, self.d_model)` (the "
        "input's width), output_transform. The reference's decoding passes 2-D queries, keys and values, and no "
        "mask, to the student's attention."),
    Port("hhu_leonardebinger", {
        "scaled_dot_product_attention": ("scale_argument_ignored", "mask_key_padding", "extra_leading_axes"),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_square_weights",
                                 "mha_head_width_model", "mha_value_width", "mask_key_padding"),
    }, notes="modelling/attention.py (commit dbd1d10) Attention.forward(query, key, value, mask=None): no scale "
       "argument, `torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)`, `mask = mask.unsqueeze(1)` (the "
       "docstring's \"(batch, seq_len_k) -> (batch, 1, seq_len_k)\": a contract (N_q, N_k) mask becomes (N_q, 1, N_k), "
       "its first axis read as the batch; out of place, so a (1, N_k) mask on 2-D scores or a (1, N_q, N_k) mask on "
       "(1, N_q, N_k) scores gives the output an extra leading axis of length 1), `scores.masked_fill(mask == 0, "
       "float('-inf'))`, `torch.softmax(scores, dim=-1)` then `torch.nan_to_num(attn_weights, nan=0.0)` (a fully "
       "masked row is zeros, as the contract asks); MultiHeadAttention (its own attention, not the student's "
       "Attention): `assert d_model % num_heads == 0`, `self.d_k = d_model // num_heads`, four `nn.Linear(d_model, "
       "d_model, bias=False)` loaded with load_state_dict (every weight must be (D, D)), `batch_size = "
       "query.size(0)`, `seq_len_q = query.size(1)` and `.view(batch_size, seq_len_q, self.num_heads, self.d_k)` "
       "(3-D input only), `mask = mask.unsqueeze(1).unsqueeze(2)` (\"(batch, seq_len_k) -> (batch, 1, 1, "
       "seq_len_k)\": a shared (N, N) mask becomes (N, 1, 1, N), its rows read as the sequences: it raises unless the "
       "batch is N or 1), `masked_fill(mask == 0, float('-inf'))`, softmax and nan_to_num, `.view(batch_size, "
       "seq_len_q, self.d_model)` (the input's width), output_transform."),
    # the FRESH_20 ports (helper B): Unicamp (Universidade Estadual de Campinas, Brazil), FEEC's course IA024 "Redes
    # Neurais Profundas para Processamento de Linguagem Natural" (1st semester 2024; given again in the 2nd semester of
    # 2025 as IA368HH "Aprendizado Profundo Avançado: LLMs e Agentes Inteligentes na Prática", with the same sequence of
    # exercises): the exercises "Modelo de Linguagem com auto-atenção" (a self-attention layer with WQ, WK, WV and WO
    # added to the Bengio language model) and "Modelo de Linguagem com auto-atenção e máscara causal" (a decoder-only
    # transformer LM on Machado de Assis with the students' own masked multi-head self-attention; the 2024 brief asked
    # for a "Karpathy style causal mask"). The students write the layers from scratch in a notebook (no skeleton code
    # for the attention); four students' solutions (three of the causal-mask exercise, one of the self-attention
    # exercise), a course the corpus had not used
    Port("unicamp_eltoncn", {
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_head_width_model",
                                 "mha_value_width", "always_causal"),
    }, notes="04-MáscaraCausal/\"Aula 3_4 - Exercício Modelo de Linguagem com auto atenção e máscara causal.ipynb\" "
       "(commit b26d32a) MultiHeadAttention.__init__: `self.head_dim = embed_dim//num_heads`, `if self.head_dim * "
       "num_heads != embed_dim: raise ValueError(...)`, `self.register_buffer(\"dk_root\", "
       "torch.sqrt(torch.tensor(self.head_dim, ...)))`; forward(query, key, value, is_causal=False): `if "
       "query.shape[2] != self.embed_dim: raise ValueError` (3-D only), `Q.transpose(0,1).reshape(context_size, "
       "batch_size*self.num_heads, self.head_dim).transpose(0,1)` for Q, K AND V (heads of embed_dim // num_heads), "
       "`scores /= self.dk_root`, with is_causal an additive bias `attention_bias[mask] = -torch.inf` above the "
       "diagonal (no mask argument: the decoder block passes is_causal=True; ported as causal whenever a mask is "
       "given, its entries never read), `E.reshape(batch_size, context_size, self.embed_dim)`, `E @ self.w0.T`."),
    Port("unicamp_matheusrdg", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "always_causal",
                                 "causal_buffer_max_tokens"),
    }, notes="3_4/Aula_3_4_Exercício_Modelo_de_Linguagem_com_auto_atenção_e_máscara_causal_MH.ipynb (commit cee4c6b) "
       "Block: `head_size = embedding_dim // n_head`; Head: key, value AND query `nn.Linear(embedding_dim, head_size, "
       "bias=False)`, `self.register_buffer(\"tril\", torch.tril(torch.ones(context_size, context_size)))` with the "
       "notebook's `context_size = 9`; Head.forward(x) (no mask argument): `B, T, C = x.shape` (3-D only), `wei = q @ "
       "k.transpose(1, 2) / (k.shape[-1]**0.5)`, `wei.masked_fill(self.tril[:T, :T] == 0, float(\"-inf\"))` (always "
       "causal; with more than 9 tokens the (9, 9) cut raises against the scores); MultiheadAttention: "
       "`torch.cat([head(x) for head in self.heads], dim=-1)`, `self.wo = nn.Linear(embedding_dim, embedding_dim)`."),
    Port("unicamp_mfbosco", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "scale_d_model",
                                 "always_causal", "causal_buffer_max_tokens"),
    }, notes="05-GPT-2/mascara_causal_gpt_2.ipynb (commit 53f5fbf) TransformerBlock: `head_size = embed_dim // "
       "num_heads`; AttentionHead: wq, wk AND wv `nn.Linear(d_model, head_size, bias=False)`, "
       "`self.register_buffer('tril', torch.tril(torch.ones(context_size, context_size)))` with the global "
       "`context_size = 9`; AttentionHead.forward(x, mask=None): `B,S,C = x.shape` (3-D only), `weights = Q @ "
       "K.transpose(-2, -1) / math.sqrt(C)` (C the embedding width), `weights.masked_fill(self.tril[:S, :S] == 0, "
       "float(\"-inf\"))` (always causal, `mask` never read; with more than 9 tokens the (9, 9) cut raises against the "
       "scores); MultiHeadAttention.forward(x) (no mask argument): `torch.cat(head_outputs, dim=-1)`, "
       "`self.projection = nn.Linear(d_model, d_model)`."),
    Port("unicamp_carisio", {
        "multi_head_attention": ("batch_first_only", "heads_not_split", "scale_d_model", "mask_ignored"),
    }, notes="\"2 - auto-atencao e encoding posicional/notebook/[IA24_Aula2]_Bengio_com_mecanismo_de_atenção.ipynb\" "
       "(commit b9ce7b3) AutoAtencao(m): WQ, WK, WV, WO all (m, m) parameters (one head: no split into heads); "
       "forward(x) (no mask argument): `Q = torch.matmul(x, self.WQ)`, `qkt = torch.bmm(Q, K.transpose(1, 2)) / "
       "math.sqrt(m)` (torch.bmm: 3-D only; m the notebook's global embedding width, `m = 64 # tamanho dos "
       "embeddings`), `torch.softmax(qkt, dim=2)`, `torch.bmm(qkt_softmax, V)`, `torch.matmul(qkv, self.WO)`."),
    # the FRESH_20 ports (helper C): the Hanghae99 Plus AI bootcamp (항해99 "항해 플러스 AI", cohort 1, autumn
    # 2024: an online bootcamp whose learners submit each week's notebooks to their own hanghae-plus-AI/AI-1-<name>
    # repository), week 2 (Chapter 1-2) assignment "Multi-head Attention으로 감정 분석 모델 구현하기": the learners
    # extend the course's single-head SelfAttention of its "Transformer 실습" notebook (an IMDb sentiment classifier
    # whose padding mask `(x == pad)[:, None, :]` is True at the padding and is added to the scores as `mask * -1e9`)
    # to a MultiHeadAttention class, and add layer norm, dropout and residual connections; five learners' own
    # classes, a course the corpus had not used
    Port("hanghae_jw3215", {
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "scale_d_model",
                                 "out_width_is_input", "mha_mask_unsqueezed_query_axis", "mask_inverted",
                                 "mask_finite_fill"),
    }, notes="Chapter1/Chapter1-2_과제_A.ipynb (commit 659db95), cell \"[과제] Multi-head Attention\": `if input_dim % "
       "n_heads != 0: raise ValueError(\"input_dim must be divisible by n_heads\")`; split_into_heads: `if "
       "len(tensor.shape) is not 3: raise ValueError(...)` (3-D only), `d_prime = d // n_heads` of each tensor's own "
       "width; forward: `score = score / sqrt(self.d_model)` (d_model = wq's output width, H*d_k), `score = score + "
       "(mask.unsqueeze(-2) * -1e9)` (the course's True = padding: the penalty on the True entries, finite and added; "
       "unsqueeze(-2) makes a (N, N) mask (N, 1, N) and a (B, N, N) one (B, N, 1, N) against (B, H, N, N) scores), "
       "`result = result.reshape(x.shape)` (the heads merged into the input's shape: H*d_v must be D), then "
       "`self.dense(result)`."),
    Port("hanghae_tolluset", {
        "multi_head_attention": ("batch_first_only", "mha_value_width", "mha_mask_unsqueezed_shared",
                                 "mask_inverted", "mask_finite_fill"),
    }, notes="week2/2-A.ipynb (commit b46cdbd) MultiHeadAttention: `self.depth = d_model // n_heads` (d_model = wq's "
       "output width; one head width for q, k AND v); split_heads: `batch_size, seq_len, _ = x.size()` (3-D only), "
       "`x.view(batch_size, seq_len, self.n_heads, self.depth).transpose(1, 2)` (values of another width raise); "
       "forward: `/ sqrt(self.depth)` (right), `mask = mask.unsqueeze(1)` (a (N, N) mask becomes (N, 1, N)), `score "
       "= score + (mask * -1e9)` (the course's True = padding: the penalty on the True entries, finite and added), "
       "`.view(batch_size, -1, self.d_model)`, `self.dense(result)`."),
    Port("hanghae_hyeondata", {
        "multi_head_attention": ("batch_first_only", "mha_value_width", "scale_d_model",
                                 "mha_mask_unsqueezed_shared", "mask_inverted", "mask_finite_fill"),
    }, notes="2주차/Chapter1_2_과제A.ipynb (commit 0b7cf06) MultiHeadAttention: `self.head_dim = d_model // num_heads` "
       "(d_model = wq's output width; one head width for q, k AND v); forward: `batch_size, seq_length, _ = x.size()` "
       "(3-D only), `.view(batch_size, seq_length, self.num_heads, self.head_dim)` for q, k and v (values of another "
       "width raise), `score = score / sqrt(self.d_model)` (the course's single-head scale kept: H*d_k, not d_k), "
       "`mask = mask.unsqueeze(1)` (a (N, N) mask becomes (N, 1, N)), `score = score + (mask * -1e9)` (the course's "
       "True = padding: the penalty on the True entries, finite and added), `result.view(batch_size, -1, "
       "self.d_model)`, `self.dense(result)`."),
    Port("hanghae_jhtwiz", {
        "multi_head_attention": ("batch_first_only", "mha_value_width", "mha_mask_head_axis", "mask_inverted",
                                 "mask_finite_fill"),
    }, notes="Chapter1-2_과제A.ipynb (commit 9255ca6) MultiHeadAttention: `self.head_dim = d_model // n_heads` "
       "(d_model = wq's output width; one head width for q, k AND v); forward: `batch_size = x.shape[0]`, `seq_length "
       "= x.shape[1]`, `.view(batch_size, seq_length, self.n_heads, self.head_dim)` for q, k and v (3-D only; values "
       "of another width raise), `score / sqrt(self.head_dim)` (right), `score = score + (mask * -1e9)` with the mask "
       "as it comes (\"mask 차원 추가는 TextClassifier에 적용했습니다\": its TextClassifier passes "
       "`mask[:, None, None, :]`; a (B, N, N) mask gets no head axis; the course's True = padding: the penalty on "
       "the True entries, finite and added), `.view(batch_size, seq_length, self.d_model)`, `self.dense(result)`."),
    Port("hanghae_choi0619", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "out_width_is_input",
                                 "mha_mask_head_axis", "mask_finite_fill"),
    }, notes="week 2/Chapter1-2_기본과제.ipynb (commit 95ed3be) MultiHeadAttention(d_model, n_heads): `self.d_k = "
       "d_model // n_heads` with `nn.Linear(d_model, d_model)` for wq, wk, wv and wo (one width, the input's D, for "
       "the projections, every head and the merge); forward: `batch_size = x.size(0)` (a 2-D input makes every token "
       "its own sequence), `.view(batch_size, -1, self.n_heads, self.d_k).transpose(1, 2)` for q, k and v, `/ "
       "math.sqrt(self.d_k)`, `scores.masked_fill(mask == 0, -1e9)` (the contract's polarity; finite: a fully masked "
       "row becomes uniform; a (B, N, N) mask gets no head axis), `context.transpose(1, 2).contiguous().view("
       "batch_size, -1, self.d_model)` (merged into D columns), `self.wo(context)`."),
    # the FRESH_21 ports (helper A), part 1: ENSAE Paris (Institut Polytechnique de Paris, France), the third-year
    # Deep Learning course (Olivier Koch, spring 2024; the course's repository oakfr/ensae-dl-course, which the students
    # fork), session 4 "Build a mini GPT from scratch": in session_4/problem.ipynb the students write a scaled
    # self-attention Head, a masked Head (with the given `register_buffer('tril', torch.tril(torch.ones(block_size,
    # block_size)))` and the notebook's "do not modify" globals block_size = 2, n_embd = 3, later 6), a
    # MultiHeadAttention(num_heads, head_size) of Heads plus a linear projection, a FeedForward and a Block, each
    # checked against fixed torch.allclose values (the first version of those values, which these students solved, was
    # computed with Karpathy's scale C**-0.5, C the input's width), then copy them into gpt-problem.py; two students'
    # solutions (a third, ilyeshammouda/Deep-learning-3A-ENSAE, behaves exactly as ensae_elenalmg and was left out), a
    # course the corpus had not used
    Port("ensae_elenalmg", {
        "multi_head_attention": ("batch_first_only", "mha_value_width", "scale_d_model", "always_causal",
                                 "causal_buffer_max_tokens"),
    }, notes="session_4/tp4-loumagne-elena.ipynb (commit 3d03aff), the masked Head: key, query AND `values` "
       "`nn.Linear(n_embd, head_size, bias=False)` (values head_size wide), `B, T, C = x.shape` (3-D only), `wei = "
       "(Q @ K.transpose(-2,-1))*C**-0.5` (C = the input's width), `wei.masked_fill(self.tril[:T,:T] == 0, "
       "float('-inf'))` with the (2, 2) buffer of the notebook's `block_size = 2` (always causal, no mask argument; "
       "with more than 2 tokens the (2, 2) cut raises against the scores); MultiHeadAttention: `torch.cat([h(x) for h "
       "in self.heads], dim=-1)`, `self.lm = nn.Linear(n_embd, n_embd)`."),
    Port("ensae_kirscher", {
        "multi_head_attention": ("batch_first_only", "mha_value_width", "scale_d_model", "always_causal",
                                 "causal_mask_block_size", "no_output_projection"),
    }, notes="session_4/problem.ipynb (commit bcbb6a1), the masked Head: K, Q AND V `nn.Linear(n_embd, head_size, "
       "bias=False)` (values head_size wide), `B, T, C = x.shape` (3-D only), `dot_product = Q @ K.transpose(-2, -1) "
       "* C**-0.5` (C = the input's width), `dot_product.masked_fill(self.tril == 0, float('-inf'))`: the WHOLE (2, 2) "
       "buffer of the notebook's `block_size = 2`, never cut (always causal, no mask argument; only 2 tokens work: "
       "more raise in the broadcast, 1 token grows to 2 rows that `S @ V` refuses); MultiHeadAttention builds "
       "`self.linear = nn.Linear(num_heads * head_size, n_embd, bias=False)` but forward returns only `torch.cat([h(x) "
       "for h in self.heads], dim=-1)` (the notebook's own sanity check prints False)."),
    # the FRESH_21 ports (helper A), part 2: VK's LLM course (VK Education's "NLP course at VK", Moscow, autumn 2024;
    # the course's repository makarenko95/llm-course-2024-autumn, which the students fork, with GitHub workflows that
    # run each homework's tests), homework 2: Homework/02/solution.py gives compute_attention(queries, keys, values) on
    # (B, N, D), compute_multihead_attention(queries, keys, values, projection_matrix) on heads already projected and
    # split, (B, H, N, d), with an (H*d, H*d) projection applied as nn.Linear's weight, and compute_rotary_embeddings(x)
    # on (B, N, H, d) (no positions, no base), which tests/test_attention.py compares with
    # F.scaled_dot_product_attention and nn.MultiheadAttention and tests/test_rotary.py with torchtune's
    # RotaryPositionalEmbeddings; three students' solutions (the first three forks found, in the index's order), a
    # course the corpus had not used
    Port("vkllm_angrysigma", {
        "scaled_dot_product_attention": ("mask_ignored", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_value_width", "mask_ignored"),
        "rope": ("rope_ignores_positions", "rope_base_ignored"),
        "decode_step": ("rope_ignores_positions",),
        "generate_cached": ("rope_ignores_positions",),
        "generate_naive": ("rope_ignores_positions", "rope_base_ignored"),
    }, callee=decoding("rope"),
        notes="Homework/02/solution.py (commit 5999544) compute_attention(queries, keys, values): `softmax(queries @ "
        "keys.transpose(-1, -2) / torch.sqrt(torch.tensor(queries.size()[-1])), dim=-1) @ values` (no mask, no scale "
        "parameter); compute_multihead_attention: `batch_size, num_heads, seq_len, hidden_dim = queries.size()` (4-D "
        "heads: one batch axis), `.transpose(1, 2).contiguous().view(batch_size, seq_len, num_heads * hidden_dim)` "
        "(the queries' width: values of another width raise), `qks @ projection_matrix.T`, no mask parameter; "
        "compute_rotary_embeddings(x): `base = 10000`, `theta_idx = torch.arange(0, seq_len)` (token t at position t; "
        "no positions, no base parameter), complex rotation of the interleaved pairs (right otherwise). Decoding: the "
        "new token is rotated at position 0 (the identity, so base plays no part) in decode_step and generate_cached; "
        "generate_naive's keys sit at 0..n (right) but its query at 0, with base 10000."),
    Port("vkllm_khudv", {
        "scaled_dot_product_attention": ("mask_ignored", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_value_width", "mask_ignored"),
        "rope": ("rope_ignores_positions", "rope_base_ignored"),
        "decode_step": ("rope_ignores_positions",),
        "generate_cached": ("rope_ignores_positions",),
        "generate_naive": ("rope_ignores_positions", "rope_base_ignored"),
    }, callee=decoding("rope"),
        notes="Homework/02/solution.py (commit c8c783d) compute_attention: `torch.matmul(queries, keys.transpose(-2, "
        "-1)) / torch.sqrt(torch.tensor(hidden_dim, dtype=torch.float32))`, F.softmax(dim=-1), matmul with values (no "
        "mask, no scale parameter); compute_multihead_attention: `BATCH_SIZE, N_HEADS, SEQ_LENGTH, DIM_PER_HEAD = "
        "queries.size()` (4-D heads: one batch axis), its own copy of the attention, `attention_output.permute(0, 2, "
        "1, 3).reshape(BATCH_SIZE, SEQ_LENGTH, N_HEADS * DIM_PER_HEAD)` (the queries' width: values of another width "
        "raise), `torch.matmul(concatenated_output, projection_matrix.T)`, no mask parameter; "
        "compute_rotary_embeddings: `m = torch.arange(SEQ_LENGTH)` (token t at position t; no positions parameter), "
        "`theta = 10000 ** (-2 * i / DIM_PER_HEAD)` (no base parameter), interleaved pairs (right otherwise). "
        "Decoding: the new token is rotated at position 0 (the identity) in decode_step and generate_cached; "
        "generate_naive's query at 0, base 10000."),
    Port("vkllm_mikhailkomkin", {
        "scaled_dot_product_attention": ("batch_first_only", "mask_ignored", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mask_ignored"),
        "rope": ("rope_ignores_positions", "rope_base_ignored"),
        "decode_step": ("batch_first_only", "rope_ignores_positions"),
        "generate_cached": ("batch_first_only", "rope_ignores_positions"),
        "generate_naive": ("batch_first_only", "rope_ignores_positions", "rope_base_ignored"),
    }, callee=decoding("scaled_dot_product_attention", "rope"),
        notes="Homework/02/solution.py (commit 830e961) compute_attention: `BATCH_SIZE, SEQ_LENGTH, HIDDEN_DIM = "
        "queries.shape` (3-D only), `torch.bmm(queries, keys.transpose(1, 2)) / d` with `d = HIDDEN_DIM ** 0.5`, "
        "torch.softmax(dim=-1), `torch.bmm(A, values)` (no mask, no scale parameter); compute_multihead_attention: "
        "`BATCH_SIZE, N_HEADS, SEQ_LENGTH, DIM_PER_HEAD = queries.shape` (4-D heads: one batch axis), "
        "compute_attention on `queries[:, i, :, :]` etc. for each head, `torch.cat(torch_list, dim=2)`, "
        "`torch.matmul(multihead_attention, projection_matrix.T)` (right widths), no mask parameter; "
        "compute_rotary_embeddings: `seq_idx = torch.arange(SEQ_LENGTH)` (token t at position t; no positions "
        "parameter), `theta = 1.0 / (10000 ** (theta / (DIM_PER_HEAD // 2)))` (no base parameter), interleaved pairs "
        "(right otherwise). The reference's decoding passes 2-D q, K, V to the student's attention: every call raises "
        "(before the rope's positions would show)."),
    # the FRESH_21 ports (helper B): Holberton School (founded in San Francisco; campuses include the US, Colombia and
    # Uruguay), its machine learning curriculum, project 0x11 "Attention" (supervised_learning, TensorFlow 2 / Keras,
    # cohorts of 2020-2023): task 5 asks for `sdp_attention(Q, K, V, mask=None)` returning `output, weights`, the mask
    # (the TensorFlow tutorial's convention, 1 = masked) "multiplied by -1e9 and added to the scaled matrix
    # multiplication"; task 6 for a Keras layer `MultiHeadAttention(dm, h)` with `depth` and four `Dense(dm)` layers Wq,
    # Wk, Wv and linear, whose `call(Q, K, V, mask)` takes (batch, seq_len, d) inputs and returns `output, weights`; the
    # students write both files from the task's specification (no skeleton code), checked by the school's intranet. Four
    # students' solutions (two of Holberton Colombia, one of Holberton Uruguay, one of a US cohort, by their commits'
    # time zones), a course the corpus had not used. dm is X.shape[-1] and the contract's weights are the Dense layers'
    # kernels, set as Keras's set_weights would (each must be (D, D)).
    Port("holberton_edigiraldo", {
        "scaled_dot_product_attention": ("mask_inverted", "mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_square_weights", "mha_head_width_model", "mha_value_width",
                                 "mask_inverted", "mask_finite_fill", "mha_mask_head_axis"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="supervised_learning/0x11-attention/5-sdp_attention.py (commit 74af27a) sdp_attention(Q, K, V, "
        "mask=None): no scale argument, `qpk = qpk / tf.sqrt(dk)` with `dk = tf.cast(tf.shape(K)[-1], tf.float32)`, "
        "`qpk += mask * -1e9` (the penalty on the keys a contract mask allows; finite: a row all penalised, or none, "
        "keeps its own softmax), `tf.nn.softmax(qpk, axis=-1)`; 6-multihead_attention.py (commit 28ae13c) "
        "MultiHeadAttention(dm, h): `self.depth = int(dm / h)`, `tf.keras.layers.Dense(dm)` for Wq, Wk, Wv and linear "
        "(every kernel (D, D) with dm = D), `batch = tf.shape(K)[0]`, splitHeads `tf.reshape(m, (batch, -1, self.h, "
        "self.depth))` + `tf.transpose(m, perm=[0, 2, 1, 3])` (3-D input only; heads of dm // h columns for q, k AND "
        "v), `sdp_attention(Q, K, V, mask)` (mask as given: no head axis for a (B, N, N) mask), `tf.reshape(output, "
        "(batch, -1, self.dm))`, `self.linear(output)`."),
    Port("holberton_jdarangop", {
        "scaled_dot_product_attention": ("mask_inverted", "mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_square_weights", "mha_head_width_model", "mha_value_width",
                                 "qkv_wrong_weight", "no_output_projection", "last_axis_split", "mask_inverted",
                                 "mask_finite_fill", "mha_mask_head_axis"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="supervised_learning/0x11-attention/5-sdp_attention.py (commit ea6925d, \"Fix scale denominator\") "
        "sdp_attention(Q, K, V, mask=None): no scale argument, `dk = tf.cast(tf.shape(Q)[-1], tf.float32)`, `scale "
        "+= (mask * -1e9)` (the penalty on the keys a contract mask allows; finite), `tf.nn.softmax(scale)`; "
        "6-multihead_attention.py (commit 5eb6eeb) MultiHeadAttention(dm, h): `self.depth = int(dm / h)`, "
        "`tf.keras.layers.Dense(units=dm)` for Wq, Wk, Wv and linear (W_Q and W_O must be (D, D)), `batch = "
        "tf.shape(Q)[0]`, `q = self.Wq(Q)`, `k = self.Wq(K)`, `v = self.Wq(V)` (the query layer for the keys and the "
        "values: W_K and W_V never used), `tf.reshape(x, (batch, -1, self.h, self.depth))` + `tf.transpose(x, perm=[0, "
        "2, 1, 3])` (3-D input only), `sdp_attention(q, k, v, mask)` (mask as given: no head axis for a (B, N, N) "
        "mask), `out = tf.transpose(out, perm=[0, 2, 1, 3])`, `concat = tf.reshape(out, (batch, -1, self.dm))`, "
        "`output = self.linear(concat)`, then `return out, weights` (the heads' outputs (B, N, h, depth), neither "
        "merged nor projected)."),
    Port("holberton_bendosch", {
        "scaled_dot_product_attention": ("needs_no_mask", "mask_inverted", "mask_finite_fill",
                                         "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_square_weights", "mha_head_width_model", "mha_value_width",
                                 "head_split_reshape", "head_merge_wrong", "needs_no_mask", "mask_inverted",
                                 "mask_finite_fill"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="supervised_learning/0x11-attention/5-sdp_attention.py (commit b2d6db8) sdp_attention(Q, K, V, "
        "mask=None): no scale argument, `dk = tf.cast(K.shape[-1], dtype=tf.float32)`, `if mask:` (a mask of two or "
        "more entries raises ValueError: its truth value is ambiguous), `step_2 += (mask * -1e9)` (a one-entry mask: "
        "the penalty on a key it allows; finite), `tf.nn.softmax(step_2)`; 6-multihead_attention.py (commit 65c3aad) "
        "MultiHeadAttention(dm, h): `self.depth = int(dm / h)`, `tf.keras.layers.Dense(dm)` for Wq, Wk, Wv and linear "
        "(every kernel (D, D) with dm = D), `batch_size, seq_len_q, dq = Q.shape` (3-D input only), `tf.reshape(Q, "
        "(batch_size, self.h, seq_len_q, self.depth))` with no transpose (likewise K and V; heads of dm // h columns), "
        "`sdp_attention(Q, K, V, mask)` (any mask of more than one entry raises there), `self.linear(tf.reshape("
        "output, (batch_size, seq_len_q, self.dm)))` straight from (B, h, N, depth)."),
    Port("holberton_joaquin2000zz", {
        "scaled_dot_product_attention": ("mask_inverted", "mask_finite_fill", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_square_weights", "mha_head_width_model", "mha_value_width",
                                 "mask_inverted", "mask_finite_fill", "mha_mask_head_axis"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="supervised_learning/0x11-attention/5-sdp_attention.py (commit 5d046ac) sdp_attention(Q, K, V, "
        "mask=None): no scale argument, `dk = Q.shape[-1]`, `QKT / tf.sqrt(tf.cast(dk, dtype=tf.float32))`, `mask *= "
        "tf.cast(-1e9, dtype=tf.float32)` and `scaled += mask` (the penalty on the keys a contract mask allows; "
        "finite: a row all penalised, or none, keeps its own softmax), `tf.nn.softmax(scaled, axis=-1)`; "
        "6-multihead_attention.py (commit bc2ce69) MultiHeadAttention(dm, h): `self.depth = dm // h`, "
        "`tf.keras.layers.Dense(dm)` for Wq, Wk, Wv and linear (every kernel (D, D) with dm = D), `batch = "
        "tf.shape(Q)[0]`, reshape_tensor `tf.reshape(x, shape=(batch, -1, self.h, self.depth))` + `tf.transpose(x, "
        "perm=[0, 2, 1, 3])` (3-D input only; heads of dm // h columns for q, k AND v), `sdp_attention(Q, K, V, "
        "mask)` (mask as given: no head axis for a (B, N, N) mask), `tf.reshape(outputs, (batch, -1, self.dm))`, "
        "`self.linear(outputs)`."),
    # the FRESH_21 ports (helper C): DeepLearning.AI's Natural Language Processing Specialization on Coursera (a MOOC
    # with graded notebooks), course 4 "Natural Language Processing with Attention Models", week 2 programming
    # assignment "Transformer Summarizer" (C4_W2_Assignment.ipynb, the Trax version given from 2020 to 2022): the
    # learners fill in the "None"s of the graded cells DotProductAttention (with the skeleton's assert that q, k and v
    # are equally wide, and its -1e9 fill), dot_product_self_attention (the causal mask (1, L_q, L_q)),
    # compute_attention_heads_closure, compute_attention_output_closure and CausalAttention (a tl.Serial of
    # tl.Dense(d_feature) projections, the two closures and a final tl.Dense(d_feature); no mask argument); the 2020
    # notebook only prints CausalAttention's layers, so a wrong closure passes. Four learners' notebooks (2020, 2021,
    # 2023), a course the corpus had not used (the Sequence Models course of the same organisation is a different
    # course, in TensorFlow)
    Port("courseranlp_marzaj1278", {
        "causal_mask": ("extra_leading_axes", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("needs_equal_widths", "scale_argument_ignored", "mask_finite_fill"),
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_value_width", "mha_output_width_asserted"),
        **{f: ("needs_equal_widths",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="Week2/C4_W2_Assignment.ipynb (commit 1c8b640) DotProductAttention(query, key, value, mask): the "
        "skeleton's `assert query.shape[-1] == key.shape[-1] == value.shape[-1]` (values as wide as the keys), no "
        "scale argument, `jnp.matmul(query, jnp.swapaxes(key, -1, -2)) / jnp.sqrt(depth)`, `jnp.where(mask, dots, "
        "jnp.full_like(dots, -1e9))` (a finite fill: a fully masked row becomes uniform), `jnp.exp(dots - logsumexp)`; "
        "dot_product_self_attention: `mask_size = q.shape[1]`, `jnp.tril(jnp.ones((1, mask_size, mask_size), "
        "dtype=jnp.bool_), k=0)` (square, with a leading axis of 1); compute_attention_heads: `batch_size = "
        "x.shape[0]`, `seqlen = x.shape[1]`, `jnp.reshape(x, (batch_size, seqlen, n_heads, d_head))` (3-D only); "
        "CausalAttention(d_feature, n_heads): `tl.Dense(d_feature)` for the queries, keys AND values and the final "
        "`tl.Dense(d_feature)` (one width for W_V and W_O's output: values of another width, or a W_O whose output is "
        "not H*d_k wide, do not fit), no mask argument (always causal). The reference's decoding calls the student's "
        "attention, whose assert refuses d_v != d_k."),
    Port("courseranlp_tranlam076", {
        "causal_mask": ("extra_leading_axes", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("batch_first_only", "needs_equal_widths", "scale_argument_ignored",
                                         "mask_finite_fill"),
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_value_width", "mha_output_width_asserted"),
        **{f: ("batch_first_only", "needs_equal_widths") for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="C4_W2_Assignment.ipynb (commit 725fad2) DotProductAttention: the skeleton's `assert query.shape[-1] == "
        "key.shape[-1] == value.shape[-1]`, no scale argument, `jnp.matmul(query, jnp.swapaxes(key, 1, 2)) / "
        "jnp.sqrt(depth)` (axes 1 and 2: a 2-D key raises, a 4-D one swaps its heads with its tokens), "
        "`jnp.where(mask, dots, jnp.full_like(dots, -1e9))` (finite fill); dot_product_self_attention: "
        "`jnp.tril(jnp.ones((1, mask_size, mask_size), dtype=jnp.bool_), k=0)` with `mask_size = q.shape[1]`; "
        "compute_attention_heads: "
        "`batch_size = x.shape[0]`, `seqlen = x.shape[1]`, `jnp.reshape(x, (batch_size*n_heads, seqlen, d_head))` "
        "(3-D only); CausalAttention: `tl.Dense(d_feature)` for q, k, v and the output, no mask argument (always "
        "causal). The reference's decoding calls the student's attention on 2-D arrays: the assert refuses d_v != d_k, "
        "then swapaxes(key, 1, 2) raises."),
    Port("courseranlp_edumunozsala", {
        "causal_mask": ("extra_leading_axes", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("needs_equal_widths", "scale_argument_ignored", "mask_finite_fill"),
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_value_width", "mha_output_width_asserted",
                                 "mha_heads_split_with_merge"),
        **{f: ("needs_equal_widths",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="C4_W2_Assignment.ipynb (commit c2a31ec) DotProductAttention: the skeleton's `assert query.shape[-1] == "
        "key.shape[-1] == value.shape[-1]`, no scale argument, `jnp.where(mask, dots, jnp.full_like(dots, -1e9))` "
        "(finite fill); dot_product_self_attention: `mask_size = q.shape[-2]`, `jnp.tril(jnp.ones((1, mask_size, "
        "mask_size), dtype=jnp.bool_), k=0)`; CausalAttention: `ComputeAttentionHeads = tl.Fn('AttnHeads', "
        "compute_attention_output_closure(n_heads, d_head), n_out=1)` (the merging closure used to split: "
        "`jnp.reshape(x, (-1, n_heads, seqlen, d_head))`, `jnp.transpose(x, (0, 2, 1, 3))`, `jnp.reshape(x, (-1, "
        "seqlen, n_heads * d_head))` on each (B, N, H*d) projection, so one full-width attention on scrambled q, k, v, "
        "scrambled again by the AttnOutput Fn; `seqlen = x.shape[1]`: 3-D only), `tl.Dense(d_feature)` for q, k, v and "
        "the output, no mask argument (always causal). The reference's decoding calls the student's attention, whose "
        "assert refuses d_v != d_k."),
    Port("courseranlp_shashankrapolu07", {
        "causal_mask": ("extra_leading_axes", "mask_float", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("needs_equal_widths", "scale_argument_ignored", "mask_finite_fill"),
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_value_width", "mha_output_width_asserted"),
        **{f: ("needs_equal_widths",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="C4_W2_Assignment.ipynb (commit 0d6d30c) DotProductAttention: the skeleton's `assert query.shape[-1] == "
        "key.shape[-1] == value.shape[-1]`, no scale argument, `jnp.matmul(query, jnp.swapaxes(key, -2, -1)) / "
        "jnp.sqrt(depth)`, `jnp.where(mask, dots, jnp.full_like(dots, -1e9))` (finite fill); "
        "dot_product_self_attention: `mask_size = q.shape[1]`, `mask = jnp.tril(jnp.ones((1, mask_size, mask_size)), "
        "k=0)` (float ones and zeros: the skeleton's dtype=jnp.bool_ left out; square, with a leading axis of 1); "
        "compute_attention_heads: `batch_size = x.shape[0]`, `seqlen = x.shape[1]`, `jnp.reshape(x, (batch_size * "
        "n_heads, seqlen, d_head))` (3-D only); CausalAttention: `tl.Dense(n_units=d_feature)` for q, k, v and the "
        "output, no mask argument (always causal). The reference's decoding calls the student's attention, whose "
        "assert refuses d_v != d_k."),
    # the FRESH_22 ports (helper A), part 1: Sorbonne Université (Paris), RDFIA "Reconnaissance des formes pour
    # l'analyse et l'interprétation d'images" (Master DAC/IMA; rdfia.github.io), practical 1-e "Transformers" (2023-2025
    # cohorts): a naive ViT on MNIST, "a simplified version of the excellent Timm library", in which the students write
    # PatchEmbed, MLP, SelfAttention(embed_dim) (Q3: "the simple case of one head ... And don't forget a final linear
    # projection at the end!"; the skeleton gives `B, N, C = x.shape` and TODOs for q, k, v, the attention and the
    # output), MultiHeadsSelfAttention(embed_dim, num_heads) (Q4; the course's __init__ gives `head_dim = embed_dim //
    # num_heads`, `self.scale = head_dim ** -0.5` and nn.Linear(embed_dim, embed_dim) layers q, k, v and projection,
    # and its forward `B, N, C = x.shape` and the three projections), Block and ViT; no tests, no masks. Three
    # students' solutions (spencer57721/RDFIA and srsrb/RDFIA behave exactly as rdfia_moms2700 and were left out), a
    # course the corpus had not used. scaled_dot_product_attention is SelfAttention.forward after its projections (its
    # final Linear, where written, left out), multi_head_attention is MultiHeadsSelfAttention with the contract's
    # weights loaded as load_state_dict would (every weight must be (D, D)).
    Port("rdfia_mrbigoudi", {
        "scaled_dot_product_attention": ("batch_first_only", "softmax_wrong_axis", "no_scale", "scale_argument_ignored",
                                         "mask_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_square_weights", "mha_head_width_model", "mha_value_width",
                                 "softmax_wrong_axis", "mask_ignored"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="Lab3/1_e_Transformers.ipynb (commit 4bcfd3d) SelfAttention.forward: `B, N, C = x.shape` (3-D only), "
        "`k_t = torch.Tensor(np.transpose(k.detach().numpy(), (0,2,1)))`, `attention = torch.nn.Softmax(dim=0)("
        "torch.matmul(q, k_t))` (no scale; the softmax over axis 0, the batch axis of the (B, N_q, N_k) scores: with "
        "one sequence every weight is 1), `torch.matmul(attention, v)`, no mask or scale argument; "
        "MultiHeadsSelfAttention: the course's `nn.Linear(embed_dim, embed_dim)` layers (every weight (D, D)) and "
        "`self.head_dim = embed_dim // num_heads` (q, k AND v), `B, N, C = x.shape`, `q.reshape(B, N, self.num_heads, "
        "self.head_dim)`, `k.permute(0, 2, 3, 1)`, `torch.nn.Softmax(dim=0)(torch.mul(torch.matmul(q, k), "
        "self.scale))` (the batch axis of the (B, H, N, N) scores again), `x.reshape(B, N, C)`, `self.projection(x)`, "
        "no mask argument. The reference's decoding calls the student's attention on 2-D arrays: every call raises "
        "(before the missing scale and the axis-0 softmax would show)."),
    Port("rdfia_jacqueline202726", {
        "scaled_dot_product_attention": ("batch_first_only", "scale_argument_ignored", "mask_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_square_weights", "mha_head_width_model", "mha_value_width",
                                 "scale_inverted", "no_output_projection", "mask_ignored"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="TP1/1_e_Transformers.ipynb (commit 8e2e37c) SelfAttention: `self.scale=(embed_dim)**0.5` (the queries' "
        "width: right), `B, N, C = x.shape` (3-D only), `attention = q@k.transpose(1,2)/self.scale`, "
        "`F.softmax(attention,dim=-1)`, `x = attention@v` (no final projection; no mask or scale argument); "
        "MultiHeadsSelfAttention: the course's `self.scale = head_dim ** -0.5` and `nn.Linear(embed_dim, embed_dim)` "
        "layers (every weight (D, D), the unused projection's too), `dk=C//num_heads`, `dv=C//num_heads`, "
        "`q.reshape(B,N,num_heads,dk).transpose(1,2)` (and k, v), `attention = q@k.transpose(2,3)/self.scale` "
        "(divided by head_dim ** -0.5: multiplied by sqrt(head_dim)), `x.transpose(1,2).reshape(B,N,C)` and `return "
        "x` (self.projection built, never applied), no mask argument. The reference's decoding calls the student's "
        "attention on 2-D arrays: every call raises."),
    Port("rdfia_moms2700", {
        "scaled_dot_product_attention": ("batch_first_only", "scale_argument_ignored", "mask_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_square_weights", "mha_head_width_model", "mha_value_width",
                                 "mask_ignored"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="1_e_Transformers.ipynb (commit e545b2c) SelfAttention.forward: `B, N, C = x.shape` (3-D only), "
        "`F.softmax(torch.matmul(q, k.transpose(-2, -1)) / (C ** 0.5), dim=-1)` (C, x's width, is the queries' width: "
        "right), `self.projection(torch.matmul(attention, v))`, no mask or scale argument; MultiHeadsSelfAttention: "
        "the course's `nn.Linear(embed_dim, embed_dim)` layers (every weight (D, D)), `head_dim = C // "
        "self.num_heads` for q, k AND v, `q.view(B, N, self.num_heads, head_dim).permute(0, 2, 1, 3)`, `* "
        "self.scale`, `F.softmax(..., dim=-1)`, `attn_output.permute(0, 2, 1, 3).reshape(B, N, C)`, "
        "`self.projection(attn_output)`, no mask argument (right otherwise). The reference's decoding calls the "
        "student's attention on 2-D arrays: every call raises."),
    # the FRESH_22 ports (helper A), part 2: Sharif University of Technology (Tehran), Deep Learning (Dr. Soleymani,
    # spring 2024), homework 3 "RNNs & Transformers", practical notebook simple-GPT.ipynb ("SimpleGPT": a scaled-down
    # decoder-only GPT; the course gives the signatures and docstrings of SelfAttentionHead(n_embd, head_size),
    # MultiHeadSelfAttention(num_heads, n_embd, head_size), FeedForward, TransformerBlock and SimpleGPT, and the hint to
    # build the causal mask with torch.tril and masked_fill_), one student's solution (the only one found), a course the
    # corpus had not used. scaled_dot_product_attention is SelfAttentionHead.forward after its projections,
    # multi_head_attention is MultiHeadSelfAttention with head_size = W_Q.shape[-1] // num_heads.
    Port("sharifdl_mehdijmlkh", {
        "scaled_dot_product_attention": ("batch_first_only", "always_causal", "causal_top_left",
                                         "causal_mask_zero_scores", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "always_causal", "causal_mask_zero_scores", "mha_value_width"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="\"HW3 - RNNs & Transformers/practical/simple-GPT.ipynb\" (commit a4a749b) SelfAttentionHead: "
        "`nn.Linear(n_embd, head_size, bias=False)` for key, query AND value (values head_size wide); forward: "
        "`alignment = torch.bmm(Q, K.permute(0, 2, 1)) / np.sqrt(self.head_size)` (3-D only), `alignment = "
        "torch.masked_fill(alignment, torch.tril(alignment) == 0, -torch.inf)` (its own causal mask, always applied, "
        "top-left aligned on (N_q, N_k) scores, and built from the scores' values: an allowed score of exactly 0 is "
        "masked too), `torch.softmax(alignment, dim=-1)`, `torch.bmm(attention, V)`, no mask or scale argument; "
        "MultiHeadSelfAttention: `torch.concatenate([head(x) for head in self.heads], dim=-1)`, `self.projection(out)` "
        "with `nn.Linear(head_size*num_heads, n_embd)`, no mask argument. The reference's decoding calls the "
        "student's attention on 2-D arrays: every call raises (before the causal mask of its own would show)."),
    # the FRESH_22 ports (helper B), part 1: Duke University's ECE 661 Computer Engineering Machine Learning and Deep
    # Neural Nets (fall 2021), homework 3, lab 2 "Implement Transformer's multi-head attention mechanism": the course's
    # attention.py gives BERT-pytorch's MultiHeadedAttention.__init__(h, d_model) (assert d_model % h == 0, d_k =
    # d_model // h "We assume d_v always equals d_k", three nn.Linear(d_model, d_model) linear_layers and an
    # output_linear) and the students write forward(query, key, value, mask=None) ("mask: Just pass None to mask. No
    # need to handle it specifically."), which the course's transformer.py calls in TransformerBlock and lab2.ipynb
    # trains for IMDB sentiment analysis; two students' solutions (a third, whose repository the index does not name,
    # was left out), a course the corpus had not used. d_model is X.shape[-1] and the contract's weights are the Linear
    # layers' (each must be (D, D), as load_state_dict requires).
    Port("duke661_libo1023", {
        "multi_head_attention": ("batch_first_only", "mha_square_weights", "mha_head_width_model", "mha_value_width",
                                 "out_width_is_input", "mask_ignored", "mha_needs_divisible_width"),
    }, notes="Homework3/ECE661_2021F_HW3/attention.py (commit 87abb22) MultiHeadedAttention: the given `self.d_k = "
       "d_model // h` and `nn.Linear(d_model, d_model)` layers (every weight (D, D); heads of D // h columns for q, k "
       "AND v); forward: `batch_size = value.size(0)`, `sequence_length = value.size(1)`, `hidden_dim = value.size(2)` "
       "(3-D input only), `query.permute(1, 0, 2)` (likewise key and value), `self.linear_layers[0](query_sbh)`, "
       "`fc_query.view(sequence_length, batch_size, self.h, self.d_k)`, `.permute(1, 2, 0, 3)`, `torch.matmul("
       "query_matrix, key_matrix.permute(0, 1, 3, 2))` / `float(self.d_k ** (0.5))`, `torch.softmax(..., dim = -1)`, "
       "`out.permute(2, 0, 1, 3)`, `out.view(sequence_length, batch_size, hidden_dim)` (merged into the input's "
       "width), `out.permute(1, 0, 2)`, `self.output_linear(out)`; `mask` is never read."),
    Port("duke661_yangcao28", {
        "multi_head_attention": ("batch_first_only", "mha_square_weights", "mha_head_width_model", "mha_value_width",
                                 "head_merge_wrong", "mask_ignored", "mha_needs_divisible_width"),
    }, notes="HW3/attention.py (commit 2b2dc8e) MultiHeadedAttention: the given `self.d_k = d_model // h` and "
       "`nn.Linear(d_model, d_model)` layers (every weight (D, D); heads of D // h columns for q, k AND v); forward: "
       "`mask = mask.unsqueeze(1)` but `get_attention(query,key,value,dropout=self.dropout)` gets no mask (its own "
       "`mat.masked_fill(mask[mask == 0], -1e9)` is never reached); `batche_size = query.size(0)` and "
       "`x.view(batche_size,-1, self.h, self.d_k)` (reads the input as (B, N, D): a 2-D input makes each token a "
       "sequence of one, a 4-D one runs two axes together), `x.permute(0,2,1,3)`; get_attention: `torch.matmul(query, "
       "key.transpose(-2, -1)) / math.sqrt(d_k)` with `d_k = query.size(-1)`, `F.softmax(mat, dim = -1)`; then "
       "`x.view(batche_size, -1,self.h*self.d_k)` straight from the (B, h, N, d_k) heads (no permute back) and "
       "`self.output_linear(x)`."),
    # the FRESH_22 ports (helper B), part 2: Yale University's CPSC 477/577 Natural Language Processing (spring 2025,
    # Arman Cohan), homework 2 "Transformers and transfer learning", part 1 "Implementation of a transformer model for
    # language modeling" (a Colab notebook whose TODO cells the students fill in: QKVProjection(d_model, num_heads, d_k)
    # with `assert num_heads * d_k == d_model`, MultiHeadAttention, 2.4.1 CausalMultiHeadAttention (a subclass whose
    # forward takes a `causal_mask: bool` flag, not a mask), TransformerBlock, TransformerStack, TransformerModel);
    # one student's solution (the only one the index holds), a course the corpus had not used. d_model is X.shape[-1],
    # d_k = d_model // num_heads as the student's TransformerBlock builds it, the weights are the Linear layers'
    # (each (D, D)); given a mask, forward runs with causal_mask=True (the mask's entries are never read), without one
    # with causal_mask=False.
    Port("yale477_yuanchang0314", {
        "multi_head_attention": ("batch_first_only", "mha_square_weights", "mha_head_width_model", "mha_value_width",
                                 "always_causal"),
    }, notes="homework2/“part1_release_ipynb”.ipynb (commit 606e5b4) QKVProjection: `nn.Linear(d_model, num_heads * "
       "d_k)` for q, k AND v (values as wide as the queries), `batch_size, seq_length, d_model = X.shape` (3-D input "
       "only), `.view(batch_size, seq_length, self.num_heads, self.d_k).transpose(1, 2)`; MultiHeadAttention: `assert "
       "num_heads * d_k == d_model`, `self.out_linear = nn.Linear(d_model, d_model)` (every weight (D, D)); "
       "TransformerBlock: `CausalMultiHeadAttention(d_model, num_heads, d_model // num_heads)` (heads of D // H "
       "columns); CausalMultiHeadAttention.forward(X, causal_mask: bool = False, attn_pdrop: float = 0.1): "
       "`torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)`, `if causal_mask:` `torch.tril(torch.ones(seq_length, "
       "seq_length)).view(1, 1, seq_length, seq_length)` and `raw_scores.masked_fill(mask == 0, float('-inf'))` (no "
       "mask argument: its own causal mask, whatever mask), `F.softmax(raw_scores, dim=-1)`, `context.transpose(1, "
       "2).contiguous().view(batch_size, seq_length, -1)`, `self.out_linear(output)`."),
    # the FRESH_22 ports (helper C): the NeetCode ML course on neetcode.io (an online course of graded coding problems,
    # 2026: "Math Foundations", "Build a Neural Net", "Attention & Transformers", "Build GPT"; the site exports a
    # learner's submissions to a GitHub repository, <user>/neetcode-gpt, one commit per problem, e.g. "Implement
    # Multi-headed self-attention (Attention & Transformers 2/3)"): the learners write Solution.softmax(z) for a 1-D
    # array ("return np.round(your_answer, 4)"), MultiHeadedSelfAttention(embedding_dim, attention_dim, num_heads)
    # around a GIVEN nested SingleHeadAttention (key_gen, query_gen and value_gen of one width, `q @ torch.transpose(k,
    # 1, 2)`, its own causal mask, no mask argument), with heads of attention_dim // num_heads columns and, as the
    # problem says, a square output projection nn.Linear(attention_dim, attention_dim) and the output rounded to 4
    # decimal places; and KVCache.update (torch.cat along dim=1) with CachedAttention.forward(x, kv_cache) (square q/k/v
    # projections, attention over the whole cache, no mask, no RoPE, output rounded to 4 decimal places). Four learners'
    # submissions, the first four forks in the index's order that hold these files (lakshyadotdev and vato1007 hold no
    # multi_head_attention.py there; complexsimplcitymedia/neetcode-gpt-test, whose multi_head_attention.py holds the
    # transformer-block problem's code, was left out), a course the corpus had not used. In the ports the contract's
    # weights are the Linear layers' weights (a W_O other than (attention_dim, attention_dim) fails load_state_dict's
    # size check), decode_step's projections are the layer's methods and it works on the contract's cache.
    Port("neetcode_hiba_msm", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_value_width", "mha_output_width_asserted",
                                 "output_rounded"),
        "decode_step": ("decode_rope_ignored", "scale_d_model", "output_rounded"),
        "generate_cached": ("decode_rope_ignored", "scale_d_model", "output_rounded"),
    }, callee={"generate_cached": ("decode_step",)},
        notes="model/multi_head_attention.py (commit 01e5d5c) MultiHeadedSelfAttention: `self.head_size = "
        "attention_dim // num_heads` for the keys, queries AND values (the given SingleHeadAttention's three "
        "nn.Linear(embedding_dim, attention_dim) of one width), `self.output_projection = nn.Linear(attention_dim, "
        "attention_dim, bias=False)` (W_O must be (H*d_k, H*d_k)), forward(embedded) with no mask argument: `B, T, _ = "
        "embedded.shape` (3-D only), `.view(B, T, H, D).transpose(1, 2)`, `/ (D ** 0.5)` (right), `mask = "
        "torch.triu(torch.ones(T, T, ...), diagonal=1)` filled with -inf (always causal), `out.transpose(1, "
        "2).reshape(B, T, self.attention_dim)`, `return torch.round(out * 10000) / 10000`; model/kv_cache.py (commit "
        "676d175) CachedAttention(model_dim): `self.scale = model_dim ** -0.5` (model_dim is the width of x, which the "
        "course's square q/k/v projections make d_k too: 1/sqrt(D) where d_k differs), forward: `k, v = "
        "kv_cache.update(k, v)` (torch.cat along dim=1: right), `scores.mul_(self.scale)`, no RoPE in the model "
        "(rope_base never used), `return torch.round(out * 10000) / 10000, kv_cache`. Her foundations/softmax.py holds "
        "sigmoid and relu, no softmax. The reference's generate_cached calls the student's decode_step."),
    Port("neetcode_jameswei", {
        "softmax": ("softmax_global_sum", "temperature_ignored", "output_rounded"),
        "scaled_dot_product_attention": ("softmax_global_sum", "output_rounded"),
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_value_width", "mha_output_width_asserted",
                                 "output_rounded"),
        "decode_step": ("decode_rope_ignored", "output_rounded"),
        "generate_cached": ("decode_rope_ignored", "output_rounded"),
        "generate_naive": ("output_rounded",),
    }, callee={"scaled_dot_product_attention": ("softmax",), "generate_cached": ("decode_step",),
               "generate_naive": ("scaled_dot_product_attention", "softmax")},
        notes="foundations/softmax.py (commit 214d3a7) Solution.softmax(z): `safe_shift = z - np.max(z)`, "
        "`np.round(shifted / np.sum(shifted), 4)` (one max and one sum over the whole array, no axis, no temperature, "
        "rounded; an array that is all -inf would be NaN, a case the graded inputs do not hold); "
        "model/multi_head_attention.py (commit eae4bc4) MultiHeadedSelfAttention: `each_head_size = attention_dim // "
        "num_heads` for the keys, queries AND values (the given SingleHeadAttention), `self.concat_layer = "
        "nn.Linear(in_features=attention_dim, out_features=attention_dim, bias=False)` (W_O must be (H*d_k, H*d_k)), "
        "forward(embedded) with no mask argument, the given head's `q @ torch.transpose(k, 1, 2)` (3-D only) and "
        "`torch.tril(torch.ones(context_length, context_length))` mask (always causal), `torch.concat(res, dim=2)`, "
        "`return torch.round(output, decimals=4)`; model/kv_cache.py (commit 4e953c0) CachedAttention.forward: "
        "`kv_cache.update(k, v)` (torch.cat along dim=1: right), `/ (full_k.shape[-1]**0.5)` (right), no RoPE in the "
        "model (rope_base never used), `return torch.round(output, decimals=4), kv_cache`. The reference's "
        "scaled_dot_product_attention and generate_naive call the student's softmax (one query row in decoding: only "
        "its rounding shows), the reference's generate_cached the student's decode_step."),
    Port("neetcode_upangshu1234", {
        "softmax": ("softmax_global_sum", "temperature_ignored", "output_rounded"),
        "scaled_dot_product_attention": ("softmax_global_sum", "output_rounded"),
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_value_width", "mha_output_width_asserted",
                                 "output_rounded"),
        "decode_step": ("decode_rope_ignored", "output_rounded"),
        "generate_cached": ("decode_rope_ignored", "output_rounded"),
        "generate_naive": ("output_rounded",),
    }, callee={"scaled_dot_product_attention": ("softmax",), "generate_cached": ("decode_step",),
               "generate_naive": ("scaled_dot_product_attention", "softmax")},
        notes="foundations/softmax.py (commit 71d2baf) Solution.softmax(z): `z = z - np.max(z)`, `softmax = exp_z / "
        "np.sum(exp_z)`, `np.round(softmax, 4)` (one max and one sum over the whole array, no axis, no temperature, "
        "rounded; an array that is all -inf would be NaN, a case the graded inputs do not hold); "
        "model/multi_head_attention.py (commit 2669be3) MultiHeadedSelfAttention: `head_size = attention_dim // "
        "num_heads` for the keys, queries AND values (the given SingleHeadAttention), `self.output_projection = "
        "nn.Linear(attention_dim, attention_dim, bias=False)` (W_O must be (H*d_k, H*d_k)), forward(embedded) with no "
        "mask argument, the given head's `q @ torch.transpose(k, 1, 2)` (3-D only) and `torch.tril(torch.ones("
        "context_length, context_length, ...))` mask (always causal), `torch.cat(head_outputs, dim=2)`, `return "
        "torch.round(x, decimals=4)`; model/kv_cache.py (commit 26c6b47) CachedAttention.forward: `kv_cache.update(k, "
        "v)` (torch.cat along dim=1: right), `d_k = q.shape[-1]`, `/ (d_k ** 0.5)` (right), no RoPE in the model "
        "(rope_base never used), `return torch.round(output, decimals=4), kv_cache`. The reference's "
        "scaled_dot_product_attention and generate_naive call the student's softmax (one query row in decoding: only "
        "its rounding shows), the reference's generate_cached the student's decode_step."),
    Port("neetcode_sadir06", {
        "softmax": ("softmax_builtin_max", "softmax_global_sum", "temperature_ignored", "output_rounded"),
        "scaled_dot_product_attention": ("softmax_builtin_max", "softmax_global_sum", "output_rounded"),
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_value_width", "mha_output_width_asserted",
                                 "output_rounded"),
        "decode_step": ("decode_rope_ignored", "output_rounded"),
        "generate_cached": ("decode_rope_ignored", "output_rounded"),
        "generate_naive": ("softmax_builtin_max", "output_rounded"),
    }, callee={"scaled_dot_product_attention": ("softmax",), "generate_cached": ("decode_step",),
               "generate_naive": ("scaled_dot_product_attention", "softmax")},
        notes="foundations/softmax.py (commit 5c43b40) Solution.softmax(z): `softmax = (np.exp(z - np.max(z))) / "
        "np.sum(np.exp(z - max(z)))` (the built-in max(z) in the denominator: a (N_q, N_k) array with N_q, N_k >= 2 "
        "raises ValueError, a single row (1, N_k) is divided by N_k; np.sum over the whole array, reached with one "
        "column (N_q, 1); no axis, no temperature), `np.round(softmax, decimals=4)`; an array that is all -inf would "
        "be NaN, a case the graded inputs do not hold; model/multi_head_attention.py (commit a24ca7a) "
        "MultiHeadedSelfAttention: `self.SingleHeadAttention(embedding_dim, attention_dim // num_heads)` (one width "
        "for the keys, queries AND values), `self.output_proj = nn.Linear(attention_dim, attention_dim, bias=False)` "
        "(W_O must be (H*d_k, H*d_k)), forward(embedded) with no mask argument, the given head's `q @ "
        "torch.transpose(k, 1, 2)` (3-D only) and `torch.tril(torch.ones(context_length, context_length))` mask "
        "(always causal), `torch.cat(head_output, dim=2)`, `return torch.round(self.output_proj(concatenated), "
        "decimals=4)`; model/kv_cache.py (commit 1566ecd) CachedAttention.forward: `kv_cache.update(k, v)` (torch.cat "
        "along dim=1: right), `* (full_k.shape[-1] ** -0.5)` (right), no RoPE in the model (rope_base never used), "
        "`return torch.round(output, decimals=4), kv_cache`. The reference's scaled_dot_product_attention and "
        "generate_naive call the student's softmax (one query row (1, n+1) in decoding: every weight's denominator is "
        "n+1), the reference's generate_cached the student's decode_step."),
    # the FRESH_23 ports (helper A): IIT Madras (Indian Institute of Technology Madras, Chennai), DA6401 Introduction
    # to Deep Learning (Jan-May 2026), assignment 3 "Attention Is All You Need": a Transformer for German-English
    # translation on Multi30k. The course's skeleton repository (commits "da6401_skeleton", "added autograder
    # compatible changes", "added Transformers.infer()", April-May 2026, which the students' repositories share) gives
    # model.py with an "AUTOGRADER CONTRACT (DO NOT MODIFY SIGNATURES)": scaled_dot_product_attention(Q, K, V, mask) ->
    # (out, weights), make_src_mask(src, pad_idx), make_tgt_mask(tgt, pad_idx) (a [B, 1, T, T] padding + causal mask),
    # MultiHeadAttention.forward(query, key, value, mask) ("You are NOT allowed to use torch.nn.MultiheadAttention"),
    # PositionalEncoding, encoder/decoder layers and Transformer.encode/decode; its masks are True where a position is
    # MASKED OUT, and MultiHeadAttention.__init__ gives `assert d_model % num_heads == 0` and `self.d_k = d_model //
    # num_heads`; the students write every body. Four students' solutions, the first four in the index's order of the
    # repositories holding the assignment's lr_scheduler.py whose model.py holds the model (Abdull811/
    # da6401_assignment_03, whose stored model.py holds train.py, was left out), a course the corpus had not used.
    # causal_mask is make_tgt_mask on a (1, n_q) row of non-pad tokens; multi_head_attention is MultiHeadAttention(
    # d_model=X.shape[-1], num_heads) with the contract's weights loaded as load_state_dict would (every weight must be
    # (D, D)); the contract's mask is passed as the student's (so its polarity is inverted). The reference's decoding
    # calls the student's scaled_dot_product_attention with three arguments and no mask, which is right in all four.
    Port("da6401_aaradhyadashore", {
        "causal_mask": ("mask_inverted", "extra_leading_axes", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("mask_inverted", "softmax_nan_fully_masked", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_square_weights",
                                 "mha_head_width_model", "mha_value_width", "out_width_is_input", "mask_inverted",
                                 "softmax_nan_fully_masked", "mha_mask_expand_4d_only"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="model.py (commit a97e5fb) scaled_dot_product_attention(Q, K, V, mask=None): no scale argument, "
        "`torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(dim_k)`, `attention_logits.masked_fill(mask, "
        "float('-inf'))` (True = masked out, the course's convention), `torch.softmax(attention_logits, dim=-1)` (a "
        "fully masked row is NaN); make_tgt_mask: `(tgt == pad_idx).unsqueeze(1).unsqueeze(2)` OR `torch.triu("
        "torch.ones((seq_len, seq_len)), diagonal=1).bool()` made [1, 1, T, T] (True = masked, 4-D, square T x T); "
        "MultiHeadAttention: the skeleton's `assert d_model % num_heads == 0`, `self.head_dim = d_model // num_heads` "
        "for q, k AND v, four `nn.Linear(d_model, d_model)` (every weight (D, D)), `batch_size = query.size(0)` and "
        "`q.view(batch_size, -1, self.num_heads, self.head_dim).transpose(1, 2)` (the input read as (B, N, D)), "
        "`mask = mask.expand(-1, self.num_heads, -1, -1)` (raises for every mask that is not 4-D), "
        "`attended_values.transpose(1, 2).contiguous().view(batch_size, -1, self.d_model)` (merged into the input's "
        "width), `self.out_proj(...)`."),
    Port("da6401_abdallahdula", {
        "causal_mask": ("mask_inverted", "extra_leading_axes", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("mask_inverted", "softmax_nan_fully_masked", "scale_argument_ignored",
                                         "no_scale"),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_square_weights",
                                 "mha_head_width_model", "mha_value_width", "out_width_is_input", "mask_inverted",
                                 "softmax_nan_fully_masked", "mha_mask_head_axis"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="model.py (commit f5426a1) scaled_dot_product_attention(Q, K, V, mask=None, scale: bool = True): its "
        "fifth parameter is a flag, `if scale: scores = scores / math.sqrt(d_k)` (the contract's scale=None turns the "
        "scaling off; any other scale is read as True and ignored), `scores.masked_fill(mask, float('-inf'))` (True = "
        "masked out), `torch.softmax(scores, dim=-1)` (a fully masked row is NaN); make_tgt_mask: `(tgt == "
        "pad_idx).unsqueeze(1).unsqueeze(2)` OR `torch.triu(torch.ones((tgt_len, tgt_len), dtype=torch.bool), "
        "diagonal=1)` made [1, 1, T, T] (True = masked, 4-D, square); MultiHeadAttention: `assert d_model % num_heads "
        "== 0`, `self.d_k = d_model // num_heads` for q, k AND v, four `nn.Linear(d_model, d_model)` (every weight (D, "
        "D)), `_split`: `b, s, _ = x.shape` (3-D only), `x.view(b, s, self.num_heads, self.d_k).transpose(1, 2)`; "
        "`scaled_dot_product_attention(q, k, v, mask, scale=self.scale_attention)` with the mask as given (no head "
        "axis for a (B, N, N) mask); `_combine`: `x.transpose(1, 2).contiguous().view(b, s, h * d)`, `self.w_o(out)`."),
    Port("da6401_adarsh1769", {
        "causal_mask": ("mask_inverted", "extra_leading_axes", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("mask_inverted", "scale_argument_ignored", "no_scale"),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_square_weights",
                                 "mha_head_width_model", "mha_value_width", "out_width_is_input", "mask_inverted",
                                 "mha_mask_head_axis"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="model.py (commit d38a557) scaled_dot_product_attention(Q, K, V, mask=None, use_scale: bool = True): its "
        "fifth parameter is a flag, `if use_scale: scores = scores / math.sqrt(d_k)` (the contract's scale=None turns "
        "the scaling off; any other scale is read as True and ignored), `scores.masked_fill(mask, float(\"-inf\"))` "
        "(True = masked out), `F.softmax(scores, dim=-1)` then `torch.nan_to_num(attn_w, nan=0.0)` (a fully masked row "
        "gets zero weights: right); make_tgt_mask: `(tgt == pad_idx).unsqueeze(1).unsqueeze(2)` OR `~torch.tril("
        "torch.ones(T, T, dtype=torch.bool)).unsqueeze(0).unsqueeze(0)` (True = masked, 4-D, square); "
        "MultiHeadAttention: `assert d_model % num_heads == 0`, `self.d_k = d_model // num_heads` for q, k AND v, four "
        "`nn.Linear(d_model, d_model, bias=False)` (every weight (D, D)), `_split`: `B, S, _ = x.shape` (3-D only), "
        "`x.view(B, S, self.num_heads, self.d_k).transpose(1, 2)`; `scaled_dot_product_attention(Q, K, V, mask=mask, "
        "use_scale=self.use_scale)` with the mask as given (no head axis for a (B, N, N) mask); `_merge`: "
        "`x.transpose(1, 2).contiguous().view(B, S, self.d_model)` (the input's width), `self.W_o(...)`."),
    Port("da6401_adityatamras", {
        "causal_mask": ("mask_inverted", "extra_leading_axes", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("mask_inverted", "softmax_nan_fully_masked", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_square_weights",
                                 "mha_head_width_model", "mha_value_width", "out_width_is_input", "mask_inverted",
                                 "softmax_nan_fully_masked", "mha_mask_head_axis"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="model.py (commit 19c9c57) scaled_dot_product_attention(Q, K, V, mask=None): no scale argument, "
        "`torch.matmul(Q, K.transpose(-2, -1))/torch.sqrt(torch.tensor(d_k, dtype=torch.float32))`, "
        "`raw_scores.masked_fill(mask, -float('inf'))` (True = masked out), `F.softmax(raw_scores, dim=-1)` (a fully "
        "masked row is NaN); make_tgt_mask: `(tgt==pad_idx).unsqueeze(1).unsqueeze(1)` OR `~torch.tril(torch.ones("
        "tgt_len, tgt_len, dtype=torch.bool))` (True = masked, [B, 1, T, T], square); MultiHeadAttention: `assert "
        "d_model % num_heads == 0`, `self.d_k=d_model//num_heads` for q, k AND v, four `nn.Linear(d_model, d_model)` "
        "(every weight (D, D)), `batch_size=query.size(0)` and `q.view(batch_size, -1, self.num_heads, self.d_k)` then "
        "`q.transpose(1, 2)` (the input read as (B, N, D)), `scaled_dot_product_attention(q, k, v, mask)` with the "
        "mask as given (no head axis for a (B, N, N) mask), `attn_output.contiguous().view(batch_size, -1, "
        "self.d_model)` (the input's width), `self.W_o(attn_output)`."),
    # the FRESH_23 ports (helper B), part 1: Harvard University's CS 2281R (fall 2024; the course code of the three
    # repositories), problem set 0: the students write the GPT of Andrej Karpathy's lecture "Let's build GPT: from
    # scratch, in code, spelled out" themselves (Head, MultiHeadAttention, Block, the character-level Shakespeare
    # model), train it and report their own "implementation deviations" (one student's parallelized multi-head
    # self-attention; another's positional embeddings, RoPE among them, and a parameter-free optimizer; the third's
    # package with the lecture's stages and a BPE tokenizer of his own). Three students' solutions (the three
    # repositories the index holds under the course's code), a course the corpus had not used (its material is the
    # lecture's, which the corpus met through readers' forks of Karpathy's course; the code here is the students' own).
    # multi_head_attention is each student's MultiHeadAttention (or MultiHeadSelfAttention) with head_size =
    # X.shape[-1] // num_heads as each student's Block builds it, the contract's weights cut per head and W_O as the
    # output Linear; rope is one student's Head's RoPE path.
    Port("harvard2281r_kentonishi", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "always_causal"),
    }, notes="gpt.py (commit 1e2de61) Block: `head_size = n_embd // n_head`, `MultiHeadSelfAttention(n_head, "
       "head_size, n_embd)`; MultiHeadSelfAttention: `self.key`, `self.query` AND `self.value` = `nn.Linear(n_embd, "
       "num_heads * head_size, bias=False)`, `torch.tril(torch.ones(block_size, block_size))` (block_size 256: more "
       "than 256 tokens raise); forward(x) (no mask argument): `B, T, C = x.shape` (3-D only), `self.key(x).view(B, "
       "T, self.num_heads, self.head_size)` (likewise q and v: raises unless each projection is num_heads * (D // "
       "num_heads) wide, so d_k and d_v must both be D // H), `.transpose(1, 2)`, `wei = q @ k.transpose(-2, -1) * "
       "self.head_size**-0.5`, `wei.masked_fill(self.tril[:T, :T] == 0, float(\"-inf\"))` (always causal), "
       "`F.softmax(wei, dim=-1)`, `out.transpose(1, 2).contiguous().view(B, T, self.num_heads * self.head_size)`, "
       "`self.proj(out)`."),
    Port("harvard2281r_inakineitor", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "scale_d_model",
                                 "always_causal", "causal_buffer_max_tokens"),
    }, notes="src/cs2281r_hw0/gpt/bigram_manual_block.py (commit 2b191eb) Block: `head_size = num_embedding_dimensions "
       "// num_heads`; Head: key_layer, query_layer AND value_layer `nn.Linear(NUM_EMBEDDING_DIMENSIONS, head_size, "
       "bias=False)`, `torch.tril(torch.ones(BLOCK_SIZE, BLOCK_SIZE))` with `BLOCK_SIZE = 8`; Head.forward(X) (no mask "
       "argument): `_, num_steps, num_channels = X.shape` (3-D only), `weights = query @ key.transpose(-2, -1) * "
       "num_channels**-0.5` (num_channels is the input's width D: scaled by 1/sqrt(D), not by the head's width), "
       "`weights.masked_fill(self.triangular_mask[:num_steps, :num_steps] == 0, float(\"-inf\"))` (always causal; "
       "more than 8 tokens raise against the (8, 8) buffer), `F.softmax(weights, dim=-1)`, `weights @ value`; "
       "MultiHeadAttention: `torch.cat([head(X) for head in self.heads], dim=-1)`, `self.projection_layer = "
       "nn.Linear(NUM_EMBEDDING_DIMENSIONS, NUM_EMBEDDING_DIMENSIONS)`."),
    Port("harvard2281r_aneeshers", {
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "always_causal"),
        "rope": ("rope_partner_times_halved_table", "rope_ignores_positions", "rope_base_ignored"),
        "decode_step": ("rope_partner_times_halved_table", "rope_ignores_positions"),
        "generate_cached": ("rope_partner_times_halved_table", "rope_ignores_positions"),
        "generate_naive": ("rope_partner_times_halved_table", "rope_ignores_positions", "rope_base_ignored"),
    }, callee=decoding("rope"),
        notes="gpt_pos_opt_train.py (commit 46550f7) Block: `head_size = n_embd // n_head`; Head: key, query AND value "
        "`nn.Linear(N_EMBD, head_size, bias=False)`, `torch.tril(torch.ones(BLOCK_SIZE, BLOCK_SIZE))` (256); "
        "forward(x) (no mask argument): `B, T, C = x.shape` (3-D only), `wei = q @ k.transpose(-2, -1) * "
        "k.shape[-1]**-0.5`, `wei.masked_fill(self.tril[:T, :T] == 0, float('-inf'))` (always causal), `F.softmax(wei, "
        "dim=-1)`, `wei @ v`; MultiHeadAttention: `torch.cat([h(x) for h in self.heads], dim=-1)`, `self.proj = "
        "nn.Linear(head_size * num_heads, N_EMBD)`. RoPE (pos_encoding 'rope'): get_sinusoidal_embeddings(T, "
        "self.head_size): `position = torch.arange(n_positions)` (0..T-1: no positions argument), `div_term = "
        "torch.exp(torch.arange(0, dim, 2).float() * (-math.log(10000.0) / dim))` (base 10000 hard-coded), "
        "`sinusoidal_emb[:, 0::2] = torch.sin(position * div_term)`, `sinusoidal_emb[:, 1::2] = torch.cos(position * "
        "div_term)`; apply_rotary_position_embeddings: `sin, cos = sinusoidal_pos.chunk(2, dim=-1)` (the interleaved "
        "table's two halves), `q_rot = torch.stack((-q[..., 1::2], q[..., ::2]), dim=-1)`, `torch.reshape(q_rot, "
        "q.shape[:-1] + (q.shape[-1]//2, 2)) * torch.stack((cos, sin), dim=-1)`, `torch.reshape(q_rot, q.shape)`, "
        "returned as is (no q * cos term). The reference's decoding calls the student's rope: the new token (a "
        "one-row input) always sits at position 0, whose table [0, 1, 0, 1, ...] still changes q and k (the base has "
        "no effect there); generate_naive's keys sit at 0..n with base 10000."),
    # the FRESH_23 ports (helper B), part 2: Tufts University's CS 137 Deep Neural Networks (fall 2023), assignment 4,
    # task 1: "implement the multi-head attention layer with linear transformations and other elementary operations"
    # in mha_implementation.py's mha_137(query, key, value, in_wbs, out_wb), whose output must match
    # torch.nn.MultiheadAttention's on mha_notebook.ipynb's test (time-major (seq_len, batch, emb) inputs, per-head
    # weights and biases chunked from the torch layer's in_proj_weight). One student's solution (the index holds one
    # more, in a file whose repository it does not name), a course the corpus had not used. multi_head_attention calls
    # mha_137(X, X, X, ...) with head h's weights W_Q[:, h*d_k:(h+1)*d_k].T (likewise W_K, and W_V with d_v), zero
    # biases and out_w = W_O.T.
    Port("tufts137_awesombird", {
        "multi_head_attention": ("mha_tokens_first", "needs_leading_axis", "mask_ignored"),
    }, notes="mha_implementation.py (commit 0989f9e) mha_137: `query = torch.transpose(query, 0, 1)` (likewise key "
       "and value; the course's inputs are (seq_len, batch, emb): a contract (B, N, D) input becomes (N, B, D), so "
       "each token position attends over the B sequences; a 2-D (N, D) input becomes (D, N), whose projection "
       "raises unless N = D; with two leading axes the swap is harmless), `torch.nn.functional.linear(query, "
       "wqs[head], bqs[head])` per head (likewise k and v), `torch.matmul(q_head, torch.transpose(k_head, -1, -2)) / "
       "math.sqrt(q_head.shape[-1])` (the head's width: right), `torch.nn.functional.softmax(logit, -1)`, "
       "`torch.cat(output, dim=-1)`, `torch.nn.functional.linear(attn_output, out_w, out_b)`, `attn_output.transpose("
       "0, 1)`; no mask argument."),
    # the FRESH_23 ports (helper C): TensorTonic (tensortonic.com), an online platform of graded machine-learning coding
    # problems (2026) whose solutions the site syncs to each learner's GitHub repository, <user>/TensorTonic-Solutions,
    # one folder per problem; its "Cracking Inference" study plan has the learners write, in PyTorch,
    # inference-scaled-dot-product-attention (`scaled_dot_product_attention(query, key, value, mask=None)`, "batched
    # scaled dot-product attention for self- and cross-attention with optional masks and stable softmax"; no scale
    # argument), inference-multi-head-attention (`multi_head_attention(hidden_states, w_q, w_k, w_v, w_o, num_heads,
    # causal=False)`: "Split into h heads, run scaled dot-product attention per head with an optional causal mask,
    # concatenate the heads, and apply an output projection"; a `causal` flag, no mask) and
    # inference-rotary-position-embeddings (`apply_rotary_position_embeddings(query, key, positions, base=10000.0)`,
    # "Apply rotary position embeddings to query and key tensors at supplied absolute decoding positions"), and its
    # softmax-function problem a numpy `softmax(x)` ("Works for 1D or 2D NumPy arrays. For 2D, compute row-wise
    # softmax"). Four learners' solutions: the four repositories the index holds with the study plan's RoPE problem (two
    # of them have softmax-function too), a course the corpus had not used. In the ports scaled_dot_product_attention
    # returns (out, the learner's softmax weights) and takes a `scale` it never reads, multi_head_attention runs the
    # learner's function on hidden_states = X with causal=True when a mask is given (the mask's entries never read, as
    # yale477_yuanchang0314's causal_mask flag is mapped) and causal=False without one, rope(x, positions, base) is the
    # rotated query of apply_rotary_position_embeddings(x, x, positions, base), and softmax(Z, axis, temperature) is the
    # learner's softmax(x) (axis and temperature never read).
    Port("tensortonic_kurushi", {
        "softmax": ("softmax_ignores_axis", "temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("mask_inverted", "softmax_nan_fully_masked", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "out_width_is_input",
                                 "always_causal"),
        "rope": ("needs_leading_axis",),
        **{f: ("needs_leading_axis",) for f in DECODE},
    }, callee=decoding("rope"),
        notes="softmax-function/softmax-function.py (commit ed1cb01) softmax(x): `x_max = np.max(x, axis=-1, "
        "keepdims=True)`, `np.exp(x) / np.sum(np.exp(x),axis=-1,keepdims=True)` (always the last axis, no "
        "temperature; an all -inf slice is NaN); study-plans/cracking-inference/inference-scaled-dot-product-attention "
        "(commit 5711162): `torch.matmul(query, key.transpose(-2, -1)) / (d_k ** 0.5)`, `scores.masked_fill(mask, "
        "float(\"-inf\"))` (True = masked), `torch.softmax(scores, dim=-1)` (a row the inverted mask hides whole is "
        "NaN), no scale argument; inference-multi-head-attention (commit a05ab45): `batch_size, seq_len, d_model = "
        "hidden_states.shape` (3-D only), `d_head = d_model // num_heads` (the input's width) for Q, K AND V, "
        "`Q.view(batch_size, seq_len, num_heads, d_head).transpose(1, 2)`, `if causal:` "
        "`torch.triu(torch.ones((seq_len, seq_len), ...), diagonal=1)` filled with -inf (its own causal mask, no mask "
        "argument), "
        "`context.transpose(1, 2).contiguous().view(batch_size, seq_len, d_model)` (merged into the input's width), "
        "`torch.matmul(context, w_o)`; inference-rotary-position-embeddings (commit 083e50a): cos/sin tables viewed as "
        "(1, 1, seq_len, head_dim) for `query.ndim == 4`, (1, seq_len, head_dim) for `query.ndim == 3`, `raise "
        "ValueError(f\"Unsupported query dimension: {query.ndim}\")` otherwise (3-D or 4-D only: a 2-D input raises), "
        "`theta = 1.0 / (base ** (dim_indices / head_dim))`, `torch.repeat_interleave(m_theta, repeats=2, dim=-1)`, "
        "`rotate_adjacent` = stack((-x2, x1)) flattened (right otherwise). The reference's decoding calls the "
        "learner's rope on 2-D q and K: with rope_base every call raises (without it, the learner's attention gets "
        "no mask and no scale and is right)."),
    Port("tensortonic_nikheshkumar", {
        "softmax": ("softmax_ignores_axis", "temperature_ignored", "softmax_nan_fully_masked"),
        "scaled_dot_product_attention": ("batch_first_only", "mask_inverted", "softmax_nan_fully_masked",
                                         "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_head_width_model", "mha_value_width", "out_width_is_input",
                                 "always_causal"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="softmax-function/softmax-function.py (commit 73b75a6) softmax(x): `m = np.max(x, axis=-1, "
        "keepdims=True)`, `np.exp(x-m) / np.sum(np.exp(x-m), axis=-1, keepdims=True)` (always the last axis, no "
        "temperature; an all -inf slice is NaN); study-plans/cracking-inference/inference-scaled-dot-product-attention "
        "(commit eb49a25): `B, S_q, d_k = query.shape`, `_, S_k, _ = key.shape` (3-D only), `query @ "
        "key.transpose(-2,-1) / (d_k**0.5)`, `scores.masked_fill(mask, float('-inf'))` (True = masked), "
        "`torch.softmax(scores, dim=-1)` (a row the inverted mask hides whole is NaN), no scale argument; "
        "inference-multi-head-attention (commit f167da0): `B, S_q, d_model = hidden_states.shape` (3-D only), `d_k = "
        "d_model // num_heads` (the input's width) for q, k AND v, `.reshape(B, S_q, num_heads, d_k).transpose(1, 2)`, "
        "`if causal is True:` `torch.triu(torch.ones(S_q, S_q, dtype=torch.bool), diagonal=1)` filled with -inf (its "
        "own causal mask, no mask argument), `att.transpose(1,2).contiguous().reshape(B, S_q, d_model)` (merged into "
        "the input's width), `concat_head @ w_o`; inference-rotary-position-embeddings (commit 44e7840): `theta = "
        "base**(-i/d_k)` (float32), `freqs = positions[..., None] * theta`, tables unsqueezed `while cos_freq.ndim < "
        "x.ndim`, interleaved pairs rotated counter-clockwise (right). The reference's decoding calls the learner's "
        "attention on 2-D q, K, V: every call raises."),
    Port("tensortonic_trisi51", {
        "scaled_dot_product_attention": ("mask_inverted", "softmax_nan_fully_masked", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_value_width", "always_causal"),
        "rope": ("needs_leading_axes",),
        **{f: ("needs_leading_axes",) for f in DECODE},
    }, callee=decoding("rope"),
        notes="study-plans/cracking-inference/inference-scaled-dot-product-attention (commit fbeb942): "
        "`torch.matmul(query, key_t)`, `scores / (dk ** 0.5)`, `scores.masked_fill_(mask, float(\"-inf\"))` (True = "
        "masked), `torch.softmax(scores, dim = -1)` (a row the inverted mask hides whole is NaN), no scale argument; "
        "inference-multi-head-attention (commit 4c5ae50): `d_model = w_q.shape[-1]`, `b, s, _ = hidden_states.shape` "
        "(3-D only), `dk = d_model// num_heads` for the queries, keys AND values (`value.reshape(b,s,num_heads, dk)`), "
        "`if causal:` `torch.triu(torch.ones(s,s, dtype= torch.bool), diagonal = 1)` filled with -inf (its own causal "
        "mask, no mask argument), `attention_scores.transpose(1,2).reshape(b, s,d_model)`, `@ w_o`; "
        "inference-rotary-position-embeddings (commit 7d07645): `if query.ndim != 4: raise ValueError(\"query and key "
        "must have shape (batch, heads, seq, dk)\")` (4-D only), `theta = base ** (-2.0 * i /D)`, `pos = "
        "positions.to(dtype = torch.float64)[None, None, :, None]`, interleaved pairs rotated counter-clockwise "
        "(right otherwise). The reference's decoding calls the learner's rope on 2-D q and K: with rope_base "
        "every call raises (without it, the learner's attention gets no mask and no scale and is right)."),
    Port("tensortonic_tajinderpalsingh61", {
        "scaled_dot_product_attention": ("batch_first_only", "mask_inverted", "softmax_nan_fully_masked",
                                         "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_value_width", "always_causal"),
        "rope": ("needs_leading_axes",),
        **{f: ("batch_first_only", "needs_leading_axes") for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention", "rope"),
        notes="study-plans/cracking-inference/inference-scaled-dot-product-attention (commit c1f82a4): `batch_size, "
        "seq_len, embed_dim = query.shape` (3-D only), `(query @ key.transpose(-2, -1)) / (embed_dim ** 0.5)`, "
        "`scores.masked_fill(mask, -1*torch.inf)` (True = masked), `torch.softmax(scores, dim=-1)` (a row the inverted "
        "mask hides whole is NaN), no scale argument; inference-multi-head-attention (commit 33d17a6): `q = "
        "hidden_states @ w_q`, `batch_size, seq_len, d_model = q.shape` (3-D only), `d_k = int(d_model/ num_heads)` "
        "for the queries, keys AND values (`v.reshape(batch_size, seq_len, num_heads, d_k)`), `if causal:` "
        "`torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool), diagonal=1)` filled with -inf (its own causal "
        "mask, no mask argument), `torch.reshape(output, (batch_size, seq_len, d_model))`, `output@w_o`; "
        "inference-rotary-position-embeddings (commit 35defa9): `batch_size, num_heads, seq_len, d_k = query.shape` "
        "(4-D only), `positions.float()` and float32 angles `positions[:, torch.newaxis] @ theta_i[torch.newaxis, :]` "
        "(within the tolerance), `input[:, :, :, :d_k:2]` and `input[:, :, :, 1:d_k:2]` rotated counter-clockwise and "
        "stacked back to interleaved columns (right otherwise). The reference's decoding calls the learner's rope "
        "(with rope_base: it raises first) and attention (2-D q, K, V: it raises) on 2-D arrays: every call raises."),
    # the FRESH_24 ports (helper A): IIT Delhi (Indian Institute of Technology Delhi), COL772 Natural Language
    # Processing (spring 2026), the mid-term assignment "Hindi LM from Scratch", part A "Transformer-based LM from
    # Scratch" (due 10 March 2026). The course's starter repository vasco95/COL772-HindiLLM (commit 5203454, 16 February
    # 2026), which each student imports into a private repository named COL772-HindiLM-<entry number>, gives
    # parta/model.py with a LanguageModel stub: set_weights(weights) must load a dictionary of weights (W_vocab,
    # W_devocab, per layer l and head h W_{l}_Q_{h}, W_{l}_K_{h}, W_{l}_V_{h}, then W_{l}_O, W_{l}_up, b_{l}_up,
    # W_{l}_down, b_{l}_down and the layer norms; config keys d_model, n_heads, d_head, n_layers, vocab_size, mode
    # "tanh-clipped" or not, tau) and forward(input_ids, attention_mask) must return the logits of a decoder-only
    # (causal) transformer, which parta/check.py compares with the course's at atol 1e-4; the students write every body
    # (their own attention, masks, heads and weight loading). Five students' solutions of the six repositories the index
    # holds under the assignment's name (KoRaghav/COL772-HindiLM-cs5210616 was left out at the cap of five ports: its
    # last parta/model.py cannot load the weights, LanguageModel.set_weights calling a TransformerBlock.set_weights its
    # last commits removed, and its Part A commit d4f108e reads each head's weights as x @ W_h.T, unlike the five), each
    # at its last commit before the Part A deadline where the store had the history (bansal-yash's and quinoxy's at
    # their stored commits aeeb0dd and c6ff1f6), a course the corpus had not used. multi_head_attention is each
    # student's attention sub-layer run on X with config d_model = X.shape[-1], n_heads = num_heads (d_head =
    # W_Q.shape[-1] // num_heads where the student reads it), mode "standard", and the contract's weights given in the
    # course's layout: W_1_Q_h is the h-th block of ROWS of W_Q (np.array_split), likewise K and V, and W_1_O = W_O,
    # because the course's reference multiplies x by the heads' weights stacked along the rows (x @
    # torch.cat([W_{l}_Q_{h} ...], dim=0): five of the six students do, krkarthik2006's commit 246beb0 moved to it "to
    # pass all testcases", and (d_head, d_model) blocks are the only per-head shape all six take with several heads), so
    # stacked they are W_Q, W_K and W_V again; the attention_mask is all ones (every token real, as check.py passes it)
    # and the contract's mask is never read (the model's only masks are its causal one and the padding one).
    Port("col772_vijaybalajin", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_value_width"),
    }, notes="parta/model.py (commit 81c1264) apply_attention(l): `W_Q_l = torch.cat([getattr(self, f'W_{l}_Q_{k}') "
             "for k in range(1, self.n_heads+1)], dim=0)` and `Q = torch.matmul(self.z_l_1, W_Q_l)` (the course's "
             "layout: right), `batch_size, sequence_len, d_model = self.z_l_1.shape` (3-D only), `V.view(batch_size, "
             "sequence_len, self.n_heads, self.d_head)` (the queries' d_head for the values), `S = torch.matmul(Q, "
             "K.transpose(-2, -1)) / (self.d_head ** 0.5)` (right), `causal_mask = "
             "torch.triu(torch.full((sequence_len, sequence_len), float('-inf')), diagonal=1)` added to S (always "
             "causal: the model has no other mask than the padding one), `torch.softmax(S, dim=-1)`, "
             "`torch.nan_to_num(attn_wts, nan=0.0)`, `.view(batch_size, sequence_len, self.n_heads * self.d_head)`, "
             "`torch.matmul(attended_values, getattr(self, f'W_{l}_O'))` (right)."),
    Port("col772_krkarthik2006", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_square_weights", "mha_head_width_model",
                                 "mha_value_width", "out_width_is_input"),
    }, notes="parta/model.py (commit 1c1dc93) multi_head_attention(config): `self.d_head = self.d_model // "
             "self.n_heads` (for q, k AND v), W_q, W_k, W_v, W_o = `nn.Linear(self.d_model, self.d_model, bias=False)` "
             "(every weight (D, D)); set_weights: `block.multi_head_attention.W_q.weight.copy_(torch.cat(W_q_list, "
             "dim=0).T)` (likewise W_k, W_v: raises unless the stacked weights are (D, D)), "
             "`W_o.weight.copy_(weights[f'W_{layer}_O'].T)` (likewise); forward: `B, seq_len, _ = x.size()` (3-D "
             "only), `.view(B, seq_len, self.n_heads, self.d_head)`, `/ math.sqrt(self.d_head)`, `M = "
             "torch.triu(torch.full((seq_len, seq_len), float('-inf')), diagonal=1)` added to S (always causal), "
             "`nn.Softmax(dim=-1)(S)`, `head_outputs.transpose(1, 2).contiguous().view(B, seq_len, self.d_model)` "
             "(merged into the input's width), `self.W_o(head_outputs)`."),
    Port("col772_bansalyash", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_square_weights", "qkv_split_at_model_width",
                                 "mha_value_width", "out_width_is_input"),
    }, notes="parta/model.py (commit aeeb0dd) Multi_Head_Attention: `self.qkv_mat = nn.Linear(d_model, 3 * d_model, "
             "bias=False)`, `self.o_mat = nn.Linear(d_model, d_model, bias=False)` (square weights), a "
             "`torch.tril(torch.ones(MAX_SEQ_LEN, MAX_SEQ_LEN))` buffer with MAX_SEQ_LEN = 512 (a new tril past 512 "
             "tokens); set_weights: `all_q_weights = torch.cat([weights[f\"W_{i}_Q_{h}\"] for h in range(1, "
             "self.n_heads + 1)], dim=0).T` (likewise K, V), `qkv_mat.weight.copy_(torch.cat([all_q_weights, "
             "all_k_weights, all_v_weights], dim=0))` (raises unless the three are (D, D)), "
             "`o_mat.weight.copy_(all_o_weights.T)`; forward: `B, T, _ = x.shape` (3-D only), `q, k, v = "
             "self.qkv_mat(x).split(self.d_model, dim=-1)` (cut at the input's width), `v.view(B, T, self.n_heads, "
             "self.d_head)` (the queries' d_head for the values), `/ self.d_head ** (1 / 2)` (config d_head: right), "
             "`s.masked_fill(causal_mask == 0, -torch.inf)` with `causal_mask = self.causal_mask[:T, :T]` (always "
             "causal), `torch.softmax(s, dim=-1)`, `v.transpose(1, 2).reshape(B, T, self.d_model)` (merged into the "
             "input's width), `self.o_mat(v)`, `v * pad_mask.squeeze(1).transpose(-1, -2).float()`."),
    Port("col772_adityaaa2511", {
        "causal_mask": ("mask_additive", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("needs_leading_axes", "scale_argument_ignored", "mask_bool_added",
                                         "mask_unsqueezed_in_attention"),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_head_width_model",
                                 "mha_square_weights", "mha_value_width", "out_width_is_input", "always_causal"),
        **{f: ("needs_leading_axes",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="parta/model.py (commit d07cf13) scaled_dot_product_attention(query, key, value, mask=None, "
              "mode='standard', tau=1): `B,H,L,D = query.shape` (4-D only), `torch.matmul(query,key.transpose(-2,-1)) "
              "/ D**0.5` (right), `mask = mask.unsqueeze(1)` (\"required size (B, 1, L, L) to broadcast across "
              "heads\": a shared (N_q, N_k) mask becomes (N_q, 1, N_k)) and `x = x + mask` (the model's masks are "
              "additive 0 / -inf; a boolean mask is added as 0 / 1), `F.softmax(x,dim=-1)`, returns `(output, "
              "attn_wts)`, no scale argument; LanguageModel.create_causal_mask(self, L, device): "
              "`torch.triu(torch.ones(L, L), diagonal=1)` then `mask.masked_fill(mask == 1, float('-inf'))` (float 0 / "
              "-inf, (L, L) from one length); MultiHeadAttention: `assert d_model % num_heads == 0`, `self.d_k = "
              "d_model // num_heads` (for q, k AND v), four `nn.Linear(d_model,d_model, bias=False)` (every weight (D, "
              "D); set_weights' `layer.mha.W_q.weight.copy_(Wq_cat.T)` with `Wq_cat = torch.cat(Wq_list, dim=0)` "
              "raises unless it is (D, D)), split_heads `B,L,_ = x.shape` (3-D only), "
              "`x.view(B,L,self.num_heads,self.d_k)`, merge_heads `view(B,L,self.d_model)` (the input's width); "
              "LanguageModel.forward: `combined_mask = padding_mask.unsqueeze(1) + causal_mask` with `causal_mask = "
              "self.create_causal_mask(L, device)` for every layer (always causal; the student's attention is right on "
              "it). The reference's decoding calls the student's attention on 2-D q, K and V: every call raises."),
    Port("col772_quinoxy", {
        "multi_head_attention": ("batch_first_only", "always_causal", "mha_square_weights", "mha_value_width",
                                 "out_width_is_input"),
    }, notes="parta/model.py (commit c6ff1f6) MultiHeadAttention: `self.d_head = config[\"d_head\"]` (right), q_mat, "
             "k_mat, v_mat, concat_mat = `nn.Linear(self.d_model, self.d_model, bias= False)`; set_weights: "
             "`self.q_mat.weight.data[:,(i-1) * self.d_head : i * self.d_head] = weights[f\"W_{layer_no}_Q_{i}\"].T` "
             "(likewise K, V: the course's layout through the weight's columns; raises unless W_Q is (D, D)), "
             "`self.concat_mat.weight.data = weights[f\"W_{layer_no}_O\"].T` (replaced: any W_O works); forward: "
             "`batch_size = inputs.shape[0]`, `seq_len = inputs.shape[1]` and LanguageModel.forward's `_, seq_len = "
             "input_ids.shape` (the input read as (B, N, D)), `.reshape(batch_size, seq_len, self.n_heads, "
             "self.d_head)` for q, k AND v (the queries' d_head for the values), `/ math.sqrt(self.d_head)`, `S_mat + "
             "causal_attention_mask` with LanguageModel's `causal_attention` buffer (-1e9 above the diagonal, cut "
             "`[:,:,:seq_len,:seq_len]` from 512 x 512: always causal), `torch.softmax(S_mat, dim = -1)`, "
             "`.reshape(batch_size, seq_len, self.d_model)` (merged into the input's width), "
             "`self.concat_mat(concatenated_result)`."),
    # the FRESH_24 ports (helper B): CU Boulder's CSCI 7000 VLA Foundations for Robotics (spring 2026, Christoffer
    # Heckman; the course's repository is arpg/vla-foundations, where each student submits on a branch
    # scratch-1-<name>), assignment "Scratch-1: The Transformer Backbone": in src/assignments/scratch-1/backbone.py the
    # students fill in CausalSelfAttention.forward (a fused qkv_proj = nn.Linear(dim, 3 * dim), heads of dim //
    # num_heads columns, the course's RotaryPositionalEmbedding applied to q and k, the causal mask the model passes as
    # a float tril, out_proj = nn.Linear(dim, dim)), RMSNorm and the training loop; KV-caching is the assignment's
    # "mastery" extra, for which the students give the course's RoPE (the halves layout, float32 cos/sin tables of 2048
    # positions) a start-position argument and write a cached decoding path. Four students' solutions: the first four,
    # alphabetically, of the ten branches whose backbone.py has a KV-cached decoding path (17 students submitted), a
    # course the corpus had not used. multi_head_attention is each student's CausalSelfAttention with dim =
    # X.shape[-1], qkv_proj = [W_Q | W_K | W_V] and out_proj = W_O; rope(x, positions, base) is the student's
    # RotaryPositionalEmbedding(x.shape[-1], base=base) applied to x as it is, at the integer start int(positions[0]);
    # decode_step is the student's cached path on one token, with the contract's cache for the student's (a tuple of
    # concatenated keys and values, or one student's preallocated buffers, ported as KVCache), the layer's query, key
    # and value for the fused projection (dim = x.shape[-1], one head) and the (d_v,) row before out_proj returned.
    Port("cuvla_antonyzhao", {
        "multi_head_attention": ("batch_first_only", "qkv_fused_chunked_thirds", "mha_head_width_model",
                                 "mha_value_width", "mha_needs_divisible_width", "mha_applies_rope", "needs_mask",
                                 "mha_mask_head_axis", "softmax_nan_fully_masked"),
        "rope": ("needs_leading_axes", "rope_half_split", "rope_integer_offset", "rope_ignores_positions"),
        # cache_multi_token added after grading once, by reading append: each call after the first adds ONE row
        # whatever T (len() counts those calls), which is what its sentence says must not be
        "KVCache": ("cache_later_appends_last_row", "cache_multi_token"),
        "decode_step": ("decode_fused_model_width", "decode_applies_rope", "rope_base_ignored", "rope_half_split"),
        "generate_cached": ("decode_fused_model_width", "decode_applies_rope", "rope_base_ignored", "rope_half_split"),
        "generate_naive": ("needs_leading_axes", "rope_half_split"),
    }, callee={"generate_cached": ("decode_step",), "generate_naive": ("rope",)},
        notes="src/assignments/scratch-1/backbone.py (branch scratch-1-antony-zhao, commit db146f2) "
        "CausalSelfAttention: `assert dim % num_heads == 0`, `self.head_dim = dim // num_heads` (q, k and v alike), "
        "`self.qkv_proj = nn.Linear(dim, 3 * dim, bias=False)`, `self.rope = RotaryPositionalEmbedding(self.head_dim)` "
        "(base 10000); forward(x, mask=None, use_cache=False, reset_cache=False): `batch_size, seq_len, _ = x.shape` "
        "(3-D only), `qkv.view(batch_size, seq_len, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)` (thirds "
        "of the fused projection), `q, k = self.rope(q, k)` (always; an odd head width raises against the "
        "2*ceil(hd/2)-wide tables), `if not use_cache: score = score.masked_fill_(mask == 0, -torch.inf)` (mask=None: "
        "`None == 0` is False and masked_fill_ raises TypeError; in place, so a (B, N, N) mask meets the (B, H, N, N) "
        "scores' head axis), `F.softmax(score, dim=-1)` (a fully masked row is NaN), `out.permute(0, 2, 1, "
        "3).flatten(-2)`, `self.out_proj(out)`. RotaryPositionalEmbedding.forward(q, k, start_pos=0): `seq_len = "
        "q.shape[2]` (4-D input only: a 2-D x raises IndexError, a 3-D one raises unless N = d), "
        "`self.cos_cached[start_pos:start_pos + seq_len]` (integer start, consecutive positions), the course's "
        "`torch.cat([freqs, freqs], dim=-1)` tables and `rotate_half` (halves). KV cache (use_cache=True): "
        "`self.k_cache = torch.zeros(batch_size, self.num_heads, seq_len * 2, self.head_dim)` filled with every token "
        "of x on the first call, then `qkv = self.qkv_proj(x[:, -1].unsqueeze(1))` (the last token only), `q, k_new = "
        "self.rope(q, k_new, self.index)`, capacity doubled when `self.index + 1 > self.k_cache.size(2)`, "
        "`self.k_cache[:, :, self.index:self.index+1] = k_new`, `self.index += 1` (a (T, d) block appended to a filled "
        "cache keeps its last row only); decoding runs the layer's fused projection of one token viewed as (3, 1, D) "
        "with D = x.shape[-1] (raises unless 2 d_k + d_v = 3D) and always rotates q and k with base 10000 (rope_base "
        "never read). The reference's generate_naive calls the student's rope on 2-D inputs."),
    Port("cuvla_calliejones", {
        "multi_head_attention": ("batch_first_only", "qkv_fused_chunked_thirds", "mha_head_width_model",
                                 "mha_value_width", "out_width_is_input", "mha_needs_divisible_width",
                                 "mha_applies_rope", "causal_when_mask_none", "mha_mask_head_axis",
                                 "softmax_nan_fully_masked"),
        "rope": ("needs_leading_axes", "rope_half_split", "rope_integer_offset", "rope_ignores_positions"),
        "decode_step": ("decode_fused_model_width", "decode_applies_rope", "rope_base_ignored", "rope_half_split"),
        "generate_cached": ("decode_fused_model_width", "decode_applies_rope", "rope_base_ignored", "rope_half_split"),
        "generate_naive": ("needs_leading_axes", "rope_half_split"),
    }, callee={"generate_cached": ("decode_step",), "generate_naive": ("rope",)},
        notes="src/assignments/scratch-1/backbone.py (branch scratch-1-calliejones, commit 21bf142) "
        "CausalSelfAttention: `assert dim % num_heads == 0`, `self.head_dim = dim // num_heads` (q, k and v alike), "
        "`self.qkv_proj = nn.Linear(dim, 3 * dim, bias=False)`, `self.rope = RotaryPositionalEmbedding(self.head_dim)` "
        "(base 10000); forward(x, mask=None, ..., past_key_value=None, use_cache=False): `batch_size, seq_len, _ = "
        "x.shape` (3-D only), `qkv.view(batch_size, seq_len, 3, self.num_heads, self.head_dim)`, `qkv.permute(2, 0, 3, "
        "1, 4)` (thirds of the fused projection), `q, k = self.rope(q, k, position_offset=position_offset)` (always; "
        "an odd head width raises), `if mask is not None: causal_mask = mask` else `torch.tril(torch.ones(seq_len, "
        "total_len))` (no mask means causal), `scores.masked_fill(causal_mask == 0, float('-inf'))` (a (B, N, N) mask "
        "meets the heads axis), `F.softmax(scores, dim=-1)` (a fully masked row is NaN), `out.transpose(1, "
        "2).contiguous().view(batch_size, seq_len, self.dim)` (the input's width), `self.out_proj(out)`. "
        "RotaryPositionalEmbedding.forward(q, k, position_offset=0): `seq_len = q.shape[2]` (4-D input only), "
        "`self.cos_cached[position_offset : position_offset + seq_len]` (integer start, consecutive positions), the "
        "course's halves tables and rotate_half. KV cache: `past_len = past_key_value[0].shape[2]`, RoPE at "
        "position_offset = past_len, `k = torch.cat([past_k, k], dim=2)`; decoding runs the layer's fused projection "
        "of one token viewed as (3, 1, D) with D = x.shape[-1] (raises unless 2 d_k + d_v = 3D) and always rotates q "
        "and k with base 10000 (rope_base never read). The reference's generate_naive calls the student's rope on 2-D "
        "inputs."),
    Port("cuvla_jdvakil", {
        "multi_head_attention": ("batch_first_only", "qkv_fused_chunked_thirds", "mha_head_width_model",
                                 "mha_value_width", "out_width_is_input", "mha_needs_divisible_width",
                                 "mha_applies_rope", "mha_mask_head_axis", "softmax_nan_fully_masked"),
        "rope": ("needs_leading_axes", "extra_leading_axes", "rope_half_split", "rope_integer_offset",
                 "rope_ignores_positions"),
        "decode_step": ("decode_fused_model_width", "decode_rope_keys_at_query_position"),
        "generate_cached": ("decode_fused_model_width", "decode_rope_keys_at_query_position"),
        "generate_naive": ("needs_leading_axes", "rope_half_split"),
    }, callee={"generate_cached": ("decode_step",), "generate_naive": ("rope",)},
        notes="src/assignments/scratch-1/backbone.py (branch scratch-1-jdvakil, commit dc23583) CausalSelfAttention: "
        "`assert dim % num_heads == 0`, `self.head_dim = dim // num_heads` (q, k and v alike), `self.qkv_proj = "
        "nn.Linear(dim, 3 * dim, bias=False)`, `self.rope = RotaryPositionalEmbedding(self.head_dim)` (base 10000); "
        "forward(x, mask=None, past_kv=None): `batch_size, seq_len, _ = x.shape` (3-D only), `qkv.view(batch_size, "
        "seq_len, 3, self.num_heads, self.head_dim)`, `qkv.permute(2, 0, 3, 1, 4)`, `qkv.unbind(0)` (thirds of the "
        "fused projection), `k = torch.cat([past_k, k], dim=2)` and `present_kv = (k, v)` BEFORE `q, k = self.rope(q, "
        "k, seq_start_pos=seq_start_pos)` (the cache keeps unrotated keys, and the rope's rows, cut by the QUERY's "
        "length, rotate every key, cached ones included, at the new token's position: the rotations cancel in q . k), "
        "`/ math.sqrt(self.head_dim)`, `scores.masked_fill(mask == 0, float(\"-inf\"))` when a mask is given (no mask: "
        "none; `mask.shape[-2]` is read, so a 1-D mask raises; a (B, N, N) mask meets the heads axis), "
        "`F.softmax(scores, dim=-1)` (a fully masked row is NaN), `out.transpose(1, 2).contiguous().view(batch_size, "
        "seq_len, self.dim)` (the input's width), `self.out_proj(out)`. RotaryPositionalEmbedding.forward(q, k, "
        "seq_start_pos=0): `seq_len = q.shape[2]` (4-D input only), `self.cos_cached[seq_start_pos:end_pos]` (integer "
        "start, consecutive positions), `cos = cos[None, None, :, :]` (a 3-D input with N = d comes back 4-D), the "
        "course's halves tables and rotate_half. Decoding runs the layer's fused projection of one token viewed as (3, "
        "1, D) with D = x.shape[-1] (raises unless 2 d_k + d_v = 3D). The reference's generate_naive calls the "
        "student's rope on 2-D inputs."),
    Port("cuvla_jimmy", {
        "multi_head_attention": ("batch_first_only", "qkv_fused_chunked_thirds", "mha_head_width_model",
                                 "mha_value_width", "mha_needs_divisible_width", "mha_applies_rope", "always_causal"),
        "rope": ("needs_leading_axes", "rope_half_split", "rope_integer_offset", "rope_ignores_positions"),
        "decode_step": ("decode_fused_model_width", "decode_applies_rope", "rope_base_ignored", "rope_half_split"),
        "generate_cached": ("decode_fused_model_width", "decode_applies_rope", "rope_base_ignored", "rope_half_split"),
        "generate_naive": ("needs_leading_axes", "rope_half_split"),
    }, callee={"generate_cached": ("decode_step",), "generate_naive": ("rope",)},
        notes="src/assignments/scratch-1/backbone.py (branch scratch-1-jimmy, commit 2a9f4c5) CausalSelfAttention: "
        "`assert dim % num_heads == 0`, `self.head_dim = dim // num_heads` (q, k and v alike), `self.qkv_proj = "
        "nn.Linear(dim, 3 * dim, bias=False)`, `self.rope = RotaryPositionalEmbedding(self.head_dim)` (base 10000); "
        "forward(x, mask=None, past_kv=None): `batch_size, seq_len, _ = x.shape` (3-D only), `q, k, v = qkv.chunk(3, "
        "dim=-1)` then `q.view(batch_size, seq_len, self.num_heads, self.head_dim)` (likewise k, v: thirds of the "
        "fused projection), `q, k = self.rope(q, k, pos_offset=pos_offset)` (always; an odd head width raises), then "
        "the mask argument is overwritten: `mask = torch.tril(torch.ones(cached_seq_len, cached_seq_len))`, `mask = "
        "mask[-seq_len:, :]`, `scores.masked_fill(mask == 0, float('-inf'))` (always causal), "
        "`out.contiguous().view(batch_size, seq_len, -1)`, `self.out_proj(out)`. RotaryPositionalEmbedding.forward(q, "
        "k, pos_offset=0): `seq_len = q.shape[2]` (4-D input only), `self.cos_cached[pos_offset:pos_offset + seq_len]` "
        "(integer start, consecutive positions), the course's halves tables and rotate_half. KV cache: `pos_offset = "
        "past_k.shape[2]`, RoPE at that offset, `k = torch.cat([past_k, k], dim=2)`; decoding runs the layer's fused "
        "projection of one token cut by chunk(3) into D-wide pieces with D = x.shape[-1] (raises unless 2 d_k + d_v = "
        "3D) and always rotates q and k with base 10000 (rope_base never read). The reference's generate_naive calls "
        "the student's rope on 2-D inputs."),
    # the FRESH_24 ports (helper C): the mid-term assignment (期中作业) of the course 大模型基础与应用 ("Foundations and
    # Applications of Large Models", autumn 2025; Beijing Jiaotong University, as one repository's commit address
    # says): each student writes a Transformer by hand (no torch.nn.Transformer: attention, multi-head attention,
    # positional encoding, encoder and/or decoder blocks) with no skeleton, trains it on a small text task of their
    # choice (Tiny Shakespeare, IWSLT2017 translation, WikiText-2, a toy copy task) and hands in the code with
    # reproducibility files (requirements.txt, scripts/run.sh, configs/, results/), ablations and a LaTeX report. Four
    # students' solutions: the four repositories the index holds under the name transformer-assignment with this
    # assignment's layout (Hanbaor's README names the course and the mid-term assignment; neverleave111's commits come
    # from a bjtu.edu.cn address; Gaby11235's and FYuanZheng's repositories have the same brief: a hand-written
    # Transformer, ablations, a report), a course the corpus had not used. Every student's MultiHeadAttention sizes its
    # heads from d_model = X.shape[-1] with nn.Linear(d_model, d_model) layers, so multi_head_attention loads the
    # contract's weights as load_state_dict would (each must be (D, D); neverleave111's fused qkv_proj (D, 3D)) and
    # passes the contract's mask as the student's (all four keep True); rope(x, positions, base) is each student's RoPE
    # on x (positions and base never read); causal_mask is the student's mask builder (make_tgt_mask on a row of non-pad
    # tokens, or make_causal_mask(n_q, n_k)).
    Port("bjtullm_hanbaor", {
        "causal_mask": ("extra_leading_axes", "causal_ignores_n_k"),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_square_weights",
                                 "mha_head_width_model", "mha_value_width", "out_width_is_input", "mask_finite_fill",
                                 "mha_mask_head_axis"),
    }, notes="src/model.py (commit 63b9fa7) MultiHeadAttention: `assert d_model % n_heads == 0`, `self.d_k = d_model "
       "// n_heads` for q, k AND v, four `nn.Linear(d_model, d_model)` (every weight (D, D)), `batch_size = q.size(0)` "
       "and `Q.view(batch_size, -1, self.n_heads, self.d_k).transpose(1, 2)` (the input read as (B, N, D)), "
       "`scores.masked_fill(~mask, -1e9)` (True = keep; a finite fill: a fully masked row gets uniform weights; the "
       "mask as given, so a (B, N, N) mask meets the (B, H, N, N) scores without a head axis), "
       "`context.transpose(1, 2).contiguous().view(batch_size, -1, self.d_model)` (the input's width), "
       "`self.fc_o(context)`; Transformer.make_tgt_mask: `(tgt != self.tgt_pad_idx).unsqueeze(1).unsqueeze(3)` AND "
       "`torch.tril(torch.ones((tgt_len, tgt_len))).bool()`: [B, 1, T, T] (4-D, square T x T)."),
    Port("bjtullm_neverleave111", {
        "scaled_dot_product_attention": ("sdpa_fifth_arg_dropout_module", "needs_square", "mask_padding_rows_and_keys",
                                         "mask_finite_fill"),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_square_weights",
                                 "qkv_fused_chunked_thirds", "mha_head_width_model", "mha_value_width",
                                 "out_width_is_input", "mask_finite_fill", "mha_mask_head_axis"),
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",)},
        notes="LLM-class/src/model.py (commit 250f2e7) scaled_dot_product_attention(q, k, v, mask=None, "
        "attn_dropout=None, relative_bias=None): `if attn_dropout is not None: attn = attn_dropout(attn)` (a dropout "
        "module, called: the contract's scale lands there and raises TypeError), `/ math.sqrt(q.size(-1))` (right "
        "without a mask); with a mask `T = S_shape[-1]` (the keys) stands for both of the mask's last axes: a 2-D mask "
        "of shape (T, T) is right, any other 2-D mask is read as a (B, T) padding mask, `mask_bool.unsqueeze(2) & "
        "mask_bool.unsqueeze(1)`, then `base.view(T, T)` / `base.view(..., T, T)` and `base_view.expand("
        "*desired_leading, T, T)` (with repeat fallbacks) raise whenever n_q != n_k (a (4, 6) mask, a (2, 1, 4, 5) "
        "one); `scores.masked_fill(~mask_proc, float(\"-1e9\"))` (True = keep; finite fill); MultiHeadSelfAttention: "
        "`assert embed_dim % num_heads == 0`, `self.head_dim = embed_dim // num_heads`, `self.qkv_proj = "
        "nn.Linear(embed_dim, embed_dim*3)` and `self.out_proj = nn.Linear(embed_dim, embed_dim)`, `B,T,C = x.size()` "
        "(3-D only), `self.qkv_proj(x).view(B, T, 3, self.num_heads, self.head_dim).permute(2,0,3,1,4)` (equal "
        "thirds of the fused projection), the mask passed as given (a (B, N, N) mask is viewed (1, B, N, N) against "
        "the (B, H, N, N) scores: its sequences meet the heads), `out.transpose(1,2).contiguous().view(B,T,C)` (the "
        "input's width), `self.out_proj(out)`."),
    Port("bjtullm_gaby11235", {
        "causal_mask": ("causal_top_left", "extra_leading_axes"),
        "scaled_dot_product_attention": ("sdpa_weights_none", "mask_additive_nan", "scale_argument_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_square_weights",
                                 "mha_head_width_model", "mha_value_width", "out_width_is_input", "mask_additive_nan"),
        "rope": ("needs_leading_axes", "rope_half_split", "rope_ignores_positions", "rope_base_ignored"),
        **{f: ("needs_leading_axes",) for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",), **decoding("rope")},
        notes="src/model.py (commit 39fd959) apply_rope(x): `B, H, T, D = x.shape` (4-D only), `inv_freq = 1.0 / "
        "(10000 ** (freq_seq / half))` (base fixed), `pos = torch.arange(T)` (no positions), `torch.cat([x1 * cos - x2 "
        "* sin, x1 * sin + x2 * cos], dim=-1)` with `x1, x2 = x[..., :half], x[..., half:]` (halves); "
        "scaled_dot_product_attention(q, k, v, mask=None, dropout_p=0.0, is_causal=False, use_sdpa=True): "
        "`attn_mask = (~mask).to(q.dtype) * float(\"-inf\")` (0 * -inf = NaN on every kept score: any row with a "
        "kept key is NaN; a fully masked row gets zeros from PyTorch's SDPA), `F.scaled_dot_product_attention(q, k, "
        "v, attn_mask=attn_mask, dropout_p=dropout_p if q.requires_grad else 0.0, ...)` (the contract's scale lands on "
        "dropout_p and is dropped), `return out, None` (no weights); MultiHeadAttention: `assert d_model % n_head == "
        "0`, `self.d_head = d_model // n_head` for q, k AND v, four `nn.Linear(d_model, d_model, bias=False)`, `B, Tq, "
        "C = x_q.shape` (3-D only), a 3-D mask given its head axis (`mask.unsqueeze(1).expand(B, self.n_head, ...)`: "
        "right), `out.transpose(1, 2).contiguous().view(B, Tq, self.d_model)` (the input's width), "
        "`self.out_proj(out)`; make_causal_mask(T_q, T_k): `torch.tril(torch.ones((T_q, T_k))).bool()` (top-left) "
        "`.unsqueeze(0).unsqueeze(0)`. The reference's decoding calls the student's rope (2-D input: it raises) and "
        "scaled_dot_product_attention (no mask: its output is right)."),
    Port("bjtullm_fyuanzheng", {
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "mha_square_weights",
                                 "mha_head_width_model", "mha_value_width", "out_width_is_input", "mha_applies_rope",
                                 "softmax_nan_fully_masked", "mha_mask_head_axis"),
        "rope": ("needs_leading_axes", "rope_half_split", "rope_ignores_positions", "rope_base_ignored"),
        **{f: ("needs_leading_axes",) for f in DECODE},
    }, callee=decoding("rope"),
        notes="model.py (commit 8798d06) RotaryPositionalEmbedding(dim, max_seq_len=2048): `inv_freq = 1.0 / (10000 ** "
        "(torch.arange(0, dim, 2).float() / dim))` (base fixed), `t = torch.arange(max_seq_len)` (no positions), "
        "`emb = torch.cat((freqs, freqs), dim=-1)` cached as (1, 1, max_seq_len, dim), rotate_half "
        "`torch.cat((-x2, x1), dim=-1)` (halves), forward(q, k): `seq_len = q.shape[2]` (a 4-D (B, H, T, d) input "
        "only); MultiHeadAttention: `assert d_model % n_heads == 0`, `self.d_k = d_model // n_heads` for q, k AND v, "
        "four `nn.Linear(d_model, d_model)`, `self.rope = RotaryPositionalEmbedding(self.d_k, max_seq_len)` applied to "
        "q and k in forward (`q, k = self.rope(q, k)`), `batch_size, seq_len, d_model = x.shape` (3-D only), "
        "`scores.masked_fill(mask == 0, float('-inf'))` (True = keep; a fully masked row is NaN; the mask as given, "
        "so a (B, N, N) mask meets the (B, H, N, N) scores without a head axis), `F.softmax(scores, dim=-1)`, "
        "`out.transpose(1, 2).contiguous().view(batch_size, seq_len, d_model)` (the input's width), "
        "`self.o_proj(out)`. The reference's decoding calls the student's rope (2-D input: it raises)."),
    # the FRESH_25 ports (helper A): IIIT Delhi (Indraprastha Institute of Information Technology Delhi), CSE556
    # Natural Language Processing (winter 2025), assignment 3, task 1 "Transformer from scratch": a Transformer language
    # model trained on Shakespeare (shakespear_train/dev/test.txt), built on the course's task1_code_template.ipynb,
    # which gives the stubs initialise_projections, pairwise_similarities, attention_scaled, attention_softmax,
    # compute_outputs, make_causal_mask, apply_causal_mask, split_heads, merge_heads, self_attention and
    # split_heads_qkv (docstrings only, no signatures) and empty TransformerLM, TransformerBlock and MultiHeadAttention
    # classes: the students (in teams) write every body. Five teams' solutions: the five repositories the index holds
    # with this assignment's task1.ipynb (rishipendyala's holds the template itself, Assignment_3/Task 1/
    # task1_code_template.ipynb), each at its last commit, a course the corpus had not used. Where a team wrote them,
    # attention_scores is pairwise_similarities, softmax is attention_softmax (no axis, no temperature: both never
    # read), causal_mask(n_q, n_k) is make_causal_mask(n_q), and scaled_dot_product_attention is the team's
    # self_attention(Q, K, V, mask) or, for the two teams whose attention steps live in MultiHeadAttention.forward
    # (harsh22201 wrote no self_attention; shobhitraj1's takes the finished scores), those steps run on Q, K and V
    # (scale never read). Every team's MultiHeadAttention sizes its layers from d_model = X.shape[-1] with
    # nn.Linear(d_model, d_model), so multi_head_attention loads the contract's weights as copying them into the layers
    # would (each must be (D, D)), runs the team's forward on X (as query, key and value) with the contract's mask as
    # the team's own, and returns the output.
    Port("iiitd556_rishipendyala", {
        "softmax": ("softmax_ignores_axis", "temperature_ignored", "softmax_nan_fully_masked"),
        "causal_mask": ("causal_ignores_n_k",),
        "scaled_dot_product_attention": ("no_scale", "scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_square_weights", "no_scale", "mha_mask_head_axis",
                                 "softmax_nan_fully_masked"),
        **{f: ("no_scale",) for f in DECODE},
    }, callee={"scaled_dot_product_attention": ("softmax",), "multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="Assignment_3/Task 1/task1.ipynb (commit d844672) attention_softmax: `F.softmax(scaled_similarities, "
              "dim=-1)` (no axis, no temperature; an all -inf row is NaN); make_causal_mask(size): `torch.triu("
              "torch.ones(size, size), diagonal=1)` then `mask == 0` (square); self_attention(Q, K, V, mask=None): "
              "`similarities = pairwise_similarities(Q, K)`, `apply_causal_mask(similarities, mask)` "
              "(`masked_fill(~mask, float('-inf'))`), `attention_softmax(similarities)`: the team's attention_scaled "
              "is never called (no scale, no scale argument); split_heads: `batch_size, seq_len, d_model = x.size()` "
              "(3-D only), `x.view(batch_size, seq_len, n_heads, -1).transpose(1, 2)`; MultiHeadAttention: `self.Q = "
              "nn.Linear(d_model, d_model)` (likewise K, V, out: square weights), forward(x, mask) passes the mask to "
              "self_attention as it is (a (B, N, N) mask meets the (B, H, N, N) scores without a head axis). The "
              "reference's decoding calls the team's unscaled self_attention."),
    Port("iiitd556_harsh22201", {
        "softmax": ("softmax_ignores_axis", "temperature_ignored", "softmax_nan_fully_masked"),
        "causal_mask": ("extra_leading_axes", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_square_weights", "mha_head_width_model", "mha_mask_head_axis",
                                 "softmax_nan_fully_masked"),
    }, callee={"scaled_dot_product_attention": ("softmax",), "multi_head_attention": ("scaled_dot_product_attention",)},
        notes="Assignment3/Task 1 - Transformer from Scratch/task1.ipynb (commit dbb7866) attention_softmax: "
              "`F.softmax(scaled_scores, dim=-1)` (no axis, no temperature; an all -inf row is NaN); "
              "make_causal_mask(seq_len): `torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool))` returned as "
              "`mask.unsqueeze(0).unsqueeze(0)` (\"Shape: (1, 1, seq_len, seq_len)\", square); "
              "MultiHeadAttention.forward's attention steps (the team wrote no self_attention): "
              "`pairwise_similarities(Q, K)`, `apply_causal_mask(scores, mask)` (`masked_fill(~mask, "
              "float('-inf'))`, the mask as given: a (B, N, N) mask meets the (B, H, N, N) scores without a head "
              "axis), `attention_scaled(scores, self.head_dim)` with `self.head_dim = embed_dim // heads` (D // H, no "
              "scale argument), attention_softmax, compute_outputs; split_heads: `batch_size, seq_len, embed_dim = "
              "x.size()` (3-D only); `initialise_projections(embed_dim, embed_dim)` and `self.fc_out = "
              "nn.Linear(embed_dim, embed_dim)` (square weights)."),
    Port("iiitd556_shobhitraj1", {
        "attention_scores": ("batch_first_only",),
        "softmax": ("softmax_ignores_axis", "temperature_ignored", "softmax_nan_fully_masked"),
        "causal_mask": ("mask_additive", "causal_ignores_n_k"),
        "scaled_dot_product_attention": ("batch_first_only", "scale_wrong_dim", "scale_argument_ignored",
                                         "mask_bool_added"),
        "multi_head_attention": ("batch_first_only", "mha_square_weights", "scale_wrong_dim", "mask_bool_added",
                                 "mha_mask_head_axis"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee={"scaled_dot_product_attention": ("attention_scores",),
               "multi_head_attention": ("scaled_dot_product_attention",),
               **decoding("scaled_dot_product_attention")},
        notes="Assignment 3/A3-12/task1.ipynb (commit 1b9714c) pairwise_similarities: `torch.bmm(q, k.transpose(1, "
              "2))` (3-D only), compute_outputs: `torch.bmm(attention_weights, values)`; attention_scaled(dot_prod): "
              "`dot_prod / math.sqrt(dot_prod.size(-1))` (the scores' last axis: the number of keys); "
              "attention_softmax: `F.softmax(attention_scores, dim=-1)` (no axis, no temperature; an all -inf row is "
              "NaN); make_causal_mask(seq_len): `torch.triu(torch.ones(seq_len, seq_len), diagonal=1)` then "
              "`mask.masked_fill(mask == 1, float(\"-inf\"))` (additive, square); apply_causal_mask: "
              "`attention_scores + mask` (a boolean mask is added as 0 / 1); MultiHeadAttention.forward: "
              "pairwise_similarities, attention_scaled, apply_causal_mask when a mask is given (on the (B * H, N, N) "
              "scores: a (B, N, N) mask raises unless B = 1), self_attention(attention_scores, V_proj) (no scale "
              "argument anywhere); split_heads: `batch_size, seq_len, d_model = input_tensor.size()` (3-D only), "
              "`view(batch_size * num_heads, seq_len, d_head)`; initialise_projections(d_model): three "
              "`nn.Linear(d_model, d_model, bias=False)`, `self.W_o = nn.Linear(d_model, d_model)` (square weights). "
              "The reference's decoding calls the team's attention on 2-D q, K and V: bmm raises."),
    Port("iiitd556_aytida1165", {
        "causal_mask": ("mask_inverted", "causal_ignores_n_k"),
        "multi_head_attention": ("batch_first_only", "mha_square_weights", "mha_needs_divisible_width",
                                 "mha_head_width_model", "mha_value_width", "out_width_is_input", "mha_mask_head_axis"),
    }, notes="NLPA3/task1/task1.ipynb (commit 791e81b) make_causal_mask(seq_len): `torch.triu(torch.ones(seq_len, "
             "seq_len, dtype=torch.bool), diagonal=1)` (\"True values will be masked out in "
             "F.scaled_dot_product_attention\": True = masked, square); MultiHeadAttention: `assert d_model % "
             "num_heads == 0`, `self.d_k = d_model // num_heads` (for q, k AND v), four `nn.Linear(d_model, d_model, "
             "bias=False)` (square weights), _split_heads: `batch_size, seq_len, _ = x.size()` (3-D only), "
             "`x.view(batch_size, seq_len, self.num_heads, self.d_k)`, _merge_heads: `.view(batch_size, seq_len, "
             "self.d_model)` (the input's width), forward: `F.scaled_dot_product_attention(Q, K, V, attn_mask=mask, "
             "..., is_causal=(mask is not None and mask.is_cuda))` (PyTorch's SDPA: right scale and polarity; the mask "
             "as given, so a (B, N, N) mask meets the (B, H, N, N) scores without a head axis)."),
    Port("iiitd556_rahisenpai", {
        "softmax": ("softmax_ignores_axis", "temperature_ignored", "softmax_nan_fully_masked"),
        "causal_mask": ("causal_ignores_n_k",),
        "scaled_dot_product_attention": ("scale_argument_ignored", "softmax_nan_fully_masked"),
        "multi_head_attention": ("batch_first_only", "mha_square_weights", "mha_needs_divisible_width",
                                 "mha_head_width_model", "mha_value_width", "mha_mask_head_axis",
                                 "softmax_nan_fully_masked"),
    }, callee={"scaled_dot_product_attention": ("softmax",), "multi_head_attention": ("scaled_dot_product_attention",)},
        notes="assignment3/task1/task1.ipynb (commit d6129f1) attention_softmax: `F.softmax(similarities, dim=-1)` (no "
              "axis, no temperature; an all -inf row is NaN); make_causal_mask(seq_len, device=DEVICE): "
              "`torch.tril(torch.ones(seq_len, seq_len, device=device))` then `.bool()` (square); "
              "self_attention(query, key, value, mask=None): `attention_scaled(similarities, key.size(-1))` (right; no "
              "scale argument), `similarities.masked_fill(mask == 0, float(\"-inf\"))`, attention_softmax; "
              "MultiHeadAttention: `self.head_dim = d_model // nhead`, `assert self.head_dim * nhead == d_model`, "
              "`initialise_projections(d_model, d_model)` and `self.out_proj = nn.Linear(d_model, d_model)` (square "
              "weights), forward: `split_heads_qkv(q, k, v, self.nhead, self.head_dim)` (one head width for q, k AND "
              "v; split_heads reads `batch_size, seq_len, dim = x.size()`: 3-D only), `self_attention(q, k, v, mask)` "
              "(the mask as given: a (B, N, N) mask meets the (B, H, N, N) scores without a head axis)."),
    # the FRESH_25 ports (helper B): two courses the corpus had not used. (1) Stanford STATS 305B, Models and
    # Algorithms for Discrete Data (Scott Linderman), winter 2025, homework 4 "Large Language Models", part 1 (the
    # course's notebook slinderman/stats305b assignments/hw4/hw4.ipynb; students may work in pairs): a character-level
    # transformer LM on tiny Shakespeare, in which the students fill in Head.forward (the course's single head has
    # key/query layers nn.Linear(D, head_size) and a value layer nn.Linear(D, D): its formula is softmax(CausalMask(X
    # U_q^T U_k X^T) / sqrt(K)) (X V^T) with V in R^{D x D}, and a tril(context_window_size) buffer), MultiHeadAttention
    # (__init__ and forward from scratch: how the heads are combined is the student's choice) and the layers of
    # TransformerBlock. Two solutions whose repository could be cited (two more students' files were found in the index
    # but not their repositories): a pair's notebook, and a student's part 1 classes kept in his part 2 project.
    # multi_head_attention is the student's MultiHeadAttention as the student's TransformerBlock builds it, with its
    # per-head layers loaded from slices of W_Q, W_K, W_V and W_O with load_state_dict's size check. (2) Northeastern
    # University's CS 7150 Deep Learning (David Bau), homework 3 "Language model architectures, from RNNs to
    # Transformers" (spring 2025, CS7150/CS7150-Homework-3) and the Silicon Valley campus's copy of it, class
    # assignment CA5.1 (spring 2026, NEU-Silicon-Valley/CS7150-CA5): in a nanoGPT-style CausalSelfAttention (given:
    # c_attn = nn.Linear(n_embd, 3 * n_embd) split at n_embd, heads of n_embd // n_head columns, a 100 x 100 tril
    # buffer, c_proj) the students write the five lines of the non-flash attention; two students, one per offering
    # (a third, ayaazuddin/CS7150-Homework-3, wrote the same lines and was left out). multi_head_attention is
    # CausalSelfAttention with c_attn = [W_Q | W_K | W_V] and c_proj = W_O, block_size 100 (the notebook's
    # TransformerConfig(flash=False) check).
    Port("stats305b_dal548", {
        "multi_head_attention": ("batch_first_only", "always_causal", "causal_buffer_max_tokens",
                                 "mha_head_width_model", "mha_value_width_input"),
    }, notes="hw4.ipynb (commit 378e2c2) Head.forward: `B, T, _ = x.shape` (3-D only), `K = self.head_size`, "
       "`attn_scores = query@key.transpose(-2, -1)`, `causal_mask = self.tril[:T, :T][None, :, :]` (the course's "
       "tril(context_window_size) buffer, CONTEXT_WINDOW_SIZE = 256: more tokens raise), `attn_scores.masked_fill("
       "causal_mask == 0, float('-inf'))` (always causal), `torch.softmax(attn_scores / (K ** 0.5), dim=-1)`, "
       "`attn_weights@value` with the course's `self.value = nn.Linear(embed_size, embed_size, bias=False)` (each "
       "head's values D wide); MultiHeadAttention: `nn.ModuleList([Head(head_size, context_window_size, embed_size) "
       "for _ in range(num_heads)])`, `self.lm_head = nn.Linear(embed_size*num_heads, embed_size)` (W_O must be (H*D, "
       "D)), forward(x) with no mask argument, `B, T, _ = x.shape`, `torch.cat(head_outputs, dim=-1)`, "
       "`head_outputs.view(B, T, -1)`, `self.lm_head(head_outputs)`; TransformerBlock: "
       "`MultiHeadAttention(context_window_size, num_heads, embed_size // num_heads, embed_size)` (keys and queries "
       "D // H wide, scale 1/sqrt(D // H))."),
    Port("stats305b_pyotrrpolitics", {
        "multi_head_attention": ("batch_first_only", "always_causal", "masked_zero", "mha_head_width_model",
                                 "mha_fixed_input_width_384"),
    }, notes="architecture.py (commit 6f73561) MultiHeadAttention: per head `nn.Linear(embed_size, head_size, "
       "bias=False)` key, query and value and an output `nn.Linear(head_size, embed_size, bias=False)`; forward(x) "
       "with no mask argument: `head_outputs = torch.zeros_like(x)`, `torch.einsum('bij, bkj -> bik', "
       "self.query[i](x), self.key[i](x))` (3-D only), `tril = torch.tril(torch.ones(attn_weights.shape))` (always "
       "causal), `attn_weights = (attn_weights * tril)/math.sqrt(self.head_size)` (future scores multiplied by 0, not "
       "set to -inf), `F.softmax(attn_weights, dim=-1)`, `head_outputs + self.output[i](attn_weights @ "
       "self.value[i](x))` (the sum of per-head output projections: right); TransformerBlock: `self.head_size = "
       "embed_size // num_heads` (heads of D // H columns for q, k AND v, scale 1/sqrt(D // H)) and "
       "`MultiHeadAttention(context_window_size, num_heads, self.head_size, embed_size=384)` (the default width in "
       "place of embed_size: every layer takes and gives 384 columns, so any other input width raises)."),
    Port("cs7150_zzfz1", {
        "multi_head_attention": ("batch_first_only", "mha_needs_divisible_width", "qkv_split_at_model_width",
                                 "mha_head_width_model", "mha_value_width", "out_width_is_input", "always_causal",
                                 "causal_buffer_max_tokens"),
    }, notes="notebooks/HW3_1_LanguageModelArchitectures.ipynb (commit dad734d) CausalSelfAttention (given): `assert "
       "config.n_embd % config.n_head == 0`, `B, T, C = x.size()` (3-D only), `q, k, v = "
       "self.c_attn(x).split(self.config.n_embd, dim=2)` (pieces of D columns of [W_Q | W_K | W_V]), `view(B, T, "
       "self.config.n_head, C // self.config.n_head).transpose(1, 2)` for q, k AND v; the student's lines: `att = (q @ "
       "k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))`, `att.masked_fill(self.bias[:, :, :T, :T] == 0, "
       "float(\"-inf\"))` (always causal: no mask argument; the 100 x 100 buffer of block_size = 100: more tokens "
       "raise), `F.softmax(att, dim=-1)`, `y = att @ v`, `y.transpose(1, 2).contiguous().view(B, T, C)` (merged into "
       "the input's width C), then the given `self.c_proj(y)`."),
    # the FRESH_25 ports (helper C): Deep-ML (deep-ml.com), an online platform of graded machine-learning coding
    # problems (a "LeetCode for ML") whose solutions the site syncs to each learner's GitHub repository, <user>/deep-ml,
    # one folder per problem, problems/<number>-<slug>/solution.py (2025-2026). Its attention problems have the learners
    # fill in, in numpy or PyTorch: 53 "Implement Self-Attention Mechanism" (compute_qkv(X, W_q, W_k, W_v),
    # self_attention(Q, K, V): 2-D (seq_len, d) matrices, no mask, no scale argument), 107 "Implement Masked
    # Self-Attention" (masked_attention(Q, K, V, mask), the mask ADDITIVE: the problem's tests pass np.triu(np.ones((6,
    # 6)) * (-np.inf), k=1)), 94 "Implement Multi-Head Attention" (multi_head_attention(Q, K, V, n_heads) on the
    # projected Q, K, V: split into heads, attend, concatenate; no output projection, no mask), 381 "Rotary Positional
    # Embeddings (RoPE)" (apply_rope(x, positions, base=10000.0), x of shape (seq_len, d)) and 376 "KV Cache for
    # Efficient Autoregressive Attention" (kv_cache_attention_step(x_new, W_Q, W_K, W_V, cache) -> (output, (K_cache,
    # V_cache)), cache None at the first step). Four learners' solutions: the first four repositories, in alphabetical
    # order, of those the index holds with all three of problems 53, 94 and 107 in the site's layout (Abhi-saxena1,
    # Asembris, ErozTheForgotten, Haoyan-collab; each also ported on 381 and 376 where the repository has them), a
    # source the corpus had not used. In the ports scaled_dot_product_attention(Q, K, V, mask, scale) runs the learner's
    # self_attention (problem 53) when mask is None and masked_attention (problem 107) otherwise, returns (out, the
    # learner's softmax weights) and never reads `scale`; multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask)
    # is problem 94's compute_qkv(X, W_Q, W_K, W_V) then multi_head_attention(Q, K, V, num_heads) over that file's own
    # self_attention, whose output the contract's W_O then projects (the problem has no output projection: not declared
    # as a mistake), the mask never read; rope(x, positions, base) is apply_rope; decode_step(layer, x, cache,
    # rope_base) is kv_cache_attention_step with layer.query/key/value for x_new @ W_Q/W_K/W_V and the contract's cache
    # as the tuple (cache.keys, cache.values) (None while empty), the learner's new row appended to it, rope_base never
    # read (the problem has no RoPE). Problem 23's softmax (a Python list in, a rounded list out) was not ported: the
    # reference's softmax stays.
    Port("deepml_abhisaxena1", {
        "scaled_dot_product_attention": ("no_batch_support", "mask_bool_added", "scale_argument_ignored"),
        "multi_head_attention": ("no_batch_support", "mha_value_width", "mask_ignored"),
        "rope": ("no_batch_support",),
    }, notes="problems/0053-implement-self-attention-mechanism/solution.py (commit acd833d) self_attention: `(Q @ K.T) "
       "/ torch.sqrt(torch.tensor(dk, dtype=Q.dtype))` (`.T` reverses every axis: leading axes raise), "
       "`torch.softmax(scores, dim=-1)` (right on 2-D), no scale argument; "
       "problems/0107-implement-masked-self-attention/solution.py (commit fea9ed9) masked_attention: `(Q @ K.T)/(dk ** "
       "0.5)`, `sm = scores + mask` (the problem's additive mask: a boolean one adds 1 to the allowed scores and "
       "hides nothing); problems/0094-implement-multi-head-attention/solution.py (commit 3141f54): `dk = (d_model // "
       "n_heads)` with `d_model = Q.shape[-1]` (right for Q and K), `V.reshape(V.shape[0], n_heads, dk)` (the "
       "queries' head width for the values: raises unless d_v = d_k), `Q.reshape(Q.shape[0], n_heads, dk)` (2-D "
       "only), `torch.cat(outputs, dim = -1)`, no mask argument; "
       "problems/0381-rotary-positional-embeddings-rope/solution.py (commit 20682cf) apply_rope: `seq_len, d = "
       "x.shape` (2-D only; right otherwise: interleaved pairs, real positions, base used). The reference's decoding "
       "calls the learner's attention (2-D, no mask) and rope (2-D): right."),
    Port("deepml_asembris", {
        "scaled_dot_product_attention": ("no_batch_support", "softmax_unstable", "mask_bool_added",
                                         "scale_argument_ignored"),
        "multi_head_attention": ("no_batch_support", "mha_value_width", "mask_ignored"),
        "decode_step": ("decode_rope_ignored",),
        "generate_cached": ("decode_rope_ignored",),
    }, callee={"generate_cached": ("decode_step",)},
        notes="problems/0053-implement-self-attention-mechanism/solution.py (commit 96e01c5) self_attention: "
        "`scores=np.dot(Q,K.T)/np.sqrt(K.shape[1])` (`.T` and np.dot: 2-D only; K.shape[1] is d_k there), "
        "`att_w=np.exp(scores)/np.sum(np.exp(scores),axis=1,keepdims=True)` (no max subtracted: large scores overflow "
        "to inf/inf = NaN), no scale argument; problems/0107-implement-masked-self-attention/solution.py (commit "
        "373b4ec) masked_attention: `att_scores+=mask` (the problem's additive mask: a boolean one adds 1 to the "
        "allowed scores and hides nothing), then the max subtracted along axis 1; "
        "problems/0094-implement-multi-head-attention/solution.py (commit 373b4ec): `d_model=K.shape[1]`, "
        "`np.split(Q,n_heads,axis=1)` (likewise K, V: axis 1, the columns of 2-D input only), "
        "`res=np.zeros((K.shape[0], K.shape[1]))` and `res[:,i*d:(i+1)*d]=At` (each value head written into a slot of "
        "the keys' head width: raises unless d_v = d_k), no mask argument; "
        "problems/0376-kv-cache-for-efficient-autoregressive-attention/solution.py (commit f8b8e0a) "
        "kv_cache_attention_step: `np.concatenate((k_cache, K[None, :]), axis=0)`, `(Q @ k_cache.T) / np.sqrt(d_k)`, a "
        "stable softmax (right), no RoPE (rope_base never read). The reference's generate_cached calls the learner's "
        "decode_step."),
    Port("deepml_eroztheforgotten", {
        "scaled_dot_product_attention": ("softmax_axis_fixed", "mask_inverted", "mask_finite_fill",
                                         "scale_argument_ignored"),
        "multi_head_attention": ("no_batch_support", "mha_value_width", "mask_ignored"),
    }, notes="problems/0053-implement-self-attention-mechanism/solution.py (commit 2a7e4f2) self_attention: `Q @ "
       "(K.transpose(-2,-1) / (Q.shape[-1] ** 0.5 ))` (right), `torch.softmax(attention_scores, dim=1)` (axis 1: the "
       "keys only of 2-D scores; of (B, N_q, N_k) scores the queries), no scale argument; "
       "problems/0107-implement-masked-self-attention/solution.py (commit 2a7e4f2) masked_attention: `mask_t = "
       "torch.tensor(mask, dtype=torch.bool)`, `score = score.masked_fill(mask_t, -1e9)` (True = masked; a finite "
       "fill), `torch.softmax(score, dim=-1)`; problems/0094-implement-multi-head-attention/solution.py (commit "
       "9e43d12): `seq_len, d_model = Q.shape` (2-D only), `d_head = d_model // n_heads` for Q, K AND V "
       "(`V.reshape(seq_len, n_heads, d_head)` raises unless d_v = d_k), `head_outputs.reshape(seq_len, d_model)`, no "
       "mask argument. The reference's decoding calls the learner's attention on 2-D q, K, V without a mask: right."),
    Port("deepml_haoyancollab", {
        "scaled_dot_product_attention": ("mask_bool_added", "scale_argument_ignored"),
        "multi_head_attention": ("no_batch_support", "mha_value_width", "mask_ignored"),
        "rope": ("no_batch_support",),
        "decode_step": ("decode_rope_ignored",),
        "generate_cached": ("decode_rope_ignored",),
    }, callee={"generate_cached": ("decode_step",)},
        notes="problems/0053-implement-self-attention-mechanism/solution.py (commit 62983cc) self_attention: `Q @ "
        "np.swapaxes(K, -1, -2)`, `/ np.sqrt(K.shape[-1])`, a stable softmax along axis -1 (right), no scale argument; "
        "problems/0107-implement-masked-self-attention/solution.py (commit e6fc888) masked_attention: `S += mask` (the "
        "problem's additive mask: a boolean one adds 1 to the allowed scores and hides nothing); "
        "problems/0094-implement-multi-head-attention/solution.py (commit d721a64, torch): `seq_len = Q.shape[-2]`, "
        "`d_k = d_model // n_heads` with `d_model = Q.shape[-1]` for Q, K AND V (`V.reshape(seq_len,n_heads,d_k)` "
        "raises unless d_v = d_k), `Q.reshape(seq_len,n_heads,d_k)` and `out.transpose(0,1).reshape(seq_len,d_model)` "
        "(2-D only: leading axes raise, or with one entry are dropped), no mask argument; "
        "problems/0381-rotary-positional-embeddings-rope/solution.py (commit 1d52f06) apply_rope: `x_even = "
        "x[:,0::2]`, `out[:,0::2] = ...` (axis 1: 2-D input only; right otherwise); "
        "problems/0376-kv-cache-for-efficient-autoregressive-attention/solution.py (commit 1fa60b4) "
        "kv_cache_attention_step: `np.vstack([k_cache,k])`, `q @ k_cache.swapaxes(-1,-2) / "
        "np.sqrt(k_cache.shape[-1])`, a stable softmax (right), no RoPE (rope_base never read). The reference's "
        "generate_cached calls the learner's decode_step; its generate_naive the learner's rope and attention on 2-D "
        "arrays (right)."),
    # the FRESH_26 ports (helper A): KAIST (Korea Advanced Institute of Science and Technology), AI605 Deep Learning for
    # NLP, a course the corpus had not used, in two offerings. (1) Spring 2020, assignment 3 (a small BERT pre-trained
    # with masked language modelling and next-sentence prediction, then fine-tuned on IMDB): the course's model.py fixes
    # the signatures, docstrings and asserts, and the students fill in dot_scaled_attention(query, key, value,
    # padding_mask) ("YOUR CODE HERE (~4 lines)"), MultiHeadAttention.forward(value, key, query, padding_mask) ("~6
    # lines", with the course's initializer: d_k = hidden_dim // n_head, bias-free V/K/Q_linear nn.Linear(hidden_dim,
    # n_head * d_k) and O_linear) and TransformerEncoderBlock.forward; every tensor is time-major, (sequence_length,
    # batch_size, d), query, key and value are asserted to share one shape, and the only mask is a (sequence_length,
    # batch_size) padding mask (True for <PAD>) asserted to be the inputs' rows of zeros. Two students: the two
    # repositories the index holds with the assignment's assign3/model.py filled in (GAONNR's and KookHoiKim's; three
    # more students' files were found in the index but not their repositories). In the ports
    # scaled_dot_product_attention passes Q, K and V as they come (read as (sequence_length, batch_size, d)) with the
    # course's padding mask of them, (Q == 0).all(-1), returns (output, the student's softmax) and never reads `mask` or
    # `scale`; multi_head_attention is MultiHeadAttention(X.shape[-1], num_heads).forward(X, X, X, (X == 0).all(-1))
    # (as the encoder block calls it) with the contract's weights loaded into the layers (a weight of another shape
    # raises), the contract's mask never read. (2) Fall 2021, assignment 3 "Transformer" (part 2: after The Annotated
    # Transformer, build Transformer models for toy tasks such as copying digits, code, data and training the students'
    # own): one student, whose PyTorch-compatible MultiheadAttention (batch_first, in_proj_weight chunked in three,
    # attn_mask with torch.nn.MultiheadAttention's polarity) is ported as multi_head_attention with the contract's mask
    # as attn_mask. In all three the reference's decoding and the other functions stay the reference's except where they
    # call the students' attention.
    Port("kaist605_gaonnr", {
        "scaled_dot_product_attention": ("batch_first_only", "sdpa_tokens_first", "needs_same_shape", "needs_square",
                                         "needs_equal_widths", "scale_argument_ignored", "mask_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_tokens_first", "mha_square_weights",
                                 "mha_needs_divisible_width", "mha_head_width_model", "mha_value_width",
                                 "out_width_is_input", "mask_ignored"),
        **{f: ("batch_first_only", "needs_square", "needs_equal_widths") for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",), **decoding("scaled_dot_product_attention")},
        notes="assign3/model.py (commit 86db3ad) dot_scaled_attention (the course's lines): `assert query.shape == "
        "key.shape == value.shape` (n_q == n_k and d_v == d_k), `assert padding_mask.shape == query.shape[:2]`, `_, _, "
        "d_k = query_shape` (3-D only), the padding mask asserted to be the rows of zeros of query, key and value, no "
        "mask or scale argument; the student's lines: `torch.bmm(query.permute(1, 0, 2), key.permute(1, 2, 0)) / "
        "math.sqrt(d_k)` (time-major: axis 0 is the sequence, so the contract's (B, N, d) attends over B), "
        "`scaled_qk[padding_mask.permute(1, 0)] = float('-inf')` (padded keys only), `F.softmax(scaled_qk, dim=2)`, "
        "`torch.bmm(softmax_qk, value.permute(1, 0, 2)).permute(1, 0, 2)`; MultiHeadAttention (the course's "
        "initializer): `assert hidden_dim % n_head == 0`, `self.d_k = hidden_dim // n_head` for V, K and Q, "
        "`nn.Linear(hidden_dim, self.n_head * self.d_k, bias=False)` and `nn.Linear(self.n_head * self.d_k, "
        "hidden_dim, bias=False)` (square weights), forward(value, key, query, padding_mask) with no attention mask: "
        "`seq_length, batch_size, hidden_dim = input_shape` (3-D, tokens first), the student's `self.V_linear(value)."
        "reshape(seq_length, batch_size * self.n_head, self.d_k)` (and K, Q), `torch.repeat_interleave(padding_mask, "
        "self.n_head, dim=1)`, `dot_scaled_attention(lin_Qs, lin_Ks, lin_Vs, repeated_paddings)`, "
        "`self.O_linear(attention.reshape(seq_length, batch_size, self.n_head * self.d_k))` (the input's width). The "
        "reference's decoding passes 2-D q, K and V (one query against the cached keys): the asserts raise."),
    Port("kaist605_kookhoikim", {
        "scaled_dot_product_attention": ("batch_first_only", "sdpa_tokens_first", "needs_same_shape", "needs_square",
                                         "needs_equal_widths", "scale_argument_ignored", "mask_ignored"),
        "multi_head_attention": ("batch_first_only", "mha_tokens_first", "mha_square_weights",
                                 "mha_needs_divisible_width", "mha_head_width_model", "mha_value_width",
                                 "out_width_is_input", "mask_ignored"),
        **{f: ("batch_first_only", "needs_square", "needs_equal_widths") for f in DECODE},
    }, callee={"multi_head_attention": ("scaled_dot_product_attention",), **decoding("scaled_dot_product_attention")},
        notes="assign3/model.py (commit 4ff94b8, with the submission archive assign3_KookhoiKim_20203047.zip) "
        "dot_scaled_attention (the course's lines): `assert query.shape == key.shape == value.shape` (n_q == n_k and "
        "d_v == d_k), `assert padding_mask.shape == query.shape[:2]`, `_, _, d_k = query_shape` (3-D only), the "
        "padding mask asserted to be the rows of zeros of query, key and value, no mask or scale argument; the "
        "student's lines: `torch.bmm(query.permute(1, 0, 2), key.permute(1, 2, 0)) / math.sqrt(d_k)` (time-major: "
        "axis 0 is the sequence, so the contract's (B, N, d) attends over B), `scores[padding_mask.T.unsqueeze(1)."
        "expand(scores.shape)] = float('-inf')` (padded keys only), `scores.softmax(-1)`, `torch.bmm(p_attn, "
        "value.permute(1, 0, 2)).permute(1, 0, 2)`; MultiHeadAttention (the course's initializer): `assert hidden_dim "
        "% n_head == 0`, `self.d_k = hidden_dim // n_head` for V, K and Q, `nn.Linear(hidden_dim, self.n_head * "
        "self.d_k, bias=False)` and `nn.Linear(self.n_head * self.d_k, hidden_dim, bias=False)` (square weights), "
        "forward(value, key, query, padding_mask) with no attention mask: `seq_length, batch_size, hidden_dim = "
        "input_shape` (3-D, tokens first), the student's `self.V_linear(value).view(seq_length, batch_size, "
        "self.n_head, self.d_k).transpose(1, 2)` (and K, Q), `dot_scaled_attention(query.reshape(seq_length, "
        "batch_size * self.n_head, self.d_k), ..., padding_mask.repeat(1, self.n_head)).view(seq_length, self.n_head, "
        "batch_size, self.d_k).transpose(1, 2)`, `self.O_linear(attention.reshape(seq_length, batch_size, -1))` (the "
        "input's width). The reference's decoding passes 2-D q, K and V (one query against the cached keys): the "
        "asserts raise."),
    Port("kaist605_yuneg11", {
        "multi_head_attention": ("batch_first_only", "mha_square_weights", "mha_needs_divisible_width",
                                 "mha_head_width_model", "mha_value_width", "out_width_is_input", "mask_inverted",
                                 "softmax_nan_fully_masked", "needs_shared_mask"),
    }, notes="lib/nn/activation.py (commit 73a6ef1; the same class in transformer.ipynb) MultiheadAttention: "
       "`self.head_dim = embed_dim // num_heads` for q, k AND v, `self.head_dim_scale = math.sqrt(self.head_dim)`, "
       "`assert self.head_dim * num_heads == self.embed_dim`, `self.in_proj_weight = nn.Parameter(torch.empty((3 * "
       "embed_dim, embed_dim)))` cut with `.chunk(3)` and `self.out_proj = nn.Linear(embed_dim, embed_dim)` (square "
       "weights); forward: `batch_size, tgt_len, _ = query.shape` (3-D only), `F.linear(query.transpose(0, 1), w_q, "
       "b_q).reshape(-1, batch_size * self.num_heads, self.head_dim).transpose(0, 1)` (right head split), "
       "`torch.zeros_like(attn_mask, dtype=torch.float).masked_fill_(attn_mask, float(\"-inf\"))` for a boolean "
       "attn_mask (True = masked: torch.nn.MultiheadAttention's polarity), `attn += attn_mask` (in place against the "
       "(batch * heads, N, N) scores: a (B, N, N) mask raises unless B or num_heads is 1), `F.softmax(attn, dim=-1)` "
       "(a row whose keys are all masked is NaN), `attn.transpose(0, 1).reshape(tgt_len, batch_size, self.embed_dim)` "
       "(the input's width), `self.out_proj(attn).transpose(1, 0)`."),
    # the FRESH_26 ports (helper B): two courses the corpus had not used. (1) Texas A&M University's CSCE 421 Machine
    # Learning, assignment #5 "GPT for Text Generation" (spring 2024, fall 2025 and spring 2026 offerings, one
    # skeleton):
    # a conditional decoder-only GPT on the SCAN command-to-action dataset, in which the students fill in the "### YOUR
    # CODE HERE ###" blocks of code/model.py's CSABlock (the model's causal self-attention: given `nn.Linear(n_embd,
    # n_embd)` projections Q_proj/K_proj/V_proj and readout proj, an asserted `n_embd % n_head == 0` and a (1, 1,
    # block_size, block_size) tril buffer; in the spring 2024 skeleton the projections and the buffer are the students'
    # own too) and the generation loop. Three students, one per offering (Rahul-Gonsalves's README names the course; the
    # other two repositories hold the same code/ skeleton). multi_head_attention is CSABlock.forward with n_embd =
    # X.shape[-1], n_head = num_heads, block_size = main.py's --max_len 128, and Q_proj, K_proj, V_proj, proj = W_Q,
    # W_K, W_V, W_O loaded with load_state_dict's size check (each must be (D, D)). (2) The University of Southern
    # California's CSCI 567 Machine Learning, the Vocareum assignment "Transformer Implementation" (spring 2025): a
    # character-level decoder-only transformer on tiny Shakespeare, whose skeleton follows Karpathy's "Let's build GPT"
    # lecture code (Head with nn.Linear(n_embd, head_size) key/query/value and a tril(block_size) buffer,
    # MultiHeadAttention with proj = nn.Linear(head_size * num_heads, n_embd), Block with head_size = n_embd // n_head);
    # the students fill in Head.forward and MultiHeadAttention.forward (TODOs 1-2) among seven TODOs. One student.
    # multi_head_attention is MultiHeadAttention as Block builds it, head h's layers loaded from columns [h*s, (h+1)*s)
    # of W_K, W_Q, W_V (s = D // H), proj from W_O, block_size 32 (train.py). Courses the corpus had not used (the USC
    # one's skeleton is Karpathy's lecture code, a source the corpus had used: the lead may prefer to leave it out).
    Port("tamu421_rahulgonsalves", {
        "multi_head_attention": ("batch_first_only", "always_causal", "causal_buffer_max_tokens",
                                 "mha_needs_divisible_width", "mha_square_weights", "mha_head_width_model",
                                 "mha_value_width", "out_width_is_input"),
    }, notes="code/model.py (commit d654bfd) CSABlock (given): `assert config.n_embd % config.n_head == 0`, "
       "`self.Q_proj = nn.Linear(config.n_embd, config.n_embd)` (likewise K_proj, V_proj and `self.proj`: every "
       "weight (D, D)), `self.register_buffer(\"mask\", torch.tril(torch.ones(config.block_size, "
       "config.block_size)).view(1, 1, config.block_size, config.block_size))` (block_size = max_len = 128: more "
       "tokens raise); the student's forward(x, layer_past=None) (no mask argument: always causal): `B, L, C = "
       "x.size()` (3-D only), `Q = Q.view(B, L, self.n_head, C // self.n_head).transpose(1, 2)` (likewise K and V: "
       "heads of D // H columns), `att = (Q @ K.transpose(-2, -1)) * (1.0 / math.sqrt(K.size(-1)))`, "
       "`att.masked_fill(self.mask[:, :, :L, :L] == 0, float('-inf'))`, `F.softmax(att, dim=-1)`, `y = att @ V`, "
       "`y.transpose(1, 2).contiguous().view(B, L, C)` (merged into the input's width), then the given "
       "`self.proj(y)`."),
    Port("tamu421_shwetimasakshi", {
        "multi_head_attention": ("batch_first_only", "always_causal", "causal_buffer_max_tokens",
                                 "mha_needs_divisible_width", "mha_square_weights", "mha_head_width_model",
                                 "mha_value_width", "out_width_is_input"),
    }, notes="code/model.py (commit 28bf8e0) CSABlock: given `assert config.n_embd % config.n_head == 0` and "
       "`self.proj = nn.Linear(config.n_embd, config.n_embd)`; the student's `self.key = nn.Linear(config.n_embd, "
       "config.n_embd)` (likewise query and value: every weight (D, D)) and `self.register_buffer(\"mask\", "
       "torch.tril(torch.ones(config.block_size, config.block_size)).view(1, 1, config.block_size, "
       "config.block_size))` (block_size = max_len = 128: more tokens raise); forward(x, layer_past=None) (no mask "
       "argument: always causal): `B, L, C = x.size()` (3-D only), `queries = self.query(x).view(B, L, self.n_head, C "
       "// self.n_head).transpose(1, 2)` (likewise keys and values: heads of D // H columns), `torch.matmul(queries, "
       "keys.transpose(-2, -1)) / (keys.size(-1) ** 0.5)`, `attn_save.masked_fill(self.mask[:, :, :L, :L] == 0, "
       "float('-inf'))`, `F.softmax(attn_save, dim=-1)`, `torch.matmul(attn_save_with_dropout, values).transpose(1, "
       "2).contiguous().view(B, L, C)` (merged into the input's width), then the given `self.proj(y)`."),
    Port("tamu421_zocomacc", {
        "multi_head_attention": ("batch_first_only", "always_causal", "causal_buffer_max_tokens",
                                 "mha_needs_divisible_width", "mha_square_weights", "mha_head_width_model",
                                 "mha_value_width", "out_width_is_input"),
    }, notes="code/model.py (commit 89cab62) CSABlock (given): `assert config.n_embd % config.n_head == 0`, "
       "`self.Q_proj = nn.Linear(config.n_embd, config.n_embd)` (likewise K_proj, V_proj and `self.proj`: every "
       "weight (D, D)), the (1, 1, block_size, block_size) tril buffer `self.mask` (block_size = max_len = 128: more "
       "tokens raise); the student's forward(x, layer_past=None) (no mask argument: always causal): `B, L, C = "
       "x.size()` (3-D only), `head_size = C // self.n_head`, `q.view(B, L, self.n_head, head_size).transpose(1, 2)` "
       "(likewise k and v: heads of D // H columns), `att = (q @ k.transpose(-2, -1)) * (1.0 / "
       "math.sqrt(head_size))`, `att.masked_fill(self.mask[:, :, :L, :L] == 0, float('-inf'))`, `F.softmax(att, "
       "dim=-1)`, `y = att @ v`, `y.transpose(1, 2).contiguous().view(B, L, C)` (merged into the input's width), then "
       "the given `self.proj(y)`."),
    Port("usc567_gtm1224", {
        "multi_head_attention": ("batch_first_only", "always_causal", "causal_buffer_max_tokens",
                                 "mha_square_weights", "mha_head_width_model", "mha_value_width"),
    }, notes="Transformer/work/transformer_model.py (commit c0ccb12) Head (given __init__): `self.key = "
       "nn.Linear(n_embd, head_size, bias=False)` (likewise query and value), `torch.tril(torch.ones(block_size, "
       "block_size))` (block_size = 32 in train.py: more tokens raise); the student's Head.forward: `B, T, C = "
       "x.shape` (3-D only), `attention_scores = q @ k.transpose(-2, -1)`, `attention_scores / head_size ** 0.5` with "
       "`head_size = k.size(-1)`, `attention_scores.masked_fill(self.tril[:T, :T] == 0, float('-inf'))` (no mask "
       "argument: always causal), `F.softmax(attention_scores, dim=-1)`, `attention_weights @ v`; MultiHeadAttention "
       "(given): `self.proj = nn.Linear(head_size * num_heads, n_embd)` (W_O must be (H * (D // H), D)); the "
       "student's forward: `torch.cat([h(x) for h in self.heads], dim=-1)`, then `self.proj(out)`; Block (given): "
       "`head_size = n_embd // n_head` (heads of D // H columns for the keys, queries AND values)."),
    # the FRESH_26 ports (helper C): Sorbonne Université's AMAL (Apprentissage MAchine avancé: advanced machine learning
    # and deep learning, Master DAC, Paris; taught in French; not RDFIA, the Master DAC/IMA image course already in the
    # corpus), TME 10 "self-attention" (solutions of 2021-22 to 2023-24): sentiment classification of IMDB reviews with
    # GloVe embeddings and a stack of L = 3 self-attention layers the students write by hand (exercise 1), then residual
    # connections with a layer norm, positional encodings and a CLS token (exercises 2 to 4); the course gives tp10.py's
    # data code (FolderText, get_imdb_data, a collate function that pads each batch and returns the reviews' lengths)
    # and the students write the attention modules and the training loop, a course the corpus had not used. Three teams'
    # solutions (the pairs' partners' repositories hold the same code: pidoux7/AMAL is nour-bouchouchi's partner,
    # CharlesAttend/M2-DAC apparently AEmanuelli's; YacineAll/Advanced-Machine-Learning and Jad-yehya/AMAL hold only the
    # skeleton): AEmanuelli/AMAL_Sorbonne_2024 (SelfAttentionLayer), nour-bouchouchi/M2-AMAL (Self_attention) and
    # CecileGiang/AMAL (Attention1). Each student's layer is one head over the full width (no num_heads); the ports map
    # multi_head_attention to the layer's forward (X @ W for each nn.Linear, biases left out, W_O the layer's output
    # Linear where it has one) and scaled_dot_product_attention to the forward's lines after the projections, returning
    # (out, the student's softmax weights) and never reading `scale`. The reference's decoding calls the student's
    # scaled_dot_product_attention on 2-D arrays, which all three take only as 3-D (B, N, d) batches.
    Port("amal_aemanuelli", {
        "scaled_dot_product_attention": ("batch_first_only", "scale_other", "scale_argument_ignored",
                                         "mask_finite_fill"),
        "multi_head_attention": ("batch_first_only", "heads_not_split", "scale_other", "no_output_projection",
                                 "mha_value_width", "mask_finite_fill"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="AMAL/TME/TME10/src/tp10.py (commit 575b6c8) SelfAttentionLayer: `self.query = nn.Linear(emb_size, "
        "hidden_size)` (likewise key and value: the values as wide as the queries, so a W_V of another width does not "
        "load) and no output layer; forward(x, mask=None): `attention_scores = torch.bmm(q, k.transpose(1, 2)) / "
        "math.sqrt(hidden_size)` (torch.bmm: 3-D only; `hidden_size` is the script's module-level `hidden_size = 128`, "
        "not the layer's width: scale 1/sqrt(128)), `attention_scores.masked_fill(mask == 0, -1e9)` (finite fill), "
        "`F.softmax(attention_scores, dim=-1)`, `weighted = torch.bmm(attention_weights, v)` returned (one head over "
        "the full width, no output projection, W_O never read)."),
    Port("amal_nourbouchouchi", {
        "scaled_dot_product_attention": ("batch_first_only", "softmax_wrong_axis", "scale_argument_ignored",
                                         "mask_ignored"),
        "multi_head_attention": ("batch_first_only", "heads_not_split", "mha_square_weights", "softmax_wrong_axis",
                                 "mask_ignored", "mha_output_relu"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="TME10/src/tp10.py (commit 1a3db93) Self_attention (exercise 1): `self.lin_q = nn.Linear(embed_dim, "
        "embed_dim, bias=False)` (likewise lin_k, lin_v; the output layer `self.lin = nn.Linear(embed_dim, "
        "embed_dim)`: every weight square), `self.soft = nn.Softmax(dim=1)`; forward(x, l) has no mask argument (l: "
        "the reviews' lengths): `self.softmax_masque(self.c + torch.div(q @ torch.transpose(k, dim0=1, dim1=2), "
        "torch.sqrt(self._embed_dim)), l)` (transpose of dims 1 and 2: a 2-D input raises; one head over the full "
        "width), softmax_masque: `mask = torch.arange(x.size(1))[None, :] >= l[:, None]`, `x[mask] = float('-inf')`, "
        "`return self.soft(x)` (softmax over axis 1 of the (B, N_q, N_k) scores: over the queries), then `x = "
        "self.lin( attention @ v )` and `x = self.relu(x)` returned (a ReLU after the output layer)."),
    Port("amal_cecilegiang", {
        "scaled_dot_product_attention": ("batch_first_only", "softmax_wrong_axis", "scale_argument_ignored",
                                         "mask_ignored"),
        "multi_head_attention": ("batch_first_only", "heads_not_split", "mha_square_weights", "softmax_wrong_axis",
                                 "mask_ignored", "mha_input_layer_norm"),
        **{f: ("batch_first_only",) for f in DECODE},
    }, callee=decoding("scaled_dot_product_attention"),
        notes="\"TME 10/src/tp10.py\" (commit 0c8b717) Attention1: `self.Q = nn.Linear(emb_size, emb_size)` (likewise "
        "K, V and the output layer `self.final`: every weight square), `self.softmax = nn.Softmax(dim = 1)`, "
        "`self.layer_norm = nn.LayerNorm(emb_size)`; forward(x) has no mask argument: `x_ = self.layer_norm(x)` (the "
        "input normalised before the projections), `att = ( torch.matmul( self.Q(x_), torch.permute(self.K(x_), (0, "
        "2, 1)) )) / np.sqrt(self.emb_size)` (permute (0, 2, 1): 3-D only; one head over the full width), `att = "
        "self.softmax(att)` (over axis 1 of the (B, N_q, N_k) scores: over the queries), `out = torch.matmul( att, "
        "self.V(x_))`, `return self.final(out)`."),
]
SEED = 21
# drawn once with draw_validation() when the corpus was complete (24 ports), before any port was graded
VALIDATION: tuple[str, ...] = ('cs231n_bert8799', 'cs336_jasonzou0', 'cs336_vyvy3n', 'eecs498_a5_xecades',
                               'idl_hw4_hudsonliu', 'idl_hw4_zk2275', 'tinyllm_fuyufjh', 'tinyllm_sunjnn')
# ported after the diagnosis was developed, graded once for the report; never tuned on. They join the validation
# half (split) but are not part of the recorded draw, which stays over the original 24 ports.
FRESH: tuple[str, ...] = ('cs336_yyindev', 'idl_hw4_bojunli03', 'tinyllm_aeft', 'cse599o_andyub',
                          'eecs498_a5_jerryfishy', 'cs231n_tomer0013')
# a second batch, ported after the first fresh batch was measured; graded once for the report; never tuned on. Like
# FRESH, they join the validation half (split) but not the recorded draw.
FRESH_2: tuple[str, ...] = ('cs224n_a4_zhiweilll', 'minllama_kartashoffv', 'minllama_dingkwan',
                            'llmsys_hw2_aalexchengg', 'uvadl_a2_toyeshc', 'uvadl_a2_lisasaleh')
# a third batch, ported after the second was measured; graded once for the report; never tuned on. Like FRESH and
# FRESH_2, they join the validation half (split) but not the recorded draw.
FRESH_3: tuple[str, ...] = ('cs336_jbmopper', 'cs336_xiaofei9289', 'tinyllm_li0k', 'cs231n_sihan0229',
                            'uvadl_a2_65456u', 'idl_hw4_yufeisong0914')
# a fourth batch, from courses the corpus had not used, ported after the third was measured; graded once for the
# report, then its misses prompted mechanisms (tests/test_students.py). Like the others, they join the validation
# half (split) but not the recorded draw.
FRESH_4: tuple[str, ...] = ('cs7643_a4_mjfox314', 'cs7643_a4_simonanez', 'cs7643_a4_smokeshine', 'ut_cs388_adhr1t',
                            'ut_cs388_dnofulla', 'ut_cs388_raminmohammadi', 'ut_cs388_xxueewa',
                            'umass685_ethanharper81', 'csc413_pa3_maryamebr', 'csc413_pa3_snow0420',
                            'csc413_pa3_markchangliu', 'cmu11667_hw2_tejasgoyal')
# a fifth batch, from a course the corpus had not used (UC San Diego CSE 256, programming assignment 2), ported after
# the fourth was measured; graded once for the report; never tuned on. Like the others, they join the validation half
# (split) but not the recorded draw.
FRESH_5: tuple[str, ...] = ('cse256_hzempire', 'cse256_yaof20', 'cse256_0xarsi', 'cse256_atharv2802',
                            'cse256_lizhecheng02', 'cse256_jefferychen453', 'cse256_mintpancake', 'cse256_runpengj',
                            'cse256_kevinxsn', 'cse256_samyakmehta28')
# a sixth batch of 12, from three courses the corpus had not used (CMU 10-423/623 Generative AI homework 1, UC Berkeley
# CS 182/282A homework 3, TUM IN2346 I2DL exercise 11), ported after the fifth was measured, by sessions that never
# ran the grader on them; graded once for the report; never tuned on. Like the others, they join the validation half
# (split) but not the recorded draw.
FRESH_6: tuple[str, ...] = ('cmu10423_hw1_stablegradients', 'cmu10423_hw1_thomasczhang', 'cmu10423_hw1_vigkneshvr',
                            'cmu10423_hw1_maoliyulin', 'cs182_hw3_00alan', 'cs182_hw3_mattchorlian',
                            'cs182_hw3_martinkim0', 'cs182_hw3_seanlin2000', 'i2dl_ex11_huqiancheng',
                            'i2dl_ex11_sihifu', 'i2dl_ex11_aleksikaa', 'i2dl_ex11_euzil')
# a seventh batch of 12, from three courses the corpus had not used (Brown University CSCI 1470/2470 Deep Learning,
# the transformer homework; the DeepLearning.AI Sequence Models course on Coursera, week 4; Tsinghua University's
# Artificial Neural Network, homework 3), ported after the sixth was measured, by sessions that never ran the grader on
# them; graded once for the report. Like the others, they join the validation half (split) but not the recorded draw.
FRESH_7: tuple[str, ...] = ('brown1470_markfromcd', 'brown1470_zguo47', 'brown1470_ncai25', 'brown1470_xliu205',
                            'coursera_genbravo', 'coursera_alinaveed01', 'coursera_yumiao329', 'coursera_himankunaw',
                            'thuann_hw3_btlmd', 'thuann_hw3_hbxhbx', 'thuann_hw3_zhangchi2004', 'thuann_hw3_zrporz')
# an eighth batch of 11, from three courses the corpus had not used (Johns Hopkins EN.705.743 ChatGPT from Scratch; USC
# EE 641 homework 3; Universite de Montreal / Mila IFT6135 assignment 2), ported after the seventh was measured, by
# sessions that never ran the grader on them; graded once for the report. Like the others, they join the validation
# half (split) but not the recorded draw.
FRESH_8: tuple[str, ...] = ('jhu743_evangronberg', 'jhu743_jonivrapi', 'jhu743_breburd', 'ee641_hw3_alex1792',
                            'ee641_hw3_jifanyao', 'ee641_hw3_arshdeep_usc', 'ee641_hw3_psypao', 'ift6135_wangcr',
                            'ift6135_tannerducharme', 'ift6135_pyranoid', 'ift6135_yuchenhui22314')
# a ninth batch of 11, from three courses the corpus had not used (UC San Diego CSE 234 programming assignment 1;
# Michigan EECS 595 homework 3; Edinburgh NLU+ coursework 2), ported after the eighth was measured, by sessions that
# never ran the grader on them; graded once for the report. Like the others, they join the validation half only.
FRESH_9: tuple[str, ...] = ('cse234_wongsingfo', 'cse234_athe_kunal', 'cse234_jenishhd', 'cse234_toubat',
                            'eecs595_joelyanglq', 'eecs595_virum9520', 'eecs595_tonyyuanmd', 'edinnlu_dhjkim321',
                            'edinnlu_htk55', 'edinnlu_ameertg', 'edinnlu_lixuran')
# a tenth batch of 11, from three courses the corpus had not used (University of Central Missouri CS5710 home
# assignment 5; UIUC CS 440 / ECE 448 MP 9; Technion CS 236781 homework 3), ported after the ninth was measured, by
# sessions that never ran the grader on them; graded once for the report. Like the others, they join the validation
# half only.
FRESH_10: tuple[str, ...] = ('ucm5710_akhil0702', 'ucm5710_menaka_435', 'ucm5710_ramya9440', 'ucm5710_vasudeva4040',
                             'cs440_mp9_steven_chg', 'cs440_mp9_hw46', 'cs440_mp9_yoyoyo_momo', 'cs440_mp9_hauntersgd',
                             'technion236781_danagershon', 'technion236781_almogbs', 'technion236781_itamar3113')
# an eleventh batch of 9, from three sources the corpus had not used (Cornell CS 4782 assignment 2; Toronto CSC401
# assignment 2; Umar Jamil's "Coding LLaMA 2 from scratch"), ported after the tenth was measured, by sessions that never
# ran the grader on them; graded once for the report. Like the others, they join the validation half only.
FRESH_11: tuple[str, ...] = ('cs4782_chadyu9', 'csc401_a2_baaadmtfka', 'csc401_a2_hridanshkhaitan', 'csc401_a2_aldew5',
                             'csc401_a2_andresc44', 'ujllama_poptropicasahil', 'ujllama_hemachandrakolisetty',
                             'ujllama_abdallah197', 'ujllama_sonhm3029')
# a twelfth batch of 12, from three sources the corpus had not used (UMass Lowell COMP 4420/5420 homework 4; Chalmers
# DAT450/DIT247 assignment 2; Raschka's "Build a Large Language Model (From Scratch)"), ported after the eleventh was
# measured, by sessions that never ran the grader on them; graded once for the report. Like the others, they join the
# validation half only.
FRESH_12: tuple[str, ...] = ('umlnlp_matrixcel', 'umlnlp_theakshitapachauri', 'umlnlp_wolferkgit', 'umlnlp_qhddn2643',
                             'dat450_benjamintwp', 'dat450_asdparmeitz', 'dat450_johntr1', 'dat450_peogradin',
                             'llmfs_chaosadmstudent', 'llmfs_parry_97', 'llmfs_ondanaoto', 'llmfs_aenrichus')
# a thirteenth batch of 11, from three sources the corpus had not used (Purdue ECE 60146 homework 9; SUSTech CS310
# lab 8/9; Karpathy's "Neural Networks: Zero to Hero", lecture 7), ported after the twelfth was measured, by sessions
# that never ran the grader on them; graded once for the report. Like the others, they join the validation half only.
FRESH_13: tuple[str, ...] = ('ece60146_akamsali', 'ece60146_dfarache3', 'ece60146_mrsun_97', 'ece60146_souradipp76',
                             'sustech310_qwertyuiop41', 'sustech310_zhang_astrid', 'sustech310_earendelh',
                             'sustech310_haoyanghy', 'zth_atiannnnnn', 'zth_enricobottazzi', 'zth_montehoover')
# a fourteenth batch of 12, from three sources the corpus had not used (UC Berkeley CS 294-158 homework 1; NYCU Deep
# Learning and Practice, the MaskGIT lab; Prince's "Understanding Deep Learning", notebooks 12.1 and 12.2), ported after
# the thirteenth was measured, by sessions that never ran the grader on them; graded once for the report. Like the
# others, they join the validation half only.
FRESH_14: tuple[str, ...] = ('deepul_ronaldln', 'deepul_ebronstein', 'deepul_parmarkrish', 'deepul_kellman',
                             'nycudlp_songriishere', 'nycudlp_youzhe0305', 'nycudlp_kwkwkwkak',
                             'nycudlp_darren2147483647', 'udl_mustachemo', 'udl_anjandhungana', 'udl_joan947',
                             'udl_lfz121')
# a fifteenth batch of 12, from three sources the corpus had not used (Johns Hopkins CS 601.471/671/771 homework 1;
# DTU 02456 Deep Learning, the transformer notebook's causal masks; ARENA's W1D2 "Build your own transformer"), ported
# after the fourteenth was measured, by sessions that never ran the grader on them; graded once for the report. Like
# the others, they join the validation half only.
FRESH_15: tuple[str, ...] = ('jhu771_prabhav55221', 'jhu771_kira265', 'jhu771_tommix626', 'jhu771_adoptedirelia',
                             'dtu02456_maplewarrior', 'dtu02456_chuhanzhou', 'dtu02456_mathiasdamsgaard',
                             'dtu02456_rong_jet', 'arena_jbloomaus', 'arena_derpyplops', 'arena_ojh31',
                             'arena_curt_tigges')
# a sixteenth batch of 11, from three sources the corpus had not used (NYU DS-GA 1011 homework 2 and assignment 2;
# IIIT Hyderabad's Advanced NLP, assignment 1; readers' own code for Dive into Deep Learning's attention chapter),
# ported after the fifteenth was measured, by sessions that never ran the grader on them; graded once for the report.
# Like the others, they join the validation half only.
FRESH_16: tuple[str, ...] = ('dsga1011_alexman2000', 'dsga1011_chenxinnnn', 'dsga1011_anubhav3084',
                             'dsga1011_sakshisanghavi', 'iiitanlp_gvarun01', 'iiitanlp_thefool18',
                             'iiitanlp_paarthjindal', 'iiitanlp_akr_end', 'd2l_chenkehan21', 'd2l_dodododddo',
                             'd2l_boxcounter')
# a seventeenth batch of 8, from two sources the corpus had not used (iCEV's Topicos em Inteligencia Artificial, Lab
# P1-04; readers' own re-implementations of The Annotated Transformer), ported after the sixteenth was measured, by
# sessions that never ran the grader on them (a third found no US course with enough students' own code); graded once
# for the report. Like the others, they join the validation half only.
FRESH_17: tuple[str, ...] = ('icev_joaoneto694', 'icev_wendrilxx', 'icev_mathcast', 'icev_md_sa0', 'annotated_bstars',
                             'annotated_vnnm404', 'annotated_mikecvet', 'annotated_sebastianscherer88')
# an eighteenth batch of 12, from three sources the corpus had not used (UC Berkeley CS 288 assignment 2, spring 2026;
# Charles University NPFL114/NPFL138 Deep Learning, tagger_transformer; learners of Datawhale's Happy-LLM), ported after
# the seventeenth was measured, by sessions that never ran the grader on them; graded once for the report. Like the
# others, they join the validation half only.
FRESH_18: tuple[str, ...] = ('cs288_andersvestrum', 'cs288_lru0612', 'cs288_jorgbergh', 'cs288_cylee0815',
                             'npfl_teriyakirice', 'npfl_koleckar', 'npfl_ranoraraku', 'npfl_vitusmaximus',
                             'happyllm_zshzsh666', 'happyllm_whu_zk', 'happyllm_decade_qiu', 'happyllm_clayden886')
# a nineteenth batch, from sources the corpus had not used (helper A: Bar-Ilan University's Deep Learning for
# Texts and Sequences, "Small Transformer Language Models"; helper B: UCLA ECE 239AS, spring 2024, project 3;
# helper C: Nanjing University's LLM course, its open-llm-assignments 1, 3 and 4), ported after the eighteenth
# was measured, by sessions that never ran the grader on them; graded once for the report. Like the others,
# they join the validation half only.
FRESH_19: tuple[str, ...] = ('biudl_rseck', 'biudl_hailzanbar', 'biudl_shacharsl97', 'biudl_itamarbachar',
                             'ece239as_reuben_r', 'ece239as_krish1925', 'ece239as_awong0811', 'ece239as_zxz_math',
                             'njullm_huskykingdom', 'njullm_juvendybala', 'njullm_chaos0621', 'njullm_zykrichard')
# a twentieth batch, from sources the corpus had not used (helper A: Heinrich Heine University Düsseldorf's
# practical course "Implementing Transformer Models"; helper B: Unicamp's IA024, deep neural networks for NLP;
# helper C: the Hanghae99 Plus AI bootcamp, week 2), ported after the nineteenth was measured, by sessions that never
# ran the grader on them; graded once for the report. Like the others, they join the validation half only.
FRESH_20: tuple[str, ...] = ('hhu_73gon', 'hhu_kasparsenft', 'hhu_floriankark', 'hhu_smtlmoel', 'hhu_leonardebinger',
                             'unicamp_eltoncn', 'unicamp_matheusrdg', 'unicamp_mfbosco', 'unicamp_carisio',
                             'hanghae_jw3215', 'hanghae_tolluset', 'hanghae_hyeondata', 'hanghae_jhtwiz',
                             'hanghae_choi0619')
# a twenty-first batch, from sources the corpus had not used (helper A: ENSAE Paris's third-year Deep Learning
# course, session 4 "mini GPT"; VK Education's LLM course, autumn 2024, homework 2; helper B: Holberton School's
# machine learning project 0x11 "Attention"; helper C: DeepLearning.AI's NLP Specialization, course 4, week 2, the
# Trax "Transformer Summarizer"), ported after the twentieth was measured, by sessions that never ran the grader on
# them; graded once for the report. Like the others, they join the validation half only.
FRESH_21: tuple[str, ...] = ('ensae_elenalmg', 'ensae_kirscher', 'vkllm_angrysigma', 'vkllm_khudv',
                             'vkllm_mikhailkomkin', 'holberton_edigiraldo', 'holberton_jdarangop', 'holberton_bendosch',
                             'holberton_joaquin2000zz', 'courseranlp_marzaj1278', 'courseranlp_tranlam076',
                             'courseranlp_edumunozsala', 'courseranlp_shashankrapolu07')
# a twenty-second batch, from sources the corpus had not used (helper A: Sorbonne Université's RDFIA, practical 1-e
# "Transformers"; Sharif University of Technology's Deep Learning, spring 2024, homework 3 "simple-GPT"; helper B: Duke
# University's ECE 661, fall 2021, homework 3 lab 2; Yale University's CPSC 477/577, spring 2025, homework 2; helper C:
# the NeetCode ML course's graded problems), ported after the twenty-first was measured, by sessions that never ran the
# grader on them; graded once for the report. Like the others, they join the validation half only.
FRESH_22: tuple[str, ...] = ('rdfia_mrbigoudi', 'rdfia_jacqueline202726', 'rdfia_moms2700', 'sharifdl_mehdijmlkh',
                             'duke661_libo1023', 'duke661_yangcao28', 'yale477_yuanchang0314', 'neetcode_hiba_msm',
                             'neetcode_jameswei', 'neetcode_upangshu1234', 'neetcode_sadir06')
# a twenty-third batch, from sources the corpus had not used (helper A: IIT Madras's DA6401 Introduction to Deep
# Learning, 2026, assignment 3; helper B: Harvard's CS 2281R, fall 2024, problem set 0; Tufts CS 137, assignment 4;
# helper C: the TensorTonic platform's "Cracking Inference" problems), ported after the twenty-second was measured, by
# sessions that never ran the grader on them; graded once for the report. Like the others, they join the validation
# half only.
FRESH_23: tuple[str, ...] = ('da6401_aaradhyadashore', 'da6401_abdallahdula', 'da6401_adarsh1769',
                             'da6401_adityatamras', 'harvard2281r_kentonishi', 'harvard2281r_inakineitor',
                             'harvard2281r_aneeshers', 'tufts137_awesombird', 'tensortonic_kurushi',
                             'tensortonic_nikheshkumar', 'tensortonic_trisi51', 'tensortonic_tajinderpalsingh61')
# a twenty-fourth batch, from sources the corpus had not used (helper A: IIT Delhi's COL772 Natural Language
# Processing, spring 2026, "Hindi LM from Scratch"; helper B: CU Boulder's CSCI 7000 VLA Foundations for Robotics,
# spring 2026, "Scratch-1"; helper C: the mid-term assignment of 大模型基础与应用, autumn 2025), ported after the
# twenty-third was measured, by sessions that never ran the grader on them; graded once for the report. Like the
# others, they join the validation half only.
FRESH_24: tuple[str, ...] = ('col772_vijaybalajin', 'col772_krkarthik2006', 'col772_bansalyash', 'col772_adityaaa2511',
                             'col772_quinoxy', 'cuvla_antonyzhao', 'cuvla_calliejones', 'cuvla_jdvakil', 'cuvla_jimmy',
                             'bjtullm_hanbaor', 'bjtullm_neverleave111', 'bjtullm_gaby11235', 'bjtullm_fyuanzheng')
# a twenty-fifth batch, from sources the corpus had not used (helper A: IIIT Delhi's CSE556 Natural Language
# Processing, winter 2025, "Transformer from scratch"; helper B: Stanford's STATS 305B, winter 2025, homework 4, and
# Northeastern's CS 7150 Deep Learning, spring 2025, homework 3; helper C: the Deep-ML practice platform's attention
# problems), ported after the twenty-fourth was measured, by sessions that never ran the grader on them; graded once
# for the report. Like the others, they join the validation half only.
FRESH_25: tuple[str, ...] = ('iiitd556_rishipendyala', 'iiitd556_harsh22201', 'iiitd556_shobhitraj1',
                             'iiitd556_aytida1165', 'iiitd556_rahisenpai', 'stats305b_dal548',
                             'stats305b_pyotrrpolitics', 'cs7150_zzfz1', 'deepml_abhisaxena1', 'deepml_asembris',
                             'deepml_eroztheforgotten', 'deepml_haoyancollab')
# a twenty-sixth batch, from courses the corpus had not used (helper A: KAIST's AI605 Deep Learning for NLP,
# spring 2020 and fall 2021; helper B: Texas A&M's CSCE 421 Machine Learning, assignment 5, and USC's CSCI 567
# Machine Learning; helper C: Sorbonne Université's AMAL, TME 10 "self-attention"), ported after the
# twenty-fifth was measured, by sessions that never ran the grader on them; graded once for the report. Like the
# others, they join the validation half only.
FRESH_26: tuple[str, ...] = ('kaist605_gaonnr', 'kaist605_kookhoikim', 'kaist605_yuneg11', 'tamu421_rahulgonsalves',
                             'tamu421_shwetimasakshi', 'tamu421_zocomacc', 'usc567_gtm1224', 'amal_aemanuelli',
                             'amal_nourbouchouchi', 'amal_cecilegiang')
# every batch ported after the draw, in the order they were ported (each reported alone by the evaluation)
BATCHES: dict[str, tuple[str, ...]] = {"fresh": FRESH, "fresh_2": FRESH_2, "fresh_3": FRESH_3, "fresh_4": FRESH_4,
                                       "fresh_5": FRESH_5, "fresh_6": FRESH_6, "fresh_7": FRESH_7,
                                       "fresh_8": FRESH_8, "fresh_9": FRESH_9, "fresh_10": FRESH_10,
                                       "fresh_11": FRESH_11, "fresh_12": FRESH_12, "fresh_13": FRESH_13,
                                       "fresh_14": FRESH_14, "fresh_15": FRESH_15,
                                       "fresh_16": FRESH_16, "fresh_17": FRESH_17,
                                       "fresh_18": FRESH_18, "fresh_19": FRESH_19, "fresh_20": FRESH_20,
                                       "fresh_21": FRESH_21, "fresh_22": FRESH_22,
                                       "fresh_23": FRESH_23, "fresh_24": FRESH_24, "fresh_25": FRESH_25,
                                       "fresh_26": FRESH_26}


def draw_validation(names: Iterable[str]) -> tuple[str, ...]:
    """A third of the ports (at least 6), drawn at random with SEED from the sorted names."""
    names = sorted(names)
    return tuple(sorted(random.Random(SEED).sample(names, k=max(6, len(names) // 3))))


def split(port: Port) -> str:
    return "validation" if port.name in VALIDATION or any(port.name in b for b in BATCHES.values()) else "development"
