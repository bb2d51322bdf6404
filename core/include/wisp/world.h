// The World owns every simulated object and steps them with a fixed internal time step.
//
//   World::create(settings) -> world
//   world.addRope(def) / addAnchor / addCollider / pin ...
//   world.step(frameDt)       every frame, with the real elapsed time
//   world.ropePositions(id)   interleaved xyz floats, valid until the next structural change
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "wisp/chain.h"
#include "wisp/chain_links.h"
#include "wisp/cloth.h"
#include "wisp/collider.h"
#include "wisp/ids.h"
#include "wisp/rope.h"
#include "wisp/status.h"
#include "wisp/types.h"
#include "wisp/wind.h"

namespace wisp {

struct WorldSettings {
  Vec3 gravity{0, -9.81f, 0};  // m/s^2, any direction
  double fixedDt = 1.0 / 60.0; // s: internal step; frame time is accumulated and consumed in these
  int substeps = 8;            // per fixed step (1..128); small steps beat many iterations (Macklin 2019)
  int iterations = 1;          // constraint passes per substep (1..64)
  double maxFrameDt = 0.1;     // s: longer frames are clamped to this and the dropped time reported
  // s: opt-in: frames longer than this are an error instead of clamped. 0 (the default) = never:
  // a 10 s frame (a tab back from the background) is clamped to maxFrameDt and reported.
  double rejectFrameDt = 0;
  bool collisions = true;      // master switch for collider contacts
  int threads = 1;             // worker threads for the step: 1 = serial, 0 = all available
  // After every step, check each object's invariants (finite, under 500 m/s, pins exact, compliance-0
  // edges under 1.5 x rest, at most half a radius inside a collider, chain bones at their length)
  // and report failures as events. Costs a pass over every particle; meant for tests and debugging.
  bool debugChecks = false;
  WindSettings wind;
};

// What one call of step() did.
struct StepReport {
  int fixedSteps = 0;       // internal steps taken
  double droppedTime = 0;   // s cut off by maxFrameDt
  double leftover = 0;      // s left in the accumulator for the next call
};

enum class ObjectKind : int { Rope = 0, Cloth = 1, Chain = 2 };

// Something step() noticed. ObjectReset: a particle of the object became non-finite (a solver
// failure or a corrupted write); the object was put back in its rest pose on its anchors and
// nothing else was touched. InvariantViolated: a debug check failed (WorldSettings::debugChecks).
// SpeedClamped: particles of a rope or cloth were faster than its maxSpeed and were slowed to it.
// Teleported: a rope or cloth was carried rigidly onto anchors that jumped (its teleportDistance /
// teleportAngle, or teleportAnchor). Slept: the object settled (sleepSpeed / sleepTime) and is
// skipped until disturbed. Woke: a sleeping object was disturbed and runs again from this step.
struct WorldEvent {
  enum class Type : int { ObjectReset = 0, InvariantViolated = 1, SpeedClamped = 2, Teleported = 3, Slept = 4, Woke = 5 };
  Type type = Type::ObjectReset;
  ObjectKind kind = ObjectKind::Rope;
  Handle object;          // the object's id (as RopeId / ClothId / ChainId)
  std::string message;    // what was found, with values
};

// A particle's state, for tests, tools and debugging.
struct ParticleState {
  Vec3 position;
  Vec3 velocity;
  float invMass = 0;  // 1/kg; 0 when pinned
  bool pinned = false;
};

struct WorldStats {
  int ropes = 0;
  int cloths = 0;
  int chains = 0;
  int particles = 0;   // rope and cloth particles and chain joints
  int constraints = 0;  // every kind (stretch, shear, bending; tethers not counted)
  int anchors = 0;
  int colliders = 0;
  int threads = 1;      // threads step() uses: 1 under 2,048 particles (handing work out costs more than it
                        // saves), never more than the machine has
  bool simd = false;    // SIMD kernels compiled in
};

// The live objects of a world, by kind, in slot order: after loadSnapshot, the restored ones.
struct WorldObjects {
  std::vector<RopeId> ropes;
  std::vector<ClothId> cloths;
  std::vector<ChainId> chains;
  std::vector<AnchorId> anchors;      // including those made for RopeDef/ClothDef::pinned
  std::vector<ColliderId> colliders;
  std::vector<WindZoneId> windZones;
};

class World {
 public:
  static Status validate(const WorldSettings& settings);
  // Creates a world; on error `out` is left untouched.
  static Status create(const WorldSettings& settings, std::unique_ptr<World>* out);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // --- time --------------------------------------------------------------------------------
  // Adds frameDt (s) to the accumulator and runs the fixed steps it covers. frameDt <= 0, NaN,
  // inf (or > rejectFrameDt when that is set) is an error and changes nothing; > maxFrameDt is
  // clamped (reported in StepReport::droppedTime).
  Status step(double frameDt, StepReport* report = nullptr);
  const WorldSettings& settings() const;
  Status setSettings(const WorldSettings& settings);  // validated; the accumulator is kept
  Status setGravity(Vec3 gravity);
  Status setWind(const WindSettings& wind);
  double time() const;        // s simulated so far (fixed steps taken * fixedDt)
  uint64_t stepCount() const;

