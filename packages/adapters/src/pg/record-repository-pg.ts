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
import type { CustomProperty } from "./records/storage.ts"

const customOf = (kind: string, definitions: ReadonlyArray<PropertyDefinition>): ReadonlyArray<CustomProperty> =>
  definitions
    .filter((d) => !d.builtin && d.kind === kind)
    .map((d) => ({ id: d._id, internal_name: d.internal_name, type: d.type }))

const countOf = (value: unknown): number | null => typeof value === "number" ? value : null

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const store = yield* RecordStorePg

  const dealContacts = (accountId: number, dealId: string) =>
    sql<{ readonly id: string; readonly account_id: number; readonly firstname: string | null; readonly lastname: string | null }>`
      SELECT c.id, c.account_id, c.firstname, c.lastname
      FROM deal_contacts dc JOIN contacts c ON c.account_id = dc.account_id AND c.id = dc.contact_id
      WHERE dc.account_id = ${accountId}::int8 AND dc.deal_id = ${dealId}
      ORDER BY dc.created_at, c.id
    `.pipe(
      Effect.map((rows) =>
        rows.map((row): ContactSummaryJson => ({
          _id: String(row.id),
          account_id: Number(row.account_id),
          firstname: row.firstname === null || row.firstname === "" ? null : String(row.firstname),
          lastname: row.lastname === null || row.lastname === "" ? null : String(row.lastname)
        }))
      ),
      Effect.orDie
    )

  const withDerived = (row: RecordRow): Effect.Effect<RecordWithDerived> =>
    Effect.gen(function*() {
      const record = {
        _id: row._id,
        account_id: row.account_id,
        values: row.values,
        created_at: row.created_at,
        updated_at: row.updated_at
      }
      let derived: DerivedData = {}
      switch (row.kind) {
        case "deal":
          derived = { contacts: yield* dealContacts(row.account_id, row._id) }
          break
        case "contact": {
          const dealIds = row.derived.deal_ids
          derived = { dealIds: Array.isArray(dealIds) ? dealIds : [], channels: [] }
          break
        }
        case "ticket":
          derived = {
            contactsCount: countOf(row.derived.contacts_count),
            dealsCount: countOf(row.derived.deals_count)
          }
          break
      }
      return { record, derived }
    })

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
      )
  })
})

/** `RecordRepository` on PostgreSQL (`SqlClient`, migrated); provides its own `RecordStorePg`. */
export const RecordRepositoryPg: Layer.Layer<RecordRepository, never, SqlClient.SqlClient> = Layer.effect(
  RecordRepository,
  make
).pipe(Layer.provide(RecordStorePg.layer))
