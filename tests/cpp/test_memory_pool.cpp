// The caching device allocator's bookkeeping (size classes, best fit, split/merge, streams, blocks
// freed after use on other streams, OOM retry, limit), driven by a fake device so it runs without a
// GPU.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "backend/cuda/block_pool.h"

using gpupy::cuda::BlockPool;
using gpupy::cuda::EventKey;
using gpupy::cuda::StreamKey;

namespace {

constexpr size_t MiB = size_t{1} << 20;

// Hands out addresses from a fake address space of `capacity` bytes.
class FakeDevice : public gpupy::cuda::SegmentSource {
 public:
  explicit FakeDevice(size_t capacity) : capacity_(capacity) {}
  void* allocate_segment(size_t nbytes) override {
    if (in_use_ + nbytes > capacity_) return nullptr;
    in_use_ += nbytes;
    ++allocations;
    next_ += nbytes + 4096;  // gaps keep segments apart
    return reinterpret_cast<void*>(next_ - nbytes - 4096);
  }
  void free_segment(void*, size_t nbytes) override {
    in_use_ -= nbytes;
    ++frees;
  }
  void order_after(StreamKey consumer, StreamKey producer) override {
    orderings.push_back({consumer, producer});
  }
  // Events complete only when the test says their stream has finished its work.
  EventKey record_event(StreamKey stream) override {
    if (fail_records) throw std::runtime_error("record failed");
    events_[++last_event_] = {stream, false};
    recorded.push_back(stream);
    return last_event_;
  }
  bool query_event(EventKey event) override {
    ++queries;
    return events_.at(event).second;
  }
  void synchronize_event(EventKey event) override {
    ++synchronizations;
    events_.at(event).second = true;
  }
  void destroy_event(EventKey event) noexcept override { events_.erase(event); }
  void finish(StreamKey stream) {
    for (auto& [key, ev] : events_)
      if (ev.first == stream) ev.second = true;
  }
  size_t live_events() const { return events_.size(); }
  size_t in_use() const { return in_use_; }
  int allocations = 0, frees = 0, queries = 0, synchronizations = 0;
  bool fail_records = false;
  std::vector<std::pair<StreamKey, StreamKey>> orderings;
  std::vector<StreamKey> recorded;  // the stream of each recorded event

 private:
  std::map<EventKey, std::pair<StreamKey, bool>> events_;  // stream, completed
  EventKey last_event_ = 0;
  size_t capacity_, in_use_ = 0;
  uintptr_t next_ = 0x10000;
};

char* as_char(void* p) { return static_cast<char*>(p); }

// A block of `nbytes` allocated on `stream`, used by work on stream `user`, then freed.
void* free_after_use(BlockPool& pool, size_t nbytes, StreamKey stream, StreamKey user) {
  void* p = pool.allocate(nbytes, stream);
  pool.record_use(p, user);
  pool.deallocate(p);
  return p;
}

}  // namespace

TEST(MemoryPool, SizeClasses) {
  EXPECT_EQ(gpupy::cuda::round_size(0), 512u);
  EXPECT_EQ(gpupy::cuda::round_size(1), 512u);
  EXPECT_EQ(gpupy::cuda::round_size(512), 512u);
  EXPECT_EQ(gpupy::cuda::round_size(513), 1024u);
  EXPECT_EQ(gpupy::cuda::segment_size_for(512), 2 * MiB);
  EXPECT_EQ(gpupy::cuda::segment_size_for(3 * MiB), 20 * MiB);
  EXPECT_EQ(gpupy::cuda::segment_size_for(21 * MiB), 22 * MiB);
}

TEST(MemoryPool, SmallRequestsShareASegmentAndSplit) {
  FakeDevice dev(1 << 30);
  BlockPool pool(dev, "cuda:0");
  void* a = pool.allocate(1000, 1);
  void* b = pool.allocate(1000, 1);
  EXPECT_EQ(as_char(b) - as_char(a), 1024);
  EXPECT_EQ(dev.allocations, 1);
  EXPECT_EQ(pool.stats().used_bytes, 2048u);
  EXPECT_EQ(pool.stats().total_bytes, 2 * MiB);
}

