// SPDX-License-Identifier: BSD-3-Clause
// dctx umbrella header: plans, views and scipy.fft-style one-shot functions.
#pragma once

#include <optional>
#include <vector>

#include "dctx/plan.hpp"
#include "dctx/types.hpp"
#include "dctx/version.hpp"
#include "dctx/view.hpp"

namespace dctx {

/// One-shot transforms with scipy.fft's meaning and defaults (type 2, norm backward, last axis /
/// all axes). `in` and `out` must have the same shape; in == out works in place. Plans come from
/// the shared cache (cached_plan), so repeated calls on one shape cost no planning.
/// T is float or double.
template <class T>
void dct(const ConstView<T>& in, const View<T>& out, int type = 2, int axis = -1,
         Norm norm = Norm::Backward, int threads = 1,
         std::optional<bool> orthogonalize = std::nullopt);
template <class T>
void idct(const ConstView<T>& in, const View<T>& out, int type = 2, int axis = -1,
          Norm norm = Norm::Backward, int threads = 1,
          std::optional<bool> orthogonalize = std::nullopt);
template <class T>
void dst(const ConstView<T>& in, const View<T>& out, int type = 2, int axis = -1,
         Norm norm = Norm::Backward, int threads = 1,
         std::optional<bool> orthogonalize = std::nullopt);
template <class T>
void idst(const ConstView<T>& in, const View<T>& out, int type = 2, int axis = -1,
          Norm norm = Norm::Backward, int threads = 1,
          std::optional<bool> orthogonalize = std::nullopt);

/// N-D versions: `axes` empty means every axis.
template <class T>
void dctn(const ConstView<T>& in, const View<T>& out, int type = 2, std::vector<int> axes = {},
          Norm norm = Norm::Backward, int threads = 1,
          std::optional<bool> orthogonalize = std::nullopt);
template <class T>
void idctn(const ConstView<T>& in, const View<T>& out, int type = 2, std::vector<int> axes = {},
           Norm norm = Norm::Backward, int threads = 1,
           std::optional<bool> orthogonalize = std::nullopt);
template <class T>
void dstn(const ConstView<T>& in, const View<T>& out, int type = 2, std::vector<int> axes = {},
          Norm norm = Norm::Backward, int threads = 1,
          std::optional<bool> orthogonalize = std::nullopt);
template <class T>
void idstn(const ConstView<T>& in, const View<T>& out, int type = 2, std::vector<int> axes = {},
           Norm norm = Norm::Backward, int threads = 1,
           std::optional<bool> orthogonalize = std::nullopt);

/// Number of hardware threads the library will use for threads = 0.
int hardware_threads();

}  // namespace dctx
