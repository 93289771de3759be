// SPDX-License-Identifier: BSD-3-Clause
// dctx — the 8x8 block engine: blockwise orthonormal DCT-II / DCT-III of image planes, JPEG-style
// quantization, and the forward DCT -> quantize -> inverse DCT pipeline of NVIDIA's DCT8x8
// whitepaper (Obukhov & Kharlamov 2008), on the CPU back end (Highway SIMD), the OpenCL one or the
// CUDA one.
//
// A plane is a 2D view (rows, cols) whose row stride is strides()[0] and column stride
// strides()[1] (elements, any sign); a batch of planes is a 3D view (planes, rows, cols).
// Each 8x8 block is transformed independently with the orthonormal 2D DCT-II
//   C(u,v) = a(u) a(v) sum_{x,y} f(x,y) cos((2x+1)u pi/16) cos((2y+1)v pi/16),
//   a(0) = sqrt(1/8), a(k>0) = sqrt(2/8)
// (Obukhov and Kharlamov, "Discrete Cosine Transform for 8x8 Blocks with CUDA", eq. 4; the same
// scaling as JPEG, ITU-T T.81 A.3.3), and its inverse (eq. 5).
// Every function checks its arguments and throws dctx::Error naming the problem. A Block8Plan
// describes one operation once (kind, data type, table, kernel, back end); the functions below
// are thin over plans that each thread keeps for the descriptions it used last.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dctx/image.hpp"
#include "dctx/plan.hpp"
#include "dctx/types.hpp"
#include "dctx/view.hpp"

