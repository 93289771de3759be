// SPDX-License-Identifier: BSD-3-Clause
// scipy.fft-style one-shot functions over the plan cache.
#include "dctx/dctx.hpp"

namespace dctx {
namespace {

template <class T>
void run(const ConstView<T>& in, const View<T>& out, Kind kind, int type, std::vector<int> axes,
         Norm norm, int threads, std::optional<bool> ortho, Direction dir) {
  PlanDesc d;
  d.shape = in.shape();
  d.axes = std::move(axes);
  d.kind = kind;
  d.type = type;
  d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  d.norm = norm;
  d.orthogonalize = ortho;
  d.direction = dir;
  d.cpu.threads = threads;
  cached_plan(d)->execute(in, out);
}

}  // namespace

#define DCTX_ONE_SHOT(name, nd_name, kind, dir)                                                    \
  template <class T>                                                                               \
  void name(const ConstView<T>& in, const View<T>& out, int type, int axis, Norm norm,             \
            int threads, std::optional<bool> ortho) {                                              \
    run<T>(in, out, kind, type, {axis}, norm, threads, ortho, dir);                                \
  }                                                                                                \
  template <class T>                                                                               \
  void nd_name(const ConstView<T>& in, const View<T>& out, int type, std::vector<int> axes,        \
               Norm norm, int threads, std::optional<bool> ortho) {                                \
    run<T>(in, out, kind, type, std::move(axes), norm, threads, ortho, dir);                       \
  }                                                                                                \
  template void name<float>(const ConstView<float>&, const View<float>&, int, int, Norm, int,      \
                            std::optional<bool>);                                                  \
  template void name<double>(const ConstView<double>&, const View<double>&, int, int, Norm, int,   \
                             std::optional<bool>);                                                 \
  template void nd_name<float>(const ConstView<float>&, const View<float>&, int, std::vector<int>, \
                               Norm, int, std::optional<bool>);                                    \
  template void nd_name<double>(const ConstView<double>&, const View<double>&, int,                \
                                std::vector<int>, Norm, int, std::optional<bool>);

DCTX_ONE_SHOT(dct, dctn, Kind::DCT, Direction::Forward)
DCTX_ONE_SHOT(idct, idctn, Kind::DCT, Direction::Inverse)
DCTX_ONE_SHOT(dst, dstn, Kind::DST, Direction::Forward)
DCTX_ONE_SHOT(idst, idstn, Kind::DST, Direction::Inverse)
#undef DCTX_ONE_SHOT

}  // namespace dctx
