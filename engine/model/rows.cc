// RunRows (rows.h): per layer, the token-wise steps of tcpu_transformer_layer_bf16 (RunLayer)
// with each projection batched into one linear::RunRows call over the block's rows. The
// token-wise steps (norms, RoPE, quantization, epilogues, SwiGLU, residuals) run their rows on
// the thread pool: each row's arithmetic is its own, so the bits do not depend on who runs it,
// and at 8 workers they were half of a prefill block's time on the calling thread alone.
#include "engine/model/rows.h"

#include <atomic>
#include <cmath>
#include <cstring>

#include "kernels/gemv/gemv_w8a8.h"
#include "kernels/linear/linear.h"
#include "kernels/rope/rope_table.h"
#include "kernels/transformer_layer/layer_steps.h"
#include "runtime/check.h"
#include "runtime/scratch_arena.h"
#include "runtime/thread_pool.h"
#include "tcpu/attention.h"
#include "tcpu/rms_norm.h"
#include "tcpu/swiglu.h"

namespace tcpu::model {
namespace {

// Byte offsets of the block's buffers in the workspace.
struct Plan {
  int64_t h = 0;     // bf16 [block][hidden]
  int64_t x = 0;     // bf16 [block][hidden] (normed)
  int64_t q = 0;     // bf16 [block][q_rows]
  int64_t k = 0;     // bf16 [block][kv_rows]
  int64_t v = 0;     // bf16 [block][kv_rows]
  int64_t attn = 0;  // bf16 [block][q_rows]
  int64_t o = 0;     // bf16 [block][hidden]
  int64_t g = 0;     // bf16 [block][intermediate]
  int64_t u = 0;     // bf16 [block][intermediate]
  int64_t xq = 0;    // int8 [block][max k]
  int64_t sx = 0;    // fp32 [block] activation scales
  int64_t rope = 0;  // rope::Table [block]: each row's rotation, built once for every layer
  int64_t acc = 0;   // fp32: the layers' sums before bf16 and bias, or kLogitRows of logits
  int64_t total = 0;
};

int64_t Max(int64_t a, int64_t b) { return a > b ? a : b; }

// Runs row(t) for t < rows on the thread pool; row returns a tcpu_status. A row that fails
// fails in its argument checks, before writing anything, and records its detail on the thread
// that ran it: so the first failing row runs again here, where the caller reads the detail.
template <typename Row>
int ForEachRow(int64_t rows, const Row& row) {
  std::atomic<int64_t> first_failed{rows};
  const int st = ParallelFor(rows, 1, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      if (row(t) == TCPU_OK) continue;
      int64_t seen = first_failed.load(std::memory_order_relaxed);
      while (t < seen && !first_failed.compare_exchange_weak(seen, t)) {
      }
      return;
    }
  });
  if (st != TCPU_OK) return st;
  const int64_t failed = first_failed.load();
  return failed < rows ? row(failed) : TCPU_OK;
}

bool MakePlan(const tcpu_model_weights& m, Plan* p) {
  const tcpu_layer_shape& s = m.shape;
  const int64_t q_rows = s.num_heads * s.head_dim, kv_rows = s.num_kv_heads * s.head_dim;
  const int64_t max_k = Max(Max(s.hidden, q_rows), s.intermediate);
  int64_t total = 0;
  auto slot = [&](int64_t elements, int64_t bytes_each, int64_t* offset) {
    int64_t bytes = 0;
    if (!CheckedMul(elements, bytes_each, &bytes) || bytes > INT64_MAX - 64 - total) return false;
    *offset = total;
    total += AlignScratch(bytes);
    return true;
  };
  const int64_t b = kRowBlock;
  int64_t logit_elements = 0;
  if (!CheckedMul(kLogitRows, m.vocab_size, &logit_elements)) return false;
  const int64_t acc_elements = Max(b * Max(max_k, kv_rows), logit_elements);
  const bool ok =
      slot(b * s.hidden, 2, &p->h) && slot(b * s.hidden, 2, &p->x) && slot(b * q_rows, 2, &p->q) &&
      slot(b * kv_rows, 2, &p->k) && slot(b * kv_rows, 2, &p->v) && slot(b * q_rows, 2, &p->attn) &&
      slot(b * s.hidden, 2, &p->o) && slot(b * s.intermediate, 2, &p->g) &&
      slot(b * s.intermediate, 2, &p->u) && slot(b * max_k, 1, &p->xq) && slot(b, 4, &p->sx) &&
      slot(b, sizeof(rope::Table), &p->rope) && slot(acc_elements, 4, &p->acc);
  p->total = total;
  return ok;
}

