// ISPASS-2009 WP ("weather prediction"): the WRF single-moment 5-class microphysics (WSM5) on the GPU, one
// kernel, wsm5_gpu, one thread per (i, j) column of the WRF tile, every thread walking the column's levels k
// in a dozen loops: saturation, slope parameters and the number of sedimentation sub-steps, the
// sedimentation of rain and snow (and melting) sub-stepped per column, the fall of cloud ice, the surface
// precipitation, and the long level loop of warm- and cold-rain processes. The source is written with spt.pl
// directives: a 3-D argument x[k] is x[P3(ti,k,tj)] = x[ig + k*ix + jg*ix*kx] (i fastest, then k, then j;
// WRF's (i,k,j) order), a 2-D one is x[ig + jg*ix], a `local k:` array is a float[MKX] per thread.
//
// Local memory. With nvcc 13 -arch=sm_75 (ptxas -v: 111 registers, 1792 bytes stack frame, no spills) 16
// of the 21 per-thread arrays live in a local frame of 16 x MKX floats, in declaration order: qs1 qs2 rh1
// rh2 t cpm xl xni rsloper rslopes rslopebs rslope2s denfac n0sfac w1 w2 (offsets 0, 112, ..., 1680); the
// other five (rslopebr rslope2r rslope3r rslope3s w3) are only read in the iteration that writes them and
// became registers. The frame is the DeviceArray `local`, allocated after the benchmark's arrays: word w of
// the frame of thread t (t = CTA index * 64 + threadIdx.y * 8 + threadIdx.x) is element w * threads + t,
// so the 32 threads of a warp reading the same word read 128 consecutive bytes (GPGPU-Sim's
// translate_local_memaddr interleaves the same way, by hardware thread slot instead of grid thread).
//
// Which accesses are instructions: each array element the source reads is loaded where the compiled code
// loads it (checked against the PTX): a global element is loaded once and kept in a register until a global
// store (any array: the pointers may alias) or the end of the branch it was loaded in; a local element
// written in the same iteration is forwarded, one written by an earlier loop is loaded where it is read (in
// each branch that reads it); w1[kpe-1], w2[kpe-1] and rslopebs[2] are hoisted out of the rain/snow
// sedimentation sub-step loop and w2[kpe-1] out of the ice one, as ptxas does. Loads and stores follow the
// source's order.
//
// Arithmetic: the source's float variables and double constants (wsm5_constants.h: #define literals and
// `double` locals), with C++'s promotions (float op double in double); every formula is one scalar function
// below that the warps (lane by lane) and the sequential reference both call, so the check is exact. The
// GPU's --use_fast_math approximations are not modelled; the data-dependent control flow (sub-step counts,
// process branches, precipitation) follows these values. The source's quirks are kept: the melting term
// reads rslopebs[2] (a fixed level), rainncv and rain use delz[1], snow and sr delz[0]; fallc_k, which the
// source accumulates without initialising (a register PTX never sets), starts at 0 and, like fall1_k and
// fall2_k, carries over from one time step to the next.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// ---- wsm5_constants.h ----
constexpr double r_d = 287.;
constexpr double dens = 100.;  // rhosnow
constexpr double rv = 0.461600006103516E+03;
constexpr double cice = 0.210600000000000E+04;
constexpr double cliq = 0.419000000000000E+04;
constexpr double denr = 0.100000000000000E+04;
constexpr double den0 = 0.127999997138977E+01;
constexpr double xlf0 = 0.350000000000000E+06;
constexpr double xlv0 = 0.250000000000000E+07;
constexpr double xls = 0.285000000000000E+07;
constexpr double t0c = 0.273149993896484E+03;
constexpr double qmin = 0.100000000362749E-14;
constexpr double ep2 = 0.621750414371490E+00;
constexpr double psat = 0.610780029296875E+03;
constexpr double alpha = 0.120000000000000E+00;
constexpr double n0smax = 0.100000000000000E+12;
constexpr double n0s = 0.200000000000000E+07;
constexpr double n0r = 0.800000000000000E+07;
constexpr double qcrmin = 0.100000000000000E-08;
constexpr double avtr = 0.841900000000000E+03;
constexpr double bvtr = 0.800000000000000E+00;
constexpr double g3pbr = 0.469078683336385E+01;
constexpr double g4pbr = 0.178173289058329E+02;
constexpr double g5pbro2 = 0.182658695197891E+01;
constexpr double avts = 0.117200000000000E+02;
constexpr double bvts = 0.410000000000000E+00;
constexpr double g3pbs = 0.301156382231086E+01;
constexpr double g4pbs = 0.102654190601850E+02;
constexpr double g5pbso2 = 1.550308;
constexpr double r0 = 0.800000000000000E-05;
constexpr double peaut = 0.550000000000000E+00;
constexpr double xncr = 0.300000000000000E+09;
constexpr double xmyu = 0.171800000000000E-04;
constexpr double lamdarmax = 0.800000000000000E+05;
constexpr double pi = 0.314159265358979E+01;
constexpr double dicon = 0.119000000000000E+02;
constexpr double dimax = 0.500000000000000E-03;
constexpr double pfrz1 = 0.100000000000000E+03;
constexpr double pfrz2 = 0.660000000000000E+00;
constexpr double eacrr = 0.100000000000000E+01;
constexpr double eacrc = 0.100000000000000E+01;

// The constants' `double` locals.
struct Derived {
  double cpv = 4. * rv;
  double cp = 7. * r_d / 2.;
  double cv = cp - r_d;
  double cpd = cp;
  double pvtr = avtr * g4pbr / 6.;
  double pvts = avts * g4pbs / 6.;
  double xlv1 = cliq - cv;
  double rslopermax = 1. / lamdarmax;
  double rslopesmax = .10000000000000001e-04;
  double rsloperbmax = 0.11954406247375457E-03;
  double rslopesbmax = .89125093813374589e-02;
  double rsloper2max = rslopermax * rslopermax;
  double rslopes2max = rslopesmax * rslopesmax;
  double rsloper3max = rsloper2max * rslopermax;
  double rslopes3max = rslopes2max * rslopesmax;
  double pidn0r = pi * denr * n0r;
  double pidn0s = pi * dens * n0s;
  double precs1 = 4. * n0s * .65;
  double precs2 = 4. * n0s * .44 * std::sqrt(avts) * g5pbso2;
  double qc0 = 4. / 3. * pi * denr * (r0 * r0 * r0) * xncr / den0;
  double qck1 = .104 * 9.8 * peaut / std::pow((xncr * denr), (1. / 3.)) / xmyu * std::pow(den0, (4. / 3.));
  double precr1 = 2. * pi * n0r * .78;
  double precr2 = 2. * pi * n0r * .31 * std::sqrt(avtr) * g5pbro2;
  double pacrr = pi * n0r * avtr * g3pbr * .25 * eacrr;
  double pacrc = pi * n0s * avts * g3pbs * .25 * eacrc;
  double roqimax = 2.08e22 * std::pow(dimax, 8);
};
const Derived& C() {
  static const Derived d;
  return d;
}

// The launch: XXX = YYY = 8 (the makefile's setting, GPGPU-Sim's build), MKX = 28 levels of local arrays.
constexpr uint32_t kBx = 8, kBy = 8, kMkx = 28;
constexpr uint32_t kLocalArrays = 16;
enum Local : int64_t {
  QS1,
  QS2,
  RH1,
  RH2,
  T,
  CPM,
  XL,
  XNI,
  RSLOPER,
  RSLOPES,
  RSLOPEBS,
  RSLOPE2S,
  DENFAC,
  N0SFAC,
  W1,
  W2
};

// ptxas -v (nvcc 13.0 -arch=sm_75 --use_fast_math on the spt.pl output, MKX=28): 111 registers, no shared.
constexpr uint32_t kRegs = 111;
// PTX instructions per global/local memory instruction, per region of the PTX (all instructions of the
// region's unrolled blocks over its memory instructions): the entry before the first load, the loops in
// source order, the set-up before each time step's first loop.
constexpr uint32_t kGapEntry = 114, kGapT = 5, kGapClamp = 4, kGapCpm = 6, kGapStep = 85, kGapSat = 27,
                   kGapXni = 3, kGapSlope = 16, kGapSed = 5, kGapMelt = 27, kGapIce = 15, kGapIceSed = 6,
                   kGapPrecip = 4, kGapLevel = 38, kGapTh = 17;

// ---- the source's formulas, per thread ----

double cpmcal(float x) {
  const double m = std::max<double>(x, qmin);
  return C().cpd * (1. - m) + m * C().cpv;
}
double xlcal(float x) {
  return xlv0 - C().xlv1 * (x - t0c);
}
double viscos(float x, float y) {
  return 1.496e-6 * (x * std::sqrt(x)) / (x + 120.) / y;
}
double diffus(float x, float y) {
  return 8.794e-5 * std::exp(std::log(x) * (1.81)) / y;
}
double xka(float x, float y) {
  return 1.414e3 * viscos(x, y) * y;
}
double diffac(double a, float b, float c, float d, float e) {
  return d * a * a / (xka(c, d) * rv * c * c) + 1. / (e * diffus(c, b));
}
double venfac(float a, float b, float c) {
  return std::exp(std::log((viscos(b, c) / diffus(b, a))) * ((.3333333))) * (1. / std::sqrt(viscos(b, c))) *
         std::sqrt(std::sqrt(den0 / c));
}
int numdt_of(float w, float dtcld) {
  return std::max(int(std::trunc(w * dtcld + .5 + .5)), 1);
}

