/**
 * The in-memory database behind the `*Memory` twins (`MemoryStore`): one immutable state
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
import type { Account, Invitation, NotificationName, StoredEmailToken, Subscription, User, ViewChoiceKind } from "@wasl/core/Accounts"
import type { PendingTwoFactorLogin, Permission, StoredSession, StoredToken } from "@wasl/core/Auth"
import type { DeliveryAttempt, DeliveryStatus } from "@wasl/core/Deliveries"
import type { OutboxEvent } from "@wasl/core/Events"
import type { ExportChunk, ExportRow } from "@wasl/core/Exports"
import type { IdempotencyClaim, KeptAnswer } from "@wasl/core/Idempotency"
import type { NotificationNotice } from "@wasl/core/Notifications"
import type {
  EventName,
  HistoryEntry,
  Pipeline,
  PropertyDefinition,
  PropertyGroupDefinition,
  SavedView
} from "@wasl/core/Records"
import type { StoredWebhook } from "@wasl/core/Webhooks"
import { Context, type DateTime, Effect, HashMap, Layer, PubSub, Ref, Result, Semaphore } from "effect"
import { emptyMessagingTables, type MessagingTables } from "./messaging-tables.ts"
import { makeSignalHub, type MemorySignalHub } from "./signal-hub.ts"
import type { LinkTable, NoteTable, RecordTable } from "./record-tables.ts"
import type { MemoryTrashRow } from "./trash-tables.ts"
import type { Turn } from "./turn.ts"
import type { ImportEntry } from "./import-tables.ts"

/** A user's membership of an account (the `account_user` row) with the member's own settings. */
export interface MembershipRow {
  /** The account. */
  readonly accountId: number
  /** The member. */
  readonly userId: number
  /** A suspended member cannot sign in to the account. */
  readonly status: "active" | "suspended"
  /** When the member last used the account; null: never. */
  readonly lastUsed: DateTime.Utc | null
  /** The member's IANA time zone. */
  readonly timeZone: string
  /** The member's calendar; null: the account's. */
  readonly calendar: string | null
  /** Whether the member reads times on a 12-hour clock. */
  readonly hour12: boolean
  /** The member's locale; null: the account's. */
  readonly locale: string | null
  /** The member's currency; null: the account's. */
  readonly currency: string | null
  /** When the row was created (the Clock's time). */
  readonly createdAt: DateTime.Utc
  /** When the row last changed. */
  readonly updatedAt: DateTime.Utc
}

/** A member's chosen view of one kind (the `saved_view_choices` row). */
export interface ViewChoiceRow {
  /** The account. */
  readonly accountId: number
  /** The member. */
  readonly userId: number
  /** Contacts, deals or tickets. */
  readonly kind: ViewChoiceKind
  /** The chosen view. */
  readonly viewId: string
}

/** A team of an account, with the permissions its members get. */
export interface TeamRow {
  /** The team id (one sequence across accounts). */
  readonly id: number
  /** The account the team belongs to. */
  readonly accountId: number
  /** The team's name. */
  readonly name: string
  /** The team's description, if any. */
  readonly description: string | null
  /** The user who made the team; null when unknown. */
  readonly madeBy: number | null
  /** What the team's members may do. */
  readonly permissions: ReadonlyArray<Permission>
  /** When the row was created. */
  readonly createdAt: DateTime.Utc
  /** When the row last changed. */
  readonly updatedAt: DateTime.Utc
}

/** A user's membership of a team (the `team_user` pivot row). */
export interface TeamUserRow {
  /** The account of the team and of the member. */
  readonly accountId: number
  /** The team. */
  readonly teamId: number
  /** The member. */
  readonly userId: number
  /** When the member joined the team. */
  readonly createdAt: DateTime.Utc
  /** When the row last changed. */
  readonly updatedAt: DateTime.Utc
}

/** An invitation with its token's hash and what became of it (the `invitations` row). */
export interface InvitationRow {
  /** The invitation as the API shows it. */
  readonly invitation: Invitation
  /** Lowercase hex SHA-256 of its token. */
  readonly tokenHash: string
  /** When it was accepted; null: not (yet). */
  readonly acceptedAt: DateTime.Utc | null
  /** When it was revoked; null: not. */
  readonly revokedAt: DateTime.Utc | null
}

