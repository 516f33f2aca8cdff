// The Redis remote tier: zstd-compressed envelopes under versioned keys, SET NX.
#include "cccl_cache/cache/redis_tier.hpp"

#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <new>
#include <optional>
#include <system_error>
#include <thread>

#include "cccl_cache/cache/envelope.hpp"
#include "cccl_cache/cache/log.hpp"
#include "redis_client.hpp"
#include "redis_lease.hpp"

namespace cccl_cache {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint64_t kMaxEntryBytes = 1ull << 30;  // a decompressed envelope, at most
constexpr int kZstdLevel = 3;

std::uint64_t ns_since(Clock::time_point t0) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
}

constexpr std::size_t kMaxSignatureBytes = 256;  // "name:base64": 64 + 1 + 88

// A fetched value opened: its decompressed envelope in its own bytes (left
// uninitialized until decompressed into), its signature trailer (a view of the reply)
// and the envelope's view, or why the value is unusable.
struct Opened {
  std::unique_ptr<std::byte[]> bytes;
  std::string_view signature;
  Result<EnvelopeView> view = fail(ErrorCode::corrupt, "not opened");
};

// Decompresses and verifies one fetched value.
Result<EnvelopeView> open_value(ZSTD_DCtx* dctx, std::string_view value, Opened& out) {
  const std::size_t frame = ZSTD_findFrameCompressedSize(value.data(), value.size());
  if (ZSTD_isError(frame)) return fail(ErrorCode::corrupt, "not a whole zstd frame");
  out.signature = value.substr(frame);
  if (out.signature.size() > kMaxSignatureBytes)
    return fail(ErrorCode::corrupt, "trailing bytes after the entry");
  value = value.substr(0, frame);
  const unsigned long long size = ZSTD_getFrameContentSize(value.data(), value.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN)
    return fail(ErrorCode::corrupt, "not a zstd frame with its size");
  if (size > kMaxEntryBytes) return fail(ErrorCode::corrupt, "declares an oversized entry");
  out.bytes.reset(new (std::nothrow) std::byte[std::max<std::size_t>(size, 1)]);
  if (!out.bytes) return fail(ErrorCode::corrupt, "declares an entry too large to hold");
  const std::size_t got =
      dctx ? ZSTD_decompressDCtx(dctx, out.bytes.get(), size, value.data(), value.size())
           : ZSTD_decompress(out.bytes.get(), size, value.data(), value.size());
  if (ZSTD_isError(got) || got != size)
    return fail(ErrorCode::corrupt, std::string("does not decompress: ") +
                                        (ZSTD_isError(got) ? ZSTD_getErrorName(got) : "short"));
  return decode_envelope(std::span<const std::byte>(out.bytes.get(), size));
}

// Replies at least this large (compressed) are opened by several threads: a node's
// start-up fetches its cubins in one MGET (about 0.6 MB for 12 specs, a fifth of that
// compressed), and decompressing them one after another was most of its lookup's time.
constexpr std::size_t kParallelReplyBytes = 64 * 1024;
constexpr unsigned kMaxOpenThreads = 4;  // the calling thread included
constexpr std::size_t kOpenWindow = 16;  // values held decompressed at once

// One reply's values being opened: each claimed by one thread (the caller or a helper).
// Helpers are detached and share the job: one that starts after every value is claimed
// leaves without touching them, and the caller waits only for the values claimed, so a
// helper the scheduler has not run yet never delays it.
struct OpenJob {
  std::span<const std::optional<std::string_view>> values;  // valid until all are opened
  std::span<Opened> out;
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::condition_variable opened_all;
  std::size_t opened = 0;  // guarded by mutex

  void work() {
    std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(nullptr, &ZSTD_freeDCtx);
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < values.size();) {
      if (values[i]) {
        if (!dctx) dctx.reset(ZSTD_createDCtx());  // null: ZSTD_decompress makes its own
        out[i].view = open_value(dctx.get(), *values[i], out[i]);
      }
      std::lock_guard lock(mutex);
      if (++opened == values.size()) opened_all.notify_all();
    }
  }
};

