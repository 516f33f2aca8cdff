// cccl-cache clear [--yes]: removes every entry and resets the counters.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "commands.hpp"
#include "format.hpp"

namespace cccl_cache::cli {

namespace {

int run_clear(const Context& ctx, bool yes) {
  if (!yes && isatty(STDIN_FILENO) != 1) {
    return report(kExitUsage,
                  "clear: refusing to remove every entry without --yes (stdin is not a terminal)");
  }
  auto store = open_store(ctx.globals, OpenMode::maintain);
  if (!store) return report(store.error());
  auto s = (*store)->stats();
  if (!s) return report(s.error());
  const std::string dir = (*store)->config().dir.string();
  if (!yes) {
    std::printf("Remove all %llu entries (%s) from %s? [y/N] ",
                static_cast<unsigned long long>(s->entries), human_size(s->live_bytes).c_str(),
                dir.c_str());
    std::fflush(stdout);
    std::string answer;
    std::getline(std::cin, answer);
    if (answer != "y" && answer != "Y" && answer != "yes") {
      std::printf("nothing removed\n");
      return kExitOk;
    }
  }
  if (auto r = (*store)->clear(); !r) return report(r.error());
  std::printf("removed %llu entries (%s) from %s\n", static_cast<unsigned long long>(s->entries),
              human_size(s->live_bytes).c_str(), dir.c_str());
  return kExitOk;
}

}  // namespace

void add_clear(CLI::App& app, Context& ctx) {
  auto yes = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("clear", "Remove every entry and reset the counters");
  cmd->add_flag("-y,--yes", *yes, "Do not ask (required when stdin is not a terminal)");
  cmd->callback([&ctx, yes] { ctx.run = [&ctx, yes] { return run_clear(ctx, *yes); }; });
}

}  // namespace cccl_cache::cli
