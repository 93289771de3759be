// SPDX-License-Identifier: BSD-3-Clause
// The library's one plan cache (DUCC/pocketfft style, with a run-time capacity): thread-safe,
// LRU. An entry maps a description as the caller gave it to a plan, so a repeated request costs
// one comparison per entry and no normalisation or allocation; descriptions that normalise to the
// same one share a plan. Plans are built outside the lock.
#include <list>
#include <mutex>

#include "dctx/plan.hpp"

namespace dctx {
namespace {

struct Entry {
  PlanDesc key;  // as requested (not normalised)
  std::shared_ptr<const Plan> plan;
};

struct PlanCache {
  std::mutex mu;
  std::size_t capacity = 32;
  std::list<Entry> entries;  // most recently used first
};

PlanCache& cache() {
  static PlanCache c;
  return c;
}

// Under the lock: the entry whose key is `d` (moved to the front), else nullptr.
std::shared_ptr<const Plan> lookup_key(PlanCache& c, const PlanDesc& d) {
  for (auto it = c.entries.begin(); it != c.entries.end(); ++it)
    if (it->key == d) {
      c.entries.splice(c.entries.begin(), c.entries, it);
      return c.entries.front().plan;
    }
  return nullptr;
}

// Under the lock: a plan built for the normalised description `n`, else nullptr.
std::shared_ptr<const Plan> lookup_plan(PlanCache& c, const PlanDesc& n) {
  for (const Entry& e : c.entries)
    if (e.plan->desc() == n) return e.plan;
  return nullptr;
}

void insert(PlanCache& c, const PlanDesc& key, std::shared_ptr<const Plan> plan) {
  c.entries.push_front(Entry{key, std::move(plan)});
  while (c.entries.size() > c.capacity) c.entries.pop_back();
}

}  // namespace

std::shared_ptr<const Plan> find_cached_plan(const PlanDesc& desc) {
  PlanCache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  return lookup_key(c, desc);
}

std::shared_ptr<const Plan> cached_plan(const PlanDesc& desc) {
  PlanCache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mu);
    if (auto p = lookup_key(c, desc)) return p;
  }
  const PlanDesc n = normalize(desc);
  {
    std::lock_guard<std::mutex> lock(c.mu);
    if (auto p = lookup_plan(c, n)) {
      insert(c, desc, p);
      return p;
    }
  }
  auto fresh = std::make_shared<const Plan>(n);
  std::lock_guard<std::mutex> lock(c.mu);
  if (auto p = lookup_plan(c, n)) fresh = p;  // another thread built it meanwhile
  if (c.capacity > 0) insert(c, desc, fresh);
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
