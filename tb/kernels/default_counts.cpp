#include "tb/kernels/default_counts.h"

#include <map>
#include <memory>

namespace gms::kernels {

const WarpInstCounts* default_counts(const std::string& port) {
  // {loads, stores, atomics, barriers, compute} of each port's default input, from `gpumemsys kernels
  // --count` (tenth session); tests/kernels/test_default_counts.cpp recounts every one.
  static const std::map<std::string, WarpInstCounts> table = {
      {"ispass/mum", {339477, 18756, 0, 0, 4996658}},
      {"ispass/nn", {7531888, 5488, 0, 0, 22593424}},
      {"ispass/wp", {698279, 390779, 0, 0, 20489973}},
      {"lonestar/bh", {2709402, 24360, 2925, 15940, 20793358}},
      {"lonestar/sp", {1983144, 50400, 4320, 0, 8467704}},
      {"lonestar/sssp", {2837256, 14154, 73069, 0, 14956744}},
      {"mars/iix", {1974737, 160845, 0, 12392, 8855875}},
      {"mars/pvc", {1715245, 270960, 0, 78501, 9089011}},
      {"mars/pvr", {1000216, 511140, 0, 125108, 9760456}},
      {"mars/ssc", {1271628, 525701, 0, 125102, 12092297}},
      {"parboil/bfs", {53404, 9892, 60855, 71712, 1887833}},
      {"parboil/cutcp", {2498496, 118976, 0, 654368, 1662475993}},
      {"parboil/histo", {768698, 153088, 1746, 21632, 12092232}},
      {"parboil/lbm", {2880000, 2736000, 0, 0, 29835840}},
      {"parboil/mri-gridding", {1387660, 126237, 2535, 1008080, 119359517}},
      {"parboil/mri-q", {82048, 32832, 0, 0, 268944576}},
      {"parboil/sad", {1382400, 1728000, 0, 0, 4047360}},
      {"parboil/sgemm", {2390784, 33792, 0, 523776, 84243456}},
      {"parboil/spmv", {720250, 18700, 0, 0, 2703050}},
      {"parboil/stencil", {2437872, 1011840, 0, 1032192, 27430112}},
      {"parboil/tpacf", {207168, 41, 0, 17056, 1530024968}},
      {"polybench/2dconv", {1178496, 130944, 0, 0, 5368704}},
      {"polybench/2mm", {2099200, 1052672, 0, 0, 3784704}},
      {"polybench/3dconv", {1072896, 97536, 0, 0, 5657088}},
      {"polybench/3mm", {3145728, 1579008, 0, 0, 4884480}},
      {"polybench/atax", {1048576, 524800, 0, 0, 1582336}},
      {"polybench/bicg", {2097152, 1048832, 0, 0, 3150464}},
      {"polybench/correlation", {598016, 303385, 0, 0, 969450}},
      {"polybench/covariance", {592896, 299792, 0, 0, 917104}},
      {"polybench/fdtd-2d", {1441344, 393152, 0, 0, 12318336}},
      {"polybench/gemm", {1050624, 526336, 0, 0, 2156544}},
      {"polybench/gesummv", {786560, 262208, 0, 0, 526848}},
      {"polybench/gramschmidt", {1533952, 589176, 0, 0, 2348480}},
      {"polybench/mvt", {1049088, 524288, 0, 0, 1584896}},
      {"polybench/syr2k", {2099200, 526336, 0, 0, 3717120}},
      {"polybench/syrk", {1050624, 526336, 0, 0, 2150400}},
      {"recorded/colcopy", {4096, 4096, 0, 0, 0}},
      {"recorded/stencil5", {204800, 40960, 0, 0, 0}},
      {"recorded/vecadd", {163840, 81920, 0, 0, 0}},
      {"rodinia/b+tree", {1823615, 110000, 0, 560000, 3018460}},
      {"rodinia/backprop", {589829, 262146, 0, 589824, 8495122}},
      {"rodinia/bfs", {328255, 134176, 0, 0, 1517108}},
      {"rodinia/cfd", {1475361, 327888, 0, 0, 14800113}},
      {"rodinia/dwt2d", {210558, 227328, 0, 106736, 8974326}},
      {"rodinia/gaussian", {1094096, 365080, 0, 0, 13639832}},
      {"rodinia/heartwall", {6226592, 147968, 0, 2176, 33452928}},
      {"rodinia/hotspot", {29240, 11008, 0, 59168, 2894416}},
      {"rodinia/kmeans", {2097664, 20992, 0, 0, 12435456}},
      {"rodinia/leukocyte", {10389060, 11888, 0, 1659700, 446875977}},
      {"rodinia/lud", {35776, 13880, 0, 10656, 1200848}},
      {"rodinia/mummergpu", {281821, 13614, 0, 0, 4886112}},
      {"rodinia/myocyte", {468000, 366600, 0, 0, 23400000}},
      {"rodinia/nw", {311296, 262144, 0, 557056, 8217536}},
      {"rodinia/particlefilter", {222128, 32661, 0, 5184, 6648983}},
      {"rodinia/pathfinder", {384536, 18486, 0, 733392, 12011456}},
      {"rodinia/srad_v1", {1671340, 598190, 0, 720640, 21729360}},
      {"rodinia/srad_v2", {1710080, 786432, 0, 1179648, 25892864}},
      {"rodinia/streamcluster", {4251338, 24266, 0, 0, 11057495}},
      {"sdk/binomialoptions", {0, 128, 0, 2097152, 25457920}},
      {"sdk/blackscholes", {1500000, 1000000, 0, 0, 71000000}},
      {"sdk/fastwalsh", {1310720, 1245184, 0, 344064, 22484992}},
      {"sdk/histogram", {1331584, 21128, 0, 80016, 63435336}},
      {"sdk/matrixmul", {256000, 12800, 0, 256000, 13760000}},
      {"sdk/mergesort", {583502, 402508, 0, 761856, 38692758}},
      {"shoc/fft", {122880, 81920, 0, 71680, 4372480}},
      {"tango/alexnet", {4149970, 7076, 0, 0, 7833872}},
      {"tango/resnet", {2007632, 96850, 0, 0, 14911993}},
      {"tango/squeezenet", {1566432, 5328, 0, 0, 4524360}},
  };
  auto it = table.find(port);
  return it == table.end() ? nullptr : &it->second;
}

WarpInstCounts count_warp_insts(Workload& w, uint64_t& launches) {
  WarpInstCounts c;
  launches = 0;
  for (std::unique_ptr<KernelSource> k; (k = w.next_kernel());) {
    ++launches;
    for (std::unique_ptr<CtaWork> cta; (cta = k->next_cta());)
      for (auto& warp : cta->warps)
        for (WarpInst i; warp->next(i);) {
          ++(i.kind == MemKind::Load     ? c.loads
             : i.kind == MemKind::Store  ? c.stores
             : i.kind == MemKind::Atomic ? c.atomics
                                         : c.barriers);
          c.compute += i.gap;
        }
  }
  return c;
}

}  // namespace gms::kernels
