/** The contract suite of `PropertyRepository` and `PropertyGroupRepository` (documented on `propertiesContract`). */
import { assert, layer } from "@effect/vitest"
import { AccountRepository, UserRepository } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import {
  type PropertyDefinition,
  type PropertyGroupDefinition,
  PropertyGroupRepository,
  PropertyRepository
} from "@wasl/core/Records"
import { makeRecordId } from "@wasl/core/Wire"
import { Cause, DateTime, Duration, Effect, Exit, type Layer, Option } from "effect"

/** What the layer under `propertiesContract` provides. */
export type PropertiesContractServices =
  | PropertyRepository
  | PropertyGroupRepository
  | AccountRepository
  | UserRepository
  | Transactor

class Boom extends Error {}

let sequence = 0
const uniqueEmail = () =>
  `props.${Date.now().toString(36)}.${(sequence++).toString(36)}.${Math.random().toString(36).slice(2, 8)}@example.com`

const newId = () => makeRecordId(Date.now() / 1000, globalThis.crypto.getRandomValues(new Uint8Array(8)))

const T1 = DateTime.makeUnsafe("2031-02-03T04:05:06.789Z")
const T2 = DateTime.makeUnsafe("2031-02-03T04:05:07.123Z")
const T3 = DateTime.makeUnsafe("2031-02-04T00:00:00.000Z")

/** An account with one member. */
const newMember = Effect.gen(function*() {
  const account = yield* (yield* AccountRepository).create({ name: "Props", plan: "business", webhookLimit: null, otpCredits: 0 })
  const users = yield* UserRepository
  const user = yield* users.create({ email: uniqueEmail(), passwordHash: "x", firstname: "A", lastname: "B" }).pipe(
    Effect.orDie
  )
  yield* users.addMembership(account.id, user.id)
  return { accountId: account.id, userId: user.id }
})

const property = (
  accountId: number,
  userId: number | null,
  overrides: Partial<PropertyDefinition> = {}
): PropertyDefinition => ({
  _id: newId(),
  type: "single_select",
  name: { ar: "المستوى", en: "Tier" },
  desc: { en: "Customer tier" },
  internal_name: "tier",
  group_id: newId(),
  enum: [{ en: "Gold", ar: "ذهبي", internal_name: "gold" }, { en: "Silver", ar: "فضي", internal_name: "silver" }],
  account_id: accountId,
  made_by: userId,
  created_at: T1,
  updated_at: T1,
  kind: "contact",
  builtin: false,
  readOnly: false,
  required: false,
  ...overrides
})

const group = (
  accountId: number,
  userId: number | null,
  overrides: Partial<PropertyGroupDefinition> = {}
): PropertyGroupDefinition => ({
  _id: newId(),
  name: { en: "Sales" },
  desc: null,
  internal_name: "sales",
  account_id: accountId,
  made_by: userId,
  created_at: T1,
  updated_at: T1,
  kind: "deal",
  builtin: false,
  ...overrides
})

/**
 * The contract of `PropertyRepository` and `PropertyGroupRepository` over every implementation
 * (memory, PGlite, PostgreSQL, or yours): definitions and groups read back as given; an
 * internal_name is unique per account and kind; update and delete change only what they name and
 * never reach another account or kind; a group counts its properties; a failed transaction stores
 * nothing.
 *
 * Each test makes its own accounts, so the suites can share a database.
 *
 * Call it at the top level of a vitest test file (it uses `@effect/vitest`): it declares one
 * `describe` block named `name`, whose tests share one build of `implementation` and run without
 * Effect's test services (each test that needs a `TestClock` provides its own).
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides the two ports under test, `AccountRepository`, `UserRepository`
 *   and `Transactor`.
 */
