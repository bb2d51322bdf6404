// Scene registry: each scene is { name, title, description, params, worldDefaults?, camera?,
// create(ctx), apply(state, params), update(state, time, dt, params), afterStep?(state, params, dt),
// dispose(state) }. ctx (main.js) also hands over the camera and its OrbitControls (the character
// scene follows its character with them).
import rope from './rope.js';
import curtain from './curtain.js';
import flag from './flag.js';
import character from './character/index.js';
import crowd from './crowd.js';
import tablecloth from './tablecloth.js';
import compare from './compare.js';
import ponytail from './ponytail.js';
import wig from './wig.js';
import solvers from './solvers.js';
import lab from './lab.js';
import framerate from './framerate.js';

export const scenes = [rope, curtain, flag, character, crowd, tablecloth, compare, ponytail, wig, solvers, lab, framerate];