// One thread's scalars (the kernel's float and int locals, the _def_ register terms, the level's values).
struct Th {
  float dtcld = 0, rmstep = 0, xlf = 0;
  int mstep = 1, numdt = 0;
  float ttp = 0, xa = 0, xb = 0, xai = 0, xbi = 0;
  float den_k = 0, falk1_k = 0, falk1_kp1 = 0, fall1_k = 0, falk2_k = 0, falk2_kp1 = 0, fall2_k = 0;
  float dtcldden = 0, delz_k = 0, delz_kp1 = 0, rdelz = 0;
  float falkc_k = 0, falkc_kp1 = 0, fallc_k = 0, fallc_kp1 = 0;
  float fallsum = 0, fallsum_qsi = 0;
  // a level
  float q = 0, t = 0, qr = 0, qc = 0, qs = 0, qi = 0, qs1 = 0, qs2 = 0, cpm = 0, xl = 0;
  float supcol = 0, n0sfac = 0, rsloper = 0, rslopebr = 0, rslope2r = 0, rslope3r = 0;
  float rslopes = 0, rslopebs = 0, rslope2s = 0, rslope3s = 0, denfac = 0, w1 = 0, w2 = 0, w3 = 0;
  float den = 0, p = 0, supsat = 0, satdt = 0, rdtcld = 0, xni = 0, eacrs = 0, coeres = 0;
  int ifsat = 0;
  float prevp = 0, psdep = 0, praut = 0, psaut = 0, pracw = 0, psaci = 0, psacw = 0, pigen = 0, pidep = 0;
  float pcond = 0, psmlt = 0, psevp = 0;
  // the port's loaded values (la..lg) and the loads hoisted out of the sub-step loops
  float la = 0, lb = 0, lc = 0, ld = 0, le = 0, lf = 0, lg = 0, hw1 = 0, hw2 = 0, hbs2 = 0;
};

int loops_of(float delt) {
  const float dtcldcr = 120.f;
  const int loops = int(delt / dtcldcr + .5);
  return std::max(loops, 1);
}
float dtcld_of(float delt) {
  const int loops = loops_of(delt);
  float dtcld = delt / loops;
  if (delt <= 120.f) dtcld = delt;
  return dtcld;
}

void step_begin(Th& s) {
  s.mstep = 1;
  s.ttp = float(t0c + 0.01);
  const float dldt = float(C().cpv - cliq);
  s.xa = float(-dldt / rv);
  s.xb = float(s.xa + xlv0 / (rv * s.ttp));
  const float dldti = float(C().cpv - cice);
  s.xai = float(-dldti / rv);
  s.xbi = float(s.xai + xls / (rv * s.ttp));
}

// Saturation mixing ratios and relative humidities of a level (p, t, q loaded).
void saturation(const Th& s, float pp, float tt, float q, float& qs1, float& rh1, float& qs2, float& rh2) {
  const float tr = s.ttp / tt;
  const float ltr = std::log(tr);
  float qq = float(psat * std::exp(ltr * (s.xa) + s.xb * (1. - tr)));
  qq = float(ep2 * qq / (pp - qq));
  qs1 = float(std::max<double>(qq, qmin));
  rh1 = float(std::max<double>(q / qs1, qmin));
  if (tt < s.ttp)
    qq = float(psat * std::exp(ltr * (s.xai) + s.xbi * (1. - tr)));
  else
    qq = float(psat * std::exp(ltr * (s.xa) + s.xb * (1. - tr)));
  qq = float(ep2 * qq / (pp - qq));
  qs2 = float(std::max<double>(qq, qmin));
  rh2 = float(std::max<double>(q / qs2, qmin));
}

float n0sfac_of(float supcol) {
  return float(std::max<double>(std::min<double>(std::exp(alpha * supcol), n0smax / n0s), 1.));
}
void rain_slope_max(Th& s) {
  s.rsloper = float(C().rslopermax);
  s.rslopebr = float(C().rsloperbmax);
  s.rslope2r = float(C().rsloper2max);
  s.rslope3r = float(C().rsloper3max);
}
void rain_slope(Th& s, float qr, float den) {
  s.rsloper = float(1. / std::sqrt(std::sqrt(C().pidn0r / ((qr) * (den)))));
  s.rslopebr = float(std::exp(std::log(s.rsloper) * bvtr));
  s.rslope2r = s.rsloper * s.rsloper;
  s.rslope3r = s.rslope2r * s.rsloper;
}
void snow_slope_max(Th& s) {
  s.rslopes = float(C().rslopesmax);
  s.rslopebs = float(C().rslopesbmax);
  s.rslope2s = float(C().rslopes2max);
  s.rslope3s = float(C().rslopes3max);
}
void snow_slope(Th& s, float qs, float den, float n0sfac) {
  s.rslopes = float(1. / std::sqrt(std::sqrt(C().pidn0s * (n0sfac) / ((qs) * (den)))));
  s.rslopebs = float(std::exp(std::log(s.rslopes) * bvts));
  s.rslope2s = s.rslopes * s.rslopes;
  s.rslope3s = s.rslope2s * s.rslopes;
}
float denfac_of(float den) {
  return float(std::sqrt(den0 / den));
}
float w1_of(const Th& s, float denfac, float delz) {
  return float(C().pvtr * s.rslopebr * denfac / delz);
}
float w2_of(const Th& s, float denfac, float delz) {
  return float(C().pvts * s.rslopebs * denfac / delz);
}
void fall_steps(Th& s, float w1, float w2) {
  const float w = std::max(w1, w2);
  s.numdt = numdt_of(w, s.dtcld);
  if (s.numdt >= s.mstep) s.mstep = s.numdt;
}
float xni_of(float den, float qi) {
  float temp = float(den * std::max<double>(qi, qmin));
  temp = std::sqrt(std::sqrt(temp * temp * temp));
  return float(std::min<double>(std::max<double>(5.38e7 * temp, 1.e3), 1.e6));
}
float rmstep_of(int mstep) {
  return float(1. / mstep);
}

// Rain and snow sedimentation, top level then the levels below.
void sed_top(Th& s, float den, float qr, float w1, float qs, float w2) {
  s.den_k = den;
  s.falk1_kp1 = s.den_k * qr * w1 * s.rmstep;
  s.falk2_kp1 = s.den_k * qs * w2 * s.rmstep;
  s.dtcldden = s.dtcld / s.den_k;
}
float sed_top_qr(const Th& s, float qr) {
  return float(std::max<double>(qr - s.falk1_kp1 * s.dtcldden, 0.0));
}
float sed_top_qs(const Th& s, float qs) {
  return float(std::max<double>(qs - s.falk2_kp1 * s.dtcldden, 0.0));
}
void sed_level(Th& s, float den, float qr, float w1, float qs, float w2, float delz) {
  s.den_k = den;
  s.falk1_k = s.den_k * qr * w1 * s.rmstep;
  s.fall1_k = s.falk1_k;
  s.falk2_k = s.den_k * qs * w2 * s.rmstep;
  s.fall2_k = s.falk2_k;
  s.dtcldden = s.dtcld / s.den_k;
  s.delz_k = delz;
  s.rdelz = float(1. / s.delz_k);
}
float sed_level_qr(const Th& s, float qr) {
  return float(std::max<double>(qr - (s.falk1_k - s.falk1_kp1 * s.delz_kp1 * s.rdelz) * s.dtcldden, 0.));
}
float sed_level_qs(const Th& s, float qs) {
  return float(std::max<double>(qs - (s.falk2_k - s.falk2_kp1 * s.delz_kp1 * s.rdelz) * s.dtcldden, 0.));
}
void sed_shift(Th& s) {
  s.delz_kp1 = s.delz_k;
  s.falk1_kp1 = s.falk1_k;
  s.falk2_kp1 = s.falk2_k;
}
// Melting of snow in a sub-step: psmlt (qs, qr, t updated by the caller's stores).
float melt(Th& s, float p, float t, float den, float rslope2s, float rslopes, float rslopebs2, float n0sfac,
           float qs) {
  s.xlf = float(xlf0);
  const float w3 = float(venfac(p, t, den));
  s.coeres = rslope2s * std::sqrt(rslopes * rslopebs2);
  s.psmlt = float(xka(t, den) / s.xlf * (t0c - t) * pi / 2. * n0sfac *
                  (C().precs1 * rslope2s + C().precs2 * w3 * s.coeres));
  s.psmlt = float(std::min<double>(std::max(s.psmlt * s.dtcld * s.rmstep, -qs * s.rmstep), 0.));
  return s.psmlt;
}
float melt_t(const Th& s, float t, float q) {
  return float(t + s.xlf / cpmcal(q) * s.psmlt);
}
// Cloud ice fall speed over the layer depth.
float ice_w1(float den, float qi, float xni) {
  const float xmi = den * qi / xni;
  const float diameter = float(std::max<double>(std::min<double>(dicon * std::sqrt(xmi), dimax), 1.e-25));
  return float(1.49e4 * std::exp(std::log(diameter) * (1.31)));
}
void ice_steps(Th& s, float w2) {
  s.numdt = numdt_of(w2, s.dtcld);
  if (s.numdt > s.mstep) s.mstep = s.numdt;
}
void ice_top(Th& s, float den, float qi, float w2) {
  s.den_k = den;
  s.falkc_kp1 = s.den_k * qi * w2 * s.rmstep;
  s.fallc_kp1 = s.fallc_kp1 + s.falkc_kp1;
}
float ice_top_qi(const Th& s, float qi) {
  return float(std::max<double>(qi - s.falkc_kp1 * s.dtcld / s.den_k, 0.));
}
void ice_level(Th& s, float den, float qi, float w2, float delz) {
  s.den_k = den;
  s.falkc_k = s.den_k * qi * w2 * s.rmstep;
  s.fallc_k = s.fallc_k + s.falkc_k;
  s.delz_k = delz;
}
float ice_level_qi(const Th& s, float qi) {
  return float(
      std::max<double>(qi - (s.falkc_k - s.falkc_kp1 * s.delz_kp1 / s.delz_k) * s.dtcld / s.den_k, 0.));
}
void ice_shift(Th& s) {
  s.delz_kp1 = s.delz_k;
  s.falkc_kp1 = s.falkc_k;
  s.fallc_kp1 = s.fallc_k;
}
float precip(const Th& s, float sum, float delz) {
  return float(sum * delz / denr * s.dtcld * 1000.);
}
float precip_acc(const Th& s, float sum, float delz, float acc) {
  return float(sum * delz / denr * s.dtcld * 1000. + acc);
}
float ratio_sr(const Th& s, float delz0, float rainncv) {
  return float(s.fallsum_qsi * delz0 / denr * s.dtcld * 1000. / (rainncv + 1.e-12));
}

