// Time stepping: frame-rate independence, clamping, rejection, anchor interpolation.
#include "helpers.h"

namespace wisp::test {
namespace {

std::unique_ptr<World> swingScene(RopeId* r) {
  auto w = scenes::makeWorld();
  RopeDef d = scenes::straightRope({0, 1, 0}, 16, 0.06f);
  d.pinned = {0};
  d.params.bending = true;
  w->addRope(d, r);
  return w;
}

TEST(Time, SameStateAtAnyFrameRateWithAStillAnchor) {
  std::vector<uint64_t> hashes;
  std::vector<float> tipX;
  for (int fps : {30, 60, 144}) {
    RopeId r;
    auto w = swingScene(&r);
    for (int f = 0; f < 2 * fps; ++f) ASSERT_OK(w->step(1.0 / fps));
    EXPECT_EQ(w->stepCount(), 120u) << fps << " fps";
    hashes.push_back(w->stateHash());
    tipX.push_back(pos(*w, r, 16).x);
  }
  EXPECT_EQ(hashes[0], hashes[1]) << "30 vs 60 fps, tip x " << tipX[0] << " vs " << tipX[1];
  EXPECT_EQ(hashes[1], hashes[2]) << "60 vs 144 fps, tip x " << tipX[1] << " vs " << tipX[2];
}

TEST(Time, LongFramesAreClampedAndReported) {
  RopeId r;
  auto w = swingScene(&r);
  StepReport rep;
  ASSERT_OK(w->step(0.5, &rep));
  EXPECT_EQ(rep.fixedSteps, 6);
  EXPECT_NEAR(rep.droppedTime, 0.4, 1e-12);
  EXPECT_NEAR(w->time(), 0.1, 1e-12);
}

TEST(Time, BadFrameTimesAreErrorsAndChangeNothing) {
  RopeId r;
  auto w = swingScene(&r);
  ASSERT_OK(w->step(1.0 / 60.0));
  ASSERT_OK(w->step(0.004));  // leaves time in the accumulator
  const uint64_t before = w->stateHash();
  for (double dt : {0.0, -1.0, std::nan(""), double(INFINITY), -double(INFINITY)}) {
    StepReport rep;
    rep.fixedSteps = 99;
    Status s = w->step(dt, &rep);
    EXPECT_EQ(s.code, StatusCode::InvalidArgument) << "dt " << dt;
    EXPECT_NE(s.message.find("frameDt"), std::string::npos) << s.message;
    EXPECT_EQ(rep.fixedSteps, 99) << "report must be untouched on error";
    EXPECT_EQ(w->stateHash(), before) << "dt " << dt;
  }
  // rejectFrameDt is opt-in: set, longer frames are errors that change nothing
  WorldSettings s = w->settings();
  s.rejectFrameDt = 1.0;
  ASSERT_OK(w->setSettings(s));
  const uint64_t opted = w->stateHash();  // settings are state: the hash covers them
  EXPECT_NE(opted, before);
  for (double dt : {10.0, 1.0000001}) {
    Status st = w->step(dt);
    EXPECT_EQ(st.code, StatusCode::InvalidArgument) << "dt " << dt;
    EXPECT_NE(st.message.find("rejectFrameDt"), std::string::npos) << st.message;
    EXPECT_EQ(w->stateHash(), opted) << "dt " << dt;
  }
  s.rejectFrameDt = 0.05;  // shorter than maxFrameDt: a bad setting
  Status bad = w->setSettings(s);
  EXPECT_EQ(bad.code, StatusCode::InvalidArgument);
  EXPECT_NE(bad.message.find("rejectFrameDt"), std::string::npos) << bad.message;
}

// A rope of 8 segments along +X from the origin, particle 0 pinned to anchor `a`.
std::unique_ptr<World> pinnedRope(AnchorId* a, RopeId* r) {
  auto w = scenes::makeWorld();
  w->addAnchor({0, 0, 0}, a);
  w->addRope(scenes::straightRope({0, 0, 0}, 8, 0.1f), r);
  w->pin(*r, 0, *a);
  return w;
}

TEST(Time, AnchorsAreInterpolatedAcrossSubstepsAndSteps) {
  AnchorId a;
  RopeId r;
  auto w = pinnedRope(&a, &r);
  ASSERT_OK(w->step(1.0 / 60.0));
  // one frame of 4 fixed steps moves the anchor 0.4 m: the pin moves at a constant 6 m/s
  ASSERT_OK(w->setAnchorPosition(a, {0, 0.4f, 0}));
  StepReport rep;
  ASSERT_OK(w->step(4.0 / 60.0, &rep));
  ASSERT_EQ(rep.fixedSteps, 4);
  EXPECT_NEAR(vel(*w, r, 0).y, 6.0f, 1e-3f);
  EXPECT_EQ(pos(*w, r, 0).y, 0.4f);
  // neighbours were pulled along smoothly: nothing moves faster than a few times the anchor
  for (int i = 1; i <= 8; ++i) EXPECT_LT(length(vel(*w, r, i)), 3 * 6.0f) << i;
}

TEST(Time, TeleportAnchorInjectsNoVelocity) {
  AnchorId a;
  RopeId r;
  auto w = pinnedRope(&a, &r);
  ASSERT_OK(w->teleportAnchor(a, {100, 0, 0}));
  ASSERT_OK(w->teleportRope(r, {{100, 0, 0}, {}}, {0, 0, 0}));
  ASSERT_OK(w->step(1.0 / 60.0));
  for (int i = 0; i <= 8; ++i) EXPECT_LT(length(vel(*w, r, i)), 0.5f) << i;
  EXPECT_EQ(pos(*w, r, 0).x, 100.0f);
}

}  // namespace
}  // namespace wisp::test