// One block's activations, quantized row by row as the decode step does.
class Block {
 public:
  Block(const Plan& p, uint8_t* ws, int64_t rows)
      : rows_(rows),
        kernel_(gemv::Bf16W8Kernel()),
        xq_(reinterpret_cast<int8_t*>(ws + p.xq)),
        sx_(reinterpret_cast<float*>(ws + p.sx)),
        acc_(reinterpret_cast<float*>(ws + p.acc)) {}

  // Quantizes rows of x (row stride k) into xq (row stride k).
  int Quantize(const uint16_t* x, int64_t k) {
    return ForEachRow(rows_, [&](int64_t t) -> int {
      int8_t* q = xq_ + t * k;
      const float absmax = kernel_.absmax_bf16(x + t * k, k);
      if (absmax == 0.0f) {  // as QuantizeActivation: outputs 0 (plus any bias)
        std::memset(q, 0, static_cast<size_t>(k));
        sx_[t] = 0.0f;
        return TCPU_OK;
      }
      kernel_.quantize_bf16(x + t * k, k, 127.0f / absmax, q);
      sx_[t] = absmax / 127.0f;
      return TCPU_OK;
    });
  }

  // y[t][:n] = the linear layer (int8 or int4) on row t of the quantized x (k columns), bf16,
  // with the GEMV's epilogue (and bias): the fp32 values of linear::RunRows, then one rounding
  // (int8: in the GEMM's tile epilogue).
  int Linear(const tcpu_linear& w, const float* bias, int64_t n, int64_t k, uint16_t* y) {
    linear::LinearView view;
    if (int s = linear::View("rows", w.packed, w.scales, n, k, &view); s != TCPU_OK) return s;
    return linear::RunRowsBf16(view, xq_, sx_, rows_, k, bias, y, acc_);
  }

  // The lm_head on the quantized rows: fp32 logits [rows][n], the decode step's epilogue.
  int Logits(const tcpu_linear& w, int64_t n, int64_t k, float* logits) {
    linear::LinearView view;
    if (int s = linear::View("rows: lm_head", w.packed, w.scales, n, k, &view); s != TCPU_OK) {
      return s;
    }
    return linear::RunRows(view, xq_, sx_, rows_, k, logits);
  }

 private:
  const int64_t rows_;
  const gemv::GemvKernel& kernel_;
  int8_t* xq_;
  float* sx_;
  float* acc_;
};

// Row t's cache and position.
RowCache CacheOf(const RowCache* caches, RowAttention attention, int64_t t) {
  if (attention == RowAttention::kIndependent) return caches[t];
  RowCache c = caches[0];
  c.position += t;
  return c;
}

}  // namespace

int64_t RowsWorkspaceSize(const tcpu_model_weights& model) {
  Plan p;
  if (!MakePlan(model, &p)) {
    return Fail(TCPU_ERR_SIZE_OVERFLOW, "rows: the workspace size overflows int64");
  }
  return p.total;
}

int64_t RowsGemmScratchSize(const tcpu_model_weights& model) {
  const tcpu_layer_shape& s = model.shape;
  const int64_t max_k = Max(Max(s.hidden, s.num_heads * s.head_dim), s.intermediate);
  return linear::RowsScratchBytes(kRowBlock, max_k);
}

float* RowLogitsBuffer(const tcpu_model_weights& model, uint8_t* ws) {
  Plan p;
  MakePlan(model, &p);  // sized at open
  return reinterpret_cast<float*>(ws + p.acc);
}

