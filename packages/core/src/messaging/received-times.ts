/**
 * When a contact last and first wrote: `first_received_message_at` and
 * `last_received_message_at`, and the same for WhatsApp (`first_/last_whatsapp_message_received_at`;
 * WhatsApp is the one channel, so both pairs agree). Set by Wasl on every received message and
 * read-only to clients: `first` is the earliest message time seen (a message that arrives late
 * but was sent earlier moves it back), `last` the latest (never moved back by a late one).
 */
import { DateTime, Option } from "effect"
import type { RecordPatch, StoredValues } from "../records/value-validation.ts"
import { formatWireTimestamp, parseDateInput } from "../wire/timestamp.ts"

/** The four received-time properties of a contact, `first` ones then `last` ones. */
export const RECEIVED_TIME_PROPERTIES = {
  first: ["first_received_message_at", "first_whatsapp_message_received_at"],
  last: ["last_received_message_at", "last_whatsapp_message_received_at"]
} as const

const instantOf = (value: unknown): DateTime.Utc | undefined => Option.getOrUndefined(parseDateInput(value))

/** The patch that records a message received at `at` on a contact holding `values`; empty when nothing changes. */
export const receivedTimesPatch = (values: StoredValues, at: DateTime.Utc): RecordPatch => {
  const patch: Record<string, string> = {}
  const wire = formatWireTimestamp(at)
  for (const name of RECEIVED_TIME_PROPERTIES.first) {
    const current = instantOf(values[name])
    if (current === undefined || DateTime.isLessThan(at, current)) patch[name] = wire
  }
  for (const name of RECEIVED_TIME_PROPERTIES.last) {
    const current = instantOf(values[name])
    if (current === undefined || DateTime.isGreaterThan(at, current)) patch[name] = wire
  }
  return patch
}
