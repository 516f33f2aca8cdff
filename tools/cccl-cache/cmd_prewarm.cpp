// cccl-cache prewarm --manifest FILE: builds every spec of a manifest for every
// listed CC on a pool of threads and stores the results. Idempotent: what is
// already stored is not rebuilt. Needs no GPU when --arch (or the manifest) names CCs.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "commands.hpp"
#include "format.hpp"
#include "manifest.hpp"

namespace cccl_cache::cli {

namespace {

using Clock = std::chrono::steady_clock;

struct PrewarmOptions {
  std::string manifest;
  std::string arch;
  unsigned jobs = 0;
  bool json = false;
};

struct Job {
  const AnySpec* spec = nullptr;
  std::uint32_t cc = 0;
  enum class State { pending, built, cached, failed } state = State::pending;
  std::string error;
  double seconds = 0;
};

// Progress: a redrawn bar with ETA on a terminal (stderr), plain lines otherwise.
class Progress {
 public:
  Progress(std::size_t total, bool bar, bool quiet)
      : total_(total), bar_(bar), quiet_(quiet), start_(Clock::now()) {}

  void done(const Job& job) {
    std::lock_guard lock(mu_);
    ++done_;
    const char* what = job.state == Job::State::built    ? "built "
                       : job.state == Job::State::cached ? "cached"
                                                         : "FAILED";
    const std::string label = to_spec_text(*job.spec) + " " + cc_name(job.cc);
    if (quiet_) return;
    if (!bar_) {
      std::printf("[%zu/%zu] %s %s (%s)%s%s\n", done_, total_, what, label.c_str(),
                  format_duration(job.seconds).c_str(), job.error.empty() ? "" : ": ",
                  printable(first_line(job.error)).c_str());
      std::fflush(stdout);
      return;
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const double eta = done_ ? elapsed / double(done_) * double(total_ - done_) : 0.0;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(kWidth * done_ / std::max<std::size_t>(total_, 1));
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(kWidth, '.');
    if (job.state == Job::State::failed)
      std::fprintf(stderr, "\r\033[Kfailed %s: %s\n", label.c_str(),
                   printable(first_line(job.error)).c_str());
    std::fprintf(stderr, "\r\033[K[%s] %zu/%zu  elapsed %s  ETA %s", bar.c_str(), done_, total_,
                 format_duration(elapsed).c_str(), format_duration(eta).c_str());
    if (done_ == total_) std::fprintf(stderr, "\n");
    std::fflush(stderr);
  }

  static std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

 private:
  std::mutex mu_;
  std::size_t total_, done_ = 0;
  bool bar_, quiet_;
  Clock::time_point start_;
};

// Continuation lines of a multi-line message (a compiler log), indented.
std::string indented(const std::string& s) {
  std::string out;
  for (char c : s) {
    out += c;
    if (c == '\n') out += "    ";
  }
  return out;
}

void run_job(algos::AlgorithmCache& cache, Job& job) {
  const auto t0 = Clock::now();
  auto r = cache.prewarm(*job.spec, job.cc);
  job.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!r) {
    job.state = Job::State::failed;
    // The whole message: a compile error's NVRTC log keeps its lines.
    job.error = std::string(to_string(r.error().code)) + ": " + r.error().message;
  } else {
    job.state = *r ? Job::State::built : Job::State::cached;
  }
}

int run_prewarm(const Context& ctx, const PrewarmOptions& o) {
  auto manifest = load_manifest(o.manifest);
  if (!manifest) return report(manifest.error());
  auto archs = resolve_archs(o.arch, manifest->archs);
  if (!archs) return report(archs.error());
  auto store = open_store(ctx.globals, OpenMode::create);
  if (!store) return report(store.error());

  std::vector<Job> jobs;
  for (const auto& spec : manifest->specs) {
    for (auto cc : *archs) {
      Job job;
      job.spec = &spec;
      job.cc = cc;
      jobs.push_back(std::move(job));
    }
  }
  unsigned workers = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  workers = std::min<unsigned>(workers, static_cast<unsigned>(jobs.size()));
  if (!o.json) {
    std::printf("prewarming %zu specs x %zu archs = %zu builds on %u threads into %s\n",
                manifest->specs.size(), archs->size(), jobs.size(), workers,
                (*store)->config().dir.string().c_str());
    std::fflush(stdout);
  }

  algos::AlgorithmCache cache(*store);
  // The entries images or the remote already hold come in one batch per CC (one MGET,
  // one local commit); the jobs then find them locally. A failure here only means the
  // jobs look (or build) one by one.
  for (auto cc : *archs) (void)cache.prefetch_for_cc(manifest->specs, cc);
  Progress progress(jobs.size(), stderr_is_tty() && !o.json, o.json);
  std::atomic<std::size_t> next{0};
  const auto t0 = Clock::now();
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < workers; ++w) {
    pool.emplace_back([&] {
      for (std::size_t i = next++; i < jobs.size(); i = next++) {
        run_job(cache, jobs[i]);
        progress.done(jobs[i]);
      }
    });
  }
  for (auto& t : pool) t.join();
  const double total_s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (auto f = (*store)->flush(); !f) return report(f.error());

  std::size_t built = 0, cached = 0;
  std::vector<const Job*> failed;
  for (const auto& j : jobs) {
    if (j.state == Job::State::built) ++built;
    if (j.state == Job::State::cached) ++cached;
    if (j.state == Job::State::failed) failed.push_back(&j);
  }
  if (o.json) {
    auto list = nlohmann::json::array();
    for (const auto* j : failed)
      list.push_back(
          {{"spec", to_spec_text(*j->spec)}, {"arch", cc_name(j->cc)}, {"error", j->error}});
    print_json(
        {{"built", built}, {"already_cached", cached}, {"failed", list}, {"seconds", total_s}});
  } else {
    std::printf("built %zu, already cached %zu, failed %zu in %s\n", built, cached, failed.size(),
                format_duration(total_s).c_str());
    for (const auto* j : failed) {
      std::printf("failed: %s %s: %s\n", printable(to_spec_text(*j->spec)).c_str(),
                  cc_name(j->cc).c_str(), indented(printable(j->error, true)).c_str());
    }
  }
  return failed.empty() ? kExitOk : kExitProblems;
}

}  // namespace

void add_prewarm(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<PrewarmOptions>();
  auto* cmd = app.add_subcommand(
      "prewarm", "Build every spec of a manifest for each CC and store the results");
  cmd->add_option("--manifest", o->manifest,
                  "Manifest file (TOML; see config/manifest.example.toml)")
      ->required();
  cmd->add_option("--arch", o->arch,
                  "Compute capabilities, e.g. sm_80,sm_90 (default: the manifest's 'arch', else "
                  "the local GPUs')");
  cmd->add_option("-j,--jobs", o->jobs, "Parallel builds (default: all cores)")
      ->check(CLI::Range(0u, 1024u));
  cmd->add_flag("--json", o->json, "Print the summary as JSON (no progress output)");
  cmd->callback([&ctx, o] { ctx.run = [&ctx, o] { return run_prewarm(ctx, *o); }; });
}

}  // namespace cccl_cache::cli
