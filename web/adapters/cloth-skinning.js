// Cloth skinned to a three.js skeleton: chosen cloth particles are pinned to anchors that follow
// bones, each at its offset in the bone's frame taken when the skinning is made (the bind pose),
// exactly or with slack (maxDistance: the vertex swings freely up to that far from where the bone
// puts it). A cape hangs from the shoulder bones of an animated SkinnedMesh this way.
// Each frame: skin.beforeStep(); world.step(dt). No allocation per frame.
const P = new Float64Array(3);

export class ClothSkinning {
  /**
   * @param world  the Wisp world
   * @param cloth  a Cloth of that world
   * @param pins   [{ particle, bone (THREE.Bone or any Object3D), maxDistance = 0 }]
   */
  constructor(world, cloth, pins) {
    this.cloth = cloth;
    this.entries = [];
    const p = cloth.positions;
    for (const { particle, bone, maxDistance = 0 } of pins) {
      if (!Number.isInteger(particle) || particle < 0 || particle >= cloth.count) throw new RangeError(`particle ${particle} is not a particle of the cloth`);
      if (!bone?.matrixWorld) throw new TypeError('each pin needs a bone (an Object3D with a world matrix)');
      bone.updateWorldMatrix(true, false);
      const x = p[3 * particle], y = p[3 * particle + 1], z = p[3 * particle + 2];
      // offset in the bone's frame: inverse(boneWorld) * x (rigid part; scale divided out)
      const e = bone.matrixWorld.elements;
      const dx = x - e[12], dy = y - e[13], dz = z - e[14];
      const sx = e[0] * e[0] + e[1] * e[1] + e[2] * e[2], sy = e[4] * e[4] + e[5] * e[5] + e[6] * e[6], sz = e[8] * e[8] + e[9] * e[9] + e[10] * e[10];
      const offset = [(e[0] * dx + e[1] * dy + e[2] * dz) / sx, (e[4] * dx + e[5] * dy + e[6] * dz) / sy, (e[8] * dx + e[9] * dy + e[10] * dz) / sz];
      const anchor = world.addAnchor([x, y, z]);
      cloth.pin(particle, anchor, { maxDistance });
      this.entries.push({ bone, offset, anchor });
    }
  }

  /** Moves every anchor to where its bone now puts its particle (after animation, before step). */
  beforeStep() {
    for (const { bone, offset: o, anchor } of this.entries) {
      bone.updateWorldMatrix(true, false);
      const e = bone.matrixWorld.elements;
      P[0] = e[0] * o[0] + e[4] * o[1] + e[8] * o[2] + e[12];
      P[1] = e[1] * o[0] + e[5] * o[1] + e[9] * o[2] + e[13];
      P[2] = e[2] * o[0] + e[6] * o[1] + e[10] * o[2] + e[14];
      anchor.setPosition(P);
    }
  }

  dispose() {
    for (const { anchor } of this.entries) anchor.dispose();
    this.entries = [];
  }
}

/**
 * Pins for ClothSkinning from a SkinnedMesh whose vertices are the cloth's (same order as the
 * geometry given to addCloth, through cloth.vertexMap for welded meshes): every vertex whose
 * largest skin weight is at least `minWeight` is pinned to that bone, with `maxDistance` slack.
 */
export function pinsFromSkinnedMesh(mesh, cloth, { minWeight = 0.999, maxDistance = 0 } = {}) {
  const index = mesh.geometry.attributes.skinIndex, weight = mesh.geometry.attributes.skinWeight;
  const bones = mesh.skeleton.bones, map = cloth.vertexMap;
  const seen = new Set(), pins = [];
  for (let v = 0; v < index.count; v++) {
    let best = 0, bone = -1;
    for (let k = 0; k < 4; k++) {
      const w = weight.getComponent(v, k);
      if (w > best) { best = w; bone = index.getComponent(v, k); }
    }
    const particle = map.length ? map[v] : v;
    if (best >= minWeight && bone >= 0 && !seen.has(particle)) {
      seen.add(particle);
      pins.push({ particle, bone: bones[bone], maxDistance });
    }
  }
  return pins;
}
