// install and favorite count once per client and item, ever: the flush moves the once-events stream to PostgreSQL in
// batches, one transaction inserting their rows (the primary key refuses a client's second event) and adding to the
// counters exactly the rows it inserted; the entries leave the stream only after the commit. Applied twice (a flush
// killed between commit and deletion), a batch inserts no row the second time, so it counts nothing twice.
import { sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { IntakeEvent } from './telemetry-intake.js';
import { telemetryKeys } from './telemetry-keys.js';

const BATCH = 1000;
type Row = Record<string, unknown>;

export async function writeOnceEvents(ctx: Pick<AppContext, 'db' | 'redis' | 'config'>): Promise<number> {
  const { once } = telemetryKeys(ctx.config.REDIS_PREFIX);
  let counted = 0;
  for (;;) {
    const entries = await ctx.redis.xrange(once, '-', '+', 'COUNT', BATCH);
    if (entries.length === 0) return counted;
    const events = entries.map(([, fields]) => JSON.parse(fields[1] ?? '{}') as IntakeEvent);
    counted += await ctx.db.transaction(async (tx) => {
      const values = sql.join(
        events.map((e) => sql`(${e.itemId}::uuid, ${e.eventType}, ${e.clientHash}, ${e.eventId}::uuid)`),
        sql`, `,
      );
      // An item deleted since its events were accepted is skipped rather than failing the whole batch.
      const { rows } = await tx.execute<Row>(sql`
        with inserted as (
          insert into telemetry_once_events (item_id, event_type, client_hash, event_id)
          select v.item_id, v.event_type, v.client_hash, v.event_id
            from (values ${values}) as v(item_id, event_type, client_hash, event_id)
           where exists (select 1 from catalog_items c where c.id = v.item_id)
          on conflict do nothing
          returning item_id, event_type
        ), totals as (
          select item_id,
                 count(*) filter (where event_type = 'install') as installs,
                 count(*) filter (where event_type = 'favorite') as favorites
            from inserted group by item_id
        )
        update catalog_items c
           set install_count = c.install_count + t.installs, favorite_count = c.favorite_count + t.favorites
          from totals t
         where c.id = t.item_id
        returning t.installs + t.favorites as n`);
      return rows.reduce((sum, r) => sum + Number(r.n), 0);
    });
    await ctx.redis.xdel(once, ...entries.map(([id]) => id));
  }
}
