/**
 * The NOTIFY contract of an outbox on PostgreSQL: a `PgClient.listen` subscriber of the outbox
 * channel hears about appended events when their transaction commits.
 */
import { assert, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Transactor } from "@wasl/core/Deployment"
import { Outbox } from "@wasl/core/Events"
import { Duration, Effect, type Layer, Option, Queue } from "effect"
import { OUTBOX_CHANNEL } from "../pg/outbox-pg.ts"
import { contactCreated, newAccount, type OutboxContractServices } from "./outbox-contract.ts"

/**
 * `NOTIFY wasl_outbox`: on a database, a `PgClient.listen` subscriber hears about appended events
 * when their transaction commits, never before and never for a rolled-back one; `release` wakes it
 * too.
 */
export const outboxNotifyContract = <E>(
  name: string,
  implementation: Layer.Layer<OutboxContractServices | PgClient.PgClient, E>
): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("NOTIFY wasl_outbox reaches a listener after commit, not before, not after rollback", () =>
      Effect.gen(function*() {
        const pg = yield* PgClient.PgClient
        const outbox = yield* Outbox
        const transactor = yield* Transactor
        const accountId = yield* newAccount
        const queue = yield* pg.listen(OUTBOX_CHANNEL)
        const quiet = Effect.andThen(Effect.sleep(Duration.millis(300)), Queue.poll(queue))
        const next = Queue.take(queue).pipe(Effect.timeout(Duration.seconds(5)))

        // Rolled back: nothing.
        yield* transactor.transaction(Effect.andThen(outbox.append([contactCreated(accountId, 1)]), Effect.fail("no")))
          .pipe(Effect.ignore)
        assert.isTrue(Option.isNone(yield* quiet))

        // Committed: one notification per transaction, and only at the commit.
        yield* transactor.transaction(Effect.gen(function*() {
          yield* outbox.append([contactCreated(accountId, 2)])
          yield* outbox.append([contactCreated(accountId, 3), contactCreated(accountId, 4)])
          assert.isTrue(Option.isNone(yield* quiet), "not before the commit")
        }))
        const notification = yield* next
        assert.strictEqual(notification.channel, OUTBOX_CHANNEL)
        assert.strictEqual(notification.payload, "")
        assert.isTrue(Option.isNone(yield* quiet))

        // Outside a transaction: at once.
        yield* outbox.append([contactCreated(accountId, 5)])
        yield* next

        // A release wakes the listeners; a claim or a complete does not.
        const claimed = yield* outbox.claim(100, Duration.hours(1))
        assert.strictEqual(claimed.length, 4)
        assert.isTrue(Option.isNone(yield* quiet))
        yield* outbox.release(claimed.slice(0, 1))
        yield* next
        yield* outbox.complete(claimed)
        assert.isTrue(Option.isNone(yield* quiet))
      }).pipe(Effect.scoped))
  })