  // --- ropes -------------------------------------------------------------------------------
  Status addRope(const RopeDef& def, RopeId* out);
  Status removeRope(RopeId id);
  Status ropeParams(RopeId id, RopeParams* out) const;
  Status setRopeParams(RopeId id, const RopeParams& params);
  Status ropeParticleCount(RopeId id, int* out) const;
  // Interleaved x,y,z per particle (3 * count floats), refreshed at the end of every step and
  // after any call that moves particles. nullptr for an invalid id.
  const float* ropePositions(RopeId id) const;
  Status particle(RopeId id, int index, ParticleState* out) const;
  Status setParticleVelocity(RopeId id, int index, Vec3 velocity);
  // Rest length of segment `segment` (m); grows when the rope yields plastically.
  Status segmentRestLength(RopeId id, int segment, float* out) const;
  // Cuts segment `segment` (joining particles segment and segment+1). The rope keeps particles
  // [0, segment]; the rest, with their velocities and pins, become the new rope `tail`.
  Status cutRope(RopeId id, int segment, RopeId* tail);
  // Rigidly moves the whole rope (positions, and velocities rotated) by rotation about `pivot`
  // then translation, without injecting velocity. Pinned particles move with it; their anchors
  // are not moved (move them with teleportAnchor).
  Status teleportRope(RopeId id, const Transform& delta, Vec3 pivot);
  // Back to the pose and rest lengths of creation, at rest; pinned particles go to their anchors
  // (which may have moved since).
  Status resetRope(RopeId id);

  // --- cloth -------------------------------------------------------------------------------
  Status addCloth(const ClothDef& def, ClothId* out);
  Status removeCloth(ClothId id);
  Status clothParams(ClothId id, ClothParams* out) const;
  Status setClothParams(ClothId id, const ClothParams& params);
  Status clothParticleCount(ClothId id, int* out) const;
  // Interleaved x,y,z positions and unit vertex normals (3 * count floats each), refreshed at
  // the end of every step. nullptr for an invalid id.
  const float* clothPositions(ClothId id) const;
  const float* clothNormals(ClothId id) const;
  // Triangles as particle indices, 3 per triangle.
  Status clothTriangles(ClothId id, const uint32_t** indices, int* triangleCount) const;
  // For a cloth built from a mesh: the particle of each input vertex (welded vertices share one).
  Status clothVertexMap(ClothId id, const int32_t** map, int* vertexCount) const;
  Status clothStats(ClothId id, ClothStats* out) const;

