/** Every port the service needs, on PostgreSQL: what the server, the CLI and the tests provide. */
import { Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import { RepositoriesPg } from "./pg/index.ts"
import { TokenHasherNode } from "./token-hasher-node.ts"

/** Repositories + token hashing + secure randomness; needs a migrated `SqlClient` and a `PasswordHasher`. */
export const ServicesPg = Layer.mergeAll(RepositoriesPg, TokenHasherNode).pipe(
  Layer.provideMerge(SecureRandom.layerWebCrypto)
)
