/** One clear line for each way a command can fail. */
import { type Config, Predicate } from "effect"
import { describeConfigError } from "@wasl/app-server"

export const describeFailure = (error: unknown): string => {
  if (!Predicate.hasProperty(error, "_tag")) return String(error)
  switch (error._tag) {
    case "ConfigError":
      return describeConfigError(error as unknown as Config.ConfigError)
    case "NotFound":
      return "Not found: no such account, or the user is not a member of it."
    default:
      return Predicate.hasProperty(error, "message") && typeof error.message === "string" && error.message !== ""
        ? error.message
        : String(error._tag)
  }
}
