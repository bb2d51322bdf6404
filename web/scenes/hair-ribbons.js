// Hair drawn as camera-facing ribbons with Kajiya-Kay shading (Kajiya & Kay 1989: a hair is a thin
// cylinder, lit by its tangent T, not by a surface normal: diffuse sin(T, L), specular
// sin(T, H)^p, plus a second, shifted and tinted highlight as in Scheuermann 2004). One mesh for
// every strand; per frame only the joint positions and tangents are written (no allocation).
import * as THREE from 'three';

const vertexShader = /* glsl */ `
  attribute vec3 tangent3;
  attribute float side;
  attribute float along;      // 0 at the root, 1 at the tip
  attribute vec3 strandColor;
  uniform float width;
  varying vec3 vT;
  varying vec3 vView;
  varying float vAlong;
  varying vec3 vColor;
  #include <fog_pars_vertex>
  void main() {
    vec3 T = normalize(tangent3);
    vec4 world = modelMatrix * vec4(position, 1.0);
    vec3 toEye = normalize(cameraPosition - world.xyz);
    vec3 across = normalize(cross(T, toEye) + 1e-6);
    world.xyz += across * side * width * (1.0 - 0.7 * along);
    vT = T;
    vView = toEye;
    vAlong = along;
    vColor = strandColor;
    vec4 mvPosition = viewMatrix * world;
    gl_Position = projectionMatrix * mvPosition;
    #include <fog_vertex>
  }`;

const fragmentShader = /* glsl */ `
  uniform vec3 lightDir;
  uniform vec3 ambient;
  varying vec3 vT;
  varying vec3 vView;
  varying float vAlong;
  varying vec3 vColor;
  #include <fog_pars_fragment>
  float sinTH(vec3 T, vec3 H) { float c = dot(T, H); return sqrt(max(0.0, 1.0 - c * c)); }
  void main() {
    vec3 T = normalize(vT), L = normalize(lightDir), V = normalize(vView);
    vec3 H = normalize(L + V);
    vec3 base = vColor * mix(0.45, 1.0, vAlong);             // darker toward the root
    float diffuse = mix(0.25, 1.0, sinTH(T, L));
    float spec1 = pow(sinTH(T + 0.08 * V, H), 80.0);          // primary, shifted toward the tip
    float spec2 = pow(sinTH(T - 0.12 * V, H), 20.0) * 0.35;   // secondary, wider and tinted
    vec3 color = base * (ambient + diffuse) + vec3(spec1 * 0.55) + base * spec2;
    gl_FragColor = vec4(color, 1.0);
    #include <tonemapping_fragment>
    #include <colorspace_fragment>
    #include <fog_fragment>
  }`;

export class HairRibbons extends THREE.Mesh {
  /** strands × joints joint positions; colors: THREE.Color per strand; width: half width at the root (m). */
  constructor(strands, joints, colors, { width = 0.004, lightDir = [3, 6, 4] } = {}) {
    const verts = strands * joints * 2;
    const geometry = new THREE.BufferGeometry();
    const attr = (n, usage) => new THREE.BufferAttribute(new Float32Array(verts * n), n).setUsage(usage);
    geometry.setAttribute('position', attr(3, THREE.DynamicDrawUsage));
    geometry.setAttribute('tangent3', attr(3, THREE.DynamicDrawUsage));
    geometry.setAttribute('side', attr(1, THREE.StaticDrawUsage));
    geometry.setAttribute('along', attr(1, THREE.StaticDrawUsage));
    geometry.setAttribute('strandColor', attr(3, THREE.StaticDrawUsage));
    const index = [];
    for (let s = 0; s < strands; s++) {
      for (let j = 0; j < joints; j++) {
        const v = 2 * (s * joints + j);
        geometry.attributes.side.array[v] = -1; geometry.attributes.side.array[v + 1] = 1;
        geometry.attributes.along.array[v] = geometry.attributes.along.array[v + 1] = j / (joints - 1);
        for (const k of [v, v + 1]) geometry.attributes.strandColor.array.set([colors[s].r, colors[s].g, colors[s].b], 3 * k);
        if (j + 1 < joints) index.push(v, v + 1, v + 2, v + 1, v + 3, v + 2);
      }
    }
    geometry.setIndex(index);
    const material = new THREE.ShaderMaterial({
      vertexShader, fragmentShader, side: THREE.DoubleSide, fog: true,
      uniforms: THREE.UniformsUtils.merge([THREE.UniformsLib.fog, {
        width: { value: width }, lightDir: { value: new THREE.Vector3(...lightDir) }, ambient: { value: new THREE.Color(0.25, 0.25, 0.3) },
      }]),
    });
    super(geometry, material);
    this.strands = strands;
    this.joints = joints;
    this.frustumCulled = false;
  }

  /** positionsOf(s): the strand's joint positions (x y z per joint, e.g. a chain's view). */
  update(positionsOf) {
    const pos = this.geometry.attributes.position.array, tan = this.geometry.attributes.tangent3.array, J = this.joints;
    for (let s = 0; s < this.strands; s++) {
      const p = positionsOf(s);
      for (let j = 0; j < J; j++) {
        const a = Math.max(0, j - 1), b = Math.min(J - 1, j + 1);
        const tx = p[3 * b] - p[3 * a], ty = p[3 * b + 1] - p[3 * a + 1], tz = p[3 * b + 2] - p[3 * a + 2];
        const o = 6 * (s * J + j);
        pos[o] = pos[o + 3] = p[3 * j]; pos[o + 1] = pos[o + 4] = p[3 * j + 1]; pos[o + 2] = pos[o + 5] = p[3 * j + 2];
        tan[o] = tan[o + 3] = tx; tan[o + 1] = tan[o + 4] = ty; tan[o + 2] = tan[o + 5] = tz;
      }
    }
    this.geometry.attributes.position.needsUpdate = true;
    this.geometry.attributes.tangent3.needsUpdate = true;
  }

  dispose() {
    this.geometry.dispose();
    this.material.dispose();
  }
}
