/**
 * The core's `RecordRepository` on PostgreSQL, delegating to the record store (`RecordStorePg`,
 * migration 0004). The derived data of a record's REST shape comes from the store's derived values
 * (contact `deal_ids`, ticket `contacts_count` / `deals_count`) and, for a deal, from its linked
 * contacts, read as summaries oldest link first. Contact channels are not stored yet: `[]`.
 */
import {
  type ContactSummaryJson,
  type DerivedData,
  type PropertyDefinition,
  RecordRepository,
  type RecordWithDerived
} from "@wasl/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { type RecordRow, RecordStorePg } from "./records/record-store-pg.ts"
import { type CustomProperty, KIND_STORAGE } from "./records/storage.ts"

const customOf = (kind: string, definitions: ReadonlyArray<PropertyDefinition>): ReadonlyArray<CustomProperty> =>
  definitions
    .filter((d) => !d.builtin && d.kind === kind)
    .map((d) => ({ id: d._id, internal_name: d.internal_name, type: d.type }))

const countOf = (value: unknown): number | null => typeof value === "number" ? value : null

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const store = yield* RecordStorePg

  /** The linked contacts of each deal, as summaries, oldest link first: one query for a page. */
  const dealContacts = (accountId: number, dealIds: ReadonlyArray<string>) =>
    dealIds.length === 0
      ? Effect.succeed(new Map<string, Array<ContactSummaryJson>>())
      : sql<{
        readonly deal_id: string
        readonly id: string
        readonly account_id: number
        readonly firstname: string | null
        readonly lastname: string | null
      }>`
      SELECT dc.deal_id, c.id, c.account_id, c.firstname, c.lastname
      FROM deal_contacts dc JOIN contacts c ON c.account_id = dc.account_id AND c.id = dc.contact_id
      WHERE dc.account_id = ${accountId}::int8 AND dc.deal_id IN ${sql.in(dealIds)}
      ORDER BY dc.created_at, c.id
    `.pipe(
        Effect.map((rows) => {
          const byDeal = new Map<string, Array<ContactSummaryJson>>()
          for (const row of rows) {
            const list = byDeal.get(row.deal_id) ?? []
            list.push({
              _id: String(row.id),
              account_id: Number(row.account_id),
              firstname: row.firstname === null || row.firstname === "" ? null : String(row.firstname),
              lastname: row.lastname === null || row.lastname === "" ? null : String(row.lastname)
            })
            byDeal.set(row.deal_id, list)
          }
          return byDeal
        }),
        Effect.orDie
      )

  const derivedOf = (row: RecordRow, contacts: ReadonlyMap<string, ReadonlyArray<ContactSummaryJson>>): DerivedData => {
    switch (row.kind) {
      case "deal":
        return { contacts: contacts.get(row._id) ?? [] }
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

  /** The rows with what their shapes derive from links (deal contacts read in one query). */
  const withDerivedAll = (rows: ReadonlyArray<RecordRow>): Effect.Effect<Array<RecordWithDerived>> =>
    Effect.map(
      dealContacts(rows[0]?.account_id ?? 0, rows.filter((r) => r.kind === "deal").map((r) => r._id)),
      (contacts) =>
        rows.map((row) => ({
          record: {
            _id: row._id,
            account_id: row.account_id,
            values: row.values,
            created_at: row.created_at,
            updated_at: row.updated_at
          },
          derived: derivedOf(row, contacts)
        }))
    )

  const withDerived = (row: RecordRow): Effect.Effect<RecordWithDerived> =>
    Effect.map(withDerivedAll([row]), (all) => all[0]!)

  const withDerivedOption = (row: Option.Option<RecordRow>) =>
    Option.match(row, {
      onNone: () => Effect.succeed(Option.none<RecordWithDerived>()),
      onSome: (r) => Effect.map(withDerived(r), Option.some)
    })

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
        withDerived
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
        const result = yield* store.list({
          accountId: input.accountId,
          kind: input.kind,
          custom: customOf(input.kind, input.custom),
          filters: input.filters,
          search: input.search,
          order: input.order,
          direction: input.direction,
          page: input.page,
          perPage: input.perPage
        })
        return { rows: yield* withDerivedAll(result.rows), total: result.total }
      }),
    existing: (accountId, kind, ids) =>
      ids.length === 0 ? Effect.succeed([]) : Effect.map(
        sql<{ readonly id: string }>`
          SELECT id FROM ${sql(KIND_STORAGE[kind].table)} WHERE account_id = ${accountId}::int8 AND id IN ${sql.in(ids)}
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
