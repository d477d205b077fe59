#include "tests/sm/sm_test_support.h"

#include "models/common/mem_req.h"
#include "models/common/memory_image.h"

namespace gms::test {

WarpInst make_inst(uint64_t pc, MemKind kind, uint64_t base, uint64_t stride, unsigned lanes, uint8_t width,
                   uint32_t gap) {
  WarpInst i;
  i.pc = pc;
  i.kind = kind;
  i.width = width;
  i.gap = gap;
  i.active_mask = lanes >= 32 ? 0xffffffffu : ((1u << lanes) - 1);
  for (unsigned l = 0; l < kWarpSize; ++l) i.addr[l] = base + l * stride;
  return i;
}

namespace {

class VectorStream : public WarpStream {
 public:
  VectorStream(const std::vector<WarpInst>& prog, CtaLife* life, uint32_t cta)
      : prog_(prog), life_(life), cta_(cta) {}
  ~VectorStream() override {
    if (life_ && started_) --life_->live;
  }
  bool next(WarpInst& out) override {
    if (life_ && !started_) {  // only warp 0 of a CTA carries the life tracker
      started_ = true;
      life_->max_live = std::max(life_->max_live, ++life_->live);
      life_->launched.push_back({cta_, Clock::now_ps()});
    }
    if (pos_ == prog_.size()) return false;
    out = prog_[pos_++];
    return true;
  }

 private:
  const std::vector<WarpInst>& prog_;
  size_t pos_ = 0;
  CtaLife* life_;
  uint32_t cta_;
  bool started_ = false;
};

class VectorKernel : public KernelSource {
 public:
  VectorKernel(const TestKernel& k, CtaLife& life) : k_(k), life_(life) {}
  const KernelInfo& info() const override { return k_.info; }
  std::unique_ptr<CtaWork> next_cta() override {
    if (next_ == k_.ctas.size()) return nullptr;
    auto cta = std::make_unique<CtaWork>();
    cta->cta_id = uint32_t(next_);
    const auto& warps = k_.ctas[next_++];
    for (size_t w = 0; w < warps.size(); ++w)
      cta->warps.push_back(std::make_unique<VectorStream>(warps[w], w == 0 ? &life_ : nullptr, cta->cta_id));
    return cta;
  }

 private:
  const TestKernel& k_;
  CtaLife& life_;
  size_t next_ = 0;
};

}  // namespace

std::unique_ptr<KernelSource> VectorWorkload::next_kernel() {
  if (next_ == kernels_.size()) return nullptr;
  return std::make_unique<VectorKernel>(kernels_[next_++], life);
}

uint8_t FakeMemory::read(uint64_t a) const {
  auto it = bytes.find(a);
  return it == bytes.end() ? initial_byte(a) : it->second;
}

FakeL1::FakeL1(sc_core::sc_module_name name, FakeMemory& mem, uint64_t latency_cycles, double mhz)
    : sc_core::sc_module(name),
      tsock("tsock"),
      mem_(mem),
      latency_(latency_cycles),
      clock_(mhz),
      port_([this](Payload& t, tlm::tlm_phase& ph,
                   sc_core::sc_time& d) { return tsock->nb_transport_bw(t, ph, d); },
            [this](Payload& t, const sc_core::sc_time&) { return on_request(t); },
            [this] { ev_.notify(sc_core::SC_ZERO_TIME); }) {
  tsock.register_nb_transport_fw(this, &FakeL1::nb_transport_fw);
  SC_HAS_PROCESS(FakeL1);
  SC_METHOD(run);
  sensitive << ev_;
  dont_initialize();
}

bool FakeL1::on_request(Payload& t) {
  const MemReq& r = req_of(t);
  SeenRequest s;
  s.ps = Clock::now_ps();
  s.sm = r.sm;
  s.warp = r.warp;
  s.cta = r.cta;
  s.pc = r.pc;
  s.line = r.line_addr;
  s.chunks = r.chunk_mask;
  s.write = t.is_write();
  const uint64_t k = hold ? hold(seen.size()) : 0;
  seen.push_back(s);
  if (k == 0) {
    take(t);
    return true;
  }
  held_ = &t;
  release_cycle_ = clock_.cycle() + k;
  ev_.notify(clock_.until(release_cycle_));
  return false;
}

// Accepted: count it in flight, apply a store, answer after the latency.
void FakeL1::take(Payload& t) {
  const MemReq& r = req_of(t);
  max_in_flight = std::max(max_in_flight, ++in_flight);
  warp_max_in_flight[r.warp] = std::max(warp_max_in_flight[r.warp], ++warp_in_flight[r.warp]);
  unsigned char* data = t.get_data_ptr();
  const unsigned char* be = t.get_byte_enable_ptr();
  for (unsigned i = 0; keep_data && i < kLineBytes; ++i) {
    if (t.is_write() && be && be[i]) mem_.bytes[t.get_address() + i] = data[i];
    if (t.is_read()) data[i] = mem_.read(t.get_address() + i);
  }
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  const uint64_t due = clock_.cycle() + latency_;
  due_.push_back({due, &t});
  ev_.notify(clock_.until(due));
}

void FakeL1::run() {
  const uint64_t now = clock_.cycle();
  if (held_ && release_cycle_ <= now) {
    Payload* t = held_;
    held_ = nullptr;
    take(*t);
    port_.accept(*t);
  }
  while (!due_.empty() && due_.front().first <= now && port_.can_respond()) {
    Payload* t = due_.front().second;
    due_.pop_front();
    --in_flight;
    --warp_in_flight[req_of(*t).warp];
    ++responses;
    port_.respond(*t);
  }
  if (held_) ev_.notify(clock_.until(release_cycle_));
  if (!due_.empty() && port_.can_respond()) ev_.notify(clock_.until(std::max(due_.front().first, now + 1)));
}

}  // namespace gms::test