  // --- spring-bone chains (wisp/chain.h) ----------------------------------------------------
  Status addChain(const ChainDef& def, ChainId* out);
  Status removeChain(ChainId id);
  Status chainParams(ChainId id, ChainParams* out) const;
  Status setChainParams(ChainId id, const ChainParams& params);  // curves checked against the joints
  Status chainJointCount(ChainId id, int* out) const;            // including the end tip
  // The root's pose (from animation) reached at the end of the next step; the chain follows it
  // along an interpolated path across the substeps. A jump past the teleport thresholds is
  // carried rigidly (ChainParams::teleportDistance / teleportAngle).
  // `scale` is the root's uniform scale (1e-4..1e4): the chain behaves as the unscaled chain scaled
  // by it (bone lengths, joint radii, gravity and external force, teleport distance); a change of
  // scale carries the joints about the root to the new size. Colliders take the scale their own
  // poses give (setColliderTransform).
  Status setChainRoot(ChainId id, const Transform& root, float scale = 1);
  // setChainRoot with one root pose for `count` chains (hair on one head): the pose is checked
  // once, every id before any chain changes (a bad pose, scale or id changes nothing), and each
  // chain gets exactly what setChainRoot(ids[i], root, scale) gives it.
  Status setChainRoots(const ChainId* ids, int count, const Transform& root, float scale = 1);
  // The pose of the chain's simulation space (ChainSpace::Relative), e.g. the hips.
  Status setChainSpace(ChainId id, const Transform& space);
  // Jumps the root there at once, carrying the chain rigidly: same shape, velocities turned
  // with it, none added.
  Status teleportChain(ChainId id, const Transform& root);
  // Timed multipliers (ChainBoost), fading linearly back to 1 over `seconds` (0..1e4) of the
  // chain's simulated time, advanced per fixed step (deterministic). A new boost replaces a
  // running one; seconds 0 ends it now. Bad multipliers or seconds change nothing.
  Status boostChain(ChainId id, const ChainBoost& multipliers, float seconds);
  // The multipliers the chain's next fixed step uses, and the boost's simulated seconds left.
  Status chainBoost(ChainId id, ChainBoost* now, float* secondsLeft) const;
  // The animated pose for the end of the next step: `count` local rotations (x,y,z,w each; joint
  // j's rotation relative to its parent joint, joint 0's relative to the root), for joints
  // 0..count-1 (1 <= count <= joints; the others keep their rest rotations). The pose spring,
  // limits and outputs then follow this pose instead of the rest pose; the fixed steps inside a
  // frame see it at their own time on the line from the previous frame's pose (like anchors).
  // The first call places the pose (no motion from the rest pose). Copies; allocates nothing.
  Status setChainPose(ChainId id, const float* localRotations, int count);
  // Physics weight: how much of the simulation the outputs show over the animated pose (0 = the
  // animated pose exactly, 1 = fully simulated, the default), reached linearly over `seconds` of
  // simulated time (0 = at once). The simulation runs underneath at any weight.
  Status setChainPhysicsWeight(ChainId id, float weight, float seconds = 0);
  // The animated pose (the rest pose if none was set) on the current root, at rest.
  Status resetChain(ChainId id);
  // Per joint: x,y,z world positions (3 floats), world rotations and rotations relative to the
  // parent joint (the root for joint 0) as x,y,z,w (4 floats): what a skinned skeleton needs.
  // Refreshed at the end of every step; nullptr for an invalid id.
  const float* chainPositions(ChainId id) const;
  const float* chainRotations(ChainId id) const;
  const float* chainLocalRotations(ChainId id) const;
  Status chainStats(ChainId id, ChainStats* out) const;
  Status particle(ChainId id, int index, ParticleState* out) const;
  Status setParticleVelocity(ChainId id, int index, Vec3 velocity);