int RunRows(const tcpu_model_weights& m, const int32_t* tokens, const RowCache* caches,
            int64_t rows, RowAttention attention, uint8_t* ws) {
  Plan p;
  MakePlan(m, &p);  // sized at open
  const tcpu_layer_shape& s = m.shape;
  const int64_t hidden = s.hidden, d = s.head_dim, heads = s.num_heads;
  const int64_t kv_heads = s.num_kv_heads, inter = s.intermediate;
  const int64_t q_rows = heads * d, kv_rows = kv_heads * d;
  const float eps = s.rms_norm_eps;
  const float sm_scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(d)));
  auto bf16_at = [&](int64_t offset) { return reinterpret_cast<uint16_t*>(ws + offset); };
  uint16_t *h = bf16_at(p.h), *x = bf16_at(p.x), *q = bf16_at(p.q), *k = bf16_at(p.k);
  uint16_t *v = bf16_at(p.v), *attn = bf16_at(p.attn), *o = bf16_at(p.o);
  uint16_t *g = bf16_at(p.g), *u = bf16_at(p.u);

  Block block(p, ws, rows);
  for (int64_t t = 0; t < rows; ++t) transformer::EmbedToken(m, tokens[t], h + t * hidden);
  // Each row's rotation, for every layer's queries and keys (as the decode step builds it once).
  rope::Table* rope_tables = reinterpret_cast<rope::Table*>(ws + p.rope);
  for (int64_t t = 0; t < rows; ++t) {
    transformer::BuildRope(s, CacheOf(caches, attention, t).position, &rope_tables[t]);
  }
  for (int64_t layer = 0; layer < m.num_layers; ++layer) {
    const tcpu_layer_weights& w = m.layers[layer];
    // Row t's caches of this layer, and the stride between its heads.
    auto layer_cache = [&](const RowCache& c, uint16_t* all) {
      return all + layer * kv_heads * c.capacity * d;
    };
    // Attention block.
    int st = ForEachRow(rows, [&](int64_t t) -> int {
      return tcpu_rms_norm_bf16(h + t * hidden, w.input_norm, x + t * hidden, hidden, eps);
    });
    if (st != TCPU_OK || (st = block.Quantize(x, hidden)) != TCPU_OK ||
        (st = block.Linear(w.q_proj, w.q_bias, q_rows, hidden, q)) != TCPU_OK ||
        (st = block.Linear(w.k_proj, w.k_bias, kv_rows, hidden, k)) != TCPU_OK ||
        (st = block.Linear(w.v_proj, w.v_bias, kv_rows, hidden, v)) != TCPU_OK) {
      return st;
    }
    st = ForEachRow(rows, [&](int64_t t) -> int {
      uint16_t* qt = q + t * q_rows;
      uint16_t* kt = k + t * kv_rows;
      if (w.q_norm != nullptr) {
        for (int64_t i = 0; i < heads; ++i) {
          if (int r = tcpu_rms_norm_bf16(qt + i * d, w.q_norm, qt + i * d, d, eps); r != TCPU_OK) {
            return r;
          }
        }
        for (int64_t i = 0; i < kv_heads; ++i) {
          if (int r = tcpu_rms_norm_bf16(kt + i * d, w.k_norm, kt + i * d, d, eps); r != TCPU_OK) {
            return r;
          }
        }
      }
      const RowCache c = CacheOf(caches, attention, t);
      rope::Apply(rope_tables[t], qt, heads);
      rope::Apply(rope_tables[t], kt, kv_heads);
      const int64_t head_stride = c.capacity * d;
      uint16_t* kc = layer_cache(c, c.k_cache);
      uint16_t* vc = layer_cache(c, c.v_cache);
      for (int64_t gi = 0; gi < kv_heads; ++gi) {
        std::memcpy(kc + gi * head_stride + c.position * d, kt + gi * d, d * sizeof(uint16_t));
        std::memcpy(vc + gi * head_stride + c.position * d, v + t * kv_rows + gi * d,
                    d * sizeof(uint16_t));
      }
      return TCPU_OK;
    });
    if (st != TCPU_OK) return st;
    if (attention == RowAttention::kOneSequence) {
      // Causal: token t sees positions <= its own, each query bit-identical to its decode.
      const RowCache& c = caches[0];
      const int64_t head_stride = c.capacity * d;
      st = tcpu_flash_attn_prefill_bf16(q, layer_cache(c, c.k_cache), layer_cache(c, c.v_cache),
                                        attn, rows, heads, kv_heads, d, c.position, head_stride, d,
                                        head_stride, d, sm_scale);
    } else {
      // Each row on its own cache: the decode step's call (itself spread over the pool).
      for (int64_t t = 0; t < rows && st == TCPU_OK; ++t) {
        const RowCache& c = caches[t];
        const int64_t head_stride = c.capacity * d;
        st = tcpu_flash_attn_decode_bf16(
            q + t * q_rows, layer_cache(c, c.k_cache), layer_cache(c, c.v_cache), attn + t * q_rows,
            heads, kv_heads, d, c.position + 1, head_stride, d, head_stride, d, sm_scale);
      }
    }
    if (st != TCPU_OK) return st;
    // The residual and the next norm are one row's work: one parallel region for both.
    auto residual_and_norm = [&](const uint16_t* norm) {
      return ForEachRow(rows, [&](int64_t t) -> int {
        transformer::AddResidual(h + t * hidden, o + t * hidden, hidden, s.residual_scale);
        return norm == nullptr
                   ? TCPU_OK
                   : tcpu_rms_norm_bf16(h + t * hidden, norm, x + t * hidden, hidden, eps);
      });
    };
    if ((st = block.Quantize(attn, q_rows)) != TCPU_OK ||
        (st = block.Linear(w.o_proj, w.o_bias, hidden, q_rows, o)) != TCPU_OK ||
        // MLP block (fused_mlp::Run's steps).
        (st = residual_and_norm(w.post_attention_norm)) != TCPU_OK ||
        (st = block.Quantize(x, hidden)) != TCPU_OK ||
        (st = block.Linear(w.gate_proj, nullptr, inter, hidden, g)) != TCPU_OK ||
        (st = block.Linear(w.up_proj, nullptr, inter, hidden, u)) != TCPU_OK) {
      return st;
    }
    st = ForEachRow(rows, [&](int64_t t) -> int {
      return tcpu_swiglu_bf16(g + t * inter, u + t * inter, g + t * inter, inter);
    });
    if (st != TCPU_OK || (st = block.Quantize(g, inter)) != TCPU_OK ||
        (st = block.Linear(w.down_proj, nullptr, hidden, inter, o)) != TCPU_OK ||
        (st = residual_and_norm(nullptr)) != TCPU_OK) {
      return st;
    }
  }
  return TCPU_OK;
}

int RowLogits(const tcpu_model_weights& m, int64_t first, int64_t count, uint8_t* ws,
              float* logits) {
  Plan p;
  MakePlan(m, &p);  // sized at open
  const int64_t hidden = m.shape.hidden;
  const uint16_t* h = reinterpret_cast<const uint16_t*>(ws + p.h) + first * hidden;
  uint16_t* x = reinterpret_cast<uint16_t*>(ws + p.x);
  int st = ForEachRow(count, [&](int64_t t) -> int {
    const int r = tcpu_rms_norm_bf16(h + t * hidden, m.final_norm, x + t * hidden, hidden,
                                     m.shape.rms_norm_eps);
    if (r == TCPU_OK) transformer::DivideLogitInput(m, x + t * hidden);
    return r;
  });
  if (st != TCPU_OK) return st;
  Block head(p, ws, count);
  if ((st = head.Quantize(x, hidden)) != TCPU_OK) return st;
  return head.Logits(m.lm_head, m.vocab_size, hidden, logits);
}

}  // namespace tcpu::model
