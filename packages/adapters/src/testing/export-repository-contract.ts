/** The contract suite of `ExportRepository` and of the records scan exports read through (documented on `exportRepositoryContract`). */
import { assert, layer } from "@effect/vitest"
import { type AccountRepository } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import { ExportRepository, type NewExport, queuedExport } from "@wasl/core/Exports"
import {
  RecordRepository,
  type RecordListParams,
  type RecordScanBatch,
  type RecordWithDerived
} from "@wasl/core/Records"
import { Retention } from "@wasl/core/Retention"
import { DateTime, Duration, Effect, type Layer, Option, Stream } from "effect"
import { atTime, plusMillis } from "./otp-fixtures.ts"
import { condition, customProperty, freshId, freshIds, idsOf, listInput, newAccountId } from "./record-contract-support.ts"

/** What the layer under `exportRepositoryContract` provides. */
export type ExportRepositoryContractServices = ExportRepository | RecordRepository | AccountRepository | Retention | Transactor

const T0 = DateTime.makeUnsafe("2041-01-01T00:00:00.000Z")
const second = (n: number) => plusMillis(T0, n * 1000)
const LEASE = Duration.minutes(5)
/** Later than every export these tests write. */
const END_OF_TIME = DateTime.makeUnsafe("2300-01-01T00:00:00.000Z")

const repo = ExportRepository
const newExport = (accountId: number, createdAt: DateTime.Utc): NewExport => ({
  accountId,
  id: freshId(),
  userId: 1,
  kind: "deal",
  query: { order: "amount", complex_filters: "[{\"property\":\"amount\",\"operator\":\"gt\",\"value\":1}]" },
  columns: ["_id", "amount", "created_at", "updated_at"],
  createdAt
})
const claimAt = (now: DateTime.Utc) => repo.use((r) => r.claim(now, DateTime.addDuration(now, LEASE)))

/** Claims every export waiting (left by earlier tests on the same database) and fails it. */
const drain = Effect.gen(function*() {
  while (true) {
    const claimed = yield* claimAt(END_OF_TIME)
    if (Option.isNone(claimed)) return
    yield* repo.use((r) => r.fail(claimed.value.accountId, claimed.value.id, "drained", END_OF_TIME))
  }
})

const bytes = (text: string) => new TextEncoder().encode(text)
const fileText = (accountId: number, id: string) =>
  repo.use((r) => Stream.runCollect(r.chunks(accountId, id))).pipe(
    Effect.map((parts) => parts.map((part) => new TextDecoder().decode(part)).join(""))
  )

/** Every record of the scan, a batch per transaction, each after the position the one before ended. */
const scanned = (input: Parameters<typeof listInput>, batchSize: number) =>
  Effect.gen(function*() {
    const { page: _page, perPage: _perPage, ...scan } = listInput(...input)
    const transactor = yield* Transactor
    const all: Array<RecordWithDerived> = []
    let after: string | null = null
    while (true) {
      const batch: RecordScanBatch = yield* transactor.transaction(RecordRepository.use((r) => r.scanBatch(scan, after, batchSize)))
      all.push(...batch.rows)
      if (batch.rows.length < batchSize) return all
      after = batch.after
    }
  })

/**
 * The `ExportRepository` contract, and the records scan: the same tests over every implementation
 * (memory, PGlite, PostgreSQL, or yours).
 *
 * - An export is stored queued, with its query and columns as given; another account does not see it.
 * - A claim takes a waiting export (queued, let go between two batches, or running with its lease
 *   run out), makes it running with the lease, and one attempt more when it starts a run (queued,
 *   or its lease ran out); a running export within its lease is not claimed; nothing waiting is
 *   `None`. `hold` is true only for the attempt that claimed it last.
 * - Accounts take turns: claims alternate between accounts a batch each, an account's exports go
 *   oldest first, and while an account's export is held the others' come first.
 * - Chunks read back in order, one at a time; `complete` records the counts and times; `fail`
 *   records the reason and deletes the file.
 * - Retention `exports` deletes the chunks written before the cutoff, oldest first, at most the limit.
 * - `advance` stores the progress and lets the export go; the next claim answers it, the same run.
 * - The scan, a batch per transaction after the position the batch before answered, gives every
 *   record the list gives over all its pages, in the same order, whatever the batch size: built-in
 *   or custom order, records without a value last, both directions, with filters and search.
 *
 * Call it at the top level of a vitest test file (it uses `@effect/vitest`).
 */