// ---- the level loop of the processes ----
void lv_begin(Th& s) {
  s.prevp = s.psdep = s.praut = s.psaut = s.pracw = s.psaci = s.psacw = s.pigen = s.pidep = s.pcond =
      s.psevp = 0;
}
// pimlt (instantaneous melting of ice), pihmf (homogeneous freezing below -40 C).
void lv_freeze(Th& s) {
  s.supcol = float(t0c - s.t);
  s.xlf = float(xls - s.xl);
  if (s.supcol < 0.) s.xlf = float(xlf0);
  if (s.supcol < 0 && s.qi > 0.) {
    s.qc = s.qc + s.qi;
    s.t = s.t - s.xlf / s.cpm * s.qi;
    s.qi = 0.;
  }
  if (s.supcol > 40. && s.qc > 0.) {
    s.qi = s.qi + s.qc;
    s.t = s.t + s.xlf / s.cpm * s.qc;
    s.qc = 0.;
  }
}
bool lv_pihtf_cond(const Th& s) {
  return s.supcol > 0. && s.qc > 0.;
}
void lv_pihtf(Th& s, float den) {
  const float pfrzdtc = float(std::min<double>(
      pfrz1 * (std::exp(pfrz2 * s.supcol) - 1.) * den / denr / xncr * s.qc * s.qc * s.dtcld, s.qc));
  s.qi = s.qi + pfrzdtc;
  s.t = s.t + s.xlf / s.cpm * pfrzdtc;
  s.qc = s.qc - pfrzdtc;
}
bool lv_psfrz_cond(const Th& s) {
  return s.supcol > 0. && s.qr > 0.;
}
void lv_psfrz(Th& s, float rsloper, float den) {
  float temp = rsloper;
  temp = temp * temp * temp * temp * temp * temp * temp;
  const float pfrzdtr = float(std::min<double>(
      20. * (pi * pi) * pfrz1 * n0r * denr / den * (std::exp(pfrz2 * s.supcol) - 1.) * temp * s.dtcld, s.qr));
  s.qs = s.qs + pfrzdtr;
  s.t = s.t + s.xlf / s.cpm * pfrzdtr;
  s.qr = s.qr - pfrzdtr;
}
void lv_thermo(Th& s) {  // den and p loaded
  s.w1 = float(diffac(s.xl, s.p, s.t, s.den, s.qs1));
  s.w2 = float(diffac(xls, s.p, s.t, s.den, s.qs2));
  s.w3 = float(venfac(s.p, s.t, s.den));
  s.supsat = float(std::max<double>(s.q, qmin) - s.qs1);
  s.satdt = s.supsat / s.dtcld;
  if (s.qc > C().qc0) {  // praut
    s.praut = float(C().qck1 * std::exp(std::log(s.qc) * ((7. / 3.))));
    s.praut = std::min(s.praut, s.qc / s.dtcld);
  }
}
bool lv_pracw_cond(const Th& s) {
  return s.qr > qcrmin && s.qc > qmin;
}
void lv_pracw(Th& s, float denfac) {
  s.pracw = float(std::min<double>(C().pacrr * s.rslope3r * s.rslopebr * s.qc * denfac, s.qc / s.dtcld));
}
void lv_prevp(Th& s, float rh1) {
  s.coeres = s.rslope2r * std::sqrt(s.rsloper * s.rslopebr);
  s.prevp = float((rh1 - 1.) * (C().precr1 * s.rslope2r + C().precr2 * s.w3 * s.coeres) / s.w1);
  if (s.prevp < 0.) {
    s.prevp = std::max(s.prevp, -s.qr / s.dtcld);
    s.prevp = std::max(s.prevp, s.satdt / 2);
  } else {
    s.prevp = std::min(s.prevp, s.satdt / 2);
  }
}
void lv_cold(Th& s) {
  s.rdtcld = float(1. / s.dtcld);
  s.supsat = float(std::max<double>(s.q, qmin) - s.qs2);
  s.satdt = s.supsat / s.dtcld;
  s.ifsat = 0;
  s.xni = xni_of(s.den, s.qi);
  s.eacrs = float(std::exp(0.07 * (-s.supcol)));
}
bool lv_psacw_cond(const Th& s) {
  return s.qs > qcrmin && s.qc > qmin;
}
void lv_psacw(Th& s, float denfac) {
  s.psacw = float(
      std::min<double>(C().pacrc * s.n0sfac * s.rslope3s * s.rslopebs * s.qc * denfac, s.qc * s.rdtcld));
}
bool lv_psaci_cond(const Th& s) {
  return s.qs > qcrmin && s.qi > qmin;
}
void lv_psaci(Th& s, float denfac) {
  const float xmi = s.den * s.qi / s.xni;
  const float diameter = float(std::min<double>(dicon * std::sqrt(xmi), dimax));
  const float vt2i = float(1.49e4 * std::pow(diameter, (float)1.31));
  const float vt2s = float(C().pvts * s.rslopebs * denfac);
  const float acrfac = float(2. * s.rslope3s + 2. * diameter * s.rslope2s + diameter * diameter * s.rslopes);
  s.psaci = float(pi * s.qi * s.eacrs * n0s * s.n0sfac * std::fabs(vt2s - vt2i) * acrfac * .25);
}
bool lv_pidep_cond(const Th& s) {
  return s.qi > 0 && s.ifsat != 1;
}
void lv_pidep(Th& s, float rh2) {
  const float xmi = s.den * s.qi / s.xni;
  const float diameter = float(dicon * std::sqrt(xmi));
  s.pidep = float(4. * diameter * s.xni * (rh2 - 1.) / s.w2);
  const float supice = s.satdt - s.prevp;
  if (s.pidep < 0.) {
    s.pidep = float(std::max<double>(std::max<double>(s.pidep, s.satdt * .5), supice));
    s.pidep = std::max(s.pidep, -s.qi * s.rdtcld);
  } else {
    s.pidep = float(std::min<double>(std::min<double>(s.pidep, s.satdt * .5), supice));
  }
  if (std::fabs(s.prevp + s.pidep) >= std::fabs(s.satdt)) s.ifsat = 1;
}
bool lv_psdep_cond(const Th& s) {
  return s.qs > 0. && s.ifsat != 1;
}
void lv_psdep(Th& s, float rh2) {
  s.coeres = s.rslope2s * std::sqrt(s.rslopes * s.rslopebs);
  s.psdep = float((rh2 - 1.) * s.n0sfac * (C().precs1 * s.rslope2s + C().precs2 * s.w3 * s.coeres) / s.w2);
  const float supice = s.satdt - s.prevp - s.pidep;
  if (s.psdep < 0.) {
    s.psdep = std::max(s.psdep, -s.qs * s.rdtcld);
    s.psdep = float(std::max<double>(std::max<double>(s.psdep, s.satdt * .5), supice));
  } else {
    s.psdep = float(std::min<double>(std::min<double>(s.psdep, s.satdt * .5), supice));
  }
  if (std::fabs(s.prevp + s.pidep + s.psdep) >= std::fabs(s.satdt)) s.ifsat = 1;
}
void lv_pigen_psaut(Th& s) {  // the rest of supcol > 0 (no memory)
  if (s.supsat > 0 && s.ifsat != 1) {
    const float supice = s.satdt - s.prevp - s.pidep - s.psdep;
    const float xni0 = float(1.e3 * std::exp(0.1 * s.supcol));
    const float roqi0 = float(4.92e-11 * std::exp(std::log(xni0) * (1.33)));
    s.pigen = float(std::max<double>(0., (roqi0 / s.den - std::max<double>(s.qi, 0.)) * s.rdtcld));
    s.pigen = std::min(std::min(s.pigen, s.satdt), supice);
  }
  if (s.qi > 0.) {
    const float qimax = float(C().roqimax / s.den);
    s.psaut = float(std::max<double>(0., (s.qi - qimax) * s.rdtcld));
  }
}
void lv_psevp(Th& s) {
  s.psevp = s.psdep * s.w2 / s.w1;
}
void lv_psevp_clip(Th& s) {
  s.psevp = float(std::min<double>(std::max(s.psevp, -s.qs * s.rdtcld), 0.));
}
// Mass conservation, the update, the saturation after it and pcond (no memory: p is in a register).
void lv_finish(Th& s) {
  const float dtcld = s.dtcld;
  float value, source, factor;
  if (s.t <= t0c) {
    value = float(std::max<double>(qmin, s.qc));
    source = (s.praut + s.pracw + s.psacw) * dtcld;
    if (source > value) {
      factor = value / source;
      s.praut *= factor, s.pracw *= factor, s.psacw *= factor;
    }
    value = float(std::max<double>(qmin, s.qi));
    source = (s.psaut + s.psaci - s.pigen - s.pidep) * dtcld;
    if (source > value) {
      factor = value / source;
      s.psaut *= factor, s.psaci *= factor, s.pigen *= factor, s.pidep *= factor;
    }
    value = float(std::max<double>(qmin, s.qr));
    source = (-s.praut + s.pracw - s.prevp) * dtcld;
    if (source > value) {
      factor = value / source;
      s.praut *= factor, s.pracw *= factor, s.prevp *= factor;
    }
    value = float(std::max<double>(qmin, s.qs));
    source = (-s.psdep + s.psaut - s.psaci - s.psacw) * dtcld;
    if (source > value) {
      factor = value / source;
      s.psdep *= factor, s.psaut *= factor, s.psaci *= factor, s.psacw *= factor;
    }
    s.w3 = -(s.prevp + s.psdep + s.pigen + s.pidep);
    s.q = s.q + s.w3 * dtcld;
    s.qc = float(std::max<double>(s.qc - (s.praut + s.pracw + s.psacw) * dtcld, 0.));
    s.qr = float(std::max<double>(s.qr + (s.praut + s.pracw + s.prevp) * dtcld, 0.));
    s.qi = float(std::max<double>(s.qi - (s.psaut + s.psaci - s.pigen - s.pidep) * dtcld, 0.));
    s.qs = float(std::max<double>(s.qs + (s.psdep + s.psaut + s.psaci + s.psacw) * dtcld, 0.));
    s.xlf = float(xls - s.xl);
    const float xlwork2 = float(-xls * (s.psdep + s.pidep + s.pigen) - s.xl * s.prevp - s.xlf * s.psacw);
    s.t = s.t - xlwork2 / s.cpm * dtcld;
  } else {
    value = float(std::max<double>(qmin, s.qc));
    source = (s.praut + s.pracw + s.psacw) * dtcld;
    if (source > value) {
      factor = value / source;
      s.praut *= factor, s.pracw *= factor, s.psacw *= factor;
    }
    value = float(std::max<double>(qmin, s.qr));
    source = (-s.praut - s.pracw - s.prevp - s.psacw) * dtcld;
    if (source > value) {
      factor = value / source;
      s.praut *= factor, s.pracw *= factor, s.prevp *= factor, s.psacw *= factor;
    }
    value = float(std::max<double>(qcrmin, s.qs));
    source = (-s.psevp) * dtcld;
    if (source > value) {
      factor = value / source;
      s.psevp *= factor;
    }
    s.w3 = -(s.prevp + s.psevp);
    s.q = s.q + s.w3 * dtcld;
    s.qc = float(std::max<double>(s.qc - (s.praut + s.pracw + s.psacw) * dtcld, 0.));
    s.qr = float(std::max<double>(s.qr + (s.praut + s.pracw + s.prevp + s.psacw) * dtcld, 0.));
    s.qs = float(std::max<double>(s.qs + s.psevp * dtcld, 0.));
    s.xlf = float(xls - s.xl);
    const float xlwork2 = -s.xl * (s.prevp + s.psevp);
    s.t = s.t - xlwork2 / s.cpm * dtcld;
  }
  // fpvs, inline (ttp, xa, xb: the time step's values again)
  const float tr = s.ttp / s.t;
  s.qs1 = float(psat * std::exp(std::log(tr) * (s.xa)) * std::exp(s.xb * (1. - tr)));
  s.qs1 = float(ep2 * s.qs1 / (s.p - s.qs1));
  s.qs1 = float(std::max<double>(s.qs1, qmin));
  const float w1 = float(((std::max<double>(s.q, qmin) - (s.qs1)) /
                          (1. + (s.xl) * (s.xl) / (rv * (s.cpm)) * (s.qs1) / ((s.t) * (s.t)))));
  s.w1 = w1;
  s.pcond = float(std::min<double>(std::max<double>(w1 / dtcld, 0.), std::max<double>(s.q, 0.) / dtcld));
  if (s.qc > 0. && w1 < 0.) s.pcond = std::max(w1, -s.qc) / dtcld;
  s.q = s.q - s.pcond * dtcld;
  s.qc = float(std::max<double>(s.qc + s.pcond * dtcld, 0.));
  s.t = s.t + s.pcond * s.xl / s.cpm * dtcld;
  if (s.qc <= qmin) s.qc = 0.0;
  if (s.qi <= qmin) s.qi = 0.0;
}

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
double uni(uint64_t& s) {
  return double(splitmix(s) >> 11) * 0x1.0p-53;
}