/** The invitations, oldest first, and the next id. */
export interface InvitationTable {
  /** The id of the next invitation. */
  readonly nextId: number
  /** The rows, oldest first. */
  readonly rows: ReadonlyArray<InvitationRow>
}

/** A member's choice of channels for one kind of notification. */
export interface PreferenceRow {
  /** The preference id (one sequence across accounts). */
  readonly id: number
  /** The account of the membership. */
  readonly accountId: number
  /** The member. */
  readonly userId: number
  /** The kind of notification. */
  readonly name: NotificationName
  /** Kept in the member's notification list. */
  readonly stored: boolean
  /** Shown as a popup in the app. */
  readonly popup: boolean
  /** Shown as a browser notification. */
  readonly browser: boolean
  /** Sent by mail. */
  readonly email: boolean
  /** When the row was created. */
  readonly createdAt: DateTime.Utc
  /** When the row last changed. */
  readonly updatedAt: DateTime.Utc
}

/** A notification of a member, with its channels and the mail queued for it. */
export interface NotificationRow {
  /** The notification id (one sequence across accounts). */
  readonly id: number
  /** The account of the membership. */
  readonly accountId: number
  /** The member notified. */
  readonly userId: number
  /** The kind of notification (a notification name). */
  readonly type: string
  /** The notification's data, as the API shows it. */
  readonly data: unknown
  /** When the member read it; null: unread. */
  readonly readAt: DateTime.Utc | null
  /** When it was made. */
  readonly createdAt: DateTime.Utc
  /** Channel flags (absent on rows seeded before they existed: stored, popup and browser on). */
  readonly stored?: boolean
  /** Shown as a popup (absent: on). */
  readonly popup?: boolean
  /** Shown as a browser notification (absent: on). */
  readonly browser?: boolean
  /** When the row last changed (absent: `createdAt`). */
  readonly updatedAt?: DateTime.Utc
  /** The queued mail, if the email channel was on. */
  readonly email?: { readonly subject: string; readonly text: string } | null
  /** When its mail was sent; null or absent: not yet. */
  readonly emailedAt?: DateTime.Utc | null
  /** How many times sending its mail was tried. */
  readonly emailAttempts?: number
}

/** Webhooks and their subscriptions (webhook-repository-memory.ts). */
export interface WebhookTable {
  /** The next webhook id (one sequence across accounts). */
  readonly nextId: number
  /** The next id of a webhook's event subscription. */
  readonly nextEventId: number
  /** By id. */
  readonly rows: ReadonlyArray<StoredWebhook>
}

/** A row of the `deliveries` table with its attempts (delivery-repository-memory.ts). */
export interface DeliveryRow {
  /** The account of the webhook. */
  readonly accountId: number
  /** A UUID, lowercase (as PostgreSQL's `uuid` gives it back). */
  readonly id: string
  /** The webhook delivered to. */
  readonly webhookId: number
  /** The outbox event it delivers; null for a redelivery asked by hand. */
  readonly eventId: string | null
  /** The event's name. */
  readonly event: EventName
  /** The JSON body sent. */
  readonly body: string
  /** `pending` (attempts left), `succeeded` or `failed`. */
  readonly status: DeliveryStatus
  /** Attempts made so far. */
  readonly attempts: number
  /** When the next attempt is due; null when none is. */
  readonly nextAttemptAt: DateTime.Utc | null
  /** The end of the current claim's lease; null when unclaimed. */
  readonly claimedUntil: DateTime.Utc | null
  /** When a recovery queued it again (failed deliveries only); null until then. */
  readonly recoveredAt: DateTime.Utc | null
  /** When the delivery was queued. */
  readonly createdAt: DateTime.Utc
  /** When the row last changed. */
  readonly updatedAt: DateTime.Utc
  /** The `delivery_attempts` rows, by number. */
  readonly attemptLog: ReadonlyArray<DeliveryAttempt>
  /** The W3C `traceparent` its attempts are traced under (`trace_parent`); absent when none. */
  readonly traceParent?: string | undefined
}

