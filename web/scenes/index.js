// Scene registry: each scene is { name, title, description, params, worldDefaults?, camera?,
// create(ctx), apply(state, params), update(state, time, dt), dispose(state) }.
import rope from './rope.js';
import curtain from './curtain.js';

export const scenes = [rope, curtain];
