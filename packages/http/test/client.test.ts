/**
 * `@wasl/http/client` against a real server: the typed client made from the contract calls the
 * endpoints, decodes their answers, and fails with the declared errors.
 */
import { Effect } from "effect"
import { FetchHttpClient, type HttpClient } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { NotFound404, Unauthenticated401, Validation422 } from "@wasl/http/Errors"
import { makeWaslClient, withIdempotencyKey } from "@wasl/http/client"
import { RecordId } from "@wasl/core/Wire"
import { Schema } from "effect"
import { startTestServer, type TestServer } from "./support/server.ts"

describe("the typed client", () => {
  let server: TestServer
  let token: string

  beforeAll(async () => {
    server = await startTestServer("pglite")
    token = (await server.bootstrap({ email: "client-owner@example.test", password: "pw-owner" })).token
  })
  afterAll(async () => {
    await server?.close()
  })

  const run = <A, E>(effect: Effect.Effect<A, E, HttpClient.HttpClient>) =>
    Effect.runPromise(effect.pipe(Effect.provide(FetchHttpClient.layer)))

  it("reads the current user, creates and reads a deal, lists tokens", async () => {
    const result = await run(Effect.gen(function*() {
      const wasl = yield* makeWaslClient({ baseUrl: server.url, token })
      const me = yield* wasl.me.show()
      const created = yield* wasl.records.create({ params: { kind: "deal" }, payload: { deal_name: "Typed", amount: 10 } })
      const id = Schema.decodeUnknownSync(RecordId)(created.data.properties._id)
      const shown = yield* wasl.records.show({ params: { kind: "deal", id } })
      const tokens = yield* wasl.tokens.list()
      return { me, created, shown, tokens }
    }))
    expect(result.me.email).toBe("client-owner@example.test")
    expect(result.created.message).toBe("Entity was created Successfully")
    expect(result.shown.data.properties).toMatchObject({ deal_name: "Typed", amount: 10 })
    expect(result.tokens.data.length).toBe(1)
    expect(result.tokens.meta.total).toBe(1)
  })

  it("sends an Idempotency-Key inside withIdempotencyKey: the same key answers the first record, not a second one", async () => {
    const ids = await run(Effect.gen(function*() {
      const wasl = yield* makeWaslClient({ baseUrl: server.url, token })
      const create = wasl.records.create({ params: { kind: "deal" }, payload: { deal_name: "Keyed" } }).pipe(
        Effect.map((created) => created.data.properties._id)
      )
      return {
        first: yield* create.pipe(withIdempotencyKey("client-key-1")),
        again: yield* withIdempotencyKey(create, "client-key-1"),
        otherKey: yield* create.pipe(withIdempotencyKey("client-key-2")),
        unkeyed: [yield* create, yield* create],
        // A key the server refuses proves the header reached it.
        refused: yield* Effect.flip(create.pipe(withIdempotencyKey("not a key")))
      }
    }))
    expect(ids.again).toBe(ids.first)
    expect(ids.otherKey).not.toBe(ids.first)
    expect(new Set([ids.first, ids.otherKey, ...ids.unkeyed]).size).toBe(4)
    expect(ids.refused).toBeInstanceOf(Validation422)
  })

  it("fails with the declared errors: 422 with its field messages, 404, and 401 without a token", async () => {
    const failures = await run(Effect.gen(function*() {
      const wasl = yield* makeWaslClient({ baseUrl: server.url, token })
      const anonymous = yield* makeWaslClient({ baseUrl: server.url })
      return {
        invalid: yield* Effect.flip(wasl.records.create({ params: { kind: "deal" }, payload: { amount: 10 } })),
        missing: yield* Effect.flip(wasl.records.show({ params: { kind: "deal", id: Schema.decodeUnknownSync(RecordId)("0123456789abcdef01234567") } })),
        unauthenticated: yield* Effect.flip(anonymous.me.show())
      }
    }))
    expect(failures.invalid).toBeInstanceOf(Validation422)
    expect(failures.invalid).toMatchObject({ errors: { deal_name: ["The deal name field is required."] } })
    expect(failures.missing).toBeInstanceOf(NotFound404)
    expect(failures.unauthenticated).toBeInstanceOf(Unauthenticated401)
  })
})
