/**
 * What the worker's import tests share: account A's two large imports queued first, account B's
 * one-row import queued after them, the worker(s) started; B's import must complete while both of
 * A's are still far from their end (accounts take turns, a batch each), and A's must then complete
 * with every row written once.
 */
import { assert } from "@effect/vitest"
import { bootstrapAccount } from "@wasl/core/Accounts"
import { authenticateToken, type Principal } from "@wasl/core/Auth"
import { getImport, startImport, type UploadPart } from "@wasl/core/Imports"
import { listRecords } from "@wasl/core/Records"
import { Effect, Stream } from "effect"
import { type DeliveryWorkerOptions, runDeliveryWorker } from "../src/index.ts"

/** A file of `rows` contacts whose emails start with `tag`. */
export const contactsCsv = (rows: number, tag: string): string =>
  `firstname,email\n${Array.from({ length: rows }, (_, i) => `C${i},${tag}${i}@example.com`).join("\n")}\n`

/** Uploads `csv` as a contacts import of the principal's account. */
export const uploadContacts = (principal: Principal, csv: string) => {
  const file: UploadPart<never> = { _tag: "File", key: "file", name: "c.csv", content: Stream.make(new TextEncoder().encode(csv)) }
  return startImport(principal, "contact", Stream.make(file))
}

/** The owner of a new account named `name`. */
export const newMember = (name: string) =>
  Effect.flatMap(
    bootstrapAccount({ account: name, email: `${name.toLowerCase()}@example.com`, password: "imports password", plan: "business", otpCredits: 0 }),
    (created) => authenticateToken(created.token)
  )

/**
 * The scenario with `workers` workers of `options`, `rows` rows in each of A's imports; `runUntil`
 * lets the workers run until its check holds (under `TestClock`, or in real time).
 */
export const oneRowImportTakesItsTurn = (
  workers: number,
  rows: number,
  options: DeliveryWorkerOptions,
  runUntil: (done: Effect.Effect<boolean>, what: string) => Effect.Effect<void>
) =>
  Effect.gen(function*() {
    const services = yield* Effect.context<Effect.Services<ReturnType<typeof getImport>>>()
    const check = <E>(done: Effect.Effect<boolean, E, Effect.Services<ReturnType<typeof getImport>>>, what: string) =>
      runUntil(Effect.provideContext(Effect.orDie(done), services), what)
    const large = yield* newMember("Large")
    const small = yield* newMember("Small")
    const queuedLarge = [yield* uploadContacts(large, contactsCsv(rows, "a")), yield* uploadContacts(large, contactsCsv(rows, "b"))]
    const one = yield* uploadContacts(small, contactsCsv(1, "s"))
    const largeOnes = Effect.forEach(queuedLarge, (queued) => getImport(large, "contact", queued._id))

    // The workers run until A's imports complete (or a check fails: they stop with the scope).
    yield* Effect.scoped(Effect.gen(function*() {
      for (let i = 0; i < workers; i++) yield* runDeliveryWorker(options)
      yield* check(Effect.map(getImport(small, "contact", one._id), (view) => view.status === "completed"), "B's import completes")
      const meanwhile = yield* largeOnes
      assert.deepStrictEqual(meanwhile.map((view) => view.status === "completed"), [false, false], "A's imports are still running")
      // A few batches at most (those written before the check looked), far from one whole import.
      assert.isBelow(meanwhile[0]!.rows_read + meanwhile[1]!.rows_read, rows)
      yield* check(Effect.map(largeOnes, (views) => views.every((view) => view.status === "completed")), "A's imports complete")
    }))
    for (const view of yield* largeOnes) assert.deepInclude(view, { created: rows, rows_read: rows, failed: 0 })
    // Every row once: as many records as rows, each with its own email.
    const emails = new Set<unknown>()
    for (let page = 1; emails.size < 2 * rows; page++) {
      const listed = yield* listRecords(large, "contact", { per_page: "100", page: String(page) })
      assert.strictEqual(listed.total, 2 * rows)
      if (listed.items.length === 0) break
      for (const record of listed.items) emails.add(record.properties["email"])
    }
    assert.strictEqual(emails.size, 2 * rows)
    assert.deepInclude(yield* getImport(small, "contact", one._id), { created: 1, rows_read: 1 })
  })
