// Cloth parameters shared by the cloth scenes, and how they map onto ClothParams.
export const clothParamSpecs = {
  stretchCompliance: { field: 'ClothParams.stretchCompliance', value: 0, min: 0, max: 0.01, step: 0.0001, label: 'stretch compliance (m/N)', tip: 'Inverse stiffness of the structural edges (XPBD α, m/N). 0 = inextensible; larger values let the cloth stretch under load.' },
  shearCompliance: { field: 'ClothParams.shearCompliance', value: 0.0001, min: 0, max: 0.01, step: 0.0001, label: 'shear compliance (m/N)', tip: 'Inverse stiffness of the grid diagonals (m/N): how easily a square skews into a diamond.' },
  bendCompliance: { field: 'ClothParams.bendCompliance', value: 0.001, min: 0.00001, max: 1, step: 0.00001, label: 'bend compliance (1/J)', tip: 'Inverse bending stiffness across every interior edge (1/J): small = stiff card, large = silk.' },
  tethers: { field: 'ClothParams.tethers', value: true, label: 'tethers', tip: 'Long-range attachments: each particle may not get further from its pin than the shortest path along the cloth. Stops long cloth stretching at low substep counts.' },
  tetherSlack: { field: 'ClothParams.tetherSlack', value: 0, min: 0, max: 0.3, step: 0.01, label: 'tether slack (fraction of length)', tip: 'How much longer than the shortest rest path a tether allows (fraction: 0.1 = 10 %).' },
  tetherCompliance: { field: 'ClothParams.tetherCompliance', value: 0, min: 0, max: 0.1, step: 0.001, label: 'tether compliance (m/N)', tip: 'Inverse stiffness of the tethers (m/N). 0 = a hard limit; larger = tethers give under load.' },
  damping: { field: 'ClothParams.damping', value: 0.2, min: 0, max: 5, step: 0.01, label: 'damping (1/s)', tip: 'Velocity decay rate (1/s): dv/dt = −damping·v. Independent of the frame rate.' },
  dragCoefficient: { field: 'ClothParams.dragCoefficient', value: 1, min: 0, max: 3, step: 0.01, label: 'aero drag', tip: 'Aerodynamic drag coefficient (dimensionless) on the air speed normal to each triangle.' },
  liftCoefficient: { field: 'ClothParams.liftCoefficient', value: 0.3, min: 0, max: 2, step: 0.01, label: 'aero lift', tip: 'Aerodynamic lift coefficient (dimensionless): sideways force of air sliding over a tilted triangle.' },
  thickness: { field: 'ClothParams.radius', value: 0.01, min: 0.002, max: 0.05, step: 0.001, label: 'collision thickness (m)', tip: 'Collision radius of each vertex (m): how far the cloth stays from colliders.' },
  selfCollision: { field: 'ClothParams.selfCollision', value: false, label: 'self-collision (2 × thickness apart)', tip: 'Vertices keep 2 × thickness apart from each other (costs a spatial hash per step).' },
};

export function clothParams(p) {
  return {
    stretchCompliance: p.stretchCompliance,
    shearCompliance: p.shearCompliance,
    bendCompliance: p.bendCompliance,
    tethers: p.tethers,
    tetherSlack: p.tetherSlack,
    tetherCompliance: p.tetherCompliance,
    damping: p.damping,
    dragCoefficient: p.dragCoefficient,
    liftCoefficient: p.liftCoefficient,
    radius: p.thickness,
    selfCollision: p.selfCollision,
  };
}
