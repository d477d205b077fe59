// Foreign models standing in for built-in blocks through their interfaces (GpuMemSysOptions): a flat,
// untimed memory in place of every DRAM channel carries the whole round trip of host data through a
// launch, and the SM factory builds every SM.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "examples/vp/vector_kernel.h"
#include "models/dram/backing_store.h"
#include "models/dram/memory_channel.h"
#include "models/sm/sm_core.h"
#include "models/system/gpu_mem_sys.h"
#include "tests/vp/host_initiator.h"

namespace {

using sc_core::sc_time;

// A memory channel answering every request at once (TLM_COMPLETED on BEGIN_REQ) from the backing store.
class FlatMemory : public gms::MemoryChannel {
 public:
  FlatMemory(sc_core::sc_module_name name, unsigned channel, gms::BackingStore& store)
      : MemoryChannel(name, channel), store_(store), stats_(basename()) {}
  sc_time functional_latency() const override { return sc_time(40, sc_core::SC_NS); }
  gms::StatGroup& stats() override { return stats_; }
  unsigned timed_requests = 0;

 protected:
  tlm::tlm_sync_enum nb_transport_fw(int, Payload& t, tlm::tlm_phase& ph, sc_time& d) override {
    if (ph != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;
    ++timed_requests;
    serve(t);
    d += functional_latency();
    return tlm::TLM_COMPLETED;
  }
  void b_transport(int, Payload& t, sc_time& d) override {
    serve(t);
    d += functional_latency();
  }
  unsigned transport_dbg(int, Payload& t) override {
    serve(t);
    return t.get_data_length();
  }
  bool get_direct_mem_ptr(int, Payload&, tlm::tlm_dmi& dmi) override {
    dmi.allow_none();
    return false;
  }

 private:
  void serve(Payload& t) {
    const unsigned len = t.get_data_length();
    if (t.is_read()) {
      store_.read(t.get_address(), t.get_data_ptr(), len);
    } else if (t.is_write()) {
      const unsigned char* be = t.get_byte_enable_ptr();
      const unsigned be_len = be ? t.get_byte_enable_length() : 0;
      std::vector<uint8_t> mask;
      for (unsigned i = 0; be_len && i < len; ++i) mask.push_back(be[i % be_len]);
      store_.write(t.get_address(), t.get_data_ptr(), len, be_len ? mask.data() : nullptr);
    }
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  gms::BackingStore& store_;
  gms::StatGroup stats_;
};

TEST(GpuMemSysStandIns, FlatMemoryAndFactoryBuiltSmsCarryHostDataThroughALaunch) {
  gms::GpuMemSysOptions opt;
  unsigned sms_made = 0;
  opt.make_sm = [&](sc_core::sc_module_name n, const gms::SmParams& p, unsigned id,
                    const gms::BlockEnv& env) {
    ++sms_made;
    return std::make_unique<gms::SmCore>(n, p, id, env, nullptr);
  };
  opt.make_dram = [](sc_core::sc_module_name n, const gms::DramParams&, unsigned c, const gms::AddressMap&,
                     gms::BackingStore& store,
                     const gms::BlockEnv&) { return std::make_unique<FlatMemory>(n, c, store); };
  gms::GpuMemSys gpu("gpu", gms::load_system_config_file(std::string(GMS_SOURCE_DIR) + "/configs/fermi.yaml"),
                     opt);
  EXPECT_EQ(sms_made, gpu.num_sms());
  constexpr uint64_t src = 0x40000, dst = 0x80000;
  constexpr uint32_t ctas = 32;
  AccessLog obs;
  VectorKernel wl("vector", src, dst, ctas);
  gms::test::HostInitiator host("host", [&](gms::test::HostInitiator& h) {
    std::vector<uint8_t> in(ctas * 128);
    for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 13 + 1);
    sc_time delay = sc_core::SC_ZERO_TIME;
    h.write(src, in, delay);
    gpu.launch(wl, nullptr, &obs);
    sc_core::wait(gpu.idle_event());
    for (size_t i = 0; i < in.size(); ++i) ASSERT_EQ(obs.loaded.at(src + i), in[i]) << i;
    std::vector<uint8_t> out = h.read(dst, ctas * 128, delay);
    ASSERT_EQ(out.size(), size_t(ctas * 128));
    for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], obs.stored.at(dst + i)) << i;
    tlm::tlm_dmi dmi;
    EXPECT_FALSE(h.dmi(dst, dmi));  // the module cannot know where a foreign memory keeps its bytes
  });
  host.sock.bind(gpu.host);
  sc_core::sc_start();
  EXPECT_TRUE(host.finished);
  unsigned timed = 0;
  for (size_t c = 0; c < gpu.num_channels(); ++c)
    timed += dynamic_cast<FlatMemory&>(gpu.dram(c)).timed_requests;
  EXPECT_GT(timed, 0u);  // the GPU's misses and the end-of-launch write-backs went through the stand-in
}

}  // namespace
