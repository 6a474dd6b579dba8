/**
 * Custom properties and property groups: permissions, built-in protection, validation, group
 * internal_names, tenant isolation and the outbox events written with each change.
 */
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { createTokenForMember } from "../../src/Accounts.ts"
import { authenticateToken, type Permission, PERMISSIONS } from "../../src/Auth.ts"
import { Outbox } from "../../src/Events.ts"
import {
  BUILTIN_GROUPS,
  BUILTIN_PROPERTIES,
  createProperty,
  createPropertyGroup,
  deleteProperty,
  deletePropertyGroup,
  encodeProperty,
  encodePropertyGroup,
  getProperty,
  getPropertyGroup,
  GROUP_NOT_EMPTY,
  listProperties,
  listPropertyGroups,
  type ObjectKind,
  PropertyValueStore,
  type StoredValue,
  updateProperty,
  updatePropertyGroup
} from "../../src/Records.ts"
import { LaravelMessage, LaravelMessageMore } from "../../src/Wire.ts"
import { addMember, OWNER, setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"
import { memoryState } from "../support/store.ts"
import { TransactionCounts } from "../support/transactions.ts"

// ---------------------------------------------------------------------------------------------
// Support
// ---------------------------------------------------------------------------------------------

/** The values records hold, per property id, for the fake `PropertyValueStore`. */
class RecordValues extends Context.Service<RecordValues, Map<string, ReadonlyArray<StoredValue>>>()(
  "@wasl/core/test/RecordValues"
) {}

const ValuesLayer = Layer.effectContext(Effect.sync(() => {
  const values = new Map<string, ReadonlyArray<StoredValue>>()
  return Context.make(RecordValues, values).pipe(
    Context.add(
      PropertyValueStore,
      PropertyValueStore.of({
        valuesOf: (_accountId, _kind, id) => Effect.succeed(values.get(id) ?? []),
        convert: (_accountId, property, conversions) =>
          Effect.sync(() => {
            const kept = conversions.flatMap((c) => c.to === null ? [] : [c.to])
            values.set(property._id, kept)
          }),
        drop: (_accountId, property) => Effect.sync(() => values.delete(property._id))
      })
    )
  )
}))

const Ports = () => ValuesLayer.pipe(Layer.provideMerge(TestPorts()))

/** `Ports`, with an outbox that dies when a property or group event is appended. */
const PortsWithBrokenOutbox = () =>
  Layer.effect(
    Outbox,
    Effect.gen(function*() {
      const real = yield* Outbox
      return Outbox.of({
        ...real,
        append: (events) =>
          events.some((e) => e.name.includes("-property"))
            ? Effect.die(new Error("outbox down"))
            : real.append(events)
      })
    })
  ).pipe(Layer.provideMerge(Ports()))

const events = Effect.map(memoryState, (state) => state.outbox.filter((e) => e.name.includes("-property")))

/** A principal of a new member of the account, with exactly `permissions`. */
const memberWith = (accountId: number, permissions: ReadonlyArray<Permission>) =>
  Effect.gen(function*() {
    const user = yield* addMember(accountId, `m${Math.random().toString(36).slice(2)}@example.com`, permissions)
    const { plainText } = yield* createTokenForMember({ accountId, userId: user.id, abilities: ["*"] })
    return yield* authenticateToken(plainText)
  })

/** A second account with its own owner. */
const otherAccount = Effect.map(
  setup({ ...OWNER, account: "Other", email: "other.owner@example.com" }),
  (created) => created.principal
)

const tierBody = (groupId: string, overrides: Record<string, unknown> = {}) => ({
  type: "single_select",
  name: { en: "Tier", ar: "المستوى" },
  internal_name: "tier",
  group_id: groupId,
  enum: [{ en: "Gold", ar: "ذهبي", internal_name: "gold" }, { en: "Silver", internal_name: "silver" }],
  ...overrides
})

const contactGroup = BUILTIN_GROUPS.contact._id

const flipTag = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(effect), (e) => e._tag)

const errorsOf = <A, R>(effect: Effect.Effect<A, { readonly _tag: string }, R>) =>
  Effect.map(Effect.flip(effect), (e) => {
    assert.strictEqual(e._tag, "ValidationFailed")
    return (e as unknown as { readonly errors: Record<string, ReadonlyArray<string>> }).errors
  })

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

