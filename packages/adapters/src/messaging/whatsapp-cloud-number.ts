/**
 * What Meta says of a WhatsApp Cloud number: `GET /{phone_id}` with the fields `verified_name`,
 * `code_verification_status`, `quality_rating` and `messaging_limit_tier`, as the Graph API's
 * phone number node answers them.
 */
import type { NumberHealth, NumberReadOutcome, ProviderPlatform } from "@wasl/core/Messaging"
import { Effect } from "effect"
import { cloudCall, cloudCredentials, cloudFailure } from "./whatsapp-cloud-call.ts"

/** The phone number node's fields Wasl reads. */
export const NUMBER_HEALTH_FIELDS = "verified_name,code_verification_status,quality_rating,messaging_limit_tier"

const text = (value: unknown): string | null => typeof value === "string" && value !== "" ? value : null

/** The health fields of a phone number node; a field Meta leaves out is null. */
export const numberHealthOf = (node: any): NumberHealth => ({
  verified_name: text(node?.verified_name),
  code_verification_status: text(node?.code_verification_status),
  quality_rating: text(node?.quality_rating),
  messaging_limit_tier: text(node?.messaging_limit_tier)
})

/** Reads the number's node at `base` (the Graph API's URL with its version); never fails. */
export const readCloudNumber = (base: string, platform: ProviderPlatform): Effect.Effect<NumberReadOutcome> => {
  const credentials = cloudCredentials(platform)
  if ("_tag" in credentials) return Effect.succeed(credentials)
  return Effect.map(
    cloudCall(`${base}/${encodeURIComponent(credentials.phoneId)}?fields=${NUMBER_HEALTH_FIELDS}`, {
      method: "GET",
      headers: { authorization: credentials.authorization }
    }),
    (answer): NumberReadOutcome =>
      answer !== undefined && answer.status < 300 && typeof answer.body === "object" && answer.body !== null
        ? { _tag: "Read", health: numberHealthOf(answer.body) }
        : cloudFailure(answer)
  )
}
