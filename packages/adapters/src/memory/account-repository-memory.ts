import { type Account, AccountRepository, type Subscription } from "@wasl/core/Accounts"
import { NotFound } from "@wasl/core/Errors"
import { newRecordId } from "@wasl/core/Wire"
import { DateTime, Effect, Layer, Option, Result } from "effect"
import { SecureRandom } from "effect/crypto"
import { InsufficientOtpCredits } from "../repository-semantics.ts"
import { mapSet, MemoryStore, modifyStore, readStore, updateStore } from "./store.ts"

/**
 * Accounts and their subscription in the memory store; the twin of `AccountRepositoryPg`: a
 * negative `addOtpCredits` larger than the balance changes nothing and dies with
 * `InsufficientOtpCredits`; an unknown account fails `NotFound`. Needs `SecureRandom` for
 * subscription ids.
 */
export const AccountRepositoryMemory: Layer.Layer<AccountRepository, never, MemoryStore | SecureRandom.SecureRandom> =
  Layer.effect(
    AccountRepository,
    Effect.gen(function*() {
      const store = yield* MemoryStore
      const random = yield* SecureRandom.SecureRandom

      const create = Effect.fnUntraced(function*(input: Parameters<AccountRepository["Service"]["create"]>[0]) {
        const now = yield* DateTime.now
        const subscriptionId = yield* Effect.provideService(newRecordId, SecureRandom.SecureRandom, random)
        return yield* updateStore(store, (state) => {
          const id = state.sequences.accounts
          const account: Account = {
            id,
            name: input.name,
            plan: input.plan,
            webhook_limit: input.webhookLimit,
            otp_credits: input.otpCredits,
            industry: null,
            logo: null,
            address: null,
            timeZone: null,
            calendar: null,
            hour12: null,
            locale: null,
            currency: null,
            created_at: now,
            updated_at: now
          }
          const subscription: Subscription = {
            id: subscriptionId,
            account_id: id,
            name: "default",
            status: "active",
            trial_ends_at: null,
            paused_at: null,
            ends_at: null,
            canceled_at: null,
            created_at: now,
            updated_at: now,
            provider: "wasl",
            will_change_at: null,
            will_change_to: null,
            interval: 30
          }
          if (input.otpCredits < 0 || !Number.isSafeInteger(input.otpCredits)) {
            throw new Error(`new row for relation "accounts" violates check constraint: otp_credits = ${input.otpCredits}`)
          }
          return [account, {
            ...state,
            sequences: { ...state.sequences, accounts: id + 1 },
            accounts: mapSet(state.accounts, id, account),
            subscriptions: mapSet(state.subscriptions, id, subscription)
          }] as const
        })
      })

      const update = (accountId: number, f: (account: Account) => Account) =>
        modifyStore(store, (state) => {
          const account = state.accounts.get(accountId)
          if (account === undefined) return Result.fail(new NotFound())
          const next = f(account)
          return Result.succeed([next, { ...state, accounts: mapSet(state.accounts, accountId, next) }] as const)
        })

      return AccountRepository.of({
        create,
        findById: (id) => readStore(store, (state) => Option.fromNullishOr(state.accounts.get(id))),
        count: readStore(store, (state) => state.accounts.size),
        subscription: (accountId) =>
          Effect.flatMap(
            readStore(store, (state) => state.subscriptions.get(accountId)),
            (subscription) => subscription === undefined ? Effect.fail(new NotFound()) : Effect.succeed(subscription)
          ),
        addOtpCredits: (accountId, amount) =>
          Effect.flatMap(DateTime.now, (now) =>
            update(accountId, (account) => {
              const balance = account.otp_credits + amount
              if (balance < 0) throw new InsufficientOtpCredits(accountId, amount)
              return { ...account, otp_credits: balance, updated_at: now }
            })),
        setPlan: (accountId, plan, webhookLimit) =>
          Effect.flatMap(DateTime.now, (now) =>
            update(accountId, (account) => ({ ...account, plan, webhook_limit: webhookLimit, updated_at: now }))),
        setSettings: (accountId, settings) =>
          Effect.flatMap(DateTime.now, (now) => update(accountId, (account) => ({ ...account, ...settings, updated_at: now })))
      })
    })
  )
