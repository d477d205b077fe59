// The native trace format's two forms (docs/trace-format.md) and the interfaces their readers and writers
// implement. A source yields the file kernel by kernel and CTA by CTA (one CTA in memory at a time, packed);
// a sink takes the same units in the same order. Every malformed input is a gms::ConfigError
// "FILE:LINE: ..." (text) or "FILE: record N (byte B): ..." (binary).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "models/common/workload.h"
#include "tb/traces/native_codec.h"

namespace gms {

class InputFile;  // models/common/bounded_input.h

constexpr const char* kTextMagic = "gmstrace";  // first line: "gmstrace 1"
constexpr char kBinaryMagic[8] = {'G', 'M', 'S', 'T', 'R', 'A', 'C', 'E'};
constexpr unsigned kNativeVersion = 1;
// Both readers reject larger CTAs (the CUDA limit): a corrupt block size must not allocate warps in bulk.
constexpr uint32_t kMaxTraceThreadsPerCta = 1024;

enum class TraceFormat { Text, Binary };
enum class TraceCompression : uint8_t { None = 0, Zlib = 1, Xz = 2 };

// Binary when the name ends in ".bin" (e.g. "x.gmstrace.bin"), else text.
TraceFormat trace_format_for_path(const std::string& path);
// "text" / "binary" and "none" / "zlib" / "xz"; anything else is a ConfigError naming `what`.
TraceFormat parse_trace_format(const std::string& s, const std::string& what);
TraceCompression parse_trace_compression(const std::string& s, const std::string& what);

// What the file starts with: a native text or binary trace, or neither (reads at most 16 bytes).
enum class NativeKind { None, Text, Binary };
NativeKind sniff_native(const std::string& path);
// The same from the input's first bytes (at least 16 of them, or the whole input).
NativeKind sniff_native(std::string_view head);

// The lanes of warp `warp` that hold a thread of a CTA of `threads_per_cta` threads (all 32 but in a
// partial last warp): an instruction may not activate any other lane.
uint32_t cta_warp_lanes(uint32_t threads_per_cta, uint32_t warp);
// "mask 0x...: lane L is active, but the CTA has only T threads (warp W holds lanes 0..K)".
std::string inactive_lane_error(uint32_t mask, uint32_t threads_per_cta, uint32_t warp);
// A trace must hold a kernel: "no kernel: a trace needs at least one kernel before its end record".
constexpr const char* kNoKernelError = "no kernel: a trace needs at least one kernel before its end record";

class NativeTraceSource {
 public:
  virtual ~NativeTraceSource() = default;
  virtual const std::string& workload_name() const = 0;
  // The next kernel's header; false after the end record (which must match the kernel count and be last).
  virtual bool next_kernel(KernelInfo& out) = 0;
  // The next CTA section of the current kernel: its id must be `expected_id` and it must hold `warps`
  // warp sections (0 .. warps-1 in order); `out` is resized to `warps`.
  virtual void read_cta(uint32_t expected_id, uint32_t warps, std::vector<PackedWarp>& out) = 0;
};

// Opens a native trace of either form (by its magic). Errors: ConfigError naming the file. The InputFile
// form takes an input already open (its peeked bytes are read again: a pipe is read once).
std::unique_ptr<NativeTraceSource> open_native_trace(const std::string& path);
std::unique_ptr<NativeTraceSource> open_native_trace(std::unique_ptr<InputFile> in);

class NativeTraceSink {
 public:
  virtual ~NativeTraceSink() = default;
  virtual void begin(const std::string& workload_name) = 0;
  virtual void kernel(const KernelInfo& k) = 0;
  virtual void cta(uint32_t cta_id) = 0;
  virtual void warp(uint32_t index, const PackedWarp& insts) = 0;
  // Writes the end record (kernel count) and flushes; throws ConfigError if the file cannot be written.
  virtual void finish() = 0;
};

std::unique_ptr<NativeTraceSink> open_native_sink(const std::string& path, TraceFormat format,
                                                  TraceCompression compression = TraceCompression::Zlib);

// The two forms.
std::unique_ptr<NativeTraceSource> open_text_trace(const std::string& path);
std::unique_ptr<NativeTraceSource> open_binary_trace(const std::string& path);
std::unique_ptr<NativeTraceSource> open_text_trace(std::unique_ptr<InputFile> in);
std::unique_ptr<NativeTraceSource> open_binary_trace(std::unique_ptr<InputFile> in);
std::unique_ptr<NativeTraceSink> open_text_sink(const std::string& path);
std::unique_ptr<NativeTraceSink> open_binary_sink(const std::string& path, TraceCompression compression);

}  // namespace gms
