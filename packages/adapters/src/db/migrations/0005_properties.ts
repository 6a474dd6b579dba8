/**
 * 0005: custom property definitions and property groups (the
 * `PropertyRepository` / `PropertyGroupRepository` ports of @wasl/core, `PropertyRepositoryPg` /
 * `PropertyGroupRepositoryPg` in pg/).
 *
 * - Only the accounts' own definitions are stored: the built-ins are constants of the core, the
 *   same in every account, with fixed `_id`s beginning `ffffffff`.
 * - `account_id` leads every key: primary keys `(account_id, id)` (ids are the 24-hex record ids;
 *   `record_values.property_id` of 0004 refers to a property by its id), unique
 *   `(account_id, kind, internal_name)` (unique per kind and account; the built-in
 *   names are refused by the core before they get here), and `(account_id, kind, group_id)` for
 *   "does the group still hold properties".
 * - `group_id` has no foreign key: a property may sit in its kind's built-in group, which is not
 *   a row. The core checks the group exists in the account and kind when a property is written,
 *   and refuses to delete a group that still holds one. (Two concurrent transactions, one putting a
 *   property in a group and one deleting that group, can both commit; the property then names a
 *   group that is gone. The next update of the property has to pick an existing group.)
 * - Display texts are `jsonb` objects (`name` `{ ar?, en? }`, `description` the same or NULL for
 *   none); a select's options are a `jsonb` array of `{ en, ar, internal_name }`, NULL for the
 *   other types. (`desc` and `enum` are not used as column names: `desc` is an SQL keyword.)
 * - `made_by` is the creating user, kept as NULL when the user is deleted.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const KINDS = `('contact', 'company', 'deal', 'ticket', 'invoice', 'product')`
const TYPES =
  `('string', 'textarea', 'number', 'boolean', 'date', 'datetime', 'single_select', 'multi_select', 'email', 'phone', 'url')`

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const run = (statement: string) => sql.unsafe(statement).raw

  yield* run(`
    CREATE TABLE property_groups (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id text NOT NULL CHECK (id ~ '^[0-9a-f]{24}$'),
      kind text NOT NULL CHECK (kind IN ${KINDS}),
      internal_name text NOT NULL CHECK (internal_name <> ''),
      name jsonb NOT NULL CHECK (jsonb_typeof(name) = 'object'),
      description jsonb CHECK (jsonb_typeof(description) = 'object'),
      made_by bigint REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id),
      UNIQUE (account_id, kind, internal_name)
    )
  `)

  yield* run(`
    CREATE TABLE properties (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id text NOT NULL CHECK (id ~ '^[0-9a-f]{24}$'),
      kind text NOT NULL CHECK (kind IN ${KINDS}),
      internal_name text NOT NULL CHECK (internal_name ~ '^[a-z][a-z0-9_]{0,62}$'),
      type text NOT NULL CHECK (type IN ${TYPES}),
      name jsonb NOT NULL CHECK (jsonb_typeof(name) = 'object'),
      description jsonb CHECK (jsonb_typeof(description) = 'object'),
      group_id text NOT NULL CHECK (group_id ~ '^[0-9a-f]{24}$'),
      options jsonb CHECK (jsonb_typeof(options) = 'array'),
      made_by bigint REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id),
      UNIQUE (account_id, kind, internal_name)
    )
  `)

  yield* run(`CREATE INDEX properties_group ON properties (account_id, kind, group_id)`)
  yield* run(`CREATE INDEX properties_created ON properties (account_id, kind, created_at, id)`)
  yield* run(`CREATE INDEX property_groups_created ON property_groups (account_id, kind, created_at, id)`)
})

export default migration
