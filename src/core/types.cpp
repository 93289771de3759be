// SPDX-License-Identifier: BSD-3-Clause
// Names and parsers of the core enums.
#include <string>

#include "dctx/types.hpp"

namespace dctx {

// The parsers are case-sensitive, as scipy.fft's arguments are: "Ortho" is not a norm.

std::string_view to_string(Kind k) {
  switch (k) {
    case Kind::DCT: return "dct";
    case Kind::DST: return "dst";
    case Kind::DXST: return "dxst";
    case Kind::RDFT: return "rdft";
  }
  return "?";
}
std::string_view to_string(Norm n) {
  switch (n) {
    case Norm::Backward: return "backward";
    case Norm::Ortho: return "ortho";
    case Norm::Forward: return "forward";
  }
  return "?";
}
std::string_view to_string(Precision p) { return p == Precision::F32 ? "float32" : "float64"; }
std::string_view to_string(Direction d) { return d == Direction::Forward ? "forward" : "inverse"; }
std::string_view to_string(BackendKind b) {
  switch (b) {
    case BackendKind::Auto: return "auto";
    case BackendKind::CPU: return "cpu";
    case BackendKind::CUDA: return "cuda";
    case BackendKind::OpenCL: return "opencl";
  }
  return "?";
}

std::string_view to_string(Planning p) {
  switch (p) {
    case Planning::Estimate: return "estimate";
    case Planning::Measure: return "measure";
  }
  return "?";
}

Kind parse_kind(std::string_view s) {
  const std::string_view l = s;
  if (l == "dct") return Kind::DCT;
  if (l == "dst") return Kind::DST;
  if (l == "dxst") return Kind::DXST;
  if (l == "rdft") return Kind::RDFT;
  throw Error("unknown transform kind '" + std::string(s) + "' (expected dct, dst, dxst or rdft)");
}
Norm parse_norm(std::string_view s) {
  const std::string_view l = s;
  if (l == "backward" || l.empty()) return Norm::Backward;
  if (l == "ortho") return Norm::Ortho;
  if (l == "forward") return Norm::Forward;
  throw Error("invalid norm '" + std::string(s) + "' (expected backward, ortho or forward)");
}
Precision parse_precision(std::string_view s) {
  const std::string_view l = s;
  if (l == "f32" || l == "float32" || l == "float" || l == "single") return Precision::F32;
  if (l == "f64" || l == "float64" || l == "double") return Precision::F64;
  throw Error("unsupported precision '" + std::string(s) + "' (expected float32 or float64)");
}
BackendKind parse_backend(std::string_view s) {
  const std::string_view l = s;
  if (l == "auto") return BackendKind::Auto;
  if (l == "cpu") return BackendKind::CPU;
  if (l == "cuda") return BackendKind::CUDA;
  if (l == "opencl") return BackendKind::OpenCL;
  throw Error("unknown backend '" + std::string(s) + "' (expected auto, cpu, cuda or opencl)");
}

Planning parse_planning(std::string_view s) {
  if (s == "estimate") return Planning::Estimate;
  if (s == "measure") return Planning::Measure;
  throw Error("unknown planning '" + std::string(s) + "' (expected estimate or measure)");
}

}  // namespace dctx