namespace dctx {

namespace detail {
class BackendBlock8Plan;
struct Block8HostCall;
}  // namespace detail

/// Which 8x8 kernel runs: the three kernels of the NVIDIA whitepaper.
enum class Block8Kernel : std::uint8_t {
  Auto = 0,       ///< Fast for float data, Int16 for int16 data.
  Reference = 1,  ///< By definition: C = A X A^T, two 8x8 matrix products in double (the
                  ///< whitepaper's first kernel); int16 results are the double results rounded.
  Fast = 2,  ///< Arai–Agui–Nakajima (1988) factorization in float32, Highway SIMD with run-time
             ///< dispatch, several blocks per vector on wide targets.
  Int16 =
      3,  ///< Loeffler–Ligtenberg–Moschytz (1989) in 32-bit fixed point, libjpeg "islow"
          ///< class; int16 data only. Forward input is clamped to [-1024, 1023], inverse
          ///< input to [-2048, 2047] (the domain over which no int32 intermediate can overflow).
};

/// What happens to planes whose sides are not multiples of 8.
enum class Block8Edge : std::uint8_t {
  Error = 0,      ///< Throw dctx::Error.
  Replicate = 1,  ///< Forward: pad by repeating the last row/column (JPEG's rule); the output has
                  ///< the padded shape. Inverse: the output may be up to 7 rows/columns smaller
                  ///< than the coefficients and receives the cropped samples.
};

struct Block8Options {
  Block8Kernel kernel = Block8Kernel::Auto;
  Block8Edge edge = Block8Edge::Error;
  int nthreads = 1;                         ///< 0: one per hardware thread.
  BackendKind backend = BackendKind::Auto;  ///< the back end whose block engine runs
};

/// Forward blockwise DCT of a plane (2D view) or batch (3D view). `out` may be `in` itself (same
/// view: in place); an input that otherwise overlaps the output is copied first.
/// Float data: Reference or Fast kernel.
void block8_forward(const ConstView<float>& in, const View<float>& out,
                    const Block8Options& options = {});
/// Inverse blockwise DCT (orthonormal DCT-III on each 8x8 block of coefficients).
void block8_inverse(const ConstView<float>& in, const View<float>& out,
                    const Block8Options& options = {});
/// int16 forward: coefficients rounded to nearest and saturated to int16. Every kernel applies.
void block8_forward(const ConstView<std::int16_t>& in, const View<std::int16_t>& out,
                    const Block8Options& options = {});
/// int16 inverse: samples rounded to nearest and saturated to [-256, 255] (9-bit, IEEE 1180).
void block8_inverse(const ConstView<std::int16_t>& in, const View<std::int16_t>& out,
                    const Block8Options& options = {});

/// An 8x8 quantization table, row-major: q[8*u + v] divides coefficient C(u, v), u the vertical
/// and v the horizontal frequency. Entries must lie in 1..32767.
struct QuantTable {
  std::array<int, 64> q{};
  /// Throws dctx::Error when an entry is outside 1..32767.
  void validate() const;
  friend bool operator==(const QuantTable&, const QuantTable&) = default;
};

/// The table of NVIDIA's DCT8x8 sample (the whitepaper's).
QuantTable quant_table_nvidia();
/// ITU-T T.81 Annex K.1 luminance table scaled by `quality` (1..100) as libjpeg does.
QuantTable quant_table_jpeg_luma(int quality = 50);
/// ITU-T T.81 Annex K.2 chrominance table scaled by `quality` (1..100) as libjpeg does.
QuantTable quant_table_jpeg_chroma(int quality = 50);
/// libjpeg's jpeg_quality_scaling: quality < 50 -> 5000/quality, else 200 - 2*quality (percent).
int jpeg_quality_scaling(int quality);
/// Scale any base table the libjpeg way: entry = (base*scale + 50)/100, clamped to 1..255.
QuantTable quant_table_scaled(const QuantTable& base, int quality);

/// Quantize: level = round_half_away_from_zero(c / Q), saturated to int16 (infinities too). For
/// float coefficients c/Q is evaluated as c times the float reciprocal of Q (this can differ from
/// true division only within one float ulp of a half-integer); for int16 it is exact. A NaN
/// coefficient has no level: Error (and `levels` is not to be used).
void block8_quantize(const ConstView<float>& coeffs, const View<std::int16_t>& levels,
                     const QuantTable& table);
void block8_quantize(const ConstView<std::int16_t>& coeffs, const View<std::int16_t>& levels,
                     const QuantTable& table);
/// Dequantize: c = level * Q (saturated to int16 for the int16 output).
void block8_dequantize(const ConstView<std::int16_t>& levels, const View<float>& coeffs,
                       const QuantTable& table);
void block8_dequantize(const ConstView<std::int16_t>& levels, const View<std::int16_t>& coeffs,
                       const QuantTable& table);

/// Counts from a fused pass.
struct Block8Stats {
  std::uint64_t coefficients = 0;  ///< coefficients quantized (64 per block, padding included)
  std::uint64_t zeros = 0;         ///< of which quantized to zero
  double zero_fraction() const { return coefficients ? double(zeros) / double(coefficients) : 0.0; }
};

/// What a block plan does.
enum class Block8Op : std::uint8_t {
  Forward = 0,             ///< samples -> coefficients (block8_forward)
  Inverse = 1,             ///< coefficients -> samples (block8_inverse)
  Roundtrip = 2,           ///< samples -> samples through quantization (block8_roundtrip_quantized)
  ForwardQuantized = 3,    ///< samples -> int16 levels, the encoder's half
  InverseDequantized = 4,  ///< int16 levels -> samples, the decoder's half
  Quantize = 5,            ///< coefficients -> int16 levels (block8_quantize)
  Dequantize = 6,          ///< int16 levels -> coefficients (block8_dequantize)
};

/// Element type of the samples and coefficients (levels are always int16).
enum class Block8Data : std::uint8_t {
  Float32 = 0,  ///< float32 samples and coefficients
  Int16 = 1,    ///< int16 samples and coefficients
  /// uint8 samples (0..255) with JPEG's level shift (ITU-T T.81, A.3.1): the transforms see
  /// sample - 128, and samples come back as x + 128 clamped to 0..255 and rounded half up (NaN:
  /// 0). Coefficients are float32; the Fast and Reference kernels; not Quantize or Dequantize,
  /// which see no samples. Back ends without a uint8 path convert through float32 planes.
  UInt8 = 2,
};

/// One block operation, independent of the plane size.
struct Block8PlanDesc {
  Block8Op op = Block8Op::Forward;
  Block8Data data = Block8Data::Float32;
  /// The quantization table: required by Roundtrip, ForwardQuantized, InverseDequantized,
  /// Quantize and Dequantize; refused by Forward and Inverse.
  std::optional<QuantTable> table;
  Block8Kernel kernel = Block8Kernel::Auto;  ///< transforms only (not Quantize/Dequantize)
  Block8Edge edge = Block8Edge::Error;
  BackendKind backend = BackendKind::Auto;
  CpuOptions cpu;  ///< threads (0: all hardware threads); the 2D algorithm is not used
  friend bool operator==(const Block8PlanDesc&, const Block8PlanDesc&) = default;
};

/// A batch of planes in a device back end's memory: plane b, row r, column c is element
/// b*plane_stride + r*row_stride + c*col_stride from `data` (element strides, any sign), of the
/// element type `element`.
struct Block8DevicePlanes {
  BackendKind backend = BackendKind::Auto;  ///< whose memory this is
  void* data = nullptr;                     ///< CUDA: a device pointer to element (0, 0, 0)
  std::size_t count = 1, rows = 0, cols = 0;
  std::ptrdiff_t plane_stride = 0, row_stride = 0, col_stride = 0;
  Block8Data element = Block8Data::Float32;
};

/// A block operation planned once on one back end; execute() is const and thread-safe. The
/// execute overload must match the operation and data type: float samples and coefficients with
/// Block8Data::Float32, int16 with Block8Data::Int16, uint8 samples and float coefficients with
/// Block8Data::UInt8, int16 levels where the operation makes or takes them. Shapes and strides
/// are checked as the functions above check them.
class Block8Plan {
 public:
  explicit Block8Plan(const Block8PlanDesc& desc);
  Block8Plan(Block8Plan&&) noexcept;
  Block8Plan& operator=(Block8Plan&&) noexcept;
  ~Block8Plan();

