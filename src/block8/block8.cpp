// The 8x8 block engine's public entry points: argument checks, the walk over planes and strips of
// 8 rows (direct on the caller's memory when the layout allows, through a padded strip buffer
// otherwise), kernel selection, quantization tables.
#include "dctx/block8.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "block8/constants.hpp"
#include "block8/kernels.hpp"
#include "block8/scalar.hpp"

namespace dctx {
namespace block8 {

const AanTables& aan_tables() {
  static const AanTables t = [] {
    AanTables r{};
    for (int u = 0; u < 8; ++u)
      for (int v = 0; v < 8; ++v) {
        const double s = kAanScale[u] * kAanScale[v];
        r.fwd.set(u, v, static_cast<float>(1.0 / (8.0 * s)));
        r.inv.set(u, v, static_cast<float>(s / 8.0));
      }
    return r;
  }();
  return t;
}

}  // namespace block8

namespace {

using block8::QuantF32;
using block8::QuantI16;

std::size_t round_up8(std::size_t n) { return (n + 7) & ~std::size_t{7}; }

/// A validated view as a batch of planes.
template <class T>
struct Planes {
  T* data = nullptr;
  std::size_t count = 1;  // planes
  std::ptrdiff_t ps = 0;  // plane stride
  std::size_t rows = 0, cols = 0;
  std::ptrdiff_t rs = 0, cs = 0;
  T* plane(std::size_t b) const { return data + std::ptrdiff_t(b) * ps; }
  T* at(std::size_t b, std::size_t r, std::size_t c) const {
    return plane(b) + std::ptrdiff_t(r) * rs + std::ptrdiff_t(c) * cs;
  }
};

std::string dims(std::size_t r, std::size_t c) {
  return std::to_string(r) + " x " + std::to_string(c);
}

template <class T>
Planes<T> to_planes(const ArrayView<T>& v, const std::string& fn, const char* name, bool output) {
  if (v.rank() != 2 && v.rank() != 3)
    throw Error(fn + ": " + name +
                " must be a 2D plane or a 3D batch of planes, got a view of rank " +
                std::to_string(v.rank()));
  Planes<T> p;
  const std::size_t o = v.rank() - 2;
  p.data = v.data();
  p.count = o ? v.shape()[0] : 1;
  p.ps = o ? v.strides()[0] : 0;
  p.rows = v.shape()[o];
  p.cols = v.shape()[o + 1];
  p.rs = v.strides()[o];
  p.cs = v.strides()[o + 1];
  if (v.size() != 0 && v.data() == nullptr)
    throw Error(fn + ": " + name + " has no data (null pointer)");
  if (output && v.size() > 1)
    for (std::size_t i = 0; i < v.rank(); ++i)
      if (v.shape()[i] > 1 && v.strides()[i] == 0)
        throw Error(fn + ": " + name + " has a zero stride on axis " + std::to_string(i) +
                    " (outputs must not overlap themselves)");
  return p;
}

/// The lowest and highest element a batch of planes touches (nulls when it is empty).
template <class T>
std::pair<const T*, const T*> span(const Planes<T>& p) {
  const T* lo = p.data;
  const T* hi = p.data;
  const std::pair<std::size_t, std::ptrdiff_t> dims[3] = {
      {p.count, p.ps}, {p.rows, p.rs}, {p.cols, p.cs}};
  for (auto [n, s] : dims) {
    if (n == 0) return {nullptr, nullptr};
    (s < 0 ? lo : hi) += std::ptrdiff_t(n - 1) * s;
  }
  return {lo, hi};
}

/// The input viewed where it can be read while the output is written: itself, unless the two
/// views overlap without being the same view of one type (then a compact copy in `keep`).
template <class T, class TO>
Planes<const T> readable_input(const Planes<const T>& in, const Planes<TO>& out,
                               std::vector<T>& keep) {
  const auto [ilo, ihi] = span(in);
  const auto [olo, ohi] = span(out);
  bool same = false;
  if constexpr (std::is_same_v<T, TO>)
    same = in.data == out.data && in.count == out.count && in.rows == out.rows &&
           in.cols == out.cols && in.ps == out.ps && in.rs == out.rs && in.cs == out.cs;
  const auto byte = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
  if (!ilo || !olo || same || byte(ihi) + sizeof(T) <= byte(olo) ||
      byte(ohi) + sizeof(TO) <= byte(ilo))
    return in;
  keep.resize(in.count * in.rows * in.cols);
  Planes<const T> c{keep.data(),
                    in.count,
                    std::ptrdiff_t(in.rows * in.cols),
                    in.rows,
                    in.cols,
                    std::ptrdiff_t(in.cols),
                    1};
  for (std::size_t b = 0; b < in.count; ++b)
    for (std::size_t r = 0; r < in.rows; ++r)
      for (std::size_t k = 0; k < in.cols; ++k)
        keep[(b * in.rows + r) * in.cols + k] = *in.at(b, r, k);
  return c;
}

template <class TI, class TO>
void check_batch(const Planes<TI>& in, const Planes<TO>& out, const std::string& fn,
                 std::size_t in_rank, std::size_t out_rank) {
  if (in_rank != out_rank)
    throw Error(fn + ": in has rank " + std::to_string(in_rank) + " but out has rank " +
                std::to_string(out_rank));
  if (in.count != out.count)
    throw Error(fn + ": in holds " + std::to_string(in.count) + " planes but out holds " +
                std::to_string(out.count));
}

void check_multiple8(std::size_t rows, std::size_t cols, const std::string& fn, const char* what,
                     bool allow_replicate_hint) {
  if (rows % 8 || cols % 8)
    throw Error(fn + ": " + what + " of " + dims(rows, cols) +
                " samples: sides must be multiples of 8" +
                (allow_replicate_hint ? " (or ask for Block8Edge::Replicate)" : ""));
}

int thread_count(int nthreads, std::size_t work) {
  std::size_t n = nthreads == 0 ? std::max(1u, std::thread::hardware_concurrency())
                                : static_cast<std::size_t>(nthreads);
  return static_cast<int>(std::max<std::size_t>(1, std::min(n, work)));
}

/// Run fn(begin, end) -> uint64 over [0, n) on up to `threads` threads; returns the sum.
template <class Fn>
std::uint64_t parallel_sum(std::size_t n, int threads, Fn fn) {
  if (threads <= 1 || n <= 1) return fn(std::size_t{0}, n);
  std::vector<std::thread> pool;
  std::vector<std::uint64_t> sums(threads, 0);
  std::exception_ptr error;
  std::mutex error_mutex;
  for (int t = 0; t < threads; ++t) {
    const std::size_t b = n * t / threads, e = n * (t + 1) / threads;
    pool.emplace_back([&, t, b, e] {
      try {
        sums[t] = fn(b, e);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
      }
    });
  }
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
  std::uint64_t s = 0;
  for (auto v : sums) s += v;
  return s;
}

/// Work on a region of `rows` x `cols` (multiples of 8) with unit column stride; returns zeros.
template <class T, class TO = T>
using Work = std::uint64_t (*)(const T*, std::ptrdiff_t, TO*, std::ptrdiff_t, std::size_t,
                               std::size_t, const void*);

/// Apply `work` to every plane: the padded plane is pr x pc (multiples of 8). `in` may be smaller
/// (its last row/column is replicated), `out` may be smaller (cropped).
template <class T, class TO = T>
std::uint64_t run_planes(const Planes<const T>& in, const Planes<TO>& out, std::size_t pr,
                         std::size_t pc, Work<T, TO> work, const void* ctx, int nthreads) {
  if (pr == 0 || pc == 0 || in.count == 0) return 0;
  const std::size_t strips = pr / 8;
  const bool direct = in.cs == 1 && out.cs == 1 && in.cols == pc && out.cols == pc;
  const std::size_t ndirect = direct ? std::min(in.rows, out.rows) / 8 : 0;
  const int threads = thread_count(nthreads, in.count * strips);
  return parallel_sum(in.count * strips, threads, [&](std::size_t g0, std::size_t g1) {
    std::vector<T> strip;
    std::vector<TO> strip_out;  // when the types differ (else the work runs in place on strip)
    std::uint64_t zeros = 0;
    for (std::size_t g = g0; g < g1;) {
      const std::size_t b = g / strips, s = g % strips;
      const std::size_t end = std::min(strips, s + (g1 - g));
      if (s < ndirect) {  // run straight on the caller's memory
        const std::size_t e = std::min(end, ndirect);
        zeros += work(in.at(b, 8 * s, 0), in.rs, out.at(b, 8 * s, 0), out.rs, 8 * (e - s), pc, ctx);
        g += e - s;
        continue;
      }
      // Through an 8 x pc buffer: gather with edge replication, transform, scatter with cropping.
      strip.resize(8 * pc);
      for (std::size_t i = 0; i < 8; ++i) {
        const std::size_t r = std::min(8 * s + i, in.rows - 1);
        const T* src = in.at(b, r, 0);
        for (std::size_t c = 0; c < pc; ++c)
          strip[i * pc + c] = src[std::ptrdiff_t(std::min(c, in.cols - 1)) * in.cs];
      }
      TO* result = nullptr;
      if constexpr (std::is_same_v<T, TO>) {
        result = strip.data();
      } else {
        strip_out.resize(8 * pc);
        result = strip_out.data();
      }
      zeros += work(strip.data(), std::ptrdiff_t(pc), result, std::ptrdiff_t(pc), 8, pc, ctx);
      for (std::size_t i = 0; i < 8 && 8 * s + i < out.rows; ++i) {
        TO* dst = out.at(b, 8 * s + i, 0);
        for (std::size_t c = 0; c < out.cols; ++c)
          dst[std::ptrdiff_t(c) * out.cs] = result[i * pc + c];
      }
      ++g;
    }
    return zeros;
  });
}

// ---- Work functions per kernel

template <class T, class Block>
void for_each_block(const T* in, std::ptrdiff_t is, T* out, std::ptrdiff_t os, std::size_t rows,
                    std::size_t cols, Block block) {
  double x[64], y[64];
  for (std::size_t r = 0; r < rows; r += 8)
    for (std::size_t c = 0; c < cols; c += 8) {
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
          x[8 * i + j] = in[std::ptrdiff_t(r + i) * is + std::ptrdiff_t(c + j)];
      block(x, y);
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
          out[std::ptrdiff_t(r + i) * os + std::ptrdiff_t(c + j)] = static_cast<T>(y[8 * i + j]);
    }
}

double round_half_away(double x) { return x < 0 ? -std::floor(-x + 0.5) : std::floor(x + 0.5); }
double saturate(double x, double lo, double hi) { return std::min(std::max(x, lo), hi); }

std::uint64_t ref_forward_f32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                              std::size_t rows, std::size_t cols, const void*) {
  for_each_block(in, is, out, os, rows, cols, block8::reference_forward_block);
  return 0;
}
std::uint64_t ref_inverse_f32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                              std::size_t rows, std::size_t cols, const void*) {
  for_each_block(in, is, out, os, rows, cols, block8::reference_inverse_block);
  return 0;
}
std::uint64_t ref_forward_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                              std::ptrdiff_t os, std::size_t rows, std::size_t cols, const void*) {
  for_each_block(in, is, out, os, rows, cols, [](const double* x, double* y) {
    block8::reference_forward_block(x, y);
    for (int k = 0; k < 64; ++k) y[k] = saturate(round_half_away(y[k]), -32768, 32767);
  });
  return 0;
}
std::uint64_t ref_inverse_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                              std::ptrdiff_t os, std::size_t rows, std::size_t cols, const void*) {
  for_each_block(in, is, out, os, rows, cols, [](const double* x, double* y) {
    block8::reference_inverse_block(x, y);
    for (int k = 0; k < 64; ++k)
      y[k] = saturate(round_half_away(y[k]), block8::kInvOutMin, block8::kInvOutMax);
  });
  return 0;
}
std::uint64_t fast_forward_f32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                               std::size_t rows, std::size_t cols, const void*) {
  block8::fast_forward_f32(in, is, out, os, rows, cols);
  return 0;
}
std::uint64_t fast_inverse_f32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                               std::size_t rows, std::size_t cols, const void*) {
  block8::fast_inverse_f32(in, is, out, os, rows, cols);
  return 0;
}
std::uint64_t fast_roundtrip_f32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                                 std::size_t rows, std::size_t cols, const void* q) {
  return block8::fast_roundtrip_f32(in, is, out, os, rows, cols, *static_cast<const QuantF32*>(q));
}
std::uint64_t int_forward_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                              std::ptrdiff_t os, std::size_t rows, std::size_t cols, const void*) {
  block8::int_forward_i16(in, is, out, os, rows, cols);
  return 0;
}
std::uint64_t int_inverse_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                              std::ptrdiff_t os, std::size_t rows, std::size_t cols, const void*) {
  block8::int_inverse_i16(in, is, out, os, rows, cols);
  return 0;
}
std::uint64_t int_roundtrip_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                const void* q) {
  return block8::int_roundtrip_i16(in, is, out, os, rows, cols, *static_cast<const QuantI16*>(q));
}
// int16 data through the float Fast kernel: widen a strip, transform, round and saturate.
template <bool kInverse>
std::uint64_t fast_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                       std::ptrdiff_t os, std::size_t rows, std::size_t cols, const void*) {
  std::vector<float> buf(8 * cols);
  const float lo = kInverse ? float(block8::kInvOutMin) : -32768.0f;
  const float hi = kInverse ? float(block8::kInvOutMax) : 32767.0f;
  for (std::size_t r = 0; r < rows; r += 8) {
    for (std::size_t i = 0; i < 8; ++i)
      for (std::size_t c = 0; c < cols; ++c)
        buf[i * cols + c] = in[std::ptrdiff_t(r + i) * is + std::ptrdiff_t(c)];
    if (kInverse)
      block8::fast_inverse_f32(buf.data(), std::ptrdiff_t(cols), buf.data(), std::ptrdiff_t(cols),
                               8, cols);
    else
      block8::fast_forward_f32(buf.data(), std::ptrdiff_t(cols), buf.data(), std::ptrdiff_t(cols),
                               8, cols);
    for (std::size_t i = 0; i < 8; ++i)
      for (std::size_t c = 0; c < cols; ++c)
        out[std::ptrdiff_t(r + i) * os + std::ptrdiff_t(c)] = static_cast<std::int16_t>(
            std::min(std::max(block8::scalar::RoundHalfAway(buf[i * cols + c]), lo), hi));
  }
  return 0;
}

