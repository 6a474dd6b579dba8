/**
 * `RepositoryCachesPg` across two replicas on one database (PGlite, and PostgreSQL when
 * TEST_DATABASE_URL is set): each replica keeps the per-request reads (so a change that announces
 * nothing stays invisible to it for the TTL, here an hour), and a change that the triggers
 * announce — a revoked token, a suspended member, a new property — takes effect on the other
 * replica as soon as the notification arrives. The TTL of an hour means only the notification can
 * make these tests pass; they wait for it without a deadline of their own (the test timeout). On
 * PostgreSQL the replicas run on the service's own client (`PostgresClientLive`, its listening
 * session included), and a replica whose session ends drops what it kept.
 */
import { assert, describe, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import {
  AccountRepository,
  bootstrapAccount,
  CurrentUserReader,
  type CurrentUserParts,
  TeamRepository
} from "@wasl/core/Accounts"
import { authenticateToken, TokenRepository } from "@wasl/core/Auth"
import { Transactor } from "@wasl/core/Deployment"
import { NotificationRepository } from "@wasl/core/Notifications"
import { OtpLedger } from "@wasl/core/Otp"
import { type PropertyDefinition, PropertyRepository, type SavedView, SavedViewRepository } from "@wasl/core/Records"
import { makeRecordId } from "@wasl/core/Wire"
import { type Context, DateTime, Effect, Exit, Layer, Option, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll } from "vitest"
import { makeEmbeddedPgClient, MigrationsLive, PostgresClientLive } from "../src/db/database.ts"
import { makePgliteTestDatabase, makePostgresTestDatabase, postgresTestEnabled, testPostgresUrl } from "../src/db/test-database.ts"
import { PasswordHasherFast } from "../src/password-hasher-scrypt.ts"
import { RepositoryCachesPg } from "../src/pg/index.ts"
import { ServicesPg } from "../src/services-pg.ts"

type Database = "pglite" | "postgres"

/** A client layer per replica, on one fresh database for the scope. */
const sharedDatabase = (database: Database) =>
  database === "pglite"
    ? Effect.map(makePgliteTestDatabase, (embedded) => () => PgClient.layerFrom(makeEmbeddedPgClient(embedded)))
    : Effect.map(makePostgresTestDatabase(testPostgresUrl()!), (created) => () => PostgresClientLive(created.url))

const replicaLayer = (client: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown>) =>
  RepositoryCachesPg({ ttl: "1 hour" }).pipe(
    Layer.provideMerge(ServicesPg),
    Layer.provideMerge(PasswordHasherFast),
    Layer.provideMerge(MigrationsLive),
    Layer.provideMerge(client)
  )

type Replica = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.Effect<A, E>

/** Two replicas (`a`, `b`) on one database, for the scope. */
const twoReplicas = (database: Database) =>
  Effect.gen(function*() {
    const client = yield* sharedDatabase(database)
    const on = (context: Context.Context<any>): Replica => (effect) => Effect.provideContext(effect, context)
    const a = on(yield* Layer.build(replicaLayer(client())))
    const b = on(yield* Layer.build(replicaLayer(client())))
    return { a, b }
  }).pipe(Effect.orDie)

let accounts = 0
/** A fresh account with its owner's token, made on `replica`: each test has its own. */
const newOwner = (replica: Replica) =>
  replica(bootstrapAccount({
    account: "Cache",
    email: `cache-${++accounts}@example.test`,
    password: "correct horse battery",
    plan: "business",
    otpCredits: 0
  })).pipe(Effect.orDie)

/** Runs SQL on a replica without firing the cache triggers: a change nobody announces. */
const silently = (statement: string, params: ReadonlyArray<unknown>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(Effect.andThen(
      sql`SET LOCAL session_replication_role = replica`,
      sql.unsafe(statement, [...params])
    ))
  }).pipe(Effect.orDie)

const sql = (statement: string, params: ReadonlyArray<unknown>) =>
  SqlClient.SqlClient.use((client) => client.unsafe(statement, [...params])).pipe(Effect.orDie)

