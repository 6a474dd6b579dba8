/**
 * 0014: the trace context an outbox event carries to its deliveries (core events/trace-parent.ts):
 * `trace_parent`, the W3C `traceparent` of the span that appended the event, on `outbox_events`,
 * copied at fan-out to each of its `deliveries`, whose attempts are traced under it.
 *
 * Nullable, without a default: NULL when traces are not exported (and for deliveries queued
 * before this migration, or redelivered by hand). Adding such a column rewrites no row and takes
 * its lock for an instant. No CHECK: the worker parses the text and starts a trace of its own
 * when it is not a `traceparent`, so a bad value only takes the attempts out of the request's
 * trace, never stops a delivery.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`ALTER TABLE outbox_events ADD COLUMN trace_parent text`
  yield* sql`ALTER TABLE deliveries ADD COLUMN trace_parent text`
})

export default migration
