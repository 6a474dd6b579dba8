/**
 * The HTTP baseline of the records benchmark (started by bench/records.ts as a child process): a
 * bare `node:http` server that answers `GET /api/deals?…` of the benchmark's target scenarios by
 * sending the very SQL `RecordRepositoryPg`'s list runs for it (compiled here once per request variant,
 * at start) raw through `@effect/sql-pg`'s `PgClient` with Wasl's pool size and codecs, and
 * writing the rows as JSON. No authentication, no property definitions, no record shapes: the
 * floor under Wasl's list endpoint on the same database. With `BASELINE_HTTP=httpapi` the same
 * pages through the HttpApi floor (bench/support/httpapi-floor.ts), the bearer token checked
 * once and kept, with `BASELINE_RULES=1` also the request frame every Wasl request has.
 *
 * Environment: `DATABASE_URL`, `BASELINE_PORT`, `BASELINE_ACCOUNT` (the big account's id),
 * `BASELINE_CUSTOM` (its `score` and `region` properties, JSON of `Custom`).
 */
import { pgClientOptions } from "@wasl/adapters/Postgres"
import { Effect } from "effect"
import { notFound, openPgClient, type Reply, serveBaseline } from "./support/baseline-server.ts"
import { compileListQuery, type Custom, listPath, scenarios } from "./support/deal-scenarios.ts"
import { intFromEnv } from "./support/env.ts"
import { serveHttpApiFloor } from "./support/httpapi-floor.ts"
import { keptTokenOwner } from "./support/token-owner.ts"

/** Wasl's pool size (`DatabaseLive`'s default). */
const POOL_SIZE = 10

const { close, sql } = await openPgClient(process.env.DATABASE_URL!, {
  ...pgClientOptions,
  applicationName: "wasl-bench-list-baseline",
  maxConnections: POOL_SIZE
})
const accountId = Number(process.env.BASELINE_ACCOUNT)
const custom = JSON.parse(process.env.BASELINE_CUSTOM!) as Custom

const statements = new Map<string, ReturnType<typeof compileListQuery>>()
for (const scenario of scenarios(accountId).filter((s) => s.target)) {
  for (let i = 0; i < scenario.variants; i++) {
    const input = scenario.input(i)
    statements.set(listPath(input), compileListQuery(sql, custom, input))
  }
}

/** The page of `url` as the baseline answers it: the rows as they come, as JSON. */
const pageOf = (url: string): Effect.Effect<Reply> => {
  const statement = statements.get(url)
  if (statement === undefined) return Effect.succeed(notFound)
  const [text, params] = statement
  return Effect.map(sql.unsafe(text, params).unprepared, (rows): Reply => ({ status: 200, body: JSON.stringify(rows) })).pipe(
    Effect.orDie
  )
}

if (process.env.BASELINE_HTTP === "httpapi") {
  serveHttpApiFloor(
    { authenticate: keptTokenOwner(sql), answer: (_caller, { url }) => pageOf(url) },
    close,
    intFromEnv("BASELINE_PORT", 0, 0),
    process.env.BASELINE_RULES === "1"
  )
} else {
  serveBaseline((request) => Effect.runPromise(pageOf(request.url ?? "")), close)
}
