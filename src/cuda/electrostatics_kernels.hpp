// SPDX-License-Identifier: BSD-3-Clause
// Launcher of the electrostatic step's weighting kernel (electrostatics_kernels.cu).
#pragma once

#include <cuda_runtime_api.h>

#include "cuda/electrostatics_math.hpp"

namespace dctx::cu {

/// The weighting pass `w` on `stream`; energy: null, or a device double to which each warp adds
/// its Parseval terms times energy_factor (zeroed by the caller).
template <class T>
void launch_weigh(const cuda_math::es::WeightPass<T>& w, double energy_factor, double* energy,
                  cudaStream_t stream);

}  // namespace dctx::cu
