// SPDX-License-Identifier: BSD-3-Clause
// The library's one parallel-for: a persistent pool of worker threads of its own (std::thread, no
// OpenMP), shared by every plan, the 8x8 block engine and every caller thread.
//
// parallel_for(threads, n, work) splits [0, n) into at most `threads` contiguous chunks and runs
// work(begin, end) on each. The calling thread runs chunks too, and takes back any chunk that no
// worker has started, so a call completes even when every worker is busy (many callers at once,
// or a call from inside a worker: nested calls run inline). The first exception a chunk throws is
// rethrown in the caller after every started chunk has finished. Workers are created on first
// need, up to kMaxWorkers; when the system refuses a thread the pool keeps the ones it has and
// the caller runs the rest.
#pragma once

#include <cstddef>
#include <functional>

namespace dctx::detail {

/// The most worker threads the pool will ever create (a request for more is clamped).
inline constexpr int kMaxWorkers = 256;

/// Number of hardware threads (at least 1).
int hardware_threads();

/// Type-erased form of parallel_for.
void parallel_for_chunks(int threads, std::size_t n,
                         const std::function<void(std::size_t, std::size_t)>& work);

/// Runs work(begin, end) over [0, n) split across up to `threads` threads (the caller included).
template <class F>
void parallel_for(int threads, std::size_t n, F&& work) {
  if (n == 0) return;
  if (threads <= 1 || n == 1) return work(std::size_t{0}, n);
  parallel_for_chunks(threads, n, std::function<void(std::size_t, std::size_t)>(std::ref(work)));
}

/// Worker threads alive now (for tests).
int pool_worker_count();

}  // namespace dctx::detail
