/** The full set of services the use-cases need, over a fresh in-memory database. */
import { RepositoriesMemory } from "@wasl/adapters/memory"
import { Layer } from "effect"
import { TokenHasher } from "../../src/Auth.ts"
import { FaultAt, type FaultPoint } from "./faults.ts"
import { PasswordHasherFake } from "./password-hasher.ts"
import { SecureRandomSeeded } from "./random.ts"
import { TransactorCounted } from "./transactions.ts"

/**
 * The memory repositories of `@wasl/adapters` (and their `MemoryStore`), with a
 * counting Transactor over theirs, the fake password hasher, the real Web
 * Crypto TokenHasher and one seeded SecureRandom shared by all. Build one per test.
 */
export const TestPorts = (seed = 42) =>
  Layer.mergeAll(TransactorCounted, PasswordHasherFake, TokenHasher.layerWebCrypto).pipe(
    Layer.provideMerge(RepositoriesMemory),
    Layer.provideMerge(SecureRandomSeeded(seed))
  )

/** `TestPorts`, with the port method at `point` dying until `disarmFault`. */
export const TestPortsWithFault = (point: FaultPoint, seed = 42) =>
  FaultAt(point).pipe(Layer.provideMerge(TestPorts(seed)))
