#include "models/noc/rtl/rtl_arbiter.h"

#include <Vrr_arbiter.h>

#include <stdexcept>
#include <string>
#include <systemc>
#include <type_traits>
#include <utility>

#include "models/common/clock.h"
#include "models/common/config.h"
#include "models/noc/active_set.h"
#include "models/noc/rtl/rtl_clock.h"
#include "models/noc/rtl/rtl_cosim.h"
#include "models/noc/rtl/rtl_probes.h"

namespace gms {

namespace {

using Model = Vrr_arbiter;
// The value type of a Verilated port (the model's sc_in<T>& / sc_out<T>& members). Verilated with
// --pins-bv 2, every vector port is an sc_bv<N>, whatever the capacity.
template <class Port>
using PinValue = typename std::remove_reference_t<Port>::data_type;
#define GMS_PIN(port) PinValue<decltype(std::declval<Model&>().port)>

constexpr unsigned clog2(unsigned n) {
  unsigned b = 0;
  while ((1u << b) < n) ++b;
  return b;
}
// As rr_arbiter.sv computes them for INPUTS = OUTPUTS = kCap (CMake passes the same number to both).
constexpr unsigned kCap = GMS_RTL_ARBITER_PORTS;
constexpr unsigned kIndexBits = kCap > 1 ? clog2(kCap) : 1;  // IW and OW
static_assert(kCap >= 2 && kCap <= 1024, "GMS_RTL_ARBITER_PORTS: 2 .. 1024");

void put_field(std::vector<uint32_t>& words, unsigned lo, unsigned width, uint32_t value) {
  for (unsigned b = 0; b < width; ++b, ++lo) {
    const uint32_t bit = uint32_t(1) << (lo & 31);
    words[lo >> 5] = (value >> b) & 1 ? words[lo >> 5] | bit : words[lo >> 5] & ~bit;
  }
}

template <class Bv>
void copy_words(const std::vector<uint32_t>& words, Bv& bv) {
  for (size_t w = 0; w < words.size(); ++w) bv.set_word(int(w), words[w]);
}

}  // namespace

struct RtlArbiter::Pins : sc_core::sc_module {
  Model model;
  const RtlClock& clock;
  // Raised by grant()'s caller at a cycle edge, lowered by commit() at the rising edge half a cycle later
  // (never in one delta cycle).
  sc_core::sc_signal<bool, sc_core::SC_MANY_WRITERS> valid;
  sc_core::sc_signal<GMS_PIN(n_inputs)> n_inputs;
  sc_core::sc_signal<GMS_PIN(req)> req;
  sc_core::sc_signal<GMS_PIN(order)> order;
  sc_core::sc_signal<GMS_PIN(gnt)> gnt;
  sc_core::sc_signal<GMS_PIN(gnt_input)> gnt_input;
  GMS_PIN(req) req_value;  // reused: building an sc_bv costs an allocation
  GMS_PIN(order) order_value;
  sc_core::sc_event arm;  // grant() raised valid: commit() waits for the next rising edge
  bool pending = false;   // valid is high, the edge that takes it has not come yet
  // commit()'s: waiting to be armed, armed for the next rising edge, traced: settling, then sampling.
  enum class Stage { idle, armed, settle, sample } stage = Stage::idle;
  unsigned inputs = 1;  // n_inputs, driven at time 0
  uint64_t commits = 0;
  RtlProbes probes;

  SC_HAS_PROCESS(Pins);
  Pins(const sc_core::sc_module_name& n, const RtlClock& c)
      : sc_module(n),
        model("rtl"),
        clock(c),
        valid("valid", false),
        n_inputs("n_inputs"),
        req("req"),
        order("order"),
        gnt("gnt"),
        gnt_input("gnt_input") {
    model.clk(clock.clk());
    model.rst(clock.rst());
    model.valid(valid);
    model.n_inputs(n_inputs);
    model.req(req);
    model.order(order);
    model.gnt(gnt);
    model.gnt_input(gnt_input);
    SC_THREAD(start);
    SC_METHOD(commit);  // one activation to arm, one at the edge: none in cycles without an arbitration
    sensitive << arm;
    dont_initialize();
  }

  void start() {
    GMS_PIN(n_inputs) n = inputs;
    n_inputs.write(n);
    if (!probes.on()) return;
    wait(sc_core::SC_ZERO_TIME);  // the model evaluates its reset state
    wait(sc_core::SC_ZERO_TIME);
    probes.sample();
    wait(clock.reset_done_event());
    wait(sc_core::SC_ZERO_TIME);  // the model sees rst low
    probes.sample();
  }