// ---- Quantization, natural layout (row-major 8x8 table)

// The element definitions (block8/scalar.hpp).
using block8::scalar::DequantizeSaturated;
using block8::scalar::DequantizeValue;
using block8::scalar::QuantizeValue;
std::int16_t quantize_value(float c, int q) {
  return QuantizeValue(c, 1.0f / static_cast<float>(q));
}
std::int16_t quantize_value(std::int16_t c, int q) { return QuantizeValue(c, q); }
float dequantize_value(std::int16_t l, int q) { return DequantizeValue(l, static_cast<float>(q)); }
std::int16_t dequantize_value_i16(std::int16_t l, int q) { return DequantizeSaturated(l, q); }

/// Separate-pass composition (forward, requantize, inverse) for kernels without a fused kernel.
template <class T>
struct Composed {
  Work<T> forward, inverse;
  const QuantTable* table;
};
template <class T>
std::uint64_t composed_roundtrip(const T* in, std::ptrdiff_t is, T* out, std::ptrdiff_t os,
                                 std::size_t rows, std::size_t cols, const void* ctx) {
  const auto& k = *static_cast<const Composed<T>*>(ctx);
  std::vector<T> buf(8 * cols);  // one strip of 8 rows at a time
  const auto bs = std::ptrdiff_t(cols);
  std::uint64_t zeros = 0;
  for (std::size_t r0 = 0; r0 < rows; r0 += 8) {
    k.forward(in + std::ptrdiff_t(r0) * is, is, buf.data(), bs, 8, cols, nullptr);
    for (std::size_t r = 0; r < 8; ++r)
      for (std::size_t c = 0; c < cols; ++c) {
        T& v = buf[r * cols + c];
        const int q = k.table->q[8 * r + c % 8];
        const std::int16_t level = quantize_value(v, q);
        zeros += level == 0;
        if constexpr (std::is_same_v<T, float>)
          v = dequantize_value(level, q);
        else
          v = dequantize_value_i16(level, q);
      }
    k.inverse(buf.data(), bs, out + std::ptrdiff_t(r0) * os, os, 8, cols, nullptr);
  }
  return zeros;
}

