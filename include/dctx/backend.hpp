// SPDX-License-Identifier: BSD-3-Clause
// The back ends of this build and whether they can run here.
#pragma once

#include <string>
#include <vector>

#include "dctx/types.hpp"

namespace dctx {

/// One back end as the registry knows it.
struct BackendInfo {
  BackendKind kind = BackendKind::CPU;
  std::string name;     ///< "cpu", "cuda", "opencl": the spelling of parse_backend and --backend
  bool built = false;   ///< compiled into this library
  bool usable = false;  ///< built, and able to run on this machine
  std::string reason;   ///< why not usable ("no CUDA device", "not built: ..."); empty if usable
  std::string description;   ///< what it runs on when usable (SIMD target, device name)
  bool host_memory = false;  ///< executes on host memory directly (no copies)
};

/// Every back end dctx knows of, in BackendKind order: those of this build first-class, the others
/// with built == false and the option that builds them.
std::vector<BackendInfo> backends();
/// The entry of backends() for `kind` (Auto: the back end Auto picks).
BackendInfo backend_info(BackendKind kind);

}  // namespace dctx
