// SPDX-License-Identifier: BSD-3-Clause
// The seam between the public API and the back ends. A back end (src/cpu; src/cuda, src/opencl
// next) is a Backend registered with the registry (registry.cpp): it says whether it can run on
// this machine and turns a normalised PlanDesc into a BackendPlan. The core validates every view,
// decides how input and output overlap (overlap.hpp) and calls the BackendPlan; it never
// dereferences array data. Adding a back end: docs/design.md, "Adding a back end".
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/limits.hpp"
#include "core/overlap.hpp"
#include "dctx/device.hpp"
#include "dctx/plan.hpp"

namespace dctx {
struct ElectrostaticsDesc;  // dctx/electrostatics.hpp
}  // namespace dctx

namespace dctx::detail {

/// A host-memory execution, validated: arrays of the plan's shape with one element stride per
/// axis. `overlap` is Same (in place), Disjoint, or Partial (the back end must read all of the
/// input before writing the output: the CPU copies it first; a device back end uploads it).
template <class T>
struct HostCall {
  const T* in = nullptr;
  const std::ptrdiff_t* in_strides = nullptr;
  T* out = nullptr;
  const std::ptrdiff_t* out_strides = nullptr;
  Overlap overlap = Overlap::Disjoint;
};

/// A device-memory execution, validated: both arrays belong to the plan's back end and hold
/// `precision` elements; the workspace, when given, is at least workspace_bytes() long.
struct DeviceCall {
  DeviceArray in, out;
  Precision precision = Precision::F32;
  DeviceExecution exec;
  Overlap overlap = Overlap::Disjoint;
};

/// A back end's compiled plan. Thread-safe: execute() is const and keeps no shared scratch.
class BackendPlan {
 public:
  virtual ~BackendPlan() = default;
  virtual void execute(const HostCall<float>& call) const = 0;
  virtual void execute(const HostCall<double>& call) const = 0;
  /// Device back ends override this; the default refuses (the plan runs on host memory).
  virtual void execute_device(const DeviceCall& call) const;
  /// Device workspace execute_device needs, in bytes.
  virtual std::size_t workspace_bytes() const { return 0; }
  /// Human-readable algorithm summary.
  virtual std::string describe() const = 0;
};

struct Block8Spec;            // core/block8_backend.hpp
class BackendBlock8Plan;      // core/block8_backend.hpp
class BackendElectrostatics;  // core/electrostatics_backend.hpp

/// How a back end's memory is addressed, which decides how the core detects overlap.
enum class MemoryModel : std::uint8_t {
  Host = 0,             ///< host pointers
  DeviceAddresses = 1,  ///< device pointers in one address space (CUDA): compared as addresses
  DeviceHandles = 2,    ///< buffer handles (OpenCL cl_mem): arrays overlap only in one buffer
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual BackendKind kind() const = 0;
  /// Empty when the back end can run here, else why not ("no CUDA device"). Cheap after the
  /// first call (back ends probe once).
  virtual std::string unusable_reason() const = 0;
  /// What it runs on when usable: the SIMD target, the device name.
  virtual std::string description() const = 0;
  virtual MemoryModel memory() const = 0;
  /// Auto picks the usable back end of highest priority (the CPU's is 100).
  virtual int auto_priority() const = 0;
  /// `normalized` has passed normalize() and names this back end.
  virtual std::unique_ptr<BackendPlan> make_plan(const PlanDesc& normalized) const = 0;
  /// The 8x8 block engine on this back end; the default has none (nullptr).
  virtual std::unique_ptr<BackendBlock8Plan> make_block8_plan(const Block8Spec& spec) const;
  /// DREAMPlace's electrostatic step run whole on this back end's device for `desc` (normalised
  /// by the system, naming this back end); the default has none (nullptr), and so does a back
  /// end that cannot run it for this description: the system then runs its own route.
  virtual std::unique_ptr<BackendElectrostatics> make_electrostatics(
      const ElectrostaticsDesc& desc) const;
};

/// Adds `backend`, replacing any of the same kind, and returns the one it replaced (nullptr if
/// none). Built-in back ends register themselves on first use of the registry; tests use this to
/// stand in for a device back end.
std::shared_ptr<const Backend> register_backend(std::shared_ptr<const Backend> backend);
/// Removes the back end of `kind` and returns it (nullptr if none was registered); for tests.
std::shared_ptr<const Backend> unregister_backend(BackendKind kind);
/// The registered back end of `kind`, or nullptr when this build has none.
std::shared_ptr<const Backend> find_backend(BackendKind kind);
/// The back end a plan asking for `requested` runs on: Auto resolves to the usable back end of
/// highest priority. Throws dctx::Error (ErrorKind::BackendUnavailable) naming the reason when
/// the one asked for is not built or not usable here.
std::shared_ptr<const Backend> resolve_backend(BackendKind requested);

/// "(480, 640)": a shape as Python prints it, for messages.
std::string shape_str(const Shape& s);

}  // namespace dctx::detail
