// The exit code commands set from their CLI11 callbacks; main() returns it.
#include <atomic>

#include "cli/commands.h"

namespace navlab::cli {
namespace {
std::atomic<int> g_exit{kOk};
}

void set_exit(int code) {
    int seen = g_exit.load();
    while (code > seen && !g_exit.compare_exchange_weak(seen, code)) {
    }
}

int exit_status() { return g_exit.load(); }

}  // namespace navlab::cli