// Opens values[i] into out[i] for each value that is not null (a miss).
void open_values(std::span<const std::optional<std::string_view>> values, std::span<Opened> out) {
  std::size_t bytes = 0;
  for (const auto& v : values) bytes += v ? v->size() : 0;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t threads =
      bytes < kParallelReplyBytes ? 1 : std::min<std::size_t>({values.size(), cores, kMaxOpenThreads});
  auto job = std::make_shared<OpenJob>();
  job->values = values;
  job->out = out;
  for (std::size_t t = 1; t < threads; ++t) {
    try {
      std::thread([job] { job->work(); }).detach();
    } catch (const std::system_error&) {
      break;  // no thread: the others (this one at least) open them all
    }
  }
  job->work();
  std::unique_lock lock(job->mutex);
  job->opened_all.wait(lock, [&] { return job->opened == values.size(); });
}

EntryMeta meta_of(const EnvelopeView& v) {
  EntryMeta m;
  m.algorithm = std::string(v.fields.algorithm);
  m.summary = std::string(v.fields.summary);
  m.toolchain = std::string(v.fields.toolchain);
  m.payload_format = v.fields.payload_format;
  m.created_unix = v.fields.created_unix;
  m.payload_size = v.payload.size();
  return m;
}

class RedisTierImpl final : public RedisTier {
 public:
  RedisTierImpl(std::shared_ptr<detail::RedisClient> client, bool read_only)
      : client_(std::move(client)), read_only_(read_only), name_(client_->url()) {}

  ~RedisTierImpl() override {
    if (client_->available()) (void)flush_stats();
  }

  const std::string& name() const override { return name_; }
  bool read_only() const override { return read_only_; }

  Result<bool> get_signed_with(const CacheKey& key, const SignedEntryFn& fn) override {
    bool hit = false;
    get_many(std::span(&key, 1),
             [&](std::size_t, const EntryMeta& m, std::span<const std::byte> p, std::string_view sig) {
               hit = true;
               fn(m, p, sig);
             });
    return hit;
  }

  std::size_t get_many(std::span<const CacheKey> keys, const ManyFn& fn) override {
    return fetch(keys, [&](std::size_t i, const EnvelopeView& view, Opened& opened) {
      fn(i, meta_of(view), view.payload, opened.signature);
    });
  }

  std::size_t get_many_owned(std::span<const CacheKey> keys, const OwnedManyFn& fn) override {
    return fetch(keys, [&](std::size_t i, const EnvelopeView& view, Opened& opened) {
      // The payload stays where it was decompressed: the buffer changes hands.
      std::shared_ptr<const std::byte[]> owner(std::move(opened.bytes));
      fn(i, meta_of(view), SharedBytes{std::move(owner), view.payload}, opened.signature);
    });
  }

  Result<bool> put_signed(const CacheKey& key, const EntryMeta& meta,
                          std::span<const std::byte> payload, std::string_view signature) override {
    if (signature.size() > kMaxSignatureBytes)
      return fail(ErrorCode::invalid_argument, "signature longer than a signature can be");
    if (read_only_) return fail(ErrorCode::read_only, "remote tier " + name_ + " is read-only");
    EnvelopeFields f{meta.algorithm, meta.summary, meta.toolchain, meta.payload_format,
                     meta.created_unix ? meta.created_unix
                                       : std::chrono::duration_cast<std::chrono::seconds>(
                                             std::chrono::system_clock::now().time_since_epoch())
                                             .count()};
    CCCL_CACHE_TRY(std::size_t size, envelope_size(f, payload.size()));
    std::vector<std::byte> envelope(size);
    encode_envelope(envelope, f, payload);
    std::string packed(ZSTD_compressBound(size), '\0');
    const std::size_t n = ZSTD_compress(packed.data(), packed.size(), envelope.data(), size, kZstdLevel);
    if (ZSTD_isError(n)) return fail(ErrorCode::internal, ZSTD_getErrorName(n));
    packed.resize(n);
    packed += signature;  // the detached signature travels behind the frame
    const std::string name = entry_key(key);
    std::string_view argv[] = {"SET", name, packed, "NX"};
    counters_.requests.fetch_add(1, std::memory_order_relaxed);
    auto reply = client_->command(argv);
    if (!reply) {
      counters_.errors.fetch_add(1, std::memory_order_relaxed);
      return tl::unexpected(reply.error());
    }
    const bool stored = (*reply)->type == REDIS_REPLY_STATUS;
    if (stored) counters_.puts.fetch_add(1, std::memory_order_relaxed);
    return stored;
  }

