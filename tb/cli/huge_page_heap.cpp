#include "tb/cli/huge_page_heap.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace gms {

namespace {

bool thp_available() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  if (!std::getline(f, modes)) return false;
  return modes.find("[never]") == std::string::npos;
}

}  // namespace

void reexec_with_huge_page_heap(char** argv) {
  const char* opt = std::getenv("GMS_HUGE_PAGES");
  if (opt && std::string(opt) == "0") return;
  const char* old = std::getenv("GLIBC_TUNABLES");
  const std::string tunables = old ? old : "";
  // Present already: set by the user, or by us before the exec (this also ends the recursion).
  if (tunables.find("glibc.malloc.hugetlb") != std::string::npos) return;
  if (!thp_available()) return;
  const std::string with = tunables.empty() ? "glibc.malloc.hugetlb=1" : tunables + ":glibc.malloc.hugetlb=1";
  if (setenv("GLIBC_TUNABLES", with.c_str(), 1) != 0) return;
  // The resolved path, not /proc/self/exe, so that ps and top still show the program's own name.
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    execv(self, argv);
  }
  // exec failed (no /proc, say): run as we are, with the environment as it was.
  if (old)
    setenv("GLIBC_TUNABLES", old, 1);
  else
    unsetenv("GLIBC_TUNABLES");
}

}  // namespace gms
