// Every kernel port runs to the end with 0 data mismatches on every preset family and with every L1 design:
// each port at a small size (seconds for all runs together) on tiny with each registered L1 design, then on
// fermi, volta80-hxbar and h100. Covariance and correlation have no size below their default (n = 256, the
// grids' granule; about 30 CPU s a run): they are left to scripts/ports_check, which runs every default input
// on the presets outside CI. One ctest per port; each run is its own gpumemsys process.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "models/l1/l1_cache.h"
#include "tests/cli/cli_runner.h"

namespace {

// A small size per port: a few thousand warp instructions that still reach every kernel and branch.
const std::vector<std::pair<std::string, std::string>>& ports() {
  static const std::vector<std::pair<std::string, std::string>> v = {
      {"recorded/vecadd", "n=4096"},
      {"recorded/stencil5", "width=64,height=32"},
      {"recorded/colcopy", "rows=64,cols=32"},
      {"rodinia/backprop", "in=1024"},
      {"rodinia/bfs", "nodes=1100"},
      {"rodinia/b+tree", "keys=20000,k_count=300,j_count=200,j_range=500"},
      {"rodinia/cfd", "elements=384,iterations=1"},
      {"rodinia/gaussian", "n=37"},
      {"rodinia/hotspot", "grid=64,pyramid_height=2,sim_time=2"},
      {"rodinia/kmeans", "points=300,features=4,clusters=3"},
      {"rodinia/lud", "dim=32"},
      {"rodinia/nw", "dim=64"},
      {"rodinia/particlefilter", "x=16,y=16,frames=2,particles=600"},
      {"rodinia/pathfinder", "cols=300,rows=5,pyramid_height=2"},
      {"rodinia/srad_v1", "rows=20,cols=30,iterations=1"},
      {"rodinia/srad_v2", "rows=64,cols=48,iterations=2"},
      {"rodinia/streamcluster", "points=1000,dim=6,launches=1"},
      {"polybench/gemm", "n=32"},
      {"polybench/syrk", "n=32"},
      {"polybench/atax", "n=64"},
      {"polybench/bicg", "n=64"},
      {"polybench/mvt", "n=64"},
      {"polybench/gesummv", "n=64"},
      {"polybench/2mm", "n=32"},
      {"polybench/3mm", "n=32"},
      {"parboil/spmv", "rows=64,nnz_lower=127,band=1,iterations=1"},
      {"parboil/stencil", "nx=64,ny=8,nz=5,iterations=1"},
      {"parboil/sgemm", "m=128,n=16,k=16"},
      {"parboil/mri-q", "num_x=512,num_k=1500"},
      {"sdk/blackscholes", "options=1000,iterations=3"},
      {"polybench/2dconv", "n=256"},
      {"polybench/3dconv", "ni=6,nj=64,nk=64"},
      {"polybench/syr2k", "n=64"},
      {"polybench/fdtd-2d", "tmax=2,nx=128,ny=128"},
      {"polybench/gramschmidt", "n=64,diag=1"},
      {"parboil/lbm", "size_x=64,size_y=16,size_z=16"},
      {"parboil/cutcp", "side_x=16,side_y=16,side_z=8"},
      {"parboil/tpacf", "points=1024,sets=2"},
      {"parboil/sad", "width=128,height=64"},
      {"sdk/matrixmul", "block=16,wa=32,ha=32,wb=32,launches=1"},
      {"sdk/mergesort", "n=3072"},
      {"sdk/binomialoptions", "options=2,steps=128"},
      {"sdk/fastwalsh", "log2_data=13,log2_kernel=3"},
      {"sdk/histogram", "bytes=16128,calls=1"},
      {"rodinia/dwt2d", "width=72,height=64,levels=2"},
      {"rodinia/myocyte", "xmax=1,attempts=1"},
      {"rodinia/heartwall", "frames=11,points=2,s_size=10,t_size=5"},
      {"rodinia/mummergpu", "ref_bases=2000,queries=100"},
      {"rodinia/leukocyte", "width=112,band=96,frames=1,discs=2"},
      {"parboil/histo",
       "kb=16,img_width=256,img_height=64,histo_width=64,histo_height=512,outliers=2000,iterations=2"},
      {"parboil/mri-gridding", "grid=16,samples=3000,binsize=8"},
      {"lonestar/sssp", "scale=11,block=512"},
      {"lonestar/bh", "bodies=256,timesteps=2,sms=1,block_cap=512"},
      {"lonestar/sp", "clauses=300,vars=100,seed=7,sms=2,sm_threads=512"},
      {"parboil/bfs", "nodes=3000,edges=12000,random=1"},
      {"ispass/nn", "images=1"},
      {"ispass/mum", "ref_bases=2000,queries=2048"},
      {"ispass/wp", "nx=8,ny=8,nz=27"},
      {"shoc/fft", "half_ffts=2,passes=1"},
      {"tango/squeezenet", "filters=1,ctas=8"},
      {"tango/alexnet", "div=16,ctas=1"},
      {"tango/resnet", "div=64,ctas=1"},
      {"mars/pvc", "records=300,urls=16"},
      {"mars/pvr", "records=300,ranks=64"},
      {"mars/ssc", "docs=24,dims=16"},
      {"mars/iix", "copies=1"},
  };
  return v;
}

class PortEverywhere : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

void expect_clean_run(const std::string& preset, const std::string& workload, const std::string& sets) {
  std::string name = "port_everywhere_" + workload;  // its own folder: ctest runs ports side by side
  for (char& c : name)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  const std::string dir = temp_dir(name);
  const CliResult r = run_cli("run -q -c " + gms_src("configs/" + preset + ".yaml") + " -w '" + workload +
                              "' -o " + dir + " " + sets);
  ASSERT_EQ(r.status, 0) << preset << " " << workload << " " << sets << "\n" << r.out.substr(0, 2000);
  // binomialoptions reads its options from __constant__ memory (not modelled): its only global accesses are
  // the results' stores.
  if (workload.rfind("sdk/binomialoptions", 0) != 0) {
    EXPECT_GT(summary_value(r.out, "loads checked \\(golden\\)"), 0)
        << preset << " " << workload << " " << sets;
  }
  EXPECT_EQ(summary_value(r.out, "data mismatches"), 0) << preset << " " << workload << " " << sets;
}

// Ports whose source launches CTAs larger than tiny's SM holds (512 threads, 16 warps): tiny gets an SM of
// 1024 threads for them (the CTA shape is the source's; a smaller one would be another kernel).
// lonestar/bh's tree-building CTAs (512 threads, 3 an SM at sms=1) must all be resident at once.
std::string tiny_sets(const std::string& port) {
  if (port == "tango/alexnet" || port == "tango/resnet")
    return " --set sm.max_threads=1024 --set sm.max_warps=32";
  if (port == "lonestar/bh") return " --set sm.max_threads=1536 --set sm.max_warps=48";
  return "";
}

TEST_P(PortEverywhere, RunsWithZeroMismatchesOnEveryPresetAndL1Design) {
  const std::string w = GetParam().first + ":" + GetParam().second;
  for (const std::string& design : gms::l1_design_names())
    expect_clean_run("tiny", w, "--set l1.design=" + design + tiny_sets(GetParam().first));
  for (const char* preset : {"fermi", "volta80-hxbar", "h100"}) expect_clean_run(preset, w, "");
}

INSTANTIATE_TEST_SUITE_P(Ports, PortEverywhere, ::testing::ValuesIn(ports()),
                         [](const ::testing::TestParamInfo<std::pair<std::string, std::string>>& i) {
                           std::string n = i.param.first;
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

// Ports without a small size (scripts/ports_check covers them).
const std::vector<std::string> kOnlyDefault = {"polybench/covariance", "polybench/correlation"};

// The list above covers every registered port (a new port gets its small size here).
TEST(PortEverywhereList, CoversEveryRegisteredPort) {
  const CliResult r = run_cli("kernels");
  size_t listed = 0;
  for (size_t pos = 0; (pos = r.out.find("\n  suite ", pos)) != std::string::npos; ++pos) ++listed;
  EXPECT_EQ(listed, ports().size() + kOnlyDefault.size()) << r.out;
  for (const std::string& name : kOnlyDefault)
    EXPECT_NE(r.out.find(name + "\n  suite"), std::string::npos) << name;
  for (const auto& [name, size] : ports())
    EXPECT_NE(r.out.find(name + "\n  suite"), std::string::npos) << name;
}

}  // namespace
