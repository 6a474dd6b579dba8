/**
 * Records batches on the memory store: all or nothing, the single calls' messages under
 * `inputs.N`, at most 100 inputs, one event per record, upserts creating and updating in one
 * call, permissions and account isolation.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { createTokenForMember } from "../../src/Accounts.ts"
import { authenticateToken, type Permission, type Principal } from "../../src/Auth.ts"
import {
  createRecord,
  createRecords,
  deleteRecords,
  listRecords,
  MAX_BATCH_INPUTS,
  type RecordJson,
  updateRecords,
  upsertRecords
} from "../../src/Records.ts"
import { LaravelMessage } from "../../src/Wire.ts"
import { addMember, OWNER, setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"
import { memoryState } from "../support/store.ts"
import { recordingMatchLock } from "../support/transactions.ts"

const contactEvents = Effect.map(memoryState, (state) => state.outbox.filter((e) => e.name.startsWith("contact-")))

const contactsOf = (principal: Principal) =>
  Effect.map(listRecords(principal, "contact", { per_page: "100" }), (page) => page.items)

const idOf = (record: RecordJson) => record.properties._id

const errorsOf = <A, R>(effect: Effect.Effect<A, { readonly _tag: string }, R>) =>
  Effect.map(Effect.flip(effect), (e) => {
    assert.strictEqual(e._tag, "ValidationFailed")
    return (e as unknown as { readonly errors: Record<string, ReadonlyArray<string>> }).errors
  })

const contact = (n: number) => ({ properties: { firstname: `C${n}`, email: `c${n}@example.com` } })

const memberWith = (accountId: number, permissions: ReadonlyArray<Permission>) =>
  Effect.gen(function*() {
    const user = yield* addMember(accountId, `m${permissions.join("-")}@example.com`, permissions)
    const { plainText } = yield* createTokenForMember({ accountId, userId: user.id, abilities: ["*"] })
    return yield* authenticateToken(plainText)
  })

describe("records batches", () => {
  it.effect("creates every input in order, one contact-created event per record carrying it", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const created = yield* createRecords(principal, "contact", { inputs: [contact(1), contact(2), contact(3)] })
      assert.deepStrictEqual(created.map((r) => r.properties["email"]), ["c1@example.com", "c2@example.com", "c3@example.com"])
      const events = yield* contactEvents
      assert.deepStrictEqual(events.map((e) => e.name), ["contact-created", "contact-created", "contact-created"])
      assert.deepStrictEqual(events.map((e) => e.payload), [...created])
      assert.strictEqual((yield* contactsOf(principal)).length, 3)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("one bad input refuses the whole batch with the single call's message under inputs.N: nothing stored, no event", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const bad = { firstname: "Bad", email: "not an email" }
      const single = yield* errorsOf(createRecord(principal, "contact", bad))
      const inputs = [contact(0), contact(1), contact(2), { properties: bad }, contact(4)]
      const errors = yield* errorsOf(createRecords(principal, "contact", { inputs }))
      assert.deepStrictEqual(errors, { "inputs.3.email": single["email"] })
      assert.deepStrictEqual(yield* contactsOf(principal), [])
      assert.deepStrictEqual(yield* contactEvents, [])
    }).pipe(Effect.provide(TestPorts())))

  it.effect("refuses the received-message times, which Wasl sets, under inputs.N", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const inputs = [contact(0), { properties: { firstname: "Early", last_whatsapp_message_received_at: "2026-01-01T00:00:00Z" } }]
      const errors = yield* errorsOf(createRecords(principal, "contact", { inputs }))
      assert.deepStrictEqual(errors, {
        "inputs.1.last_whatsapp_message_received_at": ["The last whatsapp message received at field is prohibited."]
      })
      assert.deepStrictEqual(yield* contactsOf(principal), [])
    }).pipe(Effect.provide(TestPorts())))

  it.effect("reports every bad input at once", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const errors = yield* errorsOf(createRecords(principal, "contact", {
        inputs: [{ properties: { email: "x" } }, contact(1), "text", { properties: [] }, {}]
      }))
      assert.deepStrictEqual(Object.keys(errors), ["inputs.2"])
      const fields = yield* errorsOf(createRecords(principal, "contact", {
        inputs: [{ properties: { email: "x" } }, contact(1), { properties: [] }, {}]
      }))
      assert.deepStrictEqual(Object.keys(fields), ["inputs.0.email", "inputs.2.properties", "inputs.3.properties"])
      assert.deepStrictEqual(fields["inputs.3.properties"], [LaravelMessage.required("inputs.3.properties")])
    }).pipe(Effect.provide(TestPorts())))

  it.effect(`takes ${MAX_BATCH_INPUTS} inputs and refuses ${MAX_BATCH_INPUTS + 1} on inputs; an empty or missing list is required`, () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const many = (n: number) => ({ inputs: Array.from({ length: n }, (_, i) => contact(i)) })
      assert.deepStrictEqual(yield* errorsOf(createRecords(principal, "contact", many(MAX_BATCH_INPUTS + 1))), {
        inputs: [LaravelMessage.maxArray("inputs", MAX_BATCH_INPUTS)]
      })
      assert.deepStrictEqual(yield* errorsOf(createRecords(principal, "contact", { inputs: [] })), {
        inputs: [LaravelMessage.required("inputs")]
      })
      assert.deepStrictEqual(yield* errorsOf(createRecords(principal, "contact", {})), {
        inputs: [LaravelMessage.required("inputs")]
      })
      assert.strictEqual((yield* createRecords(principal, "contact", many(MAX_BATCH_INPUTS))).length, MAX_BATCH_INPUTS)
      assert.strictEqual((yield* contactEvents).length, MAX_BATCH_INPUTS)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("updates and deletes by id, one event per record; another account's id is a 422 on inputs.N.id and changes nothing", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const other = (yield* setup({ ...OWNER, account: "Other", email: "other.owner@example.com" })).principal
      const [a, b] = yield* createRecords(principal, "contact", { inputs: [contact(1), contact(2)] })
      const [foreign] = yield* createRecords(other, "contact", { inputs: [contact(9)] })
      const before = (yield* contactEvents).length

      const refused = yield* errorsOf(updateRecords(principal, "contact", {
        inputs: [{ id: idOf(a!), properties: { firstname: "A2" } }, { id: idOf(foreign!), properties: { firstname: "X" } }]
      }))
      assert.deepStrictEqual(refused, { "inputs.1.id": [LaravelMessage.selectedInvalid("inputs.1.id")] })
      assert.strictEqual((yield* contactEvents).length, before)
      assert.deepStrictEqual((yield* contactsOf(principal)).map((r) => r.properties["firstname"]).sort(), ["C1", "C2"])

      const updated = yield* updateRecords(principal, "contact", {
        inputs: [{ id: idOf(a!), properties: { firstname: "A2" } }, { id: idOf(b!), properties: { lastname: "B" } }]
      })
      assert.deepStrictEqual(updated.map((r) => [r.properties["firstname"], r.properties["lastname"]]), [["A2", null], ["C2", "B"]])
      assert.deepStrictEqual((yield* errorsOf(deleteRecords(principal, "contact", { inputs: [{ id: idOf(foreign!) }] }))), {
        "inputs.0.id": [LaravelMessage.selectedInvalid("inputs.0.id")]
      })
      assert.deepStrictEqual(yield* deleteRecords(principal, "contact", { inputs: [{ id: idOf(a!) }, { id: idOf(b!) }] }), [idOf(a!), idOf(b!)])
      assert.deepStrictEqual(yield* contactsOf(principal), [])
      const events = (yield* contactEvents).slice(before)
      assert.deepStrictEqual(events.map((e) => e.name), ["contact-updated", "contact-updated", "contact-deleted", "contact-deleted"])
      assert.deepStrictEqual(events.slice(0, 2).map((e) => e.payload), [...updated])
      assert.deepStrictEqual((yield* contactsOf(other)).map(idOf), [idOf(foreign!)])
    }).pipe(Effect.provide(TestPorts())))

  it.effect("an upsert takes the account's match lock of the kind once per batch, before its first lookup", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const { locks, withLocks } = recordingMatchLock()
      const upserted = yield* withLocks(upsertRecords(principal, "contact", {
        id_property: "email",
        inputs: [{ id: "a@example.com", properties: {} }, { id: "b@example.com", properties: {} }, { id: "a@example.com", properties: {} }]
      }))
      assert.strictEqual(upserted.length, 3)
      assert.deepStrictEqual(locks, [[principal.accountId, "contact"]])
    }).pipe(Effect.provide(TestPorts())))

  it.effect("upserts by a property: updates the record holding the value, creates one holding it otherwise, in one call", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const [known] = yield* createRecords(principal, "contact", { inputs: [contact(1)] })
      const before = (yield* contactEvents).length
      const upserted = yield* upsertRecords(principal, "contact", {
        id_property: "email",
        inputs: [
          { id: "c1@example.com", properties: { firstname: "One" } },
          { id: "new@example.com", properties: { firstname: "New" } },
          { id: "new@example.com", id_property: "email", properties: { lastname: "Again" } }
        ]
      })
      assert.strictEqual(idOf(upserted[0]!), idOf(known!))
      assert.strictEqual(upserted[0]!.properties["firstname"], "One")
      assert.strictEqual(upserted[1]!.properties["email"], "new@example.com")
      assert.strictEqual(idOf(upserted[2]!), idOf(upserted[1]!))
      assert.strictEqual(upserted[2]!.properties["lastname"], "Again")
      assert.deepStrictEqual(
        (yield* contactEvents).slice(before).map((e) => e.name),
        ["contact-updated", "contact-created", "contact-updated"]
      )
      assert.strictEqual((yield* contactsOf(principal)).length, 2)

      assert.deepStrictEqual(yield* errorsOf(upsertRecords(principal, "contact", { inputs: [{ id: "x", properties: {} }] })), {
        "inputs.0.id_property": [LaravelMessage.required("inputs.0.id_property")]
      })
      assert.deepStrictEqual(
        yield* errorsOf(upsertRecords(principal, "contact", { id_property: "nope", inputs: [{ id: "x", properties: {} }] })),
        { id_property: [LaravelMessage.selectedInvalid("id_property")] }
      )
      yield* createRecords(principal, "contact", { inputs: [{ properties: { firstname: "One" } }] })
      const ambiguous = yield* errorsOf(upsertRecords(principal, "contact", {
        inputs: [{ id: "One", id_property: "firstname", properties: {} }]
      }))
      assert.deepStrictEqual(Object.keys(ambiguous), ["inputs.0.id"])
    }).pipe(Effect.provide(TestPorts())))

  it.effect("needs the single calls' permissions (an upsert: create and update)", () =>
    Effect.gen(function*() {
      const { principal: owner } = yield* setup()
      const creator = yield* memberWith(owner.accountId, ["contact-create"])
      const tag = <A, R>(effect: Effect.Effect<A, { readonly _tag: string }, R>) => Effect.map(Effect.flip(effect), (e) => e._tag)
      assert.strictEqual((yield* createRecords(creator, "contact", { inputs: [contact(1)] })).length, 1)
      assert.strictEqual(yield* tag(upsertRecords(creator, "contact", { id_property: "email", inputs: [{ id: "a@example.com", properties: {} }] })), "Forbidden")
      assert.strictEqual(yield* tag(updateRecords(creator, "contact", { inputs: [] })), "Forbidden")
      assert.strictEqual(yield* tag(deleteRecords(creator, "contact", { inputs: [] })), "Forbidden")
      assert.strictEqual(yield* tag(createRecords(creator, "deal", { inputs: [] })), "Forbidden")
    }).pipe(Effect.provide(TestPorts())))
})
