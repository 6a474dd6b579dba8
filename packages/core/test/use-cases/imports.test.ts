/**
 * CSV imports on the memory store: a file refused whole (nothing staged), rows validated as the
 * API validates bodies, a refused row kept with its messages and never stopping the others,
 * match_on updates, the ObjectsImport notification on the uploader's channels, and a worker that
 * stops mid-batch taken over by the next one without a record written twice; a finished
 * import pruned after the imports retention (404 then).
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option, Stream } from "effect"
import { TestClock } from "effect/testing"
import { type Principal } from "../../src/Auth.ts"
import { invalid } from "../../src/errors.ts"
import {
  errorText,
  getImport,
  ImportRepository,
  importErrorsCsv,
  MAX_IMPORT_COLUMNS,
  processImportBatch,
  processNextImport,
  readCsvUpload,
  startImport,
  type UploadPart
} from "../../src/Imports.ts"
import { BUILTIN_GROUPS, createProperty, createRecord, deleteProperty, deleteRecord, listRecords } from "../../src/Records.ts"
import { pruneExpired } from "../../src/Retention.ts"
import { setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"
import { recordingMatchLock } from "../support/transactions.ts"
import { memoryState, removeMembership, setPreferences } from "../support/store.ts"

const bytes = (text: string) => new TextEncoder().encode(text)

/** A multipart form: `fields` first, then the file (its bytes in chunks of 7, to cross cell boundaries). */
const form = (file: string | Uint8Array, fields: Record<string, string> = {}, fileFirst = false): Stream.Stream<UploadPart<never>> => {
  const content = typeof file === "string" ? bytes(file) : file
  const chunks = Array.from({ length: Math.ceil(content.length / 7) }, (_, i) => content.slice(i * 7, i * 7 + 7))
  const filePart: UploadPart<never> = { _tag: "File", key: "file", name: "people.csv", content: Stream.fromIterable(chunks) }
  const fieldParts = Object.entries(fields).map(([key, value]): UploadPart<never> => ({ _tag: "Field", key, value }))
  return Stream.fromIterable(fileFirst ? [filePart, ...fieldParts] : [...fieldParts, filePart])
}

const errorsOf = <A, R>(effect: Effect.Effect<A, { readonly _tag: string }, R>) =>
  Effect.map(Effect.flip(effect), (e) => {
    assert.strictEqual(e._tag, "ValidationFailed")
    return (e as unknown as { readonly errors: Record<string, ReadonlyArray<string>> }).errors
  })

const contactEvents = Effect.map(memoryState, (state) => state.outbox.filter((e) => e.name.startsWith("contact-")).map((e) => e.name))
const contactsOf = (principal: Principal) =>
  Effect.map(listRecords(principal, "contact", { per_page: "100", order: "email", direction: "asc" }), (page) => page.items)
const emails = (principal: Principal) => Effect.map(contactsOf(principal), (items) => items.map((c) => c.properties["email"]))

/** Runs the worker's import loop until no import waits. */
const drain = Effect.gen(function*() {
  while (yield* processNextImport({ batch: 2 })) {
    // next
  }
})

