// Field lists of the public structs (wisp/*.h): each struct's members once, with their names,
//   template <class Ar> void visit(Ar& ar, T& t) { ar("name", t.field); ... }
// read by every archive: the binary and JSON snapshots (snapshot/archive.h) and the JavaScript
// bindings (wasm/src/js_archive.h), so a new parameter added here is saved, restored and reachable
// from JavaScript without a second list to forget. The order is the binary snapshot's layout:
// append, never reorder (or raise the snapshot version).
#pragma once

#include "wisp/chain.h"
#include "wisp/chain_links.h"
#include "wisp/cloth.h"
#include "wisp/collider.h"
#include "wisp/rope.h"
#include "wisp/wind.h"
#include "wisp/world.h"

namespace wisp {

template <class Ar> void visit(Ar& ar, Transform& t) { ar("position", t.position); ar("rotation", t.rotation); }

template <class Ar> void visit(Ar& ar, WindSettings& w) {
  ar("direction", w.direction); ar("speed", w.speed); ar("turbulence", w.turbulence);
  ar("turbulenceScale", w.turbulenceScale); ar("seed", w.seed);
}

// debugChecks is a property of the running session, not of the simulated state: snapshots leave
// it out (the bindings add it themselves).
template <class Ar> void visit(Ar& ar, WorldSettings& s) {
  ar("gravity", s.gravity); ar("fixedDt", s.fixedDt); ar("substeps", s.substeps); ar("iterations", s.iterations);
  ar("maxFrameDt", s.maxFrameDt); ar("rejectFrameDt", s.rejectFrameDt); ar("collisions", s.collisions);
  ar("threads", s.threads); ar("wind", s.wind);
}

template <class Ar> void visit(Ar& ar, RopeParams& p) {
  ar("radius", p.radius); ar("stretchCompliance", p.stretchCompliance); ar("bending", p.bending);
  ar("bendCompliance", p.bendCompliance); ar("damping", p.damping); ar("drag", p.drag);
  ar("gravityScale", p.gravityScale); ar("yieldRatio", p.yieldRatio); ar("plasticity", p.plasticity);
  ar("collide", p.collide); ar("tethers", p.tethers);
  ar("colliderMask", p.colliderMask);
  ar("maxSpeed", p.maxSpeed); ar("teleportDistance", p.teleportDistance); ar("teleportAngle", p.teleportAngle);
  ar("sleepSpeed", p.sleepSpeed); ar("sleepTime", p.sleepTime); ar("updateEvery", p.updateEvery);
  ar("maxSubsteps", p.maxSubsteps);
}

template <class Ar> void visit(Ar& ar, ClothParams& p) {
  ar("radius", p.radius); ar("stretchCompliance", p.stretchCompliance); ar("shearCompliance", p.shearCompliance);
  ar("bendCompliance", p.bendCompliance); ar("bending", p.bending); ar("tethers", p.tethers);
  ar("tetherSlack", p.tetherSlack); ar("damping", p.damping); ar("gravityScale", p.gravityScale);
  ar("dragCoefficient", p.dragCoefficient); ar("liftCoefficient", p.liftCoefficient); ar("airDensity", p.airDensity);
  ar("residualTolerance", p.residualTolerance); ar("collide", p.collide); ar("selfCollision", p.selfCollision);
  ar("colliderMask", p.colliderMask);
  ar("pressure", p.pressure); ar("volumeCompliance", p.volumeCompliance);
  ar("tetherCompliance", p.tetherCompliance);
  ar("maxSpeed", p.maxSpeed); ar("teleportDistance", p.teleportDistance); ar("teleportAngle", p.teleportAngle);
  ar("sleepSpeed", p.sleepSpeed); ar("sleepTime", p.sleepTime); ar("updateEvery", p.updateEvery);
  ar("maxSubsteps", p.maxSubsteps);
}

template <class Ar> void visit(Ar& ar, ClothGrid& g) {
  ar("width", g.width); ar("height", g.height); ar("resolutionX", g.resolutionX); ar("resolutionY", g.resolutionY);
  ar("transform", g.transform);
}

template <class Ar> void visit(Ar& ar, ClothStats& s) {
  ar("particles", s.particles); ar("triangles", s.triangles); ar("stretchConstraints", s.stretchConstraints);
  ar("shearConstraints", s.shearConstraints); ar("bendConstraints", s.bendConstraints); ar("tethers", s.tethers);
  ar("colours", s.colours); ar("maxStrain", s.maxStrain); ar("meanStrain", s.meanStrain);
  ar("substeps", s.substeps); ar("iterations", s.iterations);
}

template <class Ar> void visit(Ar& ar, CurveKey& k) { ar("t", k.t); ar("value", k.value); }

template <class Ar> void visit(Ar& ar, VrmLimit& l) {
  ar("type", l.type); ar("angle", l.angle); ar("pitch", l.pitch); ar("yaw", l.yaw); ar("rotation", l.rotation);
}

template <class Ar> void visit(Ar& ar, ChainParams& p) {
  ar("mode", p.mode); ar("damping", p.damping); ar("stiffness", p.stiffness); ar("elasticity", p.elasticity);
  ar("inertia", p.inertia); ar("gravityScale", p.gravityScale); ar("customGravity", p.customGravity);
  ar("gravity", p.gravity); ar("externalForce", p.externalForce); ar("drag", p.drag); ar("radius", p.radius);
  ar("limitAngle", p.limitAngle); ar("hinge", p.hinge); ar("hingeAxis", p.hingeAxis); ar("collide", p.collide);
  ar("colliderMask", p.colliderMask); ar("space", p.space); ar("spaceInertia", p.spaceInertia);
  ar("teleportDistance", p.teleportDistance); ar("teleportAngle", p.teleportAngle); ar("warmupSteps", p.warmupSteps);
  ar("maxDistance", p.maxDistance); ar("maxDistanceCurve", p.maxDistanceCurve);
  ar("dampingCurve", p.dampingCurve); ar("stiffnessCurve", p.stiffnessCurve); ar("elasticityCurve", p.elasticityCurve);
  ar("inertiaCurve", p.inertiaCurve); ar("gravityCurve", p.gravityCurve); ar("externalForceCurve", p.externalForceCurve);
  ar("radiusCurve", p.radiusCurve); ar("limitAngleCurve", p.limitAngleCurve);
  ar("sleepSpeed", p.sleepSpeed); ar("sleepTime", p.sleepTime); ar("updateEvery", p.updateEvery);
  ar("backstop", p.backstop); ar("backstopNormal", p.backstopNormal); ar("backstopDistance", p.backstopDistance);
  ar("backstopRadius", p.backstopRadius); ar("backstopCurve", p.backstopCurve);
  ar("vrmLimits", p.vrmLimits); ar("vrmWind", p.vrmWind);
}

template <class Ar> void visit(Ar& ar, ChainBoost& b) {
  ar("stiffness", b.stiffness); ar("damping", b.damping); ar("drag", b.drag); ar("gravity", b.gravity);
}

template <class Ar> void visit(Ar& ar, ChainLinksParams& p) {
  ar("loop", p.loop); ar("diagonals", p.diagonals); ar("compliance", p.compliance); ar("stretch", p.stretch);
  ar("collide", p.collide); ar("fromJoint", p.fromJoint);
}

template <class Ar> void visit(Ar& ar, ChainStats& s) {
  ar("physicsWeight", s.physicsWeight);
  ar("joints", s.joints); ar("maxLengthError", s.maxLengthError); ar("maxSpeed", s.maxSpeed);
  ar("teleports", s.teleports);
}

template <class Ar> void visit(Ar& ar, WindZoneDef& d) {
  ar("shape", d.shape); ar("transform", d.transform); ar("radius", d.radius); ar("halfExtents", d.halfExtents);
  ar("wind", d.wind); ar("falloff", d.falloff);
}

template <class Ar> void visit(Ar& ar, ColliderDef& d) {
  ar("type", d.type); ar("transform", d.transform); ar("radius", d.radius); ar("halfHeight", d.halfHeight);
  ar("halfExtents", d.halfExtents); ar("friction", d.friction); ar("enabled", d.enabled);
  ar("radiusTop", d.radiusTop); ar("inside", d.inside); ar("groups", d.groups);
}

template <class Ar> void visit(Ar& ar, ParticleState& s) {
  ar("position", s.position); ar("velocity", s.velocity); ar("invMass", s.invMass); ar("pinned", s.pinned);
}

template <class Ar> void visit(Ar& ar, WorldStats& s) {
  ar("ropes", s.ropes); ar("cloths", s.cloths); ar("chains", s.chains); ar("particles", s.particles);
  ar("constraints", s.constraints); ar("anchors", s.anchors); ar("colliders", s.colliders);
  ar("threads", s.threads); ar("simd", s.simd);
}

}  // namespace wisp