TEST(MemoryPool, BestFitReusesTheSmallestFreeBlock) {
  FakeDevice dev(1 << 30);
  BlockPool pool(dev, "cuda:0");
  void* a = pool.allocate(4096, 1);
  void* keep = pool.allocate(512, 1);
  pool.deallocate(a);                    // a 4096-byte hole before `keep`
  EXPECT_EQ(pool.allocate(3000, 1), a);  // the hole fits better than the segment's tail
  EXPECT_NE(pool.allocate(600, 1), keep);
}

TEST(MemoryPool, FreedNeighboursMergeAndSegmentsAreReleased) {
  FakeDevice dev(1 << 30);
  BlockPool pool(dev, "cuda:0");
  void* a = pool.allocate(1000, 1);
  void* b = pool.allocate(1000, 1);
  void* c = pool.allocate(1000, 1);
  pool.deallocate(a);
  pool.deallocate(c);  // merges with the free tail
  pool.release_cached();
  EXPECT_EQ(dev.frees, 0);  // b still pins the segment
  pool.deallocate(b);       // merges with both sides: the segment is one free block again
  EXPECT_EQ(pool.stats().used_bytes, 0u);
  EXPECT_EQ(pool.allocate(MiB, 1), a);  // the merged block serves a request from its start
  pool.deallocate(a);
  pool.release_cached();
  EXPECT_EQ(dev.frees, 1);
  EXPECT_EQ(pool.stats().total_bytes, 0u);
  EXPECT_EQ(dev.in_use(), 0u);
}

TEST(MemoryPool, BlocksStayWithTheirStream) {
  FakeDevice dev(1 << 30);
  BlockPool pool(dev, "cuda:0");
  void* a = pool.allocate(5 * MiB, /*stream=*/1);
  pool.deallocate(a);
  void* b = pool.allocate(5 * MiB, /*stream=*/2);
  EXPECT_NE(a, b);  // a new segment rather than a block stream 1 may still be using
  EXPECT_TRUE(dev.orderings.empty());
  EXPECT_EQ(pool.allocate(5 * MiB, 1), a);
}

TEST(MemoryPool, AnotherStreamsBlockIsUsedAfterOrderingWhenTheDeviceIsFull) {
  FakeDevice dev(20 * MiB);
  BlockPool pool(dev, "cuda:0");
  void* a = pool.allocate(5 * MiB, 1);
  pool.deallocate(a);
  void* b = pool.allocate(5 * MiB, 2);
  EXPECT_EQ(a, b);
  ASSERT_EQ(dev.orderings.size(), 1u);
  EXPECT_EQ(dev.orderings[0], (std::pair<StreamKey, StreamKey>{2, 1}));
}

TEST(MemoryPool, ARetiredStreamsBlocksGoToItsSuccessorWithoutOrdering) {
  FakeDevice dev(20 * MiB);
  BlockPool pool(dev, "cuda:0");
  void* a = pool.allocate(1000, /*stream=*/7);
  void* b = pool.allocate(1000, 7);
  void* c = pool.allocate(1000, 7);
  pool.deallocate(a);
  pool.deallocate(c);  // a and the free tail of the segment are cached for stream 7
  pool.retire_stream(7, /*successor=*/1);  // stream 7 is destroyed: no event on it any more
  EXPECT_EQ(pool.allocate(1000, 1), a);    // stream 1's own block now: no ordering needed
  pool.deallocate(a);
  pool.deallocate(b);  // b, allocated on 7, returns to stream 1 and merges with its neighbours
  EXPECT_TRUE(dev.orderings.empty());
  EXPECT_EQ(pool.stats().used_bytes, 0u);
  pool.release_cached();  // the segment is one free block again
  EXPECT_EQ(dev.frees, 1);
  EXPECT_EQ(pool.stats().total_bytes, 0u);
}

TEST(MemoryPool, OutOfMemoryFlushesTheCacheAndRetries) {
  FakeDevice dev(22 * MiB);
  BlockPool pool(dev, "cuda:0");
  pool.deallocate(pool.allocate(1000, 1));  // caches a 2 MiB small segment
  void* big = pool.allocate(21 * MiB, 1);   // needs 22 MiB: only after the flush
  EXPECT_NE(big, nullptr);
  EXPECT_EQ(dev.frees, 1);
  EXPECT_EQ(pool.stats().total_bytes, 22 * MiB);
}

