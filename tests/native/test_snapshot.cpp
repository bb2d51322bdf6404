// Snapshots: save, load, step on: bit-identical to never stopping; bad data changes nothing.
#include "helpers.h"

namespace wisp::test {
namespace {

void run(scenes::DeterminismScene& sc, int from, int to) {
  for (int f = from; f < to; ++f) {
    scenes::driveDeterminismScene(sc, f);
    sc.world->step(f % 3 == 0 ? 1.0 / 144.0 : 1.0 / 40.0);  // leaves time in the accumulator
  }
}

TEST(Snapshot, BinaryRestoreThenStepMatchesNeverStopping) {
  scenes::DeterminismScene a = scenes::makeDeterminismScene(1);
  run(a, 0, 50);
  std::vector<uint8_t> bytes;
  ASSERT_OK(a.world->saveSnapshot(&bytes));
  const uint64_t atSave = a.world->stateHash();
  run(a, 50, 120);
  const uint64_t expected = a.world->stateHash();

  // into the same world, after it moved on
  ASSERT_OK(a.world->loadSnapshot(bytes.data(), bytes.size()));
  EXPECT_EQ(a.world->stateHash(), atSave);
  run(a, 50, 120);
  EXPECT_EQ(a.world->stateHash(), expected);

  // into another world: ids of the snapshot work there
  // into another world, with another thread count: b's own ids (same slots) drive it
  scenes::DeterminismScene b = scenes::makeDeterminismScene(2);
  ASSERT_OK(b.world->loadSnapshot(bytes.data(), bytes.size()));
  WorldSettings one = b.world->settings();
  EXPECT_EQ(one.threads, 1) << "settings come from the snapshot";
  run(b, 50, 120);
  EXPECT_EQ(b.world->stateHash(), expected);
}

TEST(Snapshot, JsonRestoreThenStepMatchesNeverStopping) {
  scenes::DeterminismScene a = scenes::makeDeterminismScene(1);
  run(a, 0, 40);
  std::string json;
  ASSERT_OK(a.world->saveSnapshotJson(&json));
  EXPECT_EQ(json.rfind("{\"format\":\"wisp-snapshot\",\"version\":10,\"state\":{\"settings\":{\"gravity\":[0,-9.81", 0), 0u) << json.substr(0, 120);
  run(a, 40, 90);
  const uint64_t expected = a.world->stateHash();
  ASSERT_OK(a.world->loadSnapshotJson(json));
  run(a, 40, 90);
  EXPECT_EQ(a.world->stateHash(), expected);
  // binary and JSON describe the same state
  std::vector<uint8_t> bytes;
  ASSERT_OK(a.world->loadSnapshotJson(json));
  uint64_t fromJson = a.world->stateHash();
  ASSERT_OK(a.world->saveSnapshot(&bytes));
  ASSERT_OK(a.world->loadSnapshot(bytes.data(), bytes.size()));
  EXPECT_EQ(a.world->stateHash(), fromJson);
}

TEST(Snapshot, BadDataIsRejectedAndChangesNothing) {
  auto w = scenes::makeWorld();
  RopeDef d = scenes::straightRope({0, 1, 0}, 8, 0.1f);
  d.pinned = {0};
  RopeId r;
  ASSERT_OK(w->addRope(d, &r));
  ClothId c;
  ClothDef cd;
  cd.grid = {0.5f, 0.5f, 4, 4, {}};
  ASSERT_OK(w->addCloth(cd, &c));
  ASSERT_OK(w->step(1.0 / 60.0));
  std::vector<uint8_t> bytes;
  ASSERT_OK(w->saveSnapshot(&bytes));
  std::string json;
  ASSERT_OK(w->saveSnapshotJson(&json));
  const uint64_t before = w->stateHash();

  auto rejectBytes = [&](std::vector<uint8_t> b, const std::string& needle) {
    Status s = w->loadSnapshot(b.data(), b.size());
    EXPECT_EQ(s.code, StatusCode::InvalidArgument);
    EXPECT_NE(s.message.find(needle), std::string::npos) << s.message;
    EXPECT_EQ(w->stateHash(), before);
  };
  rejectBytes({}, "not a Wisp binary snapshot");
  rejectBytes({'n', 'o', 'p', 'e', 0, 0, 0, 0, 0, 0, 0, 0}, "not a Wisp binary snapshot");
  for (size_t cut : {size_t(13), bytes.size() / 2, bytes.size() - 1})
    rejectBytes(std::vector<uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut)), "snapshot rejected");
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  rejectBytes(longer, "trailing bytes");
  std::vector<uint8_t> badVersion = bytes;
  badVersion[8] = 99;
  rejectBytes(badVersion, "version 99");

  auto rejectJson = [&](const std::string& j, const std::string& needle) {
    Status s = w->loadSnapshotJson(j);
    EXPECT_EQ(s.code, StatusCode::InvalidArgument);
    EXPECT_NE(s.message.find(needle), std::string::npos) << s.message;
    EXPECT_EQ(w->stateHash(), before);
  };
  rejectJson("", "invalid JSON");
  rejectJson("{\"format\":\"other\"}", "not a Wisp JSON snapshot");
  rejectJson(json.substr(0, json.size() / 2), "invalid JSON");
  // an index pointing outside the particles: caught before it can crash a step
  std::string badIndex = json;
  size_t at = badIndex.find("\"a\":[");
  ASSERT_NE(at, std::string::npos);
  badIndex.insert(at + 5, "999999,");
  rejectJson(badIndex, "snapshot rejected");
  std::string nanGravity = json;
  at = nanGravity.find("\"gravity\":[0");
  nanGravity.replace(at + 11, 1, "1e999");
  rejectJson(nanGravity, "gravity");
  // the world still works
  ASSERT_OK(w->step(1.0 / 60.0));
}

}  // namespace
}  // namespace wisp::test
