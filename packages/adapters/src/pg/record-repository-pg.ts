/**
 * The core's `RecordRepository` on PostgreSQL, delegating to the record store (`RecordStorePg`,
 * migration 0004). The derived data of a record's REST shape comes from the store's derived values
 * (contact `deal_ids`, ticket `contacts_count` / `deals_count`) and, for a deal, from its linked
 * contacts, read as summaries oldest link first in the same statement as the deal. Contact channels
 * are not stored yet: `[]`.
 */
import {
  type DerivedData,
  type PropertyDefinition,
  RecordRepository,
  type RecordScanInput,
  type RecordWithDerived
} from "@wasl/core"
import { Effect, Layer, Option, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { type RecordRow, RecordStorePg } from "./records/record-store-pg.ts"
import { type CustomProperty, KIND_STORAGE } from "./records/storage.ts"

const customOf = (kind: string, definitions: ReadonlyArray<PropertyDefinition>): ReadonlyArray<CustomProperty> =>
  definitions
    .filter((d) => !d.builtin && d.kind === kind)
    .map((d) => ({ id: d._id, internal_name: d.internal_name, type: d.type }))

/** A list's query without its page, as the store takes it. */
const storeQuery = (input: RecordScanInput) => ({
  accountId: input.accountId,
  kind: input.kind,
  custom: customOf(input.kind, input.custom),
  filters: input.filters,
  search: input.search,
  order: input.order,
  direction: input.direction
})

const countOf = (value: unknown): number | null => typeof value === "number" ? value : null

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const store = yield* RecordStorePg

  const derivedOf = (row: RecordRow): DerivedData => {
    switch (row.kind) {
      case "deal":
        return { contacts: row.linkedContacts ?? [] }
      case "contact": {
        const dealIds = row.derived.deal_ids
        return { dealIds: Array.isArray(dealIds) ? dealIds : [], channels: [] }
      }
      case "ticket":
        return { contactsCount: countOf(row.derived.contacts_count), dealsCount: countOf(row.derived.deals_count) }
      default:
        return {}
    }
  }

  /** The row with what its shape derives from links (read with the row: deal contacts, contact deal_ids, ticket counts). */
  const withDerived = (row: RecordRow): RecordWithDerived => ({
    record: {
      _id: row._id,
      account_id: row.account_id,
      values: row.values,
      created_at: row.created_at,
      updated_at: row.updated_at
    },
    derived: derivedOf(row)
  })

  const withDerivedOption = (row: Option.Option<RecordRow>) => Effect.succeed(Option.map(row, withDerived))

  return RecordRepository.of({
    insert: (input) =>
      Effect.flatMap(
        store.insert({
          accountId: input.accountId,
          kind: input.kind,
          id: input.id,
          custom: customOf(input.kind, input.custom),
          values: input.values
        }),
        (row) => Effect.succeed(withDerived(row))
      ),
    update: (input) =>
      Effect.flatMap(
        store.update({
          accountId: input.accountId,
          kind: input.kind,
          id: input.id,
          custom: customOf(input.kind, input.custom),
          values: input.patch
        }),
        withDerivedOption
      ),
    delete: (ref) => store.delete({ accountId: ref.accountId, kind: ref.kind, id: ref.id }),
    get: (input) =>
      Effect.flatMap(
        store.get({
          accountId: input.accountId,
          kind: input.kind,
          id: input.id,
          custom: customOf(input.kind, input.custom)
        }),
        withDerivedOption
      ),
    list: (input) =>
      Effect.gen(function*() {
        const result = yield* store.list({ ...storeQuery(input), page: input.page, perPage: input.perPage })
        return { rows: result.rows.map(withDerived), total: result.total }
      }),
    scan: (input, batchSize) => Stream.map(store.scan(storeQuery(input), batchSize), (rows) => rows.map(withDerived)),
    existing: (accountId, kind, ids) =>
      ids.length === 0 ? Effect.succeed([]) : Effect.map(
        sql<{ readonly id: string }>`
          SELECT id FROM ${sql(KIND_STORAGE[kind].table)} WHERE account_id = ${accountId}::int8 AND id IN ${sql.in(ids)}
          FOR KEY SHARE
        `,
        (rows) => {
          const found = new Set(rows.map((r) => r.id))
          return [...new Set(ids)].filter((id) => found.has(id))
        }
      ).pipe(Effect.orDie),
    link: (input) => store.link(input),
    unlink: (input) => store.unlink(input)
  })
})

/** `RecordRepository` on PostgreSQL (`SqlClient`, migrated); provides its own `RecordStorePg`. */
export const RecordRepositoryPg: Layer.Layer<RecordRepository, never, SqlClient.SqlClient> = Layer.effect(
  RecordRepository,
  make
).pipe(Layer.provide(RecordStorePg.layer))