describe("properties", () => {
  it.effect("lists the built-ins first, then the custom properties oldest first", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const a = yield* createProperty(principal, "contact", tierBody(contactGroup))
      yield* TestClock.adjust("1 second")
      const b = yield* createProperty(principal, "contact", { type: "number", name: { en: "Score" }, internal_name: "score", group_id: contactGroup })
      const list = yield* listProperties(principal, "contact")
      const builtins = BUILTIN_PROPERTIES.contact
      assert.deepStrictEqual(list.slice(0, builtins.length), [...builtins])
      assert.isTrue(list.slice(0, builtins.length).every((p) => p.account_id === null && p.made_by === null))
      assert.deepStrictEqual(list.slice(builtins.length).map((p) => p._id), [a._id, b._id])
      assert.deepStrictEqual(yield* listProperties(principal, "deal"), [...BUILTIN_PROPERTIES.deal])
      assert.deepStrictEqual(yield* getProperty(principal, "contact", builtins[0]!._id), builtins[0])
      assert.deepStrictEqual(yield* getProperty(principal, "contact", b._id), b)
    }).pipe(Effect.provide(Ports())))

  it.effect("creates a property, with its created event in the same transaction", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const created = yield* createProperty(principal, "contact", tierBody(contactGroup, { desc: { en: "  " } }))
      assert.match(created._id, /^[0-9a-f]{24}$/)
      assert.strictEqual(created.account_id, principal.accountId)
      assert.strictEqual(created.made_by, principal.userId)
      assert.strictEqual(created.internal_name, "tier")
      assert.isNull(created.desc)
      assert.isFalse(created.builtin)
      // An option with one label gets it in both languages.
      assert.deepStrictEqual(created.enum, [
        { en: "Gold", ar: "ذهبي", internal_name: "gold" },
        { en: "Silver", ar: "Silver", internal_name: "silver" }
      ])
      const all = yield* events
      assert.strictEqual(all.length, 1)
      assert.strictEqual(all[0]!.name, "contact-property-created")
      assert.strictEqual(all[0]!.accountId, principal.accountId)
      assert.deepStrictEqual(all[0]!.payload, encodeProperty(created))
      assert.deepStrictEqual((all[0]!.payload as { desc: unknown }).desc, [])
      assert.strictEqual((yield* TransactionCounts).rolledBack, 0)
    }).pipe(Effect.provide(Ports())))

  it.effect("a write that fails leaves neither the change nor an event", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const exit = yield* Effect.exit(createProperty(principal, "contact", tierBody(contactGroup)))
      assert.isTrue(exit._tag === "Failure")
      assert.strictEqual((yield* listProperties(principal, "contact")).length, BUILTIN_PROPERTIES.contact.length)
      assert.strictEqual((yield* events).length, 0)
      const groupExit = yield* Effect.exit(createPropertyGroup(principal, "deal", { name: { en: "Sales" } }))
      assert.isTrue(groupExit._tag === "Failure")
      assert.strictEqual((yield* listPropertyGroups(principal, "deal")).length, 1)
      assert.isAtLeast((yield* TransactionCounts).rolledBack, 2)
    }).pipe(Effect.provide(PortsWithBrokenOutbox())))

  it.effect("a refused write leaves no event", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      yield* Effect.flip(createProperty(principal, "contact", tierBody(contactGroup, { internal_name: "firstname" })))
      yield* Effect.flip(createPropertyGroup(principal, "deal", {}))
      assert.deepStrictEqual(yield* events, [])
    }).pipe(Effect.provide(Ports())))

  it.effect("needs property-manage to write, and <kind>-index or property-manage to read", () =>
    Effect.gen(function*() {
      const { principal: owner } = yield* setup()
      const property = yield* createProperty(owner, "contact", tierBody(contactGroup))
      const group = yield* createPropertyGroup(owner, "contact", { name: { en: "Extra" } })
      const withoutManage = yield* memberWith(owner.accountId, PERMISSIONS.filter((p) => p !== "property-manage"))
      const refused = [
        yield* flipTag(createProperty(withoutManage, "contact", tierBody(contactGroup, { internal_name: "other" }))),
        yield* flipTag(updateProperty(withoutManage, "contact", property._id, tierBody(contactGroup))),
        yield* flipTag(deleteProperty(withoutManage, "contact", property._id)),
        yield* flipTag(createPropertyGroup(withoutManage, "contact", { name: { en: "X" } })),
        yield* flipTag(updatePropertyGroup(withoutManage, "contact", group._id, { name: { en: "X" } })),
        yield* flipTag(deletePropertyGroup(withoutManage, "contact", group._id))
      ]
      assert.deepStrictEqual(refused, Array(6).fill("Forbidden"))
      // Reading with contact-index only.
      const indexOnly = yield* memberWith(owner.accountId, ["contact-index"])
      assert.strictEqual((yield* listProperties(indexOnly, "contact")).length, BUILTIN_PROPERTIES.contact.length + 1)
      assert.deepStrictEqual(yield* getPropertyGroup(indexOnly, "contact", group._id), group)
      assert.strictEqual(yield* flipTag(listProperties(indexOnly, "deal")), "Forbidden")
      assert.strictEqual(yield* flipTag(listPropertyGroups(indexOnly, "deal")), "Forbidden")
      // Reading with property-manage only.
      const manageOnly = yield* memberWith(owner.accountId, ["property-manage"])
      assert.deepStrictEqual(yield* getProperty(manageOnly, "contact", property._id), property)
      assert.strictEqual((yield* listPropertyGroups(manageOnly, "ticket")).length, 1)
      assert.isNotEmpty(yield* listProperties(manageOnly, "ticket"))
      // Nothing changed, nothing emitted by the refused writes.
      assert.deepStrictEqual((yield* events).map((e) => e.name), ["contact-property-created", "contact-property-group-created"])
    }).pipe(Effect.provide(Ports())))

  it.effect("internal_name is unique per kind and account, built-ins included", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const unique = LaravelMessageMore.unique("internal_name")
      for (const taken of ["firstname", "fullname", "deal_ids", "created_at", "updated_at"]) {
        const errors = yield* errorsOf(createProperty(principal, "contact", tierBody(contactGroup, { internal_name: taken })))
        assert.deepStrictEqual(errors, { internal_name: [unique] }, taken)
      }
      yield* createProperty(principal, "contact", tierBody(contactGroup))
      assert.deepStrictEqual(yield* errorsOf(createProperty(principal, "contact", tierBody(contactGroup))), {
        internal_name: [unique]
      })
      // Another kind of the same account, and the same kind of another account, are free.
      yield* createProperty(principal, "deal", tierBody(BUILTIN_GROUPS.deal._id))
      const other = yield* otherAccount
      yield* createProperty(other, "contact", tierBody(contactGroup))
      // firstname is a contact built-in, not a deal one.
      yield* createProperty(principal, "deal", tierBody(BUILTIN_GROUPS.deal._id, { internal_name: "firstname" }))
    }).pipe(Effect.provide(Ports())))

  it.effect("validates the body: 422 with the keys of every failing field", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const errors = yield* errorsOf(createProperty(principal, "contact", {}))
      assert.deepStrictEqual(Object.keys(errors).sort(), ["group_id", "internal_name", "name", "type"])
      const badGroup = yield* errorsOf(createProperty(principal, "contact", tierBody(BUILTIN_GROUPS.deal._id)))
      assert.deepStrictEqual(badGroup, { group_id: [LaravelMessage.selectedInvalid("group_id")] })
      const noEnum = yield* errorsOf(createProperty(principal, "contact", tierBody(contactGroup, { enum: undefined })))
      assert.deepStrictEqual(Object.keys(noEnum), ["enum"])
      const prohibited = yield* errorsOf(createProperty(principal, "contact", tierBody(contactGroup, { type: "string" })))
      assert.deepStrictEqual(Object.keys(prohibited), ["enum"])
    }).pipe(Effect.provide(Ports())))

  it.effect("puts a property in the account's own group of the kind, never in another's", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const mine = yield* createPropertyGroup(principal, "contact", { name: { en: "Extra" } })
      const dealGroup = yield* createPropertyGroup(principal, "deal", { name: { en: "Extra" } })
      const other = yield* otherAccount
      const theirs = yield* createPropertyGroup(other, "contact", { name: { en: "Extra" } })
      const created = yield* createProperty(principal, "contact", tierBody(mine._id))
      assert.strictEqual(created.group_id, mine._id)
      for (const groupId of [dealGroup._id, theirs._id]) {
        const errors = yield* errorsOf(createProperty(principal, "contact", tierBody(groupId, { internal_name: "x" })))
        assert.deepStrictEqual(Object.keys(errors), ["group_id"])
        const update = yield* errorsOf(updateProperty(principal, "contact", created._id, tierBody(groupId)))
        assert.deepStrictEqual(Object.keys(update), ["group_id"])
      }
    }).pipe(Effect.provide(Ports())))

  it.effect("updates a property, keeping its internal_name, with its updated event", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const created = yield* createProperty(principal, "contact", tierBody(contactGroup))
      yield* TestClock.adjust("1 minute")
      const changed = yield* errorsOf(
        updateProperty(principal, "contact", created._id, tierBody(contactGroup, { internal_name: "renamed" }))
      )
      assert.deepStrictEqual(changed, { internal_name: [LaravelMessageMore.immutable("internal_name")] })
      const updated = yield* updateProperty(principal, "contact", created._id, {
        type: "string",
        name: { en: "Level" },
        desc: { ar: "وصف" },
        internal_name: "tier",
        group_id: contactGroup
      })
      assert.strictEqual(updated.internal_name, "tier")
      assert.strictEqual(updated.type, "string")
      assert.isFalse("enum" in updated)
      assert.deepStrictEqual(updated.desc, { ar: "وصف" })
      assert.deepStrictEqual(updated.created_at, created.created_at)
      assert.isTrue(updated.updated_at.epochMilliseconds > created.updated_at.epochMilliseconds)
      assert.deepStrictEqual(yield* getProperty(principal, "contact", created._id), updated)
      const all = yield* events
      assert.deepStrictEqual(all.map((e) => e.name), ["contact-property-created", "contact-property-updated"])
      assert.deepStrictEqual(all[1]!.payload, encodeProperty(updated))
    }).pipe(Effect.provide(Ports())))

  it.effect("a type or option change must fit the values records hold", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const values = yield* RecordValues
      const tier = yield* createProperty(principal, "contact", tierBody(contactGroup))
      values.set(tier._id, ["gold", "silver"])
      // To a number: "gold" is not one.
      const toNumber = yield* errorsOf(
        updateProperty(principal, "contact", tier._id, { type: "number", name: { en: "Tier" }, group_id: contactGroup })
      )
      assert.deepStrictEqual(toNumber, { type: [LaravelMessageMore.incompatibleValues("type")] })
      // Dropping an option in use.
      const dropSilver = yield* errorsOf(
        updateProperty(principal, "contact", tier._id, tierBody(contactGroup, { enum: [{ en: "Gold", internal_name: "gold" }] }))
      )
      assert.deepStrictEqual(Object.keys(dropSilver), ["enum"])
      assert.deepStrictEqual(yield* getProperty(principal, "contact", tier._id), tier)
      // To a string or a multi_select with the same options: every value fits.
      const asText = yield* updateProperty(principal, "contact", tier._id, { type: "string", name: { en: "Tier" }, group_id: contactGroup })
      assert.strictEqual(asText.type, "string")
      // A property without values can change type freely.
      const score = yield* createProperty(principal, "contact", {
        type: "number",
        name: { en: "Score" },
        internal_name: "score",
        group_id: contactGroup
      })
      assert.strictEqual(
        (yield* updateProperty(principal, "contact", score._id, { type: "boolean", name: { en: "Score" }, group_id: contactGroup })).type,
        "boolean"
      )
      assert.deepStrictEqual((yield* events).map((e) => e.name), [
        "contact-property-created",
        "contact-property-updated",
        "contact-property-created",
        "contact-property-updated"
      ])
    }).pipe(Effect.provide(Ports())))

  it.effect("deletes a property, with its deleted event", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const created = yield* createProperty(principal, "contact", tierBody(contactGroup))
      const deleted = yield* deleteProperty(principal, "contact", created._id)
      assert.deepStrictEqual(deleted, created)
      assert.strictEqual(yield* flipTag(getProperty(principal, "contact", created._id)), "NotFound")
      assert.strictEqual(yield* flipTag(deleteProperty(principal, "contact", created._id)), "NotFound")
      const all = yield* events
      assert.deepStrictEqual(all.map((e) => e.name), ["contact-property-created", "contact-property-deleted"])
      assert.deepStrictEqual(all[1]!.payload, encodeProperty(created))
      // The internal_name is free again.
      yield* createProperty(principal, "contact", tierBody(contactGroup))
    }).pipe(Effect.provide(Ports())))

  it.effect("built-in properties can be read but not changed or deleted (403)", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const stage = BUILTIN_PROPERTIES.deal.find((p) => p.internal_name === "deal_stage")!
      assert.deepStrictEqual(yield* getProperty(principal, "deal", stage._id), stage)
      const update = yield* Effect.flip(updateProperty(principal, "deal", stage._id, { type: "string" }))
      assert.strictEqual(update._tag, "Forbidden")
      assert.strictEqual(yield* flipTag(deleteProperty(principal, "deal", stage._id)), "Forbidden")
      // A built-in of another kind is not one of this kind's.
      assert.strictEqual(yield* flipTag(getProperty(principal, "contact", stage._id)), "NotFound")
      assert.strictEqual(yield* flipTag(deleteProperty(principal, "contact", stage._id)), "NotFound")
      assert.deepStrictEqual(yield* events, [])
    }).pipe(Effect.provide(Ports())))

  it.effect("another account's or kind's property, or a malformed id, is not found", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const created = yield* createProperty(principal, "contact", tierBody(contactGroup))
      const other = yield* otherAccount
      assert.strictEqual(yield* flipTag(getProperty(other, "contact", created._id)), "NotFound")
      assert.strictEqual(yield* flipTag(updateProperty(other, "contact", created._id, tierBody(contactGroup))), "NotFound")
      assert.strictEqual(yield* flipTag(deleteProperty(other, "contact", created._id)), "NotFound")
      assert.strictEqual((yield* listProperties(other, "contact")).length, BUILTIN_PROPERTIES.contact.length)
      assert.strictEqual(yield* flipTag(getProperty(principal, "deal", created._id)), "NotFound")
      assert.strictEqual(yield* flipTag(getProperty(principal, "contact", "not-an-id")), "NotFound")
      assert.deepStrictEqual(yield* getProperty(principal, "contact", created._id), created)
      assert.deepStrictEqual((yield* events).map((e) => e.name), ["contact-property-created"])
    }).pipe(Effect.provide(Ports())))
})