  Result<bool> remove(const CacheKey& key) override {
    if (read_only_) return fail(ErrorCode::read_only, "remote tier " + name_ + " is read-only");
    const std::string name = entry_key(key);
    std::string_view argv[] = {"DEL", name};
    CCCL_CACHE_TRY(auto reply, client_->command(argv));
    return reply->type == REDIS_REPLY_INTEGER && reply->integer > 0;
  }

  Result<void> for_each(const ListFn& fn) override {
    const std::string prefix = entry_key(CacheKey{}).substr(0, entry_key(CacheKey{}).rfind(':') + 1);
    const std::string match = prefix + "*";
    std::string cursor = "0";
    std::vector<std::byte> buffer;
    do {
      std::string_view scan[] = {"SCAN", cursor, "MATCH", match, "COUNT", "256"};
      CCCL_CACHE_TRY(auto reply, client_->command(scan));
      if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2)
        return fail(ErrorCode::corrupt, "remote tier " + name_ + ": unexpected SCAN reply");
      cursor.assign(reply->element[0]->str, reply->element[0]->len);
      const redisReply* names = reply->element[1];
      std::vector<CacheKey> keys;
      for (std::size_t i = 0; i < names->elements; ++i) {
        std::string_view n(names->element[i]->str, names->element[i]->len);
        if (auto k = CacheKey::parse(n.substr(prefix.size()))) keys.push_back(*k);
      }
      bool go_on = true;
      if (!keys.empty())
        get_many(keys, [&](std::size_t i, const EntryMeta& m, std::span<const std::byte>,
                           std::string_view) {
          if (go_on) go_on = fn(keys[i], m);
        });
      if (!go_on) break;
    } while (cursor != "0");
    return {};
  }

  TierStats stats() const override {
    TierStats s = counters_.snapshot();
    s.available = client_->available();
    return s;
  }

  Result<std::chrono::nanoseconds> ping() override {
    client_->reset_breaker();
    const auto t0 = Clock::now();
    std::string_view argv[] = {"PING"};
    CCCL_CACHE_TRY(auto reply, client_->command(argv));
    (void)reply;
    return std::chrono::nanoseconds(ns_since(t0));
  }

  Result<void> flush_stats() override {
    std::lock_guard lock(flush_mutex_);
    last_flush_.store(Clock::now());
    const TierStats now = counters_.snapshot();
    const std::uint64_t delta[] = {now.hits - flushed_.hits,       now.misses - flushed_.misses,
                                   now.errors - flushed_.errors,   now.rejected - flushed_.rejected,
                                   now.puts - flushed_.puts,
                                   (now.get_ns_total - flushed_.get_ns_total) / 1000,
                                   now.requests - flushed_.requests};
    static_assert(sizeof(delta) / sizeof(delta[0]) == std::size(kStatFields));
    std::vector<std::string> values;
    std::vector<std::vector<std::string_view>> cmds;
    const std::string hash = stats_key();
    values.reserve(std::size(delta));
    for (std::size_t i = 0; i < std::size(delta); ++i) {
      if (delta[i] == 0) continue;
      values.push_back(std::to_string(delta[i]));
      cmds.push_back({"HINCRBY", hash, kStatFields[i], values.back()});
    }
    if (cmds.empty()) return {};
    CCCL_CACHE_TRY(auto replies, client_->pipeline(cmds));
    (void)replies;
    flushed_ = now;
    return {};
  }

  Result<TierStats> shared_stats() override {
    const std::string hash = stats_key();
    std::vector<std::string_view> argv{"HMGET", hash};
    for (const char* f : kStatFields) argv.push_back(f);
    CCCL_CACHE_TRY(auto reply, client_->command(argv));
    std::uint64_t v[std::size(kStatFields)] = {};
    for (std::size_t i = 0; i < std::size(kStatFields) && i < reply->elements; ++i)
      if (reply->element[i]->type == REDIS_REPLY_STRING)
        v[i] = std::strtoull(reply->element[i]->str, nullptr, 10);
    TierStats s;
    s.hits = v[0];
    s.misses = v[1];
    s.errors = v[2];
    s.rejected = v[3];
    s.puts = v[4];
    s.get_ns_total = v[5] * 1000;
    s.requests = v[6];
    return s;
  }

  std::shared_ptr<BuildClaim> lease(std::chrono::milliseconds lease_for) override {
    return detail::make_redis_lease(client_, lease_for);
  }

 private:
  // One MGET of `keys`; calls `use(i, envelope, opened)` for each verified hit, in key order.
  template <class Use>
  std::size_t fetch(std::span<const CacheKey> keys, const Use& use) {
    if (keys.empty()) return 0;
    const auto t0 = Clock::now();
    counters_.requests.fetch_add(1, std::memory_order_relaxed);
    std::vector<std::string> names;
    std::vector<std::string_view> argv{"MGET"};
    names.reserve(keys.size());
    for (const auto& k : keys) names.push_back(entry_key(k));
    for (const auto& n : names) argv.push_back(n);
    auto reply = client_->command(argv);
    const std::uint64_t ns = ns_since(t0);
    if (!reply || (*reply)->type != REDIS_REPLY_ARRAY || (*reply)->elements != keys.size()) {
      counters_.errors.fetch_add(1, std::memory_order_relaxed);
      counters_.get_ns.fetch_add(ns, std::memory_order_relaxed);
      return 0;
    }
    std::size_t hits = 0;
    std::vector<std::optional<std::string_view>> values(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (const redisReply* e = (*reply)->element[i]; e->type == REDIS_REPLY_STRING)
        values[i] = std::string_view(e->str, e->len);
    // Opened a window at a time, so that a long reply (for_each's) is never held
    // decompressed whole.
    std::vector<Opened> opened(std::min(keys.size(), kOpenWindow));
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (i % kOpenWindow == 0) {
        const std::size_t n = std::min(kOpenWindow, keys.size() - i);
        for (auto& o : opened) o = Opened{};
        open_values(std::span(values).subspan(i, n), std::span(opened).first(n));
      }
      if (!values[i]) {
        counters_.record_get(ns / keys.size(), false);
        continue;
      }
      const auto& view = opened[i % kOpenWindow].view;
      if (!view) {
        counters_.rejected.fetch_add(1, std::memory_order_relaxed);
        counters_.record_get(ns / keys.size(), false);
        if (!warned_corrupt_.exchange(true))
          logger()->warn("remote tier {}: rejected entry {} ({}); treated as a miss (further "
                         "such warnings suppressed)",
                         name_, keys[i].to_string(), view.error().describe());
        continue;
      }
      counters_.record_get(ns / keys.size(), true);
      ++hits;
      use(i, *view, opened[i % kOpenWindow]);
    }
    if (Clock::now() - last_flush_.load() > std::chrono::seconds(10)) (void)flush_stats();
    return hits;
  }

  std::shared_ptr<detail::RedisClient> client_;
  const bool read_only_;
  const std::string name_;
  static constexpr const char* kStatFields[] = {"hits",   "misses", "errors",  "rejected",
                                                "puts",   "get_us", "requests"};
  static std::string stats_key() {
    return "cccl-cache:e" + std::to_string(kEnvelopeVersion) + ":stats";
  }
  TierCounters counters_;
  std::atomic<bool> warned_corrupt_{false};
  std::mutex flush_mutex_;
  TierStats flushed_;  // what flush_stats() has added to the server's totals
  std::atomic<Clock::time_point> last_flush_{Clock::now()};
};

}  // namespace

std::string RedisTier::entry_key(const CacheKey& key) {
  return "cccl-cache:e" + std::to_string(kEnvelopeVersion) + ":" + key.to_string();
}

Result<std::unique_ptr<RedisTier>> RedisTier::open(const Config::Remote& remote) {
  CCCL_CACHE_TRY(auto client, detail::RedisClient::make(remote));
  return std::make_unique<RedisTierImpl>(std::move(client), remote.read_only);
}

}  // namespace cccl_cache