class WeatherPrediction : public KernelPort {
 public:
  WeatherPrediction(uint32_t nx, uint32_t ny, uint32_t nz, float delt, uint64_t seed)
      : nx_(nx), ny_(ny), nz_(nz), delt_(delt), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    const size_t d3 = size_t(nx_) * ny_ * nz_, d2 = size_t(nx_) * ny_;
    // wsm5_host's TODEV order (cudaMalloc + copy each), then retvals (kme-kms+1 floats).
    th_ = mem.alloc<float>("th", d3);
    pii_ = mem.alloc<float>("pii", d3);
    q_ = mem.alloc<float>("q", d3);
    qc_ = mem.alloc<float>("qc", d3);
    qi_ = mem.alloc<float>("qi", d3);
    qr_ = mem.alloc<float>("qr", d3);
    qs_ = mem.alloc<float>("qs", d3);
    den_ = mem.alloc<float>("den", d3);
    p_ = mem.alloc<float>("p", d3);
    delz_ = mem.alloc<float>("delz", d3);
    rain_ = mem.alloc<float>("rain", d2);
    rainncv_ = mem.alloc<float>("rainncv", d2);
    sr_ = mem.alloc<float>("sr", d2);
    snow_ = mem.alloc<float>("snow", d2);
    snowncv_ = mem.alloc<float>("snowncv", d2);
    retvals_ = mem.alloc<float>("retvals", nz_);
    // The threads' local frames (16 arrays of MKX floats), interleaved by word across the grid's threads.
    local_ = mem.alloc<float>("local", size_t(kLocalArrays) * kMkx * threads());
    generate();
    in_ = {th_.host(),   pii_.host(),     q_.host(),   qc_.host(),   qi_.host(),
           qr_.host(),   qs_.host(),      den_.host(), p_.host(),    delz_.host(),
           rain_.host(), rainncv_.host(), sr_.host(),  snow_.host(), snowncv_.host()};
  }

  void run(Launcher& host) override {
    KernelLaunch k;
    k.name = "wsm5_gpu";
    k.grid = grid();
    k.block = {kBx, kBy, 1};
    k.regs_per_thread = kRegs;
    k.body = [this](Warp& w) { body(w); };
    host.launch(std::move(k));
  }

  std::string check() const override;

 private:
  // dimGrid: (ipe-ips+1)/XXX + remainder, (jpe-jps+1)/YYY + remainder.
  Dim3 grid() const { return {(nx_ + kBx - 1) / kBx, (ny_ + kBy - 1) / kBy, 1}; }
  int64_t threads() const { return int64_t(grid().count()) * kBx * kBy; }
  size_t at(int64_t i, int64_t k, int64_t j) const { return size_t(i + k * nx_ + j * int64_t(nx_) * nz_); }

  // A standard-atmosphere column per (i, j) with seeded perturbations and a cloud layer in the wetter
  // columns (see PortInfo::input).
  void generate() {
    uint64_t s = seed_;
    constexpr double kPi = 3.14159265358979323846, g = 9.81, rd = 287.04, cpa = 1004.5, lapse = 0.0065;
    for (uint32_t j = 0; j < ny_; ++j)
      for (uint32_t i = 0; i < nx_; ++i) {
        const double tsfc =
            280. + 10. * std::sin(2 * kPi * i / nx_) * std::cos(2 * kPi * j / ny_) + 8. * (uni(s) - .5);
        const double psfc = 96000. + 5000. * uni(s);
        const double wet = 0.3 * (1. + std::sin(2 * kPi * (i + j) / (0.7 * nx_))) + 0.4 * uni(s);
        const double zb = 800. + 1500. * uni(s), zt = zb + 2000. + 6000. * wet;
        const bool raining = wet > 0.45 && uni(s)<0.75, snowing = wet> 0.4 && uni(s) < 0.8;
        double z = 0.;
        for (uint32_t k = 0; k < nz_; ++k) {
          const double dz = 80. * std::pow(1.14, k) * (1. + 0.02 * (uni(s) - .5));
          const double zm = z + dz / 2.;
          z += dz;
          const double ttrop = tsfc - lapse * 11000.;
          double tk = tsfc - lapse * std::min(zm, 11000.), pk = psfc * std::pow(tk / tsfc, g / (rd * lapse));
          if (zm > 11000.) pk *= std::exp(-g * (zm - 11000.) / (rd * ttrop));
          tk += 0.3 * (uni(s) - .5);
          const double es = 610.78 * std::exp(17.27 * (tk - 273.15) / (tk - 35.86));
          const double qsat = 0.622 * es / (pk - es);
          const bool cloud = wet > 0.35 && zm > zb && zm < zt;
          const double rh =
              cloud ? 0.97 + 0.07 * uni(s) : (0.3 + 0.55 * wet) * (zm < zb ? 1. : 0.6) + 0.1 * uni(s);
          const double pii = std::pow(pk / 1e5, rd / cpa);
          const size_t x = at(i, k, j);
          p_[x] = float(pk);
          den_[x] = float(pk / (rd * tk));
          pii_[x] = float(pii);
          th_[x] = float(tk / pii);
          delz_[x] = float(dz);
          q_[x] = float(rh * qsat);
          qc_[x] = cloud && tk > 233. ? float(1e-5 + 1.2e-3 * wet * uni(s)) : 0.f;
          qi_[x] = cloud && tk < 268.          ? float(2e-5 * uni(s) + 1e-4 * wet * uni(s))
                   : tk < 225. && uni(s) < 0.3 ? float(5e-6 * uni(s))
                                               : 0.f;
          qr_[x] = raining && zm < zt && tk > 265. ? float(8e-4 * wet * uni(s)) : 0.f;
          qs_[x] = snowing && zm < zt + 1000. && tk < 276. ? float(4e-4 * wet * uni(s)) : 0.f;
          if (uni(s) < 0.02) {  // advection's small negative mixing ratios, which the kernel clips
            float* neg[4] = {&qc_[x], &qi_[x], &qr_[x], &qs_[x]};
            *neg[splitmix(s) % 4] = float(-1e-8 * uni(s));
          }
        }
        rain_[i + size_t(j) * nx_] = float(20. * wet * uni(s));
        snow_[i + size_t(j) * nx_] = float(5. * wet * uni(s));
      }
  }

  void body(Warp& w);

  uint32_t nx_, ny_, nz_;
  float delt_;
  uint64_t seed_;
  DeviceArray<float> th_, pii_, q_, qc_, qi_, qr_, qs_, den_, p_, delz_, rain_, rainncv_, sr_, snow_,
      snowncv_, retvals_, local_;
  std::vector<std::vector<float>> in_;  // the inputs, for the reference
};

