/**
 * The in-memory database behind the `*Memory` twins: one immutable state
 * object in a `Ref`, replaced wholesale by each write.
 *
 * Concurrency model, mirroring PostgreSQL's observable behaviour:
 * - every single operation is one synchronous `Ref.modify`, hence atomic;
 * - `TransactorMemory.transaction` holds `lock` for its whole duration, so
 *   transactions are serialised, and restores the snapshot taken at its start
 *   when the effect fails (or is interrupted);
 * - an operation outside a transaction also takes `lock`, so it waits for a
 *   running transaction instead of slipping a write in that a rollback would
 *   then silently erase.
 * Fibers forked inside a transaction inherit `CurrentMemoryTransaction`, so they
 * do not wait for the lock their own transaction holds.
 */
import type {
  Account,
  DeliveryAttempt,
  DeliveryStatus,
  EventName,
  NotificationName,
  OutboxEvent,
  Permission,
  PropertyDefinition,
  PropertyGroupDefinition,
  StoredSession,
  StoredToken,
  StoredWebhook,
  Subscription,
  User
} from "@wasl/core"
import { Context, type DateTime, Effect, HashMap, Layer, Ref, Result, Semaphore } from "effect"
import { emptyMessagingTables, type MessagingTables } from "./messaging-tables.ts"
import { makeSignalHub, type MemorySignalHub } from "./signal-hub.ts"
import type { LinkTable, NoteTable, RecordTable } from "./record-tables.ts"

export interface MembershipRow {
  readonly accountId: number
  readonly userId: number
  readonly status: "active" | "suspended"
  readonly lastUsed: DateTime.Utc | null
  readonly timeZone: string
  readonly calendar: string | null
  readonly hour12: boolean
  readonly locale: string | null
  readonly currency: string | null
  readonly createdAt: DateTime.Utc
  readonly updatedAt: DateTime.Utc
}

export interface TeamRow {
  readonly id: number
  readonly accountId: number
  readonly name: string
  readonly description: string | null
  readonly madeBy: number | null
  readonly permissions: ReadonlyArray<Permission>
  readonly createdAt: DateTime.Utc
  readonly updatedAt: DateTime.Utc
}

export interface TeamUserRow {
  readonly accountId: number
  readonly teamId: number
  readonly userId: number
  readonly createdAt: DateTime.Utc
  readonly updatedAt: DateTime.Utc
}

export interface PreferenceRow {
  readonly id: number
  readonly accountId: number
  readonly userId: number
  readonly name: NotificationName
  readonly stored: boolean
  readonly popup: boolean
  readonly browser: boolean
  readonly email: boolean
  readonly createdAt: DateTime.Utc
  readonly updatedAt: DateTime.Utc
}

export interface NotificationRow {
  readonly id: number
  readonly accountId: number
  readonly userId: number
  readonly type: string
  readonly data: unknown
  readonly readAt: DateTime.Utc | null
  readonly createdAt: DateTime.Utc
  /** Channel flags (absent on rows seeded before they existed: stored, popup and browser on). */
  readonly stored?: boolean
  readonly popup?: boolean
  readonly browser?: boolean
  readonly updatedAt?: DateTime.Utc
  /** The queued mail, if the email channel was on. */
  readonly email?: { readonly subject: string; readonly text: string } | null
  readonly emailedAt?: DateTime.Utc | null
  readonly emailAttempts?: number
}

/** Webhooks and their subscriptions (webhook-repository-memory.ts). */
export interface WebhookTable {
  readonly nextId: number
  readonly nextEventId: number
  /** By id. */
  readonly rows: ReadonlyArray<StoredWebhook>
}

/** A row of the `deliveries` table with its attempts (delivery-repository-memory.ts). */
export interface DeliveryRow {
  readonly accountId: number
  /** A UUID, lowercase (as PostgreSQL's `uuid` gives it back). */
  readonly id: string
  readonly webhookId: number
  readonly eventId: string | null
  readonly event: EventName
  readonly body: string
  readonly status: DeliveryStatus
  readonly attempts: number
  readonly nextAttemptAt: DateTime.Utc | null
  readonly claimedUntil: DateTime.Utc | null
  readonly createdAt: DateTime.Utc
  readonly updatedAt: DateTime.Utc
  /** The `delivery_attempts` rows, by number. */
  readonly attemptLog: ReadonlyArray<DeliveryAttempt>
}

export interface UserRow {
  readonly user: User
  readonly passwordHash: string
}

/** Next value of each table's sequence (auto-increment ids start at 1, like bigserial). */
export interface Sequences {
  readonly accounts: number
  readonly users: number
  readonly teams: number
  readonly tokens: number
  readonly preferences: number
  readonly notifications: number
}

