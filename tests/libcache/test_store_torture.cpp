// Kill torture: 1,000 writer processes doing puts, removes, evictions and clears are
// SIGKILLed at random moments while reader processes (also killed now and then) check
// every entry they read. Each writer reports an operation before it starts and after
// it returned success, over a pipe, so the parent knows for every key which versions
// may be stored and which removals may have happened. At checkpoints (no writer alive)
// and at the end a checker process opens the store and reads every key:
//   corrupt      an entry whose bytes do not match its key and version, or counted
//                corrupt by the store;
//   lost         a key without entry although a put of it was reported committed and
//                no remove/evict/clear that could have followed it was started;
//   stale        an entry older than a reported-committed put that followed it;
//   resurrected  an entry that a remove or clear completed after its put still shows;
//   unopenable   a writer, reader or checker whose Store::open failed.
// All must be 0. The counts are printed.
#include <fcntl.h>
#include <signal.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <thread>
#include <unordered_map>

#include "test_util.hpp"

namespace cccl_cache {
namespace {

constexpr int kWriters = 1000;
constexpr int kConcurrentWriters = 3;
constexpr int kReaders = 2;
constexpr std::uint32_t kKeys = 48;
constexpr int kCheckEvery = 100;  // writers between checkpoints
constexpr std::int64_t kForever = std::numeric_limits<std::int64_t>::max();

std::int64_t now_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

enum class Op : std::uint8_t {
  put_begin,
  put_done,
  remove_begin,
  remove_done,
  evict_begin,
  evict_done,
  clear_begin,
  clear_done,
  reads,        // a = entries checked, b = bad ones, version = failed reads (since last)
  open_failed,  // Store::open failed in a child
  op_failed,    // a writer's put/remove/evict/clear returned an error (a = its ErrorCode)
  probe,        // checker: key, a = present, version, b = bad payload
  probe_stats,  // checker: a = store's corrupt counter
};

// One pipe record: small enough that a write() of it is atomic.
struct Record {
  Op op;
  std::uint32_t writer = 0;
  std::uint32_t key = 0;
  std::uint64_t version = 0;
  std::int64_t time = 0;
  std::uint64_t a = 0, b = 0;
};

void send(int fd, Record r) {
  if (r.time == 0) r.time = now_ns();
  (void)!::write(fd, &r, sizeof r);
}

// The payload of (key, version): a 12-byte header and a pattern derived from both.
std::vector<std::byte> payload_of(std::uint32_t key, std::uint64_t version) {
  std::vector<std::byte> out(12 + version % 97);
  std::memcpy(out.data(), &key, 4);
  std::memcpy(out.data() + 4, &version, 8);
  std::uint64_t x = (std::uint64_t(key) << 40) ^ version ^ 0x9E37'79B9'7F4A'7C15ull;
  for (std::size_t i = 12; i < out.size(); ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    out[i] = std::byte(x);
  }
  return out;
}

// The version a stored payload of `key` carries, or nullopt when it is not a payload
// of that key.
std::optional<std::uint64_t> version_of(std::uint32_t key, std::span<const std::byte> p) {
  if (p.size() < 12) return std::nullopt;
  std::uint32_t k = 0;
  std::uint64_t v = 0;
  std::memcpy(&k, p.data(), 4);
  std::memcpy(&v, p.data() + 4, 8);
  if (k != key) return std::nullopt;
  auto want = payload_of(key, v);
  if (want.size() != p.size() || !std::equal(want.begin(), want.end(), p.begin()))
    return std::nullopt;
  return v;
}

CacheKey make_key_of(std::uint32_t key) { return test::make_key(key); }

EntryMeta meta() {
  EntryMeta m;
  m.algorithm = "torture";
  m.toolchain = "t";
  m.payload_format = 1;
  return m;
}

// Reports a writer's failed operation (with its error, on stderr) to the parent.
void failed(int fd, std::uint32_t w, const char* what, const Error& e) {
  std::fprintf(stderr, "writer %u: %s failed: %s\n", w, what, e.describe().c_str());
  send(fd, {Op::op_failed, w, 0, 0, 0, static_cast<std::uint64_t>(e.code)});
}

[[noreturn]] void writer_main(const Config& cfg, int fd, std::uint32_t w) {
  auto store = Store::open(cfg);
  if (!store) {
    send(fd, {Op::open_failed, w});
    ::_exit(3);
  }
  std::mt19937_64 rng(0x5eed0000ull + w);
  for (std::uint64_t n = 0;; ++n) {
    const auto dice = rng() % 1000;
    const auto key = std::uint32_t(rng() % kKeys);
    if (dice < 850) {
      const std::uint64_t version = (std::uint64_t(w + 1) << 32) | n;
      send(fd, {Op::put_begin, w, key, version});
      if (auto put = (*store)->put(make_key_of(key), meta(), payload_of(key, version)))
        send(fd, {Op::put_done, w, key, version});
      else
        failed(fd, w, "put", put.error());
    } else if (dice < 930) {
      send(fd, {Op::remove_begin, w, key});
      if (auto r = (*store)->remove(make_key_of(key)))
        send(fd, {Op::remove_done, w, key});
      else
        failed(fd, w, "remove", r.error());
    } else if (dice < 933) {
      send(fd, {Op::evict_begin, w});
      EvictCriteria c;
      c.max_live_bytes = rng() % 3000;
      if (auto r = (*store)->evict(c))
        send(fd, {Op::evict_done, w});
      else
        failed(fd, w, "evict", r.error());
    } else if (dice < 934) {
      send(fd, {Op::clear_begin, w});
      if (auto r = (*store)->clear())
        send(fd, {Op::clear_done, w});
      else
        failed(fd, w, "clear", r.error());
    } else {
      (void)(*store)->get(make_key_of(key));
    }
  }
}

[[noreturn]] void reader_main(const Config& cfg, int fd, std::uint32_t r) {
  auto store = Store::open(cfg);
  if (!store) {
    send(fd, {Op::open_failed, r});
    ::_exit(3);
  }
  std::mt19937_64 rng(0xbeef0000ull + r + std::uint64_t(::getpid()));
  std::uint64_t checked = 0, bad = 0, failed = 0;
  for (std::uint64_t n = 1;; ++n) {
    const auto key = std::uint32_t(rng() % kKeys);
    auto check = [&](std::span<const std::byte> p) {
      ++checked;
      if (!version_of(key, p)) ++bad;
    };
    if (n % 2) {
      auto got = (*store)->get(make_key_of(key));
      if (!got) ++failed;
      if (got && got->has_value()) check((*got)->payload);
    } else {
      auto hit = (*store)->get_with(make_key_of(key), [&](const EntryMeta&, auto p) { check(p); });
      if (!hit) ++failed;
    }
    if (n % 128 == 0) {
      send(fd, {Op::reads, r, 0, failed, 0, checked, bad});
      checked = bad = failed = 0;
    }
  }
}

// Reads every key (peek: checksum verified, no hit counted) and reports it.
[[noreturn]] void checker_main(const Config& cfg, int fd) {
  auto store = Store::open(cfg);
  if (!store) {
    send(fd, {Op::open_failed});
    ::_exit(3);
  }
  for (std::uint32_t k = 0; k < kKeys; ++k) {
    auto got = (*store)->peek(make_key_of(k));
    Record rec{Op::probe, 0, k};
    if (!got) {
      rec.b = 1;
    } else if (got->has_value()) {
      rec.a = 1;
      auto v = version_of(k, (*got)->payload);
      if (v)
        rec.version = *v;
      else
        rec.b = 1;
    }
    send(fd, rec);
  }
  auto s = (*store)->stats();
  send(fd, {Op::probe_stats, 0, 0, 0, 0, s ? s->corrupt : 1});
  ::_exit(0);
}

// What the parent knows about every operation the writers started.
struct Ledger {
  struct Put {
    std::uint32_t key;
    std::int64_t start, end = kForever;
    bool done = false;
  };
  struct Destroy {
    Op kind;  // remove_begin, evict_begin, clear_begin
    std::uint32_t key;
    std::int64_t start, end = kForever;
    bool done = false;
  };
  std::unordered_map<std::uint64_t, Put> puts;  // by version
  std::vector<Destroy> destroys;
  std::map<std::uint32_t, std::uint64_t> pending_put;
  std::map<std::uint32_t, std::size_t> pending_destroy;
  std::uint64_t puts_done = 0, removes = 0, evicts = 0, clears = 0;
  std::uint64_t reads_checked = 0, reads_bad = 0, reads_failed = 0, unopenable = 0;
  std::uint64_t ops_failed = 0, ops_full = 0;

