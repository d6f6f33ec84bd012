// Command-line arguments shared by the benchmark scripts.

/** `--key value` pairs over `defaults` (numbers stay numbers); unknown keys are an error. */
export function parseArgs(argv, defaults) {
  const args = { ...defaults };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in args)) {
      const usage = Object.keys(defaults).map((k) => `--${k} ${defaults[k]}`).join(' ');
      throw new Error(`unknown argument ${argv[i]}; usage: ${usage}`);
    }
    args[key] = typeof defaults[key] === 'number' ? Number(argv[i + 1]) : argv[i + 1];
  }
  return args;
}

/** `1-10` or `1,4,9` as a list of seeds. */
export function seedList(text) {
  const m = String(text).match(/^(\d+)-(\d+)$/);
  if (!m) return String(text).split(',');
  return Array.from({ length: Number(m[2]) - Number(m[1]) + 1 }, (_, i) => String(Number(m[1]) + i));
}
