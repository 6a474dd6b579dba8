/** Every port the service needs, on PostgreSQL: what the server, the CLI and the tests provide. */
import type { TokenHasher } from "@wasl/core/Auth"
import type { WaslRepositories } from "@wasl/core/Deployment"
import { Layer } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SecureRandom } from "effect/crypto"
import { RepositoriesPg } from "./pg/index.ts"
import { TokenHasherNode } from "./token-hasher-node.ts"
import { SecureRandomPooled } from "./secure-random-pooled.ts"

/**
 * Every storage port on PostgreSQL (`RepositoriesPg`), token hashing (`TokenHasherNode`) and secure
 * randomness; needs a migrated `SqlClient`. The other ports (password hashing, secrets, webhooks,
 * mail, messaging) come from elsewhere: `WaslPostgres` provides them all.
 */
export const ServicesPg: Layer.Layer<
  WaslRepositories | TokenHasher | SecureRandom.SecureRandom,
  never,
  SqlClient
> = Layer.mergeAll(RepositoriesPg, TokenHasherNode).pipe(
  Layer.provideMerge(SecureRandomPooled)
)