  void apply(const Record& r) {
    switch (r.op) {
      case Op::put_begin:
        puts[r.version] = {r.key, r.time};
        pending_put[r.writer] = r.version;
        break;
      case Op::put_done:
        puts[r.version].end = r.time;
        puts[r.version].done = true;
        pending_put.erase(r.writer);
        ++puts_done;
        break;
      case Op::remove_begin:
      case Op::evict_begin:
      case Op::clear_begin:
        destroys.push_back({r.op, r.key, r.time});
        pending_destroy[r.writer] = destroys.size() - 1;
        break;
      case Op::remove_done:
      case Op::evict_done:
      case Op::clear_done: {
        auto& d = destroys[pending_destroy[r.writer]];
        d.end = r.time;
        d.done = true;
        pending_destroy.erase(r.writer);
        (r.op == Op::remove_done ? removes : r.op == Op::evict_done ? evicts : clears)++;
        break;
      }
      case Op::reads:
        reads_checked += r.a;
        reads_bad += r.b;
        reads_failed += r.version;
        break;
      case Op::open_failed:
        ++unopenable;
        break;
      case Op::op_failed:
        // The op stays pending: it may still have committed. An operation refused with
        // storage_full is documented behaviour (the map at its ceiling while a live
        // reader, slow under load, pins the pages a write would reuse; even a delete
        // needs fresh pages): a clear error that harms nothing, counted apart.
        if (r.a == static_cast<std::uint64_t>(ErrorCode::storage_full))
          ++ops_full;
        else
          ++ops_failed;
        break;
      default:
        break;
    }
  }
  // Writer `w` is dead (reaped at `t`): its unfinished operation ended by then.
  void reaped(std::uint32_t w, std::int64_t t) {
    if (auto it = pending_put.find(w); it != pending_put.end()) {
      puts[it->second].end = t;
      pending_put.erase(it);
    }
    if (auto it = pending_destroy.find(w); it != pending_destroy.end()) {
      destroys[it->second].end = t;
      pending_destroy.erase(it);
    }
  }
};

struct Verdict {
  std::uint64_t corrupt = 0, lost = 0, stale = 0, resurrected = 0, present = 0;
};

// Judges one checker probe of key `k` against the ledger (no writer alive).
void judge(const Ledger& l, const Record& probe, Verdict& v) {
  const std::uint32_t k = probe.key;
  if (probe.b) {
    ++v.corrupt;
    return;
  }
  // The latest-started put of k reported committed.
  const Ledger::Put* last = nullptr;
  for (const auto& [ver, p] : l.puts)
    if (p.key == k && p.done && (!last || p.start > last->start)) last = &p;
  auto covers = [&](const Ledger::Destroy& d) { return d.kind != Op::remove_begin || d.key == k; };
  if (probe.a) {
    ++v.present;
    auto it = l.puts.find(probe.version);
    if (it == l.puts.end() || it->second.key != k) {
      ++v.corrupt;  // a version nobody put under this key
      return;
    }
    const auto& p = it->second;
    if (last && p.end < last->start) ++v.stale;
    // A remove of k or a clear that completed and started after this put ended, with
    // no put of k that could have committed after it started.
    for (const auto& d : l.destroys) {
      if (!d.done || d.kind == Op::evict_begin || !covers(d) || d.start <= p.end) continue;
      bool rewritten = false;
      for (const auto& [ver, q] : l.puts)
        if (q.key == k && q.end > d.start) rewritten = true;
      if (!rewritten) {
        ++v.resurrected;
        break;
      }
    }
    return;
  }
  if (!last) return;  // never reported committed: absence is fine
  for (const auto& d : l.destroys)
    if (covers(d) && d.end > last->start) return;  // could have removed it after it committed
  ++v.lost;
}

class Torture {
 public:
  explicit Torture(const Config& cfg) : cfg_(cfg) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) std::abort();
    rd_ = fds[0];
    wr_ = fds[1];
    ::fcntl(rd_, F_SETFL, O_NONBLOCK);
  }
  ~Torture() {
    ::close(rd_);
    ::close(wr_);
  }

