// The command line of the A/B benchmarks (bench/ab.mjs, bench/instructions.mjs): options as
// `--name value` (the names in `valued`) or bare flags, and the other words, the checkouts, in
// order. opt(name, dflt): the value after --name, else dflt.
export function commandLine(args, valued) {
  const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
  const positional = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && valued.includes(args[i - 1])));
  return { opt, positional };
}
