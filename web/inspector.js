// The particle inspector: alt-click (or tap in inspect mode) a rope or cloth point to see its
// position, velocity, inverse mass, whether it is pinned, and the strain of every constraint
// touching it (rope segments against their rest lengths; cloth edges against the cloth as built).
import { pointDistance } from './teaching/measures.js';

const f3 = (v, d = 3) => `(${v[0].toFixed(d)}, ${v[1].toFixed(d)}, ${v[2].toFixed(d)})`;

function strain(p, a, b, rest) {
  const d = pointDistance(p, a, b);
  return `${d / rest >= 1 ? '+' : ''}${(100 * (d / rest - 1)).toFixed(3)} %`;
}

/** target: { body, particle, kind: 'rope' | 'cloth', rest?: Float32Array (cloth positions as built) } */
export function inspectText(target) {
  const { body, particle: i, kind } = target;
  if (body.disposed || i >= body.count) return '';
  const s = body.particle(i), p = body.positions;
  let text = `${kind} particle ${i}\n` +
    `position ${f3(s.position)} m\n` +
    `velocity ${f3(s.velocity)} m/s, |v| ${Math.hypot(...s.velocity).toFixed(3)}\n` +
    `invMass  ${s.invMass.toPrecision(4)} 1/kg${s.pinned ? ', pinned' : ''}`;
  if (kind === 'rope') {
    for (const seg of [i - 1, i]) {
      if (seg < 0 || seg + 1 >= body.count) continue;
      text += `\nsegment ${seg}-${seg + 1}  strain ${strain(p, seg, seg + 1, body.restLength(seg))}`;
    }
  } else if (target.rest) {
    const idx = body.indices, r = target.rest, seen = new Set();
    for (let t = 0; t < idx.length; t += 3) {
      for (let e = 0; e < 3; e++) {
        const a = idx[t + e], b = idx[t + ((e + 1) % 3)];
        if ((a !== i && b !== i) || seen.has(a === i ? b : a)) continue;
        const j = a === i ? b : a;
        seen.add(j);
        const rest = pointDistance(r, i, j);
        text += `\nedge ${i}-${j}  strain ${strain(p, i, j, rest)}`;
      }
    }
  }
  return text;
}