  Block8Stats execute(const ConstView<float>& in, const View<float>& out) const;
  Block8Stats execute(const ConstView<float>& in, const View<std::int16_t>& out) const;
  Block8Stats execute(const ConstView<std::int16_t>& in, const View<float>& out) const;
  Block8Stats execute(const ConstView<std::int16_t>& in, const View<std::int16_t>& out) const;
  Block8Stats execute(const ConstView<std::uint8_t>& in, const View<float>& out) const;
  Block8Stats execute(const ConstView<float>& in, const View<std::uint8_t>& out) const;
  Block8Stats execute(const ConstView<std::uint8_t>& in, const View<std::uint8_t>& out) const;
  Block8Stats execute(const ConstView<std::uint8_t>& in, const View<std::int16_t>& out) const;
  Block8Stats execute(const ConstView<std::int16_t>& in, const View<std::uint8_t>& out) const;

  /// Device memory: enqueues the operation on a device back end's queue and returns without
  /// waiting. Users call the typed entry of the back end instead (dctx::cuda::execute in
  /// dctx/cuda.hpp), which fills these. `counts`: null, or two words of the back end's memory to
  /// which the kernels add the zero levels ([0]) and OR 1 when a float coefficient to quantize
  /// was NaN ([1]; its level is written as 0). Shapes are checked as execute() checks them; `in`
  /// may be `out` (in place) but must not overlap it otherwise.
  void execute_device(const Block8DevicePlanes& in, const Block8DevicePlanes& out, void* queue,
                      void* counts) const;

  /// The normalised description: kernel and back end resolved, threads resolved.
  const Block8PlanDesc& desc() const { return desc_; }
  /// The back end, the kernel and the SIMD target, e.g. "cpu[AVX3] fast float32 forward".
  std::string describe() const;