std::uint64_t fast_forward_quantize_f32(const float* in, std::ptrdiff_t is, std::int16_t* out,
                                        std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                        const void* q) {
  return block8::fast_forward_quantize_f32(in, is, out, os, rows, cols,
                                           *static_cast<const QuantF32*>(q));
}
std::uint64_t fast_dequantize_inverse_f32(const std::int16_t* in, std::ptrdiff_t is, float* out,
                                          std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                          const void* q) {
  block8::fast_dequantize_inverse_f32(in, is, out, os, rows, cols,
                                      *static_cast<const QuantF32*>(q));
  return 0;
}
std::uint64_t int_forward_quantize_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                       std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                       const void* q) {
  return block8::int_forward_quantize_i16(in, is, out, os, rows, cols,
                                          *static_cast<const QuantI16*>(q));
}
std::uint64_t int_dequantize_inverse_i16(const std::int16_t* in, std::ptrdiff_t is,
                                         std::int16_t* out, std::ptrdiff_t os, std::size_t rows,
                                         std::size_t cols, const void* q) {
  block8::int_dequantize_inverse_i16(in, is, out, os, rows, cols, *static_cast<const QuantI16*>(q));
  return 0;
}

/// The encoder's and decoder's halves as separate passes through a strip of 8 rows, for kernels
/// without a fused kernel (Reference; Fast on int16 data): the definition the fused ones equal.
template <class T>
struct ComposedHalf {
  Work<T> transform;  // forward for the encoder, inverse for the decoder
  const QuantTable* table;
};
template <class T>
std::uint64_t composed_forward_quantize(const T* in, std::ptrdiff_t is, std::int16_t* out,
                                        std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                        const void* ctx) {
  const auto& k = *static_cast<const ComposedHalf<T>*>(ctx);
  std::vector<T> buf(8 * cols);
  std::uint64_t zeros = 0;
  for (std::size_t r0 = 0; r0 < rows; r0 += 8) {
    k.transform(in + std::ptrdiff_t(r0) * is, is, buf.data(), std::ptrdiff_t(cols), 8, cols,
                nullptr);
    for (std::size_t r = 0; r < 8; ++r)
      for (std::size_t c = 0; c < cols; ++c) {
        const std::int16_t level = quantize_value(buf[r * cols + c], k.table->q[8 * r + c % 8]);
        zeros += level == 0;
        out[std::ptrdiff_t(r0 + r) * os + std::ptrdiff_t(c)] = level;
      }
  }
  return zeros;
}
template <class T>
std::uint64_t composed_dequantize_inverse(const std::int16_t* in, std::ptrdiff_t is, T* out,
                                          std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                          const void* ctx) {
  const auto& k = *static_cast<const ComposedHalf<T>*>(ctx);
  std::vector<T> buf(8 * cols);
  for (std::size_t r0 = 0; r0 < rows; r0 += 8) {
    for (std::size_t r = 0; r < 8; ++r)
      for (std::size_t c = 0; c < cols; ++c) {
        const std::int16_t level = in[std::ptrdiff_t(r0 + r) * is + std::ptrdiff_t(c)];
        const int q = k.table->q[8 * r + c % 8];
        if constexpr (std::is_same_v<T, float>)
          buf[r * cols + c] = dequantize_value(level, q);
        else
          buf[r * cols + c] = dequantize_value_i16(level, q);
      }
    k.transform(buf.data(), std::ptrdiff_t(cols), out + std::ptrdiff_t(r0) * os, os, 8, cols,
                nullptr);
  }
  return 0;
}