  // --- links between chains (wisp/chain_links.h) ------------------------------------------------
  // Links neighbouring chains (def.chains in ring order): joint i of chain k to joint i of chain
  // k+1 (up to the shorter chain), rest lengths from the animated pose now. Fewer than 2 chains, a
  // chain twice, a stale id, a Vrm-mode chain or a chain already in a links set is an error and
  // changes nothing. While linked, the chains are solved together in one job; a chain switched
  // to Vrm mode, disabled, asleep or on another update rate than the others is held still by the
  // links for the frames it does not run with them. Removing a linked chain drops its links.
  Status addChainLinks(const ChainLinksDef& def, ChainLinksId* out);
  Status removeChainLinks(ChainLinksId id);  // the chains go on alone
  Status chainLinksParams(ChainLinksId id, ChainLinksParams* out) const;
  Status setChainLinksParams(ChainLinksId id, const ChainLinksParams& params);  // loop, diagonals, fromJoint switch links on and off
  // The live links, in solve order: per link, the indices into def.chains of its two chains and
  // their joints (4 ints), and its rest length (m).
  Status chainLinksPairs(ChainLinksId id, std::vector<int32_t>* pairs) const;
  Status chainLinksRestLengths(ChainLinksId id, std::vector<float>* rest) const;
  Status chainLinksCount(ChainLinksId id, int* out) const;

  // --- operations every object kind has ----------------------------------------------------
  Status particle(ClothId id, int index, ParticleState* out) const;
  Status setParticleVelocity(ClothId id, int index, Vec3 velocity);
  Status pin(ClothId cloth, int particle, AnchorId anchor, float maxDistance = 0, float compliance = 0);
  Status unpin(ClothId cloth, int particle);
  Status teleportCloth(ClothId id, const Transform& delta, Vec3 pivot);
  // As resetRope: the creation pose at rest, pinned particles on their anchors.
  Status resetCloth(ClothId id);

  // --- anchors (kinematic targets) ----------------------------------------------------------
  Status addAnchor(Vec3 position, AnchorId* out);
  Status removeAnchor(AnchorId id);  // particles pinned to it become free
  // The target for the end of the next step() call (the frame's end time). Fixed steps inside
  // the frame see the anchor where it is at their own time on the straight line from the previous
  // frame's target to this one, so at any frame rate (144 Hz, or frames that leave time in the
  // accumulator) a pinned particle is where the scripted path is at the simulated time, neither
  // ahead nor behind. A jump past the objects' teleport thresholds is handled as a teleport.
  Status setAnchorPosition(AnchorId id, Vec3 position);
  // Jumps there at once: no interpolation. At the start of the next step() every rope and cloth
  // pinned to it is carried rigidly so that its exact pins sit on their anchors (translation, and
  // the turn of the line between its two farthest-apart pins): no velocity is injected. As it
  // happens at the step, teleportAnchor and teleportRope/teleportCloth give the same result in
  // either order (an object already on its anchors is not moved again).
  Status teleportAnchor(AnchorId id, Vec3 position);
  Status anchorPosition(AnchorId id, Vec3* out) const;
  // Pins a particle to an anchor: exactly (maxDistance 0), or kept within maxDistance (m) of it,
  // free to swing inside (a vertex skinned to a bone with slack).
  Status pin(RopeId rope, int particle, AnchorId anchor, float maxDistance = 0, float compliance = 0);
  Status unpin(RopeId rope, int particle);

  // --- wind zones ---------------------------------------------------------------------------
  Status addWindZone(const WindZoneDef& def, WindZoneId* out);
  Status setWindZone(WindZoneId id, const WindZoneDef& def);  // move it, change its wind
  Status removeWindZone(WindZoneId id);
  // The air velocity (m/s) the solver uses at a point at the current time: global wind plus
  // zones, with turbulence.
  Vec3 airVelocityAt(Vec3 point) const;

  // --- colliders ----------------------------------------------------------------------------
  Status addCollider(const ColliderDef& def, ColliderId* out);
  Status removeCollider(ColliderId id);
  // The pose at the end of the next step() call; fixed steps see it interpolated to their own
  // time (as setAnchorPosition) and the collider sweeps there across the substeps (pushing what
  // it meets), so fast motion does not tunnel.
  // `scale` is the pose's uniform scale (1e-4..1e4, as a three.js object's world scale): radius,
  // radiusTop, halfHeight and halfExtents act as the sizes given in ColliderDef times it (a plane
  // has no size), from this step on; every call sets it (1 when left out). collider() reports
  // the sizes as given, unscaled.
  Status setColliderTransform(ColliderId id, const Transform& transform, float scale = 1);
  // Jumps there at once, sweeping nothing (placement, respawn).
  Status teleportCollider(ColliderId id, const Transform& transform, float scale = 1);
  Status setColliderEnabled(ColliderId id, bool enabled);
  Status setColliderFriction(ColliderId id, float friction);
  Status collider(ColliderId id, ColliderDef* out) const;

