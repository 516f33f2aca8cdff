// A real redis-server for tests: started on 127.0.0.1 on a free port with no
// persistence, killed on destruction; can be killed, paused (SIGSTOP) and restarted
// on the same port. Tests skip when the binary is absent.
#pragma once

#include <gtest/gtest.h>
#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace cccl_cache::test {

class RedisServer {
 public:
  // The redis-server binary: $REDIS_SERVER, else on PATH; empty when absent.
  static std::string binary() {
    if (const char* b = std::getenv("REDIS_SERVER"); b && *b) return b;
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    dirs += ":/usr/sbin:/usr/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
      std::size_t end = dirs.find(':', start);
      if (end == std::string::npos) end = dirs.size();
      std::filesystem::path p = std::filesystem::path(dirs.substr(start, end - start)) / "redis-server";
      if (::access(p.c_str(), X_OK) == 0) return p.string();
      start = end + 1;
    }
    return {};
  }

  // Starts a server (extra arguments appended, e.g. {"--requirepass", "pw"}); fails
  // the test if it does not answer within 5 s.
  explicit RedisServer(std::vector<std::string> extra = {}) : extra_(std::move(extra)) {
    port_ = free_port();
    start();
  }
  ~RedisServer() { kill(); }
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  int port() const { return port_; }
  std::string url(int db = 0) const {
    return "redis://127.0.0.1:" + std::to_string(port_) + "/" + std::to_string(db);
  }

  void kill() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGCONT);
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  void pause() { ::kill(pid_, SIGSTOP); }
  void resume() { ::kill(pid_, SIGCONT); }
  // Kills (if running) and starts again on the same port, empty.
  void restart() {
    kill();
    start();
  }

  // A plain connection for tests that write raw values (caller frees).
  redisContext* connect() const {
    redisContext* c = redisConnect("127.0.0.1", port_);
    if (c && c->err) {
      redisFree(c);
      return nullptr;
    }
    return c;
  }

 private:
  static int free_port() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
  }

  void start() {
    const std::string bin = binary();
    std::vector<std::string> args = {bin,          "--port",         std::to_string(port_),
                                     "--bind",     "127.0.0.1",      "--save",
                                     "",           "--appendonly",   "no",
                                     "--daemonize", "no",            "--protected-mode",
                                     "no",         "--logfile",      "/dev/null"};
    args.insert(args.end(), extra_.begin(), extra_.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    const int rc = posix_spawn(&pid_, bin.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ASSERT_EQ(rc, 0) << "cannot start " << bin;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (std::chrono::steady_clock::now() < until) {
      if (redisContext* c = connect()) {
        auto* r = static_cast<redisReply*>(redisCommand(c, "PING"));
        const bool up = r != nullptr && (r->type == REDIS_REPLY_STATUS || r->type == REDIS_REPLY_ERROR);
        if (r) freeReplyObject(r);
        redisFree(c);
        if (up) return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL() << "redis-server on port " << port_ << " did not answer within 5 s";
  }

  std::vector<std::string> extra_;
  int port_ = 0;
  pid_t pid_ = -1;
};

// Skips the calling test when no redis-server is installed.
#define CCCL_CACHE_REQUIRE_REDIS()                                                      \
  do {                                                                                  \
    if (::cccl_cache::test::RedisServer::binary().empty())                              \
      GTEST_SKIP() << "redis-server is not installed (scripts/install-deps.sh installs " \
                      "it): the Redis tier tests need a real server";                   \
  } while (false)

}  // namespace cccl_cache::test
