/**
 * `wasl sandbox receive`: a text message to a `sandbox` number as if a contact sent it from
 * WhatsApp. It is stored in the WhatsApp inbox as the very callback body Meta would send, so it
 * takes the same path as Meta's (the worker turns it into a contact, a message and a notification).
 */
import { Data, DateTime, Effect, Schema } from "effect"
import { SecureRandom } from "effect/crypto"
import { Hex } from "effect/encoding"
import { SqlClient } from "effect/sql"
import { sandboxTextBody } from "@wasl/adapters/Messaging"
import { digitsOf } from "@wasl/core/Messaging"
import { WhatsAppInbox } from "@wasl/core/WhatsApp"

/** Why the command refused. */
export class SandboxReceiveRefused extends Data.TaggedError("SandboxReceiveRefused")<{ readonly message: string }> {}

const PlatformRow = Schema.Struct({ provider: Schema.String, display_phone_number: Schema.String })

/** Stores the callback of a text from `from` (digits) to the sandbox number `platformId`; answers the line to print. */
export const sandboxReceive = (input: {
  readonly platform: number
  readonly from: string
  readonly text: string
  readonly name: string | undefined
}) =>
  Effect.gen(function*() {
    const from = digitsOf(input.from)
    if (!/^[0-9]{6,20}$/.test(from)) return yield* new SandboxReceiveRefused({ message: "--from must be a phone number (6 to 20 digits)." })
    if (input.text.trim() === "" || [...input.text].length > 4096) {
      return yield* new SandboxReceiveRefused({ message: "--text must hold 1 to 4096 characters." })
    }
    const sql = yield* SqlClient.SqlClient
    // The operator names the number by its id alone: the one lookup that is not an account's.
    const rows = yield* sql`SELECT provider, display_phone_number FROM platforms WHERE id = ${input.platform}`
    const [platform] = yield* Schema.decodeUnknownEffect(Schema.Array(PlatformRow))(rows).pipe(Effect.orDie)
    if (platform === undefined || platform.provider !== "sandbox") {
      return yield* new SandboxReceiveRefused({ message: `No sandbox sending number has the id ${input.platform}.` })
    }
    const random = yield* SecureRandom.SecureRandom
    const id = `wamid.sandbox.${Hex.encode(yield* random.randomBytes(12))}`
    const now = yield* DateTime.now
    const body = sandboxTextBody(
      { digits: digitsOf(platform.display_phone_number) },
      { id, from, profileName: input.name ?? from, text: input.text },
      now
    )
    yield* WhatsAppInbox.use((inbox) => inbox.insert(body, now))
    return { received: id, platform_id: input.platform, from }
  })
