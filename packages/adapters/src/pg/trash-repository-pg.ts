/**
 * The core's `TrashRepository` on PostgreSQL (migration 0053). A trash move locks the record
 * (`FOR UPDATE`: a link call under way is waited for, a new one waits), keeps its rows in
 * `record_trash.snapshot` as `to_jsonb` writes them, and deletes them as a final delete does
 * (records/record-removal.ts) — all in one transaction. A restore deletes the entry and inserts
 * the rows again from the snapshot: the record's columns (not the generated ones or the link
 * counters, which the link rows' triggers count again), the side rows and the `custom` keys of
 * custom properties that still exist, its notes (the author kept while a user), a contact's
 * channel entries, and the link rows whose other side is a record again, that side held
 * (`FOR KEY SHARE`) as a link call holds it; a link row whose other side is in the trash too moves
 * into that one's snapshot, so it comes back when that one does.
 *
 * @module
 */
import {
  type ObjectKind,
  type RecordJson,
  type RecordLinkInput,
  type RecordLinkName,
  type RecordRef,
  type TrashEntry,
  TrashRepository
} from "@wasl/core/Records"
import { DateTime, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { Fragment } from "effect/sql/Statement"
import { deleteRecordRows } from "./records/record-removal.ts"
import { KIND_STORAGE, LINKS, linkSidesOf as sidesOf } from "./records/storage.ts"

/** A link table's row (as the snapshot or a RETURNING gives it) as the port's link. */
const linkOf = (accountId: number, link: RecordLinkName, row: Record<string, unknown>): RecordLinkInput => ({
  accountId,
  link,
  from: String(row[LINKS[link].from[1]]),
  to: String(row[LINKS[link].to[1]])
})

/** The snapshot's part (a JSON value the driver gave parsed, or its text), as the text of a jsonb parameter. */
const jsonText = (value: unknown) => typeof value === "string" ? value : JSON.stringify(value ?? [])

interface TrashRow {
  readonly kind: ObjectKind
  readonly id: string
  readonly record: unknown
  readonly deleted_at: Date | string
  readonly deleted_by: string | number | null
  readonly merged_into: string | null
}

const entryOf = (row: TrashRow): TrashEntry => ({
  kind: row.kind,
  id: row.id,
  record: (typeof row.record === "string" ? JSON.parse(row.record) : row.record) as RecordJson,
  deletedAt: DateTime.makeUnsafe(row.deleted_at),
  deletedBy: row.deleted_by === null ? null : Number(row.deleted_by),
  mergedInto: row.merged_into
})

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const atomically = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.flatMap(
      Effect.serviceOption(sql.transactionService),
      (ambient) => Option.isSome(ambient) ? effect : sql.withTransaction(effect)
    )
  const columns = sql`kind, id, record, deleted_at, deleted_by, merged_into`
  const scope = (ref: RecordRef) => sql`account_id = ${ref.accountId}::int8 AND kind = ${ref.kind} AND id = ${ref.id}`

  const trash = (ref: RecordRef, move: { readonly record: RecordJson; readonly deletedBy: number | null; readonly mergedInto: string | null }) =>
    Effect.gen(function*() {
      const table = sql(KIND_STORAGE[ref.kind].table)
      const held = yield* sql`SELECT 1 FROM ${table} WHERE account_id = ${ref.accountId}::int8 AND id = ${ref.id} FOR UPDATE`
      if (held.length === 0) return Option.none()
      const of = (t: string, where: Fragment) =>
        sql`(SELECT coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb) FROM ${sql(t)} t WHERE ${where})`
      const own = sql`t.account_id = ${ref.accountId}::int8 AND t.kind = ${ref.kind} AND t.record_id = ${ref.id}`
      const links = sidesOf(ref.kind).map((side) =>
        sql`${side.table}::text, ${of(side.table, sql`t.account_id = ${ref.accountId}::int8 AND t.${sql(side.own)} = ${ref.id}`)}`
      )
      const channels = ref.kind === "contact"
        ? of("contact_channels", sql`t.account_id = ${ref.accountId}::int8 AND t.contact_id = ${ref.id}`)
        : sql`'[]'::jsonb`
      const at = DateTime.toDateUtc(yield* DateTime.now)
      const [kept] = yield* sql<{ readonly links: unknown }>`
        INSERT INTO record_trash (account_id, kind, id, record, snapshot, deleted_at, deleted_by, merged_into)
        SELECT ${ref.accountId}::int8, ${ref.kind}, ${ref.id}, ${JSON.stringify(move.record)}::jsonb, jsonb_build_object(
          'row', to_jsonb(r),
          'values', ${of("record_values", own)},
          'elements', ${of("record_value_elements", own)},
          'notes', ${of("notes", sql`t.account_id = ${ref.accountId}::int8 AND t.object_type = ${ref.kind} AND t.record_id = ${ref.id}`)},
          'links', jsonb_build_object(${links.length === 0 ? sql`` : sql.csv(links)}),
          'channels', ${channels}
        ), ${at}, ${move.deletedBy}, ${move.mergedInto}
        FROM ${table} r WHERE r.account_id = ${ref.accountId}::int8 AND r.id = ${ref.id}
        RETURNING snapshot->'links' AS links
      `
      yield* deleteRecordRows(sql, ref)
      const byTable = (typeof kept!.links === "string" ? JSON.parse(kept!.links) : kept!.links) as Record<string, ReadonlyArray<Record<string, unknown>>>
      return Option.some(sidesOf(ref.kind).flatMap((side) => (byTable[side.table] ?? []).map((row) => linkOf(ref.accountId, side.link, row))))
    }).pipe(atomically, Effect.orDie)

  const restore = (ref: RecordRef) =>
    Effect.gen(function*() {
      const [entry] = yield* sql<{ readonly snapshot: unknown }>`DELETE FROM record_trash WHERE ${scope(ref)} RETURNING snapshot`
      if (entry === undefined) return Option.none()
      const snapshot = (typeof entry.snapshot === "string" ? JSON.parse(entry.snapshot) : entry.snapshot) as Record<string, unknown>
      const storage = KIND_STORAGE[ref.kind]
      const table = sql(storage.table)
      const restored = ["account_id", "id", ...storage.columns.filter((c) => !c.derived && c.name !== "updated_at").map((c) => c.column)]
      const liveProperty = sql`IN (SELECT id FROM properties WHERE account_id = ${ref.accountId}::int8)`
      const at = DateTime.toDateUtc(yield* DateTime.now)
      yield* sql`
        INSERT INTO ${table} (${sql.csv(restored.map((c) => sql`${sql(c)}`))}, custom, updated_at)
        SELECT ${sql.csv(restored.map((c) => sql`p.${sql(c)}`))},
          (SELECT coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb) FROM jsonb_each(p.custom) e WHERE e.key ${liveProperty}),
          ${at}
        FROM jsonb_populate_record(NULL::${table}, ${jsonText(snapshot.row)}::jsonb) p
      `
      yield* sql`
        INSERT INTO record_values SELECT v.* FROM jsonb_populate_recordset(NULL::record_values, ${jsonText(snapshot.values)}::jsonb) v
        WHERE v.property_id ${liveProperty}
      `
      yield* sql`
        INSERT INTO record_value_elements
        SELECT v.* FROM jsonb_populate_recordset(NULL::record_value_elements, ${jsonText(snapshot.elements)}::jsonb) v
        WHERE v.property_id ${liveProperty}
      `
      yield* sql`
        INSERT INTO notes (account_id, id, object_type, record_id, body, made_by, created_at, updated_at)
        SELECT n.account_id, n.id, n.object_type, n.record_id, n.body, (SELECT u.id FROM users u WHERE u.id = n.made_by),
          n.created_at, n.updated_at
        FROM jsonb_populate_recordset(NULL::notes, ${jsonText(snapshot.notes)}::jsonb) n
      `
      if (ref.kind === "contact") {
        yield* sql`
          INSERT INTO contact_channels
          SELECT c.* FROM jsonb_populate_recordset(NULL::contact_channels, ${jsonText(snapshot.channels)}::jsonb) c
          ON CONFLICT DO NOTHING
        `
      }
      const byTable = (snapshot.links ?? {}) as Record<string, unknown>
      const links: Array<RecordLinkInput> = []
      for (const side of sidesOf(ref.kind)) {
        const rows = byTable[side.table]
        if (!Array.isArray(rows) || rows.length === 0) continue
        const back = yield* sql<Record<string, unknown>>`
          INSERT INTO ${sql(side.table)}
          SELECT l.* FROM jsonb_populate_recordset(NULL::${sql(side.table)}, ${JSON.stringify(rows)}::jsonb) l
          WHERE EXISTS (
            SELECT 1 FROM ${sql(KIND_STORAGE[side.otherKind].table)} o
            WHERE o.account_id = l.account_id AND o.id = l.${sql(side.other)} FOR KEY SHARE
          )
          ON CONFLICT DO NOTHING
          RETURNING *
        `
        for (const row of back) links.push(linkOf(ref.accountId, side.link, row))
        // A link whose other side is in the trash too waits in that one's snapshot, to come back with it.
        yield* sql`
          UPDATE record_trash t
          SET snapshot = jsonb_set(t.snapshot, ARRAY['links', ${side.table}::text],
            coalesce(t.snapshot->'links'->${side.table}::text, '[]'::jsonb) || jsonb_build_array(l.value))
          FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) l
          WHERE t.account_id = ${ref.accountId}::int8 AND t.kind = ${side.otherKind} AND t.id = l.value->>${side.other}::text
        `
      }
      return Option.some(links)
    }).pipe(atomically, Effect.orDie)

  return TrashRepository.of({
    trash,
    restore,
    get: (ref) =>
      Effect.map(
        sql<TrashRow>`SELECT ${columns} FROM record_trash WHERE ${scope(ref)}`,
        (rows) => Option.map(Option.fromNullishOr(rows[0]), entryOf)
      ).pipe(Effect.orDie),
    list: (accountId, kind, page, perPage) =>
      Effect.gen(function*() {
        const rows = yield* sql<TrashRow>`
          SELECT ${columns} FROM record_trash WHERE account_id = ${accountId}::int8 AND kind = ${kind}
          ORDER BY deleted_at DESC, id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}
        `
        const [count] = yield* sql<{ readonly total: string | number }>`
          SELECT count(*) AS total FROM record_trash WHERE account_id = ${accountId}::int8 AND kind = ${kind}
        `
        return { rows: rows.map(entryOf), total: Number(count!.total) }
      }).pipe(Effect.orDie),
    purge: (ref) =>
      Effect.map(sql`DELETE FROM record_trash WHERE ${scope(ref)} RETURNING id`, (rows) => rows.length > 0).pipe(Effect.orDie)
  })
})

/** `TrashRepository` on PostgreSQL (`SqlClient`, migrated). */
export const TrashRepositoryPg: Layer.Layer<TrashRepository, never, SqlClient.SqlClient> = Layer.effect(TrashRepository, make)