Block8Kernel resolve(Block8Kernel k, bool int16, const std::string& fn) {
  if (k == Block8Kernel::Auto) return int16 ? Block8Kernel::Int16 : Block8Kernel::Fast;
  if (k == Block8Kernel::Int16 && !int16)
    throw Error(fn +
                ": the Int16 kernel transforms int16 data; float data takes Reference or Fast");
  if (k != Block8Kernel::Reference && k != Block8Kernel::Fast && k != Block8Kernel::Int16)
    throw Error(fn + ": unknown kernel " + std::to_string(int(k)));
  return k;
}

template <class T>
Work<T> forward_work(Block8Kernel k) {
  if constexpr (std::is_same_v<T, float>) {
    return k == Block8Kernel::Reference ? ref_forward_f32 : fast_forward_f32;
  } else {
    return k == Block8Kernel::Reference ? ref_forward_i16
           : k == Block8Kernel::Fast    ? fast_i16<false>
                                        : int_forward_i16;
  }
}
template <class T>
Work<T> inverse_work(Block8Kernel k) {
  if constexpr (std::is_same_v<T, float>) {
    return k == Block8Kernel::Reference ? ref_inverse_f32 : fast_inverse_f32;
  } else {
    return k == Block8Kernel::Reference ? ref_inverse_i16
           : k == Block8Kernel::Fast    ? fast_i16<true>
                                        : int_inverse_i16;
  }
}

