// Runs a libFuzzer harness (LLVMFuzzerTestOneInput) without libFuzzer, for the gcc test build: replays
// every file of the corpus folders given, then feeds `--iterations` inputs from a fixed-seed mutator
// (fuzz/mutator.h). No coverage feedback: a short, repeatable smoke run, not a replacement for
// scripts/fuzz. An input that crashes the harness is written to `--crash-dir` (default: the current
// folder) as crash-<harness> before the process dies, and its origin is printed; so is an input that runs
// longer than `--timeout` seconds (a hang).
//
//   replay_X [--iterations N] [--seed S] [--max-len BYTES] [--dict FILE] [--crash-dir DIR] [--timeout S]
//            PATH...
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

// What the crash handlers save: signal handlers and std::terminate have no other way to reach it.
struct CurrentInput {
  const gms::fuzz::Bytes* bytes = nullptr;
  char origin[512] = "";
  char crash_path[512] = "";
};
CurrentInput g_current;

void write_all(int fd, const void* p, size_t n) {
  const char* c = static_cast<const char*>(p);
  while (n > 0) {
    const ssize_t w = ::write(fd, c, n);
    if (w <= 0) return;
    c += w;
    n -= size_t(w);
  }
}

// Async-signal-safe: only open/write/close on prepared buffers.
void save_current_input() {
  if (!g_current.bytes) return;
  const int fd = ::open(g_current.crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    write_all(fd, g_current.bytes->data(), g_current.bytes->size());
    ::close(fd);
  }
  static const char a[] = "\nreplay: crashing input (";
  write_all(2, a, sizeof a - 1);
  write_all(2, g_current.origin, std::strlen(g_current.origin));
  static const char b[] = ") saved as ";
  write_all(2, b, sizeof b - 1);
  write_all(2, g_current.crash_path, std::strlen(g_current.crash_path));
  write_all(2, "\n", 1);
  g_current.bytes = nullptr;
}

void on_signal(int sig) {
  save_current_input();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void on_alarm(int) {
  static const char m[] = "\nreplay: input ran past --timeout (a hang)";
  write_all(2, m, sizeof m - 1);
  save_current_input();
  std::signal(SIGALRM, SIG_DFL);
  std::raise(SIGALRM);
}

void on_terminate() {
  if (std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      std::fprintf(stderr, "replay: uncaught exception: %s\n", x.what());
    } catch (...) {
      std::fprintf(stderr, "replay: uncaught exception of unknown type\n");
    }
  }
  save_current_input();
  std::signal(SIGABRT, SIG_DFL);
  std::abort();
}

gms::fuzz::Bytes read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  return gms::fuzz::Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Files of a folder in name order (deterministic), or the path itself.
std::vector<std::string> expand(const std::string& path) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  if (!fs::is_directory(path)) {
    out.push_back(path);
    return out;
  }
  for (const auto& e : fs::recursive_directory_iterator(path))
    if (e.is_regular_file() && e.path().filename().string()[0] != '.') out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

void run_one(const gms::fuzz::Bytes& b, const std::string& origin, unsigned timeout_s) {
  std::snprintf(g_current.origin, sizeof g_current.origin, "%s", origin.c_str());
  g_current.bytes = &b;
  ::alarm(timeout_s);
  LLVMFuzzerTestOneInput(b.data(), b.size());
  ::alarm(0);
  g_current.bytes = nullptr;
}

[[noreturn]] void usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--iterations N] [--seed S] [--max-len BYTES] [--dict FILE] [--crash-dir DIR] "
               "[--timeout SECONDS] PATH...\n",
               argv0);
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t iterations = 0, seed = 1;
  unsigned timeout_s = 10;
  size_t max_len = 0;
  std::string dict, crash_dir = ".";
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(argv[0]);
      return argv[++i];
    };
    if (a == "--iterations")
      iterations = std::stoull(value());
    else if (a == "--seed")
      seed = std::stoull(value());
    else if (a == "--max-len")
      max_len = std::stoull(value());
    else if (a == "--dict")
      dict = value();
    else if (a == "--crash-dir")
      crash_dir = value();
    else if (a == "--timeout")
      timeout_s = unsigned(std::stoul(value()));
    else if (!a.empty() && a[0] == '-')
      usage(argv[0]);
    else
      paths.push_back(a);
  }
  if (paths.empty()) usage(argv[0]);
  const std::string name = std::filesystem::path(argv[0]).filename().string();
  std::snprintf(g_current.crash_path, sizeof g_current.crash_path, "%s/crash-%s", crash_dir.c_str(),
                name.c_str());
  std::set_terminate(on_terminate);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, on_signal);
  std::signal(SIGALRM, on_alarm);

  const auto t0 = std::chrono::steady_clock::now();
  std::vector<gms::fuzz::Bytes> corpus;
  size_t longest = 0;
  for (const std::string& p : paths)
    for (const std::string& f : expand(p)) {
      corpus.push_back(read_file(f));
      longest = std::max(longest, corpus.back().size());
      run_one(corpus.back(), f, timeout_s);
    }
  if (max_len == 0) max_len = std::max<size_t>(4096, 2 * longest);
  std::vector<gms::fuzz::Bytes> tokens;
  try {
    if (!dict.empty()) tokens = gms::fuzz::read_dictionary(dict);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "replay: %s\n", e.what());
    return 2;
  }
  const size_t replayed = corpus.size();
  gms::fuzz::Mutator mutator(seed, std::move(corpus), std::move(tokens), max_len);
  for (uint64_t i = 0; i < iterations; ++i) {
    const gms::fuzz::Bytes b = mutator.next();
    run_one(b, "seed " + std::to_string(seed) + ", mutation " + std::to_string(i), timeout_s);
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s: %zu corpus inputs replayed, %llu mutated inputs (seed %llu), %.1f s, no crash\n",
              name.c_str(), replayed, (unsigned long long)iterations, (unsigned long long)seed, s);
  return 0;
}
