#include <gtest/gtest.h>

#include <sstream>

#include "models/common/stats.h"

TEST(Stats, TreeJsonCsvAndLookup) {
  gms::StatGroup root("root");
  gms::StatGroup l1(root, "l1_0", "L1 of SM 0");
  auto& hits = l1.counter("hits", "accesses that hit", "accesses");
  auto& misses = l1.counter("misses", "accesses that missed", "accesses");
  l1.formula("hit_rate", "hits / accesses", "ratio",
             [&] { return double(hits.value) / double(hits.value + misses.value); });
  auto& h = l1.histogram("lat", "latency", "cycles", 10, 3);
  hits += 3;
  ++misses;
  h.add(5);
  h.add(100);
  EXPECT_DOUBLE_EQ(root.value("l1_0.hit_rate"), 0.75);
  EXPECT_EQ(h.counts[0], 1u);
  EXPECT_EQ(h.counts[2], 1u);
  std::ostringstream js, cs;
  root.write_json(js);
  root.write_csv(cs);
  EXPECT_NE(js.str().find("\"l1_0\": {"), std::string::npos);
  EXPECT_NE(js.str().find("\"hits\": 3"), std::string::npos);
  EXPECT_NE(cs.str().find("l1_0.hits,3,accesses,accesses that hit"), std::string::npos);
  EXPECT_THROW(root.value("l1_0.nothing"), std::out_of_range);
  gms::StatGroup l1b(root, "l1_1");
  l1b.counter("hits", "", "") += 2;
  EXPECT_DOUBLE_EQ(root.sum_over_children("hits"), 5.0);
}
