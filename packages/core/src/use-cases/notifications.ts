/**
 * The caller's notifications and preferences, and the mail loop the worker runs.
 *
 * - `GET /api/notifications`: the caller's stored notifications in the current account, newest
 *   first, paginated like every list. Any authenticated caller, for itself.
 * - `POST /api/notifications/{id}/read`: marks one read (idempotent); another user's or
 *   account's id is 404.
 * - `PUT /api/me/notification-preferences` `{ name, stored, popup, browser, email }`: all five
 *   required; name one of NOTIFICATION_NAMES; the channels booleans.
 * - `sendPendingEmails`: claims queued mails (SKIP LOCKED, so any number of workers share them),
 *   sends each through Mailer and marks it; a failed send is retried by a later run, up to
 *   MAX_EMAIL_ATTEMPTS.
 */
import { DateTime, Effect, Option, Predicate } from "effect"
import type { Notification } from "../account/notification.ts"
import { NotificationRepository } from "../account/notification-repository.ts"
import { NOTIFICATION_NAMES, type NotificationName, type NotificationPreference } from "../account/user.ts"
import type { Principal } from "../auth/principal.ts"
import { ErrorBag, cleanInput, isBlankInput, ownValue } from "../records/body-input.ts"
import { type Page, pageOffset, parsePageParams } from "../records/pagination.ts"
import type { ListQueryInput } from "../records/list-query-input.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { NotFound, type ValidationFailed } from "../errors.ts"
import { Mailer } from "../mail/mailer.ts"
import { Transactor } from "../transactor.ts"

/** How many times a notification's mail is tried before it is given up. */
export const MAX_EMAIL_ATTEMPTS = 5

/**
 * `GET /api/notifications`: one page (`page`, `per_page` of `query`) of the caller's stored
 * notifications in the current account, newest first, and their total. Any authenticated caller,
 * for itself. Fails {@link ValidationFailed} for a bad `page` or `per_page`.
 */
export const listNotifications: (
  principal: Principal,
  query: ListQueryInput
) => Effect.Effect<
  Page<Notification>,
  ValidationFailed,
  NotificationRepository
> = Effect.fn("listNotifications")(function*(principal: Principal, query: ListQueryInput) {
  const page = yield* parsePageParams(query)
  const repo = yield* NotificationRepository
  const { items, total } = yield* repo.list(principal.accountId, principal.userId, {
    offset: pageOffset(page),
    limit: page.perPage
  })
  return { items, total, page: page.page, perPage: page.perPage }
})

/**
 * `POST /api/notifications/{id}/read`: marks one of the caller's notifications read (again is
 * harmless: the first read time is kept). Answers the notification. Fails {@link NotFound} for an
 * id that is not one of the caller's stored notifications in the account.
 */
export const markNotificationRead: (
  principal: Principal,
  id: number
) => Effect.Effect<
  Notification,
  NotFound,
  NotificationRepository
> = Effect.fn("markNotificationRead")(function*(principal: Principal, id: number) {
  if (!Number.isSafeInteger(id) || id <= 0) return yield* new NotFound()
  const now = yield* DateTime.now
  const read = yield* NotificationRepository.use((repo) => repo.markRead(principal.accountId, principal.userId, id, now))
  if (Option.isNone(read)) return yield* new NotFound()
  return read.value
})

const CHANNELS = ["stored", "popup", "browser", "email"] as const

/**
 * `PUT /api/me/notification-preferences` `{ name, stored, popup, browser, email }`: sets the
 * caller's channels for one notification name in the account. All five keys are required; `name`
 * is one of `NOTIFICATION_NAMES`, the channels booleans (`1`/`0` and `"1"`/`"0"` too). Answers the
 * stored preference. Fails {@link ValidationFailed} with an entry per bad key.
 */
export const updateNotificationPreference: (
  principal: Principal,
  body: unknown
) => Effect.Effect<NotificationPreference, ValidationFailed, NotificationRepository> = Effect.fn(
  "updateNotificationPreference"
)(
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

/**
 * Sends up to `limit` queued notification mails through the `Mailer`, oldest first, and answers
 * how many were sent. A failed send is logged and tried again by a later run, up to
 * {@link MAX_EMAIL_ATTEMPTS} times. Any number of workers may run it at once: each mail is claimed
 * by one of them.
 */
export const sendPendingEmails: (
  limit: number
) => Effect.Effect<
  number,
  never,
  Mailer | NotificationRepository | Transactor
> = Effect.fn("sendPendingEmails")(function*(limit: number) {
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
