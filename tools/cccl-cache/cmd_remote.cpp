// cccl-cache remote ping, push and pull: the remote tier (Redis) from the shell.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "cccl_cache/cache/log.hpp"
#include "cccl_cache/cache/signing.hpp"
#include "commands.hpp"
#include "format.hpp"
#include "remote_util.hpp"

namespace cccl_cache::cli {

Result<std::unique_ptr<RedisTier>> open_remote_tier(const Config& config, std::uint32_t timeout_ms) {
  if (config.remote.url.empty())
    return fail(ErrorCode::invalid_argument,
                "no remote tier is configured (set CCCL_CACHE_REMOTE=redis://host:port/db or "
                "'remote' in the config)");
  Config::Remote remote = config.remote;
  remote.timeout_ms = timeout_ms ? timeout_ms : std::max(remote.timeout_ms, kCliRemoteTimeoutMs);
  return RedisTier::open(remote);
}

namespace {

struct SyncOptions {
  std::string algorithm;
  std::string arch;
  bool dry_run = false;
  bool json = false;
  std::uint32_t timeout_ms = 0;
};

int run_ping(const Context& ctx, const SyncOptions& o) {
  auto config = load_config(ctx.globals);
  if (!config) return report(config.error());
  auto remote = open_remote_tier(*config, o.timeout_ms);
  if (!remote) return report(remote.error());
  auto rtt = (*remote)->ping();
  if (o.json) {
    nlohmann::json j{{"remote", (*remote)->name()}, {"reachable", rtt.has_value()}};
    if (rtt) j["round_trip_ms"] = static_cast<double>(rtt->count()) / 1e6;
    else j["error"] = rtt.error().describe();
    print_json(j);
    return rtt ? kExitOk : kExitUnavailable;
  }
  if (!rtt) return report(kExitUnavailable, (*remote)->name() + ": " + rtt.error().describe());
  std::printf("%s: reachable, round trip %.3f ms\n", (*remote)->name().c_str(),
              static_cast<double>(rtt->count()) / 1e6);
  return kExitOk;
}

struct Tally {
  std::uint64_t copied = 0, present = 0, failed = 0, bytes = 0;
};

int finish(const char* verb, const SyncOptions& o, const Tally& t, const std::string& from,
           const std::string& to) {
  if (o.json) {
    print_json({{"from", from}, {"to", to}, {"dry_run", o.dry_run}, {"copied", t.copied},
                {"already_present", t.present}, {"failed", t.failed}, {"bytes", t.bytes}});
  } else {
    std::printf("%s %llu entr%s (%s) from %s to %s; %llu already there; %llu failed\n", verb,
                static_cast<unsigned long long>(t.copied), t.copied == 1 ? "y" : "ies",
                human_size(t.bytes).c_str(), from.c_str(), to.c_str(),
                static_cast<unsigned long long>(t.present),
                static_cast<unsigned long long>(t.failed));
  }
  return t.failed ? kExitProblems : kExitOk;
}

// The keys of `source` (the local store or the remote tier) that pass the filters.
template <class Source>
Result<std::vector<CacheKey>> matching_keys(Source& source, const SyncOptions& o,
                                            std::optional<std::uint32_t> cc) {
  std::vector<CacheKey> keys;
  auto listed = source.for_each([&](const CacheKey& key, const EntryMeta& meta) {
    if ((o.algorithm.empty() || meta.algorithm == o.algorithm) && (!cc || key.cc == *cc))
      keys.push_back(key);
    return true;
  });
  if (!listed) return tl::unexpected(listed.error());
  return keys;
}

// The configured remote, answering a ping; else the exit code already reported.
tl::expected<std::unique_ptr<RedisTier>, int> reachable_remote(const Config& config,
                                                               const SyncOptions& o) {
  auto remote = open_remote_tier(config, o.timeout_ms);
  if (!remote) return tl::unexpected(report(remote.error()));
  if (auto rtt = (*remote)->ping(); !rtt)
    return tl::unexpected(
        report(kExitUnavailable, (*remote)->name() + ": " + rtt.error().describe()));
  return std::move(*remote);
}

// Local -> remote: every matching local entry, verified, published if absent.
int run_push(const Context& ctx, const SyncOptions& o) {
  const auto cc = parse_arch_filter(o.arch);
  if (!cc) return report(cc.error());
  auto config = load_config(ctx.globals);
  if (!config) return report(config.error());
  if (config->remote.read_only)
    return report(kExitUsage, "push: the remote tier is configured read-only (remote_read_only)");
  auto signer = load_signing_key(*config);  // signs every entry when configured, else
  if (!signer) return report(signer.error());  // each carries its stored signature
  auto remote = reachable_remote(*config, o);
  if (!remote) return remote.error();
  auto store = open_store(ctx.globals, OpenMode::read);
  if (!store) return report(store.error());
  auto keys = matching_keys(**store, o, *cc);
  if (!keys) return report(keys.error());
  Tally t;
  for (const auto& key : *keys) {
    auto entry = (*store)->peek(key);  // checksum verified
    if (!entry || !*entry) {
      ++t.failed;
      if (!entry) logger()->warn("push: {}: {}", key.to_string(), entry.error().describe());
      continue;
    }
    if (o.dry_run) {
      ++t.copied;
      t.bytes += (*entry)->payload.size();
      continue;
    }
    const auto& e = **entry;
    auto put = (*remote)->put_signed(
        key, e.meta, e.payload,
        *signer ? (*signer)->sign(key, signed_fields(e.meta), e.payload) : e.signature);
    if (!put) {
      ++t.failed;
      logger()->warn("push: {}: {}", key.to_string(), put.error().describe());
    } else if (*put) {
      ++t.copied;
      t.bytes += (*entry)->payload.size();
    } else {
      ++t.present;
    }
  }
  return finish(o.dry_run ? "would push" : "pushed", o, t, (*store)->config().dir.string(),
                (*remote)->name());
}

// Remote -> local: every matching remote entry (checksum verified) absent locally.
int run_pull(const Context& ctx, const SyncOptions& o) {
  const auto cc = parse_arch_filter(o.arch);
  if (!cc) return report(cc.error());
  auto config = load_config(ctx.globals);
  if (!config) return report(config.error());
  auto trust = TrustSet::from_config(*config);
  if (!trust) return report(trust.error());
  SignatureGate gate(std::move(*trust));  // with trusted keys: only entries they signed
  auto remote = reachable_remote(*config, o);
  if (!remote) return remote.error();
  auto store = open_store(ctx.globals, o.dry_run ? OpenMode::read : OpenMode::create);
  if (!store) return report(store.error());
  auto keys = matching_keys(**remote, o, *cc);
  if (!keys) return report(keys.error());
  Tally t;
  for (const auto& key : *keys) {
    auto local = (*store)->peek(key);
    if (local && *local) {
      ++t.present;
      continue;
    }
    Result<void> put;
    auto got = (*remote)->get_signed_with(key, [&](const EntryMeta& meta, std::span<const std::byte> p,
                                                   std::string_view signature) {
      if (!gate.accept(key, signed_fields(meta), p,
                       signature.empty() ? std::nullopt : std::optional(signature),
                       (*remote)->name())) {
        put = fail(ErrorCode::permission, "rejected for its signature");
        return;
      }
      t.bytes += p.size();
      if (!o.dry_run) put = (*store)->put(key, meta, p, signature);  // kept: a signed image
    });
    if (!got || !*got || !put) {
      ++t.failed;
      logger()->warn("pull: {}: {}", key.to_string(),
                     !got ? got.error().describe()
                          : !*got ? std::string("gone or rejected") : put.error().describe());
      continue;
    }
    ++t.copied;
  }
  return finish(o.dry_run ? "would pull" : "pulled", o, t, (*remote)->name(),
                (*store)->config().dir.string());
}

void sync_options(CLI::App* cmd, SyncOptions& o) {
  cmd->add_option("--algorithm", o.algorithm, "Only entries of this algorithm (e.g. merge_sort)");
  cmd->add_option("--arch", o.arch, "Only entries for this compute capability (e.g. sm_90)");
  cmd->add_flag("--dry-run", o.dry_run, "Report what would be copied; copy nothing");
}

}  // namespace

void add_remote(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<SyncOptions>();
  auto timeout = [o](CLI::App* cmd) {
    cmd->add_option("--timeout-ms", o->timeout_ms,
                    "Time bound of each remote operation (default: the configured one, at least "
                    "2000 ms)")
        ->check(CLI::Range(1u, 600'000u));
    cmd->add_flag("--json", o->json, "Print JSON");
  };
  auto* remote = app.add_subcommand("remote", "The remote tier (Redis): ping");
  remote->require_subcommand(1);
  auto* ping = remote->add_subcommand("ping", "Round trip to the configured remote tier");
  timeout(ping);
  ping->callback([&ctx, o] { ctx.run = [&ctx, o] { return run_ping(ctx, *o); }; });

  auto* push = app.add_subcommand("push", "Publish local entries to the remote tier (if absent)");
  sync_options(push, *o);
  timeout(push);
  push->callback([&ctx, o] { ctx.run = [&ctx, o] { return run_push(ctx, *o); }; });
  auto* pull = app.add_subcommand("pull", "Copy remote entries into the local store");
  sync_options(pull, *o);
  timeout(pull);
  pull->callback([&ctx, o] { ctx.run = [&ctx, o] { return run_pull(ctx, *o); }; });
}

}  // namespace cccl_cache::cli
