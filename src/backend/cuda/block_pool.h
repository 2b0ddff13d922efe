// The bookkeeping of gpupy's caching device allocator: size classes, best fit with split and merge
// inside segments, per-stream free lists, free-and-retry on out-of-memory, and blocks used on other
// streams kept out of circulation until events say those streams are done with them. It calls the
// device through SegmentSource, so it is plain C++ and unit-tested without a GPU. Host only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpupy/error.h"

namespace gpupy::cuda {

/// Identifies a stream to the pool (the cudaStream_t value).
using StreamKey = uintptr_t;
/// Identifies an event of a SegmentSource (a cudaEvent_t value).
using EventKey = uintptr_t;

/// What the pool needs from a device: raw segments and ordering between streams.
class SegmentSource {
 public:
  virtual ~SegmentSource() = default;
  /// A new segment of `nbytes`, or nullptr when the device is out of memory (other errors throw).
  virtual void* allocate_segment(size_t nbytes) = 0;
  virtual void free_segment(void* ptr, size_t nbytes) = 0;
  /// Makes work queued later on `consumer` wait for all work queued so far on `producer`.
  virtual void order_after(StreamKey consumer, StreamKey producer) = 0;
  /// A new event capturing the work queued so far on `stream`.
  virtual EventKey record_event(StreamKey stream) = 0;
  /// True when the work captured by `event` is done; never waits.
  virtual bool query_event(EventKey event) = 0;
  /// Waits until the work captured by `event` is done.
  virtual void synchronize_event(EventKey event) = 0;
  /// Releases an event from record_event. Never throws.
  virtual void destroy_event(EventKey event) noexcept = 0;
};

/// Pool counters in bytes.
struct PoolStats {
  size_t used_bytes = 0;     // in blocks handed out (rounded sizes)
  size_t pending_bytes = 0;  // in freed blocks other streams may still use (see deallocate)
  size_t total_bytes = 0;    // in segments obtained from the device: used + pending + cached
  size_t segments = 0;
};

inline constexpr size_t kRoundBytes = 512;
// Small requests share 2 MiB segments so that many small arrays cost one device allocation;
// they never split large segments, which keeps large blocks whole for large requests.
inline constexpr size_t kSmallLimit = size_t{1} << 20;
inline constexpr size_t kSmallSegment = size_t{2} << 20;
inline constexpr size_t kMediumLimit = size_t{10} << 20;
inline constexpr size_t kMediumSegment = size_t{20} << 20;
inline constexpr size_t kLargeRound = size_t{2} << 20;

/// The size class of a request: a multiple of 512 bytes, at least 512.
inline size_t round_size(size_t nbytes) {
  if (nbytes == 0) return kRoundBytes;
  return (nbytes + kRoundBytes - 1) / kRoundBytes * kRoundBytes;
}
/// How much to ask the device for when no cached block fits a request of `rounded` bytes.
inline size_t segment_size_for(size_t rounded) {
  if (rounded <= kSmallLimit) return kSmallSegment;
  if (rounded <= kMediumLimit) return kMediumSegment;
  return (rounded + kLargeRound - 1) / kLargeRound * kLargeRound;
}

class BlockPool {
 public:
  /// `device_name` ("cuda:0") prefixes error messages.
  BlockPool(SegmentSource& source, std::string device_name)
      : source_(source), device_name_(std::move(device_name)) {}
  ~BlockPool() {
    for (const Pending& p : pending_) source_.destroy_event(p.event);
    for (auto& [ptr, head] : segments_) {
      size_t bytes = 0;
      for (Block* b = head; b;) {
        bytes += b->size;
        Block* next = b->next;
        delete b;
        b = next;
      }
      source_.free_segment(reinterpret_cast<void*>(ptr), bytes);
    }
  }
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;

  /// A block of at least `nbytes` whose earlier users were ordered before `stream`; throws
  /// MemoryError after waiting for pending blocks, flushing the cache and retrying once.
  void* allocate(size_t nbytes, StreamKey stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!pending_.empty()) process_events(false);
    size_t size = round_size(nbytes);
    bool small = size <= kSmallLimit;
    Block* b = take_best_fit({stream, small}, size);
    if (!b) b = new_segment(size, stream, small);
    if (!b) b = take_from_other_stream(size, stream, small);
    if (!b && !pending_.empty()) {
      // Out of memory is rare and slow anyway: waiting for the other streams beats failing.
      process_events(true);
      b = take_best_fit({stream, small}, size);
      if (!b) b = take_from_other_stream(size, stream, small);
    }
    if (!b) {
      release_cached_locked();
      b = new_segment(size, stream, small);
    }
    if (!b) throw MemoryError(out_of_memory_message(nbytes));
    split(b, size);
    b->allocated = true;
    used_ += b->size;
    allocated_[b->ptr] = b;
    return reinterpret_cast<void*>(b->ptr);
  }