/**
 * Until `replica` keeps what `read` reads: reads (which starts its listener), changes it without
 * announcing (`change`), reads again; the old value (`kept`) means the replica answered from its
 * cache. Otherwise (it was not listening yet, or kept an older value) undoes the change with an
 * announced one (`undo`, which drops whatever the replica kept) and tries again.
 */
const untilKept = <A, E>(
  replica: Replica,
  read: Effect.Effect<A, E, any>,
  change: Effect.Effect<void, never, any>,
  undo: Effect.Effect<void, never, any>,
  kept: (value: A) => boolean
) =>
  Effect.gen(function*() {
    while (true) {
      yield* replica(read)
      yield* change
      if (kept(yield* replica(read))) return
      yield* undo
      yield* Effect.sleep("20 millis")
    }
  })

/** Until `read` on the replica satisfies `done` (what a notification brings about). */
const until = <A, E>(replica: Replica, read: Effect.Effect<A, E, any>, done: (exit: Exit.Exit<A, E>) => boolean) =>
  Effect.gen(function*() {
    while (!done(yield* Effect.exit(replica(read)))) yield* Effect.sleep("20 millis")
  })

const definition = (accountId: number, internalName: string): PropertyDefinition => ({
  _id: makeRecordId(Date.now() / 1000, globalThis.crypto.getRandomValues(new Uint8Array(8))),
  type: "string",
  name: { en: internalName },
  desc: null,
  internal_name: internalName,
  group_id: makeRecordId(Date.now() / 1000, globalThis.crypto.getRandomValues(new Uint8Array(8))),
  account_id: accountId,
  made_by: null,
  created_at: DateTime.makeUnsafe("2031-01-01T00:00:00Z"),
  updated_at: DateTime.makeUnsafe("2031-01-01T00:00:00Z"),
  kind: "deal",
  builtin: false,
  readOnly: false,
  required: false
})

/** The internal names of the account's deal properties. */
const propertyNames = (accountId: number) =>
  Effect.map(
    PropertyRepository.use((properties) => properties.list(accountId, "deal")),
    (definitions) => definitions.map((d) => d.internal_name)
  )

/** Until `replica` keeps the account's (empty) property list: a property `writer` adds silently does not show. */
const untilPropertiesKept = (replica: Replica, writer: Replica, accountId: number) => {
  const silent = definition(accountId, "silent")
  return untilKept(
    replica,
    propertyNames(accountId),
    writer(silently(
      `INSERT INTO properties (account_id, id, kind, internal_name, type, name, group_id, created_at, updated_at)
       VALUES ($1, $2, 'deal', 'silent', 'string', '{"en":"silent"}', $3, now(), now())`,
      [accountId, silent._id, silent.group_id]
    )),
    writer(sql(`DELETE FROM properties WHERE account_id = $1`, [accountId])),
    (names) => names.length === 0
  )
}

/** The abilities `authenticateToken` finds for the owner's token. */
const abilitiesOf = (owner: { readonly token: string }) =>
  Effect.map(authenticateToken(owner.token), (principal) => principal.abilities)

/** Until `replica` keeps the owner's token: a change of its abilities `writer` makes silently does not show. */
const untilTokenKept = (replica: Replica, writer: Replica, owner: { readonly token: string }) => {
  const tokenId = Number(owner.token.split("|")[0])
  return untilKept(
    replica,
    abilitiesOf(owner),
    writer(silently(`UPDATE api_tokens SET abilities = '["deal-index"]' WHERE id = $1`, [tokenId])),
    writer(sql(`UPDATE api_tokens SET abilities = '["*"]' WHERE id = $1`, [tokenId])),
    (abilities) => abilities?.includes("*") === true
  )
}

type Owner = Effect.Success<ReturnType<typeof newOwner>>

/** The owner's `GET /api/me` parts, as the replica it runs on reads them. */
const partsOf = (owner: Owner) =>
  Effect.map(CurrentUserReader.use((reader) => reader.read(owner.account_id, owner.user_id)), Option.getOrThrow)

