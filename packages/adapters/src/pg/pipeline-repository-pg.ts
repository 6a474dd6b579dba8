import { LocalizedText, type Pipeline, PipelineRepository, PipelineStage } from "@wasl/core/Records"
import { DateTime, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeRows } from "./rows.ts"

const PipelineRow = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literals(["deal", "ticket"]),
  account_id: DbInt,
  name: LocalizedText,
  stages: Schema.Array(PipelineStage),
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

const decodeAll = decodeRows(PipelineRow)

/** Stored pipelines on PostgreSQL (table `pipelines`, migration 0047). */
export const PipelineRepositoryPg: Layer.Layer<PipelineRepository, never, SqlClient.SqlClient> = Layer.effect(
  PipelineRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return PipelineRepository.of({
      list: (accountId, kind) =>
        sql`
          SELECT id, kind, account_id, name, stages, created_at, updated_at FROM pipelines
          WHERE account_id = ${accountId} AND kind = ${kind}
          ORDER BY created_at, id
        `.pipe(
          Effect.flatMap(decodeAll),
          Effect.map((rows) => rows.map(({ id, ...row }): Pipeline => ({ _id: id, ...row }))),
          Effect.orDie
        ),
      save: (p) =>
        p.account_id === null || p.created_at === null || p.updated_at === null
          ? Effect.die(new Error("A stored pipeline belongs to an account and has its times."))
          : sql`
            INSERT INTO pipelines (account_id, kind, id, name, stages, created_at, updated_at)
            VALUES (${p.account_id}, ${p.kind}, ${p._id}, ${JSON.stringify(p.name)}::jsonb, ${JSON.stringify(p.stages)}::jsonb,
                    ${DateTime.toDateUtc(p.created_at)}, ${DateTime.toDateUtc(p.updated_at)})
            ON CONFLICT (account_id, kind, id) DO UPDATE
            SET name = EXCLUDED.name, stages = EXCLUDED.stages, updated_at = EXCLUDED.updated_at
          `.pipe(Effect.asVoid, Effect.orDie),
      delete: (accountId, kind, id) =>
        sql`DELETE FROM pipelines WHERE account_id = ${accountId} AND kind = ${kind} AND id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    })
  })
)