  // --- open worlds -------------------------------------------------------------------------
  // Moves the coordinate origin to (x, y, z) (m, in the current coordinates): every position the
  // world holds becomes position - (x, y, z), computed in double and rounded once (exact for a
  // nearby offset): anchors and their targets, colliders, wind zones; ropes, cloth and chains keep
  // their floats and their own origins move. Velocities, shapes and time are untouched, so the
  // simulation goes on as if nothing happened, only described from the new origin. Not needed for
  // precision: objects built or moved more than 128 m out simulate relative to origins of their
  // own. It keeps the positions read back (floats: ~1 mm 10 km out) fine, for an open world that
  // keeps its origin near the player (PhysX's PxScene::shiftOrigin, a floating origin) and moves
  // its own objects by the same offset. The turbulence noise is fixed to the coordinates, so its
  // pattern (not its statistics) changes.
  Status shiftOrigin(double x, double y, double z);

  // --- snapshots -----------------------------------------------------------------------------
  // The full state (settings, objects, anchors, colliders, time) as bytes or as JSON. Loading
  // replaces this world's whole state and changes nothing if the data is invalid; stepping on
  // from a loaded snapshot gives bit-identical results to never having stopped. Ids saved in
  // the snapshot are valid in this world after loading.
  Status saveSnapshot(std::vector<uint8_t>* out) const;
  Status loadSnapshot(const uint8_t* data, size_t size);
  Status saveSnapshotJson(std::string* out) const;
  Status loadSnapshotJson(const std::string& json);

  // --- events and containment -----------------------------------------------------------------
  // What the last step() call noticed (cleared when the next one starts).
  const std::vector<WorldEvent>& events() const;
  // Test hook: writes NaN into a particle, as a solver bug or a stray write would, so tests can
  // prove that the object is reset and the rest of the world is untouched.
  // Activity. A disabled object is skipped by the step (no solver time) and keeps its state
  // exactly; enabling it again carries it rigidly onto its anchors' current positions (a chain:
  // onto its current root) at rest, so it starts from there with no snap. Enabling also wakes it.
  // `sleeping` is true while the object sleeps (RopeParams::sleepSpeed); wake() wakes it.
  // `updates` counts the fixed steps the object was simulated (a solver counter).
  struct ObjectActivity {
    bool enabled = true;
    bool sleeping = false;
    uint64_t updates = 0;
  };
  Status setEnabled(RopeId id, bool enabled);
  Status setEnabled(ClothId id, bool enabled);
  Status setEnabled(ChainId id, bool enabled);
  Status wake(RopeId id);
  Status wake(ClothId id);
  Status wake(ChainId id);
  Status activity(RopeId id, ObjectActivity* out) const;
  Status activity(ClothId id, ObjectActivity* out) const;
  Status activity(ChainId id, ObjectActivity* out) const;

  Status injectFault(RopeId id, int particle);
  Status injectFault(ClothId id, int particle);
  Status injectFault(ChainId id, int particle);

  // --- inspection ----------------------------------------------------------------------------
  // FNV-1a over the full simulation state (every float bit-exact): equal hashes, equal worlds.
  uint64_t stateHash() const;
  WorldStats stats() const;
  // Every live object's id (allocates: not for the per-frame path).
  void objects(WorldObjects* out) const;
  // Bumped whenever particle storage may have moved (add, remove, cut): views must be re-read.
  uint64_t layoutVersion() const;

  struct Impl;  // defined in core/src/world/world_impl.h

 private:
  explicit World(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace wisp
