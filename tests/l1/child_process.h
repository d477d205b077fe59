// Runs a function in a forked child process and returns the string it produced: for tests that compare
// two simulations (the SystemC kernel can be elaborated only once per process). The parent must not
// have elaborated anything before.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <string>

namespace gms::test {

inline std::string in_child_process(const std::function<std::string()>& fn) {
  int fd[2];
  if (pipe(fd) != 0) return "pipe failed";
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    const std::string s = fn();
    size_t off = 0;
    while (off < s.size()) {
      const ssize_t n = write(fd[1], s.data() + off, s.size() - off);
      if (n <= 0) break;
      off += size_t(n);
    }
    close(fd[1]);
    _exit(0);
  }
  close(fd[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(fd[0], buf, sizeof buf)) > 0;) out.append(buf, size_t(n));
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child process failed";
  return out;
}

}  // namespace gms::test
