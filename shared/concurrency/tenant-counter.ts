// Work in hand in this process, counted per tenant (an organization, an account): a share of a per-process resource
// (worker slots, an inspection gate) that one tenant may hold at once, so it cannot take all of it.
export class TenantCounter {
  private readonly inHand = new Map<string, number>();

  /** Takes one of the tenant's places; undefined when it has `limit` in hand. Call the result once, to leave. */
  enter(tenantId: string, limit: number): (() => void) | undefined {
    const now = this.inHand.get(tenantId) ?? 0;
    if (now >= limit) return undefined;
    this.inHand.set(tenantId, now + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const after = (this.inHand.get(tenantId) ?? 1) - 1;
      if (after > 0) this.inHand.set(tenantId, after);
      else this.inHand.delete(tenantId);
    };
  }
}
