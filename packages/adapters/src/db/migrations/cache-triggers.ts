/**
 * The row triggers that announce a change to the processes' caches (`cache_notify`, migration
 * 0017): one per table, named `<table>_<name>`, firing on `events` with `args` (what to forget,
 * then the columns naming which).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

/** A table, the events announced, and `cache_notify`'s arguments (quoted SQL literals). */
export type CacheTrigger = readonly [table: string, events: string, args: string]

/** Creates the triggers `<table>_<name>` calling `cache_notify` (migration 0017's function). */
export const createCacheTriggers = (
  name: string,
  triggers: ReadonlyArray<CacheTrigger>
): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (const [table, events, args] of triggers) {
      yield* sql.unsafe(`
        CREATE TRIGGER ${table}_${name} AFTER ${events} ON ${table}
        FOR EACH ROW EXECUTE FUNCTION cache_notify(${args})
      `)
    }
  })