  // Armed by grant(): waits for the next rising edge. At the edge the model samples valid high (this
  // delta's value) and moves the pointers; valid goes low for the next edges. Traced: samples the
  // registers once the model has taken the edge.
  void commit() {
    switch (stage) {
      case Stage::idle:
        stage = Stage::armed;
        next_trigger(clock.clk().posedge_event());
        return;
      case Stage::armed:
        valid.write(false);
        pending = false;
        ++commits;
        if (!probes.on()) break;
        stage = Stage::settle;  // the model took the edge; in the next delta it sees valid low
        next_trigger(sc_core::SC_ZERO_TIME);
        return;
      case Stage::settle:
        stage = Stage::sample;
        next_trigger(sc_core::SC_ZERO_TIME);
        return;
      case Stage::sample:
        probes.sample();
        break;
    }
    stage = Stage::idle;  // back to the static sensitivity: the next arm
  }
};

unsigned RtlArbiter::capacity() {
  return kCap;
}

RtlArbiter::RtlArbiter(const ArbiterSite& site) {
  // Verilator checks this itself when the model is built, but by aborting the process.
  const sc_core::sc_time& res = sc_core::sc_get_time_resolution();
  if (res != sc_core::sc_time(1, sc_core::SC_PS))
    throw ConfigError("noc.arbiter: rtl: the SystemC time resolution is " + res.to_string() +
                      ", not the Verilog time precision of rr_arbiter.sv (1 ps, `timescale 1ns / 1ps)");
  if (!site.clock) throw std::invalid_argument("RtlArbiter " + site.name + ": no clock (ArbiterSite::clock)");
  pins_ = std::make_unique<Pins>(site.name.c_str(), *site.clock);
  pins_->probes.attach(site.tf, site.scope, std::string(pins_->model.name()) + ".rr_arbiter");
}

RtlArbiter::~RtlArbiter() = default;

uint64_t RtlArbiter::commits() const {
  return pins_->commits;
}

void RtlArbiter::on_resize() {
  if (inputs_ > kCap || outputs_ > kCap)
    throw ConfigError("noc.arbiter: rtl: the Verilated arbiter has at most " + std::to_string(kCap) +
                      " inputs and outputs (CMake GMS_RTL_ARBITER_PORTS); this crossbar has " +
                      std::to_string(inputs_) + " inputs and " + std::to_string(outputs_) + " outputs");
  pins_->inputs = inputs_;
  req_words_.assign((kCap * kCap + 31) / 32, 0);
  order_words_.assign((kCap * kIndexBits + 31) / 32, 0);
  listed_.assign(kCap, 0);
  order_.reserve(kCap);
}

void RtlArbiter::grant(std::vector<SwitchRequest>& grants) {
  grants.clear();
  if (touched_count_ == 0) return;  // no request: valid stays low, the next edge moves nothing
  Pins& p = *pins_;
  if (p.clock.in_reset()) {  // before the first rising edge: served at the first cycle edge after it
    sc_core::wait(p.clock.reset_done_event());
    const uint64_t now = Clock::now_ps();
    sc_core::wait(Clock::ps(p.clock.next_cycle_ps(now) - now));
  }
  const uint64_t now = Clock::now_ps();
  // The clock's phase keeps both from happening at the crossbar's cycle edges; either would let the
  // pointers the next grant() sees differ from the C++ arbiter's.
  if (p.pending)
    throw std::logic_error(std::string(p.name()) + ": a second arbitration at " + std::to_string(now) +
                           " ps before the rising edge took the first (one grant() per clock cycle)");
  if (p.clock.at_rising_edge(now))
    throw std::logic_error(std::string(p.name()) + ": grant() at " + std::to_string(now) +
                           " ps, the time of a rising clock edge (call it at the NoC cycle edges)");
  drive_inputs();
  p.valid.write(true);
  p.pending = true;
  p.arm.notify();                        // commit() waits for the next rising edge
  sc_core::wait(sc_core::SC_ZERO_TIME);  // the model evaluates the new inputs
  sc_core::wait(sc_core::SC_ZERO_TIME);  // its outputs have updated
  read_grants(grants);
  if (p.probes.on()) p.probes.sample();
}

void RtlArbiter::drive_inputs() {
  // The request rows of this cycle's outputs (last cycle's words cleared first), and the order of service:
  // the outputs in order of first request, as RoundRobinArbiter serves them, then the others.
  for (uint32_t w : req_set_) req_words_[w] = 0;
  req_set_.clear();
  order_.clear();
  for (size_t k = 0; k < touched_count_; ++k) {
    const uint32_t o = touched_[k];
    for_each_bit(
        words_, [this, o](size_t w) { return mask_[o * words_ + w]; },
        [this, o](unsigned i) {
          const unsigned bit = o * kCap + i;
          req_words_[bit >> 5] |= uint32_t(1) << (bit & 31);
          req_set_.push_back(bit >> 5);
        });
    clear_requests(o);
    order_.push_back(o);
    listed_[o] = 1;
  }
  touched_count_ = 0;
  const size_t requested = order_.size();
  for (uint32_t o = 0; o < kCap; ++o)
    if (!listed_[o]) order_.push_back(o);
  for (size_t k = 0; k < requested; ++k) listed_[order_[k]] = 0;
  for (unsigned k = 0; k < kCap; ++k) put_field(order_words_, k * kIndexBits, kIndexBits, order_[k]);
  order_.resize(requested);  // read_grants() walks the requested outputs only

  Pins& p = *pins_;
  copy_words(req_words_, p.req_value);
  copy_words(order_words_, p.order_value);
  p.req.write(p.req_value);
  p.order.write(p.order_value);
}

void RtlArbiter::read_grants(std::vector<SwitchRequest>& grants) {
  const auto& gnt = pins_->gnt.read();
  const auto& gnt_input = pins_->gnt_input.read();
  for (uint32_t o : order_) {
    if (gnt.get_bit(int(o)) != sc_dt::Log_1) continue;
    const int lo = int(o * kIndexBits);
    grants.push_back({uint32_t(gnt_input.range(lo + int(kIndexBits) - 1, lo).to_uint()), o});
  }
}

bool rtl_cosim_available() {
  return true;
}

std::unique_ptr<Arbiter> make_rtl_arbiter(const ArbiterSite& site) {
  return std::make_unique<RtlArbiter>(site);
}

}  // namespace gms