/** A kept idempotency key (idempotency-store-memory.ts): the claim and the answer to replay. */
export interface IdempotencyKeyRow {
  /** The claim that kept it: account, principal, key and the request's fingerprint. */
  readonly claim: IdempotencyClaim
  /** The answer replayed. */
  readonly answer: KeptAnswer
  /** From then on the key is free again. */
  readonly expiresAt: DateTime.Utc
}

/** A user with the hash of their password and their two-factor authentication. */
export interface UserRow {
  /** The user as the API shows it (`two_factor_confirmed_at` says whether two-factor is on). */
  readonly user: User
  /** The encoded password hash (`PasswordHasher`'s form). */
  readonly passwordHash: string
  /** The rest of the user's two-factor state (`TwoFactorState` less its confirmation time). */
  readonly twoFactor: TwoFactorColumns
}

/** A user's two-factor columns but the confirmation time, which is the user's own. */
export interface TwoFactorColumns {
  /** The sealed TOTP secret; null before enrolment and once turned off. */
  readonly sealedSecret: string | null
  /** The hashes of the unused recovery codes. */
  readonly recoveryCodeHashes: ReadonlyArray<string>
  /** The latest time step a code was taken from. */
  readonly lastUsedStep: number | null
}

/** The two-factor columns of a user who never enrolled. */
export const noTwoFactor: TwoFactorColumns = { sealedSecret: null, recoveryCodeHashes: [], lastUsedStep: null }

/** Next value of each table's sequence (auto-increment ids start at 1, like bigserial). */
export interface Sequences {
  /** Next account id. */
  readonly accounts: number
  /** Next user id. */
  readonly users: number
  /** Next team id. */
  readonly teams: number
  /** Next API token id. */
  readonly tokens: number
  /** Next notification preference id. */
  readonly preferences: number
  /** Next notification id. */
  readonly notifications: number
  /** Next turn number of the worker's claims of imports and exports (claim-turns.ts). */
  readonly claimTurns: number
}

/**
 * Every table of the memory store, as one immutable value: what `MemoryStore` holds and each write
 * replaces. Tests read it with `readStore` and seed rows the ports do not write with `updateStore`.
 */
export interface MemoryState {
  /** The next id of each sequence. */
  readonly sequences: Sequences
  /** Accounts by id. */
  readonly accounts: ReadonlyMap<number, Account>
  /** Keyed by account id: one subscription per account. */
  readonly subscriptions: ReadonlyMap<number, Subscription>
  /** Users by id. */
  readonly users: ReadonlyMap<number, UserRow>
  /** Keyed by `membershipKey(accountId, userId)`. */
  readonly memberships: ReadonlyMap<string, MembershipRow>
  /** Teams by id. */
  readonly teams: ReadonlyMap<number, TeamRow>
  /** Team memberships. */
  readonly teamUsers: ReadonlyArray<TeamUserRow>
  /** Invitations to join accounts (invitation-repository-memory.ts). */
  readonly invitations: InvitationTable
  /** Notification preferences, oldest first. */
  readonly preferences: ReadonlyArray<PreferenceRow>
  /** Notifications, oldest first. */
  readonly notifications: ReadonlyArray<NotificationRow>
  /** API tokens by id, with their secret's hash. */
  readonly tokens: ReadonlyMap<number, StoredToken>
  /** Sessions by the hash of their id. */
  readonly sessions: ReadonlyMap<string, StoredSession>
  /** Logins waiting for their second factor, by the hash of their challenge. */
  readonly twoFactorLogins: ReadonlyMap<string, PendingTwoFactorLogin>
  /** The tokens of e-mail links, by their hash. */
  readonly emailTokens: ReadonlyMap<string, StoredEmailToken>
  /** Pending outbox events, oldest first (outbox-memory.ts). */
  readonly outbox: ReadonlyArray<OutboxEvent>
  /** Custom property definitions, oldest first (property-repository-memory.ts). */
  readonly properties: ReadonlyArray<PropertyDefinition>
  /** Custom property groups, oldest first (property-group-repository-memory.ts). */
  readonly propertyGroups: ReadonlyArray<PropertyGroupDefinition>
  /** Stored pipelines of deals and tickets (pipeline-repository-memory.ts). */
  readonly pipelines: ReadonlyArray<Pipeline>
  /** Saved views of the lists, oldest first (saved-view-repository-memory.ts). */
  readonly savedViews: ReadonlyArray<SavedView>
  /** Each member's chosen views (the `saved_view_choices` rows). */
  readonly viewChoices: ReadonlyArray<ViewChoiceRow>
  /** Records' property history, oldest first, in the order appended (property-history-repository-memory.ts). */
  readonly propertyHistory: ReadonlyArray<HistoryEntry>
  /** Webhooks and their event subscriptions. */
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
  /** Deleted records kept whole, by `<account id>:<kind>:<id>` (trash-repository-memory.ts). */
  readonly recordTrash: ReadonlyMap<string, MemoryTrashRow>
  /** Kept idempotency keys, by `idempotencyKey(claim)`. */
  readonly idempotencyKeys: ReadonlyMap<string, IdempotencyKeyRow>
  /** Exports and their files (export-repository-memory.ts). */
  readonly exports: ExportTable
  /** CSV imports with their staged rows, by `<account id>:<import id>` (import-repository-memory.ts). */
  readonly imports: ReadonlyMap<string, ImportEntry>
  /** Stored WhatsApp callbacks not yet processed (whatsapp-inbox-memory.ts). */
  readonly whatsappInbox: WhatsAppInboxTable
}

