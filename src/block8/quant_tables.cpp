// SPDX-License-Identifier: BSD-3-Clause
// Quantization tables: the NVIDIA whitepaper's, JPEG's (ITU-T T.81 Annex K) and libjpeg's quality
// scaling, and the validation every block plan with a table runs.
#include <algorithm>
#include <string>

#include "dctx/block8.hpp"

namespace dctx {
namespace {

const QuantTable kNvidia = {{32, 33, 51, 81, 66, 39, 34, 17,  //
                             33, 36, 48, 47, 28, 23, 12, 12,  //
                             51, 48, 47, 28, 23, 12, 12, 12,  //
                             81, 47, 28, 23, 12, 12, 12, 12,  //
                             66, 28, 23, 12, 12, 12, 12, 12,  //
                             39, 23, 12, 12, 12, 12, 12, 12,  //
                             34, 12, 12, 12, 12, 12, 12, 12,  //
                             17, 12, 12, 12, 12, 12, 12, 12}};
// ITU-T T.81 Annex K, tables K.1 (luminance) and K.2 (chrominance), row-major (not zigzag).
const QuantTable kJpegLuma = {{16, 11, 10, 16, 24,  40,  51,  61,   //
                               12, 12, 14, 19, 26,  58,  60,  55,   //
                               14, 13, 16, 24, 40,  57,  69,  56,   //
                               14, 17, 22, 29, 51,  87,  80,  62,   //
                               18, 22, 37, 56, 68,  109, 103, 77,   //
                               24, 35, 55, 64, 81,  104, 113, 92,   //
                               49, 64, 78, 87, 103, 121, 120, 101,  //
                               72, 92, 95, 98, 112, 100, 103, 99}};
const QuantTable kJpegChroma = {{17, 18, 24, 47, 99, 99, 99, 99,  //
                                 18, 21, 26, 66, 99, 99, 99, 99,  //
                                 24, 26, 56, 99, 99, 99, 99, 99,  //
                                 47, 66, 99, 99, 99, 99, 99, 99,  //
                                 99, 99, 99, 99, 99, 99, 99, 99,  //
                                 99, 99, 99, 99, 99, 99, 99, 99,  //
                                 99, 99, 99, 99, 99, 99, 99, 99,  //
                                 99, 99, 99, 99, 99, 99, 99, 99}};

}  // namespace

void QuantTable::validate() const {
  // One branch-free pass first, the error path only when an entry is out of range.
  unsigned bad = 0;
  for (int k = 0; k < 64; ++k) bad |= static_cast<unsigned>(q[k]) - 1u > 32766u;
  if (!bad) return;
  for (int k = 0; k < 64; ++k)
    if (q[k] < 1 || q[k] > 32767)
      throw Error("QuantTable: entry " + std::to_string(k) + " (row " + std::to_string(k / 8) +
                  ", column " + std::to_string(k % 8) + ") is " + std::to_string(q[k]) +
                  "; entries must lie in 1..32767");
}

QuantTable quant_table_nvidia() { return kNvidia; }

int jpeg_quality_scaling(int quality) {
  if (quality < 1 || quality > 100)
    throw Error("JPEG quality must lie in 1..100, got " + std::to_string(quality));
  return quality < 50 ? 5000 / quality : 200 - 2 * quality;
}

QuantTable quant_table_scaled(const QuantTable& base, int quality) {
  base.validate();
  const long scale = jpeg_quality_scaling(quality);
  QuantTable t;
  for (int k = 0; k < 64; ++k)
    t.q[k] = static_cast<int>(std::clamp((base.q[k] * scale + 50) / 100, 1L, 255L));
  return t;
}

QuantTable quant_table_jpeg_luma(int quality) { return quant_table_scaled(kJpegLuma, quality); }
QuantTable quant_table_jpeg_chroma(int quality) { return quant_table_scaled(kJpegChroma, quality); }

}  // namespace dctx
