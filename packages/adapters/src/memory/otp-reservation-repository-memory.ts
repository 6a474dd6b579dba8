import { type OtpReservation, OtpReservationRepository, type OtpReservationStatus } from "@wasl/core/Otp"
import { DateTime, Effect, Layer, Option } from "effect"
import { accountKey } from "./messaging-tables.ts"
import { requireAccount, requireNewRecordKey, withMessaging } from "./messaging-constraints.ts"
import { mapSet, type MemoryState, MemoryStore, readStore, updateStore } from "./store.ts"

/** Moves the reservations at `keys` out of `open`, and gives each released one's credit back to its account. */
const close = (
  state: MemoryState,
  keys: ReadonlyArray<string>,
  status: Exclude<OtpReservationStatus, "open">,
  now: DateTime.Utc
): MemoryState => {
  let reservations = state.messaging.reservations
  let accounts = state.accounts
  for (const key of keys) {
    const reservation = reservations.get(key)!
    reservations = mapSet(reservations, key, { ...reservation, status, updated_at: now })
    const account = accounts.get(reservation.account_id)
    if (status === "released" && account !== undefined) {
      accounts = mapSet(accounts, account.id, { ...account, otp_credits: account.otp_credits + 1, updated_at: now })
    }
  }
  return withMessaging({ ...state, accounts }, { ...state.messaging, reservations })
}

const isOpen = (reservation: OtpReservation | undefined): reservation is OtpReservation => reservation?.status === "open"

/**
 * OTP reservations in the memory store: same semantics as OtpReservationRepositoryPg. Every change
 * is one atomic step that leaves `open` only from `open`, so a reservation is settled or released
 * exactly once and a credit refunded at most once, whoever races for it; the sweep takes the
 * oldest open reservations first (in the order they were opened when their times are equal).
 */
export const OtpReservationRepositoryMemory: Layer.Layer<OtpReservationRepository, never, MemoryStore> = Layer.effect(
  OtpReservationRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore

    const closeOne = (status: "settled" | "released") => (accountId: number, id: string, now: DateTime.Utc) =>
      updateStore(store, (state) => {
        const key = accountKey(accountId, id)
        return isOpen(state.messaging.reservations.get(key))
          ? [true, close(state, [key], status, now)] as const
          : [false, state] as const
      })

    return OtpReservationRepository.of({
      open: (reservation) =>
        updateStore(store, (state) => {
          const { reservations } = state.messaging
          requireNewRecordKey(reservations, reservation.account_id, reservation.id, "otp_reservations")
          requireAccount(state, reservation.account_id, "otp_reservations")
          const key = accountKey(reservation.account_id, reservation.id)
          return [undefined, withMessaging(state, {
            ...state.messaging,
            reservations: mapSet(reservations, key, reservation)
          })] as const
        }),
      settle: closeOne("settled"),
      release: closeOne("released"),
      releaseStale: (openedBy, limit, now) => {
        const count = Math.floor(limit)
        if (!(count > 0)) return Effect.succeed(0)
        return updateStore(store, (state) => {
          const due = [...state.messaging.reservations.entries()]
            .filter(([, r]) => r.status === "open" && DateTime.isLessThanOrEqualTo(r.created_at, openedBy))
            .sort(([, a], [, b]) => DateTime.Order(a.created_at, b.created_at))
            .slice(0, count)
            .map(([key]) => key)
          return [due.length, close(state, due, "released", now)] as const
        })
      },
      findById: (accountId, id) =>
        readStore(store, (state) => Option.fromNullishOr(state.messaging.reservations.get(accountKey(accountId, id))))
    })
  })
)
