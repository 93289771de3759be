// SPDX-License-Identifier: BSD-3-Clause
// The option names of the front ends (vocabulary.hpp).
#include "core/vocabulary.hpp"

#include <cstdio>
#include <string_view>

namespace dctx::detail {
namespace {

struct Words {
  std::string_view cxx, python, command_line;  // empty: the C++ spelling stays
};

// Longer phrases first: a phrase is replaced before the words inside it.
constexpr Words kWords[] = {
    {"the Int16 kernel transforms int16 data; float data takes Reference or Fast",
     "kernel=\"int16\" transforms int16 data; float32 data takes kernel=\"reference\" or \"fast\"",
     "--kernel int16 transforms int16 data (--int16); float data takes --kernel reference or "
     "fast"},
    {"or ask for Block8Edge::Replicate", "or pass edge=\"replicate\"", ""},
    {"Block8Edge::Replicate", "edge=\"replicate\"", "--edge replicate"},
    {"Block8Edge::Error", "edge=\"error\"", "--edge error"},
    {"Block8Kernel::Auto", "kernel=\"auto\"", "--kernel auto"},
    {"Block8Kernel::Reference", "kernel=\"reference\"", "--kernel reference"},
    {"Block8Kernel::Fast", "kernel=\"fast\"", "--kernel fast"},
    {"Block8Kernel::Int16", "kernel=\"int16\"", "--kernel int16"},
    {"unknown block8 kernel", "unknown kernel", ""},
    {"unknown block8 edge mode", "unknown edge", ""},
    {"ImageReadOptions::max_pixels", "", "--max-pixels"},
    {"QuantTable: entry", "table entry", ""},
    {"JPEG quality", "quality", "--quality"},
    {"invalid transform type", "", "invalid --type"},
    {"is repeated in axes", "", "is repeated in --axes"},
    {"is out of range for an array of rank", "",
     "(in --axes) is out of range for an array of rank"},
    {"pass NeumannMean::Project", "pass neumann_mean=\"project\"", "pass --project-mean"},
    {"PoissonDesc::screening", "screening", "--screening"},
    {"the spacing of", "", "--spacing of"},
    {"invalid PSF", "", "invalid --psf"},
    {"gaussian_psf: sigma", "", "--psf gaussian:SIGMA: sigma"},
    {"gaussian_psf: radius", "", "--psf gaussian:SIGMA:RADIUS: radius"},
    {"the Tikhonov weight alpha", "", "--reg (the Tikhonov weight alpha)"},
    {"nthreads", "workers", "--threads"},          // the block engine's option
    {"threads must be", "", "--threads must be"},  // the transforms' PlanDesc::cpu.threads
};

}  // namespace

std::string number_str(double v) {
  char s[32];
  std::snprintf(s, sizeof s, "%g", v);
  return s;
}

std::string in_words_of(std::string m, Vocabulary v) {
  for (const Words& w : kWords) {
    const std::string_view to = v == Vocabulary::Python ? w.python : w.command_line;
    if (to.empty()) continue;
    for (std::size_t at = m.find(w.cxx); at != std::string::npos; at = m.find(w.cxx, at)) {
      if (at >= 2 && m.compare(at - 2, 2, "--") == 0) {  // already a flag
        at += w.cxx.size();
        continue;
      }
      m.replace(at, w.cxx.size(), to);
      at += to.size();
    }
  }
  return m;
}

}  // namespace dctx::detail
