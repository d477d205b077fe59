#include "models/dram/dram_standards.h"

#include <stdexcept>

namespace gms {

const std::vector<std::string>& dram_standard_names() {
  static const std::vector<std::string> names = {"gddr5", "hbm3"};
  return names;
}

DramStandard dram_standard_of(const std::string& name) {
  if (name == "gddr5") return DramStandard::Gddr5;
  if (name == "hbm3") return DramStandard::Hbm3;
  throw std::invalid_argument("unknown DRAM standard '" + name + "'");
}

namespace {

// HBM3 as one channel of an H100 SXM5 (80 GB) split into 40 channels.
//
// Sources:
//  [DS]  NVIDIA H100 Tensor Core GPU datasheet: H100 SXM, 80 GB HBM3, 3.35 TB/s; NVIDIA Hopper
//        architecture whitepaper: 5 HBM3 stacks, ten 512-bit memory controllers = 5120 bits.
//  [SMI] nvidia-smi on "NVIDIA H100 80GB HBM3": memory clock 2619 MHz, i.e. 5238 Mb/s per pin (DDR);
//        5120 pins x 5.238 Gb/s / 8 = 3352 GB/s, the datasheet's 3.35 TB/s.
//  [R2]  Ramulator 2 (CMU-SAFARI/ramulator2, python/ramulator/dram/hbm3.py, commit 38c51d4), which cites
//        JESD238 for its organisation ("Table 4 in JESD238": pseudo-channel of 32 DQ, BL8; per
//        pseudo-channel 4 bank groups x 4 banks per SID, 2 SIDs in an 8-high stack; 1 KiB page = 256
//        columns x 32 bit) and its refresh times; its timing preset HBM3_6400Mbps (no table named) is in
//        command-clock (CK) cycles at tCK = 0.625 ns (6.4 Gb/s, four data beats per CK). Each time below
//        is its cycle count x 0.625 ns.
//  [AS]  Accel-Sim (accel-sim/gpgpu-sim_distribution, configs/tested-cfgs/SM90_H100/gpgpusim.config),
//        cross-check only: gpgpu_n_mem 40; nbk=16 nbkgrp=4 CCD=1 CCDL=6 RRD=6 RCD=19 RAS=45 RP=19 RC=50
//        CL=19 WL=6 CDLR=8 WR=21 RTPL=8; CL RCD RP RAS WR WL CDLR RTPL are the HBM3_5.2Gbps preset of
//        AttAcc's Ramulator 2 patch (scale-snu/attacc_simulator,
//        pim_ramulator_src/patches/src_dram_impl_HBM3.patch, CK = 1.3 GHz; that patch says its HBM3 numbers
//        are HBM2 ones from DRAMsim3), while Accel-Sim runs them on a 3106 MHz DRAM clock. See
//        docs/blocks/dram.md for the side-by-side table.
//
// Geometry: 5120 pins / 40 channels = 128 pins = four 32-bit pseudo-channels per channel. The model has one
// data bus and one command bus per channel, so a channel is the four pseudo-channels merged: every bank
// keeps its own timing ([R2] in ns), the per-group spacings (tCCDL, tRRDL) are a pseudo-channel's, and the
// channel-wide ones (tCCD, tRRD) are a pseudo-channel's divided by the four that work in parallel.
// Model clock = 2619 MHz = 2 x HBM3 CK (CK = 5238 / 4 = 1309.5 MHz): the four pseudo-channels together move
// one 32 B burst per 0.5 CK, so the command bus must be able to issue one column command per half CK.
// One cycle = 0.3818 ns; a time t becomes ceil(t / 0.3818 ns) cycles. Each timing line below reads:
// [R2] value -> ns -> exact cycles (rounded up to the value set), then Accel-Sim's count as written [AS].
DramParams hbm3() {
  DramParams p;
  p.standard = DramStandard::Hbm3;
  p.clock_mhz = 2619;  // [SMI] memory clock; 2 x CK
  p.bus_bytes = 16;    // 128 pins = 5120 [DS] / 40 channels
  p.data_rate = 2;     // 5238 Mb/s per pin [SMI] / 2619 MHz
  // 32 B = one BL8 access of a 32-bit pseudo-channel [R2], the model's sector; 2 beats of 16 B, 1 cycle.
  p.burst_length = 2;
  // Peak 16 B x 2 x 2619 MHz = 83.81 GB/s per channel, x 40 channels = 3352 GB/s = 3.35 TB/s [DS].
  p.banks = 128;       // 4 pseudo-channels x 2 SIDs x 4 bank groups x 4 banks [R2]
  p.bank_groups = 32;  // 4 pseudo-channels x 2 SIDs x 4 bank groups [R2]
  p.row_bytes = 1024;  // page of one pseudo-channel bank: 256 columns x 32 bit [R2]
  p.tCL = 33;          // nCL 20 -> 12.50 ns [R2] -> 32.7 (AS: CL=19)
  p.tCWL = 17;         // nCWL 10 -> 6.25 ns [R2] -> 16.4 (AS: WL=6)
  p.tRCD = 51;         // nRCDRD 31 -> 19.375 ns [R2] -> 50.7; reads (nRCDWR 15 not modelled) (AS: RCD=19)
  p.tRP = 43;          // nRP 26 -> 16.25 ns [R2] -> 42.6 (AS: RP=19)
  p.tRAS = 74;         // nRAS 45 -> 28.125 ns [R2] -> 73.7 (AS: RAS=45)
  p.tRC = 118;         // nRC 72 -> 45 ns [R2] -> 117.9; >= tRAS + tRP = 117 (AS: RC=50)
  p.tRRD = 2;          // nRRDS 4 -> 2.5 ns per pseudo-channel [R2], / 4 -> 0.625 ns -> 1.6 (AS: RRD=6)
  p.tRRDL = 9;         // nRRDL 5 -> 3.125 ns [R2] -> 8.2 (one pseudo-channel's group)
  p.tCCD = 1;          // nCCDS 2 CK (one BL8 burst) per pseudo-channel [R2], / 4 = 0.5 CK = 1 (AS: CCD=1)
  p.tCCDL = 8;         // nCCDL 4 CK [R2] = 8 (4 CK in AttAcc's 5.2 Gb/s preset too: a CK count) (AS: CCDL=6)
  // The model builds these gaps from several keys; each key makes the gap match [R2]'s:
  p.tWR = 56;   // WR -> PRE = nCWL + nBL + nWR = 45 CK = 28.125 ns -> 74 = tCWL + 1 + tWR (AS: WR=21)
  p.tWTR = 14;  // WR -> RD = nCWL + nBL + nWTRS = 19 CK = 11.875 ns -> 32 = tCWL + 1 + tWTR (AS: CDLR=8)
  p.tRTW = 16;  // RD -> WR = nRTW 20 CK = 12.5 ns -> 33 = tCL + 1 + tRTW - tCWL
  return p;
}

}  // namespace

DramParams dram_standard(DramStandard s) {
  switch (s) {
    case DramStandard::Hbm3:
      return hbm3();
    case DramStandard::Gddr5:
      break;
  }
  return DramParams{};  // the papers' GDDR5 channel (dram_params.h)
}

}  // namespace gms
