/**
 * `ReadReplicasPg`'s routing on PostgreSQL, without a standby: a server that is no standby is
 * never caught up (`pg_last_wal_replay_lsn()` is null there), so reads stay on the primary; a read
 * in a transaction stays on its connection without asking any standby; one that says it does not
 * need the transaction's view goes to the standbys all the same, and one that does not answer costs
 * at most the probe's bound, then rests. The standby itself is `test/read-replicas.test.ts`'s.
 */
import { afterAll, assert, describe, layer } from "@effect/vitest"
import * as Net from "node:net"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { postgresTestEnabled, TestDatabase, testPostgresUrl } from "../../src/db/test-database.ts"
import { ReadReplicas, ReadReplicasPg } from "../../src/pg/read-replicas.ts"

/**
 * A standby that never answers: a port that accepts connections and says nothing, so a probe of
 * it waits its whole bound (a refused connection would fail at once, and time tell nothing).
 */
const silent = Net.createServer(() => {})
await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
afterAll(() => void silent.close())
const SILENT = `postgres://postgres@127.0.0.1:${(silent.address() as Net.AddressInfo).port}/postgres`

/** Whether the read was given the primary's client. */
const onPrimary = Effect.gen(function*() {
  const primary = yield* SqlClient.SqlClient
  return (client: SqlClient.SqlClient) => Effect.succeed(client === primary)
})

describe.runIf(postgresTestEnabled())("ReadReplicasPg on PostgreSQL", () => {
  layer(
    ReadReplicasPg([testPostgresUrl()!], { probeTimeout: "2 seconds" }).pipe(Layer.provideMerge(TestDatabase.postgres)),
    { excludeTestServices: true }
  )("with a server that is no standby", (it) => {
    it.effect("reads on the primary: the server never says it has replayed the primary's WAL", () =>
      Effect.gen(function*() {
        const replicas = yield* ReadReplicas
        assert.isTrue(yield* replicas.read(yield* onPrimary))
      }))
  })

  layer(
    ReadReplicasPg([SILENT], { probeTimeout: "1 second", restFor: "1 minute" }).pipe(Layer.provideMerge(TestDatabase.postgres)),
    { excludeTestServices: true }
  )("with a standby that does not answer", (it) => {
    it.effect("a read in a transaction stays on its connection without asking the standby", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const replicas = yield* ReadReplicas
        const started = Date.now()
        const inTransaction = yield* sql.withTransaction(
          replicas.read((client) => Effect.map(client<{ readonly open: boolean }>`SELECT now() = statement_timestamp() AS open`, (rows) => !rows[0]!.open))
        )
        // now() is the transaction's start, so differs from the statement's time inside one.
        assert.isTrue(inTransaction)
        // Not the probe's second: the standby was not asked.
        assert.isBelow(Date.now() - started, 500)
      }))

    it.effect("a read apart from its transaction asks the standby, and falls back to the primary within the probe's bound", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const replicas = yield* ReadReplicas
        const run = yield* onPrimary
        const started = Date.now()
        assert.isTrue(yield* sql.withTransaction(replicas.read(run, { apartFromTransaction: true })))
        const waited = Date.now() - started
        assert.isAtLeast(waited, 900)
        assert.isBelow(waited, 3_000)
        // Resting now: the next read goes to the primary at once.
        const again = Date.now()
        assert.isTrue(yield* replicas.read(run))
        assert.isBelow(Date.now() - again, 500)
      }))
  })
})
