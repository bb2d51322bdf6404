// Cloth parameters shared by the cloth scenes, and how they map onto ClothParams.
export const clothParamSpecs = {
  stretchCompliance: { value: 0, min: 0, max: 0.01, step: 0.0001, label: 'stretch compliance (m/N)' },
  shearCompliance: { value: 0.0001, min: 0, max: 0.01, step: 0.0001, label: 'shear compliance (m/N)' },
  bendCompliance: { value: 0.001, min: 0.00001, max: 1, step: 0.00001, label: 'bend compliance (1/J)' },
  tethers: { value: true, label: 'tethers' },
  tetherSlack: { value: 0, min: 0, max: 0.3, step: 0.01, label: 'tether slack (fraction of length)' },
  tetherCompliance: { value: 0, min: 0, max: 0.1, step: 0.001, label: 'tether compliance (m/N)' },
  damping: { value: 0.2, min: 0, max: 5, step: 0.01, label: 'damping (1/s)' },
  dragCoefficient: { value: 1, min: 0, max: 3, step: 0.01, label: 'aero drag' },
  liftCoefficient: { value: 0.3, min: 0, max: 2, step: 0.01, label: 'aero lift' },
  thickness: { value: 0.01, min: 0.002, max: 0.05, step: 0.001, label: 'collision thickness (m)' },
  selfCollision: { value: false, label: 'self-collision (2 × thickness apart)' },
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
