// The native trace format's two forms (docs/trace-format.md) and the interfaces their readers and writers
// implement. A source yields the file kernel by kernel and CTA by CTA (one CTA in memory at a time, packed);
// a sink takes the same units in the same order. Every malformed input is a gms::ConfigError
// "FILE:LINE: ..." (text) or "FILE: record N (byte B): ..." (binary).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/common/workload.h"
#include "tb/traces/native_codec.h"

namespace gms {

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

// Opens a native trace of either form (by its magic). Errors: ConfigError naming the file.
std::unique_ptr<NativeTraceSource> open_native_trace(const std::string& path);

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
std::unique_ptr<NativeTraceSink> open_text_sink(const std::string& path);
std::unique_ptr<NativeTraceSink> open_binary_sink(const std::string& path, TraceCompression compression);

}  // namespace gms
