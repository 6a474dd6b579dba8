/** On an empty database, create the first account and print its owner's credentials once. */
import { Console, Effect, Layer, Option } from "effect"
import { ensureFirstAccount } from "@wasl/core/Accounts"

export const FirstRunLive = Layer.effectDiscard(Effect.gen(function*() {
  const created = yield* ensureFirstAccount()
  if (Option.isNone(created)) return
  const { email, password, token } = created.value
  // Printed on the terminal, not logged: these are shown this once and stored only as hashes.
  yield* Console.log([
    "",
    "Wasl is ready: first account created.",
    `  owner:    ${email}`,
    `  password: ${password}`,
    `  token:    ${token}`,
    "Keep them: they are not shown again.",
    ""
  ].join("\n"))
}))
