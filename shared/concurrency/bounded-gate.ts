// At most `running` calls at once in this process, at most `waiting` more in line, the rest refused at once: for work
// whose memory grows with how many run together (a skill bundle read into memory and inflated), so that concurrent
// callers cannot add it up without bound. The line is first come, first served.
export class BoundedGate {
  private active = 0;
  private readonly line: (() => void)[] = [];

  constructor(
    private readonly limits: { running: number; waiting: number },
    private readonly refusal: () => Error,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limits.running) {
      if (this.line.length >= this.limits.waiting) throw this.refusal();
      await new Promise<void>((resolve) => this.line.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line (active stays counted), or is freed.
      const next = this.line.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** Calls running and waiting now (for tests and metrics). */
  get load(): { running: number; waiting: number } {
    return { running: this.active, waiting: this.line.length };
  }
}
