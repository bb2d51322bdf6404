// Meshes that show Wisp colliders, built from the same definition the solver gets. A tapered
// capsule (radiusTop != radius) is drawn as the solver sees it: the hull of its two end spheres.
import * as THREE from 'three';

const material = (color, wireframe) => new THREE.MeshStandardMaterial({ color, roughness: 0.8, metalness: 0.0, transparent: true, opacity: 0.9, wireframe });

/**
 * The hull of a sphere of `radiusBottom` at y = -halfHeight and one of `radiusTop` at +halfHeight
 * (a capsule when the radii are equal): a lathe of the two end arcs joined along their common
 * tangent, which touches both at the angle phi with sin(phi) = (radiusBottom - radiusTop) / (2 halfHeight).
 */
export function taperedCapsuleGeometry(radiusBottom, radiusTop, halfHeight, { segments = 24, arcSegments = 8 } = {}) {
  const h = halfHeight;
  if (Math.abs(radiusBottom - radiusTop) >= 2 * h) {
    // one end sphere holds the other: the hull is the larger sphere
    const big = radiusBottom >= radiusTop;
    return new THREE.SphereGeometry(big ? radiusBottom : radiusTop, segments, arcSegments * 2).translate(0, big ? -h : h, 0);
  }
  const phi = Math.asin((radiusBottom - radiusTop) / (2 * h));
  const points = [];
  for (let i = 0; i <= arcSegments; i++) {
    const a = -Math.PI / 2 + (phi + Math.PI / 2) * (i / arcSegments);
    points.push(new THREE.Vector2(radiusBottom * Math.cos(a), -h + radiusBottom * Math.sin(a)));
  }
  for (let i = 0; i <= arcSegments; i++) {
    const a = phi + (Math.PI / 2 - phi) * (i / arcSegments);
    points.push(new THREE.Vector2(radiusTop * Math.cos(a), h + radiusTop * Math.sin(a)));
  }
  points[0].x = 0;                      // close the poles exactly
  points[points.length - 1].x = 0;
  return new THREE.LatheGeometry(points, segments);
}

/** A mesh for a ColliderDef (sphere, capsule incl. tapered, box, plane as a floor with a grid). */
export function colliderMesh(def, color = 0x5d7fa3, { wireframe = false } = {}) {
  switch (def.type) {
    case 'sphere': return new THREE.Mesh(new THREE.SphereGeometry(def.radius, 32, 16), material(color, wireframe));
    case 'capsule': {
      const top = def.radiusTop ?? def.radius;
      const geometry = top === def.radius
        ? new THREE.CapsuleGeometry(def.radius, 2 * def.halfHeight, 8, 24)
        : taperedCapsuleGeometry(def.radius, top, def.halfHeight);
      return new THREE.Mesh(geometry, material(color, wireframe));
    }
    case 'box': {
      const e = def.halfExtents;
      return new THREE.Mesh(new THREE.BoxGeometry(2 * e[0], 2 * e[1], 2 * e[2]), material(color, wireframe));
    }
    case 'plane': {
      const group = new THREE.Group();
      const grid = new THREE.GridHelper(20, 40, 0x3a4454, 0x2a313c);
      const floor = new THREE.Mesh(new THREE.PlaneGeometry(20, 20), new THREE.MeshStandardMaterial({ color: 0x222831, roughness: 1, wireframe }));
      floor.rotation.x = -Math.PI / 2;
      floor.position.y = -0.001;
      group.add(floor, grid);
      return group;
    }
    default: throw new TypeError(`unknown collider type ${def.type}`);
  }
}

/** Sets mesh pose from [x,y,z] and [qx,qy,qz,qw]. */
export function placeMesh(mesh, position, rotation = [0, 0, 0, 1]) {
  mesh.position.set(position[0], position[1], position[2]);
  mesh.quaternion.set(rotation[0], rotation[1], rotation[2], rotation[3]);
}