export const exportRepositoryContract = <E>(
  name: string,
  implementation: Layer.Layer<ExportRepositoryContractServices, E>
): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("stores an export queued with its query and columns, for its account only", () =>
      Effect.gen(function*() {
        const accountId = yield* newAccountId
        const other = yield* newAccountId
        const asked = newExport(accountId, T0)
        yield* repo.use((r) => r.insert(asked))
        const found = Option.getOrThrow(yield* repo.use((r) => r.get(accountId, asked.id)))
        assert.deepStrictEqual(found, queuedExport(asked))
        assert.deepStrictEqual([found.status, found.attempts, found.leaseUntil], ["queued", 0, null])
        assert.isTrue(Option.isNone(yield* repo.use((r) => r.get(other, asked.id))))
      }))

    it.effect("claims the oldest waiting export with a lease; a lost run is claimed again once its lease ran out", () =>
      Effect.gen(function*() {
        yield* drain
        const accountId = yield* newAccountId
        const older = newExport(accountId, second(1))
        const newer = newExport(accountId, second(2))
        yield* repo.use((r) => r.insert(newer))
        yield* repo.use((r) => r.insert(older))

        const first = Option.getOrThrow(yield* claimAt(second(10)))
        assert.deepStrictEqual([first.id, first.status, first.attempts], [older.id, "running", 1])
        assert.deepStrictEqual(first.leaseUntil, DateTime.addDuration(second(10), LEASE))
        assert.strictEqual(Option.getOrThrow(yield* claimAt(second(11))).id, newer.id)
        assert.isTrue(Option.isNone(yield* claimAt(second(12))))

        const lapsed = DateTime.addDuration(second(10), Duration.sum(LEASE, Duration.millis(1)))
        const again = Option.getOrThrow(yield* claimAt(lapsed))
        assert.deepStrictEqual([again.id, again.attempts], [older.id, 2])
        assert.isFalse(yield* repo.use((r) => r.hold(accountId, older.id, 1)))
        assert.isTrue(yield* repo.use((r) => r.hold(accountId, older.id, 2)))
        yield* drain
      }))

    it.effect("claims take turns between accounts, a batch each; an account's exports go oldest first", () =>
      Effect.gen(function*() {
        yield* drain
        const [a, b, c] = [yield* newAccountId, yield* newAccountId, yield* newAccountId]
        const [a1, a2, b1, c1] = [newExport(a, second(1)), newExport(a, second(2)), newExport(b, second(3)), newExport(c, second(4))]
        for (const asked of [a1, a2, b1, c1]) yield* repo.use((r) => r.insert(asked))
        const names = new Map([[a1.id, "a1"], [a2.id, "a2"], [b1.id, "b1"], [c1.id, "c1"]])
        // A worker's round: it claims, writes one batch and lets the export go.
        const round = (now: DateTime.Utc) =>
          Effect.gen(function*() {
            const row = Option.getOrThrow(yield* claimAt(now))
            const progress = { ...row.progress, rows: row.progress.rows + 1, chunks: row.progress.chunks + 1, startedAt: now }
            yield* repo.use((r) => r.advance(row.accountId, row.id, progress, plusMillis(now, 500)))
            return [names.get(row.id), row.attempts] as const
          })
        const order: Array<readonly [string | undefined, number]> = []
        for (let i = 0; i < 6; i++) order.push(yield* round(second(10 + i)))
        // The same run goes on batch after batch (one attempt); A's second export waits for its first.
        assert.deepStrictEqual(order, [["a1", 1], ["b1", 1], ["c1", 1], ["a1", 1], ["b1", 1], ["c1", 1]])
        assert.strictEqual(Option.getOrThrow(yield* repo.use((r) => r.get(a, a1.id))).progress.rows, 2)
        yield* drain
      }))

    it.effect("while an account's export is held, claims take other accounts' first, then its others, oldest first", () =>
      Effect.gen(function*() {
        yield* drain
        const [a, b] = [yield* newAccountId, yield* newAccountId]
        const [a1, a2] = [newExport(a, second(1)), newExport(a, second(2))]
        for (const asked of [a1, a2]) yield* repo.use((r) => r.insert(asked))
        const claimedId = (now: DateTime.Utc) => Effect.map(claimAt(now), Option.map((row) => row.id))
        assert.deepStrictEqual(yield* claimedId(second(10)), Option.some(a1.id))
        // Asked for while A's first is being written: A's third waits behind B's, asked for later.
        const a3 = newExport(a, second(11))
        const b1 = newExport(b, second(12))
        for (const asked of [a3, b1]) yield* repo.use((r) => r.insert(asked))
        assert.deepStrictEqual(yield* claimedId(second(13)), Option.some(b1.id))
        // No other account waits: a second worker writes A's next export meanwhile.
        assert.deepStrictEqual(yield* claimedId(second(14)), Option.some(a2.id))
        assert.deepStrictEqual(yield* claimedId(second(15)), Option.some(a3.id))
        assert.isTrue(Option.isNone(yield* claimedId(second(16))))
        yield* drain
      }))

    it.effect("keeps the file's chunks in order; completes with its counts; a failure records why and deletes the file", () =>
      Effect.gen(function*() {
        const accountId = yield* newAccountId
        const asked = newExport(accountId, T0)
        yield* repo.use((r) => r.insert(asked))
        for (const [seq, text] of ["_id\r\n", "a\r\n", "b\r\n"].entries()) {
          yield* repo.use((r) => r.appendChunk({ accountId, exportId: asked.id, seq, bytes: bytes(text), writtenAt: second(1) }))
        }
        assert.strictEqual(yield* fileText(accountId, asked.id), "_id\r\na\r\nb\r\n")
        assert.strictEqual(yield* fileText(accountId + 1, asked.id), "")

        const completion = { rowCount: 2, byteSize: 14, completedAt: second(2), expiresAt: second(3) }
        yield* repo.use((r) => r.complete(accountId, asked.id, completion))
        const done = Option.getOrThrow(yield* repo.use((r) => r.get(accountId, asked.id)))
        assert.deepStrictEqual(
          [done.status, done.rowCount, done.byteSize, done.completedAt, done.expiresAt, done.updatedAt],
          ["completed", 2, 14, second(2), second(3), second(2)]
        )

        yield* repo.use((r) => r.fail(accountId, asked.id, "It broke.", second(4)))
        const failed = Option.getOrThrow(yield* repo.use((r) => r.get(accountId, asked.id)))
        assert.deepStrictEqual([failed.status, failed.failure, failed.updatedAt], ["failed", "It broke.", second(4)])
        assert.strictEqual(yield* fileText(accountId, asked.id), "")
      }))

    it.effect("stores the progress and lets the export go: the next claim answers it, the same run", () =>
      Effect.gen(function*() {
        yield* drain
        const accountId = yield* newAccountId
        const asked = newExport(accountId, T0)
        yield* repo.use((r) => r.insert(asked))
        const claimed = Option.getOrThrow(yield* claimAt(second(1)))
        const progress = { after: "[0,\"5\",\"x\"]", rows: 500, bytes: 12345, chunks: 2, startedAt: second(2) }
        yield* repo.use((r) => r.advance(accountId, asked.id, progress, second(3)))
        const stored = Option.getOrThrow(yield* repo.use((r) => r.get(accountId, asked.id)))
        assert.deepStrictEqual([stored.status, stored.progress, stored.leaseUntil, stored.attempts], ["running", progress, null, 1])
        // Let go, it is claimed at once, well within the lease its claim had: the run goes on.
        const next = Option.getOrThrow(yield* claimAt(second(4)))
        assert.deepStrictEqual([next.id, next.attempts, next.progress], [asked.id, claimed.attempts, progress])
        assert.isTrue(yield* repo.use((r) => r.hold(accountId, asked.id, claimed.attempts)))
        // Its worker stops mid-batch: once the lease ran out, a new run resumes from the progress.
        const resumed = Option.getOrThrow(yield* claimAt(DateTime.addDuration(second(4), Duration.sum(LEASE, Duration.millis(1)))))
        assert.deepStrictEqual([resumed.id, resumed.attempts, resumed.progress], [asked.id, 2, progress])
        yield* drain
      }))

    it.effect("retention deletes the chunks written before the cutoff, oldest first, at most the limit", () =>
      Effect.gen(function*() {
        const prune = (cutoff: DateTime.Utc, limit: number) => Retention.use((r) => r.pruneBatch("exports", cutoff, limit))
        while ((yield* prune(END_OF_TIME, 1000)) > 0) {
          // chunks left by earlier tests
        }
        const accountId = yield* newAccountId
        const old = newExport(accountId, T0)
        const recent = newExport(accountId, T0)
        yield* repo.use((r) => r.insert(old))
        yield* repo.use((r) => r.insert(recent))
        for (const seq of [0, 1, 2]) {
          yield* repo.use((r) => r.appendChunk({ accountId, exportId: old.id, seq, bytes: bytes("x"), writtenAt: second(1) }))
        }
        yield* repo.use((r) => r.appendChunk({ accountId, exportId: recent.id, seq: 0, bytes: bytes("y"), writtenAt: second(5) }))
        assert.strictEqual(yield* prune(second(1), 10), 0)
        assert.strictEqual(yield* prune(second(2), 2), 2)
        assert.strictEqual(yield* prune(second(2), 2), 1)
        assert.strictEqual(yield* fileText(accountId, old.id), "")
        assert.strictEqual(yield* fileText(accountId, recent.id), "y")
        assert.isTrue(Option.isSome(yield* repo.use((r) => r.get(accountId, old.id))))
      }))

    it.effect("retention deletes an export the retention after its expiry, a failed one after it failed; never a waiting one", () =>
      Effect.gen(function*() {
        const prune = (cutoff: DateTime.Utc, limit: number) => Retention.use((r) => r.pruneBatch("exports", cutoff, limit))
        while ((yield* prune(END_OF_TIME, 1000)) > 0) {
          // exports and chunks left by earlier tests
        }
        const accountId = yield* newAccountId
        const [completed, failed, waiting] = [newExport(accountId, T0), newExport(accountId, T0), newExport(accountId, T0)]
        for (const asked of [completed, failed, waiting]) yield* repo.use((r) => r.insert(asked))
        yield* repo.use((r) => r.complete(accountId, completed.id, { rowCount: 0, byteSize: 0, completedAt: second(2), expiresAt: second(9) }))
        yield* repo.use((r) => r.fail(accountId, failed.id, "stopped", second(3)))
        const exists = (id: string) => Effect.map(repo.use((r) => r.get(accountId, id)), Option.isSome)

        assert.strictEqual(yield* prune(second(3), 10), 0)
        assert.strictEqual(yield* prune(second(4), 10), 1)
        assert.deepStrictEqual([yield* exists(completed.id), yield* exists(failed.id)], [true, false])
        // Expired, it still answers until the retention after its expiry has passed too.
        assert.strictEqual(yield* prune(second(9), 10), 0)
        assert.strictEqual(yield* prune(second(10), 10), 1)
        assert.isFalse(yield* exists(completed.id))
        assert.strictEqual(yield* prune(END_OF_TIME, 10), 0)
        assert.isTrue(yield* exists(waiting.id))
        yield* repo.use((r) => r.fail(accountId, waiting.id, "done", second(3)))
      }))

    it.effect("the scan gives what the list gives over all pages, in order, whatever the batch size", () =>
      Effect.gen(function*() {
        const accountId = yield* newAccountId
        const score = customProperty(accountId, "deal", "score", "number")
        const tier = customProperty(accountId, "deal", "tier", "string")
        const custom = [score, tier]
        const ids = freshIds(7)
        const amounts = [5, null, 5, 1, null, 9, 3]
        for (const [i, id] of ids.entries()) {
          const amount = amounts[i]
          yield* atTime(second(i), RecordRepository.use((records) =>
            records.insert({
              accountId,
              kind: "deal",
              id,
              custom,
              values: {
                deal_name: i % 2 === 0 ? `Even ${i}` : `Odd ${i}`,
                ...(amount === null ? {} : { amount }),
                ...(i % 3 === 0 ? {} : { score: 10 - i }),
                // Keys of every type, with ties (same text once folded) and records without one.
                ...(i % 2 === 0 ? { close_date: `2040-0${1 + (i % 3)}-01T10:00:00.123000Z` } : {}),
                ...(i === 3 ? {} : { tier: i % 2 === 0 ? "Gold" : "gold" }),
                ...(i % 3 === 1 ? {} : { deal_stage: i % 2 === 0 ? "appointment_scheduled" : "closed_won" })
              }
            })
          ))
        }
        const cases: ReadonlyArray<Partial<RecordListParams>> = [
          {},
          { order: "created_at", direction: "asc" },
          { order: "amount", direction: "asc" },
          { order: "amount", direction: "desc" },
          { order: "score", direction: "asc" },
          { order: "tier", direction: "desc" },
          { order: "close_date", direction: "asc" },
          { order: "deal_stage", direction: "desc" },
          { order: "contact_ids", direction: "asc" },
          { order: "deal_name", direction: "desc", search: "even" },
          {
            order: "amount",
            direction: "asc",
            filters: [condition("amount", "number", "gte", 5)]
          }
        ]
        for (const params of cases) {
          const listed = idsOf((yield* RecordRepository.use((r) => r.list(listInput(accountId, "deal", custom, params)))).rows)
          for (const batch of [1, 2, 100]) {
            assert.deepStrictEqual(idsOf(yield* scanned([accountId, "deal", custom, params], batch)), listed, JSON.stringify(params))
          }
        }
      }))
  })
