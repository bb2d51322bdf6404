// A flag on a pole in gusty wind: aerodynamic drag and lift on every triangle make it flap.
import { clothParamSpecs, clothParams } from './cloth-common.js';
import { gridUVs } from '../adapters/cloth-mesh.js';

// A blue field with a white band and a gold ring, drawn on a canvas (no image to load), so the
// flag's folds and its orientation read at a glance.
function flagMaterial(THREE) {
  const canvas = document.createElement('canvas');
  canvas.width = 384; canvas.height = 256;
  const g = canvas.getContext('2d');
  g.fillStyle = '#2f6fd6'; g.fillRect(0, 0, 384, 256);
  g.fillStyle = '#f4f1e8'; g.fillRect(0, 104, 384, 48);
  g.strokeStyle = '#f2b134'; g.lineWidth = 18;
  g.beginPath(); g.arc(120, 128, 70, 0, 2 * Math.PI); g.stroke();
  const map = new THREE.CanvasTexture(canvas);
  map.colorSpace = THREE.SRGBColorSpace;
  map.anisotropy = 4;
  return new THREE.MeshStandardMaterial({ map, roughness: 0.85, side: THREE.DoubleSide });
}

export default {
  name: 'flag',
  title: 'Flag',
  description: 'A flag in gusty wind. It flaps from aerodynamic drag and lift on each triangle; turn the wind, add turbulence, change the lift.',
  camera: { position: [1.2, 2.0, 4.2], target: [0.8, 2.0, 0] },
  worldDefaults: { windSpeed: 8, turbulence: 0.35, windAzimuth: 0 },
  params: {
    resolution: { value: 30, min: 4, max: 80, step: 1, label: 'resolution (quads)', rebuild: true, tip: 'Quads along the flag\'s width (rebuilds the scene); the height follows.' },
    ...clothParamSpecs,
  },
  create(ctx) {
    const { world, params } = ctx;
    ctx.addCollider({ type: 'plane', position: [0, 0, 0] });
    ctx.addCollider({ type: 'capsule', radius: 0.04, halfHeight: 1.4, position: [0, 1.4, 0] });
    const rx = params.resolution, ry = Math.max(2, Math.round(params.resolution * 2 / 3));
    const pinned = [];
    for (let j = 0; j <= ry; j++) pinned.push(j * (rx + 1));
    const flag = world.addCloth({
      grid: { width: 1.5, height: 1.0, resolutionX: rx, resolutionY: ry, position: [0.05, 2.7, 0] },
      pinned, ...clothParams(params),
    });
    ctx.addCloth(flag, { uv: gridUVs(rx, ry), material: flagMaterial(ctx.three) });
    return { cloths: [flag] };
  },
  apply(state, params) {
    for (const c of state.cloths) c.set(clothParams(params));
  },
};
