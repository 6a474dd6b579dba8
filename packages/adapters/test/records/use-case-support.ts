/**
 * What the record use-case tests share: every service the use-cases need over memory, PGlite and
 * PostgreSQL (the last when TEST_DATABASE_URL, or DATABASE_URL, is set), a fresh principal, and the
 * events an account queued.
 */
import { bootstrapAccount, UserRepository } from "@wasl/core/Accounts"
import { PERMISSIONS, type Permission, type Principal } from "@wasl/core/Auth"
import { Outbox, type QueueSignals } from "@wasl/core/Events"
import { type NotificationFeed } from "@wasl/core/Notifications"
import { type RecordJson } from "@wasl/core/Records"
import { Effect, Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import { MigrationsLive } from "../../src/db/database.ts"
import { TestDatabase } from "../../src/db/test-database.ts"
import { type MemoryStore, RepositoriesMemory } from "../../src/memory/index.ts"
import { PasswordHasherFast } from "../../src/password-hasher-scrypt.ts"
import { ServicesPg } from "../../src/services-pg.ts"
import { TokenHasherNode } from "../../src/token-hasher-node.ts"

const memory = Layer.mergeAll(RepositoriesMemory, TokenHasherNode).pipe(
  Layer.provideMerge(PasswordHasherFast),
  Layer.provideMerge(SecureRandom.layerWebCrypto)
)

const onDatabase = (database: (typeof TestDatabase.variants)[number]["layer"]) =>
  ServicesPg.pipe(Layer.provideMerge(PasswordHasherFast), Layer.provideMerge(MigrationsLive), Layer.provide(database))

/** What every variant provides: the memory one's services (all ports), less its store and its signals. */
export type UseCaseServices = Exclude<Layer.Success<typeof memory>, MemoryStore | QueueSignals | NotificationFeed>

export interface UseCaseVariant {
  readonly name: string
  readonly enabled: boolean
  readonly layer: Layer.Layer<UseCaseServices, unknown>
}

/** The services of the use-cases on each implementation, for `describe.each` + `describe.runIf(enabled)`. */
export const USE_CASE_VARIANTS: ReadonlyArray<UseCaseVariant> = [
  { name: "memory", enabled: true, layer: memory },
  ...TestDatabase.variants.map((variant) => ({ name: variant.name, enabled: variant.enabled, layer: onDatabase(variant.layer) }))
]

let counter = 0

/** A fresh account and a principal in it holding `permissions` (all by default). */
export const newPrincipal = (permissions: ReadonlyArray<Permission> = PERMISSIONS) =>
  Effect.gen(function*() {
    counter += 1
    const created = yield* bootstrapAccount({
      account: `Records ${counter}`,
      email: `records-${counter}-${Date.now()}@example.com`,
      password: "correct horse battery staple",
      plan: "business",
      otpCredits: 0
    })
    const principal: Principal = {
      kind: "session",
      accountId: created.account_id,
      userId: created.user_id,
      permissions: new Set(permissions),
      abilities: null,
      tokenId: null,
      sessionId: null
    }
    return principal
  })

/** Another member of the principal's account holding `permissions` (all by default). */
export const newMember = (of: Principal, permissions: ReadonlyArray<Permission> = PERMISSIONS) =>
  Effect.gen(function*() {
    counter += 1
    const users = yield* UserRepository
    const user = yield* Effect.orDie(users.create({
      email: `member-${counter}-${Date.now()}@example.com`,
      passwordHash: "x",
      firstname: "Other",
      lastname: "Member"
    }))
    yield* users.addMembership(of.accountId, user.id)
    return { ...of, userId: user.id, permissions: new Set(permissions) } satisfies Principal as Principal
  })

/** The account's queued events, claimed (so each call sees only events queued since the last). */
export const claimEvents = (accountId: number) =>
  Effect.map(
    Outbox.use((outbox) => outbox.claim(100, "1 minute")),
    (events) => events.filter((e) => e.accountId === accountId).map((e) => ({ name: e.name, payload: e.payload }))
  )

export const propertiesOf = (json: RecordJson) => json.properties as Record<string, unknown>

/** The `_id` of a record's REST shape. */
export const idOf = (json: RecordJson) => propertiesOf(json)._id as string

/** The failure's errors (a failure other than a 422 as `{ tag: [its tag] }`), or a failure of the test when it succeeded. */
export const errorsOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(effect), (e) => (e as { errors?: Record<string, ReadonlyArray<string>> }).errors ?? { tag: [(e as { _tag: string })._tag] })

/** The failure's tag, or a failure of the test when it succeeded. */
export const tagOf = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.map(Effect.flip(effect), (e) => (e as { _tag: string })._tag)
