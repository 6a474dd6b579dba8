/**
 * Test-only in-memory implementations of the core's ports, sharing one
 * `MemoryStore`. The Transactor snapshots the store and restores it when the
 * transaction fails (failure, defect or interruption), like a rollback; id
 * counters are not rolled back, like database sequences.
 *
 * `MemoryStore` is exposed so tests can seed state (notification preferences,
 * unread counts, suspended memberships), inspect it, and inject faults.
 */
import { Context, DateTime, Effect, Exit, Layer, Option } from "effect"
import {
  type Account,
  AccountRepository,
  type ApiToken,
  formatSqlDateTime,
  invalid,
  type Membership,
  NotFound,
  type NotificationPreference,
  NotificationRepository,
  PasswordHasher,
  type Permission,
  SessionRepository,
  type StoredSession,
  type StoredToken,
  type Subscription,
  type Team,
  TeamRepository,
  TokenRepository,
  Transactor,
  type User,
  UserRepository
} from "../../src/index.ts"

interface MembershipRow {
  readonly membership: Membership
  readonly lastUsedMillis: number | null
  readonly order: number
}

interface TeamRow {
  readonly team: Omit<Team, "pivot">
  readonly members: ReadonlyArray<{ readonly userId: number; readonly joinedAt: DateTime.Utc }>
}

interface Tables {
  accounts: Map<number, Account>
  subscriptions: Map<number, Subscription>
  users: Map<number, { readonly user: User; readonly passwordHash: string }>
  memberships: Map<string, MembershipRow>
  teams: Map<number, TeamRow>
  tokens: Map<number, StoredToken>
  sessions: Map<string, StoredSession>
  preferences: Map<string, ReadonlyArray<NotificationPreference>>
  unread: Map<string, number>
}

const emptyTables = (): Tables => ({
  accounts: new Map(),
  subscriptions: new Map(),
  users: new Map(),
  memberships: new Map(),
  teams: new Map(),
  tokens: new Map(),
  sessions: new Map(),
  preferences: new Map(),
  unread: new Map()
})

const copyTables = (t: Tables): Tables => ({
  accounts: new Map(t.accounts),
  subscriptions: new Map(t.subscriptions),
  users: new Map(t.users),
  memberships: new Map(t.memberships),
  teams: new Map(t.teams),
  tokens: new Map(t.tokens),
  sessions: new Map(t.sessions),
  preferences: new Map(t.preferences),
  unread: new Map(t.unread)
})

export const memberKey = (accountId: number, userId: number) => `${accountId}:${userId}`

/** The whole in-memory database. Rows are immutable values; tables are replaced on rollback. */
export class Store {
  tables: Tables = emptyTables()
  private sequence = { account: 0, user: 0, team: 0, token: 0, membership: 0 }
  /** Names of port methods (e.g. "TokenRepository.create") that die when called. */
  readonly faults = new Set<string>()
  /** How many times each port method ran (for tests that check work was done). */
  readonly calls = new Map<string, number>()
  transactions = { committed: 0, rolledBack: 0 }

  nextId(kind: keyof Store["sequence"]): number {
    return ++this.sequence[kind]
  }

  snapshot(): Tables {
    return copyTables(this.tables)
  }

  restore(snapshot: Tables): void {
    this.tables = snapshot
  }

  /** Test helpers: seed and alter state directly. */
  setMembershipStatus(accountId: number, userId: number, status: Membership["status"]): void {
    const row = this.tables.memberships.get(memberKey(accountId, userId))
    if (row === undefined) throw new Error(`no membership ${accountId}:${userId}`)
    this.tables.memberships.set(memberKey(accountId, userId), {
      ...row,
      membership: { ...row.membership, status }
    })
  }

  removeMembership(accountId: number, userId: number): void {
    this.tables.memberships.delete(memberKey(accountId, userId))
  }

