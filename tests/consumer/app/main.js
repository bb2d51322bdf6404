// The consumer app both fixtures bundle: three.js with a rope, a cloth and a spring-bone chain on
// a SkinnedMesh, all through the package as a user imports it. Reports to window.__result.
import * as THREE from 'three';
import { createWisp, createWorkerWorld, canUseThreads } from 'wisp';
import { RopeMesh, ClothMesh, SpringBoneChain, colliderMesh } from 'wisp/three';

async function main() {
  const q = new URLSearchParams(location.search);  // the load-failure tests pass options
  const options = {};
  if (q.has('threads')) options.threads = q.get('threads') === 'true';
  if (q.has('timeout')) options.timeout = Number(q.get('timeout'));
  const wisp = await createWisp(options);
  const world = wisp.createWorld({ gravity: [0, -9.81, 0], substeps: 8 });
  const renderer = new THREE.WebGLRenderer({ antialias: false });
  renderer.setSize(480, 320);
  document.body.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(45, 1.5, 0.01, 100);
  camera.position.set(0, 1.2, 4);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2));

  const rope = world.addRope({ start: [-1, 2, 0], end: [0, 2, 0], segments: 16, pinned: [0] });
  const ropeMesh = new RopeMesh(rope);
  const cloth = world.addCloth({ grid: { width: 0.6, height: 0.6, resolutionX: 8, resolutionY: 8, position: [0.3, 2, 0] }, pinned: [0, 8] });
  const clothMesh = new ClothMesh(cloth);
  const ball = { type: 'sphere', radius: 0.2, position: [-0.5, 1.3, 0] };
  world.addCollider(ball);
  const ballMesh = colliderMesh(ball);
  ballMesh.position.set(-0.5, 1.3, 0);

  // a SkinnedMesh strand of 4 bones hanging sideways from a parent that moves
  const parent = new THREE.Object3D();
  parent.position.set(1.2, 1.5, 0);
  const bones = [];
  let p = parent;
  for (let k = 0; k < 4; k++) {
    const b = new THREE.Bone();
    b.position.set(k === 0 ? 0 : 0.15, 0, 0);
    p.add(b);
    bones.push(b);
    p = b;
  }
  const geometry = new THREE.CylinderGeometry(0.02, 0.02, 0.45, 6, 3).rotateZ(Math.PI / 2).translate(0.225, 0, 0);
  const skinIndex = [], skinWeight = [];
  const pos = geometry.attributes.position;
  for (let i = 0; i < pos.count; i++) {
    skinIndex.push(Math.min(3, Math.max(0, Math.round(pos.getX(i) / 0.15))), 0, 0, 0);
    skinWeight.push(1, 0, 0, 0);
  }
  geometry.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(skinIndex, 4));
  geometry.setAttribute('skinWeight', new THREE.Float32BufferAttribute(skinWeight, 4));
  const strand = new THREE.SkinnedMesh(geometry, new THREE.MeshStandardMaterial({ color: 0x553322 }));
  parent.add(strand);
  strand.bind(new THREE.Skeleton(bones));
  scene.add(parent, ropeMesh, clothMesh, ballMesh);
  parent.updateMatrixWorld(true);
  const chain = new SpringBoneChain(world, bones, { stiffness: 1, damping: 1 });

  const snapshot = () => [...rope.positions, ...cloth.positions, ...chain.chain.positions];
  const before = snapshot();
  for (let frame = 0; frame < 60; frame++) {
    parent.position.z = 0.3 * Math.sin(frame / 10);
    chain.beforeStep();
    world.step(1 / 60);
    chain.afterStep();
    ropeMesh.update();
    clothMesh.update();
    renderer.render(scene, camera);
  }
  const after = snapshot();
  let moved = 0;
  for (let i = 0; i < after.length; i++) moved = Math.max(moved, Math.abs(after[i] - before[i]));
  // a cross-origin-isolated page can also step a world in a worker (the bundler emits worker.js)
  let workerMoved = null;
  if (self.crossOriginIsolated === true) {
    const ww = await createWorkerWorld({ substeps: 4 }, options);
    const wr = ww.addRope({ start: [-1, 2, 0], end: [0, 2, 0], segments: 16, pinned: [0] });
    for (let frame = 0; frame < 30; frame++) ww.step(1 / 60);
    await ww.flush();
    workerMoved = Math.abs(wr.positions[3 * 16 + 1] - 2);
    await ww.dispose();
  }
  window.__result = {
    workerMoved,
    threaded: wisp.threaded, isolated: self.crossOriginIsolated === true, canUseThreads: canUseThreads(),
    moved, finite: after.every(Number.isFinite), boneTurned: Math.abs(bones[1].quaternion.w) < 0.99999,
  };
}

main().catch((e) => {
  console.error(e);
  window.__result = { error: `${e.name}: ${e.message}`, code: e.code };
});
