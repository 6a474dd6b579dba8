import {
  type Broadcast,
  BroadcastRepository,
  type TemplateButton,
  type TemplateDefinition
} from "@wasl/core/Messaging"
import { DateTime, Effect, Layer, Option } from "effect"
import { type BroadcastRow, type TemplateRow } from "./messaging-tables.ts"
import { requireAccount, withMessaging } from "./messaging-constraints.ts"
import { mapSet, type MemoryState, MemoryStore, readStore, updateStore } from "./store.ts"

/** The header and buttons as their jsonb columns give them back: only the keys the template has. */
const stored = (t: TemplateDefinition) => ({
  header: t.header === null ? null : { format: t.header.format, text: t.header.text },
  buttons: t.buttons === null ? null : t.buttons.map((b): TemplateButton => ({
    type: b.type,
    text: b.text,
    ...(b.url === undefined ? {} : { url: b.url }),
    ...(b.phone_number === undefined ? {} : { phone_number: b.phone_number })
  }))
})

/** The broadcast with its template and platform as they are now (the join of BroadcastRepositoryPg). */
const joined = (state: MemoryState, row: BroadcastRow): Option.Option<Broadcast> => {
  const template = state.messaging.templates.get(row.template_id)
  const platform = state.messaging.platforms.get(row.platform_id)
  if (template === undefined || platform === undefined) return Option.none()
  const { account_id: _account, ...rest } = template
  const { template_id: _template, platform_id: _platform, ...broadcast } = row
  return Option.some({ ...broadcast, template: rest, platform })
}

/**
 * Broadcasts and their templates in the memory store: same semantics as BroadcastRepositoryPg
 * (template and broadcast stored together, ids from one sequence each across accounts, listed by
 * id; a platform of another account is refused as the foreign key refuses it; a review changes
 * only what differs).
 */
export const BroadcastRepositoryMemory: Layer.Layer<BroadcastRepository, never, MemoryStore> = Layer.effect(
  BroadcastRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return BroadcastRepository.of({
      insert: (accountId, input, platform, review) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            requireAccount(state, accountId, "message_templates")
            const tables = state.messaging
            if (tables.platforms.get(platform.id)?.account_id !== accountId) {
              throw new Error(
                `insert or update on table "broadcasts" violates foreign key constraint: (${accountId}, ${platform.id}) is not in platforms`
              )
            }
            const t = input.template
            const template: TemplateRow = {
              id: tables.sequences.templates,
              account_id: accountId,
              name: t.name,
              category: t.category,
              external_id: review.external_id,
              ...stored(t),
              body: t.body,
              footer: t.footer,
              code_expiration_minutes: t.code_expiration_minutes,
              created_at: now,
              updated_at: now
            }
            const row: BroadcastRow = {
              id: tables.sequences.broadcasts,
              account_id: accountId,
              name: input.name,
              language: input.language,
              template_id: template.id,
              platform_id: platform.id,
              status: review.status,
              reason: review.reason,
              created_at: now,
              updated_at: now
            }
            const next = withMessaging(state, {
              ...tables,
              sequences: { ...tables.sequences, templates: template.id + 1, broadcasts: row.id + 1 },
              templates: mapSet(tables.templates, template.id, template),
              broadcasts: mapSet(tables.broadcasts, row.id, row)
            })
            return [Option.getOrThrow(joined(next, row)), next] as const
          })),
      list: (accountId) =>
        readStore(store, (state) =>
          [...state.messaging.broadcasts.values()]
            .filter((row) => row.account_id === accountId)
            .flatMap((row) => Option.toArray(joined(state, row)))),
      findById: (accountId, id) =>
        readStore(store, (state) => {
          const row = state.messaging.broadcasts.get(id)
          return row === undefined || row.account_id !== accountId ? Option.none() : joined(state, row)
        }),
      updateReview: (accountId, id, patch) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            const tables = state.messaging
            const row = tables.broadcasts.get(id)
            const template = row === undefined ? undefined : tables.templates.get(row.template_id)
            if (row === undefined || template === undefined || row.account_id !== accountId) return [Option.none(), state] as const
            const status = patch.status ?? row.status
            const reason = patch.reason === undefined ? row.reason : patch.reason
            const reviewed = status !== row.status || reason !== row.reason
            const recategorized = patch.category !== undefined && patch.category !== template.category
            if (!reviewed && !recategorized) return [Option.none(), state] as const
            const next = withMessaging(state, {
              ...tables,
              broadcasts: reviewed ? mapSet(tables.broadcasts, id, { ...row, status, reason, updated_at: now }) : tables.broadcasts,
              templates: recategorized
                ? mapSet(tables.templates, template.id, { ...template, category: patch.category!, updated_at: now })
                : tables.templates
            })
            return [joined(next, next.messaging.broadcasts.get(id)!), next] as const
          })),
      findByExternalTemplate: (wabaId, externalId) =>
        readStore(store, (state) =>
          [...state.messaging.broadcasts.values()]
            .flatMap((row) => Option.toArray(joined(state, row)))
            .filter((b) => b.template.external_id === externalId && b.platform.waba_id === wabaId)),
      accountsWithSubmittedTemplates: readStore(store, (state) =>
        [...new Set([...state.messaging.templates.values()].filter((t) => t.external_id !== null).map((t) => t.account_id))]
          .sort((a, b) => a - b))
    })
  })
)
