// The world's GUI parameters, shared by every scene (each scene adds its own). A spec that drives
// a solver parameter names it: `field` is "Struct.member" of core/src/snapshot/fields.h (or a
// list of them), and `toField` converts the slider's value when its unit differs (`field: null`: a
// scene control that only shares a solver parameter's name);
// tests/js/gui-params.test.mjs checks that the field exists and the slider's range validates.
export const cores = globalThis.navigator?.hardwareConcurrency || 1;
const threadOptions = { auto: 0 };
for (let n = 1; n <= Math.min(cores, 4); n++) threadOptions[String(n)] = n;
export const worldParams = {
  gravityX: { field: 'WorldSettings.gravity', value: 0, min: -20, max: 20, step: 0.01, label: 'gravity x (m/s²)', tip: 'Gravity, x component (m/s²). Any direction works: point it up for anti-gravity.' },
  gravityY: { field: 'WorldSettings.gravity', value: -9.81, min: -20, max: 20, step: 0.01, label: 'gravity y (m/s²)', tip: 'Gravity, y component (m/s²); Earth is −9.81, y is up.' },
  gravityZ: { field: 'WorldSettings.gravity', value: 0, min: -20, max: 20, step: 0.01, label: 'gravity z (m/s²)', tip: 'Gravity, z component (m/s²).' },
  windAzimuth: { field: 'WindSettings.direction', value: 0, min: -180, max: 180, step: 1, label: 'wind direction (°)', tip: 'Direction the wind blows toward, in the ground plane (°): 0 = +x, 90 = +z.' },
  windSpeed: { field: 'WindSettings.speed', value: 0, min: 0, max: 20, step: 0.1, label: 'wind speed (m/s)', tip: 'Mean air speed (m/s). Ropes and chains feel it through drag, cloth through aerodynamic drag and lift.' },
  turbulence: { field: 'WindSettings.turbulence', value: 0, min: 0, max: 2, step: 0.01, label: 'turbulence', tip: 'Gust strength as a fraction of the wind speed (seeded value noise: the same every run).' },
  collisions: { field: 'WorldSettings.collisions', value: true, label: 'collisions', tip: 'Master switch for every collider contact.' },
  friction: { field: 'ColliderDef.friction', value: 0.3, min: 0, max: 2, step: 0.01, label: 'friction', tip: 'Coulomb friction coefficient of the colliders (dimensionless): tangential motion is cut by up to μ × the push-out.' },
  substeps: { field: 'WorldSettings.substeps', value: 8, min: 1, max: 64, step: 1, label: 'substeps', tip: 'Substeps per fixed 1/60 s step. Small steps make constraints stiffer and contacts smoother (Macklin et al. 2019); cost grows linearly.' },
  iterations: { field: 'WorldSettings.iterations', value: 1, min: 1, max: 16, step: 1, label: 'iterations', tip: 'Constraint passes per substep. With XPBD, more substeps beat more iterations for the same cost.' },
  threads: { field: 'WorldSettings.threads', value: 0, options: threadOptions, label: 'threads', tip: `Worker threads for the step (this machine has ${cores}). auto = all; worlds under 2,048 particles run on one thread because waking workers costs more than it saves.` },
  paused: { value: false, label: 'paused', tip: 'Stops the simulation; the camera still moves.' },
};