export interface MemoryState {
  readonly sequences: Sequences
  readonly accounts: ReadonlyMap<number, Account>
  /** Keyed by account id: one subscription per account. */
  readonly subscriptions: ReadonlyMap<number, Subscription>
  readonly users: ReadonlyMap<number, UserRow>
  /** Keyed by `membershipKey(accountId, userId)`. */
  readonly memberships: ReadonlyMap<string, MembershipRow>
  readonly teams: ReadonlyMap<number, TeamRow>
  readonly teamUsers: ReadonlyArray<TeamUserRow>
  readonly preferences: ReadonlyArray<PreferenceRow>
  readonly notifications: ReadonlyArray<NotificationRow>
  readonly tokens: ReadonlyMap<number, StoredToken>
  readonly sessions: ReadonlyMap<string, StoredSession>
  /** Pending outbox events, oldest first (outbox-memory.ts). */
  readonly outbox: ReadonlyArray<OutboxEvent>
  /** Custom property definitions, oldest first (property-repository-memory.ts). */
  readonly properties: ReadonlyArray<PropertyDefinition>
  /** Custom property groups, oldest first (property-group-repository-memory.ts). */
  readonly propertyGroups: ReadonlyArray<PropertyGroupDefinition>
  readonly webhooks: WebhookTable
  /** Sending numbers, broadcasts, messages and the OTP tables (messaging-tables.ts). */
  readonly messaging: MessagingTables
  /** Keyed by `deliveryKey(accountId, id)`, in insertion order. */
  readonly deliveries: ReadonlyMap<string, DeliveryRow>
  /** Records of the six kinds, by account and kind (record-tables.ts). */
  readonly records: RecordTable
  /** Links between records, by account, oldest first. */
  readonly recordLinks: LinkTable
  /** Notes of records, by account. */
  readonly notes: NoteTable
}

export const emptyMemoryState: MemoryState = {
  sequences: { accounts: 1, users: 1, teams: 1, tokens: 1, preferences: 1, notifications: 1 },
  accounts: new Map(),
  subscriptions: new Map(),
  users: new Map(),
  memberships: new Map(),
  teams: new Map(),
  teamUsers: [],
  preferences: [],
  notifications: [],
  tokens: new Map(),
  sessions: new Map(),
  outbox: [],
  properties: [],
  propertyGroups: [],
  webhooks: { nextId: 1, nextEventId: 1, rows: [] },
  messaging: emptyMessagingTables,
  deliveries: new Map(),
  records: HashMap.empty(),
  recordLinks: HashMap.empty(),
  notes: HashMap.empty()
}

export const membershipKey = (accountId: number, userId: number) => `${accountId}:${userId}`

export const deliveryKey = (accountId: number, id: string) => `${accountId}:${id.toLowerCase()}`

/** Copy-on-write helpers: the state is never mutated in place. */
export const mapSet = <K, V>(map: ReadonlyMap<K, V>, key: K, value: V): ReadonlyMap<K, V> =>
  new Map(map).set(key, value)

export const mapDelete = <K, V>(map: ReadonlyMap<K, V>, key: K): ReadonlyMap<K, V> => {
  const next = new Map(map)
  next.delete(key)
  return next
}

/** The foreign key every account-owned row of a user carries: (account_id, user_id) → account_user. */
export const requireMembership = (state: MemoryState, accountId: number, userId: number, table: string): void => {
  if (!state.memberships.has(membershipKey(accountId, userId))) {
    throw new Error(
      `insert or update on table "${table}" violates foreign key constraint: (${accountId}, ${userId}) is not in account_user`
    )
  }
}

export interface MemoryStoreService {
  readonly ref: Ref.Ref<MemoryState>
  /** Held by a running transaction; single operations outside one wait for it. */
  readonly lock: Semaphore.Semaphore
  /** Work-queue wake-ups, sent after commit (QueueSignalsMemory). */
  readonly signals: MemorySignalHub
}

export class MemoryStore extends Context.Service<MemoryStore, MemoryStoreService>()("@wasl/adapters/MemoryStore") {
  /** A fresh, empty store. */
  static readonly layer: Layer.Layer<MemoryStore> = Layer.effect(
    MemoryStore,
    Effect.gen(function*() {
      return MemoryStore.of({
        ref: yield* Ref.make(emptyMemoryState),
        lock: yield* Semaphore.make(1),
        signals: makeSignalHub()
      })
    })
  )
}

/** The store whose transaction the current fiber runs in, if any. */
export const CurrentMemoryTransaction = Context.Reference<MemoryStoreService | undefined>(
  "@wasl/adapters/CurrentMemoryTransaction",
  { defaultValue: () => undefined }
)

/** Runs `effect` holding the store's lock, unless the fiber already runs in a transaction on this store. */
export const withStoreLock = <A, E, R>(
  store: MemoryStoreService,
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Effect.flatMap(CurrentMemoryTransaction, (current) =>
    current === store ? effect : store.lock.withPermit(effect))

/**
 * One atomic operation: `f` sees the current state and returns the result
 * with the next state, or a failure (the state is then left unchanged).
 * A thrown error is a defect (like a constraint the database refuses).
 */
export const modifyStore = <A, E = never>(
  store: MemoryStoreService,
  f: (state: MemoryState) => Result.Result<readonly [A, MemoryState], E>
): Effect.Effect<A, E> =>
  withStoreLock(
    store,
    Effect.flatMap(
      Ref.modify(store.ref, (state): [Result.Result<A, E>, MemoryState] => {
        const result = f(state)
        return Result.isSuccess(result)
          ? [Result.succeed(result.success[0]), result.success[1]]
          : [Result.fail(result.failure), state]
      }),
      (result) => Result.isSuccess(result) ? Effect.succeed(result.success) : Effect.fail(result.failure)
    )
  )

/** A read of a consistent state. */
export const readStore = <A>(store: MemoryStoreService, f: (state: MemoryState) => A): Effect.Effect<A> =>
  withStoreLock(store, Effect.map(Ref.get(store.ref), f))

/** Shorthand for an infallible write. */
export const updateStore = <A>(
  store: MemoryStoreService,
  f: (state: MemoryState) => readonly [A, MemoryState]
): Effect.Effect<A> => modifyStore(store, (state) => Result.succeed(f(state)))