/** Until `replica` keeps the owner's parts: the account renamed silently (to `silent <round>`) does not show. */
const untilPartsKept = (replica: Replica, writer: Replica, owner: Owner, round: number) =>
  untilKept(
    replica,
    partsOf(owner),
    writer(silently(`UPDATE accounts SET name = $2 WHERE id = $1`, [owner.account_id, `silent ${round}`])),
    writer(sql(`UPDATE accounts SET name = 'Cache' WHERE id = $1`, [owner.account_id])),
    (parts) => parts.account.name !== `silent ${round}`
  )

/**
 * A change, in SQL with `$1` the account and `$2` the user, to each table `GET /api/me` reads, and
 * how the parts show it.
 */
const CURRENT_USER_CHANGES: ReadonlyArray<readonly [statement: string, shows: (parts: CurrentUserParts) => boolean]> = [
  [`UPDATE users SET firstname = 'Renamed' WHERE id = $2`, (parts) => parts.user.firstname === "Renamed"],
  [`UPDATE accounts SET otp_credits = 42 WHERE id = $1`, (parts) => parts.account.otp_credits === 42],
  [
    `UPDATE subscriptions SET name = 'renamed' WHERE account_id = $1`,
    (parts) => Option.getOrUndefined(parts.subscription)?.name === "renamed"
  ],
  [`UPDATE teams SET name = 'Renamed' WHERE account_id = $1`, (parts) => parts.teams.every((team) => team.name === "Renamed")],
  [`UPDATE account_user SET locale = 'fr' WHERE account_id = $1 AND user_id = $2`, (parts) => parts.membership.locale === "fr"],
  [
    `INSERT INTO notification_preferences (account_id, user_id, name, email, created_at, updated_at)
     VALUES ($1, $2, 'ObjectsExport', false, now(), now())`,
    (parts) => parts.preferences.some((preference) => preference.name === "ObjectsExport")
  ],
  [
    `INSERT INTO notifications (account_id, user_id, type, created_at) VALUES ($1, $2, 'ObjectsExport', now())`,
    (parts) => parts.unreadCount === 1
  ],
  [`UPDATE notifications SET read_at = now() WHERE account_id = $1 AND user_id = $2`, (parts) => parts.unreadCount === 0],
  [`DELETE FROM team_user WHERE account_id = $1 AND user_id = $2`, (parts) => parts.teams.length === 0],
  [
    // Another member's shared view (its owner's id stands for one), chosen by the owner.
    `WITH v AS (
       INSERT INTO saved_views (account_id, kind, id, user_id, name, complex_filters, columns, shared, created_at, updated_at)
       VALUES ($1, 'deal', '${"a".repeat(24)}', 0, 'Shared', '[]', '[]', true, now(), now()) RETURNING account_id, kind, id
     )
     INSERT INTO saved_view_choices (account_id, user_id, kind, view_id) SELECT account_id, $2, kind, id FROM v`,
    (parts) => parts.views.deal === "a".repeat(24)
  ],
  [`UPDATE saved_views SET shared = false WHERE account_id = $1 AND user_id <> $2`, (parts) => parts.views.deal === null]
]

const databases: ReadonlyArray<Database> = postgresTestEnabled() ? ["pglite", "postgres"] : ["pglite"]

