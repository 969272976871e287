// Where a worker thread's module is, and the flags its thread needs. Under tsx (development, tests) the thread loads
// the TypeScript source and needs tsx's loader: a process started by tsx passes it on to its threads, one that was
// not (jest) gets it here. Built, the module is plain JavaScript beside its caller.
export type ThreadModule = { filename: string; execArgv?: string[] };

export function threadModule(name: string, callerUrl: string): ThreadModule {
  const fromSources = callerUrl.endsWith('.ts');
  const filename = new URL(`./${name}${fromSources ? '.ts' : '.js'}`, callerUrl).href;
  const hasTsxLoader = process.execArgv.some((arg) => arg.includes('tsx'));
  if (!fromSources || hasTsxLoader) return { filename };
  return { filename, execArgv: [...process.execArgv, '--import', 'tsx'] };
}
