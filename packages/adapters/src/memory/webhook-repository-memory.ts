import { type StoredWebhook, type WebhookEvent, WebhookRepository } from "@wasl/core/Webhooks"
import { type DateTime, Effect, Layer, Option } from "effect"
import { MemoryStore, type MemoryState, readStore, updateStore } from "./store.ts"

const replaceEvents = (
  state: MemoryState,
  webhook: StoredWebhook,
  names: ReadonlyArray<WebhookEvent["name"]>,
  now: DateTime.Utc
): { readonly events: ReadonlyArray<WebhookEvent>; readonly nextEventId: number } => {
  let nextEventId = state.webhooks.nextEventId
  const kept = webhook.events.filter((e) => names.includes(e.name))
  const added = names
    .filter((name) => !kept.some((e) => e.name === name))
    .map((name): WebhookEvent => ({ id: nextEventId++, name, webhook_id: webhook.id, created_at: now, updated_at: now }))
  return { events: [...kept, ...added].sort((a, b) => a.id - b.id), nextEventId }
}

const withRows = (state: MemoryState, rows: ReadonlyArray<StoredWebhook>, nextEventId = state.webhooks.nextEventId) => ({
  ...state,
  webhooks: { ...state.webhooks, rows, nextEventId }
})

/**
 * Webhooks in the memory store: same semantics as WebhookRepositoryPg (transactions are
 * serialised); deleting one deletes its deliveries, as the foreign key's cascade does.
 */
export const WebhookRepositoryMemory: Layer.Layer<WebhookRepository, never, MemoryStore> = Layer.effect(
  WebhookRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    const find = (accountId: number, id: number) =>
      readStore(store, (state) =>
        Option.fromNullishOr(state.webhooks.rows.find((w) => w.accountId === accountId && w.id === id)))
    return WebhookRepository.of({
      list: (accountId) => readStore(store, (state) => state.webhooks.rows.filter((w) => w.accountId === accountId)),
      findById: find,
      findForUpdate: find,
      countForCreate: (accountId) =>
        readStore(store, (state) => state.webhooks.rows.filter((w) => w.accountId === accountId).length),
      insert: (input) =>
        updateStore(store, (state) => {
          if (!state.accounts.has(input.accountId)) {
            throw new Error(`insert on table "webhooks" violates foreign key constraint: account ${input.accountId}`)
          }
          const base: StoredWebhook = {
            id: state.webhooks.nextId,
            accountId: input.accountId,
            url: input.url,
            secretSealed: input.secretSealed,
            state: { isValidated: false, isActive: false, consecutiveFailures: 0, lastFailureAt: null },
            createdAt: input.now,
            updatedAt: input.now,
            events: []
          }
          const { events, nextEventId } = replaceEvents(state, base, input.events, input.now)
          const webhook = { ...base, events }
          return [webhook, {
            ...state,
            webhooks: { nextId: webhook.id + 1, nextEventId, rows: [...state.webhooks.rows, webhook] }
          }] as const
        }),
      update: (accountId, id, change) =>
        updateStore(store, (state) => {
          const current = state.webhooks.rows.find((w) => w.accountId === accountId && w.id === id)
          if (current === undefined) return [Option.none<StoredWebhook>(), state] as const
          const replaced = change.events === undefined
            ? { events: current.events, nextEventId: state.webhooks.nextEventId }
            : replaceEvents(state, current, change.events, change.now)
          const next: StoredWebhook = {
            ...current,
            url: change.url,
            state: change.state,
            updatedAt: change.now,
            events: replaced.events
          }
          const rows = state.webhooks.rows.map((w) => w === current ? next : w)
          return [Option.some(next), withRows(state, rows, replaced.nextEventId)] as const
        }),
      delete: (accountId, id) =>
        updateStore(store, (state) => {
          const rows = state.webhooks.rows.filter((w) => !(w.accountId === accountId && w.id === id))
          if (rows.length === state.webhooks.rows.length) return [false, state] as const
          // ON DELETE CASCADE (migration 0007): the webhook's deliveries and their attempts go with it.
          const deliveries = new Map([...state.deliveries].filter(([, d]) => d.webhookId !== id))
          return [true, { ...withRows(state, rows), deliveries }] as const
        })
    })
  })
)
