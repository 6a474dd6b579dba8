/**
 * Fault injection for the rollback tests: one port method, wrapped over the
 * real memory repository, dies while the fault is armed (from the start).
 */
import { Context, Effect, Layer, Ref } from "effect"
import { TeamRepository, UserRepository } from "../../src/Accounts.ts"
import { TokenRepository } from "../../src/Auth.ts"

export type FaultPoint = "UserRepository.addMembership" | "TeamRepository.create" | "TokenRepository.create"

export class InjectedFault extends Context.Service<InjectedFault, {
  readonly point: FaultPoint
  readonly armed: Ref.Ref<boolean>
}>()("@wasl/core/test/InjectedFault") {}

/** Lets the faulty method run normally from now on. */
export const disarmFault: Effect.Effect<void, never, InjectedFault> = InjectedFault.use((fault) =>
  Ref.set(fault.armed, false)
)

const dieIfArmed = (fault: InjectedFault["Service"]): Effect.Effect<void> =>
  Effect.flatMap(
    Ref.get(fault.armed),
    (armed) => armed ? Effect.die(new Error(`injected fault: ${fault.point}`)) : Effect.void
  )

const faultyUserRepository = Layer.effect(
  UserRepository,
  Effect.gen(function*() {
    const real = yield* UserRepository
    const fault = yield* InjectedFault
    return UserRepository.of({
      ...real,
      addMembership: (accountId, userId) => Effect.andThen(dieIfArmed(fault), real.addMembership(accountId, userId))
    })
  })
)

const faultyTeamRepository = Layer.effect(
  TeamRepository,
  Effect.gen(function*() {
    const real = yield* TeamRepository
    const fault = yield* InjectedFault
    return TeamRepository.of({
      ...real,
      create: (input, members) => Effect.andThen(dieIfArmed(fault), real.create(input, members))
    })
  })
)

const faultyTokenRepository = Layer.effect(
  TokenRepository,
  Effect.gen(function*() {
    const real = yield* TokenRepository
    const fault = yield* InjectedFault
    return TokenRepository.of({
      ...real,
      create: (input) => Effect.andThen(dieIfArmed(fault), real.create(input))
    })
  })
)

/**
 * Replaces the port named by `point` (built from the real one, which it needs)
 * with one whose method dies while armed; also provides the `InjectedFault`.
 */
export const FaultAt = (
  point: FaultPoint
): Layer.Layer<InjectedFault, never, UserRepository | TeamRepository | TokenRepository> => {
  const fault = Layer.effect(InjectedFault, Effect.map(Ref.make(true), (armed) => ({ point, armed })))
  switch (point) {
    case "UserRepository.addMembership":
      return faultyUserRepository.pipe(Layer.provideMerge(fault))
    case "TeamRepository.create":
      return faultyTeamRepository.pipe(Layer.provideMerge(fault))
    case "TokenRepository.create":
      return faultyTokenRepository.pipe(Layer.provideMerge(fault))
  }
}
