#include "cli_test_util.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"

extern char** environ;

namespace cccl_cache::test {

namespace fs = std::filesystem;

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/cccl-cli-test-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = buf.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

nlohmann::json CliResult::json() const {
  auto j = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(j.is_discarded()) << "stdout is not JSON:\n" << out << "\nstderr:\n" << err;
  return j.is_discarded() ? nlohmann::json() : j;
}

CliResult run_cli(const std::vector<std::string>& args) {
  TempDir io;
  const std::string out_path = (io.path() / "out").string(),
                    err_path = (io.path() / "err").string();
  std::vector<std::string> argv_s{CCCL_CACHE_CLI_PATH};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  // Hermetic: the caller's CCCL_CACHE_* settings (directory, config, read-only, ...)
  // must not leak into the command under test.
  std::vector<char*> envp;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string_view(*e).rfind("CCCL_CACHE_", 0) != 0) envp.push_back(*e);
  }
  envp.push_back(nullptr);
  pid_t pid = 0;
  CliResult r;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    ADD_FAILURE() << "cannot start " << argv[0];
    return r;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  return r;
}

CliResult run_cli_tty(const std::vector<std::string>& args, const std::string& input) {
  std::vector<std::string> argv_s{CCCL_CACHE_CLI_PATH};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<char*> envp;  // hermetic, as in run_cli
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string_view(*e).rfind("CCCL_CACHE_", 0) != 0) envp.push_back(*e);
  }
  envp.push_back(nullptr);
  CliResult r;
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) {
    ADD_FAILURE() << "forkpty failed";
    return r;
  }
  if (pid == 0) {
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  if (!input.empty()) (void)!write(master, input.data(), input.size());
  char buf[4096];
  for (ssize_t n; (n = read(master, buf, sizeof buf)) > 0;)
    r.out.append(buf, static_cast<std::size_t>(n));
  close(master);
  int status = 0;
  waitpid(pid, &status, 0);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

std::shared_ptr<Store> open_store(const fs::path& dir) {
  Config c = Config::defaults();
  c.dir = dir;
  auto s = Store::open(c);
  EXPECT_TRUE(s.has_value()) << (s ? "" : s.error().describe());
  return s ? *s : nullptr;
}

void put_raw(const fs::path& dir, const CacheKey& key, const EntryMeta& meta,
             const std::vector<std::byte>& payload) {
  auto store = open_store(dir);
  ASSERT_TRUE(store);
  auto r = store->put(key, meta, payload);
  ASSERT_TRUE(r.has_value()) << r.error().describe();
}

CacheKey put_build(const fs::path& dir, const algos::merge_sort::BuildResult& result,
                   const algos::Toolchain& tc) {
  namespace ms = algos::merge_sort;
  const CacheKey key = algos::cache_key(result.spec, result.record.cc, tc);
  EntryMeta meta;
  meta.algorithm = std::string(algorithm_name(ms::Spec::kAlgorithm));
  meta.summary = ms::summary(result.spec);
  meta.toolchain = result.record.toolchain;
  meta.payload_format = tc.build_format_version;
  put_raw(dir, key, meta, algos::serialize(result));
  return key;
}

std::vector<std::byte> read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(raw.size());
  std::transform(raw.begin(), raw.end(), out.begin(),
                 [](char c) { return static_cast<std::byte>(c); });
  return out;
}

int flip_byte_in_file(const fs::path& file, const std::vector<std::byte>& needle) {
  auto bytes = read_file(file);
  int n = 0;
  for (auto it = bytes.begin();
       (it = std::search(it, bytes.end(), needle.begin(), needle.end())) != bytes.end();
       it += static_cast<std::ptrdiff_t>(needle.size())) {
    auto& b = *(it + static_cast<std::ptrdiff_t>(needle.size() / 2));
    b = ~b;
    ++n;
  }
  std::fstream out(file, std::ios::binary | std::ios::in | std::ios::out);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  return n;
}

}  // namespace cccl_cache::test

#include <map>
#include <mutex>

namespace cccl_cache::test {

const algos::merge_sort::BuildResult& real_build(std::uint32_t cc) {
  static std::mutex mu;
  static std::map<std::uint32_t, algos::merge_sort::BuildResult> built;
  std::lock_guard lock(mu);
  auto it = built.find(cc);
  if (it == built.end()) {
    auto r = algos::merge_sort::build(algos::merge_sort::Spec{}, cc);
    if (!r) {
      ADD_FAILURE() << "NVRTC build failed: " << r.error().describe();
      throw std::runtime_error("build failed");
    }
    it = built.emplace(cc, std::move(*r)).first;
  }
  return it->second;
}

algos::merge_sort::BuildResult with_keys(algos::merge_sort::BuildResult base,
                                         algos::ScalarType keys) {
  base.spec.key_type = keys;
  base.record.spec = algos::encode_fields(base.spec);
  return base;
}

}  // namespace cccl_cache::test