  pid_t spawn(const std::function<void()>& body) {
    pid_t pid = ::fork();
    if (pid == 0) {
      body();
      ::_exit(0);
    }
    return pid;
  }

  // Reads every record in the pipe now.
  void drain() {
    Record r;
    for (;;) {
      ssize_t n = ::read(rd_, &r, sizeof r);
      if (n != ssize_t(sizeof r)) break;
      ledger.apply(r);
    }
  }

  void kill_writer(pid_t pid, std::uint32_t w) {
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    const std::int64_t t = now_ns();
    if (WIFSIGNALED(status)) ++killed;
    drain();  // everything it wrote is in the pipe now
    ledger.reaped(w, t);
  }

  // Runs a checker process and judges every key; no writer may be alive.
  Verdict check() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) std::abort();
    pid_t pid = spawn([&] { checker_main(cfg_, fds[1]); });
    ::close(fds[1]);
    std::vector<Record> probes;
    Record r;
    Verdict v;
    while (::read(fds[0], &r, sizeof r) == ssize_t(sizeof r)) {
      if (r.op == Op::probe) probes.push_back(r);
      if (r.op == Op::probe_stats) v.corrupt += r.a;
      if (r.op == Op::open_failed) ++ledger.unopenable;
    }
    ::close(fds[0]);
    ::waitpid(pid, nullptr, 0);
    drain();
    for (const auto& p : probes) judge(ledger, p, v);
    if (probes.size() != kKeys) ++ledger.unopenable;
    ++checkpoints;
    return v;
  }

  Ledger ledger;
  std::uint64_t killed = 0, checkpoints = 0;
  int wr_ = -1;

 private:
  Config cfg_;
  int rd_ = -1;
};