  setPreferences(accountId: number, userId: number, preferences: ReadonlyArray<NotificationPreference>): void {
    this.tables.preferences.set(memberKey(accountId, userId), preferences)
  }

  setUnread(accountId: number, userId: number, count: number): void {
    this.tables.unread.set(memberKey(accountId, userId), count)
  }
}

export class MemoryStore extends Context.Service<MemoryStore, Store>()("@wasl/core/test/MemoryStore") {
  static readonly layer = Layer.sync(MemoryStore, () => new Store())
}

/** Counts the call, and dies if a fault was injected for it. */
const enter = (store: Store, name: string): Effect.Effect<void> =>
  Effect.suspend(() => {
    store.calls.set(name, (store.calls.get(name) ?? 0) + 1)
    return store.faults.has(name) ? Effect.die(new Error(`injected fault: ${name}`)) : Effect.void
  })

export const TransactorMemory = Layer.effect(
  Transactor,
  MemoryStore.useSync((store) =>
    Transactor.of({
      transaction: (effect) =>
        Effect.suspend(() => {
          const snapshot = store.snapshot()
          return Effect.onExit(effect, (exit) =>
            Effect.sync(() => {
              if (Exit.isSuccess(exit)) {
                store.transactions.committed++
              } else {
                store.restore(snapshot)
                store.transactions.rolledBack++
              }
            }))
        })
    }))
)

export const AccountRepositoryMemory = Layer.effect(
  AccountRepository,
  MemoryStore.useSync((store) => {
    const update = (accountId: number, f: (a: Account, now: DateTime.Utc) => Account) =>
      Effect.gen(function*() {
        const account = store.tables.accounts.get(accountId)
        if (account === undefined) return yield* new NotFound()
        const next = f(account, yield* DateTime.now)
        store.tables.accounts.set(accountId, next)
        return next
      })
    return AccountRepository.of({
      create: (input) =>
        Effect.gen(function*() {
          yield* enter(store, "AccountRepository.create")
          const now = yield* DateTime.now
          const id = store.nextId("account")
          const account: Account = {
            id,
            name: input.name,
            plan: input.plan,
            webhook_limit: input.webhookLimit,
            otp_credits: input.otpCredits,
            industry: null,
            logo: null,
            address: null,
            timeZone: null,
            calendar: null,
            hour12: null,
            locale: null,
            currency: null,
            created_at: now,
            updated_at: now
          }
          store.tables.accounts.set(id, account)
          store.tables.subscriptions.set(id, {
            id: `sub_${id}`,
            account_id: id,
            name: "default",
            status: "active",
            trial_ends_at: null,
            paused_at: null,
            ends_at: null,
            canceled_at: null,
            created_at: now,
            updated_at: now,
            provider: "manual",
            will_change_at: null,
            will_change_to: null,
            interval: 30
          })
          return account
        }),
      findById: (id) => Effect.sync(() => Option.fromNullishOr(store.tables.accounts.get(id))),
      count: Effect.sync(() => store.tables.accounts.size),
      subscription: (accountId) =>
        Effect.suspend(() => {
          const subscription = store.tables.subscriptions.get(accountId)
          return subscription === undefined ? Effect.fail(new NotFound()) : Effect.succeed(subscription)
        }),
      addOtpCredits: (accountId, amount) =>
        Effect.flatMap(enter(store, "AccountRepository.addOtpCredits"), () =>
          update(accountId, (a, now) => {
            const otp_credits = a.otp_credits + amount
            if (otp_credits < 0) throw new Error("otp_credits would go negative")
            return { ...a, otp_credits, updated_at: now }
          })),
      setPlan: (accountId, plan, webhookLimit) =>
        Effect.flatMap(enter(store, "AccountRepository.setPlan"), () =>
          update(accountId, (a, now) => ({ ...a, plan, webhook_limit: webhookLimit, updated_at: now })))
    })
  })
)