void check_options(const Block8Options& o, const std::string& fn) {
  if (o.edge != Block8Edge::Error && o.edge != Block8Edge::Replicate)
    throw Error(fn + ": unknown edge mode " + std::to_string(int(o.edge)));
  if (o.nthreads < 0)
    throw Error(fn + ": nthreads must be >= 0, got " + std::to_string(o.nthreads));
}

/// A call's validated arguments: the input and output planes, and the kernel for transforms.
template <class TI, class TO>
struct Call {
  Planes<const TI> in;
  Planes<TO> out;
  Block8Kernel kernel = Block8Kernel::Auto;
};
/// The views as batches of planes with the same count.
template <class TI, class TO>
Call<TI, TO> check_views(const ConstView<TI>& inv, const View<TO>& outv, const std::string& fn,
                         const char* in_name, const char* out_name) {
  Call<TI, TO> c{to_planes(inv, fn, in_name, false), to_planes(outv, fn, out_name, true)};
  check_batch(c.in, c.out, fn, inv.rank(), outv.rank());
  return c;
}
/// What every transform entry point checks; `int16` says which data type picks the kernel.
template <class TI, class TO>
Call<TI, TO> check_call(const ConstView<TI>& inv, const View<TO>& outv, const Block8Options& o,
                        const std::string& fn, bool int16, const char* in_name,
                        const char* out_name) {
  const auto k = resolve(o.kernel, int16, fn);
  check_options(o, fn);
  auto c = check_views(inv, outv, fn, in_name, out_name);
  c.kernel = k;
  return c;
}
/// Samples in, coefficients (or levels) out: the output has the padded shape of the input, which
/// must be a multiple of 8 unless edges are replicated. Returns the padded (rows, cols).
template <class TI, class TO>
std::pair<std::size_t, std::size_t> forward_shape(const Call<TI, TO>& c, const Block8Options& o,
                                                  const std::string& fn, const char* out_name,
                                                  const char* what) {
  if (o.edge == Block8Edge::Error) check_multiple8(c.in.rows, c.in.cols, fn, "plane", true);
  const std::size_t pr = round_up8(c.in.rows), pc = round_up8(c.in.cols);
  if (c.out.rows != pr || c.out.cols != pc)
    throw Error(fn + ": " + out_name + " is " + dims(c.out.rows, c.out.cols) + " but the " + what +
                " of a " + dims(c.in.rows, c.in.cols) + " plane need " + dims(pr, pc));
  return {pr, pc};
}
/// Coefficients (or levels) in, samples out: the input is a multiple of 8, the output the same
/// size or, with replicated edges, cropped by up to 7 rows and columns.
template <class TI, class TO>
void inverse_shape(const Call<TI, TO>& c, const Block8Options& o, const std::string& fn,
                   const char* what) {
  const auto& in = c.in;
  const auto& out = c.out;
  check_multiple8(in.rows, in.cols, fn, (std::string(what) + " plane").c_str(), false);
  const bool same = out.rows == in.rows && out.cols == in.cols;
  const bool cropped = round_up8(out.rows) == in.rows && round_up8(out.cols) == in.cols;
  if (!same && !(cropped && o.edge == Block8Edge::Replicate))
    throw Error(fn + ": out is " + dims(out.rows, out.cols) + " but the " + what + "s are " +
                dims(in.rows, in.cols) +
                (cropped ? " (a cropped output needs Block8Edge::Replicate)" : ""));
}

template <class T>
void forward_impl(const ConstView<T>& inv, const View<T>& outv, const Block8Options& o,
                  const char* name) {
  const std::string fn = name;
  const auto c = check_call(inv, outv, o, fn, std::is_same_v<T, std::int16_t>, "in", "out");
  const auto [pr, pc] = forward_shape(c, o, fn, "out", "coefficients");
  std::vector<T> keep;
  run_planes<T>(readable_input(c.in, c.out, keep), c.out, pr, pc, forward_work<T>(c.kernel),
                nullptr, o.nthreads);
}

template <class T>
void inverse_impl(const ConstView<T>& inv, const View<T>& outv, const Block8Options& o,
                  const char* name) {
  const std::string fn = name;
  const auto c = check_call(inv, outv, o, fn, std::is_same_v<T, std::int16_t>, "in", "out");
  inverse_shape(c, o, fn, "coefficient");
  std::vector<T> keep;
  run_planes<T>(readable_input(c.in, c.out, keep), c.out, c.in.rows, c.in.cols,
                inverse_work<T>(c.kernel), nullptr, o.nthreads);
}