/** A stored WhatsApp callback: the `whatsapp_inbox` row. */
export interface WhatsAppInboxRow {
  /** Its id, from the table's sequence. */
  readonly id: number
  /** The raw body. */
  readonly body: string
  /** When it was received. */
  readonly receivedAt: DateTime.Utc
  /** Claimable once this has passed; null: never claimed. */
  readonly claimedUntil: DateTime.Utc | null
  /** How many times it was claimed. */
  readonly attempts: number
}

/** The stored WhatsApp callbacks, oldest first, and the next id. */
export interface WhatsAppInboxTable {
  /** The id of the next insert. */
  readonly nextId: number
  /** The rows, oldest first. */
  readonly rows: ReadonlyArray<WhatsAppInboxRow>
}

/** Exports and the chunks of their files, both by `exportKey(accountId, id)`. */
export interface ExportTable {
  /** The exports, oldest first. */
  readonly rows: ReadonlyMap<string, ExportRow>
  /** Each export's chunks, in order. */
  readonly chunks: ReadonlyMap<string, ReadonlyArray<ExportChunk>>
  /** The turn of each waiting export's account (claim-turns.ts); none once it ended. */
  readonly turns: ReadonlyMap<string, Turn>
}

/** The key of an export in the export table. */
export const exportKey = (accountId: number, id: string): string => `${accountId}:${id}`

/** The state of a fresh store: every table empty, every sequence at 1. */
export const emptyMemoryState: MemoryState = {
  sequences: { accounts: 1, users: 1, teams: 1, tokens: 1, preferences: 1, notifications: 1, claimTurns: 1 },
  accounts: new Map(),
  subscriptions: new Map(),
  users: new Map(),
  memberships: new Map(),
  teams: new Map(),
  teamUsers: [],
  invitations: { nextId: 1, rows: [] },
  preferences: [],
  notifications: [],
  tokens: new Map(),
  sessions: new Map(),
  twoFactorLogins: new Map(),
  emailTokens: new Map(),
  outbox: [],
  properties: [],
  propertyGroups: [],
  pipelines: [],
  savedViews: [],
  viewChoices: [],
  propertyHistory: [],
  webhooks: { nextId: 1, nextEventId: 1, rows: [] },
  messaging: emptyMessagingTables,
  deliveries: new Map(),
  records: HashMap.empty(),
  recordLinks: HashMap.empty(),
  notes: HashMap.empty(),
  recordTrash: new Map(),
  idempotencyKeys: new Map(),
  exports: { rows: new Map(), chunks: new Map(), turns: new Map() },
  imports: new Map(),
  whatsappInbox: { nextId: 1, rows: [] }
}

/** The key of a membership in `MemoryState.memberships`. */
export const membershipKey = (accountId: number, userId: number): string => `${accountId}:${userId}`

/** The key of a delivery in `MemoryState.deliveries` (its id compared without regard to case). */
export const deliveryKey = (accountId: number, id: string): string => `${accountId}:${id.toLowerCase()}`

/**
 * A copy of `map` with `key` set: the state is never mutated in place. A helper of the memory
 * adapters, exported for tests that seed rows.
 */