void WeatherPrediction::body(Warp& w) {
  const int64_t nx = nx_, nz = nz_, nthreads = threads();
  const Int ig = w.global_x(), jg = w.global_y();  // TtoP: ti + bi*bx + ips - ims, ips = ims = 1
  const int64_t cta = int64_t(w.block_idx().y) * w.grid_dim().x + w.block_idx().x;
  const Int gt = w.thread_in_block() + cta * int64_t(kBx * kBy);
  auto P3 = [&](int64_t k) { return ig + k * nx + jg * (nx * nz); };  // I3(ig, k, ix, jg, kx)
  const Int p2 = ig + jg * nx;                                        // I2(ig, jg, ix)
  auto LOC = [&](Local a, int64_t k) { return gt + (int64_t(a) * kMkx + k) * nthreads; };

  std::array<Th, kWarpSize> S;
  const float dtcld = dtcld_of(delt_);
  for (Th& s : S) s.dtcld = dtcld;
  RegSet live;  // the loads of the current level or sub-step: what a store or branch waits for
  auto ld = [&](uint32_t pc, DeviceArray<float>& a, const Int& idx, uint32_t gap, float Th::*to) {
    w.compute(gap);
    const Float v = w.load(pc, a, idx);
    live |= v.deps;
    for (uint32_t b = w.active(); b; b &= b - 1)
      S[unsigned(__builtin_ctz(b))].*to = v.v[unsigned(__builtin_ctz(b))];
  };
  auto st = [&](uint32_t pc, DeviceArray<float>& a, const Int& idx, uint32_t gap, auto get) {
    w.compute(gap);
    Float v{Float::Uninit{}};
    for (unsigned l = 0; l < kWarpSize; ++l) v.v[l] = get(S[l]);
    v.deps = live;
    w.store(pc, a, idx, v);
  };
  auto each = [&](auto f) {
    for (uint32_t b = w.active(); b; b &= b - 1) f(S[unsigned(__builtin_ctz(b))]);
  };
  auto cond = [&](auto f) {
    Bool c{Bool::Uninit{}};
    for (unsigned l = 0; l < kWarpSize; ++l) c.v[l] = f(S[l]);
    c.deps = live;
    return c;
  };
  auto mstep_lanes = [&] {
    Int m;
    for (unsigned l = 0; l < kWarpSize; ++l) m.v[l] = S[l].mstep;
    return m;
  };
  auto zero = [](const Th&) { return 0.f; };

  w.return_if(!((ig < nx) && (jg < int64_t(ny_))));

  // t = th * pii
  for (int64_t k = 0; k < nz; ++k) {
    ld(0x10, th_, P3(k), k == 0 ? kGapEntry : kGapT, &Th::la);
    ld(0x20, pii_, P3(k), kGapT, &Th::lb);
    st(0x30, local_, LOC(T, k), kGapT, [](const Th& s) { return s.la * s.lb; });
  }
  // negative mixing ratios to 0
  for (int64_t k = 0; k < nz; ++k) {
    DeviceArray<float>* arr[4] = {&qc_, &qi_, &qr_, &qs_};
    for (uint32_t a = 0; a < 4; ++a) {
      ld(0x40 + 0x20 * a, *arr[a], P3(k), kGapClamp, &Th::la);
      w.if_(cond([](const Th& s) { return s.la < 0.; }),
            [&] { st(0x50 + 0x20 * a, *arr[a], P3(k), kGapClamp, zero); });
    }
  }
  // cpm, xl
  for (int64_t k = 0; k < nz; ++k) {
    ld(0xc0, q_, P3(k), kGapCpm, &Th::la);
    st(0xd0, local_, LOC(CPM, k), kGapCpm, [](const Th& s) { return float(cpmcal(s.la)); });
    ld(0xe0, local_, LOC(T, k), kGapCpm, &Th::lb);
    st(0xf0, local_, LOC(XL, k), kGapCpm, [](const Th& s) { return float(xlcal(s.lb)); });
  }

  const int loops = loops_of(delt_);
  for (int loop = 1; loop <= loops; ++loop) {
    each(step_begin);
    // saturation
    for (int64_t k = 0; k < nz; ++k) {
      live = {};
      ld(0x100, p_, P3(k), k == 0 ? kGapStep : kGapSat, &Th::la);
      ld(0x110, local_, LOC(T, k), kGapSat, &Th::lb);
      st(0x120, local_, LOC(QS1, k), kGapSat, [](const Th& s) {
        float qs1, rh1, qs2, rh2;
        saturation(s, s.la, s.lb, 0.f, qs1, rh1, qs2, rh2);
        return qs1;
      });
      ld(0x130, q_, P3(k), kGapSat, &Th::lc);
      each([](Th& s) { saturation(s, s.la, s.lb, s.lc, s.qs1, s.ld, s.qs2, s.le); });
      st(0x140, local_, LOC(RH1, k), kGapSat, [](const Th& s) { return s.ld; });
      st(0x150, local_, LOC(QS2, k), kGapSat, [](const Th& s) { return s.qs2; });
      st(0x160, local_, LOC(RH2, k), kGapSat, [](const Th& s) { return s.le; });
    }
    for (int64_t k = 0; k < nz; ++k)
      st(0x170, local_, LOC(XNI, k), kGapXni, [](const Th&) { return float(1.e3); });
    // slope parameters, fall speeds, the sub-step count
    for (int64_t k = 0; k < nz; ++k) {
      live = {};
      ld(0x180, local_, LOC(T, k), kGapSlope, &Th::la);
      each([](Th& s) { s.n0sfac = n0sfac_of(float(t0c - s.la)); });
      st(0x190, local_, LOC(N0SFAC, k), kGapSlope, [](const Th& s) { return s.n0sfac; });
      ld(0x1a0, qr_, P3(k), kGapSlope, &Th::lb);
      w.if_else(
          cond([](const Th& s) { return s.lb <= qcrmin; }),
          [&] {
            each(rain_slope_max);
            st(0x1b0, local_, LOC(RSLOPER, k), kGapSlope, [](const Th& s) { return s.rsloper; });
          },
          [&] {
            ld(0x1c0, den_, P3(k), kGapSlope, &Th::lc);
            each([](Th& s) { rain_slope(s, s.lb, s.lc); });
            st(0x1d0, local_, LOC(RSLOPER, k), kGapSlope, [](const Th& s) { return s.rsloper; });
          });
      ld(0x1e0, qs_, P3(k), kGapSlope, &Th::ld);
      auto snow_stores = [&](uint32_t pc) {
        st(pc, local_, LOC(RSLOPES, k), kGapSlope, [](const Th& s) { return s.rslopes; });
        st(pc + 0x10, local_, LOC(RSLOPEBS, k), kGapSlope, [](const Th& s) { return s.rslopebs; });
        st(pc + 0x20, local_, LOC(RSLOPE2S, k), kGapSlope, [](const Th& s) { return s.rslope2s; });
      };
      w.if_else(
          cond([](const Th& s) { return s.ld <= qcrmin; }),
          [&] {
            each(snow_slope_max);
            snow_stores(0x1f0);
          },
          [&] {
            ld(0x220, den_, P3(k), kGapSlope, &Th::lc);
            each([](Th& s) { snow_slope(s, s.ld, s.lc, s.n0sfac); });
            snow_stores(0x230);
          });
      ld(0x260, den_, P3(k), kGapSlope, &Th::lc);
      each([](Th& s) { s.denfac = denfac_of(s.lc); });
      st(0x270, local_, LOC(DENFAC, k), kGapSlope, [](const Th& s) { return s.denfac; });
      ld(0x280, delz_, P3(k), kGapSlope, &Th::le);
      each([](Th& s) {
        s.w1 = w1_of(s, s.denfac, s.le);
        s.w2 = w2_of(s, s.denfac, s.le);
      });
      st(0x290, local_, LOC(W1, k), kGapSlope, [](const Th& s) { return s.w1; });
      st(0x2a0, local_, LOC(W2, k), kGapSlope, [](const Th& s) { return s.w2; });
      each([](Th& s) { fall_steps(s, s.w1, s.w2); });
      ld(0x2b0, qi_, P3(k), kGapSlope, &Th::lf);
      st(0x2c0, local_, LOC(XNI, k), kGapSlope, [](const Th& s) { return xni_of(s.lc, s.lf); });
    }
    each([](Th& s) { s.rmstep = rmstep_of(s.mstep); });
    // rain and snow sedimentation, sub-stepped per column, and melting (w1, w2 of the top level and
    // rslopebs[2] hoisted out of the loop)
    ld(0x2d0, local_, LOC(W1, nz - 1), kGapSed, &Th::hw1);
    ld(0x2e0, local_, LOC(W2, nz - 1), kGapSed, &Th::hw2);
    ld(0x2f0, local_, LOC(RSLOPEBS, 2), kGapSed, &Th::hbs2);
    w.for_(Int(1), mstep_lanes() + 1, Int(1), [&](const Int&) {
      int64_t k = nz - 1;
      live = {};
      ld(0x300, den_, P3(k), kGapSed, &Th::la);
      ld(0x310, qr_, P3(k), kGapSed, &Th::lb);
      ld(0x320, qs_, P3(k), kGapSed, &Th::lc);
      each([](Th& s) { sed_top(s, s.la, s.lb, s.hw1, s.lc, s.hw2); });
      st(0x330, qr_, P3(k), kGapSed, [](const Th& s) { return sed_top_qr(s, s.lb); });
      ld(0x340, qs_, P3(k), kGapSed, &Th::lc);
      st(0x350, qs_, P3(k), kGapSed, [](const Th& s) { return sed_top_qs(s, s.lc); });
      ld(0x360, delz_, P3(k), kGapSed, &Th::delz_kp1);
      for (k = nz - 2; k >= 0; --k) {
        live = {};
        ld(0x370, den_, P3(k), kGapSed, &Th::la);
        ld(0x380, qr_, P3(k), kGapSed, &Th::lb);
        ld(0x390, local_, LOC(W1, k), kGapSed, &Th::ld);
        ld(0x3a0, qs_, P3(k), kGapSed, &Th::lc);
        ld(0x3b0, local_, LOC(W2, k), kGapSed, &Th::le);
        ld(0x3c0, delz_, P3(k), kGapSed, &Th::lf);
        each([](Th& s) { sed_level(s, s.la, s.lb, s.ld, s.lc, s.le, s.lf); });
        st(0x3d0, qr_, P3(k), kGapSed, [](const Th& s) { return sed_level_qr(s, s.lb); });
        ld(0x3e0, qs_, P3(k), kGapSed, &Th::lc);
        st(0x3f0, qs_, P3(k), kGapSed, [](const Th& s) { return sed_level_qs(s, s.lc); });
        each(sed_shift);
      }
      for (k = nz - 1; k >= 0; --k) {
        live = {};
        ld(0x400, local_, LOC(T, k), kGapMelt, &Th::la);
        w.if_(cond([](const Th& s) { return s.la > t0c; }), [&] {
          ld(0x410, qs_, P3(k), kGapMelt, &Th::lb);
          w.if_(cond([](const Th& s) { return s.lb > 0.; }), [&] {
            ld(0x420, p_, P3(k), kGapMelt, &Th::lc);
            ld(0x430, den_, P3(k), kGapMelt, &Th::ld);
            ld(0x440, local_, LOC(RSLOPE2S, k), kGapMelt, &Th::le);
            ld(0x450, local_, LOC(RSLOPES, k), kGapMelt, &Th::lf);
            ld(0x460, local_, LOC(N0SFAC, k), kGapMelt, &Th::lg);
            each([](Th& s) { melt(s, s.lc, s.la, s.ld, s.le, s.lf, s.hbs2, s.lg, s.lb); });
            st(0x470, qs_, P3(k), kGapMelt, [](const Th& s) { return s.lb + s.psmlt; });
            ld(0x480, qr_, P3(k), kGapMelt, &Th::lc);
            st(0x490, qr_, P3(k), kGapMelt, [](const Th& s) { return s.lc - s.psmlt; });
            ld(0x4a0, q_, P3(k), kGapMelt, &Th::ld);
            st(0x4b0, local_, LOC(T, k), kGapMelt, [](const Th& s) { return melt_t(s, s.la, s.ld); });
          });
        });
      }
    });
    // cloud ice fall
    each([](Th& s) { s.mstep = 1, s.numdt = 1; });
    for (int64_t k = nz - 1; k >= 0; --k) {
      live = {};
      ld(0x4c0, qi_, P3(k), kGapIce, &Th::la);
      w.if_else(
          cond([](const Th& s) { return s.la <= 0.; }),
          [&] {
            each([](Th& s) { s.w2 = 0.f; });
            st(0x4d0, local_, LOC(W2, k), kGapIce, zero);
          },
          [&] {
            ld(0x4e0, den_, P3(k), kGapIce, &Th::lb);
            ld(0x4f0, local_, LOC(XNI, k), kGapIce, &Th::lc);
            each([](Th& s) { s.w1 = ice_w1(s.lb, s.la, s.lc); });
            st(0x500, local_, LOC(W1, k), kGapIce, [](const Th& s) { return s.w1; });
            ld(0x510, delz_, P3(k), kGapIce, &Th::ld);
            each([](Th& s) { s.w2 = s.w1 / s.ld; });
            st(0x520, local_, LOC(W2, k), kGapIce, [](const Th& s) { return s.w2; });
          });
      each([](Th& s) { ice_steps(s, s.w2); });
    }
    each([](Th& s) { s.rmstep = rmstep_of(s.mstep); });
    ld(0x530, local_, LOC(W2, nz - 1), kGapIceSed, &Th::hw2);
    w.for_(Int(1), mstep_lanes() + 1, Int(1), [&](const Int&) {
      int64_t k = nz - 1;
      live = {};
      ld(0x540, den_, P3(k), kGapIceSed, &Th::la);
      ld(0x550, qi_, P3(k), kGapIceSed, &Th::lb);
      each([](Th& s) { ice_top(s, s.la, s.lb, s.hw2); });
      st(0x560, qi_, P3(k), kGapIceSed, [](const Th& s) { return ice_top_qi(s, s.lb); });
      ld(0x570, delz_, P3(k), kGapIceSed, &Th::delz_kp1);
      for (k = nz - 2; k >= 0; --k) {
        live = {};
        ld(0x580, den_, P3(k), kGapIceSed, &Th::la);
        ld(0x590, qi_, P3(k), kGapIceSed, &Th::lb);
        ld(0x5a0, local_, LOC(W2, k), kGapIceSed, &Th::lc);
        ld(0x5b0, delz_, P3(k), kGapIceSed, &Th::ld);
        each([](Th& s) { ice_level(s, s.la, s.lb, s.lc, s.ld); });
        st(0x5c0, qi_, P3(k), kGapIceSed, [](const Th& s) { return ice_level_qi(s, s.lb); });
        each(ice_shift);
      }
    });
    // surface precipitation (delz[1] and delz[0] as the source indexes them)
    live = {};
    each([](Th& s) {
      s.fallsum = s.fall1_k + s.fall2_k + s.fallc_k;
      s.fallsum_qsi = s.fall2_k + s.fallc_k;
    });
    st(0x5d0, rainncv_, p2, kGapPrecip, zero);
    w.if_(cond([](const Th& s) { return s.fallsum > 0.; }), [&] {
      ld(0x5e0, delz_, P3(1), kGapPrecip, &Th::la);
      st(0x5f0, rainncv_, p2, kGapPrecip, [](const Th& s) { return precip(s, s.fallsum, s.la); });
      ld(0x600, delz_, P3(1), kGapPrecip, &Th::la);
      ld(0x610, rain_, p2, kGapPrecip, &Th::lb);
      st(0x620, rain_, p2, kGapPrecip, [](const Th& s) { return precip_acc(s, s.fallsum, s.la, s.lb); });
    });
    st(0x630, snowncv_, p2, kGapPrecip, zero);
    w.if_(cond([](const Th& s) { return s.fallsum_qsi > 0.; }), [&] {
      ld(0x640, delz_, P3(0), kGapPrecip, &Th::la);
      st(0x650, snowncv_, p2, kGapPrecip, [](const Th& s) { return precip(s, s.fallsum_qsi, s.la); });
      ld(0x660, delz_, P3(0), kGapPrecip, &Th::la);
      ld(0x670, snow_, p2, kGapPrecip, &Th::lb);
      st(0x680, snow_, p2, kGapPrecip, [](const Th& s) { return precip_acc(s, s.fallsum_qsi, s.la, s.lb); });
    });
    st(0x690, sr_, p2, kGapPrecip, zero);
    w.if_(cond([](const Th& s) { return s.fallsum > 0.; }), [&] {
      ld(0x6a0, delz_, P3(0), kGapPrecip, &Th::la);
      ld(0x6b0, rainncv_, p2, kGapPrecip, &Th::lb);
      st(0x6c0, sr_, p2, kGapPrecip, [](const Th& s) { return ratio_sr(s, s.la, s.lb); });
    });
    // the processes, level by level
    for (int64_t k = 0; k < nz; ++k) {
      live = {};
      each(lv_begin);
      ld(0x700, q_, P3(k), kGapLevel, &Th::q);
      ld(0x710, local_, LOC(T, k), kGapLevel, &Th::t);
      ld(0x720, qr_, P3(k), kGapLevel, &Th::qr);
      ld(0x730, qc_, P3(k), kGapLevel, &Th::qc);
      ld(0x740, qs_, P3(k), kGapLevel, &Th::qs);
      ld(0x750, qi_, P3(k), kGapLevel, &Th::qi);
      ld(0x760, local_, LOC(QS1, k), kGapLevel, &Th::qs1);
      ld(0x770, local_, LOC(QS2, k), kGapLevel, &Th::qs2);
      ld(0x780, local_, LOC(CPM, k), kGapLevel, &Th::cpm);
      ld(0x790, local_, LOC(XL, k), kGapLevel, &Th::xl);
      each(lv_freeze);
      w.if_(cond(lv_pihtf_cond), [&] {
        ld(0x7a0, den_, P3(k), kGapLevel, &Th::la);
        each([](Th& s) { lv_pihtf(s, s.la); });
      });
      w.if_(cond(lv_psfrz_cond), [&] {
        ld(0x7b0, local_, LOC(RSLOPER, k), kGapLevel, &Th::la);
        ld(0x7c0, den_, P3(k), kGapLevel, &Th::lb);
        each([](Th& s) { lv_psfrz(s, s.la, s.lb); });
      });
      each([](Th& s) { s.n0sfac = n0sfac_of(s.supcol); });
      st(0x7d0, local_, LOC(N0SFAC, k), kGapLevel, [](const Th& s) { return s.n0sfac; });
      w.if_else(
          cond([](const Th& s) { return s.qr <= qcrmin; }),
          [&] {
            each(rain_slope_max);
            st(0x7e0, local_, LOC(RSLOPER, k), kGapLevel, [](const Th& s) { return s.rsloper; });
          },
          [&] {
            ld(0x7f0, den_, P3(k), kGapLevel, &Th::la);
            each([](Th& s) { rain_slope(s, s.qr, s.la); });
            st(0x800, local_, LOC(RSLOPER, k), kGapLevel, [](const Th& s) { return s.rsloper; });
          });
      auto snow_stores = [&](uint32_t pc) {
        st(pc, local_, LOC(RSLOPES, k), kGapLevel, [](const Th& s) { return s.rslopes; });
        st(pc + 0x10, local_, LOC(RSLOPEBS, k), kGapLevel, [](const Th& s) { return s.rslopebs; });
        st(pc + 0x20, local_, LOC(RSLOPE2S, k), kGapLevel, [](const Th& s) { return s.rslope2s; });
      };
      w.if_else(
          cond([](const Th& s) { return s.qs <= qcrmin; }),
          [&] {
            each(snow_slope_max);
            snow_stores(0x810);
          },
          [&] {
            ld(0x840, den_, P3(k), kGapLevel, &Th::la);
            each([](Th& s) { snow_slope(s, s.qs, s.la, s.n0sfac); });
            snow_stores(0x850);
          });
      ld(0x880, den_, P3(k), kGapLevel, &Th::den);
      ld(0x890, p_, P3(k), kGapLevel, &Th::p);
      each(lv_thermo);
      w.if_(cond(lv_pracw_cond), [&] {
        ld(0x8a0, local_, LOC(DENFAC, k), kGapLevel, &Th::la);
        each([](Th& s) { lv_pracw(s, s.la); });
      });
      w.if_(cond([](const Th& s) { return s.qr > 0.; }), [&] {
        ld(0x8b0, local_, LOC(RH1, k), kGapLevel, &Th::la);
        each([](Th& s) { lv_prevp(s, s.la); });
      });
      each(lv_cold);
      st(0x8c0, local_, LOC(XNI, k), kGapLevel, [](const Th& s) { return s.xni; });
      w.if_(cond(lv_psacw_cond), [&] {
        ld(0x8d0, local_, LOC(DENFAC, k), kGapLevel, &Th::la);
        each([](Th& s) { lv_psacw(s, s.la); });
      });
      w.if_(cond([](const Th& s) { return s.supcol > 0; }), [&] {
        w.if_(cond(lv_psaci_cond), [&] {
          ld(0x8e0, local_, LOC(DENFAC, k), kGapLevel, &Th::la);
          each([](Th& s) { lv_psaci(s, s.la); });
        });
        w.if_(cond(lv_pidep_cond), [&] {
          ld(0x8f0, local_, LOC(RH2, k), kGapLevel, &Th::la);
          each([](Th& s) { lv_pidep(s, s.la); });
        });
        w.if_(cond(lv_psdep_cond), [&] {
          ld(0x900, local_, LOC(RH2, k), kGapLevel, &Th::la);
          each([](Th& s) { lv_psdep(s, s.la); });
        });
        each(lv_pigen_psaut);
      });
      w.if_(cond([](const Th& s) { return s.supcol < 0.; }), [&] {
        w.if_(cond([](const Th& s) { return s.qs > 0.; }), [&] {
          ld(0x910, local_, LOC(RH1, k), kGapLevel, &Th::la);
          w.if_(cond([](const Th& s) { return s.la < 1.; }), [&] { each(lv_psevp); });
        });
        each(lv_psevp_clip);
      });
      each(lv_finish);
      st(0x920, q_, P3(k), kGapLevel, [](const Th& s) { return s.q; });
      st(0x930, local_, LOC(T, k), kGapLevel, [](const Th& s) { return s.t; });
      st(0x940, qr_, P3(k), kGapLevel, [](const Th& s) { return s.qr; });
      st(0x950, qc_, P3(k), kGapLevel, [](const Th& s) { return s.qc; });
      st(0x960, qs_, P3(k), kGapLevel, [](const Th& s) { return s.qs; });
      st(0x970, qi_, P3(k), kGapLevel, [](const Th& s) { return s.qi; });
      st(0x980, local_, LOC(QS1, k), kGapLevel, [](const Th& s) { return s.qs1; });
    }
  }
  // th = t / pii
  for (int64_t k = 0; k < nz; ++k) {
    live = {};
    ld(0x990, local_, LOC(T, k), kGapTh, &Th::la);
    ld(0x9a0, pii_, P3(k), kGapTh, &Th::lb);
    st(0x9b0, th_, P3(k), kGapTh, [](const Th& s) { return s.la / s.lb; });
  }
}