describe.each(databases)("RepositoryCachesPg on %s", (database) => {
  // One database and two replicas for the file's tests (each test works in an account of its own).
  const scope = Scope.makeUnsafe()
  let replicas: { readonly a: Replica; readonly b: Replica }
  beforeAll(async () => {
    replicas = await Effect.runPromise(Scope.provide(twoReplicas(database), scope))
  }, 60_000)
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

  it.live("a token revoked on one replica is refused by the other once notified", () =>
    Effect.gen(function*() {
      const { a, b } = replicas
      const owner = yield* newOwner(a)
      const tokenId = Number(owner.token.split("|")[0])
      const abilitiesOnB = abilitiesOf(owner)
      // B keeps the token: a change nobody announces does not reach it.
      yield* untilTokenKept(b, a, owner)
      assert.deepStrictEqual(yield* a(abilitiesOnB), ["deal-index"], "A, which kept nothing of it, reads the change")
      const revoked = yield* a(TokenRepository.use((tokens) =>
        tokens.revoke(owner.account_id, owner.user_id, tokenId)))
      assert.isTrue(revoked)
      yield* until(b, abilitiesOnB, Exit.isFailure)
      const exit = yield* Effect.exit(b(abilitiesOnB))
      assert.isTrue(Exit.isFailure(exit))
    }), 60_000)

  it.live("a member suspended with SQL loses access on every replica once notified", () =>
    Effect.gen(function*() {
      const { a, b } = replicas
      const owner = yield* newOwner(a)
      const permissionsOnB = Effect.map(authenticateToken(owner.token), (principal) => principal.permissions.size)
      const [team] = yield* a(sql(`SELECT permissions FROM teams WHERE account_id = $1`, [owner.account_id]))
      yield* untilKept(
        b,
        permissionsOnB,
        a(silently(`UPDATE teams SET permissions = '{}' WHERE account_id = $1`, [owner.account_id])),
        a(sql(`UPDATE teams SET permissions = $2::text[] WHERE account_id = $1`, [owner.account_id, (team as { permissions: unknown }).permissions])),
        (size) => size > 0
      )
      yield* a(sql(`UPDATE account_user SET status = 'suspended' WHERE account_id = $1 AND user_id = $2`, [
        owner.account_id,
        owner.user_id
      ]))
      yield* until(b, permissionsOnB, Exit.isFailure)
    }), 60_000)

  it.live("a property created on one replica is listed by the other once notified", () =>
    Effect.gen(function*() {
      const { a, b } = replicas
      const owner = yield* newOwner(a)
      const namesOnB = propertyNames(owner.account_id)
      yield* untilPropertiesKept(b, a, owner.account_id)
      yield* a(PropertyRepository.use((properties) =>
        properties.insert(definition(owner.account_id, "announced"))))
      yield* until(b, namesOnB, (exit) => Exit.isSuccess(exit) && exit.value.length === 2)
    }), 60_000)

  it.live("a change to any table of GET /api/me's parts, made with SQL on one replica, reaches the other once notified", () =>
    Effect.gen(function*() {
      const { a, b } = replicas
      const owner = yield* newOwner(a)
      for (const [round, [statement, shows]] of CURRENT_USER_CHANGES.entries()) {
        yield* untilPartsKept(b, a, owner, round)
        assert.isFalse(shows(yield* b(partsOf(owner))), `B kept the parts from before: ${statement}`)
        yield* a(sql(statement, [owner.account_id, owner.user_id]))
        yield* until(b, partsOf(owner), (exit) => Exit.isSuccess(exit) && shows(exit.value))
      }
    }), 60_000)

  it.live("a replica reads its own writes to GET /api/me's parts at once", () =>
    Effect.gen(function*() {
      const { a } = replicas
      const owner = yield* newOwner(a)
      const parts = a(partsOf(owner))
      const now = yield* DateTime.now
      const sharedView: SavedView = {
        _id: makeRecordId(1_900_000_000, new Uint8Array(8).fill(9)), kind: "deal", account_id: owner.account_id, user_id: 0,
        name: "Shared", search: null, order: null, direction: null, complex_filters: [], columns: [], shared: true,
        created_at: now, updated_at: now
      }
      // Each write through a port drops what A kept: the next read shows it, with no notification
      // awaited (the kept parts would still show the account's silent rename otherwise).
      const writes: ReadonlyArray<readonly [string, Effect.Effect<unknown, unknown, any>, (parts: CurrentUserParts) => boolean]> = [
        [
          "OTP credits added",
          AccountRepository.use((accounts) => accounts.addOtpCredits(owner.account_id, 5)),
          (p) => p.account.otp_credits === 5
        ],
        ["an OTP credit charged", OtpLedger.use((ledger) => ledger.chargeCredit(owner.account_id)), (p) => p.account.otp_credits === 4],
        [
          "the plan changed",
          AccountRepository.use((accounts) => accounts.setPlan(owner.account_id, "custom", 3)),
          (p) => p.account.plan === "custom"
        ],
        [
          "a preference saved",
          NotificationRepository.use((notifications) =>
            notifications.savePreference(owner.account_id, owner.user_id, "ObjectsImport", {
              stored: true,
              popup: false,
              browser: false,
              email: false
            }, now)),
          (p) => p.preferences.some((preference) => preference.name === "ObjectsImport")
        ],
        [
          "a notification stored",
          NotificationRepository.use((notifications) =>
            notifications.insert({
              accountId: owner.account_id,
              userId: owner.user_id,
              type: "ObjectsImport",
              data: {},
              channels: { stored: true, popup: false, browser: false, email: false },
              email: null,
              now
            })),
          (p) => p.unreadCount === 1
        ],
        [
          "a team made with the member",
          TeamRepository.use((teams) =>
            teams.create({ accountId: owner.account_id, name: "Second", description: null, madeBy: null, permissions: [] }, [
              owner.user_id
            ])),
          (p) => p.teams.length === 2
        ],
        [
          "another member's shared view chosen",
          SavedViewRepository.use((views) =>
            Effect.andThen(views.save(sharedView), views.choose(owner.account_id, owner.user_id, "deal", sharedView._id))),
          (p) => p.views.deal === sharedView._id
        ],
        [
          "the chosen view made private by its owner",
          SavedViewRepository.use((views) => views.save({ ...sharedView, shared: false })),
          (p) => p.views.deal === null
        ]
      ]
      for (const [round, [what, write, shows]] of writes.entries()) {
        yield* untilPartsKept(a, a, owner, round)
        assert.isFalse(shows(yield* parts), `A kept the parts from before ${what}`)
        yield* a(write)
        assert.isTrue(shows(yield* parts), `A reads its own write at once: ${what}`)
      }
    }), 60_000)

  it.live("a read inside a transaction sees its own writes and keeps nothing a rollback undoes", () =>
    Effect.gen(function*() {
      const { a } = replicas
      const owner = yield* newOwner(a)
      const names = propertyNames(owner.account_id)
      yield* untilPropertiesKept(a, a, owner.account_id)
      const inside = yield* a(Transactor.use((transactor) =>
        transactor.transaction(Effect.gen(function*() {
          yield* (yield* PropertyRepository).insert(definition(owner.account_id, "rolled_back"))
          return yield* Effect.fail(yield* names)
        }))).pipe(Effect.flip))
      assert.deepStrictEqual([...inside].sort(), ["rolled_back", "silent"], "the transaction read the database, not the cache")
      assert.deepStrictEqual(yield* a(names), ["silent"], "the write dropped the kept list; the rolled back property is not kept")
    }), 60_000)

  // The notifications sent while a replica's listening session is gone never reach it (on
  // PostgreSQL: the embedded database has no session to end).
  if (database === "postgres") {
    it.live("a replica whose listening session ends keeps nothing it may have missed", () =>
      Effect.gen(function*() {
        const { a, b } = replicas
        const revoked = yield* newOwner(a)
        const other = yield* newOwner(a)
        yield* untilTokenKept(b, a, revoked)
        // Every listening session of the database ends (both replicas'), and the token is revoked
        // while B cannot hear of it.
        yield* a(sql(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN %'`,
          []
        ))
        const tokenId = Number(revoked.token.split("|")[0])
        assert.isTrue(yield* a(TokenRepository.use((tokens) => tokens.revoke(revoked.account_id, revoked.user_id, tokenId))))
        // B listens and keeps again, yet what it kept before is gone: the revoked token is refused.
        yield* untilTokenKept(b, a, other)
        assert.isTrue(Exit.isFailure(yield* Effect.exit(b(abilitiesOf(revoked)))), "B refuses the token revoked while it was not listening")
      }), 60_000)
  }
})
