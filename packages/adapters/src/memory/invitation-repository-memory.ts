import { type Invitation, InvitationRepository } from "@wasl/core/Accounts"
import { DateTime, Effect, Layer, Option } from "effect"
import { type InvitationRow, MemoryStore, readStore, updateStore } from "./store.ts"

const isPending = (row: InvitationRow, now: DateTime.Utc) =>
  row.acceptedAt === null && row.revokedAt === null && DateTime.isGreaterThan(row.invitation.expires_at, now)

/** Invitations in the memory store; the twin of `InvitationRepositoryPg`. */
export const InvitationRepositoryMemory: Layer.Layer<InvitationRepository, never, MemoryStore> = Layer.effect(
  InvitationRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    /** Sets `field` of the account's invitation `id` to `now` when `may` allows; true when it did. */
    const mark = (
      accountId: number,
      id: number,
      now: DateTime.Utc,
      field: "acceptedAt" | "revokedAt",
      may: (row: InvitationRow) => boolean
    ) =>
      updateStore(store, (state) => {
        const at = state.invitations.rows.findIndex((row) => row.invitation.account_id === accountId && row.invitation.id === id)
        const row = state.invitations.rows[at]
        if (row === undefined || !may(row)) return [false, state] as const
        const rows = [...state.invitations.rows]
        rows[at] = { ...row, [field]: now }
        return [true, { ...state, invitations: { ...state.invitations, rows } }] as const
      })
    return InvitationRepository.of({
      create: (input) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            if (!state.accounts.has(input.accountId)) {
              throw new Error(`insert on table "invitations" violates foreign key constraint: account ${input.accountId}`)
            }
            const invitation: Invitation = {
              id: state.invitations.nextId,
              account_id: input.accountId,
              email: input.email,
              team_ids: [...input.teamIds],
              invited_by: input.invitedBy,
              status: "invited",
              expires_at: input.expiresAt,
              created_at: now
            }
            const row: InvitationRow = { invitation, tokenHash: input.tokenHash, acceptedAt: null, revokedAt: null }
            return [invitation, {
              ...state,
              invitations: { nextId: invitation.id + 1, rows: [...state.invitations.rows, row] }
            }] as const
          })),
      listPending: (accountId, now, page) =>
        readStore(store, (state) => {
          const all = state.invitations.rows
            .filter((row) => row.invitation.account_id === accountId && isPending(row, now))
            .map((row) => row.invitation)
            .reverse()
          return { items: all.slice(page.offset, page.offset + page.limit), total: all.length }
        }),
      findByTokenHash: (tokenHash) =>
        readStore(store, (state) =>
          Option.map(Option.fromNullishOr(state.invitations.rows.find((row) => row.tokenHash === tokenHash)), (row) => ({
            invitation: row.invitation,
            state: row.acceptedAt !== null ? "accepted" as const : row.revokedAt !== null ? "revoked" as const : "pending" as const
          }))),
      revoke: (accountId, id, now) => mark(accountId, id, now, "revokedAt", (row) => row.acceptedAt === null && row.revokedAt === null),
      accept: (accountId, id, now) => mark(accountId, id, now, "acceptedAt", (row) => isPending(row, now))
    })
  })
)