// The same column physics, thread by thread in plain loops over the inputs.
std::string WeatherPrediction::check() const {
  std::vector<float> th = in_[0], pii = in_[1], q = in_[2], qc = in_[3], qi = in_[4], qr = in_[5],
                     qs = in_[6];
  const std::vector<float>&den = in_[7], &p = in_[8], &delz = in_[9];
  std::vector<float> rain = in_[10], rainncv = in_[11], sr = in_[12], snow = in_[13], snowncv = in_[14];
  const int64_t nz = nz_;
  const float dtcld = dtcld_of(delt_);
  const int loops = loops_of(delt_);
  for (int64_t j = 0; j < ny_; ++j)
    for (int64_t i = 0; i < nx_; ++i) {
      auto X = [&](int64_t k) { return at(i, k, j); };
      const size_t c = size_t(i + j * int64_t(nx_));
      float t[kMkx] = {}, qs1[kMkx] = {}, qs2[kMkx] = {}, rh1[kMkx] = {}, rh2[kMkx] = {}, cpm[kMkx] = {},
            xl[kMkx] = {}, xni[kMkx] = {}, rsloper[kMkx] = {}, rslopes[kMkx] = {}, rslopebs[kMkx] = {},
            rslope2s[kMkx] = {}, denfac[kMkx] = {}, n0sfac[kMkx] = {}, w1[kMkx] = {}, w2[kMkx] = {};
      Th s;
      s.dtcld = dtcld;
      for (int64_t k = 0; k < nz; ++k) t[k] = th[X(k)] * pii[X(k)];
      for (int64_t k = 0; k < nz; ++k)
        for (std::vector<float>* a : {&qc, &qi, &qr, &qs})
          if ((*a)[X(k)] < 0.) (*a)[X(k)] = 0.;
      for (int64_t k = 0; k < nz; ++k) {
        cpm[k] = float(cpmcal(q[X(k)]));
        xl[k] = float(xlcal(t[k]));
      }
      for (int loop = 1; loop <= loops; ++loop) {
        step_begin(s);
        for (int64_t k = 0; k < nz; ++k)
          saturation(s, p[X(k)], t[k], q[X(k)], qs1[k], rh1[k], qs2[k], rh2[k]);
        for (int64_t k = 0; k < nz; ++k) xni[k] = float(1.e3);
        for (int64_t k = 0; k < nz; ++k) {
          n0sfac[k] = n0sfac_of(float(t0c - t[k]));
          if (qr[X(k)] <= qcrmin)
            rain_slope_max(s);
          else
            rain_slope(s, qr[X(k)], den[X(k)]);
          rsloper[k] = s.rsloper;
          if (qs[X(k)] <= qcrmin)
            snow_slope_max(s);
          else
            snow_slope(s, qs[X(k)], den[X(k)], n0sfac[k]);
          rslopes[k] = s.rslopes, rslopebs[k] = s.rslopebs, rslope2s[k] = s.rslope2s;
          denfac[k] = denfac_of(den[X(k)]);
          w1[k] = w1_of(s, denfac[k], delz[X(k)]);
          w2[k] = w2_of(s, denfac[k], delz[X(k)]);
          fall_steps(s, w1[k], w2[k]);
          xni[k] = xni_of(den[X(k)], qi[X(k)]);
        }
        s.rmstep = rmstep_of(s.mstep);
        for (int n = 1; n <= s.mstep; ++n) {
          int64_t k = nz - 1;
          sed_top(s, den[X(k)], qr[X(k)], w1[k], qs[X(k)], w2[k]);
          qr[X(k)] = sed_top_qr(s, qr[X(k)]);
          qs[X(k)] = sed_top_qs(s, qs[X(k)]);
          s.delz_kp1 = delz[X(k)];
          for (k = nz - 2; k >= 0; --k) {
            sed_level(s, den[X(k)], qr[X(k)], w1[k], qs[X(k)], w2[k], delz[X(k)]);
            qr[X(k)] = sed_level_qr(s, qr[X(k)]);
            qs[X(k)] = sed_level_qs(s, qs[X(k)]);
            sed_shift(s);
          }
          for (k = nz - 1; k >= 0; --k)
            if (t[k] > t0c && qs[X(k)] > 0.) {
              melt(s, p[X(k)], t[k], den[X(k)], rslope2s[k], rslopes[k], rslopebs[2], n0sfac[k], qs[X(k)]);
              qs[X(k)] += s.psmlt;
              qr[X(k)] -= s.psmlt;
              t[k] = melt_t(s, t[k], q[X(k)]);
            }
        }
        s.mstep = 1, s.numdt = 1;
        for (int64_t k = nz - 1; k >= 0; --k) {
          if (qi[X(k)] <= 0.) {
            w2[k] = 0.;
          } else {
            w1[k] = ice_w1(den[X(k)], qi[X(k)], xni[k]);
            w2[k] = w1[k] / delz[X(k)];
          }
          ice_steps(s, w2[k]);
        }
        s.rmstep = rmstep_of(s.mstep);
        for (int n = 1; n <= s.mstep; ++n) {
          int64_t k = nz - 1;
          ice_top(s, den[X(k)], qi[X(k)], w2[k]);
          qi[X(k)] = ice_top_qi(s, qi[X(k)]);
          s.delz_kp1 = delz[X(k)];
          for (k = nz - 2; k >= 0; --k) {
            ice_level(s, den[X(k)], qi[X(k)], w2[k], delz[X(k)]);
            qi[X(k)] = ice_level_qi(s, qi[X(k)]);
            ice_shift(s);
          }
        }
        s.fallsum = s.fall1_k + s.fall2_k + s.fallc_k;
        s.fallsum_qsi = s.fall2_k + s.fallc_k;
        rainncv[c] = 0.;
        if (s.fallsum > 0.) {
          rainncv[c] = precip(s, s.fallsum, delz[X(1)]);
          rain[c] = precip_acc(s, s.fallsum, delz[X(1)], rain[c]);
        }
        snowncv[c] = 0.;
        if (s.fallsum_qsi > 0.) {
          snowncv[c] = precip(s, s.fallsum_qsi, delz[X(0)]);
          snow[c] = precip_acc(s, s.fallsum_qsi, delz[X(0)], snow[c]);
        }
        sr[c] = 0.;
        if (s.fallsum > 0.) sr[c] = ratio_sr(s, delz[X(0)], rainncv[c]);
        for (int64_t k = 0; k < nz; ++k) {
          lv_begin(s);
          s.q = q[X(k)], s.t = t[k], s.qr = qr[X(k)], s.qc = qc[X(k)], s.qs = qs[X(k)], s.qi = qi[X(k)];
          s.qs1 = qs1[k], s.qs2 = qs2[k], s.cpm = cpm[k], s.xl = xl[k];
          lv_freeze(s);
          if (lv_pihtf_cond(s)) lv_pihtf(s, den[X(k)]);
          if (lv_psfrz_cond(s)) lv_psfrz(s, rsloper[k], den[X(k)]);
          s.n0sfac = n0sfac[k] = n0sfac_of(s.supcol);
          if (s.qr <= qcrmin)
            rain_slope_max(s);
          else
            rain_slope(s, s.qr, den[X(k)]);
          rsloper[k] = s.rsloper;
          if (s.qs <= qcrmin)
            snow_slope_max(s);
          else
            snow_slope(s, s.qs, den[X(k)], s.n0sfac);
          rslopes[k] = s.rslopes, rslopebs[k] = s.rslopebs, rslope2s[k] = s.rslope2s;
          s.den = den[X(k)], s.p = p[X(k)];
          lv_thermo(s);
          if (lv_pracw_cond(s)) lv_pracw(s, denfac[k]);
          if (s.qr > 0.) lv_prevp(s, rh1[k]);
          lv_cold(s);
          xni[k] = s.xni;
          if (lv_psacw_cond(s)) lv_psacw(s, denfac[k]);
          if (s.supcol > 0) {
            if (lv_psaci_cond(s)) lv_psaci(s, denfac[k]);
            if (lv_pidep_cond(s)) lv_pidep(s, rh2[k]);
            if (lv_psdep_cond(s)) lv_psdep(s, rh2[k]);
            lv_pigen_psaut(s);
          }
          if (s.supcol < 0.) {
            if (s.qs > 0. && rh1[k] < 1.) lv_psevp(s);
            lv_psevp_clip(s);
          }
          lv_finish(s);
          q[X(k)] = s.q, t[k] = s.t, qr[X(k)] = s.qr, qc[X(k)] = s.qc, qs[X(k)] = s.qs, qi[X(k)] = s.qi;
          qs1[k] = s.qs1;
        }
      }
      for (int64_t k = 0; k < nz; ++k) th[X(k)] = t[k] / pii[X(k)];
    }
  const std::pair<const char*, std::pair<const std::vector<float>*, const DeviceArray<float>*>> outs[] = {
      {"th", {&th, &th_}},
      {"q", {&q, &q_}},
      {"qc", {&qc, &qc_}},
      {"qi", {&qi, &qi_}},
      {"qr", {&qr, &qr_}},
      {"qs", {&qs, &qs_}},
      {"rain", {&rain, &rain_}},
      {"sr", {&sr, &sr_}},
      {"rainncv", {&rainncv, &rainncv_}},
      {"snow", {&snow, &snow_}},
      {"snowncv", {&snowncv, &snowncv_}}};
  for (const auto& [name, pr] : outs) {
    const std::vector<float>& ref = *pr.first;
    const DeviceArray<float>& got = *pr.second;
    for (size_t x = 0; x < ref.size(); ++x)
      if (!(got[x] == ref[x]) && !(std::isnan(got[x]) && std::isnan(ref[x])))
        return std::string(name) + "[" + std::to_string(x) + "] = " + std::to_string(got[x]) + ", expected " +
               std::to_string(ref[x]);
  }
  return "";
}

}  // namespace

