/**
 * `GET /api/notifications/stream` over real sockets, on PGlite and PostgreSQL: new popup and
 * browser notifications arrive as Server-Sent Events, for their own user and account only; a
 * reconnect with `Last-Event-ID` gets the missed ones; heartbeats keep an idle stream alive; a
 * notification raised through one replica reaches a stream on another; a user holds at most
 * `WASL_STREAMS_PER_USER` open streams per process; shutdown ends the streams.
 * Notifications are raised through the use-case the delivery worker calls (notifyWebhookDeactivated).
 */
import { TeamRepository, UserRepository } from "@wasl/core/Accounts"
import { notifyWebhookDeactivated } from "@wasl/core/Webhooks"
import { Duration, Effect, Exit, type Layer, Scope } from "effect"
import type { PgClient } from "@effect/sql-pg"
import type { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATABASES, sharedDatabaseOf, startTestServer, type TestServer } from "./support/server.ts"
import { sessionCookie } from "./support/messaging-fixtures.ts"
import { openSse, type SseConnection } from "./support/sse.ts"

const STREAM = "/api/notifications/stream"
const HEARTBEAT = Duration.millis(200)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.each(DATABASES)("the notification stream on %s", (database) => {
  // `first` and `second` are two replicas on one database.
  const scope = Effect.runSync(Scope.make())
  let shared: () => Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown>
  let first: TestServer
  let second: TestServer
  let owner: { account_id: number; user_id: number; token: string }
  let other: { account_id: number; user_id: number; token: string }
  const open: Array<SseConnection> = []

  const connectWith = async (server: TestServer, headers: Record<string, string>) => {
    const connection = await openSse(server.url, STREAM, headers)
    open.push(connection)
    return connection
  }
  const connect = (server: TestServer, token: string, lastEventId?: string) =>
    connectWith(server, {
      authorization: `Bearer ${token}`,
      ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId })
    })
  let hook = 0
  const raise = (server: TestServer = first) => {
    hook += 1
    return server.run(notifyWebhookDeactivated(owner.account_id, hook, `https://hooks.example.test/${hook}`))
  }
  /** The owner's newest stored notification, as the list shows it. */
  const newest = async () => (await first.request("GET", "/api/notifications", { token: owner.token })).body.data[0]
  const setChannels = (on: boolean) =>
    first.request("PUT", "/api/me/notification-preferences", {
      token: owner.token,
      body: { name: "WebhookDeactivated", stored: true, popup: on, browser: on, email: false }
    })

  beforeAll(async () => {
    shared = await Effect.runPromise(sharedDatabaseOf(database).pipe(Scope.provide(scope)))
    first = await startTestServer(database, { database: shared(), sseHeartbeat: HEARTBEAT })
    second = await startTestServer(database, { database: shared(), sseHeartbeat: HEARTBEAT })
    owner = await first.bootstrap({ email: "stream-owner@example.test", password: "pw" })
    other = await first.bootstrap({ email: "stream-other@example.test", password: "pw" })
    // A second member of the owner's account who is told too: the owner's stream must not carry theirs.
    await first.run(Effect.gen(function*() {
      const users = yield* UserRepository
      const user = yield* users.create({ email: "stream-member@example.test", passwordHash: "x", firstname: "M", lastname: "M" })
      yield* users.addMembership(owner.account_id, user.id)
      yield* (yield* TeamRepository).create(
        { accountId: owner.account_id, name: "members", description: null, madeBy: null, permissions: ["webhook-update"] },
        [user.id]
      )
    }))
    await setChannels(true)
  })
  afterAll(async () => {
    for (const connection of open) connection.close()
    await first?.close()
    await second?.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  it("is documented as an event stream with a summary and the Last-Event-ID header", async () => {
    const document = (await first.request("GET", "/api/openapi.json", {})).body
    const operation = document.paths[STREAM].get
    expect(operation.summary).toBe("Receive your notifications live")
    expect(operation.description).toContain("Server-Sent Events")
    expect(Object.keys(operation.responses["200"].content)).toEqual(["text/event-stream"])
    expect(operation.parameters).toContainEqual(expect.objectContaining({ name: "Last-Event-ID", in: "header" }))
  })

  it("answers 401 without credentials", async () => {
    const reply = await fetch(`${first.url}${STREAM}`)
    expect(reply.status).toBe(401)
    await reply.body?.cancel()
  })

  it("sends each new notification of the caller, as the list shows it, with its id as the event id", async () => {
    const stream = await connect(first, owner.token)
    expect(stream.status).toBe(200)
    expect(stream.contentType).toContain("text/event-stream")
    expect(await raise()).toBe(2)
    const [event] = await stream.waitFor(1)
    const listed = await newest()
    expect(event).toMatchObject({ event: "message", id: String(listed.id) })
    expect(JSON.parse(event!.data)).toEqual(listed)
    await sleep(300)
    // The other member's notification, raised by the same call, is not on the owner's stream.
    expect(stream.events).toHaveLength(1)
    stream.close()
  })

  it("sends nothing while the caller's popup and browser channels are off", async () => {
    const stream = await connect(first, owner.token)
    expect((await setChannels(false)).status).toBe(200)
    await raise()
    const silent = await newest()
    await setChannels(true)
    await raise()
    const loud = await newest()
    const events = await stream.waitFor(1)
    await sleep(300)
    expect(events.map((event) => event.id)).toEqual([String(loud.id)])
    expect(silent.id).toBeLessThan(loud.id)
    stream.close()
  })

  it("sends another account's user nothing", async () => {
    const stream = await connect(first, other.token)
    await raise()
    await sleep(500)
    expect(stream.events).toEqual([])
    stream.close()
  })

  it("with Last-Event-ID, first sends the unread ones stored after it", async () => {
    const stream = await connect(first, owner.token)
    await raise()
    const [seen] = await stream.waitFor(1)
    stream.close()
    await raise()
    const missedFirst = await newest()
    await raise()
    const missedSecond = await newest()
    const resumed = await connect(first, owner.token, seen!.id)
    const events = await resumed.waitFor(2)
    expect(events.map((event) => event.id)).toEqual([String(missedFirst.id), String(missedSecond.id)])
    // And then the live ones.
    await raise()
    const live = await newest()
    expect((await resumed.waitFor(3)).map((event) => event.id)).toEqual([
      String(missedFirst.id),
      String(missedSecond.id),
      String(live.id)
    ])
    resumed.close()
  })

  it("takes a Last-Event-ID that is not an id as none: nothing is resumed", async () => {
    const stream = await connect(first, owner.token, "not-an-id")
    expect(stream.status).toBe(200)
    await sleep(300)
    expect(stream.events).toEqual([])
    stream.close()
  })

  it("sends heartbeat comments while idle", async () => {
    const stream = await connect(first, other.token)
    const before = stream.chunks()
    await sleep(1000)
    expect(stream.chunks()).toBeGreaterThanOrEqual(before + 3)
    expect(stream.events).toEqual([])
    stream.close()
  })

  it("carries a notification raised through one replica to a stream on the other", async () => {
    const stream = await connect(second, owner.token)
    await raise(first)
    const [event] = await stream.waitFor(1)
    expect(event?.id).toBe(String((await newest()).id))
    stream.close()
  })

  it("keeps at most 10 streams of a user open at once in a process: the 11th is a 429 until one closes", async () => {
    const many = await first.bootstrap({ email: "stream-many@example.test", password: "pw" })
    const cookie = await sessionCookie(first, "stream-many@example.test", "pw")
    const streams = [await connectWith(first, { cookie })]
    for (let i = 1; i < 10; i++) streams.push(await connect(first, many.token))
    expect(streams.map((stream) => stream.status)).toEqual(Array(10).fill(200))
    // The user's session and tokens share the count.
    for (const headers of [{ authorization: `Bearer ${many.token}` }, { cookie }]) {
      const refused = await fetch(`${first.url}${STREAM}`, { headers: { accept: "text/event-stream", ...headers } })
      expect(refused.status).toBe(429)
      expect(refused.headers.get("retry-after")).toBe("5")
      expect(await refused.json()).toEqual({ message: "Too many notification streams are open: at most 10 per user. Close one first." })
    }
    // Another user's streams, and another process's, are counted apart.
    const theirs = await connect(first, other.token)
    const elsewhere = await connect(second, many.token)
    expect([theirs.status, elsewhere.status]).toEqual([200, 200])
    theirs.close()
    elsewhere.close()
    // Closing a stream frees its slot: the next one opens.
    streams[0]!.close()
    let next = await connect(first, many.token)
    for (const started = Date.now(); next.status === 429 && Date.now() - started < 2000; await sleep(20)) {
      next = await connect(first, many.token)
    }
    expect(next.status).toBe(200)
    expect((await fetch(`${first.url}${STREAM}`, { headers: { authorization: `Bearer ${many.token}` } })).status).toBe(429)
    for (const stream of [...streams, next]) stream.close()
  })

  it("takes its limit of open streams per user from the server's settings", async () => {
    const replica = await startTestServer(database, { database: shared(), sseHeartbeat: HEARTBEAT, streamsPerUser: 1 })
    const stream = await connect(replica, owner.token)
    expect(stream.status).toBe(200)
    const refused = await fetch(`${replica.url}${STREAM}`, { headers: { authorization: `Bearer ${owner.token}` } })
    expect(refused.status).toBe(429)
    expect(((await refused.json()) as { message: string }).message).toContain("at most 1 per user")
    stream.close()
    await replica.close()
  })

  it("counts against the rate limit once, at connect; ends open streams when the server shuts down", async () => {
    const replica = await startTestServer(database, {
      database: shared(),
      sseHeartbeat: HEARTBEAT,
      // A day-long window: the two requests counted never straddle two windows.
      rateLimits: { caller: { limit: 5, window: Duration.days(1) } }
    })
    const stream = await connect(replica, owner.token)
    await sleep(700)
    expect(stream.chunks()).toBeGreaterThanOrEqual(3)
    const me = await replica.request("GET", "/api/me", { token: owner.token })
    expect(me.headers.get("ratelimit-remaining")).toBe("3")
    const started = Date.now()
    await replica.close()
    await stream.ended
    expect(Date.now() - started).toBeLessThan(5000)
  })
})
