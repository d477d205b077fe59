// A byte count as people read it: "1.5 GiB", "320.0 MiB", "12.0 KiB", "512 B".
#pragma once
#include <cstdint>
#include <string>

namespace gms {

std::string format_bytes(uint64_t bytes);

}  // namespace gms
