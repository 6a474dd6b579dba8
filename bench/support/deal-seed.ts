/**
 * Deals seeded set-based, as the records and exports benchmarks need them: `INSERT … SELECT
 * generate_series` of deals with built-in values and two custom properties (`score`, a number,
 * 90 % filled; `region`, a single_select, 80 % filled), defined in `properties` and valued in
 * `custom` and in `record_values`, as Wasl would have stored them one by one.
 */
import { BUILTIN_GROUPS } from "@wasl/core/Records"
import type { CustomProperty } from "@wasl/adapters/Postgres"
import type { SqlClient } from "effect/sql"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { type Custom, REGIONS, STAGES, SYLLABLES } from "./deal-scenarios.ts"

/** A word of three syllables from a number (8,000 of them), as `wordOf` of deal-scenarios.ts makes it. */
const wordSql = (h: string) =>
  `(s.syl)[1 + (${h} % 20)] || (s.syl)[1 + ((${h} / 20) % 20)] || (s.syl)[1 + ((${h} / 400) % 20)]`

/** Deals `from`..`to` (numbers, inclusive) of the account, values under `custom`. */
export const seedDeals = (sql: SqlClient.SqlClient, accountId: number, from: number, to: number, custom: Custom) =>
  sql.unsafe(
    `
    INSERT INTO deals (account_id, id, deal_name, amount, deal_stage, close_date, forecast_amount, next_steps, custom,
                       created_at, updated_at)
    SELECT $1::int8,
           lpad(to_hex(1672531200 + (g * 47) % 94608000), 8, '0') || substr(md5($1::text || ':' || g), 1, 16),
           initcap(${wordSql("s.h1")}) || ' ' || initcap(${wordSql("s.h2")}) || ' #' || g,
           s.amount,
           CASE WHEN s.r1 < 0.05 THEN NULL ELSE (s.stages)[1 + floor(s.r2 * 7)::int] END,
           CASE WHEN s.r3 < 0.1 THEN NULL ELSE s.created + (s.r4 * interval '120 days') END,
           CASE WHEN s.r5 < 0.3 THEN NULL ELSE round((s.amount * 0.8)::numeric, 2)::float8 END,
           CASE WHEN s.r6 < 0.5 THEN NULL ELSE 'Call back on ' || to_char(s.created, 'YYYY-MM-DD') END,
           jsonb_strip_nulls(jsonb_build_object(
             $4::text, CASE WHEN s.r7 < 0.1 THEN NULL ELSE round((s.r8 * 1000)::numeric, 1)::float8 END,
             $5::text, CASE WHEN s.r9 < 0.2 THEN NULL ELSE (s.regions)[1 + floor(s.r10 * 12)::int] END
           )),
           s.created, s.created
    FROM (
      SELECT g, ARRAY[${SYLLABLES.map((x) => `'${x}'`).join(",")}] AS syl,
             ARRAY[${STAGES.map((x) => `'${x}'`).join(",")}] AS stages,
             ARRAY[${REGIONS.map((x) => `'${x}'`).join(",")}] AS regions,
             abs(hashtext($1::text || 'a' || g)) % 8000 AS h1, abs(hashtext($1::text || 'b' || g)) % 8000 AS h2,
             round((random() * 100000)::numeric, 2)::float8 AS amount,
             date_trunc('milliseconds', timestamptz '2023-01-01' + random() * interval '1000 days') AS created,
             random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5, random() AS r6,
             random() AS r7, random() AS r8, random() AS r9, random() AS r10
      FROM generate_series($2::int, $3::int) g
    ) s
  `,
    [accountId, from, to, custom.score.id, custom.region.id]
  ).raw

/** The custom values' side rows, from `custom` (what RecordRepositoryPg writes row by row). */
export const seedValues = (sql: SqlClient.SqlClient, accountId: number, custom: Custom) =>
  Effect.all([
    sql`
      INSERT INTO record_values (account_id, kind, record_id, property_id, num)
      SELECT account_id, 'deal', id, ${custom.score.id}, (custom ->> ${custom.score.id}::text)::float8
      FROM deals WHERE account_id = ${accountId}::int8 AND custom ? ${custom.score.id}::text
    `.raw,
    sql`
      INSERT INTO record_values (account_id, kind, record_id, property_id, txt)
      SELECT account_id, 'deal', id, ${custom.region.id}, left(lower(custom ->> ${custom.region.id}::text), 255)
      FROM deals WHERE account_id = ${accountId}::int8 AND custom ? ${custom.region.id}::text
    `.raw
  ], { discard: true })

/** Two fresh custom properties, `score` and `region`. */
export const customFor = (): Custom => {
  const score: CustomProperty = { id: randomBytes(12).toString("hex"), internal_name: "score", type: "number" }
  const region: CustomProperty = { id: randomBytes(12).toString("hex"), internal_name: "region", type: "single_select" }
  return { score, region, list: [score, region] }
}

/**
 * The account's definitions of `score` and `region` (table `properties`, migration 0005), with the
 * ids the seed values under, in the kind's built-in group; `region`'s options are the regions.
 * Wasl reads them on every list request: without them it could not order by `score`.
 */
export const defineCustom = (sql: SqlClient.SqlClient, accountId: number, custom: Custom) => {
  const options = JSON.stringify(REGIONS.map((r) => ({ en: r, ar: r, internal_name: r })))
  return sql`
    INSERT INTO properties (account_id, id, kind, internal_name, type, name, description, group_id, options, created_at,
                            updated_at)
    VALUES (${accountId}::int8, ${custom.score.id}, 'deal', 'score', 'number', '{"en":"Score"}'::jsonb, NULL,
            ${BUILTIN_GROUPS.deal._id}, NULL, now(), now()),
           (${accountId}::int8, ${custom.region.id}, 'deal', 'region', 'single_select', '{"en":"Region"}'::jsonb, NULL,
            ${BUILTIN_GROUPS.deal._id}, ${options}::jsonb, now() + interval '1 millisecond',
            now() + interval '1 millisecond')
  `.raw
}

