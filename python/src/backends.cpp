// SPDX-License-Identifier: BSD-3-Clause
// _backends, behind dctx.backends(): the core's back-end registry (dctx::backends()) as a list of
// dicts, one per back end dctx knows of, with the fields of dctx::BackendInfo.
#include <nanobind/nanobind.h>

#include "binding.hpp"
#include "dctx/backend.hpp"

namespace dctx_py {
namespace {

nb::list backends_py() {
  nb::list out;
  for (const dctx::BackendInfo& b : dctx::backends()) {
    nb::dict d;
    d["name"] = nb::str(b.name.c_str());
    d["built"] = nb::bool_(b.built);
    d["usable"] = nb::bool_(b.usable);
    d["reason"] = nb::str(b.reason.c_str());
    d["description"] = nb::str(b.description.c_str());
    d["host_memory"] = nb::bool_(b.host_memory);
    out.append(d);
  }
  return out;
}

}  // namespace

void bind_backends(nb::module_& m) { m.def("_backends", &backends_py); }

}  // namespace dctx_py