TEST(MemoryPool, MemoryErrorNamesTheSize) {
  FakeDevice dev(64 * MiB);
  BlockPool pool(dev, "cuda:0");
  try {
    pool.allocate(100 * MiB, 1);
    FAIL() << "expected MemoryError";
  } catch (const gpupy::MemoryError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("[cuda:0]"), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::to_string(100 * MiB)), std::string::npos) << msg;
  }
  EXPECT_EQ(pool.stats().used_bytes, 0u);
}

TEST(MemoryPool, LimitCapsTheHeldBytes) {
  FakeDevice dev(1 << 30);
  BlockPool pool(dev, "cuda:0");
  pool.set_limit(8 * MiB);
  void* a = pool.allocate(6 * MiB, 1);  // a tight limit admits an exact-size segment
  EXPECT_LE(pool.stats().total_bytes, 8 * MiB);
  EXPECT_THROW(pool.allocate(3 * MiB, 1), gpupy::MemoryError);
  pool.deallocate(a);
  pool.set_limit(0);
  EXPECT_NO_THROW(pool.allocate(3 * MiB, 1));
}

TEST(MemoryPool, StatsReturnToBaselineAfterRepetitions) {
  FakeDevice dev(1 << 30);
  BlockPool pool(dev, "cuda:0");
  for (int rep = 0; rep < 100; ++rep) {
    std::vector<void*> blocks;
    for (size_t n : {size_t{1}, size_t{777}, 3 * MiB, size_t{4096}, 12 * MiB, size_t{100}})
      blocks.push_back(pool.allocate(n, static_cast<StreamKey>(1 + rep % 2)));
    for (size_t i = 0; i < blocks.size(); i += 2) pool.deallocate(blocks[i]);
    for (size_t i = 1; i < blocks.size(); i += 2) pool.deallocate(blocks[i]);
    EXPECT_EQ(pool.stats().used_bytes, 0u);
  }
  pool.release_cached();
  EXPECT_EQ(pool.stats().total_bytes, 0u);
  EXPECT_EQ(dev.in_use(), 0u);
}

TEST(MemoryPool, ABlockUsedOnAnotherStreamWaitsForThatStreamsEvent) {
  FakeDevice dev(1 << 30);
  BlockPool pool(dev, "cuda:0");
  void* a = pool.allocate(1000, /*stream=*/1);
  void* b = pool.allocate(1000, 1);  // keeps a from merging with the free rest of the segment
  pool.record_use(a, 2);             // e.g. read inside `with gpupy.cuda.Stream():`
  pool.record_use(a, 2);             // recorded once per stream
  pool.deallocate(a);
  ASSERT_EQ(dev.recorded, std::vector<StreamKey>{2});
  EXPECT_EQ(pool.stats().used_bytes, 1024u);
  EXPECT_EQ(pool.stats().pending_bytes, 1024u);
  void* c = pool.allocate(1000, 1);
  EXPECT_NE(c, a);  // stream 2 may still be reading a
  EXPECT_NE(c, b);
  pool.deallocate(c);
  dev.finish(2);
  EXPECT_EQ(pool.allocate(1000, 1), a);  // its event has completed: a is stream 1's again
  EXPECT_EQ(pool.stats().pending_bytes, 0u);
  EXPECT_EQ(pool.stats().used_bytes, 2048u);
  EXPECT_EQ(dev.live_events(), 0u);
  EXPECT_EQ(dev.synchronizations, 0);  // allocation only queries
  EXPECT_TRUE(dev.orderings.empty());
}

TEST(MemoryPool, UseOnTheAllocationStreamRecordsNoEvent) {
  FakeDevice dev(1 << 30);
  BlockPool pool(dev, "cuda:0");
  void* a = pool.allocate(1000, 1);
  pool.record_use(a, 1);
  pool.record_use(reinterpret_cast<void*>(0x42), 2);  // not a pool block: ignored
  pool.deallocate(a);
  EXPECT_TRUE(dev.recorded.empty());
  EXPECT_EQ(pool.allocate(1000, 1), a);
  EXPECT_EQ(dev.queries, 0);  // nothing pending: the allocation path does not look
}

TEST(MemoryPool, ABlockUsedOnTwoStreamsWaitsForBoth) {
  FakeDevice dev(1 << 30);
  BlockPool pool(dev, "cuda:0");
  void* a = pool.allocate(5 * MiB, 1);
  pool.record_use(a, 2);
  pool.record_use(a, 3);
  pool.deallocate(a);
  EXPECT_EQ(dev.recorded, (std::vector<StreamKey>{2, 3}));
  dev.finish(3);
  void* b = pool.allocate(5 * MiB, 1);
  EXPECT_NE(b, a);  // stream 2 is not done yet
  EXPECT_EQ(pool.stats().pending_bytes, 5 * MiB);
  dev.finish(2);
  EXPECT_EQ(pool.allocate(5 * MiB, 1), a);
  EXPECT_EQ(pool.stats().pending_bytes, 0u);
  EXPECT_EQ(pool.stats().used_bytes, 10 * MiB);
}