export const propertiesContract = <E>(name: string, implementation: Layer.Layer<PropertiesContractServices, E>): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    // -------------------------------------------------------------------------
    // properties
    // -------------------------------------------------------------------------

    it.effect("stores a property and reads it back as it was given", () =>
      Effect.gen(function*() {
        const repo = yield* PropertyRepository
        const { accountId, userId } = yield* newMember
        const select = property(accountId, userId)
        const { enum: _options, ...text } = property(accountId, null, {
          type: "string",
          internal_name: "nickname",
          name: { ar: "اللقب" },
          desc: null,
          created_at: T2,
          updated_at: T2
        })
        yield* repo.insert(text)
        yield* repo.insert(select)
        assert.deepStrictEqual(yield* repo.findById(accountId, "contact", select._id), Option.some(select))
        assert.deepStrictEqual(yield* repo.findById(accountId, "contact", text._id), Option.some(text))
        assert.isFalse("enum" in Option.getOrThrow(yield* repo.findById(accountId, "contact", text._id)))
        // Oldest first.
        assert.deepStrictEqual(yield* repo.list(accountId, "contact"), [select, text])
        assert.deepStrictEqual(yield* repo.internalNames(accountId, "contact"), ["tier", "nickname"])
        assert.deepStrictEqual(yield* repo.list(accountId, "deal"), [])
      }))

    it.effect("internal_name is unique per account and kind", () =>
      Effect.gen(function*() {
        const repo = yield* PropertyRepository
        const a = yield* newMember
        const b = yield* newMember
        yield* repo.insert(property(a.accountId, a.userId))
        const error = yield* Effect.flip(repo.insert(property(a.accountId, a.userId)))
        assert.strictEqual(error._tag, "ValidationFailed")
        assert.deepStrictEqual(error.errors, { internal_name: ["The internal name has already been taken."] })
        // Another kind, another account: free.
        yield* repo.insert(property(a.accountId, a.userId, { kind: "deal" }))
        yield* repo.insert(property(b.accountId, b.userId))
        assert.strictEqual((yield* repo.list(a.accountId, "contact")).length, 1)
      }))

    it.effect("never shows, changes or deletes a property of another account or kind", () =>
      Effect.gen(function*() {
        const repo = yield* PropertyRepository
        const a = yield* newMember
        const b = yield* newMember
        const mine = property(a.accountId, a.userId)
        yield* repo.insert(mine)
        assert.isTrue(Option.isNone(yield* repo.findById(b.accountId, "contact", mine._id)))
        assert.isTrue(Option.isNone(yield* repo.findById(a.accountId, "deal", mine._id)))
        assert.isFalse(yield* repo.update({ ...mine, account_id: b.accountId, name: { en: "Stolen" } }))
        assert.isFalse(yield* repo.update({ ...mine, kind: "deal", name: { en: "Stolen" } }))
        assert.isFalse(yield* repo.delete(b.accountId, "contact", mine._id))
        assert.isFalse(yield* repo.delete(a.accountId, "deal", mine._id))
        assert.strictEqual(yield* repo.countInGroup(b.accountId, "contact", mine.group_id), 0)
        assert.deepStrictEqual(yield* repo.list(b.accountId, "contact"), [])
        assert.deepStrictEqual(yield* repo.findById(a.accountId, "contact", mine._id), Option.some(mine))
      }))

    it.effect("update replaces type, texts, group and options, and keeps the rest", () =>
      Effect.gen(function*() {
        const repo = yield* PropertyRepository
        const { accountId, userId } = yield* newMember
        const current = property(accountId, userId)
        yield* repo.insert(current)
        const { enum: _options, ...rest } = current
        const next: PropertyDefinition = {
          ...rest,
          type: "string",
          name: { en: "Level" },
          desc: null,
          group_id: newId(),
          updated_at: T3,
          // Ignored: internal_name, made_by and created_at are kept.
          internal_name: "other",
          made_by: null,
          created_at: T3
        }
        assert.isTrue(yield* repo.update(next))
        const found = Option.getOrThrow(yield* repo.findById(accountId, "contact", current._id))
        assert.deepStrictEqual(found, { ...next, internal_name: "tier", made_by: userId, created_at: T1 })
        assert.isFalse("enum" in found)
        // And back to a select.
        assert.isTrue(yield* repo.update({ ...found, type: "multi_select", enum: current.enum! }))
        assert.deepStrictEqual(
          Option.getOrThrow(yield* repo.findById(accountId, "contact", current._id)).enum,
          current.enum
        )
        assert.isFalse(yield* repo.update({ ...next, _id: newId() }))
      }))

    it.effect("deletes, and counts the properties in a group", () =>
      Effect.gen(function*() {
        const repo = yield* PropertyRepository
        const { accountId, userId } = yield* newMember
        const groupId = newId()
        const p1 = property(accountId, userId, { group_id: groupId, internal_name: "p1" })
        const p2 = property(accountId, userId, { group_id: groupId, internal_name: "p2", created_at: T2 })
        const p3 = property(accountId, userId, { internal_name: "p3", created_at: T3 })
        yield* Effect.forEach([p1, p2, p3], repo.insert)
        yield* repo.insert(property(accountId, userId, { group_id: groupId, internal_name: "p1", kind: "deal" }))
        assert.strictEqual(yield* repo.countInGroup(accountId, "contact", groupId), 2)
        assert.isTrue(yield* repo.delete(accountId, "contact", p1._id))
        assert.isFalse(yield* repo.delete(accountId, "contact", p1._id))
        assert.strictEqual(yield* repo.countInGroup(accountId, "contact", groupId), 1)
        assert.deepStrictEqual(yield* repo.internalNames(accountId, "contact"), ["p2", "p3"])
        // The name is free again.
        yield* repo.insert(property(accountId, userId, { internal_name: "p1" }))
      }))

    it.effect("a failed transaction stores no property", () =>
      Effect.gen(function*() {
        const repo = yield* PropertyRepository
        const transactor = yield* Transactor
        const { accountId, userId } = yield* newMember
        const doomed = property(accountId, userId)
        const exit = yield* Effect.exit(transactor.transaction(
          Effect.andThen(repo.insert(doomed), Effect.die(new Boom("defect")))
        ))
        assert.isTrue(Exit.isFailure(exit) && Cause.squash(exit.cause) instanceof Boom)
        assert.deepStrictEqual(yield* repo.list(accountId, "contact"), [])
        yield* repo.insert(doomed)
      }))

    // -------------------------------------------------------------------------
    // groups
    // -------------------------------------------------------------------------

    it.effect("stores a group and reads it back as it was given", () =>
      Effect.gen(function*() {
        const repo = yield* PropertyGroupRepository
        const { accountId, userId } = yield* newMember
        const g1 = group(accountId, userId, { desc: { ar: "وصف", en: "About sales" } })
        const g2 = group(accountId, null, { internal_name: "sales_2", created_at: T2, updated_at: T2 })
        yield* repo.insert(g2)
        yield* repo.insert(g1)
        assert.deepStrictEqual(yield* repo.findById(accountId, "deal", g1._id), Option.some(g1))
        assert.deepStrictEqual(yield* repo.list(accountId, "deal"), [g1, g2])
        assert.deepStrictEqual(yield* repo.internalNames(accountId, "deal"), ["sales", "sales_2"])
        assert.deepStrictEqual(yield* repo.list(accountId, "ticket"), [])
      }))

    it.effect("a group's internal_name is unique per account and kind", () =>
      Effect.gen(function*() {
        const repo = yield* PropertyGroupRepository
        const a = yield* newMember
        const b = yield* newMember
        yield* repo.insert(group(a.accountId, a.userId))
        const error = yield* Effect.flip(repo.insert(group(a.accountId, a.userId)))
        assert.deepStrictEqual(error.errors, { internal_name: ["The internal name has already been taken."] })
        yield* repo.insert(group(a.accountId, a.userId, { kind: "ticket" }))
        yield* repo.insert(group(b.accountId, b.userId))
      }))

    it.effect("updates name and desc only, deletes, and stays within the account and kind", () =>
      Effect.gen(function*() {
        const repo = yield* PropertyGroupRepository
        const a = yield* newMember
        const b = yield* newMember
        const current = group(a.accountId, a.userId)
        yield* repo.insert(current)
        const next = { ...current, name: { ar: "مبيعات" }, desc: { en: "New" }, updated_at: T3 }
        assert.isTrue(yield* repo.update({ ...next, internal_name: "changed", created_at: T3 }))
        assert.deepStrictEqual(yield* repo.findById(a.accountId, "deal", current._id), Option.some(next))
        assert.isFalse(yield* repo.update({ ...next, account_id: b.accountId }))
        assert.isFalse(yield* repo.update({ ...next, kind: "ticket" }))
        assert.isTrue(Option.isNone(yield* repo.findById(b.accountId, "deal", current._id)))
        assert.isFalse(yield* repo.delete(b.accountId, "deal", current._id))
        assert.isFalse(yield* repo.delete(a.accountId, "ticket", current._id))
        assert.isTrue(yield* repo.delete(a.accountId, "deal", current._id))
        assert.isTrue(Option.isNone(yield* repo.findById(a.accountId, "deal", current._id)))
        assert.isFalse(yield* repo.delete(a.accountId, "deal", current._id))
      }))

    it.effect("a failed transaction stores no group", () =>
      Effect.gen(function*() {
        const repo = yield* PropertyGroupRepository
        const transactor = yield* Transactor
        const { accountId, userId } = yield* newMember
        const exit = yield* Effect.exit(transactor.transaction(
          Effect.andThen(repo.insert(group(accountId, userId)), Effect.die(new Boom("defect")))
        ))
        assert.isTrue(Exit.isFailure(exit))
        assert.deepStrictEqual(yield* repo.list(accountId, "deal"), [])
      }))
  })
