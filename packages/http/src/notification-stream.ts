/**
 * The body of `GET /api/notifications/stream`: the caller's live notifications as Server-Sent
 * Events (rendered by Effect's SSE encoder), a comment line while nothing happens so that proxies
 * and clients keep the connection, and an end when the server shuts down; and the limit of the
 * streams a user holds open at once.
 */
import { Context, Duration, Effect, Option, Schema, type Scope, Stream } from "effect"
import { Sse } from "effect/encoding"
import { HttpServerResponse } from "effect/http"
import { type Principal } from "@wasl/core/Auth"
import { type NotificationFeed, type NotificationRepository, notificationStream } from "@wasl/core/Notifications"
import { TooManyRequests429 } from "./errors.ts"
import { NotificationEvent } from "./notifications-api.ts"

/** How often an idle stream sends its heartbeat comment: 15 seconds unless a test provides less. */
export const SseHeartbeat: Context.Reference<Duration.Duration> = Context.Reference<Duration.Duration>(
  "@wasl/http/SseHeartbeat",
  { defaultValue: () => Duration.seconds(15) }
)

/** The notification streams a user may hold open at once unless a deployment says otherwise. */
export const DEFAULT_STREAMS_PER_USER = 10

/**
 * How many notification streams one user may hold open at once in one account (its sessions and
 * tokens together), in one server process: {@link DEFAULT_STREAMS_PER_USER} unless provided (the
 * server reads `WASL_STREAMS_PER_USER`).
 */
export const StreamsPerUser: Context.Reference<number> = Context.Reference<number>(
  "@wasl/http/StreamsPerUser",
  { defaultValue: () => DEFAULT_STREAMS_PER_USER }
)

/** The seconds a caller refused for too many open streams is told to wait: a stream may close at any moment. */
const STREAMS_RETRY_AFTER = 5

/** The 429 of a user who already holds `limit` open streams. */
const tooManyStreams = (limit: number) =>
  new TooManyRequests429({
    message: `Too many notification streams are open: at most ${limit} per user. Close one first.`,
    retryAfter: STREAMS_RETRY_AFTER
  })

/**
 * The notification streams open in this process, counted per user in each account. The count is
 * the process's own: a shared one would need a lease every stream renews, so that a process that
 * dies does not hold its slots, for a limit whose purpose is to keep one process's sockets and
 * subscriptions in bounds. With several API processes a user may hold `limit` in each.
 *
 * `take` holds a slot for the scope (the request's, which closes when its answer ends however it
 * ends: the client leaves, the server shuts down, a write fails), or fails with a 429 when the
 * user already holds `limit`.
 */
export const makeStreamSlots = (limit: number): {
  readonly take: (principal: Principal) => Effect.Effect<void, TooManyRequests429, Scope.Scope>
} => {
  const open = new Map<string, number>()
  return {
    take: (principal) => {
      const key = `${principal.accountId}:${principal.userId}`
      return Effect.acquireRelease(
        Effect.suspend(() => {
          const held = open.get(key) ?? 0
          if (held >= limit) return Effect.fail(tooManyStreams(limit))
          open.set(key, held + 1)
          return Effect.void
        }),
        () =>
          Effect.sync(() => {
            const held = open.get(key)! - 1
            if (held === 0) open.delete(key)
            else open.set(key, held)
          })
      )
    }
  }
}

// The SSE encoder renders events only; a comment (a line starting with ":") is ignored by every
// client and is what keeps an idle connection open.
const HEARTBEAT = ":\n\n"

const encodeEvent = Schema.encodeEffect(NotificationEvent)

/** `Last-Event-ID` as a notification id; anything else resumes nothing. */
export const lastEventId = (header: string | undefined): Option.Option<number> =>
  header !== undefined && /^[0-9]{1,15}$/.test(header.trim()) ? Option.some(Number(header.trim())) : Option.none()

/**
 * The caller's notification stream as a `text/event-stream` response. The first bytes (a
 * heartbeat) go out once listening has started, so a client that sees them misses nothing raised
 * afterwards; a heartbeat follows every `heartbeat` ({@link SseHeartbeat}). It ends when `closing`
 * completes (the server shutting down) or the feed ends.
 */
export const notificationStreamResponse = (
  principal: Principal,
  lastId: Option.Option<number>,
  options: { readonly closing: Effect.Effect<void>; readonly heartbeat: Duration.Duration }
): Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  never,
  NotificationFeed | NotificationRepository
> =>
  Effect.gen(function*() {
    const services = yield* Effect.context<NotificationFeed | NotificationRepository>()
    const body = Stream.unwrap(Effect.map(notificationStream(principal, lastId), (notifications) => {
      const events = notifications.pipe(
        Stream.mapEffect((notification) =>
          Effect.orDie(encodeEvent({ id: String(notification.id), event: "message", data: notification }))
        ),
        Stream.map((event) => Sse.encoder.write({ _tag: "Event", ...event }))
      )
      const heartbeats = Stream.tick(options.heartbeat).pipe(Stream.as(HEARTBEAT))
      return Stream.merge(events, heartbeats, { haltStrategy: "left" })
    })).pipe(Stream.interruptWhen(options.closing), Stream.provideContext(services))
    return HttpServerResponse.stream(Stream.encodeText(body), {
      contentType: "text/event-stream",
      headers: { "cache-control": "no-cache", "x-accel-buffering": "no" }
    })
  })