  /// Notes that work queued on `stream` uses the block at `ptr` (from allocate; other pointers
  /// are ignored), so that deallocate keeps it from reuse until that work is done.
  void record_use(void* ptr, StreamKey stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = allocated_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == allocated_.end()) return;
    Block* b = it->second;
    if (stream == b->stream) return;
    for (StreamKey s : b->uses)
      if (s == stream) return;
    b->uses.push_back(stream);
  }

  /// Returns a block to the free list of the stream it was allocated on; a block used on other
  /// streams (record_use) first waits, out of circulation, for an event on each of them, which
  /// allocate queries later. Never throws, never waits.
  void deallocate(void* ptr) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = allocated_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == allocated_.end()) return;
    Block* b = it->second;
    allocated_.erase(it);
    used_ -= b->size;
    if (b->uses.empty()) {
      b->allocated = false;
      coalesce(b, nullptr);
      return;
    }
    // Still marked allocated, so neither handed out nor merged until its events complete.
    pending_bytes_ += b->size;
    for (StreamKey s : b->uses) {
      try {
        pending_.push_back({source_.record_event(s), b});
        ++b->events;
      } catch (...) {
        // The device failed (its context is broken): the block is never reused.
        b->lost = true;
      }
    }
    b->uses.clear();
  }

  /// Hands every block of `stream`, whose queued work has finished, to `successor`: once a
  /// stream is destroyed no event can be recorded on it, and a new stream may get its handle.
  void retire_stream(StreamKey stream, StreamKey successor) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [ptr, b] : allocated_) {
      if (b->stream == stream) b->stream = successor;
      // The retired stream's work is done and no more can come; uses on the new allocation
      // stream are ordered by it.
      std::erase_if(b->uses, [&](StreamKey s) { return s == stream || s == b->stream; });
    }
    for (const Pending& p : pending_)
      if (p.block->stream == stream) p.block->stream = successor;
    std::vector<Block*> moved;
    for (auto it = free_.begin(); it != free_.end();) {
      if (it->first.first != stream) {
        ++it;
        continue;
      }
      for (const auto& entry : it->second) moved.push_back(entry.second);
      it = free_.erase(it);
    }
    std::set<Block*> gone;  // merged into a neighbour (deleted)
    for (Block* b : moved) b->stream = successor;
    for (Block* b : moved)
      if (!gone.count(b)) coalesce(b, &gone);
  }

  /// Waits for the blocks freed after use on other streams, then gives every entirely free
  /// segment back to the device (free_all_blocks).
  void release_cached() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!pending_.empty()) process_events(true);
    release_cached_locked();
  }

  PoolStats stats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return {used_, pending_bytes_, total_, segments_.size()};
  }
  /// Caps total_bytes (0: no cap); requests beyond it fail as if the device were full.
  void set_limit(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    limit_ = bytes;
  }
  size_t limit() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return limit_;
  }

 private:
  struct Block {
    uintptr_t ptr;
    size_t size;
    StreamKey stream;
    bool small;
    bool allocated = false;  // also while pending: freed, awaiting `events` events
    bool lost = false;       // an event could not be recorded: never reused
    int events = 0;
    std::vector<StreamKey> uses{};  // other streams it was used on (empty: no allocation)
    Block* prev = nullptr;          // neighbours in address order inside one segment
    Block* next = nullptr;
  };
  struct Pending {
    EventKey event;
    Block* block;
  };
  using FreeKey = std::pair<StreamKey, bool>;  // (stream, small segment)
  using FreeSet = std::set<std::pair<size_t, Block*>>;

  static bool mergeable(const Block* a, const Block* b) {
    return a && b && !a->allocated && !b->allocated && a->stream == b->stream;
  }
  void link_free(Block* b) { free_[{b->stream, b->small}].insert({b->size, b}); }
  void unlink_free(Block* b) { free_[{b->stream, b->small}].erase({b->size, b}); }

  // Links free block `b`, merged with its free neighbours of the same stream; the blocks merged
  // away (deleted) are added to `gone` when given.
  void coalesce(Block* b, std::set<Block*>* gone) {
    unlink_free(b);  // its size changes below (a no-op when it is not linked)
    while (mergeable(b, b->next)) {
      if (gone) gone->insert(b->next);
      absorb_next(b);
    }
    while (mergeable(b->prev, b)) {
      if (gone) gone->insert(b);
      b = b->prev;
      unlink_free(b);
      absorb_next(b);
    }
    link_free(b);
  }

  // `b` is free and linked (if free); its free successor joins it.
  void absorb_next(Block* b) {
    Block* n = b->next;
    unlink_free(n);
    b->size += n->size;
    b->next = n->next;
    if (n->next) n->next->prev = b;
    delete n;
  }

  Block* take_best_fit(FreeKey key, size_t size) {
    auto found = free_.find(key);
    if (found == free_.end()) return nullptr;
    auto it = found->second.lower_bound({size, nullptr});
    if (it == found->second.end()) return nullptr;
    Block* b = it->second;
    found->second.erase(it);
    return b;
  }

  // Another stream's cached block, made safe by ordering `stream` after that stream's work.
  Block* take_from_other_stream(size_t size, StreamKey stream, bool small) {
    Block* best = nullptr;
    for (auto& [key, set] : free_) {
      if (key.first == stream || key.second != small) continue;
      auto it = set.lower_bound({size, nullptr});
      if (it != set.end() && (!best || it->first < best->size)) best = it->second;
    }
    if (!best) return nullptr;
    unlink_free(best);
    source_.order_after(stream, best->stream);
    best->stream = stream;
    return best;
  }

  Block* new_segment(size_t size, StreamKey stream, bool small) {
    size_t bytes = segment_size_for(size);
    if (limit_ && total_ + bytes > limit_) bytes = size;  // a tight limit still admits the request
    if (limit_ && total_ + bytes > limit_) return nullptr;
    void* ptr = source_.allocate_segment(bytes);
    if (!ptr) return nullptr;
    total_ += bytes;
    Block* b = new Block{reinterpret_cast<uintptr_t>(ptr), bytes, stream, small};
    segments_[b->ptr] = b;
    return b;
  }

  // Keeps `size` bytes in `b` and caches the rest as a free block of the same stream.
  void split(Block* b, size_t size) {
    if (b->size - size < kRoundBytes) return;
    Block* rest = new Block{b->ptr + size, b->size - size, b->stream, b->small};
    rest->prev = b;
    rest->next = b->next;
    if (b->next) b->next->prev = rest;
    b->next = rest;
    b->size = size;
    link_free(rest);
  }

  // Frees the pending blocks whose events have completed, or all of them after waiting when
  // `wait`. A failed query leaves the entry for the next call and throws.
  void process_events(bool wait) {
    size_t kept = 0;
    for (size_t i = 0; i < pending_.size(); ++i) {
      Pending p = pending_[i];
      bool done = false;
      try {
        if (wait) source_.synchronize_event(p.event);
        done = wait || source_.query_event(p.event);
      } catch (...) {
        for (size_t j = i; j < pending_.size(); ++j) pending_[kept++] = pending_[j];
        pending_.resize(kept);
        throw;
      }
      if (!done) {
        pending_[kept++] = p;
        continue;
      }
      source_.destroy_event(p.event);
      if (--p.block->events == 0 && !p.block->lost) release_pending(p.block);
    }
    pending_.resize(kept);
  }

  void release_pending(Block* b) {
    pending_bytes_ -= b->size;
    b->allocated = false;
    coalesce(b, nullptr);
  }

  void release_cached_locked() {
    for (auto it = segments_.begin(); it != segments_.end();) {
      Block* head = it->second;
      if (head->allocated || head->next) {
        ++it;
        continue;
      }
      unlink_free(head);
      source_.free_segment(reinterpret_cast<void*>(head->ptr), head->size);
      total_ -= head->size;
      delete head;
      it = segments_.erase(it);
    }
  }

  std::string out_of_memory_message(size_t nbytes) const {
    std::string msg = "[" + device_name_ + "] out of memory allocating " + std::to_string(nbytes) +
                      " bytes (pool: " + std::to_string(used_) + " bytes in use, " +
                      std::to_string(total_) + " held";
    if (limit_) msg += ", limit " + std::to_string(limit_);
    return msg + ")";
  }

  SegmentSource& source_;
  std::string device_name_;
  mutable std::mutex mutex_;
  std::map<FreeKey, FreeSet> free_;
  std::unordered_map<uintptr_t, Block*> allocated_;
  std::map<uintptr_t, Block*> segments_;  // first block of each segment, by address
  std::vector<Pending> pending_;          // events of freed blocks, oldest first
  size_t used_ = 0;
  size_t pending_bytes_ = 0;
  size_t total_ = 0;
  size_t limit_ = 0;
};

}  // namespace gpupy::cuda
