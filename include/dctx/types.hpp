// SPDX-License-Identifier: BSD-3-Clause
// dctx — fast discrete cosine transforms and their Fourier relatives.
// Core vocabulary shared by every layer: kinds, norms, precisions, errors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dctx {

/// Transform family along one axis. Types 1..4 of each, with scipy.fft's definitions:
///   DCT-I   y_k = x_0 + (-1)^k x_{N-1} + 2 sum_{n=1}^{N-2} x_n cos(pi k n/(N-1))     FFTW REDFT00
///   DCT-II  y_k = 2 sum_n x_n cos(pi k (2n+1)/(2N))                                  FFTW REDFT10
///   DCT-III y_k = x_0 + 2 sum_{n>=1} x_n cos(pi n (2k+1)/(2N))                       FFTW REDFT01
///   DCT-IV  y_k = 2 sum_n x_n cos(pi (2k+1)(2n+1)/(4N))                              FFTW REDFT11
///   DST-I   y_k = 2 sum_n x_n sin(pi (k+1)(n+1)/(N+1))                               FFTW RODFT00
///   DST-II  y_k = 2 sum_n x_n sin(pi (k+1)(2n+1)/(2N))                               FFTW RODFT10
///   DST-III y_k = (-1)^k x_{N-1} + 2 sum_{n<N-1} x_n sin(pi (n+1)(2k+1)/(2N))        FFTW RODFT01
///   DST-IV  y_k = 2 sum_n x_n sin(pi (2k+1)(2n+1)/(4N))                              FFTW RODFT11
/// and DXST, the shifted sine transform of DREAMPlace's electrostatics ("A New Acceleration
/// Paradigm for Discrete Cosine Transform and Other Fourier-Related Transforms"), types 2 and 3:
///   DXST-II  y_k = 2 sum_n x_n sin(pi k (2n+1)/(2N))       (y_0 = 0; y_k = DST-II(x)_{k-1})
///   DXST-III y_k = 2 sum_{n>=1} x_n sin(pi n (2k+1)/(2N))  (x_0 unused; DST-III of x shifted
///                                                           down by one, last entry 0)
/// The paper's IDXST is DXST-III / 2. DXST-II and DXST-III are each other's transposes and
/// invert each other (as DST-II/III do) on the vectors with x_0 = 0; norms as DST-II/III (M = 2N),
/// with no orthogonalize correction (it would touch only the entry the shift drops).
/// And RDFT, the real DFT in FFTW's halfcomplex order (its R2HC and HC2R kinds), types 2 and 3,
/// with X_k = sum_n x_n exp(-2 pi i k n/N):
///   RDFT-II  y = (Re X_0, Re X_1, ..., Re X_{N/2}, Im X_{(N-1)/2}, ..., Im X_1)   FFTW R2HC
///            (y_k = Re X_k for k <= N/2, y_{N-k} = Im X_k for 0 < k < N/2, N/2 rounded down)
///   RDFT-III x_n = y_0 + 2 sum_{0<k<N/2} (y_k cos(2 pi k n/N) - y_{N-k} sin(2 pi k n/N))
///                  [+ (-1)^n y_{N/2} for even N]                                  FFTW HC2R
/// RDFT-III(RDFT-II(x)) = N x: norms as the others with M = N, and no orthogonalize correction.
/// Each index k of RDFT-II's output holds frequency min(k, N - k), so it diagonalises periodic
/// convolutions and difference operators (the Poisson solver's periodic axes).
enum class Kind : std::uint8_t { DCT = 0, DST = 1, DXST = 2, RDFT = 3 };

/// Normalisation, as scipy.fft's `norm`: which direction carries the 1/M factor
/// (M = 2(N-1) for DCT-I, 2(N+1) for DST-I, N for RDFT, 2N otherwise).
enum class Norm : std::uint8_t { Backward = 0, Ortho = 1, Forward = 2 };

/// Element type of the data a plan transforms.
enum class Precision : std::uint8_t { F32 = 0, F64 = 1 };

