// Large presets (the H100's 132 SMs keep ~11k requests and their payloads, MSHR entries and cache lines in
// flight) spend much of their time on host TLB and cache misses. glibc backs its heap with transparent
// huge pages only when asked at start-up (the glibc.malloc.hugetlb tunable), so the CLI re-executes itself
// once with that tunable set. GMS_HUGE_PAGES=0 turns this off; it is skipped where THP is disabled.
#pragma once

namespace gms {

// Returns only when no re-execution happened (already set up, turned off, or exec failed).
void reexec_with_huge_page_heap(char** argv);

}  // namespace gms