void register_ispass_wp(PortRegistry& r) {
  PortInfo p;
  p.name = "ispass/wp";
  p.suite = "GPGPU-Sim ISPASS-2009";
  p.source =
      "github.com/accel-sim/gpu-app-collection @52c11fbc, src/cuda/ispass-2009/WP (wsm5_gpu.cu through "
      "spt.pl, "
      "spt.h, wsm5_constants.h; wsm5.cu host; SAMPLE_SESSION's tile)";
  p.input =
      "The ISPASS run's tile (SAMPLE_SESSION, the jan00 30 km CONUS case: its 2..72 x 2..59 x 1..27 of a 74 "
      "x 61 "
      "x 28 domain): nx = 71, ny = 58, nz = 27 levels, 8x8 threads a CTA (XXX = YYY = 8), 9 x 8 CTAs, delt = "
      "180 s (two 90 s cloud steps): 1 launch, 144 warps, 1.09 M warp memory instructions (0.70 M loads, "
      "0.39 M "
      "stores; 21.6 M with compute; fermi: 24 s), 12.8 MB (ten 3-D fields of 0.44 MB, five 2-D of 16 KB, the "
      "threads' "
      "local frames 8.3 MB: 1792 B a thread). Not scaled: the real size is within the budget. The WRF state "
      "(wsm5_in_010, not public) is replaced by a seeded (splitmix64 from `seed`) standard atmosphere per "
      "column: surface T 280 K +-10 K (a smooth pattern) +-4 K noise, 6.5 K/km lapse to an isothermal "
      "tropopause at 11 km, surface p 960..1010 hPa and hydrostatic p, den = p/(Rd T), Exner pii, th = "
      "T/pii; "
      "layers 80 m x 1.14^k (+-1%, top 19 km); a cloud layer (RH 0.97..1.04, cloud water, and ice below "
      "-5 C) between a 0.8..2.3 km base and 2..8 km above it in the wetter columns, RH 0.2..0.95 elsewhere; "
      "rain (T > -8 C) in 3/4 and snow (T < 3 C) in 4/5 of the wet columns; one level in 50 with a small "
      "negative mixing ratio (clipped by the kernel); accumulated rain 0..20 mm, snow 0..5 mm. On it 53% of "
      "the column steps sub-step the rain/snow fall (3 sub-steps on average), 13% of the levels' sub-steps "
      "melt snow, evaporation of rain, deposition, freezing, accretion and condensation are each taken in "
      "2..40% of the levels (ice never needs more than one fall step, psevp is 0 by the source's "
      "construction). Keys: nx, ny, nz (2..28 = MKX), delt (s), seed";
  p.papers = "G-Cache (001, Table 1: WP)";
  p.kernels = "wsm5_gpu";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t nx = s.get_uint("nx", 71, 1, 4096);
    const uint64_t ny = s.get_uint("ny", 58, 1, 4096);
    const uint64_t nz = s.get_uint("nz", 27, 2, kMkx);
    const uint64_t delt = s.get_uint("delt", 180, 1, 3600);
    const uint64_t seed = s.get_uint("seed", 2009);
    return std::make_unique<WeatherPrediction>(uint32_t(nx), uint32_t(ny), uint32_t(nz), float(delt), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