// ---------------------------------------------------------------------------------------------
// Groups
// ---------------------------------------------------------------------------------------------

describe("property groups", () => {
  it.effect("derives the internal_name, unique among the kind's groups, built-in included", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const vip = yield* createPropertyGroup(principal, "deal", { name: { en: "VIP Clients", ar: "كبار العملاء" } })
      assert.strictEqual(vip.internal_name, "vip_clients")
      assert.strictEqual(vip.account_id, principal.accountId)
      assert.strictEqual(vip.made_by, principal.userId)
      assert.isNull(vip.desc)
      const again = yield* createPropertyGroup(principal, "deal", { name: { en: "vip clients" } })
      assert.strictEqual(again.internal_name, "vip_clients_2")
      const builtinName = yield* createPropertyGroup(principal, "deal", { name: { en: "Deal information" } })
      assert.strictEqual(builtinName.internal_name, "deal_information_2")
      const arabic = yield* createPropertyGroup(principal, "deal", { name: { ar: "مبيعات" } })
      assert.strictEqual(arabic.internal_name, "group")
      // Another kind: free.
      assert.strictEqual((yield* createPropertyGroup(principal, "ticket", { name: { en: "VIP Clients" } })).internal_name, "vip_clients")
      const list = yield* listPropertyGroups(principal, "deal")
      assert.deepStrictEqual(list[0], BUILTIN_GROUPS.deal)
      assert.deepStrictEqual(list.slice(1).map((g) => g.internal_name).sort(), ["deal_information_2", "group", "vip_clients", "vip_clients_2"])
      const created = (yield* events).filter((e) => e.name === "deal-property-group-created")
      assert.strictEqual(created.length, 4)
      assert.deepStrictEqual(created[0]!.payload, encodePropertyGroup(vip))
      assert.deepStrictEqual((created[0]!.payload as { desc: unknown }).desc, [])
    }).pipe(Effect.provide(Ports())))

  it.effect("concurrent creates of one name each get their own suffix", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const groups = yield* Effect.all(
        Array.from({ length: 10 }, () => createPropertyGroup(principal, "deal", { name: { en: "Burst" } })),
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual(
        groups.map((g) => g.internal_name).sort(),
        ["burst", ...Array.from({ length: 9 }, (_, i) => `burst_${i + 2}`)].sort()
      )
    }).pipe(Effect.provide(Ports())))

  it.effect("an update changes name and desc and keeps the internal_name, with its updated event", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const group = yield* createPropertyGroup(principal, "deal", { name: { en: "Sales" } })
      yield* TestClock.adjust("1 minute")
      const updated = yield* updatePropertyGroup(principal, "deal", group._id, {
        name: { en: "Marketing" },
        desc: { en: "Campaigns" },
        internal_name: "ignored"
      })
      assert.strictEqual(updated.internal_name, "sales")
      assert.deepStrictEqual(updated.name, { en: "Marketing" })
      assert.deepStrictEqual(updated.desc, { en: "Campaigns" })
      assert.deepStrictEqual(updated.created_at, group.created_at)
      assert.deepStrictEqual(yield* getPropertyGroup(principal, "deal", group._id), updated)
      // A new group named like the old one: the name is still taken.
      assert.strictEqual((yield* createPropertyGroup(principal, "deal", { name: { en: "Sales" } })).internal_name, "sales_2")
      const all = yield* events
      assert.deepStrictEqual(all[1]!.name, "deal-property-group-updated")
      assert.deepStrictEqual(all[1]!.payload, encodePropertyGroup(updated))
      const errors = yield* errorsOf(updatePropertyGroup(principal, "deal", group._id, { name: {} }))
      assert.deepStrictEqual(Object.keys(errors).sort(), ["name.ar", "name.en"])
    }).pipe(Effect.provide(Ports())))

  it.effect("a group holding properties cannot be deleted (422); an empty one can", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const group = yield* createPropertyGroup(principal, "contact", { name: { en: "Extra" } })
      const property = yield* createProperty(principal, "contact", tierBody(group._id))
      const errors = yield* errorsOf(deletePropertyGroup(principal, "contact", group._id))
      assert.deepStrictEqual(errors, { _id: [GROUP_NOT_EMPTY] })
      yield* updateProperty(principal, "contact", property._id, tierBody(contactGroup))
      const deleted = yield* deletePropertyGroup(principal, "contact", group._id)
      assert.deepStrictEqual(deleted, group)
      assert.strictEqual(yield* flipTag(getPropertyGroup(principal, "contact", group._id)), "NotFound")
      const all = yield* events
      assert.deepStrictEqual(all.map((e) => e.name), [
        "contact-property-group-created",
        "contact-property-created",
        "contact-property-updated",
        "contact-property-group-deleted"
      ])
      assert.deepStrictEqual(all[3]!.payload, encodePropertyGroup(group))
    }).pipe(Effect.provide(Ports())))

  it.effect("built-in groups can be read but not changed or deleted (403)", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      for (const kind of ["contact", "deal", "ticket"] as ReadonlyArray<ObjectKind>) {
        const builtin = BUILTIN_GROUPS[kind]
        assert.deepStrictEqual(yield* getPropertyGroup(principal, kind, builtin._id), builtin)
        assert.strictEqual(yield* flipTag(updatePropertyGroup(principal, kind, builtin._id, { name: { en: "X" } })), "Forbidden")
        assert.strictEqual(yield* flipTag(deletePropertyGroup(principal, kind, builtin._id)), "Forbidden")
      }
      assert.strictEqual(yield* flipTag(getPropertyGroup(principal, "deal", BUILTIN_GROUPS.contact._id)), "NotFound")
      assert.deepStrictEqual(yield* events, [])
    }).pipe(Effect.provide(Ports())))

  it.effect("another account's or kind's group is not found", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const group = yield* createPropertyGroup(principal, "deal", { name: { en: "Sales" } })
      const other = yield* otherAccount
      assert.strictEqual(yield* flipTag(getPropertyGroup(other, "deal", group._id)), "NotFound")
      assert.strictEqual(yield* flipTag(updatePropertyGroup(other, "deal", group._id, { name: { en: "X" } })), "NotFound")
      assert.strictEqual(yield* flipTag(deletePropertyGroup(other, "deal", group._id)), "NotFound")
      assert.strictEqual(yield* flipTag(getPropertyGroup(principal, "ticket", group._id)), "NotFound")
      assert.deepStrictEqual(yield* listPropertyGroups(other, "deal"), [BUILTIN_GROUPS.deal])
      // The other account derives its own names.
      assert.strictEqual((yield* createPropertyGroup(other, "deal", { name: { en: "Sales" } })).internal_name, "sales")
      assert.deepStrictEqual(yield* getPropertyGroup(principal, "deal", group._id), group)
    }).pipe(Effect.provide(Ports())))
})
