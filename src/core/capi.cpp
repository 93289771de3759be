// SPDX-License-Identifier: BSD-3-Clause
// The C API of dctx.h over Plan: exceptions become status codes plus a per-thread message.
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "dctx/dctx.h"
#include "dctx/dctx.hpp"

struct dctx_plan {
  dctx::Plan plan;
  std::vector<ptrdiff_t> c_strides;  // C order, for NULL strides
};

namespace {
thread_local std::string g_last_error;

template <class F>
int guarded(F&& f) {
  try {
    f();
    g_last_error.clear();
    return DCTX_OK;
  } catch (const dctx::Error& e) {
    g_last_error = e.what();
    return DCTX_EINVAL;
  } catch (const std::bad_alloc&) {
    g_last_error = "out of memory";
    return DCTX_ENOMEM;
  } catch (const std::exception& e) {
    g_last_error = e.what();
    return DCTX_EINTERNAL;
  }
}

// The pointer form of Plan::execute: no views, so no allocation per call.
template <class T>
int execute(const dctx_plan* p, const T* in, const ptrdiff_t* is, T* out, const ptrdiff_t* os) {
  return guarded([&] {
    if (!p) throw dctx::Error("plan is NULL");
    p->plan.execute(in, is ? is : p->c_strides.data(), out, os ? os : p->c_strides.data());
  });
}

int create(dctx_plan** plan, int rank, const size_t* shape, int naxes, const int* axes,
           const int* kinds, const int* types, int precision, int norm, int orthogonalize,
           int direction, int threads, double coefficient_threshold) {
  return guarded([&] {
    if (!plan) throw dctx::Error("plan output pointer is NULL");
    *plan = nullptr;
    if (rank <= 0 || !shape) throw dctx::Error("rank must be >= 1 with a non-NULL shape");
    if (naxes < 0 || (naxes > 0 && !axes))
      throw dctx::Error("naxes must be >= 0 with non-NULL axes");
    if (precision != DCTX_F32 && precision != DCTX_F64)
      throw dctx::Error("precision must be DCTX_F32 or DCTX_F64");
    if (norm < 0 || norm > 2)
      throw dctx::Error("norm must be DCTX_NORM_BACKWARD, _ORTHO or _FORWARD");
    if (direction != DCTX_FORWARD && direction != DCTX_INVERSE)
      throw dctx::Error("direction must be DCTX_FORWARD or DCTX_INVERSE");
    if (orthogonalize < -1 || orthogonalize > 1)
      throw dctx::Error("orthogonalize must be -1, 0 or 1");
    dctx::PlanDesc d;
    d.shape.assign(shape, shape + rank);
    d.axes.assign(axes, axes + naxes);
    const int nt = naxes > 0 ? naxes : rank;
    if (kinds || types) {
      for (int i = 0; i < nt; ++i) {
        const int k = kinds ? kinds[i] : DCTX_DCT;
        if (k != DCTX_DCT && k != DCTX_DST && k != DCTX_DXST && k != DCTX_RDFT)
          throw dctx::Error("kind must be DCTX_DCT, DCTX_DST, DCTX_DXST or DCTX_RDFT");
        d.transforms.push_back({static_cast<dctx::Kind>(k), types ? types[i] : 2});
      }
    }
    d.precision = precision == DCTX_F32 ? dctx::Precision::F32 : dctx::Precision::F64;
    d.norm = static_cast<dctx::Norm>(norm);
    if (orthogonalize >= 0) d.orthogonalize = orthogonalize == 1;
    d.direction = direction == DCTX_FORWARD ? dctx::Direction::Forward : dctx::Direction::Inverse;
    d.cpu.threads = threads;
    d.coefficient_threshold = coefficient_threshold;
    dctx::Plan made(d);  // validates the shape (its byte count fits) before the strides below
    std::vector<ptrdiff_t> c_strides(static_cast<std::size_t>(rank));
    ptrdiff_t stride = 1;
    for (int i = rank; i-- > 0;) {
      c_strides[static_cast<std::size_t>(i)] = stride;
      stride *= static_cast<ptrdiff_t>(shape[i]);
    }
    *plan = new dctx_plan{std::move(made), std::move(c_strides)};
  });
}
}  // namespace

extern "C" {

int dctx_plan_create(dctx_plan** plan, int rank, const size_t* shape, int naxes, const int* axes,
                     const int* kinds, const int* types, int precision, int norm, int orthogonalize,
                     int direction, int threads) {
  return create(plan, rank, shape, naxes, axes, kinds, types, precision, norm, orthogonalize,
                direction, threads, 0.0);
}

int dctx_plan_create_thresholded(dctx_plan** plan, int rank, const size_t* shape, int naxes,
                                 const int* axes, const int* kinds, const int* types, int precision,
                                 int norm, int orthogonalize, int direction, int threads,
                                 double coefficient_threshold) {
  return create(plan, rank, shape, naxes, axes, kinds, types, precision, norm, orthogonalize,
                direction, threads, coefficient_threshold);
}

int dctx_execute_f32(const dctx_plan* plan, const float* in, const ptrdiff_t* in_strides,
                     float* out, const ptrdiff_t* out_strides) {
  return execute(plan, in, in_strides, out, out_strides);
}
int dctx_execute_f64(const dctx_plan* plan, const double* in, const ptrdiff_t* in_strides,
                     double* out, const ptrdiff_t* out_strides) {
  return execute(plan, in, in_strides, out, out_strides);
}
void dctx_plan_destroy(dctx_plan* plan) { delete plan; }
const char* dctx_last_error(void) { return g_last_error.c_str(); }
const char* dctx_version(void) { return dctx::kVersion; }
}