export const mapSet = <K, V>(map: ReadonlyMap<K, V>, key: K, value: V): ReadonlyMap<K, V> =>
  new Map(map).set(key, value)

/** A copy of `map` without `key` (copy-on-write, as `mapSet`). */
export const mapDelete = <K, V>(map: ReadonlyMap<K, V>, key: K): ReadonlyMap<K, V> => {
  const next = new Map(map)
  next.delete(key)
  return next
}

/**
 * The foreign key every account-owned row of a user carries: (account_id, user_id) → account_user;
 * a missing membership is thrown, as the database refuses the row. Internal plumbing of the
 * memory adapters.
 */
export const requireMembership = (state: MemoryState, accountId: number, userId: number, table: string): void => {
  if (!state.memberships.has(membershipKey(accountId, userId))) {
    throw new Error(
      `insert or update on table "${table}" violates foreign key constraint: (${accountId}, ${userId}) is not in account_user`
    )
  }
}

/** What `MemoryStore` holds: the state, its lock and its wake-up signals. */
export interface MemoryStoreService {
  /** The current state; read it with `readStore`, change it with `updateStore`/`modifyStore`. */
  readonly ref: Ref.Ref<MemoryState>
  /** Held by a running transaction; single operations outside one wait for it. */
  readonly lock: Semaphore.Semaphore
  /** Work-queue wake-ups, sent after commit (QueueSignalsMemory). */
  readonly signals: MemorySignalHub
  /** New popup and browser notifications, published after commit (NotificationFeedMemory). */
  readonly notices: PubSub.PubSub<NotificationNotice>
}

const MemoryStoreBase: Context.ServiceClass<MemoryStore, "@wasl/adapters/MemoryStore", MemoryStoreService> =
  Context.Service<MemoryStore, MemoryStoreService>()("@wasl/adapters/MemoryStore")

/**
 * The in-memory database every memory adapter of a deployment shares, so that `TransactorMemory`
 * rolls all of them back together. `WaslMemory.layer` and `RepositoriesMemory` provide it; each
 * build is a new, empty store. Every operation is atomic; a transaction holds the store's lock
 * for its whole duration, so transactions run one after another, and restores the state it started
 * from when it fails or is interrupted.
 *
 * Tests read rows with `readStore` and seed the rows no port writes with `updateStore`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { MemoryStore, readStore } from "@wasl/adapters/memory"
 *
 * const accountCount = Effect.flatMap(MemoryStore, (store) => readStore(store, (state) => state.accounts.size))
 * ```
 */
export class MemoryStore extends MemoryStoreBase {
  /** A fresh, empty store. */
  static readonly layer: Layer.Layer<MemoryStore> = Layer.effect(
    MemoryStore,
    Effect.gen(function*() {
      return MemoryStore.of({
        ref: yield* Ref.make(emptyMemoryState),
        lock: yield* Semaphore.make(1),
        signals: makeSignalHub(),
        notices: yield* Effect.acquireRelease(PubSub.unbounded<NotificationNotice>(), PubSub.shutdown)
      })
    })
  )
}

/** The store whose transaction the current fiber runs in, if any. Internal plumbing of `TransactorMemory`. */
export const CurrentMemoryTransaction: Context.Reference<MemoryStoreService | undefined> = Context.Reference<
  MemoryStoreService | undefined
>(
  "@wasl/adapters/CurrentMemoryTransaction",
  { defaultValue: () => undefined }
)

/**
 * Runs `effect` holding the store's lock, unless the fiber already runs in a transaction on this
 * store. Internal plumbing of the memory adapters.
 */
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

/** A read of a consistent state (it waits for a running transaction to end). */
export const readStore = <A>(store: MemoryStoreService, f: (state: MemoryState) => A): Effect.Effect<A> =>
  withStoreLock(store, Effect.map(Ref.get(store.ref), f))

/**
 * An infallible write: `f` returns the result with the next state. A thrown error is a defect
 * and leaves the state unchanged.
 */
export const updateStore = <A>(
  store: MemoryStoreService,
  f: (state: MemoryState) => readonly [A, MemoryState]
): Effect.Effect<A> => modifyStore(store, (state) => Result.succeed(f(state)))
