// SPDX-License-Identifier: BSD-3-Clause
// The persistent worker pool behind parallel_for (thread_pool.hpp).
//
// A call posts one Job: an atomic counter of the next chunk to start, a count of finished
// chunks and the first exception. Workers and the caller claim chunks from the counter; the
// caller then waits only for chunks that workers have already started. Jobs wait in a FIFO
// queue; a worker leaves a job once every chunk is claimed.
//
// Waiting spins a little before it sleeps: a worker that finished a job watches the queue, and
// a caller the count of finished chunks, for about 0.1 ms. The passes of one transform follow
// each other by less than that, and a futex sleep and wake-up between them cost more than the
// pass's half at a few hundred microseconds per pass.
#include "core/thread_pool.hpp"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace dctx::detail {
namespace {

// About 0.1 ms of polling (a pause is some tens of cycles) before a thread sleeps.
constexpr int kSpins = 4096;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

struct Job {
  const std::function<void(std::size_t, std::size_t)>* work = nullptr;
  std::size_t n = 0, chunks = 0;
  std::atomic<std::size_t> next{0};      // next chunk to claim
  std::atomic<std::size_t> finished{0};  // chunks done (run or skipped after an error)
  std::atomic<bool> failed{false};
  std::exception_ptr error;  // written once, by the thread that set `failed`
  std::mutex mu;
  std::condition_variable done;

  // Claims and runs chunks until none is left. Returns once this thread has nothing to claim.
  void RunChunks() {
    for (;;) {
      const std::size_t c = next.fetch_add(1, std::memory_order_relaxed);
      if (c >= chunks) return;
      if (!failed.load(std::memory_order_relaxed)) {
        try {
          (*work)(n * c / chunks, n * (c + 1) / chunks);
        } catch (...) {
          if (!failed.exchange(true)) error = std::current_exception();
        }
      }
      if (finished.fetch_add(1, std::memory_order_acq_rel) + 1 == chunks) {
        std::lock_guard<std::mutex> lock(mu);
        done.notify_all();
      }
    }
  }
  bool Unclaimed() const { return next.load(std::memory_order_relaxed) < chunks; }
};

thread_local bool t_in_worker = false;

class Pool {
 public:
  // Makes sure `wanted` workers exist (as far as the system allows).
  void Grow(int wanted) {
    wanted = std::min(wanted, kMaxWorkers);
    std::lock_guard<std::mutex> lock(mu_);
    while (static_cast<int>(workers_.size()) < wanted && !refused_) {
      try {
        workers_.emplace_back([this] { Loop(); });
      } catch (const std::system_error&) {
        refused_ = true;  // pids or memory limit: keep the workers we have
      } catch (const std::bad_alloc&) {
        refused_ = true;
      }
    }
  }

  void Post(const std::shared_ptr<Job>& job, std::size_t helpers) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (std::size_t i = 0; i < helpers; ++i) queue_.push_back(job);
      queued_.fetch_add(helpers, std::memory_order_release);
    }
    if (helpers == 1)
      wake_.notify_one();
    else
      wake_.notify_all();
  }

  int Workers() {
    std::lock_guard<std::mutex> lock(mu_);
    return static_cast<int>(workers_.size());
  }

  // After fork() only the forking thread exists in the child: forget the workers (their stacks
  // are gone) and start afresh. The old state is leaked on purpose: its mutex may be held.
  static void ResetInChild() { instance_.store(new Pool(), std::memory_order_release); }

  static Pool& Get() {
    if (Pool* p = instance_.load(std::memory_order_acquire)) return *p;
    static std::mutex creating;
    std::lock_guard<std::mutex> lock(creating);
    Pool* p = instance_.load(std::memory_order_relaxed);
    if (!p) {
      p = new Pool();  // lives as long as the process: workers are never joined
      instance_.store(p, std::memory_order_release);
      pthread_atfork(nullptr, nullptr, &Pool::ResetInChild);
    }
    return *p;
  }

 private:
  void Loop() {
    t_in_worker = true;
    for (;;) {
      std::shared_ptr<Job> job;
      for (int i = 0; i < kSpins && queued_.load(std::memory_order_acquire) == 0; ++i) cpu_relax();
      {
        std::unique_lock<std::mutex> lock(mu_);
        wake_.wait(lock, [this] { return !queue_.empty(); });
        job = std::move(queue_.front());
        queue_.pop_front();
        queued_.fetch_sub(1, std::memory_order_relaxed);
      }
      if (job->Unclaimed()) job->RunChunks();
    }
  }

  std::mutex mu_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Job>> queue_;
  std::atomic<std::size_t> queued_{0};  // queue_.size(), for the spinning workers
  std::vector<std::thread> workers_;    // never joined: the pool lives as long as the process
  bool refused_ = false;
  static std::atomic<Pool*> instance_;
};

std::atomic<Pool*> Pool::instance_{nullptr};

}  // namespace

int hardware_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

void parallel_for_chunks(int threads, std::size_t n,
                         const std::function<void(std::size_t, std::size_t)>& work) {
  const std::size_t chunks =
      std::min<std::size_t>(n, static_cast<std::size_t>(std::min(threads, kMaxWorkers + 1)));
  if (chunks <= 1 || t_in_worker) return work(0, n);  // nested calls run inline
  auto job = std::make_shared<Job>();
  job->work = &work;
  job->n = n;
  job->chunks = chunks;
  Pool& pool = Pool::Get();
  pool.Grow(static_cast<int>(chunks) - 1);
  pool.Post(job, chunks - 1);
  job->RunChunks();
  for (int i = 0; i < kSpins && job->finished.load(std::memory_order_acquire) != chunks; ++i)
    cpu_relax();
  {
    std::unique_lock<std::mutex> lock(job->mu);
    job->done.wait(lock, [&] { return job->finished.load(std::memory_order_acquire) == chunks; });
  }
  if (job->error) std::rethrow_exception(job->error);
}

int pool_worker_count() { return Pool::Get().Workers(); }

}  // namespace dctx::detail
