/**
 * The caller's notifications and preferences (decisions §8), and the mail loop the worker runs.
 *
 * - `GET /api/notifications`: the caller's stored notifications in the current account, newest
 *   first, paginated like every list (decisions §4). Any authenticated caller, for itself.
 * - `POST /api/notifications/{id}/read`: marks one read (idempotent); another user's or
 *   account's id is 404.
 * - `PUT /api/me/notification-preferences` `{ name, stored, popup, browser, email }`: all five
 *   required; name one of NOTIFICATION_NAMES; the channels booleans.
 * - `sendPendingEmails`: claims queued mails (SKIP LOCKED, so any number of workers share them),
 *   sends each through Mailer and marks it; a failed send is retried by a later run, up to
 *   MAX_EMAIL_ATTEMPTS.
 */
import { DateTime, Effect, Option, Predicate } from "effect"
import { NotificationRepository } from "../account/notification-repository.ts"
import { NOTIFICATION_NAMES, type NotificationName } from "../account/user.ts"
import type { Principal } from "../auth/principal.ts"
import { ErrorBag, cleanInput, isBlankInput, ownValue } from "../records/body-input.ts"
import { pageOffset, parsePageParams } from "../records/pagination.ts"
import type { QueryInput } from "../records/query-string.ts"
import { LaravelMessage } from "../records/validation-messages.ts"
import { NotFound } from "../errors.ts"
import { Mailer } from "../mail/mailer.ts"
import { Transactor } from "../transactor.ts"

export const MAX_EMAIL_ATTEMPTS = 5

export const listNotifications = Effect.fn("listNotifications")(function*(principal: Principal, query: QueryInput) {
  const page = yield* parsePageParams(query)
  const repo = yield* NotificationRepository
  const { items, total } = yield* repo.list(principal.accountId, principal.userId, {
    offset: pageOffset(page),
    limit: page.perPage
  })
  return { items, total, page: page.page, perPage: page.perPage }
})

export const markNotificationRead = Effect.fn("markNotificationRead")(function*(principal: Principal, id: number) {
  if (!Number.isSafeInteger(id) || id <= 0) return yield* new NotFound()
  const now = yield* DateTime.now
  const read = yield* NotificationRepository.use((repo) => repo.markRead(principal.accountId, principal.userId, id, now))
  if (Option.isNone(read)) return yield* new NotFound()
  return read.value
})

const CHANNELS = ["stored", "popup", "browser", "email"] as const

export const updateNotificationPreference = Effect.fn("updateNotificationPreference")(
  function*(principal: Principal, body: unknown) {
    const input = cleanInput(Predicate.isObject(body) && !Array.isArray(body) ? body : {}) as object
    const bag = new ErrorBag()
    const name = ownValue(input, "name")
    if (isBlankInput(name)) bag.add("name", LaravelMessage.required("name"))
    else if (typeof name !== "string" || !(NOTIFICATION_NAMES as ReadonlyArray<string>).includes(name)) {
      bag.add("name", LaravelMessage.selectedInvalid("name"))
    }
    const channels: Record<string, boolean> = {}
    for (const channel of CHANNELS) {
      const value = ownValue(input, channel)
      if (isBlankInput(value)) bag.add(channel, LaravelMessage.required(channel))
      else if (value === true || value === 1 || value === "1") channels[channel] = true
      else if (value === false || value === 0 || value === "0") channels[channel] = false
      else bag.add(channel, LaravelMessage.boolean(channel))
    }
    if (!bag.isEmpty) return yield* Effect.fail(bag.toFailure())
    const now = yield* DateTime.now
    return yield* NotificationRepository.use((repo) =>
      repo.savePreference(principal.accountId, principal.userId, name as NotificationName, {
        stored: channels["stored"]!,
        popup: channels["popup"]!,
        browser: channels["browser"]!,
        email: channels["email"]!
      }, now)
    )
  }
)

/** Sends up to `limit` queued mails; returns how many were sent. */
export const sendPendingEmails = Effect.fn("sendPendingEmails")(function*(limit: number) {
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const repo = yield* NotificationRepository
    const mailer = yield* Mailer
    const pending = yield* repo.claimEmails(limit, MAX_EMAIL_ATTEMPTS)
    let sent = 0
    for (const email of pending) {
      const outcome = yield* Effect.result(mailer.send({ to: email.to, subject: email.subject, text: email.text }))
      if (outcome._tag === "Success") {
        yield* repo.emailSent(email, yield* DateTime.now)
        sent++
      } else {
        yield* Effect.logWarning("mail not sent").pipe(
          Effect.annotateLogs({ notification_id: email.notificationId, error: outcome.failure.message })
        )
        yield* repo.emailFailed(email)
      }
    }
    return sent
  }))
})