export const UserRepositoryMemory = Layer.effect(
  UserRepository,
  MemoryStore.useSync((store) =>
    UserRepository.of({
      create: (input) =>
        Effect.gen(function*() {
          yield* enter(store, "UserRepository.create")
          const email = input.email.toLowerCase()
          for (const row of store.tables.users.values()) {
            if (row.user.email.toLowerCase() === email) {
              return yield* invalid("email", "The email has already been taken.")
            }
          }
          const now = yield* DateTime.now
          const user: User = {
            id: store.nextId("user"),
            email: input.email,
            email_verified_at: null,
            firstname: input.firstname,
            lastname: input.lastname,
            image: null,
            locale: "en",
            contacts_view_id: null,
            deals_view_id: null,
            tickets_view_id: null,
            created_at: now,
            updated_at: now
          }
          store.tables.users.set(user.id, { user, passwordHash: input.passwordHash })
          return user
        }),
      findById: (id) => Effect.sync(() => Option.fromNullishOr(store.tables.users.get(id)?.user)),
      findByEmail: (email) =>
        Effect.sync(() => {
          for (const row of store.tables.users.values()) {
            if (row.user.email.toLowerCase() === email.toLowerCase()) return Option.some(row)
          }
          return Option.none()
        }),
      addMembership: (accountId, userId) =>
        Effect.gen(function*() {
          yield* enter(store, "UserRepository.addMembership")
          const now = yield* DateTime.now
          const membership: Membership = {
            user_id: userId,
            account_id: accountId,
            status: "active",
            last_used: null,
            timeZone: "UTC",
            calendar: null,
            hour12: false,
            locale: null,
            currency: null,
            created_at: now,
            updated_at: now
          }
          store.tables.memberships.set(memberKey(accountId, userId), {
            membership,
            lastUsedMillis: null,
            order: store.nextId("membership")
          })
          return membership
        }),
      findMembership: (accountId, userId) =>
        Effect.sync(() =>
          Option.fromNullishOr(store.tables.memberships.get(memberKey(accountId, userId))?.membership)
        ),
      listMemberships: (userId) =>
        Effect.sync(() =>
          [...store.tables.memberships.values()]
            .filter((row) => row.membership.user_id === userId && row.membership.status === "active")
            .sort((a, b) => (b.lastUsedMillis ?? -Infinity) - (a.lastUsedMillis ?? -Infinity) || a.order - b.order)
            .map((row) => row.membership)
        ),
      touchMembership: (accountId, userId) =>
        Effect.gen(function*() {
          const key = memberKey(accountId, userId)
          const row = store.tables.memberships.get(key)
          if (row === undefined) return
          const now = yield* DateTime.now
          store.tables.memberships.set(key, {
            ...row,
            lastUsedMillis: DateTime.toEpochMillis(now),
            membership: { ...row.membership, last_used: formatSqlDateTime(now), updated_at: now }
          })
        })
    }))
)

const teamView = (row: TeamRow, userId: number): Team => {
  const member = row.members.find((m) => m.userId === userId) ?? row.members[0]
  const joinedAt = member?.joinedAt ?? row.team.created_at
  return {
    ...row.team,
    pivot: { user_id: member?.userId ?? userId, team_id: row.team.id, created_at: joinedAt, updated_at: joinedAt }
  }
}

export const TeamRepositoryMemory = Layer.effect(
  TeamRepository,
  MemoryStore.useSync((store) =>
    TeamRepository.of({
      create: (input, members) =>
        Effect.gen(function*() {
          yield* enter(store, "TeamRepository.create")
          const now = yield* DateTime.now
          const row: TeamRow = {
            team: {
              id: store.nextId("team"),
              name: input.name,
              description: input.description,
              made_by: input.madeBy,
              created_at: now,
              updated_at: now,
              account_id: input.accountId,
              permissions: [...input.permissions] as Array<Permission>
            },
            members: members.map((userId) => ({ userId, joinedAt: now }))
          }
          store.tables.teams.set(row.team.id, row)
          return teamView(row, members[0] ?? input.madeBy ?? 0)
        }),
      listForUser: (accountId, userId) =>
        Effect.sync(() =>
          [...store.tables.teams.values()]
            .filter((row) => row.team.account_id === accountId && row.members.some((m) => m.userId === userId))
            .map((row) => teamView(row, userId))
        )
    }))
)

