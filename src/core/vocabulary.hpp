// SPDX-License-Identifier: BSD-3-Clause
// The library's messages name its options as the C++ API spells them (Block8Edge::Replicate,
// nthreads, ImageReadOptions::max_pixels); the Python module and the command line take the same
// options under other names (edge="replicate", workers; --edge replicate, --threads). One table
// of those names, next to the messages that use them, serves both front ends: each says an
// error in its user's words with in_words_of.
#pragma once

#include <string>

namespace dctx::detail {

enum class Vocabulary { Python, CommandLine };

/// A number as a message shows it: printf's %g (-1, 0.5, 1e-300, nan), not std::to_string's
/// six decimals (-1.000000, 0.000000 for 1e-300).
std::string number_str(double v);

/// `message` (a dctx::Error's what()) with every C++ spelling of an option replaced by the front
/// end's.
std::string in_words_of(std::string message, Vocabulary v);

}  // namespace dctx::detail