describe("CSV imports", () => {
  it.effect("writes each row as POST /api/{kind} would, keeps a refused row's messages, tells the uploader", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const csv = "\uFEFFfirstname,email\r\n\"Haddad, Amal\",amal@example.com\r\nBad,not an email\r\n\"Two\nlines\",two@example.com\r\n"
      const queued = yield* startImport(principal, "contact", form(csv))
      assert.deepInclude(queued, { status: "queued", rows_total: 3, rows_read: 0, object_type: "contact", file_name: "people.csv" })
      yield* drain
      const single = yield* errorsOf(createRecord(principal, "contact", { firstname: "Bad", email: "not an email" }))
      const done = yield* getImport(principal, "contact", queued._id)
      assert.deepInclude(done, { status: "completed", rows_read: 3, created: 2, updated: 0, failed: 1 })
      assert.deepStrictEqual(done.failures, [{ line: 3, errors: single }])
      assert.deepStrictEqual(yield* emails(principal), ["amal@example.com", "two@example.com"])
      assert.strictEqual((yield* contactsOf(principal))[1]!.properties["firstname"], "Two\nlines")
      assert.deepStrictEqual(yield* contactEvents, ["contact-created", "contact-created"])
      const csvOut = (yield* Stream.runCollect(yield* importErrorsCsv(principal, "contact", queued._id))).join("")
      assert.strictEqual(csvOut, `firstname,email,error\r\nBad,not an email,${errorText(single)}\r\n`)
      const notices = (yield* memoryState).notifications.filter((n) => n.type === "ObjectsImport")
      assert.strictEqual(notices.length, 1)
      assert.deepInclude(notices[0]!.data, { import_id: queued._id, status: "completed", created: 2, failed: 1 })
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a finished import is kept 30 days (WASL_RETENTION_IMPORTS), then pruned with its rows: 404 like an unknown id", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const waiting = yield* startImport(principal, "contact", form("firstname,email\r\nBad,not an email\r\n"))
      yield* TestClock.adjust(Duration.days(60))
      // A queued import is never pruned, however old.
      assert.strictEqual((yield* pruneExpired(100)).imports, 0)
      yield* drain
      assert.strictEqual((yield* getImport(principal, "contact", waiting._id)).status, "completed")
      yield* TestClock.adjust(Duration.days(30).pipe(Duration.subtract(Duration.millis(1))))
      assert.strictEqual((yield* pruneExpired(100)).imports, 0)
      assert.strictEqual((yield* getImport(principal, "contact", waiting._id)).failed, 1)
      yield* TestClock.adjust(Duration.millis(1))
      assert.strictEqual((yield* pruneExpired(100)).imports, 0)
      yield* TestClock.adjust(Duration.millis(1))
      assert.strictEqual((yield* pruneExpired(100)).imports, 1)
      assert.strictEqual((yield* Effect.flip(getImport(principal, "contact", waiting._id)))._tag, "NotFound")
      assert.strictEqual((yield* Effect.flip(importErrorsCsv(principal, "contact", waiting._id)))._tag, "NotFound")
      assert.strictEqual((yield* memoryState).imports.size, 0)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("honours the uploader's ObjectsImport channels: all off, nothing", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      yield* setPreferences(principal.accountId, principal.userId, [
        { name: "ObjectsImport", stored: false, popup: false, browser: false, email: false }
      ])
      yield* startImport(principal, "contact", form("firstname\nAmal\n"))
      yield* drain
      assert.deepStrictEqual((yield* memoryState).notifications.filter((n) => n.type === "ObjectsImport"), [])
    }).pipe(Effect.provide(TestPorts())))

  it.effect("an uploader who left the account meanwhile is not told; the import completes all the same", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const queued = yield* startImport(principal, "contact", form("firstname\nAmal\n"))
      yield* removeMembership(principal.accountId, principal.userId)
      yield* drain
      assert.deepInclude(yield* getImport(principal, "contact", queued._id), { status: "completed", created: 1 })
      assert.deepStrictEqual((yield* memoryState).notifications.filter((n) => n.type === "ObjectsImport"), [])
    }).pipe(Effect.provide(TestPorts())))

  it.effect("with match_on, a row naming one record updates it; none creates; more than one is refused", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      yield* createRecord(principal, "contact", { firstname: "Known", lastname: "Old", email: "known@example.com" })
      yield* createRecord(principal, "contact", { firstname: "Twin", email: "twin@example.com" })
      yield* createRecord(principal, "contact", { firstname: "Twin", email: "twin2@example.com" })
      const csv = "email,lastname,firstname\nknown@example.com,New,\nfresh@example.com,Fresh,F\n,NoEmail,N\n"
      // match_on may come after the file in the form.
      const queued = yield* startImport(principal, "contact", form(csv, { match_on: "email" }, true))
      assert.strictEqual(queued.match_on, "email")
      yield* drain
      const done = yield* getImport(principal, "contact", queued._id)
      assert.deepInclude(done, { created: 2, updated: 1, failed: 0 })
      const known = (yield* contactsOf(principal)).find((c) => c.properties["email"] === "known@example.com")!
      // An empty cell sets nothing: the firstname is kept.
      assert.deepInclude(known.properties, { firstname: "Known", lastname: "New" })

      const twins = yield* startImport(principal, "contact", form("firstname,lastname\nTwin,X\n", { match_on: "firstname" }))
      yield* drain
      const refused = yield* getImport(principal, "contact", twins._id)
      assert.deepStrictEqual(refused.failures, [{ line: 2, errors: { firstname: ["The firstname matches more than one record; it must match at most one."] } }])
    }).pipe(Effect.provide(TestPorts())))

  it.effect("with match_on, a record in the trash matches nothing: the row creates a new record", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const gone = yield* createRecord(principal, "contact", { firstname: "Gone", email: "gone@example.com" })
      yield* deleteRecord(principal, "contact", gone.properties._id)
      const queued = yield* startImport(principal, "contact", form("email,firstname\ngone@example.com,Back\n", { match_on: "email" }))
      yield* drain
      assert.deepInclude(yield* getImport(principal, "contact", queued._id), { created: 1, updated: 0, failed: 0 })
      const [back] = yield* contactsOf(principal)
      assert.notStrictEqual(back!.properties._id, gone.properties._id)
      assert.strictEqual(back!.properties["firstname"], "Back")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a batch's new records are stored together, yet events follow the rows and a row matches one created rows before it", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      yield* createRecord(principal, "contact", { firstname: "Known", email: "known@example.com" })
      const before = (yield* contactEvents).length
      const csv = [
        "email,firstname",
        "new@example.com,New",
        "known@example.com,Renamed",
        "other@example.com,Other",
        "new@example.com,Again",
        "bad-email,Refused",
        "last@example.com,Last"
      ].join("\n") + "\n"
      const queued = yield* startImport(principal, "contact", form(csv, { match_on: "email" }))
      while (yield* processNextImport({ batch: 10 })) {
        // one batch holds every row
      }
      assert.deepInclude(yield* getImport(principal, "contact", queued._id), { created: 3, updated: 2, failed: 1 })
      const byEmail = new Map((yield* contactsOf(principal)).map((c) => [c.properties["email"], c.properties["firstname"]]))
      assert.deepStrictEqual(Object.fromEntries(byEmail), {
        "known@example.com": "Renamed",
        "last@example.com": "Last",
        "new@example.com": "Again",
        "other@example.com": "Other"
      })
      const state = yield* memoryState
      const events = state.outbox.filter((e) => e.name.startsWith("contact-")).slice(before)
      assert.deepStrictEqual(
        events.map((e) => [e.name, (e.payload as { properties: { email: string } }).properties.email]),
        [
          ["contact-created", "new@example.com"],
          ["contact-updated", "known@example.com"],
          ["contact-created", "other@example.com"],
          ["contact-updated", "new@example.com"],
          ["contact-created", "last@example.com"]
        ]
      )
    }).pipe(Effect.provide(TestPorts())))

  it.effect("with match_on, each batch takes the account's match lock of the kind before it writes; without, none does", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const { locks, withLocks } = recordingMatchLock()
      const drainRecordingLocks = withLocks(drain)
      const csv = "email,firstname\na@example.com,A\nb@example.com,B\n,NoEmail\n"
      const queued = yield* startImport(principal, "contact", form(csv, { match_on: "email" }))
      yield* drainRecordingLocks
      assert.deepInclude(yield* getImport(principal, "contact", queued._id), { created: 3, failed: 0 })
      // Two batches of two rows (the drain's batch size).
      assert.deepStrictEqual(locks, [[principal.accountId, "contact"], [principal.accountId, "contact"]])
      locks.length = 0
      const unmatched = yield* startImport(principal, "contact", form("email,firstname\nc@example.com,C\n"))
      yield* drainRecordingLocks
      assert.deepInclude(yield* getImport(principal, "contact", unmatched._id), { created: 1 })
      assert.deepStrictEqual(locks, [])
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a file refused for any reason is a 422 on file (or match_on) and stages nothing", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const refusals: Array<[Stream.Stream<UploadPart<never>>, Record<string, ReadonlyArray<string>>]> = [
        [form("firstname,shoe_size\nA,42\n"), { file: ["The file's column shoe_size is not a contact property."] }],
        [form("email,email\na@example.com,b@example.com\n"), { file: ["The file names the column email more than once."] }],
        [form(new Uint8Array([...bytes("firstname\nCaf"), 0xe9, 0x0a])), { file: ["The file must be UTF-8 encoded text."] }],
        [form("firstname,email\n\"Unclosed,a@example.com\n"), { file: [] }],
        [form("firstname,email\nA\n"), { file: ["The file's line 2 has 1 cells; its header has 2 columns."] }],
        [form(""), { file: ["The file must start with a header row naming the properties of its columns."] }],
        [form(Array.from({ length: MAX_IMPORT_COLUMNS + 1 }, (_, i) => `c${i}`).join(",") + "\n"), { file: [`The file must not have more than ${MAX_IMPORT_COLUMNS} columns.`] }],
        [Stream.succeed<UploadPart<never>>({ _tag: "Field", key: "match_on", value: "email" }), { file: ["The file field is required."] }],
        [form("firstname\nA\n", { match_on: "email" }), { match_on: ["The selected match on is invalid."] }],
        [form("firstname,email\nA,a@example.com\n", { match_on: "shoe_size" }), { match_on: ["The selected match on is invalid."] }]
      ]
      for (const [parts, expected] of refusals) {
        const errors = yield* errorsOf(startImport(principal, "contact", parts))
        if (expected["file"]?.length === 0) assert.match(errors["file"]![0]!, /^The file is not valid CSV: .* \(line 2\)\.$/)
        else assert.deepStrictEqual(errors, expected)
      }
      assert.strictEqual((yield* memoryState).imports.size, 0)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("an import whose match_on property was deleted meanwhile fails with its reason, and the uploader is told", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const property = yield* createProperty(principal, "contact", {
        type: "string",
        name: { en: "Member no" },
        internal_name: "member_no",
        group_id: BUILTIN_GROUPS.contact._id
      })
      const queued = yield* startImport(principal, "contact", form("member_no,firstname\nM1,Amal\n", { match_on: "member_no" }))
      yield* deleteProperty(principal, "contact", property._id)
      yield* drain
      const failed = yield* getImport(principal, "contact", queued._id)
      assert.deepInclude(failed, { status: "failed", reason: "the property member_no that rows match on no longer exists.", created: 0 })
      assert.deepStrictEqual((yield* contactEvents).filter((name) => !name.includes("property")), [])
      const notices = (yield* memoryState).notifications.filter((n) => n.type === "ObjectsImport")
      const data = notices[0]!.data as Record<string, unknown>
      assert.deepInclude(data, { status: "failed" })
      assert.match(String(data["message"]), /failed: the property member_no/)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("each batch lets the import go; a worker stopped mid-batch is taken over once its claim ran out: every row once", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const rows = Array.from({ length: 7 }, (_, i) => `C${i},c${i}@example.com`).join("\n")
      const queued = yield* startImport(principal, "contact", form(`firstname,email\n${rows}\n`))
      const repo = yield* ImportRepository
      const job = Option.getOrThrow(yield* repo.find(principal.accountId, queued._id))
      // A worker writes one batch of 2 and stops: the import is free at once for the next.
      assert.isTrue(yield* processNextImport({ batch: 2 }))
      assert.deepInclude(yield* getImport(principal, "contact", queued._id), { status: "running", rows_read: 2, created: 2 })
      // The next claims it and dies before its batch commits (nothing of it is stored).
      assert.isTrue(Option.isSome(yield* Effect.flatMap(DateTime.now, (now) => repo.claim(now, DateTime.addDuration(now, Duration.minutes(1))))))
      // Its claim still holds: nobody takes the import over yet.
      assert.isFalse(yield* processNextImport({ batch: 2 }))
      // A worker holding a stale place (from before the first batch) writes the next rows but may
      // not record them as its batch: its transaction rolls back.
      yield* processImportBatch(job, { batch: 2 })
      assert.strictEqual((yield* contactsOf(principal)).length, 2)
      assert.strictEqual((yield* contactEvents).length, 2)
      yield* TestClock.adjust(Duration.minutes(2))
      yield* drain
      assert.deepInclude(yield* getImport(principal, "contact", queued._id), { status: "completed", rows_read: 7, created: 7, failed: 0 })
      assert.strictEqual((yield* contactsOf(principal)).length, 7)
      assert.strictEqual((yield* contactEvents).length, 7)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("needs <kind>-create (and <kind>-update with match_on); another account's import is not found", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const queued = yield* startImport(principal, "contact", form("firstname\nA\n"))
      const reader = { ...principal, permissions: new Set(["contact-index" as const]) }
      assert.strictEqual((yield* Effect.flip(startImport(reader, "contact", form("firstname\nA\n"))))._tag, "Forbidden")
      const creator = { ...principal, permissions: new Set(["contact-create" as const]) }
      yield* startImport(creator, "contact", form("firstname\nA\n"))
      assert.strictEqual((yield* Effect.flip(startImport(creator, "contact", form("email\na@example.com\n", { match_on: "email" }))))._tag, "Forbidden")
      const stranger = { ...principal, accountId: principal.accountId + 1000 }
      assert.strictEqual((yield* Effect.flip(getImport(stranger, "contact", queued._id)))._tag, "NotFound")
      assert.strictEqual((yield* Effect.flip(importErrorsCsv(stranger, "contact", queued._id)))._tag, "NotFound")
      assert.strictEqual((yield* Effect.flip(getImport(principal, "deal", queued._id)))._tag, "NotFound")
    }).pipe(Effect.provide(TestPorts())))
})

describe("reading an uploaded CSV", () => {
  const read = (csv: string, limits: { bytes?: number; rows?: number; columns?: number }) =>
    readCsvUpload(Stream.make(bytes(csv)), () => invalid("file", "failed"), { header: () => Effect.void, rows: () => Effect.void }, limits)

  it.effect("refuses a file over its byte, row or column limit with the limit in the message", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* errorsOf(read(`firstname\n${"Amal\n".repeat(300)}`, { bytes: 1024 })), {
        file: ["The file must not be greater than 1 kilobytes."]
      })
      assert.deepStrictEqual(yield* errorsOf(read("firstname\nAmal\nOmar\nSara\n", { rows: 2 })), {
        file: ["The file must not have more than 2 rows besides its header."]
      })
      assert.deepStrictEqual(yield* errorsOf(read("a,b,c\n", { columns: 2 })), { file: ["The file must not have more than 2 columns."] })
      assert.deepStrictEqual(yield* read("firstname\nAmal\nOmar\n", { bytes: 20, rows: 2, columns: 1 }), { columns: ["firstname"], rows: 2 })
    }))
})