export const NotificationRepositoryMemory = Layer.effect(
  NotificationRepository,
  MemoryStore.useSync((store) =>
    NotificationRepository.of({
      listPreferences: (accountId, userId) =>
        Effect.sync(() => store.tables.preferences.get(memberKey(accountId, userId)) ?? []),
      unreadCount: (accountId, userId) => Effect.sync(() => store.tables.unread.get(memberKey(accountId, userId)) ?? 0)
    }))
)

export const TokenRepositoryMemory = Layer.effect(
  TokenRepository,
  MemoryStore.useSync((store) =>
    TokenRepository.of({
      create: (input) =>
        Effect.gen(function*() {
          yield* enter(store, "TokenRepository.create")
          const now = yield* DateTime.now
          const token: ApiToken = {
            id: store.nextId("token"),
            name: input.name,
            abilities: [...input.abilities],
            last_used_at: null,
            created_at: now
          }
          store.tables.tokens.set(token.id, {
            token,
            accountId: input.accountId,
            userId: input.userId,
            secretHash: input.secretHash
          })
          return token
        }),
      findById: (id) => Effect.sync(() => Option.fromNullishOr(store.tables.tokens.get(id))),
      list: (accountId, userId) =>
        Effect.sync(() =>
          [...store.tables.tokens.values()]
            .filter((t) => t.accountId === accountId && t.userId === userId)
            .sort((a, b) => a.token.id - b.token.id)
            .map((t) => t.token)
        ),
      revoke: (accountId, userId, id) =>
        Effect.sync(() => {
          const stored = store.tables.tokens.get(id)
          if (stored === undefined || stored.accountId !== accountId || stored.userId !== userId) return false
          store.tables.tokens.delete(id)
          return true
        }),
      touch: (id) =>
        Effect.gen(function*() {
          const stored = store.tables.tokens.get(id)
          if (stored === undefined) return
          const now = yield* DateTime.now
          store.tables.tokens.set(id, { ...stored, token: { ...stored.token, last_used_at: now } })
        })
    }))
)

export const SessionRepositoryMemory = Layer.effect(
  SessionRepository,
  MemoryStore.useSync((store) =>
    SessionRepository.of({
      create: (session) =>
        Effect.sync(() => {
          store.tables.sessions.set(session.idHash, session)
        }),
      find: (idHash) => Effect.sync(() => Option.fromNullishOr(store.tables.sessions.get(idHash))),
      remove: (idHash) =>
        Effect.sync(() => {
          store.tables.sessions.delete(idHash)
        })
    }))
)

/** A trivial reversible "hash": never use outside tests. */
export const fakePasswordHash = (password: string) => `fake$${[...password].reverse().join("")}`

export const PasswordHasherFake = Layer.effect(
  PasswordHasher,
  MemoryStore.useSync((store) =>
    PasswordHasher.of({
      hash: (password) => Effect.as(enter(store, "PasswordHasher.hash"), fakePasswordHash(password)),
      verify: (password, hash) => Effect.as(enter(store, "PasswordHasher.verify"), fakePasswordHash(password) === hash)
    }))
)

/** Every repository port, the Transactor and the password hasher over one fresh store (also provided). */
export const PortsMemory = Layer.mergeAll(
  TransactorMemory,
  AccountRepositoryMemory,
  UserRepositoryMemory,
  TeamRepositoryMemory,
  NotificationRepositoryMemory,
  TokenRepositoryMemory,
  SessionRepositoryMemory,
  PasswordHasherFake
).pipe(Layer.provideMerge(MemoryStore.layer))
