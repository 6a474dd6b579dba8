/**
 * 0020: the announcements that let the processes keep `GET /api/me`'s parts (`RepositoryCachesPg`
 * keeps `CurrentUserReader.read` per account and user): the user, the account, the membership,
 * the teams, the notification preferences, the unread count and the subscription, read from eight
 * tables. Each change to one of them NOTIFYs `wasl_cache` (migration 0017's channel and
 * `cache_notify`), with what to forget:
 *
 * - `me:<account>:<user>`: a membership, a team membership, a notification preference, or a
 *   notification's being stored or read (the unread count) changed;
 * - `me:<account>`: the account (its plan, its OTP credits), its subscription or one of its teams
 *   changed (every member's parts);
 * - `me-user:<user>`: the user row changed (every account's parts of that user).
 *
 * Notifications are announced when written and when their `read_at` or `stored` changes, not when
 * deleted: the retention deletes only read or unstored ones, which the count leaves out, and a
 * member's deletion (which cascades to theirs) is announced by `account_user`'s trigger. Inserting
 * a team announces nothing: its members join it through `team_user`, which does.
 */
import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { createCacheTriggers } from "./cache-triggers.ts"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = createCacheTriggers("me_cache_notify", [
  ["users", "DELETE OR UPDATE", "'me-user', 'id'"],
  ["accounts", "DELETE OR UPDATE", "'me', 'id'"],
  ["subscriptions", "INSERT OR DELETE OR UPDATE", "'me', 'account_id'"],
  ["teams", "DELETE OR UPDATE", "'me', 'account_id'"],
  ["account_user", "INSERT OR DELETE OR UPDATE", "'me', 'account_id', 'user_id'"],
  ["team_user", "INSERT OR DELETE OR UPDATE", "'me', 'account_id', 'user_id'"],
  ["notification_preferences", "INSERT OR DELETE OR UPDATE", "'me', 'account_id', 'user_id'"],
  ["notifications", "INSERT OR UPDATE OF read_at, stored", "'me', 'account_id', 'user_id'"]
])

export default migration
