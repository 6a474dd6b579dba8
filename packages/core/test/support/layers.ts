/** The full set of services the use-cases need, over fresh in-memory state. */
import { Layer } from "effect"
import { TokenHasher } from "../../src/index.ts"
import { PortsMemory } from "./memory.ts"
import { SecureRandomSeeded } from "./random.ts"

/** Memory ports + the real Web Crypto TokenHasher + a seeded SecureRandom. Build one per test. */
export const TestPorts = (seed = 42) => Layer.mergeAll(PortsMemory, TokenHasher.layerWebCrypto, SecureRandomSeeded(seed))