/// Forward (scipy's dct/dst) or inverse (scipy's idct/idst: type 2 <-> 3, 1 and 4 self-inverse).
enum class Direction : std::uint8_t { Forward = 0, Inverse = 1 };

/// Where a plan runs (dctx::backends() lists what this build has). Auto picks the usable back end
/// of highest priority for host data: the CPU. A distributed plan (MPI) is not a back end: it sits
/// above them and runs a local plan of one of them on every rank (docs/design.md).
enum class BackendKind : std::uint8_t { Auto = 0, CPU = 1, CUDA = 2, OpenCL = 3 };

/// Algorithm for transforms over two axes. Auto lets the plan pick (see docs/design.md).
enum class Algorithm2D : std::uint8_t { Auto = 0, RowColumn = 1, Fused = 2 };

/// How a CPU plan picks its algorithm. Estimate (the default): a fixed rule from the description,
/// deterministic and cheap. Measure: the candidates (the rule's pick, row-column, fused 2D) are
/// built and timed on scratch data once, within about 10 ms, and the fastest is kept and
/// remembered for the process ("wisdom", which save_wisdom / load_wisdom carry across runs).
/// Arrays too large to time in that budget keep the rule's pick.
enum class Planning : std::uint8_t { Estimate = 0, Measure = 1 };

/// What class of problem a dctx::Error reports, for bindings that map errors to their own types
/// (Python raises numpy's AxisError for AxisOutOfRange, for instance).
enum class ErrorKind : std::uint8_t {
  InvalidArgument = 0,     ///< a bad value, shape, size, option or file
  AxisOutOfRange = 1,      ///< an axis outside -rank..rank-1
  RepeatedAxis = 2,        ///< an axis named twice
  BackendUnavailable = 3,  ///< the back end asked for is not built, or not usable on this machine
  DeviceFailure = 4,       ///< a driver or device call failed (device back ends)
};

/// Every invalid argument, shape, size or file gets a dctx::Error naming the problem.
class Error : public std::invalid_argument {
 public:
  explicit Error(const std::string& what, ErrorKind kind = ErrorKind::InvalidArgument)
      : std::invalid_argument(what), kind_(kind) {}
  explicit Error(const char* what, ErrorKind kind = ErrorKind::InvalidArgument)
      : std::invalid_argument(what), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

/// One axis's transform: family and type (1..4).
struct AxisTransform {
  Kind kind = Kind::DCT;
  int type = 2;
  friend bool operator==(const AxisTransform&, const AxisTransform&) = default;
};

using Shape = std::vector<std::size_t>;
using Strides = std::vector<std::ptrdiff_t>;  // in elements, negative allowed

std::string_view to_string(Kind k);
std::string_view to_string(Norm n);
std::string_view to_string(Precision p);
std::string_view to_string(Direction d);
std::string_view to_string(BackendKind b);
std::string_view to_string(Planning p);
/// Parsers for the spellings used by the CLI and Python ("dct", "ortho", "f32"/"float32", ...),
/// case-sensitive as scipy's arguments are. They throw dctx::Error on anything else.
Kind parse_kind(std::string_view s);
Norm parse_norm(std::string_view s);
Precision parse_precision(std::string_view s);
BackendKind parse_backend(std::string_view s);
Planning parse_planning(std::string_view s);

/// The type that inverts `type` (1->1, 2->3, 3->2, 4->4).
constexpr int inverse_type(int type) { return type == 2 ? 3 : type == 3 ? 2 : type; }

/// Length M of the logical symmetric FFT behind a transform of length n (the 1/M of the norms).
constexpr double logical_length(AxisTransform t, std::size_t n) {
  if (t.kind == Kind::RDFT) return double(n);
  if (t.type == 1) return t.kind == Kind::DCT ? 2.0 * (double(n) - 1.0) : 2.0 * (double(n) + 1.0);
  return 2.0 * double(n);
}

}  // namespace dctx
