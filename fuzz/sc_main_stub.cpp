// libsystemc.so references sc_main (its own main calls it); the harnesses have their own main (libFuzzer's
// or replay_main.cpp) and never start SystemC, so this is never called.
#include <cstdlib>

extern "C" int sc_main(int, char*[]) {
  std::abort();
}
