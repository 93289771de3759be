// Thread-safe LRU cache of plans keyed by the whole normalised description (DUCC/pocketfft style,
// but with a run-time capacity). Plans are built outside the lock.
#include <list>
#include <mutex>

#include "dctx/plan.hpp"

namespace dctx {
namespace {

struct PlanCache {
  std::mutex mu;
  std::size_t capacity = 32;
  std::list<std::shared_ptr<const Plan>> entries;  // most recently used first
};

PlanCache& cache() {
  static PlanCache c;
  return c;
}

std::shared_ptr<const Plan> lookup(PlanCache& c, const PlanDesc& d) {
  for (auto it = c.entries.begin(); it != c.entries.end(); ++it)
    if ((*it)->desc() == d) {
      c.entries.splice(c.entries.begin(), c.entries, it);
      return c.entries.front();
    }
  return nullptr;
}

}  // namespace

std::shared_ptr<const Plan> cached_plan(const PlanDesc& desc) {
  const PlanDesc d = normalize(desc);
  PlanCache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mu);
    if (c.capacity == 0) return std::make_shared<const Plan>(d);
    if (auto p = lookup(c, d)) return p;
  }
  auto fresh = std::make_shared<const Plan>(d);
  std::lock_guard<std::mutex> lock(c.mu);
  if (auto p = lookup(c, d)) return p;  // another thread built it meanwhile
  c.entries.push_front(fresh);
  while (c.entries.size() > c.capacity) c.entries.pop_back();
  return fresh;
}

void set_plan_cache_capacity(std::size_t capacity) {
  PlanCache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  c.capacity = capacity;
  while (c.entries.size() > c.capacity) c.entries.pop_back();
}

std::size_t plan_cache_capacity() {
  PlanCache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  return c.capacity;
}

}  // namespace dctx