 private:
  template <class TI, class TO>
  Block8Stats run(const ConstView<TI>& in, const View<TO>& out) const;
  /// The checks shared by both entries: the element types, then the geometry of the call.
  void check_types(Block8Data in, Block8Data out) const;
  void resolve(detail::Block8HostCall& call) const;
  Block8PlanDesc desc_;
  std::unique_ptr<detail::BackendBlock8Plan> impl_;
};

/// Validate and normalise a block description (throws dctx::Error).
Block8PlanDesc normalize(const Block8PlanDesc& desc);

/// Fused forward DCT -> quantize -> dequantize -> inverse DCT, touching each block once. The result
/// equals block8_forward, block8_quantize, block8_dequantize and block8_inverse run one after the
/// other with the same kernel (as long as no level saturates int16). `out` has the shape of `in`;
/// with Block8Edge::Replicate any plane size is accepted.
Block8Stats block8_roundtrip_quantized(const ConstView<float>& in, const View<float>& out,
                                       const QuantTable& table, const Block8Options& options = {});
Block8Stats block8_roundtrip_quantized(const ConstView<std::int16_t>& in,
                                       const View<std::int16_t>& out, const QuantTable& table,
                                       const Block8Options& options = {});

/// The encoder's half of the fused pass: forward DCT then quantization, touching each block once.
/// `levels` (int16) equals block8_forward followed by block8_quantize with the same kernel, and
/// has the shape of block8_forward's output (with Block8Edge::Replicate, `in` may have any size).
/// Returns the count of zero levels. A NaN coefficient (from a NaN or infinite sample) has no
/// level: Error, as block8_quantize.
Block8Stats block8_forward_quantized(const ConstView<float>& in, const View<std::int16_t>& levels,
                                     const QuantTable& table, const Block8Options& options = {});
Block8Stats block8_forward_quantized(const ConstView<std::int16_t>& in,
                                     const View<std::int16_t>& levels, const QuantTable& table,
                                     const Block8Options& options = {});
/// The decoder's half: dequantization then the inverse DCT, touching each block once; equals
/// block8_dequantize followed by block8_inverse with the same kernel (same shapes and cropping).
void block8_inverse_dequantized(const ConstView<std::int16_t>& levels, const View<float>& out,
                                const QuantTable& table, const Block8Options& options = {});
void block8_inverse_dequantized(const ConstView<std::int16_t>& levels,
                                const View<std::int16_t>& out, const QuantTable& table,
                                const Block8Options& options = {});

/// The SIMD target the Fast and Int16 kernels dispatch to now, e.g. "AVX3", "AVX2", "EMU128".
std::string block8_target();

// ------------------------------------------------------------------------------------------------
// The JPEG-style pipeline of the NVIDIA whitepaper on in-memory images (dctx/image.hpp).

enum class QuantTableKind : std::uint8_t {
  Nvidia = 0,  ///< the whitepaper's table for every plane
  Jpeg = 1,    ///< T.81 Annex K: luminance table for Y, chrominance for Cb and Cr
};

struct JpegOptions {
  QuantTableKind table = QuantTableKind::Nvidia;
  int quality = 50;  ///< 1..100, libjpeg scaling of the base table; 50 leaves it unchanged
  /// Reference or Fast (Auto): float32 path; Int16: the fixed-point int16 path.
  Block8Kernel kernel = Block8Kernel::Auto;
  /// false: the whitepaper's luma pipeline (gray output). true: JPEG's YCbCr (JFIF, T.871), each
  /// plane through the pipeline, RGB output; a gray input stays gray.
  bool color = false;
  Block8Edge edge = Block8Edge::Replicate;  ///< planes not multiples of 8 are padded as JPEG does
  int nthreads = 1;
  BackendKind backend = BackendKind::Auto;  ///< the back end whose block engine runs the pipeline
};

struct JpegResult {
  Image image;               ///< the reconstruction (gray, or RGB in color mode)
  double psnr_db = 0;        ///< against the original luma (gray) or RGB samples (color)
  double zero_fraction = 0;  ///< fraction of coefficients quantized to zero, all planes
  double seconds = 0;        ///< pipeline time, colour conversion included, image I/O excluded
  std::string backend;       ///< "<back end>:<what it runs on>", e.g. "cpu:AVX3", "opencl:<device>"
  std::string kernel;        ///< "reference", "fast" or "int16"
};

/// Level shift -128, forward DCT, quantize and dequantize, inverse DCT, +128, round, clamp to
/// 0..255, PSNR (the whitepaper's section 4). With the NVIDIA table, Barbara 512x512 gives 32.777
/// dB.
JpegResult jpeg_roundtrip(const Image& image, const JpegOptions& options = {});

std::string_view to_string(Block8Kernel k);
std::string_view to_string(Block8Op op);
std::string_view to_string(QuantTableKind k);
/// "auto", "reference", "fast", "int16"; throws dctx::Error on anything else.
Block8Kernel parse_block8_kernel(std::string_view s);
/// "error", "replicate"; throws dctx::Error on anything else.
Block8Edge parse_block8_edge(std::string_view s);
/// "nvidia", "jpeg"; throws dctx::Error on anything else.
QuantTableKind parse_quant_table_kind(std::string_view s);

}  // namespace dctx