/// The kernels' constants for `table`: transposed (entry [v][u] for coefficient (u, v)) for the
/// fused kernels, which quantize between their passes, natural for quantization alone.
template <class Quant, bool kTransposed>
Quant quant_constants(const QuantTable& table) {
  Quant q;
  for (std::size_t u = 0; u < 8; ++u)
    for (std::size_t v = 0; v < 8; ++v) {
      if constexpr (kTransposed)
        q.set(v, u, table.q[8 * u + v]);
      else
        q.set(u, v, table.q[8 * u + v]);
    }
  return q;
}

/// quant_constants, kept per thread for the last table seen: a codec calling block by block with
/// one table builds the constants (64 reciprocals, or 64 magic numbers for int16) once instead of
/// on every call.
template <class Quant, bool kTransposed = true>
const Quant& prepared_quant(const QuantTable& table) {
  struct Entry {
    QuantTable table;
    Quant quant;
    bool valid = false;
  };
  thread_local Entry last;
  if (!last.valid || !(last.table == table)) {
    last.quant = quant_constants<Quant, kTransposed>(table);
    last.table = table;
    last.valid = true;
  }
  return last.quant;
}

/// Runs the kernel's fused SIMD work (`simd`: Fast on float data, Int16 on int16, with their
/// prepared constants) or, for the other kernels, the separate passes composed strip by strip.
template <class TI, class TO>
std::uint64_t run_fused(const Planes<const TI>& src, const Planes<TO>& out, std::size_t pr,
                        std::size_t pc, Block8Kernel k, const QuantTable& table, Work<TI, TO> simd,
                        Work<TI, TO> composed, const void* composed_ctx, int nthreads) {
  constexpr bool kFloat = std::is_same_v<TI, float> || std::is_same_v<TO, float>;
  if (k == (kFloat ? Block8Kernel::Fast : Block8Kernel::Int16)) {
    using Quant = std::conditional_t<kFloat, QuantF32, QuantI16>;
    return run_planes<TI, TO>(src, out, pr, pc, simd, &prepared_quant<Quant>(table), nthreads);
  }
  return run_planes<TI, TO>(src, out, pr, pc, composed, composed_ctx, nthreads);
}

template <class T>
Block8Stats roundtrip_impl(const ConstView<T>& inv, const View<T>& outv, const QuantTable& table,
                           const Block8Options& o) {
  static const std::string fn = "block8_roundtrip_quantized";  // built once: longer than SSO
  const auto c = check_call(inv, outv, o, fn, std::is_same_v<T, std::int16_t>, "in", "out");
  table.validate();
  if (c.out.rows != c.in.rows || c.out.cols != c.in.cols)
    throw Error(fn + ": out is " + dims(c.out.rows, c.out.cols) + " but in is " +
                dims(c.in.rows, c.in.cols));
  if (o.edge == Block8Edge::Error) check_multiple8(c.in.rows, c.in.cols, fn, "plane", true);
  const std::size_t pr = round_up8(c.in.rows), pc = round_up8(c.in.cols);
  Work<T> simd;
  if constexpr (std::is_same_v<T, float>)
    simd = fast_roundtrip_f32;
  else
    simd = int_roundtrip_i16;
  const Composed<T> composed{forward_work<T>(c.kernel), inverse_work<T>(c.kernel), &table};
  std::vector<T> keep;
  Block8Stats stats;
  stats.coefficients = std::uint64_t(c.in.count) * pr * pc;
  stats.zeros = run_fused<T, T>(readable_input(c.in, c.out, keep), c.out, pr, pc, c.kernel, table,
                                simd, composed_roundtrip<T>, &composed, o.nthreads);
  return stats;
}

template <class T>
Block8Stats forward_quantized_impl(const ConstView<T>& inv, const View<std::int16_t>& levelsv,
                                   const QuantTable& table, const Block8Options& o) {
  static const std::string fn = "block8_forward_quantized";  // built once: longer than SSO
  const auto c = check_call(inv, levelsv, o, fn, std::is_same_v<T, std::int16_t>, "in", "levels");
  table.validate();
  const auto [pr, pc] = forward_shape(c, o, fn, "levels", "levels");
  Work<T, std::int16_t> simd;
  if constexpr (std::is_same_v<T, float>)
    simd = fast_forward_quantize_f32;
  else
    simd = int_forward_quantize_i16;
  const ComposedHalf<T> composed{forward_work<T>(c.kernel), &table};
  std::vector<T> keep;
  Block8Stats stats;
  stats.coefficients = std::uint64_t(c.in.count) * pr * pc;
  stats.zeros =
      run_fused<T, std::int16_t>(readable_input(c.in, c.out, keep), c.out, pr, pc, c.kernel, table,
                                 simd, composed_forward_quantize<T>, &composed, o.nthreads);
  return stats;
}

template <class T>
void inverse_dequantized_impl(const ConstView<std::int16_t>& levelsv, const View<T>& outv,
                              const QuantTable& table, const Block8Options& o) {
  static const std::string fn = "block8_inverse_dequantized";  // built once: longer than SSO
  const auto c = check_call(levelsv, outv, o, fn, std::is_same_v<T, std::int16_t>, "levels", "out");
  table.validate();
  inverse_shape(c, o, fn, "level");
  Work<std::int16_t, T> simd;
  if constexpr (std::is_same_v<T, float>)
    simd = fast_dequantize_inverse_f32;
  else
    simd = int_dequantize_inverse_i16;
  const ComposedHalf<T> composed{inverse_work<T>(c.kernel), &table};
  std::vector<std::int16_t> keep;
  run_fused<std::int16_t, T>(readable_input(c.in, c.out, keep), c.out, c.in.rows, c.in.cols,
                             c.kernel, table, simd, composed_dequantize_inverse<T>, &composed,
                             o.nthreads);
}

