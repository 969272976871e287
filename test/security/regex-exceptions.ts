// biome-ignore-all lint/suspicious/noTemplateCurlyInString: an exception quotes the RegExp construction as written.
// The reviewed exceptions of the regex sweep (regex-safety.test.ts): a RegExp built from a non-literal source, which
// the analyser cannot read from the source text, and a pattern the analyser calls vulnerable that only ever sees our
// own text. Each names its file, the expression as written, and why it may stay; a new one fails the sweep until it
// is reviewed and listed here.

export type RegexException = {
  file: string;
  /** The expression exactly as written (the regex literal, or the whole `new RegExp(...)`). */
  text: string;
  reason: string;
  /** For a construction: the patterns it builds today, which the sweep analyses too. */
  built?: () => Promise<RegExp[]>;
};

export const reviewedExceptions: RegexException[] = [
  {
    file: 'api/http/route-family.ts',
    text: "new RegExp(`^${prefix.replace(/\\./g, '\\\\.').replace(/:\\w+/g, '[^/]+')}(/|$)`, 'i')",
    reason:
      'built from the mount prefixes declared in api/routes/areas.ts (our constants): an anchored literal path whose ' +
      'parameters are [^/]+ between literal slashes; the patterns it builds are analysed below',
    built: async () => (await import('../../api/http/route-family.js')).prefixTable().map((p) => p.pattern),
  },
  {
    file: 'shared/wallet/wallet-sweep.ts',
    text: 'new RegExp(`^${escaped(kp)}:\\\\{o:([^}]+)\\\\}:(w|hx|l)$`)',
    reason:
      'built from REDIS_PREFIX (configuration, escaped) and applied only to keys a SCAN of our own prefix returns, ' +
      'which our code wrote; the shape for a sample prefix is analysed below',
    built: async () => [(await import('../../shared/wallet/wallet-sweep.js')).walletKeyShape('ockhub:test')],
  },
  {
    file: 'shared/redis/tagged-key-move.ts',
    text: '/^.*:quota:\\{([0-9a-f-]{36})\\}:(d|m|rpm|settings)(?::(.+))?$/',
    reason:
      'applied only to keys a SCAN of our own `<prefix>:quota:{*` returns, which our code wrote (prefix, project id, ' +
      'kind, a day), once, in the release step that moves them; the attack needs one key repeating `:quota:{…}:` ' +
      'thousands of times before a line break',
  },
  {
    file: 'scripts/simulated-provider/provider-error.ts',
    text: '/^Bearer\\s+(.+)$/i',
    reason:
      'the simulated provider, for development and tests only (never in production, SPEC section 3), reads the ' +
      'Authorization header our own gateway sends; anchored at the start, it is super-linear only on a line break ' +
      "inside the value, which Node's HTTP parser refuses in any header",
  },
];

export const isExcepted = (found: { file: string; text: string }) =>
  reviewedExceptions.some((e) => e.file === found.file && e.text === found.text);
