import { SessionRepository } from "@wasl/core/Auth"
import { Effect, Layer, Option } from "effect"
import { mapDelete, mapSet, MemoryStore, readStore, requireMembership, updateStore } from "./store.ts"

/** First-party sessions in the memory store, keyed by the hash of the cookie value; the twin of `SessionRepositoryPg`. */
export const SessionRepositoryMemory: Layer.Layer<SessionRepository, never, MemoryStore> = Layer.effect(
  SessionRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return SessionRepository.of({
      create: (session) =>
        updateStore(store, (state) => {
          requireMembership(state, session.accountId, session.userId, "sessions")
          if (state.sessions.has(session.idHash)) {
            throw new Error(`duplicate key value violates unique constraint on "sessions": ${session.idHash}`)
          }
          return [undefined, { ...state, sessions: mapSet(state.sessions, session.idHash, { ...session }) }] as const
        }),
      find: (idHash) => readStore(store, (state) => Option.fromNullishOr(state.sessions.get(idHash))),
      remove: (idHash) =>
        updateStore(store, (state) => [undefined, { ...state, sessions: mapDelete(state.sessions, idHash) }] as const),
      removeOthersOfUser: (userId, keepIdHash) =>
        updateStore(store, (state) => {
          const sessions = new Map(
            [...state.sessions].filter(([idHash, session]) => session.userId !== userId || idHash === keepIdHash)
          )
          return [undefined, { ...state, sessions }] as const
        }),
      switchAccount: (idHash, accountId) =>
        updateStore(store, (state) => {
          const session = state.sessions.get(idHash)
          if (session === undefined) return [false, state] as const
          requireMembership(state, accountId, session.userId, "sessions")
          return [true, { ...state, sessions: mapSet(state.sessions, idHash, { ...session, accountId }) }] as const
        })
    })
  })
)