/// A SIMD quantization kernel (kernels.hpp: quantize_f32, ...) on a region with unit column stride.
template <class TI, class TO>
using Elementwise = void (*)(const TI*, std::ptrdiff_t, TO*, std::ptrdiff_t, std::size_t,
                             std::size_t, const QuantF32&);

/// Quantize or dequantize every element with its table entry: `simd` on planes with unit column
/// stride, f(value, Q) element by element otherwise (both give the same values).
template <class TI, class TO, class Fn>
void elementwise_blocks(const ConstView<TI>& inv, const View<TO>& outv, const QuantTable& table,
                        const std::string& fn, Elementwise<TI, TO> simd, Fn f) {
  table.validate();
  const auto c = check_views(inv, outv, fn, "in", "out");
  check_multiple8(c.in.rows, c.in.cols, fn, "coefficient plane", false);
  if (c.out.rows != c.in.rows || c.out.cols != c.in.cols)
    throw Error(fn + ": out is " + dims(c.out.rows, c.out.cols) + " but in is " +
                dims(c.in.rows, c.in.cols));
  std::vector<TI> keep;
  const auto in = readable_input(c.in, c.out, keep);
  const auto& out = c.out;
  if (in.cs == 1 && out.cs == 1) {
    const QuantF32& q = prepared_quant<QuantF32, false>(table);
    for (std::size_t b = 0; b < in.count; ++b)
      simd(in.plane(b), in.rs, out.plane(b), out.rs, in.rows, in.cols, q);
    return;
  }
  for (std::size_t b = 0; b < in.count; ++b)
    for (std::size_t r = 0; r < in.rows; ++r)
      for (std::size_t k = 0; k < in.cols; ++k)
        *out.at(b, r, k) = f(*in.at(b, r, k), table.q[8 * (r % 8) + k % 8]);
}

const QuantTable kNvidia = {{32, 33, 51, 81, 66, 39, 34, 17,  //
                             33, 36, 48, 47, 28, 23, 12, 12,  //
                             51, 48, 47, 28, 23, 12, 12, 12,  //
                             81, 47, 28, 23, 12, 12, 12, 12,  //
                             66, 28, 23, 12, 12, 12, 12, 12,  //
                             39, 23, 12, 12, 12, 12, 12, 12,  //
                             34, 12, 12, 12, 12, 12, 12, 12,  //
                             17, 12, 12, 12, 12, 12, 12, 12}};
// ITU-T T.81 Annex K, tables K.1 (luminance) and K.2 (chrominance), row-major (not zigzag).
const QuantTable kJpegLuma = {{16, 11, 10, 16, 24,  40,  51,  61,   //
                               12, 12, 14, 19, 26,  58,  60,  55,   //
                               14, 13, 16, 24, 40,  57,  69,  56,   //
                               14, 17, 22, 29, 51,  87,  80,  62,   //
                               18, 22, 37, 56, 68,  109, 103, 77,   //
                               24, 35, 55, 64, 81,  104, 113, 92,   //
                               49, 64, 78, 87, 103, 121, 120, 101,  //
                               72, 92, 95, 98, 112, 100, 103, 99}};
const QuantTable kJpegChroma = {{17, 18, 24, 47, 99, 99, 99, 99,  //
                                 18, 21, 26, 66, 99, 99, 99, 99,  //
                                 24, 26, 56, 99, 99, 99, 99, 99,  //
                                 47, 66, 99, 99, 99, 99, 99, 99,  //
                                 99, 99, 99, 99, 99, 99, 99, 99,  //
                                 99, 99, 99, 99, 99, 99, 99, 99,  //
                                 99, 99, 99, 99, 99, 99, 99, 99,  //
                                 99, 99, 99, 99, 99, 99, 99, 99}};

}  // namespace

void block8_forward(const ConstView<float>& in, const View<float>& out,
                    const Block8Options& options) {
  forward_impl<float>(in, out, options, "block8_forward");
}
void block8_inverse(const ConstView<float>& in, const View<float>& out,
                    const Block8Options& options) {
  inverse_impl<float>(in, out, options, "block8_inverse");
}
void block8_forward(const ConstView<std::int16_t>& in, const View<std::int16_t>& out,
                    const Block8Options& options) {
  forward_impl<std::int16_t>(in, out, options, "block8_forward");
}
void block8_inverse(const ConstView<std::int16_t>& in, const View<std::int16_t>& out,
                    const Block8Options& options) {
  inverse_impl<std::int16_t>(in, out, options, "block8_inverse");
}

Block8Stats block8_roundtrip_quantized(const ConstView<float>& in, const View<float>& out,
                                       const QuantTable& table, const Block8Options& options) {
  return roundtrip_impl<float>(in, out, table, options);
}
Block8Stats block8_roundtrip_quantized(const ConstView<std::int16_t>& in,
                                       const View<std::int16_t>& out, const QuantTable& table,
                                       const Block8Options& options) {
  return roundtrip_impl<std::int16_t>(in, out, table, options);
}

