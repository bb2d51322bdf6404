// Meshes that show Wisp colliders, built from the same definition the solver gets.
import * as THREE from 'three';

const material = (color) => new THREE.MeshStandardMaterial({ color, roughness: 0.8, metalness: 0.0, transparent: true, opacity: 0.9 });

export function colliderMesh(def, color = 0x5d7fa3) {
  switch (def.type) {
    case 'sphere': return new THREE.Mesh(new THREE.SphereGeometry(def.radius, 32, 16), material(color));
    case 'capsule': return new THREE.Mesh(new THREE.CapsuleGeometry(def.radius, 2 * def.halfHeight, 8, 24), material(color));
    case 'box': {
      const e = def.halfExtents;
      return new THREE.Mesh(new THREE.BoxGeometry(2 * e[0], 2 * e[1], 2 * e[2]), material(color));
    }
    case 'plane': {
      const group = new THREE.Group();
      const grid = new THREE.GridHelper(20, 40, 0x3a4454, 0x2a313c);
      const floor = new THREE.Mesh(new THREE.PlaneGeometry(20, 20), new THREE.MeshStandardMaterial({ color: 0x222831, roughness: 1 }));
      floor.rotation.x = -Math.PI / 2;
      floor.position.y = -0.001;
      group.add(floor, grid);
      return group;
    }
    default: throw new Error(`unknown collider type ${def.type}`);
  }
}

/** Sets mesh pose from [x,y,z] and [qx,qy,qz,qw]. */
export function placeMesh(mesh, position, rotation = [0, 0, 0, 1]) {
  mesh.position.set(position[0], position[1], position[2]);
  mesh.quaternion.set(rotation[0], rotation[1], rotation[2], rotation[3]);
}