TEST(StoreTorture, ThousandKilledWritersLoseNoCommittedEntry) {
  // tmpfs when there is one: the test is about killed processes, not disk speed.
  const std::filesystem::path base = std::filesystem::is_directory("/dev/shm")
                                         ? "/dev/shm"
                                         : std::filesystem::temp_directory_path();
  test::TempDir dir(base);
  auto cfg = test::test_config(dir / "store");
  cfg.initial_map_size = 256ull << 10;  // grows under the kills too
  cfg.max_readers = 64;
  cfg.touch_interval_s = 0;       // readers write their hit stamps often: more writers
  ASSERT_TRUE(Store::open(cfg));  // create it; this process then keeps no environment
  Torture t(cfg);
  std::mt19937_64 rng(42);
  std::vector<pid_t> readers;
  auto spawn_reader = [&](std::uint32_t r) {
    return t.spawn([&, r] { reader_main(cfg, t.wr_, r); });
  };
  for (int r = 0; r < kReaders; ++r) readers.push_back(spawn_reader(std::uint32_t(r)));

  struct Live {
    pid_t pid;
    std::uint32_t w;
    std::int64_t deadline;
  };
  std::vector<Live> live;
  Verdict total;
  auto add = [&](const Verdict& v) {
    total.corrupt += v.corrupt;
    total.lost += v.lost;
    total.stale += v.stale;
    total.resurrected += v.resurrected;
    total.present += v.present;
  };
  const auto started = std::chrono::steady_clock::now();
  int next = 0;
  while (next < kWriters || !live.empty()) {
    while (next < kWriters && int(live.size()) < kConcurrentWriters &&
           (next % kCheckEvery != 0 || next == 0 || live.empty())) {
      if (next % kCheckEvery == 0 && next > 0 && !t.ledger.puts.empty()) add(t.check());
      const auto w = std::uint32_t(next++);
      const std::int64_t delay_us = std::int64_t(rng() % 12'000);  // 0-12 ms
      pid_t pid = t.spawn([&, w] { writer_main(cfg, t.wr_, w); });
      live.push_back({pid, w, now_ns() + delay_us * 1000});
      if (next % 150 == 0) {  // a reader dies too, leaving its slot (and maybe a snapshot)
        const std::size_t victim = rng() % readers.size();
        ::kill(readers[victim], SIGKILL);
        ::waitpid(readers[victim], nullptr, 0);
        readers[victim] = spawn_reader(std::uint32_t(victim));
      }
    }
    t.drain();
    const std::int64_t now = now_ns();
    for (auto it = live.begin(); it != live.end();) {
      if (it->deadline <= now) {
        t.kill_writer(it->pid, it->w);
        it = live.erase(it);
      } else {
        ++it;
      }
    }
    std::this_thread::sleep_for(std::chrono::microseconds(300));
  }
  for (pid_t pid : readers) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }
  t.drain();
  add(t.check());
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const auto& l = t.ledger;
  std::printf(
      "kill torture: %d writers (%llu SIGKILLed), %zu puts started, %llu reported committed, "
      "%llu removes, %llu evictions, %llu clears, %llu failed (%llu refused as storage_full); readers checked %llu entries (%llu "
      "reads "
      "failed); %llu "
      "checkpoints saw %llu present entries; corrupt %llu (readers: %llu), lost %llu, stale %llu, "
      "resurrected %llu, unopenable %llu; %.1f s\n",
      kWriters, (unsigned long long)t.killed, l.puts.size(), (unsigned long long)l.puts_done,
      (unsigned long long)l.removes, (unsigned long long)l.evicts, (unsigned long long)l.clears,
      (unsigned long long)l.ops_failed, (unsigned long long)l.ops_full,
      (unsigned long long)l.reads_checked,
      (unsigned long long)l.reads_failed, (unsigned long long)t.checkpoints,
      (unsigned long long)total.present, (unsigned long long)total.corrupt,
      (unsigned long long)l.reads_bad, (unsigned long long)total.lost,
      (unsigned long long)total.stale, (unsigned long long)total.resurrected,
      (unsigned long long)l.unopenable, secs);
  EXPECT_EQ(t.killed, std::uint64_t(kWriters));
  EXPECT_GT(l.puts_done, std::uint64_t(kWriters));  // the writers did real work
  EXPECT_GT(l.reads_checked, 0u);
  EXPECT_GT(total.present, 0u);
  EXPECT_EQ(total.corrupt, 0u);
  EXPECT_EQ(l.reads_bad, 0u);
  EXPECT_EQ(l.reads_failed, 0u);
  EXPECT_EQ(l.ops_failed, 0u);
  EXPECT_EQ(total.lost, 0u);
  EXPECT_EQ(total.stale, 0u);
  EXPECT_EQ(total.resurrected, 0u);
  EXPECT_EQ(l.unopenable, 0u);
}

}  // namespace
}  // namespace cccl_cache
