import { type Broadcast, BroadcastRepository, type TemplateButton, type TemplateDefinition } from "@wasl/core"
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
 * id; a platform of another account is refused as the foreign key refuses it).
 */
export const BroadcastRepositoryMemory: Layer.Layer<BroadcastRepository, never, MemoryStore> = Layer.effect(
  BroadcastRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return BroadcastRepository.of({
      insert: (accountId, input, platform, status) =>
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
              external_id: null,
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
              status,
              reason: null,
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
        })
    })
  })
)