TEST(MemoryPool, FreeAllBlocksWaitsForPendingBlocks) {
  FakeDevice dev(1 << 30);
  BlockPool pool(dev, "cuda:0");
  free_after_use(pool, 5 * MiB, 1, 2);
  EXPECT_EQ(pool.stats().total_bytes, 20 * MiB);
  pool.release_cached();
  EXPECT_EQ(dev.synchronizations, 1);
  EXPECT_EQ(pool.stats().total_bytes, 0u);
  EXPECT_EQ(pool.stats().pending_bytes, 0u);
  EXPECT_EQ(dev.in_use(), 0u);
  EXPECT_EQ(dev.live_events(), 0u);
}

TEST(MemoryPool, OutOfMemoryWaitsForPendingBlocksBeforeFailing) {
  FakeDevice dev(20 * MiB);
  BlockPool pool(dev, "cuda:0");
  void* a = free_after_use(pool, 15 * MiB, 1, 2);  // a 16 MiB segment
  void* b = pool.allocate(15 * MiB, 1);            // no room for a second segment
  EXPECT_EQ(b, a);
  EXPECT_EQ(dev.synchronizations, 1);
  EXPECT_EQ(dev.allocations, 1);
  EXPECT_EQ(pool.stats().pending_bytes, 0u);
  EXPECT_EQ(pool.stats().used_bytes, 15 * MiB);
}

TEST(MemoryPool, RetiringAStreamDropsItsUsesAndMovesItsPendingBlocks) {
  FakeDevice dev(1 << 30);
  BlockPool pool(dev, "cuda:0");
  // Each block below is the head of its own 20 MiB segment: asking for 20 MiB on stream 1 gets
  // the whole segment back exactly when the block is free and merged on stream 1.
  // Allocated on 1, used on 7; 7 is destroyed after its work finished: nothing to wait for.
  void* a = pool.allocate(5 * MiB, 1);
  pool.record_use(a, 7);
  pool.retire_stream(7, /*successor=*/1);
  pool.deallocate(a);
  EXPECT_TRUE(dev.recorded.empty());
  EXPECT_EQ(pool.allocate(20 * MiB, 1), a);
  // Allocated on 8, used on 1, 8 retired to 1: the use is on the new allocation stream.
  void* b = pool.allocate(5 * MiB, 8);
  pool.record_use(b, 1);
  pool.retire_stream(8, 1);
  pool.deallocate(b);
  EXPECT_TRUE(dev.recorded.empty());
  EXPECT_EQ(pool.allocate(20 * MiB, 1), b);
  // Allocated on 9, used on 2, freed (pending on 2), then 9 retired to 1: stream 1 gets it once
  // stream 2 is done.
  void* c = free_after_use(pool, 5 * MiB, 9, 2);
  pool.retire_stream(9, 1);
  void* d = pool.allocate(20 * MiB, 1);
  EXPECT_NE(d, c);
  dev.finish(2);
  EXPECT_EQ(pool.allocate(20 * MiB, 1), c);
  EXPECT_EQ(pool.stats().pending_bytes, 0u);
  EXPECT_EQ(pool.stats().used_bytes, 80 * MiB);
  EXPECT_TRUE(dev.orderings.empty());
}

TEST(MemoryPool, ABlockWhoseEventCannotBeRecordedIsNeverReused) {
  FakeDevice dev(1 << 30);
  BlockPool pool(dev, "cuda:0");
  void* a = pool.allocate(5 * MiB, 1);
  pool.record_use(a, 2);
  dev.fail_records = true;
  EXPECT_NO_THROW(pool.deallocate(a));
  dev.fail_records = false;
  EXPECT_NE(pool.allocate(5 * MiB, 1), a);
  pool.release_cached();
  EXPECT_EQ(pool.stats().pending_bytes, 5 * MiB);
  EXPECT_EQ(pool.stats().total_bytes, 20 * MiB);  // a's segment is kept
}
