/** A throw-away PostgreSQL database per benchmark run. */
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { randomBytes } from "node:crypto"

const withMaintenanceClient = <A>(url: string, f: (sql: PgClient.PgClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(
    PgClient.make({ url: Redacted.make(url), maxConnections: 1, applicationName: "wasl-bench" }).pipe(
      Effect.flatMap(f),
      Effect.scoped,
      Effect.provide(Reactivity.layer)
    )
  )

/** Creates `wasl_bench_<random>` on the server of `url`; returns its name, its URL and a function dropping it. */
export const createBenchDatabase = async (url: string) => {
  const name = `wasl_bench_${randomBytes(6).toString("hex")}`
  await withMaintenanceClient(url, (sql) => sql`CREATE DATABASE ${sql(name)}`.raw)
  const databaseUrl = new URL(url)
  databaseUrl.pathname = `/${name}`
  return {
    name,
    url: databaseUrl.toString(),
    drop: () => withMaintenanceClient(url, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`.raw)
  }
}