Block8Stats block8_forward_quantized(const ConstView<float>& in, const View<std::int16_t>& levels,
                                     const QuantTable& table, const Block8Options& options) {
  return forward_quantized_impl<float>(in, levels, table, options);
}
Block8Stats block8_forward_quantized(const ConstView<std::int16_t>& in,
                                     const View<std::int16_t>& levels, const QuantTable& table,
                                     const Block8Options& options) {
  return forward_quantized_impl<std::int16_t>(in, levels, table, options);
}
void block8_inverse_dequantized(const ConstView<std::int16_t>& levels, const View<float>& out,
                                const QuantTable& table, const Block8Options& options) {
  inverse_dequantized_impl<float>(levels, out, table, options);
}
void block8_inverse_dequantized(const ConstView<std::int16_t>& levels,
                                const View<std::int16_t>& out, const QuantTable& table,
                                const Block8Options& options) {
  inverse_dequantized_impl<std::int16_t>(levels, out, table, options);
}

void QuantTable::validate() const {
  // One branch-free pass first (called on every block8 call with a table, 8x8 ones included).
  unsigned bad = 0;
  for (int k = 0; k < 64; ++k) bad |= static_cast<unsigned>(q[k]) - 1u > 32766u;
  if (!bad) return;
  for (int k = 0; k < 64; ++k)
    if (q[k] < 1 || q[k] > 32767)
      throw Error("QuantTable: entry " + std::to_string(k) + " (row " + std::to_string(k / 8) +
                  ", column " + std::to_string(k % 8) + ") is " + std::to_string(q[k]) +
                  "; entries must lie in 1..32767");
}

QuantTable quant_table_nvidia() { return kNvidia; }

int jpeg_quality_scaling(int quality) {
  if (quality < 1 || quality > 100)
    throw Error("JPEG quality must lie in 1..100, got " + std::to_string(quality));
  return quality < 50 ? 5000 / quality : 200 - 2 * quality;
}

QuantTable quant_table_scaled(const QuantTable& base, int quality) {
  base.validate();
  const long scale = jpeg_quality_scaling(quality);
  QuantTable t;
  for (int k = 0; k < 64; ++k)
    t.q[k] = static_cast<int>(std::clamp((base.q[k] * scale + 50) / 100, 1L, 255L));
  return t;
}

QuantTable quant_table_jpeg_luma(int quality) { return quant_table_scaled(kJpegLuma, quality); }
QuantTable quant_table_jpeg_chroma(int quality) { return quant_table_scaled(kJpegChroma, quality); }

void block8_quantize(const ConstView<float>& coeffs, const View<std::int16_t>& levels,
                     const QuantTable& table) {
  elementwise_blocks(coeffs, levels, table, "block8_quantize", block8::quantize_f32,
                     [](float c, int q) { return quantize_value(c, q); });
}
void block8_quantize(const ConstView<std::int16_t>& coeffs, const View<std::int16_t>& levels,
                     const QuantTable& table) {
  elementwise_blocks(coeffs, levels, table, "block8_quantize", block8::quantize_i16,
                     [](std::int16_t c, int q) { return quantize_value(c, q); });
}
void block8_dequantize(const ConstView<std::int16_t>& levels, const View<float>& coeffs,
                       const QuantTable& table) {
  elementwise_blocks(levels, coeffs, table, "block8_dequantize", block8::dequantize_f32,
                     [](std::int16_t l, int q) { return dequantize_value(l, q); });
}
void block8_dequantize(const ConstView<std::int16_t>& levels, const View<std::int16_t>& coeffs,
                       const QuantTable& table) {
  elementwise_blocks(levels, coeffs, table, "block8_dequantize", block8::dequantize_i16,
                     [](std::int16_t l, int q) { return dequantize_value_i16(l, q); });
}

std::string block8_target() { return block8::simd_target_name(); }

std::string_view to_string(Block8Kernel k) {
  switch (k) {
    case Block8Kernel::Auto: return "auto";
    case Block8Kernel::Reference: return "reference";
    case Block8Kernel::Fast: return "fast";
    case Block8Kernel::Int16: return "int16";
  }
  return "unknown";
}
std::string_view to_string(QuantTableKind k) {
  switch (k) {
    case QuantTableKind::Nvidia: return "nvidia";
    case QuantTableKind::Jpeg: return "jpeg";
  }
  return "unknown";
}
Block8Kernel parse_block8_kernel(std::string_view s) {
  for (auto k :
       {Block8Kernel::Auto, Block8Kernel::Reference, Block8Kernel::Fast, Block8Kernel::Int16})
    if (s == to_string(k)) return k;
  throw Error("unknown block8 kernel '" + std::string(s) +
              "' (use auto, reference, fast or int16)");
}
Block8Edge parse_block8_edge(std::string_view s) {
  if (s == "error") return Block8Edge::Error;
  if (s == "replicate") return Block8Edge::Replicate;
  throw Error("unknown block8 edge mode '" + std::string(s) + "' (use error or replicate)");
}
QuantTableKind parse_quant_table_kind(std::string_view s) {
  for (auto k : {QuantTableKind::Nvidia, QuantTableKind::Jpeg})
    if (s == to_string(k)) return k;
  throw Error("unknown quantization table '" + std::string(s) + "' (use nvidia or jpeg)");
}

}  // namespace dctx
