/**
 * The health probes over real sockets, on each database: live and ready answer without
 * credentials and without a rate limit; ready answers 503 when the migrations are not current,
 * when its SQL fails and (PostgreSQL) when the database is gone; no answer says why.
 */
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { afterEach, describe, expect, it } from "vitest"
import { pgClientOptions } from "@wasl/adapters/Postgres"
import { testPostgresUrl } from "@wasl/adapters/testing"
import type { Reply } from "./support/client.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const OK = { status: "ok" }
const UNAVAILABLE = { status: "unavailable" }

/** A probe's answer carries its status and nothing else: no version, host or error. */
const expectBare = (reply: Reply, status: number, body: unknown) => {
  expect(reply.status).toBe(status)
  expect(reply.body).toEqual(body)
  expect(reply.headers.get("content-type")).toMatch(/^application\/json/)
  expect(reply.headers.get("ratelimit-limit")).toBeNull()
}

/** Drops the server's database from another session, closing the server's connections. */
const dropDatabase = (name: string) =>
  Effect.runPromise(
    PgClient.make({ ...pgClientOptions, url: Redacted.make(testPostgresUrl()!), maxConnections: 1 }).pipe(
      Effect.flatMap((sql) => sql`DROP DATABASE ${sql(name)} WITH (FORCE)`.raw),
      Effect.scoped,
      Effect.provide(Reactivity.layer)
    )
  )

describe.each(DATABASES)("health probes (%s)", (database) => {
  let server: TestServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it("live and ready answer 200 {status: ok} without credentials, and are never rate limited", async () => {
    server = await startTestServer(database, { rateLimits: { caller: { limit: 1, window: Duration.minutes(1) } } })
    for (let i = 0; i < 5; i++) {
      expectBare(await server.request("GET", "/health/live"), 200, OK)
      expectBare(await server.request("GET", "/health/ready"), 200, OK)
    }
    // Credentials change nothing, bad ones included: a probe is not an API call.
    expectBare(await server.request("GET", "/health/ready", { token: "1|not-a-token" }), 200, OK)
  })

  it("the OpenAPI document lists both probes, without security", async () => {
    server = await startTestServer(database)
    const document = (await server.request("GET", "/api/openapi.json")).body
    for (const path of ["/health/live", "/health/ready"]) {
      expect(document.paths[path].get.security ?? []).toEqual([])
    }
    expect(Object.keys(document.paths["/health/ready"].get.responses)).toEqual(expect.arrayContaining(["200", "503"]))
  })

  it("ready answers 503 while a migration of this version is not applied, and 200 once it is again", async () => {
    server = await startTestServer(database)
    const [newest] = await server.query("SELECT * FROM wasl_migrations ORDER BY migration_id DESC LIMIT 1")
    await server.query("DELETE FROM wasl_migrations WHERE migration_id = $1", [newest.migration_id])
    expectBare(await server.request("GET", "/health/ready"), 503, UNAVAILABLE)
    expectBare(await server.request("GET", "/health/live"), 200, OK)
    await server.query("INSERT INTO wasl_migrations (migration_id, created_at, name) VALUES ($1, $2, $3)", [
      newest.migration_id,
      newest.created_at,
      newest.name
    ])
    expectBare(await server.request("GET", "/health/ready"), 200, OK)
    expect(server.logs.some((line) => line.includes("migrations pending"))).toBe(true)
  })

  it("ready answers 503 when its SQL fails, without the error", async () => {
    server = await startTestServer(database)
    await server.query("ALTER TABLE wasl_migrations RENAME TO wasl_migrations_away")
    const reply = await server.request("GET", "/health/ready")
    expectBare(reply, 503, UNAVAILABLE)
    expect(reply.text).toBe(JSON.stringify(UNAVAILABLE))
    expect(server.logs.some((line) => line.includes("the database does not answer"))).toBe(true)
    await server.query("ALTER TABLE wasl_migrations_away RENAME TO wasl_migrations")
    expectBare(await server.request("GET", "/health/ready"), 200, OK)
  })
})

// Only a database server can go away under a running service: the embedded one lives in the process.
if (DATABASES.includes("postgres")) {
  describe("health probes (postgres, database gone)", () => {
    let server: TestServer | undefined
    afterEach(async () => {
      await server?.close()
    })

    it("ready answers 503 once the database is gone, live still 200", async () => {
      server = await startTestServer("postgres")
      const [{ name }] = await server.query("SELECT current_database() AS name")
      await dropDatabase(name)
      const started = Date.now()
      expectBare(await server.request("GET", "/health/ready"), 503, UNAVAILABLE)
      expect(Date.now() - started).toBeLessThan(2000)
      expectBare(await server.request("GET", "/health/live"), 200, OK)
    })
  })
}
