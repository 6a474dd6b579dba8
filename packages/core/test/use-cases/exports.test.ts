/**
 * CSV exports on the memory store: the request validated as the list validates its query, the
 * worker's run writing what the list shows in its order, the ObjectsExport notification per the
 * requester's channels, account isolation and permissions, expiry (410), a query no longer valid,
 * a dead worker's export started again, a worker stopped mid-export taken over from its progress,
 * and the pruning of expired files.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option, Stream } from "effect"
import { TestClock } from "effect/testing"
import { createTokenForMember } from "../../src/Accounts.ts"
import { authenticateToken, type Permission, type Principal } from "../../src/Auth.ts"
import {
  downloadExport,
  EXPORT_LEASE,
  EXPORT_MAX_ATTEMPTS,
  ExportRepository,
  getExport,
  OBJECTS_EXPORT,
  requestExport,
  runNextExport
} from "../../src/Exports.ts"
import { createRecord, deleteRecord, listRecords, parseRecordListQuery, updateRecord } from "../../src/Records.ts"
import { pruneExpired } from "../../src/Retention.ts"
import { addMember, OWNER, setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"
import { memoryState, setPreferences } from "../support/store.ts"

const fileOf = (principal: Principal, id: string) =>
  Effect.gen(function*() {
    const download = yield* downloadExport(principal, id)
    const parts = yield* Stream.runCollect(download.body)
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(
      new Uint8Array(parts.flatMap((part) => [...part]))
    )
    return { download, text, lines: text.split("\r\n").slice(0, -1) }
  })

const errorsOf = <A, R>(effect: Effect.Effect<A, { readonly _tag: string }, R>) =>
  Effect.map(Effect.flip(effect), (e) => {
    assert.strictEqual(e._tag, "ValidationFailed")
    return (e as unknown as { readonly errors: Record<string, ReadonlyArray<string>> }).errors
  })

const memberWith = (accountId: number, email: string, permissions: ReadonlyArray<Permission>) =>
  Effect.gen(function*() {
    const user = yield* addMember(accountId, email, permissions)
    const { plainText } = yield* createTokenForMember({ accountId, userId: user.id, abilities: ["*"] })
    return yield* authenticateToken(plainText)
  })

const deals = (principal: Principal) =>
  Effect.forEach([
    { deal_name: "Small", amount: 50 },
    { deal_name: "=HYPERLINK(\"http://evil\")", amount: 500 },
    { deal_name: "Acme, \"big\"", amount: 900 },
    { deal_name: "No amount" }
  ], (values) => createRecord(principal, "deal", values))

describe("exports", () => {
  it.effect("a bad query gets the list's own messages, every key at once, with unknown properties as properties.N", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const listed = yield* errorsOf(
        parseRecordListQuery("deal", {
          order: "nope",
          direction: "sideways",
          complex_filters: JSON.stringify([{ property: "nope", operator: "eq", value: 1 }])
        }, [])
      )
      const errors = yield* errorsOf(requestExport(principal, "deal", {
        order: "nope",
        direction: "sideways",
        complex_filters: [{ property: "nope", operator: "eq", value: 1 }],
        properties: ["deal_name", "no_such_property", 7]
      }))
      assert.deepStrictEqual(errors, {
        ...listed,
        "properties.1": ["The selected properties.1 is invalid."],
        "properties.2": ["The selected properties.2 is invalid."]
      })
      assert.deepStrictEqual(yield* errorsOf(requestExport(principal, "deal", { search: true, properties: "amount" })), {
        search: ["The search field must be a string."],
        properties: ["The properties field must be a list."]
      })
      assert.strictEqual((yield* memoryState).exports.rows.size, 0)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("complex_filters nested deeper than 64 levels gets the list's 422, however deep", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const tooDeep = { complex_filters: ["The complex filters field must not be nested more than 64 levels deep."] }
      const nested = (levels: number, wrap: (inner: unknown) => unknown) => {
        let value: unknown = { property: "amount", operator: "gt", value: 1 }
        for (let i = 0; i < levels; i++) value = wrap(value)
        return value
      }
      for (
        const complex_filters of [
          nested(5000, (inner) => [inner]),
          [nested(5000, (inner) => ({ or: [inner] }))],
          nested(64, (inner) => [inner])
        ]
      ) {
        assert.deepStrictEqual(yield* errorsOf(requestExport(principal, "deal", { complex_filters })), tooDeep)
      }
      assert.strictEqual((yield* memoryState).exports.rows.size, 0)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("writes every record the query matches, over all pages, in the list's order, as the API shows them", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      yield* deals(principal)
      const query = { order: "amount", direction: "desc", complex_filters: [{ property: "amount", operator: "gt", value: 60 }] }
      const queued = yield* requestExport(principal, "deal", { ...query, properties: ["deal_name", "amount"] })
      assert.strictEqual(queued.status, "queued")
      assert.deepStrictEqual(queued.columns, ["_id", "deal_name", "amount", "created_at", "updated_at"])
      assert.strictEqual((yield* Effect.flip(downloadExport(principal, queued._id)))._tag, "NotFound")

      assert.isTrue(yield* runNextExport())
      assert.isFalse(yield* runNextExport())
      const done = yield* getExport(principal, queued._id)
      assert.strictEqual(done.status, "completed")
      assert.strictEqual(done.row_count, 2)

      const listed = yield* listRecords(principal, "deal", {
        order: "amount",
        direction: "desc",
        complex_filters: JSON.stringify(query.complex_filters)
      })
      const { download, lines, text } = yield* fileOf(principal, queued._id)
      assert.strictEqual(text.charCodeAt(0), 0xfeff)
      assert.strictEqual(download.byteSize, new TextEncoder().encode(text).length)
      assert.strictEqual(download.fileName, `deals-${queued._id}.csv`)
      assert.deepStrictEqual(lines, [
        "\uFEFF_id,deal_name,amount,created_at,updated_at",
        ...listed.items.map((deal) => {
          const p = deal.properties
          const name = p["deal_name"] === "Acme, \"big\"" ? "\"Acme, \"\"big\"\"\"" : `"'${String(p["deal_name"]).replaceAll("\"", "\"\"")}"`
          return `${p._id},${name},${p["amount"]},${p.created_at},${p.updated_at}`
        })
      ])
      assert.strictEqual(lines[2]!.split(",")[1], "\"'=HYPERLINK(\"\"http://evil\"\")\"")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("without properties, the columns are _id, every property of the kind (built-in, then custom) and the timestamps", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const queued = yield* requestExport(principal, "product", {})
      assert.strictEqual(queued.columns[0], "_id")
      assert.deepStrictEqual(queued.columns.slice(-2), ["created_at", "updated_at"])
      assert.include(queued.columns, "name")
      yield* runNextExport()
      assert.deepStrictEqual((yield* fileOf(principal, queued._id)).lines, [`\uFEFF${queued.columns.join(",")}`])
    }).pipe(Effect.provide(TestPorts())))

  it.effect("tells the requester once written (ObjectsExport) through the channels they chose, and no one else", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const queued = yield* requestExport(principal, "deal", {})
      yield* runNextExport()
      const told = (yield* memoryState).notifications.filter((n) => n.type === OBJECTS_EXPORT)
      assert.strictEqual(told.length, 1)
      assert.strictEqual(told[0]!.userId, principal.userId)
      assert.deepStrictEqual(told[0]!.data, {
        export_id: queued._id,
        object_type: "deal",
        row_count: 0,
        message: "Your export of 0 deals is ready to download."
      })
      assert.isNotNull(told[0]!.email)

      yield* setPreferences(principal.accountId, principal.userId, [
        { name: OBJECTS_EXPORT, stored: false, popup: false, browser: false, email: false }
      ])
      yield* requestExport(principal, "deal", {})
      yield* runNextExport()
      assert.strictEqual((yield* memoryState).notifications.filter((n) => n.type === OBJECTS_EXPORT).length, 1)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("another account's export is not found; a member without <kind>-index may neither ask nor look", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const other = yield* setup({ ...OWNER, account: "Other", email: "other@example.com" })
      const queued = yield* requestExport(principal, "deal", {})
      yield* runNextExport()
      assert.strictEqual((yield* Effect.flip(getExport(other.principal, queued._id)))._tag, "NotFound")
      assert.strictEqual((yield* Effect.flip(downloadExport(other.principal, queued._id)))._tag, "NotFound")
      assert.strictEqual((yield* Effect.flip(getExport(principal, "no-such-export")))._tag, "NotFound")

      const contactsOnly = yield* memberWith(principal.accountId, "contacts@example.com", ["contact-index"])
      assert.strictEqual((yield* Effect.flip(requestExport(contactsOnly, "deal", {})))._tag, "Forbidden")
      assert.strictEqual((yield* Effect.flip(getExport(contactsOnly, queued._id)))._tag, "Forbidden")
      assert.strictEqual((yield* Effect.flip(downloadExport(contactsOnly, queued._id)))._tag, "Forbidden")
      const dealReader = yield* memberWith(principal.accountId, "deals@example.com", ["deal-index"])
      assert.strictEqual((yield* getExport(dealReader, queued._id)).status, "completed")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("the file expires after the exports retention (7 days): status expired, download 410; the pruner deletes it, and the export 7 days later", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      yield* deals(principal)
      const queued = yield* requestExport(principal, "deal", {})
      yield* runNextExport()
      yield* TestClock.adjust(Duration.days(7).pipe(Duration.subtract(Duration.seconds(1))))
      assert.strictEqual((yield* getExport(principal, queued._id)).status, "completed")
      assert.strictEqual((yield* pruneExpired(100)).exports, 0)
      assert.strictEqual((yield* fileOf(principal, queued._id)).lines.length, 5)

      yield* TestClock.adjust(Duration.seconds(1))
      assert.strictEqual((yield* getExport(principal, queued._id)).status, "expired")
      const gone = yield* Effect.flip(downloadExport(principal, queued._id))
      assert.deepStrictEqual(gone._tag === "Gone" && { message: gone.message, status: gone.status }, {
        message: "The export's file has expired.",
        status: "expired"
      })
      yield* TestClock.adjust(Duration.millis(1))
      assert.strictEqual((yield* pruneExpired(100)).exports, 1)
      assert.strictEqual((yield* memoryState).exports.chunks.size, 0)
      assert.strictEqual((yield* getExport(principal, queued._id)).status, "expired")

      // The export itself stays `expired` as long again, then goes: 404 like an unknown id.
      yield* TestClock.adjust(Duration.days(7).pipe(Duration.subtract(Duration.millis(2))))
      assert.strictEqual((yield* pruneExpired(100)).exports, 0)
      assert.strictEqual((yield* getExport(principal, queued._id)).status, "expired")
      yield* TestClock.adjust(Duration.millis(2))
      assert.strictEqual((yield* pruneExpired(100)).exports, 1)
      assert.strictEqual((yield* Effect.flip(getExport(principal, queued._id)))._tag, "NotFound")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a query that no longer validates when the worker runs fails the export with the list's message (410 failed)", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      yield* (yield* ExportRepository).insert({
        accountId: principal.accountId,
        id: "0123456789abcdef01234567",
        userId: principal.userId,
        kind: "deal",
        query: { order: "a_property_deleted_since" },
        columns: ["_id"],
        createdAt: yield* DateTime.now
      })
      assert.isTrue(yield* runNextExport())
      const failed = yield* getExport(principal, "0123456789abcdef01234567")
      assert.strictEqual(failed.status, "failed")
      assert.strictEqual(failed.failure_reason, "The export's query is no longer valid: The selected order is invalid.")
      const gone = yield* Effect.flip(downloadExport(principal, failed._id))
      assert.strictEqual(gone._tag === "Gone" && gone.status, "failed")
      assert.strictEqual((yield* memoryState).notifications.filter((n) => n.type === OBJECTS_EXPORT).length, 0)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a run lost with its worker is started again once its lease ran out, from its progress (none yet); after 3 runs it fails", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      yield* deals(principal)
      const repo = yield* ExportRepository
      const queued = yield* requestExport(principal, "deal", {})
      const claim = Effect.flatMap(DateTime.now, (now) => repo.claim(now, DateTime.addDuration(now, EXPORT_LEASE)))
      // A worker claims it and dies before writing anything.
      assert.strictEqual(Option.getOrThrow(yield* claim).attempts, 1)
      assert.strictEqual((yield* getExport(principal, queued._id)).status, "running")
      assert.isFalse(yield* runNextExport())
      yield* TestClock.adjust(EXPORT_LEASE)
      assert.isFalse(yield* runNextExport())
      yield* TestClock.adjust(Duration.millis(1))
      assert.isTrue(yield* runNextExport())
      const done = yield* getExport(principal, queued._id)
      assert.deepStrictEqual([done.status, done.row_count], ["completed", 4])
      assert.strictEqual((yield* fileOf(principal, queued._id)).lines.length, 5)

      // One that every worker dies on fails after EXPORT_MAX_ATTEMPTS runs.
      const doomed = yield* requestExport(principal, "deal", {})
      for (let run = 1; run <= EXPORT_MAX_ATTEMPTS; run++) {
        yield* claim
        yield* TestClock.adjust(Duration.sum(EXPORT_LEASE, Duration.millis(1)))
      }
      assert.isTrue(yield* runNextExport())
      const failed = yield* getExport(principal, doomed._id)
      assert.deepStrictEqual([failed.status, failed.failure_reason], ["failed", "The export was started 3 times without finishing."])
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a worker stopped mid-export is taken over once its lease ran out, from its progress: the file a one-go run writes", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      for (let i = 0; i < 23; i++) {
        // Ties and records without a value: the batches cross both branches of the order.
        yield* createRecord(principal, "deal", { deal_name: `Deal ${i}`, ...(i % 4 === 0 ? {} : { amount: i % 5 }) })
      }
      const body = { order: "amount", direction: "asc", properties: ["deal_name", "amount"] }
      const stopped = yield* requestExport(principal, "deal", body)
      const repo = yield* ExportRepository
      const stateOf = Effect.map(repo.get(principal.accountId, stopped._id), Option.getOrThrow)
      // Three batches, each letting the export go: the same run goes on.
      for (let batch = 0; batch < 3; batch++) assert.isTrue(yield* runNextExport(4))
      // The next worker claims it and dies before its batch commits.
      yield* Effect.flatMap(DateTime.now, (now) => repo.claim(now, DateTime.addDuration(now, EXPORT_LEASE)))
      const left = yield* stateOf
      assert.deepStrictEqual([left.status, left.attempts, left.progress.rows, left.progress.chunks], ["running", 1, 12, 3])
      assert.strictEqual((yield* memoryState).exports.chunks.get(`${principal.accountId}:${stopped._id}`)?.length, 3)
      assert.isFalse(yield* runNextExport(4))

      yield* TestClock.adjust(Duration.sum(EXPORT_LEASE, Duration.millis(1)))
      const oneGo = yield* requestExport(principal, "deal", body)
      // A new run resumes after the last batch stored (the account's older export first).
      assert.isTrue(yield* runNextExport(4))
      const resumed = yield* stateOf
      assert.deepStrictEqual([resumed.attempts, resumed.progress.rows], [2, 16])
      while (yield* runNextExport(100)) {
        // the rest of both exports
      }
      const done = yield* getExport(principal, stopped._id)
      assert.deepStrictEqual([done.status, done.row_count], ["completed", 23])
      assert.strictEqual((yield* stateOf).attempts, 2)
      const file = (yield* fileOf(principal, stopped._id)).text
      assert.strictEqual(file, (yield* fileOf(principal, oneGo._id)).text)
      const ids = file.split("\r\n").slice(1, -1).map((line) => line.split(",")[0])
      assert.strictEqual(new Set(ids).size, 23)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("records changed between batches: ahead of the position they are written (again), behind it they are not", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const deal = (name: string, amount: number) =>
        Effect.map(createRecord(principal, "deal", { deal_name: name, amount }), (r) => String(r.properties._id))
      const [a1, , , , a5, a6, gone] = yield* Effect.forEach([1, 2, 3, 4, 5, 6, 7], (n) => deal(`A${n}`, n))
      const queued = yield* requestExport(principal, "deal", { order: "amount", direction: "asc", properties: ["deal_name"] })
      // The first batch (A1, A2), then changes on both sides of the position, then the rest.
      assert.isTrue(yield* runNextExport(2))
      yield* deal("Behind", 0)
      yield* deal("Ahead", 10)
      yield* updateRecord(principal, "deal", a1!, { deal_name: "A1 moved ahead", amount: 20 })
      yield* updateRecord(principal, "deal", a5!, { deal_name: "A5 moved behind", amount: 0.5 })
      yield* updateRecord(principal, "deal", a6!, { deal_name: "A6 renamed" })
      yield* deleteRecord(principal, "deal", gone!)
      while (yield* runNextExport(2)) {
        // the next batch
      }
      const names = (yield* fileOf(principal, queued._id)).lines.slice(1).map((line) => line.split(",")[1])
      assert.deepStrictEqual(names, ["A1", "A2", "A3", "A4", "A6 renamed", "Ahead", "A1 moved ahead"])
      assert.strictEqual((yield* getExport(principal, queued._id)).row_count, 7)
    }).pipe(Effect.provide(TestPorts())))
})
